//! The hand-set weights of the evaluation before any fit (the baseline's values):
//! the tuner's starting point and the anchor of its ridge penalty.

/// The evaluation's weights, indexed as `eval.rs` names them.
pub(super) const WEIGHTS: [i32; 37] = [
    300, // knight
    260, // pawn_set[1 pawns]
    440, // pawn_set[2 pawns]
    580, // pawn_set[3 pawns]
    690, // pawn_set[4 pawns]
    780, // pawn_set[5 pawns]
    6,   // advance[1 ranks]
    16,  // advance[2 ranks]
    30,  // advance[3 ranks]
    70,  // knight_attacked
    20,  // pawn_attacked
    60,  // penalty
    0,   // knight_square[a1]
    0,   // knight_square[b1]
    0,   // knight_square[c1]
    0,   // knight_square[a2]
    0,   // knight_square[b2]
    0,   // knight_square[c2]
    0,   // knight_square[a3]
    0,   // knight_square[b3]
    0,   // knight_square[c3]
    0,   // knight_square[a4]
    0,   // knight_square[b4]
    0,   // knight_square[c4]
    0,   // knight_square[a5]
    0,   // knight_square[b5]
    0,   // knight_square[c5]
    0,   // knight_attacked_by_pawn
    0,   // pawn_defended
    0,   // knight_defended
    0,   // knight_mobility
    0,   // promotes
    0,   // redeploys
    0,   // pawn_blocked
    0,   // pawn_file[a]
    0,   // pawn_file[b]
    0,   // pawn_file[c]
];
