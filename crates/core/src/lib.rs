//! What every game is, below the games themselves: the [`game::Game`] trait and its node
//! kinds, [`notation`] (position strings and move tokens), what a game [`declaration`]
//! states once, [`exact`] solutions, the [`eval`] trait with its tunable weights and
//! networks, zero-sum [`matrix`] games, the [`history`] of a game for repetitions, [`perft`]
//! counts and the [`splitmix`] generator. Nothing here knows a game, the search or the
//! protocol.

#![deny(missing_docs)]

pub mod declaration;
pub mod eval;
pub mod exact;
pub mod game;
pub mod history;
pub mod matrix;
pub mod notation;
pub mod perft;
pub mod splitmix;
