//! The self-play driver: the engine's search plays both sides of many games from varied
//! openings, and a sample of each game's searched positions is written with the game's
//! result and the search's score (the format of [`super::data`]).
//!
//! Game `g` of a run depends only on the run's settings and `g` (its own seed, a fresh
//! transposition table), so a shard `i/n` plays exactly the games `g` with `g % n == i - 1`
//! of the unsharded run, and merging the shards gives the unsharded file. With a node limit
//! the same seed gives the same file on every machine; with a time limit the searches (and
//! so the games) depend on the machine's speed.

use super::data::{GameResult, Header, Sample, Summary};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Node, Outcome, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;
use quartet_core::splitmix::splitmix64;
use quartet_search::time::movetime_budget;
use quartet_search::tt::TranspositionTable;
use quartet_search::{self as search, Limits, Settings};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How long each move's search may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// At most this many nodes (deterministic).
    Nodes(u64),
    /// This many milliseconds.
    Movetime(u64),
}

impl std::fmt::Display for MoveLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveLimit::Nodes(n) => write!(f, "nodes:{n}"),
            MoveLimit::Movetime(ms) => write!(f, "movetime:{ms}"),
        }
    }
}

/// The settings of a self-play run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The game's name (for the header).
    pub game: String,
    /// Games in the whole run (all shards together).
    pub games: u64,
    /// Each move's search limit.
    pub limit: MoveLimit,
    /// The run's seed.
    pub seed: u64,
    /// This shard: `(i, n)` with `1 <= i <= n`.
    pub shard: (u64, u64),
    /// Decisions played uniformly at random at the start of each game (chance outcomes
    /// are always drawn by weight and do not count).
    pub random_plies: u32,
    /// Positions kept per game at most, drawn uniformly among its searched positions.
    pub per_game: usize,
    /// A game still running after this many plies is scored a draw.
    pub max_plies: u32,
    /// Transposition table size per game in MiB.
    pub hash_mb: usize,
    /// Games played at once (threads).
    pub concurrency: usize,
    /// The rule options.
    pub rules: RuleOptions,
}

impl Config {
    /// The header line's settings (everything that determines the games).
    pub fn header(&self) -> Header {
        let fields = [
            ("game", self.game.clone()),
            ("seed", self.seed.to_string()),
            ("games", self.games.to_string()),
            ("limit", self.limit.to_string()),
            ("random-plies", self.random_plies.to_string()),
            ("per-game", self.per_game.to_string()),
            ("max-plies", self.max_plies.to_string()),
            ("hash", self.hash_mb.to_string()),
        ];
        let mut fields: Vec<(String, String)> = fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        // The game's own rule options only (another game's would say nothing of these games).
        let own = quartet_games::GameKind::from_name(&self.game)
            .map_or(&[][..], |g| g.declaration().rule_options);
        for option in own {
            fields.push((
                option.flag().to_string(),
                option.format_value(self.rules.get(option)),
            ));
        }
        fields.push((
            "shard".to_string(),
            format!("{}/{}", self.shard.0, self.shard.1),
        ));
        Header { fields }
    }

    /// The indices of the games this shard plays, in order.
    pub fn shard_games(&self) -> Vec<u64> {
        let (i, n) = self.shard;
        (0..self.games).filter(|g| g % n == i - 1).collect()
    }
}

/// The seed of game `game` of a run with seed `seed`.
fn game_seed(seed: u64, game: u64) -> u64 {
    let mut s = seed;
    let a = splitmix64(&mut s);
    let mut t = a ^ game;
    splitmix64(&mut t)
}

/// What one game gave: its kept positions and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The kept positions, by ply.
    pub samples: Vec<Sample>,
    /// The game's result.
    pub result: GameResult,
    /// Plies played.
    pub plies: usize,
}

