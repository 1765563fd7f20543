//! Zobrist keys, generated at compile time from a fixed seed (splitmix64), so hashes are
//! the same in every run and no global state is initialised at run time.
//!
//! The hash of a position is the XOR of `PIECE_SQUARE[piece][square]` over every occupied
//! square, and of `BLACK_TO_MOVE` when Black is to move: exactly what a repetition compares
//! (rules §1.12: placement, every die's (T, N), side to move), and not the counters.

use crate::kit::zobrist;
use quartet_core::splitmix::splitmix64;

use super::board::SQUARES;
use super::board::Square;
use super::piece::{PIECE_CODES, Piece};

const SEED: u64 = 0xD0E1_1D1C_E5EE_D000;

/// `PIECE_SQUARE[p][s]`: the key of piece code `p` on square `s` (0 for the empty code).
static PIECE_SQUARE: [[u64; SQUARES]; PIECE_CODES] = {
    let mut t = [[0u64; SQUARES]; PIECE_CODES];
    let mut state = SEED;
    let mut p = 1;
    while p < PIECE_CODES {
        t[p] = zobrist::keys(&mut state);
        p += 1;
    }
    t
};

/// The key XORed in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix64(&mut (SEED ^ 0x5555_5555_5555_5555));

/// The key of piece `p` standing on `s` (0 for the empty code).
#[inline]
pub fn piece_square(p: Piece, s: Square) -> u64 {
    PIECE_SQUARE[p as usize][s as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let board = (1..PIECE_CODES).flat_map(|p| (0..SQUARES).map(move |s| (p, s)));
        let keys = board.map(|(p, s)| piece_square(p as u8, s as u8));
        assert!(zobrist::distinct_and_nonzero(keys.chain([BLACK_TO_MOVE])));
        assert_eq!(piece_square(0, 5), 0);
    }
}
