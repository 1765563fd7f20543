//! Zobrist keys of Ludo positions: one per (side, piece value, how many pieces of that side
//! already stand there), so that stacked pieces do not cancel out, plus keys for Yellow to
//! move, the pending die and the sixes count. The keys are fixed (SplitMix64 from a constant
//! seed), so hashes are the same in every run.

use super::{GOAL, Ludo, MAX_PIECES, order_key};
use crate::kit::zobrist;
use quartet_core::game::Player;

/// Distinct piece values in the hash (base and progress 0..=56), indexed by `order_key`.
const VALUES: usize = GOAL as usize + 2;

/// Zobrist keys: one per (side, piece value, how many pieces already stand there), so that
/// stacked pieces do not cancel out; plus keys for the side to move, the die and the sixes.
struct Keys {
    piece: [[[u64; MAX_PIECES]; VALUES]; 2],
    yellow_to_move: u64,
    die: [u64; 7],
    sixes: [u64; 4],
}

const fn build_keys() -> Keys {
    let mut state = 0x4C55_444F_u64; // "LUDO"
    let piece = [zobrist::table(&mut state), zobrist::table(&mut state)];
    let [yellow_to_move] = zobrist::keys(&mut state);
    // Die 0 (none pending) and sixes 0 keep key 0.
    let die = zobrist::keys_but_zero(&mut state);
    let sixes = zobrist::keys_but_zero(&mut state);
    Keys {
        piece,
        yellow_to_move,
        die,
        sixes,
    }
}

static KEYS: Keys = build_keys();

/// The key of the `nth` piece (0-based) of `side` standing on `value`.
pub(super) fn piece_key(side: Player, value: u8, nth: usize) -> u64 {
    KEYS.piece[side.index()][order_key(value) as usize][nth]
}

/// The key of Yellow to move (Red to move has none).
pub(super) fn yellow_key() -> u64 {
    KEYS.yellow_to_move
}

/// The key of the pending die (0 = none pending has key 0).
pub(super) fn die_key(die: u8) -> u64 {
    KEYS.die[usize::from(die)]
}

/// The key of the sixes count (0 has key 0).
pub(super) fn sixes_key(sixes: u8) -> u64 {
    KEYS.sixes[usize::from(sixes)]
}

impl Ludo {
    /// The hash computed from scratch.
    pub(super) fn fresh_hash(&self) -> u64 {
        let mut h = 0;
        for side in [Player::First, Player::Second] {
            let pieces = self.pieces(side);
            for (i, &v) in pieces.iter().enumerate() {
                let nth = pieces[..i].iter().filter(|&&w| w == v).count();
                h ^= piece_key(side, v, nth);
            }
        }
        if self.side == Player::Second {
            h ^= yellow_key();
        }
        h ^ die_key(self.die) ^ sixes_key(self.sixes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero_except_no_die_and_no_sixes() {
        let drawn = KEYS.piece.iter().flatten().flatten().copied();
        let drawn = drawn.chain([KEYS.yellow_to_move]);
        let drawn = drawn.chain(KEYS.die[1..].iter().chain(&KEYS.sixes[1..]).copied());
        assert!(zobrist::distinct_and_nonzero(drawn));
        assert_eq!((die_key(0), sixes_key(0)), (0, 0));
    }
}
