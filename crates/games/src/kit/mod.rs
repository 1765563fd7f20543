//! What every game would otherwise hand-roll: Zobrist key tables ([`zobrist`]), the
//! splitting of position strings into fields ([`fields`]), the rank-string codec of
//! board placements ([`ranks`]) and the move parsers' refusal at a finished game
//! ([`node`]).
//! Only the games' folders use it; it knows no game.

pub mod fields;
pub mod node;
pub mod ranks;
pub mod zobrist;
