//! Evaluation weights fitted by Texel's method (generated; do not edit by hand).
//! Regenerate from the self-play data (see README.md, "Training the evaluations"):
//! `quartet tune --game apocalypse --data apocalypse.txt --iterations 2000 --learning-rate 2 --l2 0.0000001 --lambda 0.5 --score-cap 2000 --holdout-every 4 --keep-noisy --out src/games/apocalypse/weights.rs`

/// The evaluation's weights, indexed as `eval.rs` names them.
pub(super) const WEIGHTS: [i32; 27] = [
    261, // knight
    246, // pawn_set[1 pawns]
    408, // pawn_set[2 pawns]
    568, // pawn_set[3 pawns]
    714, // pawn_set[4 pawns]
    815, // pawn_set[5 pawns]
    19,  // advance[1 ranks]
    21,  // advance[2 ranks]
    43,  // advance[3 ranks]
    53,  // knight_attacked
    50,  // pawn_attacked
    60,  // penalty
    -16, // knight_square[a1]
    11,  // knight_square[b1]
    -3,  // knight_square[c1]
    -11, // knight_square[a2]
    2,   // knight_square[b2]
    9,   // knight_square[c2]
    8,   // knight_square[a3]
    -9,  // knight_square[b3]
    10,  // knight_square[c3]
    -3,  // knight_square[a4]
    -6,  // knight_square[b4]
    -1,  // knight_square[c4]
    -9,  // knight_square[a5]
    -6,  // knight_square[b5]
    -14, // knight_square[c5]
];
