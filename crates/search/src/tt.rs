//! The transposition table: a fixed-size hash table of search results shared by every
//! search thread without locks (each entry is two atomic words; the key word is stored
//! XOR-ed with the data word, so a torn write is detected as a miss — the "lockless
//! hashing" of Hyatt and Mann).
//!
//! Values are stored from the first player's view, with mate scores made relative to the
//! node (so a mate found at one ply is read back correctly at another).

use quartet_core::eval::MATE_BOUND;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the stored one (a fail-high).
    Lower,
    /// The true value is at most the stored one (a fail-low).
    Upper,
    /// The stored value is exact.
    Exact,
}

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move code of the best move found, if any (see `Evaluate::move_code`).
    pub move_code: Option<u32>,
    /// The value from the first player's view, already adjusted to the probing ply.
    pub value: i32,
    /// The draft (remaining depth) the value was searched to.
    pub depth: i32,
    /// How the value bounds the true value.
    pub bound: Bound,
}

impl Entry {
    /// Whether this entry decides a node searched to `depth` with window (`alpha`, `beta`):
    /// it was searched at least as deep and its value is exact or a bound outside the window.
    pub fn cuts(&self, depth: i32, alpha: i32, beta: i32) -> bool {
        self.depth >= depth
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.value >= beta,
                Bound::Upper => self.value <= alpha,
            }
    }
}

/// Bytes per entry (two `u64`).
const ENTRY_BYTES: usize = 16;
/// Entries per bucket; a probe looks at every entry of one bucket.
const BUCKET: usize = 2;
/// The largest table size accepted, in MiB.
pub const MAX_HASH_MB: usize = 16_384;