/// Plays game `index` of the run `config` with the table `tt` (cleared first).
pub fn play_game<G: Evaluate + Notation>(
    config: &Config,
    index: u64,
    tt: &TranspositionTable,
) -> PlayedGame {
    tt.clear();
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(config.seed, index));
    let mut record = GameHistory::new(G::start(&config.rules));
    let mut outcomes = Vec::new();
    let mut decisions = 0u32;
    let mut candidates: Vec<(String, i32, u32, String)> = Vec::new();
    let stop = AtomicBool::new(false);
    let limits = search_limits(config.limit);
    let outcome = loop {
        let ply = record.actions().len() as u32;
        let node = record.node();
        if let Node::Terminal(outcome) = node {
            break outcome;
        }
        if ply >= config.max_plies {
            break Outcome::Draw;
        }
        let pos = record.current().clone();
        let action = match node {
            Node::Terminal(_) => unreachable!("handled above"),
            Node::Chance => Action::Single(chance_outcome(&pos, &mut rng, &mut outcomes)),
            _ if decisions < config.random_plies => {
                decisions += 1;
                // Drawn as a `usize`, as from a list of the actions.
                let count = usize::try_from(pos.count_children()).unwrap_or(usize::MAX);
                if count == 0 {
                    break Outcome::Draw;
                }
                match pos.nth_action(rng.random_range(0..count) as u64) {
                    Some(action) => action,
                    None => break Outcome::Draw,
                }
            }
            _ => {
                decisions += 1;
                let root = search::Root {
                    position: &pos,
                    history: record.history(),
                    searchmoves: &[],
                };
                let Some((best, score)) = searched(&root, &limits, tt, &stop, &mut rng) else {
                    break Outcome::Draw;
                };
                candidates.push((pos.format_position(), score, ply, pos.format_action(best)));
                best
            }
        };
        if record.try_play(action).is_err() {
            // The search and the referee disagree on legality: a bug; end the game here
            // rather than write positions after an illegal move.
            break Outcome::Draw;
        }
    };
    let result = match outcome {
        Outcome::Win(Player::First) => GameResult::FirstWins,
        Outcome::Win(Player::Second) => GameResult::SecondWins,
        Outcome::Draw => GameResult::Draw,
    };
    let keep = config.per_game.min(candidates.len());
    let mut chosen = rand::seq::index::sample(&mut rng, candidates.len(), keep).into_vec();
    chosen.sort_unstable();
    let samples = chosen
        .into_iter()
        .map(|i| {
            let (position, score, ply, best) = candidates[i].clone();
            Sample {
                position,
                result,
                score,
                ply,
                game: index,
                best,
            }
        })
        .collect();
    PlayedGame {
        samples,
        result,
        plies: record.actions().len(),
    }
}

/// The search limits of one self-play move.
fn search_limits(limit: MoveLimit) -> Limits {
    match limit {
        MoveLimit::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        MoveLimit::Movetime(ms) => Limits {
            time: Some(movetime_budget(ms, 0)),
            ..Limits::default()
        },
    }
}

/// A chance outcome of `pos` drawn by its weight.
fn chance_outcome<G: Evaluate>(
    pos: &G,
    rng: &mut ChaCha8Rng,
    outcomes: &mut Vec<(G::Move, u32)>,
) -> G::Move {
    pos.chance_outcomes(outcomes);
    let total: u32 = outcomes.iter().map(|&(_, w)| w).sum();
    let mut r = rng.random_range(0..total.max(1));
    let mut pick = outcomes[0].0;
    for &(m, w) in outcomes.iter() {
        if r < w {
            pick = m;
            break;
        }
        r -= w;
    }
    pick
}

/// The searched action at a turn or simultaneous `root` (each side searched with its own
/// seed from `rng`) and its first player's score; `None` when a side has no move.
fn searched<G: Evaluate>(
    root: &search::Root<'_, G>,
    limits: &Limits,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    rng: &mut ChaCha8Rng,
) -> Option<(Action<G::Move>, i32)> {
    let run = |side: Option<Player>, seed: u64| {
        let settings = Settings {
            seed,
            side,
            ..Settings::default()
        };
        search::search(root, limits, &settings, tt, stop, &mut |_| {})
    };
    match root.position.node() {
        Node::Turn(p) => {
            let r = run(None, rng.random());
            r.best.map(|best| (best, p.sign() * r.score))
        }
        _ => {
            let mut halves = [None, None];
            let mut score = 0;
            for side in [Player::First, Player::Second] {
                let r = run(Some(side), rng.random());
                if side == Player::First {
                    score = r.score;
                }
                halves[side.index()] = r.best.and_then(|a| match a {
                    Action::Single(m) => Some(m),
                    Action::Joint(..) => None,
                });
            }
            let [Some(a), Some(b)] = halves else {
                return None;
            };
            Some((Action::Joint(a, b), score))
        }
    }
}

