//! The four games. Each lives in its own folder: rules, notation and evaluation.

pub mod apocalypse;
pub mod duell;
pub mod ludo;
pub mod rnb;