/// A lock-free transposition table.
pub struct TranspositionTable {
    words: Vec<AtomicU64>,
    buckets: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` MiB (at least one bucket). Fails without aborting when the memory
    /// cannot be had or `mb` exceeds [`MAX_HASH_MB`].
    pub fn new(mb: usize) -> Result<Self, String> {
        if mb > MAX_HASH_MB {
            return Err(format!(
                "hash size {mb} MiB exceeds the maximum {MAX_HASH_MB}"
            ));
        }
        let buckets = ((mb << 20) / (ENTRY_BYTES * BUCKET)).max(1);
        let n = buckets * BUCKET * 2;
        let mut words = Vec::new();
        words
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate {mb} MiB for the hash table"))?;
        words.resize_with(n, || AtomicU64::new(0));
        Ok(TranspositionTable {
            words,
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for w in &self.words {
            w.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims of replacement.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET * 2
    }

    /// Looks `key` up; `ply` is the probing node's distance from the root.
    pub fn probe(&self, key: u64, ply: u32) -> Option<Entry> {
        let base = self.bucket(key);
        for i in 0..BUCKET {
            let k = self.words[base + 2 * i].load(Ordering::Relaxed);
            let d = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if d != 0 && k ^ d == key {
                return Some(unpack(d, ply));
            }
        }
        None
    }

    /// Stores a result for `key`, replacing the same key, else an empty slot, else the
    /// shallowest or oldest entry of the bucket. A missing move keeps the stored one.
    pub fn store(&self, key: u64, ply: u32, entry: Entry) {
        let base = self.bucket(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        let mut old_move = None;
        for i in 0..BUCKET {
            let k = self.words[base + 2 * i].load(Ordering::Relaxed);
            let d = self.words[base + 2 * i + 1].load(Ordering::Relaxed);
            if d == 0 || k ^ d == key {
                victim = i;
                if d != 0 {
                    old_move = unpack(d, ply).move_code;
                }
                break;
            }
            let age = (generation.wrapping_sub(data_generation(d)) & 63) as i32;
            let worth = unpack(d, ply).depth - 4 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let entry = Entry {
            move_code: entry.move_code.or(old_move),
            ..entry
        };
        let d = pack(entry, ply, generation);
        self.words[base + 2 * victim].store(key ^ d, Ordering::Relaxed);
        self.words[base + 2 * victim + 1].store(d, Ordering::Relaxed);
    }

    /// Entries per mille written in the current search (sampled), as UCI's `hashfull`.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = (1000 / BUCKET).min(self.buckets);
        let mut used = 0;
        for b in 0..sample {
            for i in 0..BUCKET {
                let d = self.words[(b * BUCKET + i) * 2 + 1].load(Ordering::Relaxed);
                if d != 0 && data_generation(d) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

// Data word layout: bits 0-20 move code + 1 (0 = none), 21-36 value + 32768,
// 37-44 depth + 128, 45-46 bound (1..=3, so a used word is never 0), 47-52 generation.

fn pack(e: Entry, ply: u32, generation: u8) -> u64 {
    let value = to_stored(e.value, ply).clamp(-32_767, 32_767);
    let code = e.move_code.map_or(0, |c| (c as u64 + 1) & 0x1F_FFFF);
    let bound = match e.bound {
        Bound::Lower => 1u64,
        Bound::Upper => 2,
        Bound::Exact => 3,
    };
    code | ((value + 32_768) as u64) << 21
        | ((e.depth.clamp(-128, 127) + 128) as u64) << 37
        | bound << 45
        | ((generation & 63) as u64) << 47
}

fn unpack(d: u64, ply: u32) -> Entry {
    let code = (d & 0x1F_FFFF) as u32;
    let value = ((d >> 21) & 0xFFFF) as i32 - 32_768;
    let depth = ((d >> 37) & 0xFF) as i32 - 128;
    let bound = match (d >> 45) & 3 {
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => Bound::Exact,
    };
    Entry {
        move_code: code.checked_sub(1),
        value: from_stored(value, ply),
        depth,
        bound,
    }
}

fn data_generation(d: u64) -> u8 {
    ((d >> 47) & 63) as u8
}

/// Mate scores are stored as distance from the node, not from the root.
fn to_stored(value: i32, ply: u32) -> i32 {
    if value >= MATE_BOUND {
        value + ply as i32
    } else if value <= -MATE_BOUND {
        value - ply as i32
    } else {
        value
    }
}

fn from_stored(value: i32, ply: u32) -> i32 {
    if value >= MATE_BOUND {
        value - ply as i32
    } else if value <= -MATE_BOUND {
        value + ply as i32
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::eval::MATE;

    fn entry(code: Option<u32>, value: i32, depth: i32, bound: Bound) -> Entry {
        Entry {
            move_code: code,
            value,
            depth,
            bound,
        }
    }

    #[test]
    fn an_entry_cuts_only_when_deep_enough_and_outside_the_window() {
        let exact = entry(None, 5, 4, Bound::Exact);
        assert!(exact.cuts(4, -10, 10));
        assert!(!exact.cuts(5, -10, 10));
        let lower = entry(None, 5, 4, Bound::Lower);
        assert!(lower.cuts(3, 0, 5));
        assert!(!lower.cuts(3, 0, 6));
        let upper = entry(None, 5, 4, Bound::Upper);
        assert!(upper.cuts(3, 5, 9));
        assert!(!upper.cuts(3, 4, 9));
    }

    #[test]
    fn stores_and_probes_every_field() {
        let tt = TranspositionTable::new(1).expect("1 MiB");
        for (i, bound) in [Bound::Lower, Bound::Upper, Bound::Exact]
            .into_iter()
            .enumerate()
        {
            let key = 0x1234_5678_9abc_def0 ^ i as u64;
            let e = entry(Some(25_919), -1234, 17, bound);
            tt.store(key, 3, e);
            assert_eq!(tt.probe(key, 3), Some(e));
        }
        assert_eq!(tt.probe(42, 0), None);
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let tt = TranspositionTable::new(1).expect("1 MiB");
        // Stored at ply 5 as "mate in 7 plies from the root" = mate in 2 from the node.
        tt.store(99, 5, entry(None, MATE - 7, 4, Bound::Exact));
        // Read at ply 1, the same node is mate in 2 from there: MATE - 3 from this root.
        assert_eq!(tt.probe(99, 1).map(|e| e.value), Some(MATE - 3));
        tt.store(98, 5, entry(None, -(MATE - 7), 4, Bound::Exact));
        assert_eq!(tt.probe(98, 1).map(|e| e.value), Some(-(MATE - 3)));
    }

    #[test]
    fn a_store_without_move_keeps_the_old_move() {
        let tt = TranspositionTable::new(1).expect("1 MiB");
        tt.store(7, 0, entry(Some(11), 5, 3, Bound::Lower));
        tt.store(7, 0, entry(None, 6, 4, Bound::Upper));
        assert_eq!(tt.probe(7, 0), Some(entry(Some(11), 6, 4, Bound::Upper)));
    }

    #[test]
    fn clear_forgets_and_oversize_is_refused() {
        let tt = TranspositionTable::new(1).expect("1 MiB");
        tt.store(7, 0, entry(Some(1), 5, 3, Bound::Exact));
        tt.clear();
        assert_eq!(tt.probe(7, 0), None);
        assert!(TranspositionTable::new(MAX_HASH_MB + 1).is_err());
    }

    #[test]
    fn hashfull_counts_current_generation_only() {
        let tt = TranspositionTable::new(1).expect("1 MiB");
        assert_eq!(tt.hashfull(), 0);
        for key in 0..100_000u64 {
            tt.store(
                key.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                0,
                entry(None, 0, 1, Bound::Exact),
            );
        }
        assert!(tt.hashfull() > 900, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }
}
