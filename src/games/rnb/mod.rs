//! R&B ("Red & Black", R&B-Dual): rules, notation and evaluation, per
//! `shared/rules/rnb.md`.
//!
//! A 6×6 board (see [`geometry`] for every board constant), kings on their base squares,
//! 16 alternating soldier placements, then one-step moves in 8 directions with hasami-shogi
//! style orthogonal captures (same-tribe pair, king pair, Dual). [`Rnb`] is the position and
//! implements [`crate::game::Game`], [`crate::notation::Notation`] (`NAME = "rnb"`) and
//! [`crate::eval::Evaluate`]; [`Move`] is a placement (`R@a2`) or a step (`d1d2`).
//!
//! Threefold repetition (rule 1.6-5) needs the history, so it is not in `node()`: the
//! history keeper uses [`crate::game::Game::repetition_window`] and the hash, which covers
//! board, hands and side to move but not the quiet-ply counter.

mod capture;
mod describe;
mod eval;
pub mod geometry;
mod notation;
mod pieces;
mod position;
mod rules;
mod threats;
mod zobrist;

#[cfg(test)]
mod examples;
#[cfg(test)]
mod perft_tests;

pub use geometry::Square;
pub use pieces::{Colour, Move, Piece};
pub use position::{QUIET_PLY_LIMIT, Rnb};
