//! Quartet: one engine for four two-player board games (R&B, Duell, Apocalypse, Ludo),
//! driven through a UCI-style text protocol. See README.md and protocol.md.

pub mod bench;
pub mod conformance;
pub mod eval;
pub mod game;
pub mod games;
#[cfg(feature = "gui")]
pub mod gui;
pub mod notation;
pub mod perft;
pub mod players;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod search;
pub mod splitmix;
