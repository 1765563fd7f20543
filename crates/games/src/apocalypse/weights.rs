//! Evaluation weights fitted by Texel's method (generated; do not edit by hand).
//! Regenerate from the self-play data (see README.md, "Training the evaluations"):
//! `quartet tune --game apocalypse --data apocalypse.txt apocalypse-fit1-s2.txt
//! apocalypse-fit1-s3.txt --iterations 2000 --learning-rate 2 --l2 0.0000001 --lambda 0.5
//! --score-cap 2000 --holdout-every 4 --keep-noisy --out crates/games/src/apocalypse/weights.rs`

/// The evaluation's weights, indexed as `eval.rs` names them.
pub(super) const WEIGHTS: [i32; 37] = [
    260, // knight
    261, // pawn_set[1 pawns]
    420, // pawn_set[2 pawns]
    566, // pawn_set[3 pawns]
    698, // pawn_set[4 pawns]
    804, // pawn_set[5 pawns]
    11,  // advance[1 ranks]
    11,  // advance[2 ranks]
    31,  // advance[3 ranks]
    54,  // knight_attacked
    55,  // pawn_attacked
    60,  // penalty
    -13, // knight_square[a1]
    3,   // knight_square[b1]
    -4,  // knight_square[c1]
    -3,  // knight_square[a2]
    -2,  // knight_square[b2]
    0,   // knight_square[c2]
    -5,  // knight_square[a3]
    -2,  // knight_square[b3]
    2,   // knight_square[c3]
    -1,  // knight_square[a4]
    -3,  // knight_square[b4]
    -3,  // knight_square[c4]
    -12, // knight_square[a5]
    1,   // knight_square[b5]
    1,   // knight_square[c5]
    -1,  // knight_attacked_by_pawn
    3,   // pawn_defended
    -3,  // knight_defended
    1,   // knight_mobility
    10,  // promotes
    8,   // redeploys
    -6,  // pawn_blocked
    35,  // pawn_file[a]
    28,  // pawn_file[b]
    10,  // pawn_file[c]
];
