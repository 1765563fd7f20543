//! What every game would otherwise hand-roll: Zobrist key tables ([`zobrist`]), the
//! splitting of position strings into fields ([`fields`]) and the rank-string codec of
//! board placements ([`ranks`]).
//! Only the games' folders use it; it knows no game.

pub mod fields;
pub mod ranks;
pub mod zobrist;
