//! The games of a match or tournament: pairs with colours swapped, openings, seeds and
//! shards.
//!
//! The games are played round by round; round `r` gives each of the `K` pairings one pair
//! of games, pair number `p = r·K + k` for pairing `k`, made of games `2p` and `2p + 1`
//! (counted from 0; with an odd number of games per pairing the last round's second games
//! are left out). In the first game of a pair the pairing's first engine (`--engine` given
//! first) is the first player; in the second the colours are swapped. Every game of a
//! round starts from the round's opening and shares the round's seed, from which the chance
//! outcomes are drawn and the engines' `Seed` option is set (duplicate games, and the same
//! dice at every pairing of a round). A two-engine match has one pairing: pair `p` is round
//! `p`. A shard `i/n` plays the pairs `p` with `p % n == i - 1`, so the shards of one match
//! partition its pairs and every game is identical to the game of the same number in an
//! unsharded run.

use std::sync::Arc;

use quartet_core::game::{Action, Node, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;

use super::book::{Book, Opening, OpeningSource};
use super::dice::{DiceStream, pair_seed};

/// The stream of [`pair_seed`] for the games' seeds (chance outcomes, engines' `Seed`).
pub const GAME_STREAM: u64 = 0;
/// The stream of [`pair_seed`] for random openings.
pub const OPENING_STREAM: u64 = 1;
/// How many random openings are tried before giving up (each that ends the game is redrawn).
const OPENING_ATTEMPTS: usize = 1000;

/// One slice of a match: `index` of `count`, counted from 1 (`--shard 2/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// Which slice, 1 to `count`.
    pub index: u32,
    /// How many slices.
    pub count: u32,
}

impl Shard {
    /// Parses `i/n` with 1 ≤ i ≤ n.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("shard '{text}': expected i/n with 1 <= i <= n");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether pair `pair` belongs to this shard.
    pub fn has_pair(&self, pair: u64) -> bool {
        pair % u64::from(self.count) == u64::from(self.index - 1)
    }
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's number in the whole match, from 0.
    pub index: u64,
    /// Its pair, `index / 2`.
    pub pair: u64,
    /// Its pairing (an index into the tournament's pairings).
    pub pairing: usize,
    /// The engines (indices in `--engine` order) playing the first and the second player.
    pub engines: [usize; 2],
    /// Whether the pairing's second engine plays the first player (the second game of a
    /// pair).
    pub swapped: bool,
    /// Where it starts.
    pub opening: Arc<Opening>,
    /// The game's seed, shared by the pair (the PGN `Seed` tag): its chance outcomes are
    /// drawn from it, and engines get [`GameSpec::engine_seed`] as their `Seed` option.
    pub seed: u64,
}

impl GameSpec {
    /// The `Seed` option the engine in `seat` gets for this game: 31 bits of the game's
    /// seed mixed with the seat (the protocol's `Seed` covers 0..2^31-1, and each engine
    /// gets its own, so that the two never copy each other's random choices). Both games of
    /// a pair give a seat the same value, so a duplicate pair repeats the random choices of
    /// each colour as well as the dice.
    pub fn engine_seed(&self, seat: Player) -> u32 {
        let salt = match seat {
            Player::First => 0,
            Player::Second => 0x9E37_79B9_7F4A_7C15,
        };
        let mixed = (self.seed ^ salt).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((mixed >> 33) & 0x7FFF_FFFF) as u32
    }
}

