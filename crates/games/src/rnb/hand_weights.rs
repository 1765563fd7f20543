//! The hand-set weights of the evaluation before any fit (the baseline's values):
//! the tuner's starting point and the anchor of its ridge penalty.

/// The evaluation's weights, indexed as `eval.rs` names them.
pub(super) const WEIGHTS: [i32; 30] = [
    100,  // soldier
    0,    // in_hand
    3,    // mobility
    6,    // dual_weak_soldier
    40,   // dual_weak_king
    12,   // king_open_side
    35,   // line_danger
    80,   // capture_now
    30,   // capture_more
    25,   // hanging
    250,  // king_hanging
    8,    // tempo
    120,  // king_near_base[1 steps]
    60,   // king_near_base[2 steps]
    30,   // king_near_base[3 steps]
    15,   // king_near_base[4 steps]
    8,    // king_near_base[5 steps]
    4,    // king_near_base[6 steps]
    1500, // king_wins_race[1 steps]
    700,  // king_wins_race[2 steps]
    300,  // king_wins_race[3 steps]
    120,  // king_wins_race[4 steps]
    50,   // king_wins_race[5 steps]
    20,   // king_wins_race[6 steps]
    0,    // soldier_rank[1]
    0,    // soldier_rank[2]
    0,    // soldier_rank[3]
    0,    // soldier_rank[4]
    0,    // soldier_rank[5]
    0,    // soldier_rank[6]
];
