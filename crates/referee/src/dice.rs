//! Nature's moves: seeded, reproducible sampling of chance outcomes.
//!
//! Each pair of games gets one seed ([`pair_seed`]); both games of the pair draw their chance
//! outcomes from [`DiceStreams`] with that seed: one stream per player for the chance nodes
//! that belong to a player (Ludo's rolls, [`Game::acting_player`]), one shared stream for
//! the others. Every chance node consumes exactly one draw of its stream, so a player's
//! k-th roll is the same in both games of a pair however the play diverges (extra rolls
//! after a capture or a piece reaching home shift nothing): each colour's dice are
//! duplicated, the engines swapped. The record reader re-derives the rolls to check them
//! (records of older versions, without the `Dice` tag, drew every chance node from one
//! stream, and are checked so).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use quartet_core::game::{Game, Player};

/// One SplitMix64 step from state `z`: a bijective scrambling of 64 bits.
fn mix(z: u64) -> u64 {
    quartet_core::splitmix::splitmix64(&mut { z })
}

/// The seed of pair `pair` of a match with seed `seed`. `stream` separates independent uses
/// of the same pair (0: the dice of the games, 1: the random opening).
pub fn pair_seed(seed: u64, pair: u64, stream: u64) -> u64 {
    mix(mix(seed ^ mix(pair)) ^ stream)
}

/// A seeded source of chance outcomes.
#[derive(Clone, Debug)]
pub struct DiceStream {
    rng: ChaCha8Rng,
}

impl DiceStream {
    /// A stream seeded with `seed`.
    pub fn new(seed: u64) -> DiceStream {
        DiceStream {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Draws one outcome of the chance node `pos` by weight, using `buf` as scratch space.
    /// `None` if `pos` has no outcomes (it is not a chance node).
    pub fn sample<G: Game>(&mut self, pos: &G, buf: &mut Vec<(G::Move, u32)>) -> Option<G::Move> {
        pos.chance_outcomes(buf);
        let total: u64 = buf.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            return None;
        }
        let mut r = self.rng.random_range(0..total);
        for &(m, w) in buf.iter() {
            if r < u64::from(w) {
                return Some(m);
            }
            r -= u64::from(w);
        }
        None
    }

    /// A uniform index below `n` (0 when `n` is 0).
    pub fn index(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.rng.random_range(0..n)
        }
    }
}

/// The `Dice` tag of a record whose chance outcomes come from [`DiceStreams`].
pub const PER_PLAYER: &str = "per-player";

/// The dice of one game: a stream per player and a shared one, all from one seed.
#[derive(Clone, Debug)]
pub struct DiceStreams {
    shared: DiceStream,
    players: [DiceStream; 2],
}

impl DiceStreams {
    /// The streams of seed `seed` (the shared stream is [`DiceStream::new`]`(seed)`).
    pub fn new(seed: u64) -> DiceStreams {
        let player = |salt: u64| DiceStream::new(mix(seed ^ mix(salt)));
        DiceStreams {
            shared: DiceStream::new(seed),
            players: [player(0x5EED_0001), player(0x5EED_0002)],
        }
    }

    /// Draws one outcome of the chance node `pos` from the stream of the player it belongs
    /// to, or from the shared stream (see [`DiceStream::sample`]).
    pub fn sample<G: Game>(&mut self, pos: &G, buf: &mut Vec<(G::Move, u32)>) -> Option<G::Move> {
        let stream = match pos.acting_player() {
            Some(Player::First) => &mut self.players[0],
            Some(Player::Second) => &mut self.players[1],
            None => &mut self.shared,
        };
        stream.sample(pos, buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_testkit::toys::Weighted;

    #[test]
    fn frequencies_follow_weights() {
        let mut dice = DiceStream::new(7);
        let mut buf = Vec::new();
        let mut counts = [0u32; 3];
        for _ in 0..60_000 {
            counts[dice.sample(&Weighted, &mut buf).unwrap() as usize] += 1;
        }
        // Expected 10000, 20000, 30000; 4 standard deviations is under 500 for each.
        for (count, expected) in counts.iter().zip([10_000i64, 20_000, 30_000]) {
            assert!((i64::from(*count) - expected).abs() < 500, "{counts:?}");
        }
    }

    #[test]
    fn same_seed_same_stream_other_seed_other_stream() {
        let mut buf = Vec::new();
        let draw = |seed| {
            let mut d = DiceStream::new(seed);
            let mut b = Vec::new();
            (0..32)
                .map(|_| d.sample(&Weighted, &mut b).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(5), draw(5));
        assert_ne!(draw(5), draw(6));
        assert!(DiceStream::new(1).sample(&Weighted, &mut buf).is_some());
    }

    #[test]
    fn pair_seeds_differ_by_pair_and_stream() {
        let seeds = [
            pair_seed(0, 0, 0),
            pair_seed(0, 1, 0),
            pair_seed(0, 0, 1),
            pair_seed(1, 0, 0),
        ];
        for i in 0..seeds.len() {
            for j in 0..i {
                assert_ne!(seeds[i], seeds[j]);
            }
        }
        assert_eq!(pair_seed(3, 4, 0), pair_seed(3, 4, 0));
    }
}
