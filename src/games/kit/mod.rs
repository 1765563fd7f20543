//! What every game would otherwise hand-roll: Zobrist key tables ([`zobrist`]).
//! Only the games' folders use it; it knows no game.

pub mod zobrist;