/// The games of a match of `games` games per pairing of `pairings` with seed `seed`,
/// restricted to `shard`, in order. `book` is the book of `openings` when it is a file
/// (read with [`Book::load`]). Fails when no random opening can be found.
pub fn schedule<G: Notation>(
    games: u64,
    pairings: &[[usize; 2]],
    seed: u64,
    openings: &OpeningSource,
    book: Option<&Book>,
    shard: Option<Shard>,
    rules: &RuleOptions,
) -> Result<Vec<GameSpec>, String> {
    let mut specs = Vec::new();
    let count = pairings.len() as u64;
    for round in 0..games.div_ceil(2) {
        let pairs = (0..count).map(|k| round * count + k);
        if shard.is_some_and(|s| !pairs.clone().any(|p| s.has_pair(p))) {
            continue;
        }
        let opening = match (openings, book) {
            (OpeningSource::Random(plies), _) => Arc::new(Opening {
                fen: None,
                moves: random_opening::<G>(rules, *plies, pair_seed(seed, round, OPENING_STREAM))?,
            }),
            (OpeningSource::File(_), Some(book)) => book.opening(round),
            (OpeningSource::File(_), None) => return Err("the book is not loaded".to_string()),
            (OpeningSource::StartPosition, _) => Arc::new(Opening {
                fen: None,
                moves: Vec::new(),
            }),
        };
        for (k, pair) in pairs.enumerate() {
            if shard.is_some_and(|s| !s.has_pair(pair)) {
                continue;
            }
            let [a, b] = pairings[k];
            for second in [false, true] {
                if 2 * round + u64::from(second) >= games {
                    continue;
                }
                specs.push(GameSpec {
                    index: 2 * pair + u64::from(second),
                    pair,
                    pairing: k,
                    engines: if second { [b, a] } else { [a, b] },
                    swapped: second,
                    opening: Arc::clone(&opening),
                    seed: pair_seed(seed, round, GAME_STREAM),
                });
            }
        }
    }
    Ok(specs)
}

