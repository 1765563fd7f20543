//! Zobrist keys of Ludo positions: one per (side, piece value, how many pieces of that side
//! already stand there), so that stacked pieces do not cancel out, plus keys for Yellow to
//! move, the pending die and the sixes count. The keys are fixed (SplitMix64 from a constant
//! seed), so hashes are the same in every run.

use super::{GOAL, Ludo, MAX_PIECES, order_key};
use crate::game::Player;
use crate::splitmix::splitmix64;

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
    let mut keys = Keys {
        piece: [[[0; MAX_PIECES]; VALUES]; 2],
        yellow_to_move: 0,
        die: [0; 7],
        sixes: [0; 4],
    };
    let mut s = 0;
    while s < 2 {
        let mut v = 0;
        while v < VALUES {
            let mut k = 0;
            while k < MAX_PIECES {
                keys.piece[s][v][k] = splitmix64(&mut state);
                k += 1;
            }
            v += 1;
        }
        s += 1;
    }
    keys.yellow_to_move = splitmix64(&mut state);
    let mut d = 1; // die 0 (none pending) keeps key 0
    while d < 7 {
        keys.die[d] = splitmix64(&mut state);
        d += 1;
    }
    let mut n = 1; // sixes 0 keeps key 0
    while n < 4 {
        keys.sixes[n] = splitmix64(&mut state);
        n += 1;
    }
    keys
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
