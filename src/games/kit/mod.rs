//! What every game would otherwise hand-roll: Zobrist key tables ([`zobrist`]) and the
//! splitting of position strings into fields ([`fields`]).
//! Only the games' folders use it; it knows no game.

pub mod fields;
pub mod zobrist;
