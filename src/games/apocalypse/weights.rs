//! The evaluation's weights. No fit has won its match for Apocalypse yet, so they are the
//! hand-set ones; `quartet tune --game apocalypse --out` writes a fitted table here.

pub(super) use super::hand_weights::WEIGHTS;
