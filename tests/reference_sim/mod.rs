//! Independent reference referees for the two chance/simultaneous games, written from the rules
//! files alone (std only, no `quartet` code); they re-compute the perft data files (read by
//! `tests/common/perft_data.rs`). Used by tests/reference_chance_sim.rs to prove the references against the rules'
//! worked examples and to keep crates/games/src/{apocalypse,ludo}/perft.data from drifting.

pub mod apocalypse;
pub mod ludo;
