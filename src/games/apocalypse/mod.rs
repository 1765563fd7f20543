//! Apocalypse (C. S. Elliott, 1976): a 5×5 chess variant of knights and pawns with
//! simultaneous moves, as specified in shared/rules/apocalypse.md.
//!
//! [`Apocalypse`] is the position (it implements `Game`, `Notation` and `Evaluate`);
//! [`Move`] is one player's declaration, VOID included. Every non-terminal node is
//! `Node::Simultaneous`; a joint turn is `Action::Joint(white, black)`.

mod board;
mod describe;
pub mod eval;
mod notation;
mod rules;
pub mod solve;

#[cfg(test)]
mod examples;
#[cfg(test)]
mod rules_tests;

pub use board::{Cell, Move, Piece};
pub use notation::START;
pub use rules::{Apocalypse, NO_PROGRESS_LIMIT, PENALTY_LIMIT};