/// Plays this shard's games on `config.concurrency` threads and writes the data file to
/// `out` (header, positions in game order, summary), calling `progress` after each game
/// with the games finished so far. Returns the summary.
pub fn run<G: Evaluate + Notation>(
    config: &Config,
    out: &mut dyn Write,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Summary, String> {
    let (i, n) = config.shard;
    if n == 0 || i == 0 || i > n {
        return Err(format!("shard {i}/{n}: expected 1 <= i <= n"));
    }
    let io = |e: std::io::Error| format!("writing the data: {e}");
    writeln!(out, "{}", config.header()).map_err(io)?;
    let games = config.shard_games();
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, PlayedGame)>();
    let mut summary = Summary::default();
    let threads = config.concurrency.max(1).min(games.len().max(1));
    let mut tables = Vec::with_capacity(threads);
    for _ in 0..threads {
        tables.push(TranspositionTable::new(config.hash_mb)?);
    }
    std::thread::scope(|scope| -> Result<(), String> {
        for tt in &tables {
            let send = send.clone();
            let (next, games) = (&next, &games);
            scope.spawn(move || {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&g) = games.get(k) else { break };
                    if send.send((k, play_game::<G>(config, g, tt))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Written in game order: finished games wait here for the earlier ones.
        let mut waiting = BTreeMap::new();
        let mut written = 0usize;
        for (k, game) in receive {
            waiting.insert(k, game);
            while let Some(game) = waiting.remove(&written) {
                for s in &game.samples {
                    if let Err(e) = writeln!(out, "{s}") {
                        // Stop the workers: nothing more can be written.
                        next.store(games.len(), Ordering::Relaxed);
                        return Err(io(e));
                    }
                }
                summary.add_game(game.result, game.samples.len() as u64);
                written += 1;
                progress(written as u64);
            }
        }
        Ok(())
    })?;
    writeln!(out, "{summary}").map_err(io)?;
    out.flush().map_err(io)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{DataFile, merge};
    use quartet_games::rnb::Rnb;

    fn config(shard: (u64, u64)) -> Config {
        Config {
            game: "rnb".to_string(),
            games: 6,
            limit: MoveLimit::Nodes(300),
            seed: 11,
            shard,
            random_plies: 6,
            per_game: 5,
            max_plies: 400,
            hash_mb: 1,
            concurrency: 2,
            rules: RuleOptions::default(),
        }
    }

    fn run_to_text(config: &Config) -> String {
        let mut out = Vec::new();
        run::<Rnb>(config, &mut out, &|_| {}).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_same_seed_gives_the_same_file_and_shards_merge_into_it() {
        let whole = run_to_text(&config((1, 1)));
        assert_eq!(
            whole,
            run_to_text(&Config {
                concurrency: 1,
                ..config((1, 1))
            })
        );
        let file = DataFile::parse(&whole).unwrap();
        assert_eq!(file.summary.games, 6);
        assert_eq!(
            file.summary.first + file.summary.draws + file.summary.second,
            6
        );
        // At most per_game positions of each game, every one a legal position string with
        // the game's own result.
        for g in 0..6 {
            let of_game: Vec<&Sample> = file.samples.iter().filter(|s| s.game == g).collect();
            assert!(of_game.len() <= 5);
            assert!(of_game.windows(2).all(|w| w[0].ply < w[1].ply));
        }
        for s in &file.samples {
            let pos = Rnb::parse_position(&s.position, &RuleOptions::default()).unwrap();
            assert!(pos.parse_action(&s.best).is_ok(), "{}", s.best);
            assert!(s.ply >= 6, "the random plies are not sampled");
        }
        let other_seed = run_to_text(&Config {
            seed: 12,
            ..config((1, 1))
        });
        assert_ne!(whole, other_seed);
        let shards: Vec<DataFile> = [(1, 3), (2, 3), (3, 3)]
            .map(|s| DataFile::parse(&run_to_text(&config(s))).unwrap())
            .into();
        let merged = merge(&shards).unwrap();
        let unsharded = DataFile {
            header: file.header.clone(),
            ..file.clone()
        };
        assert_eq!(merged.samples, unsharded.samples);
        assert_eq!(merged.summary, unsharded.summary);
        assert_eq!(merged.to_text(), whole);
    }

    #[test]
    fn openings_vary_between_games() {
        let file = DataFile::parse(&run_to_text(&config((1, 1)))).unwrap();
        let mut firsts: Vec<&str> = (0..6)
            .filter_map(|g| file.samples.iter().find(|s| s.game == g))
            .map(|s| s.position.as_str())
            .collect();
        let n = firsts.len();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), n, "each game starts from its own position");
    }

    #[test]
    fn the_joint_setup_of_placement_together_is_played_and_named_in_the_header() {
        let place = quartet_games::rnb::PLACEMENT;
        let rules = RuleOptions::default()
            .with(&place, place.parse_value("together").unwrap())
            .unwrap();
        let together = Config {
            games: 2,
            rules,
            ..config((1, 1))
        };
        let file = DataFile::parse(&run_to_text(&together)).unwrap();
        assert_eq!(file.header.get("placement"), Some("together"));
        assert_eq!(file.summary.games, 2);
        assert!(!file.samples.is_empty());
        for s in &file.samples {
            let pos = Rnb::parse_position(&s.position, &rules).unwrap();
            assert!(pos.parse_action(&s.best).is_ok(), "{}", s.best);
        }
        let alternate = DataFile::parse(&run_to_text(&config((1, 1)))).unwrap();
        assert_eq!(alternate.header.get("placement"), Some("alternate"));
    }

    #[test]
    fn the_header_names_the_game_s_own_rule_options_only() {
        let header = config((1, 1)).header().to_string();
        assert!(header.contains(" placement=alternate"), "{header}");
        for other in ["pieces=", "double-step="] {
            assert!(!header.contains(other), "{other} in {header}");
        }
    }

    #[test]
    fn a_bad_shard_is_refused() {
        let mut out = Vec::new();
        assert!(run::<Rnb>(&config((0, 2)), &mut out, &|_| {}).is_err());
        assert!(run::<Rnb>(&config((3, 2)), &mut out, &|_| {}).is_err());
    }
}
