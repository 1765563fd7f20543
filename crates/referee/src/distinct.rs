//! How many distinct openings and distinct games a match played: deterministic engines
//! from one start play one game again and again, and two runs with different seeds can
//! play the same games, which no statistic shows by itself.
//!
//! A game (or an opening) is known by a 64-bit fingerprint of its start position and its
//! tokens. A run counts exactly (every fingerprint in memory); its results file keeps the
//! counts and the [`SKETCH`] smallest fingerprints (a bottom-k sketch), from which a merge
//! counts the distinct games of several runs: exactly while no run has more than [`SKETCH`]
//! distinct games, otherwise as an estimate from the k-th smallest value (k minimum
//! values), which the report then calls an estimate.

use std::collections::{BTreeSet, HashSet};

use serde::{Deserialize, Serialize};

/// How many of the smallest fingerprints a results file keeps.
pub const SKETCH: usize = 512;

/// The fingerprint of a game or an opening: its start position string (`None` for the
/// start position) and its tokens. FNV-1a over the text, then SplitMix64's finaliser.
pub fn fingerprint(fen: Option<&str>, moves: &[String]) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01B3);
        }
    };
    eat(fen.unwrap_or("startpos").as_bytes());
    for m in moves {
        eat(b" ");
        eat(m.as_bytes());
    }
    quartet_core::splitmix::finalise(h)
}

/// Distinct values, counted exactly, with their bottom-k sketch kept as they come.
#[derive(Clone, Debug, Default)]
pub struct Counter {
    seen: HashSet<u64>,
    smallest: BTreeSet<u64>,
    /// Values counted in an earlier session whose fingerprints were not kept.
    unseen: u64,
}

impl Counter {
    /// Adds a value; whether it was new.
    pub fn add(&mut self, value: u64) -> bool {
        let new = self.seen.insert(value);
        if new {
            self.smallest.insert(value);
            if self.smallest.len() > SKETCH {
                self.smallest.pop_last();
            }
        }
        new
    }

    /// A counter that goes on from a count kept as a results file keeps it (`count`
    /// distinct values of which `sketch` are the smallest): exact while every value is in
    /// the sketch; beyond that, later values are counted as new unless they are in it.
    pub fn resume(count: u64, sketch: &[u64]) -> Counter {
        let mut c = Counter::default();
        for &v in sketch {
            c.add(v);
        }
        c.unseen = count.saturating_sub(sketch.len() as u64);
        c
    }

    /// The number of distinct values.
    pub fn count(&self) -> u64 {
        self.seen.len() as u64 + self.unseen
    }

    /// Whether the count is exact (not resumed from a sketch that lacked values).
    pub fn exact(&self) -> bool {
        self.unseen == 0
    }

    /// The [`SKETCH`] smallest values, ascending.
    pub fn sketch(&self) -> Vec<u64> {
        self.smallest.iter().copied().collect()
    }
}

/// A count of distinct values as a results file keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DistinctCount {
    /// Distinct values (exact for one run; for a merge, see `exact`).
    pub count: u64,
    /// Whether `count` is exact (false: estimated from the sketches of a merge).
    pub exact: bool,
    /// The [`SKETCH`] smallest values, ascending.
    pub sketch: Vec<u64>,
}

impl DistinctCount {
    /// The count of one run.
    pub fn of(counter: &Counter) -> DistinctCount {
        DistinctCount {
            count: counter.count(),
            exact: counter.exact(),
            sketch: counter.sketch(),
        }
    }

    /// The distinct values of several counts together: the union of their sketches, exact
    /// when every sketch holds all its values, else the k-minimum-values estimate.
    pub fn union<'a>(parts: impl IntoIterator<Item = &'a DistinctCount>) -> DistinctCount {
        let mut all = Vec::new();
        let mut complete = true;
        for p in parts {
            complete &= p.exact && p.count as usize == p.sketch.len();
            all.extend_from_slice(&p.sketch);
        }
        all.sort_unstable();
        all.dedup();
        if complete {
            let count = all.len() as u64;
            all.truncate(SKETCH);
            return DistinctCount {
                count,
                exact: true,
                sketch: all,
            };
        }
        all.truncate(SKETCH);
        let count = match all.last() {
            Some(&kth) if all.len() == SKETCH => {
                // (k − 1) / U_k with U_k the k-th smallest as a fraction of 2^64.
                let u = (kth as f64 + 1.0) / 18_446_744_073_709_551_616.0;
                ((SKETCH as f64 - 1.0) / u).round() as u64
            }
            _ => all.len() as u64,
        };
        DistinctCount {
            count,
            exact: false,
            sketch: all,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn fingerprints_tell_starts_and_tokens_apart() {
        let a = fingerprint(None, &tokens("t1 t2"));
        assert_eq!(a, fingerprint(None, &tokens("t1 t2")));
        assert_ne!(a, fingerprint(None, &tokens("t1t2")));
        assert_ne!(a, fingerprint(Some("9 s 0"), &tokens("t1 t2")));
        assert_ne!(a, fingerprint(None, &tokens("t2 t1")));
    }

    #[test]
    fn small_unions_are_exact() {
        let mut one = Counter::default();
        let mut two = Counter::default();
        for v in 0..10u64 {
            one.add(v * 7);
            two.add(v * 7 + (v % 2));
        }
        assert!(!one.add(0));
        let u = DistinctCount::union([&DistinctCount::of(&one), &DistinctCount::of(&two)]);
        // two repeats one's values at even v (5 of 10).
        assert_eq!((u.count, u.exact), (15, true));
    }

    #[test]
    fn large_unions_are_estimated_within_a_few_percent() {
        // Well-spread values: fingerprints of distinct games.
        let value = |i: u64| quartet_core::splitmix::finalise(i);
        let (mut one, mut two) = (Counter::default(), Counter::default());
        for i in 0..20_000 {
            one.add(value(i));
            two.add(value(i + 10_000));
        }
        let u = DistinctCount::union([&DistinctCount::of(&one), &DistinctCount::of(&two)]);
        assert!(!u.exact);
        // 30,000 distinct; the estimate's relative error is about 1/sqrt(512) = 4.4 %.
        let error = (u.count as f64 - 30_000.0).abs() / 30_000.0;
        assert!(error < 0.15, "{}", u.count);
        assert_eq!(u.sketch.len(), SKETCH);
    }
}
