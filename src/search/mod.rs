//! Search over the game tree. For now only the matrix-game solver of simultaneous nodes.

pub mod matrix;
