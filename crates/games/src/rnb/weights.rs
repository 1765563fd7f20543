//! Evaluation weights fitted by Texel's method (generated; do not edit by hand).
//! Regenerate from the self-play data (see README.md, "Training the evaluations"):
//! `quartet tune --game rnb --data rnb-540.txt --iterations 3000 --learning-rate 3 --l2 0.0000001
//! --lambda 1 --score-cap 2000 --holdout-every 4 --out crates/games/src/rnb/weights.rs`

/// The evaluation's weights, indexed as `eval.rs` names them.
pub(super) const WEIGHTS: [i32; 30] = [
    101,  // soldier
    -5,   // in_hand
    5,    // mobility
    9,    // dual_weak_soldier
    25,   // dual_weak_king
    -13,  // king_open_side
    28,   // line_danger
    67,   // capture_now
    26,   // capture_more
    33,   // hanging
    247,  // king_hanging
    4,    // tempo
    120,  // king_near_base[1 steps]
    68,   // king_near_base[2 steps]
    36,   // king_near_base[3 steps]
    2,    // king_near_base[4 steps]
    -14,  // king_near_base[5 steps]
    -1,   // king_near_base[6 steps]
    1500, // king_wins_race[1 steps]
    700,  // king_wins_race[2 steps]
    300,  // king_wins_race[3 steps]
    120,  // king_wins_race[4 steps]
    50,   // king_wins_race[5 steps]
    20,   // king_wins_race[6 steps]
    -13,  // soldier_rank[1]
    -1,   // soldier_rank[2]
    -7,   // soldier_rank[3]
    4,    // soldier_rank[4]
    0,    // soldier_rank[5]
    24,   // soldier_rank[6]
];
