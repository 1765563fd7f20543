//! Learning the evaluations from self-play: the data format of positions with their
//! results ([`data`]), the self-play driver that writes it ([`selfplay`]) and the tuner
//! that fits a game's evaluation weights to it by Texel's method ([`texel`], with each
//! game's weights behind [`quartet_core::eval::tunable::Tunable`]).

#![deny(missing_docs)]

pub mod data;
pub mod network;
pub mod selfplay;
pub mod texel;
pub mod tune;