/// `plies` random tokens from the start position, drawn with `seed`; a draw that ends the
/// game (by the rules or by repetition) is thrown away and redrawn.
pub fn random_opening<G: Notation>(
    rules: &RuleOptions,
    plies: u32,
    seed: u64,
) -> Result<Vec<String>, String> {
    let mut rng = DiceStream::new(seed);
    let mut outcomes = Vec::new();
    'attempt: for _ in 0..OPENING_ATTEMPTS {
        let mut game = GameHistory::new(G::start(rules));
        let mut moves = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let pos = game.current();
            let action = match game.node() {
                Node::Terminal(_) => continue 'attempt,
                Node::Chance => match rng.sample(pos, &mut outcomes) {
                    Some(m) => Action::Single(m),
                    None => continue 'attempt,
                },
                Node::Turn(_) | Node::Simultaneous => {
                    let count = usize::try_from(pos.count_children()).unwrap_or(usize::MAX);
                    match pos.nth_action(rng.index(count) as u64) {
                        Some(a) => a,
                        None => continue 'attempt,
                    }
                }
            };
            moves.push(pos.format_action(action));
            if game.try_play(action).is_err() {
                continue 'attempt;
            }
        }
        if !matches!(game.node(), Node::Terminal(_)) {
            return Ok(moves);
        }
    }
    Err(format!(
        "no random opening of {plies} plies that leaves the game running in \
        {OPENING_ATTEMPTS} attempts"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use quartet_core::game::Game;
    use quartet_testkit::toys::{Dice, Nim};

    #[test]
    fn each_seat_gets_its_own_31_bit_engine_seed() {
        let spec = |seed| GameSpec {
            index: 0,
            pair: 0,
            pairing: 0,
            engines: [0, 1],
            swapped: false,
            opening: Arc::new(Opening {
                fen: None,
                moves: Vec::new(),
            }),
            seed,
        };
        for seed in [0, 1, u64::MAX, 0x7FFF_FFFF, 1 << 40] {
            let (a, b) = (
                spec(seed).engine_seed(Player::First),
                spec(seed).engine_seed(Player::Second),
            );
            assert_ne!(a, b, "seed {seed}");
            assert!(a <= i32::MAX as u32 && b <= i32::MAX as u32);
        }
        assert_ne!(
            spec(1).engine_seed(Player::First),
            spec(2).engine_seed(Player::First)
        );
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pairs_swap_colours_and_share_opening_and_seed() {
        let rules = RuleOptions::default();
        let specs = schedule::<Nim>(
            5,
            &[[0, 1]],
            9,
            &OpeningSource::Random(2),
            None,
            None,
            &rules,
        )
        .unwrap();
        assert_eq!(specs.len(), 5);
        let expect = [
            (0, 0, false),
            (1, 0, true),
            (2, 1, false),
            (3, 1, true),
            (4, 2, false),
        ];
        for (s, (index, pair, swapped)) in specs.iter().zip(expect) {
            assert_eq!((s.index, s.pair, s.swapped), (index, pair, swapped));
        }
        assert_eq!(specs[0].opening, specs[1].opening);
        assert_eq!(specs[0].seed, specs[1].seed);
        assert_ne!(specs[0].seed, specs[2].seed);
        assert_eq!(specs[0].opening.moves.len(), 2);
    }

    #[test]
    fn shards_partition_the_schedule() {
        let rules = RuleOptions::default();
        let src = OpeningSource::Random(3);
        let all = schedule::<Dice>(21, &[[0, 1]], 4, &src, None, None, &rules).unwrap();
        let mut union = Vec::new();
        for i in 1..=3 {
            let shard = Shard { index: i, count: 3 };
            union.extend(
                schedule::<Dice>(21, &[[0, 1]], 4, &src, None, Some(shard), &rules).unwrap(),
            );
        }
        union.sort_by_key(|s| s.index);
        assert_eq!(union, all);
    }

    #[test]
    fn random_openings_are_seeded_and_legal() {
        let rules = RuleOptions::default();
        let a = random_opening::<Dice>(&rules, 6, 1).unwrap();
        assert_eq!(a, random_opening::<Dice>(&rules, 6, 1).unwrap());
        let mut pos = Dice::start(&rules);
        for token in &a {
            let action = pos.parse_action(token).unwrap();
            pos.try_apply(action).unwrap();
        }
        assert!(!matches!(pos.node(), Node::Terminal(_)));
        // Nim from 15 stones lasts at most 14 takes with at most 3 passes before, between
        // and after them (a 4th pass repeats a position for the third time): 59 plies. So
        // every attempt at 80 plies fails.
        assert!(random_opening::<Nim>(&rules, 80, 1).is_err());
    }

    #[test]
    fn rounds_give_every_pairing_a_pair_with_the_round_s_opening_and_seed() {
        let rules = RuleOptions::default();
        let pairings = [[0, 1], [0, 2], [1, 2]];
        let src = OpeningSource::Random(2);
        let specs = schedule::<Dice>(3, &pairings, 4, &src, None, None, &rules).unwrap();
        // 3 games per pairing: rounds 0 (two games each) and 1 (the first game each).
        assert_eq!(specs.len(), 9);
        let summary: Vec<(u64, usize, [usize; 2])> = specs
            .iter()
            .map(|s| (s.index, s.pairing, s.engines))
            .collect();
        assert_eq!(
            summary,
            [
                (0, 0, [0, 1]),
                (1, 0, [1, 0]),
                (2, 1, [0, 2]),
                (3, 1, [2, 0]),
                (4, 2, [1, 2]),
                (5, 2, [2, 1]),
                (6, 0, [0, 1]),
                (8, 1, [0, 2]),
                (10, 2, [1, 2]),
            ]
        );
        for round in [&specs[..6], &specs[6..]] {
            assert!(round.iter().all(|s| s.opening == round[0].opening));
            assert!(round.iter().all(|s| s.seed == round[0].seed));
        }
        assert_ne!(specs[0].seed, specs[6].seed);
        // The shards partition the pairs, and one pairing gives a two-engine match.
        let mut union = Vec::new();
        for i in 1..=4 {
            let shard = Shard { index: i, count: 4 };
            union.extend(
                schedule::<Dice>(3, &pairings, 4, &src, None, Some(shard), &rules).unwrap(),
            );
        }
        union.sort_by_key(|s| s.index);
        assert_eq!(union, specs);
        let two = schedule::<Dice>(3, &[[0, 1]], 4, &src, None, None, &rules).unwrap();
        let pairs: Vec<u64> = two.iter().map(|s| s.pair).collect();
        assert_eq!(pairs, [0, 0, 1]);
        assert_eq!(two[2].seed, specs[6].seed);
    }
}
