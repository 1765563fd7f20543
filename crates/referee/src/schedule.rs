//! The games of a match: pairs with colours swapped, openings, seeds and shards.
//!
//! Game `g` (counted from 0) belongs to pair `g / 2`. In the first game of a pair the first
//! engine (`--engine` given first) is the first player; in the second the colours are
//! swapped. Both games of a pair start from the same opening and share one seed, from which
//! the chance outcomes are drawn and the engines' `Seed` option is set (duplicate games). A
//! shard `i/n` plays the pairs `p` with `p % n == i - 1`, so the shards of one match
//! partition its pairs and every game is identical to the game of the same number in an
//! unsharded run.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use quartet_core::game::{Action, Node, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;

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

/// Where the games of each pair start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game starts from the start position.
    StartPosition,
    /// `random:N`: N random plies from the start position (moves uniformly among the legal
    /// ones, chance outcomes by weight), seeded per pair; redrawn if the game ends in them.
    Random(u32),
    /// `file:PATH`: one position string per line (blank lines and `#` comments skipped);
    /// pair `p` uses line `p` modulo the number of positions.
    File(PathBuf),
}

impl OpeningSource {
    /// Parses `random:N` or `file:PATH`.
    pub fn parse(text: &str) -> Result<OpeningSource, String> {
        if let Some(n) = text.strip_prefix("random:") {
            let n = n
                .parse()
                .map_err(|_| format!("openings '{text}': '{n}' is not a ply count"))?;
            Ok(OpeningSource::Random(n))
        } else if let Some(path) = text.strip_prefix("file:") {
            Ok(OpeningSource::File(PathBuf::from(path)))
        } else {
            Err(format!("openings '{text}': expected random:N or file:PATH"))
        }
    }
}

/// The `--openings` text that [`OpeningSource::parse`] reads (`random:N`, `file:PATH`), or
/// `startpos` for the start position (no `--openings`).
impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::StartPosition => f.write_str("startpos"),
            OpeningSource::Random(plies) => write!(f, "random:{plies}"),
            OpeningSource::File(path) => write!(f, "file:{}", path.display()),
        }
    }
}

/// The beginning shared by the two games of a pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position string the games start from, or `None` for the start position (then
    /// engines get `position startpos moves ...`).
    pub fen: Option<String>,
    /// Tokens played from there before the engines take over.
    pub moves: Vec<String>,
}

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's number in the whole match, from 0.
    pub index: u64,
    /// Its pair, `index / 2`.
    pub pair: u64,
    /// Whether the second engine plays the first player (the second game of a pair).
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

/// The games of a match of `games` games with seed `seed`, restricted to `shard`, in
/// order. Fails on an unreadable or invalid opening file, or when no random opening can be
/// found.
pub fn schedule<G: Notation>(
    games: u64,
    seed: u64,
    openings: &OpeningSource,
    shard: Option<Shard>,
    rules: &RuleOptions,
) -> Result<Vec<GameSpec>, String> {
    let file_positions = match openings {
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
            let positions = read_positions::<G>(&text, rules)
                .map_err(|e| format!("openings '{}': {e}", path.display()))?;
            positions.into_iter().map(Some).collect()
        }
        _ => Vec::new(),
    };
    let mut specs = Vec::new();
    for pair in 0..games.div_ceil(2) {
        if shard.is_some_and(|s| !s.has_pair(pair)) {
            continue;
        }
        let opening = match openings {
            OpeningSource::StartPosition => Opening {
                fen: None,
                moves: Vec::new(),
            },
            OpeningSource::Random(plies) => Opening {
                fen: None,
                moves: random_opening::<G>(rules, *plies, pair_seed(seed, pair, OPENING_STREAM))?,
            },
            OpeningSource::File(_) => Opening {
                fen: file_positions[(pair % file_positions.len() as u64) as usize].clone(),
                moves: Vec::new(),
            },
        };
        let opening = Arc::new(opening);
        for index in [2 * pair, 2 * pair + 1].into_iter().filter(|&g| g < games) {
            specs.push(GameSpec {
                index,
                pair,
                swapped: index % 2 == 1,
                opening: Arc::clone(&opening),
                seed: pair_seed(seed, pair, GAME_STREAM),
            });
        }
    }
    Ok(specs)
}

/// The position strings of an opening file: one per line, blank lines and lines starting
/// with `#` skipped. Each must parse and must not be a finished game; errors name the line.
pub fn read_positions<G: Notation>(text: &str, rules: &RuleOptions) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = G::parse_position(line, rules).map_err(|e| format!("line {}: {e}", n + 1))?;
        if matches!(pos.node(), Node::Terminal(_)) {
            return Err(format!(
                "line {}: the game is already over in '{line}'",
                n + 1
            ));
        }
        out.push(line.to_string());
    }
    if out.is_empty() {
        return Err("no positions".to_string());
    }
    Ok(out)
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
    fn openings_are_written_as_they_are_given() {
        for text in ["random:8", "file:books/duell.txt"] {
            let source = OpeningSource::parse(text).unwrap();
            assert_eq!(source.to_string(), text);
        }
        assert_eq!(OpeningSource::StartPosition.to_string(), "startpos");
    }

    #[test]
    fn pairs_swap_colours_and_share_opening_and_seed() {
        let rules = RuleOptions::default();
        let specs = schedule::<Nim>(5, 9, &OpeningSource::Random(2), None, &rules).unwrap();
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
        let all = schedule::<Dice>(21, 4, &src, None, &rules).unwrap();
        let mut union = Vec::new();
        for i in 1..=3 {
            let shard = Shard { index: i, count: 3 };
            union.extend(schedule::<Dice>(21, 4, &src, Some(shard), &rules).unwrap());
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
    fn opening_file_lines_are_checked() {
        let rules = RuleOptions::default();
        let ok = read_positions::<Nim>("# comment\n\n9 s 0\n 4 f 1 \n", &rules).unwrap();
        assert_eq!(ok, ["9 s 0", "4 f 1"]);
        let err = read_positions::<Nim>("9 s 0\n9 x 0\n", &rules).unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        let err = read_positions::<Nim>("0 f 0\n", &rules).unwrap_err();
        assert!(err.contains("already over"), "{err}");
        assert!(read_positions::<Nim>("#\n", &rules).is_err());
    }

    #[test]
    fn opening_source_parsing() {
        assert_eq!(
            OpeningSource::parse("random:8"),
            Ok(OpeningSource::Random(8))
        );
        assert_eq!(
            OpeningSource::parse("file:a b.txt"),
            Ok(OpeningSource::File(PathBuf::from("a b.txt")))
        );
        assert!(OpeningSource::parse("random:x").is_err());
        assert!(OpeningSource::parse("book.pgn").is_err());
    }
}
