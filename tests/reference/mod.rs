//! Independent reference implementations of the alternating games (Duell, R&B), written
//! straight from the rules files with std only; they check the perft data files
//! (`crates/games/src/<game>/perft.data`, read by `tests/common/perft_data.rs`).

pub mod duell;
pub mod game;
pub mod rnb;
pub mod rnb_setup;

pub use duell::Duell;
pub use game::ReferenceGame;
pub use rnb::Rnb;
