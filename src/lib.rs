//! Quartet: one engine for four two-player board games (R&B, Duell, Apocalypse, Ludo),
//! driven through a UCI-style text protocol. See README.md and protocol.md.

#![deny(missing_docs)]

pub mod bench;
pub mod cli;
pub mod declaration;
pub mod engine;
pub mod eval;
pub mod exact;
pub mod game;
pub mod games;
#[cfg(feature = "gui")]
pub mod gui;
pub mod history;
pub mod invariants;
pub mod learn;
pub mod matrix;
pub mod notation;
pub mod output;
pub mod perft;
pub mod players;
pub mod protocol;
pub mod referee;
pub mod review;
pub mod search;
pub mod splitmix;
pub mod toys;
