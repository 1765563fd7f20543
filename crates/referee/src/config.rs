//! A checked match configuration ([`MatchConfig`], built from the command line) and the
//! engine options and record tags that follow from the game's rules.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use quartet_core::declaration::GameDeclaration;
use quartet_core::game::RuleOptions;
use quartet_games::GameKind;

use super::adjudication::Adjudication;
use super::book::OpeningSource;
use super::lineup::EngineEntry;
use super::schedule::Shard;
use super::sprt::Sprt;
use super::tournament::Tournament;

/// A checked match configuration (built from [`super::MatchArgs`]).
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game the command line chose; [`super::runner::run`] refuses a registered game
    /// other than the one it plays (a toy game of the tests is played whatever this says).
    pub game: GameKind,
    /// The engines with their limits; in a match of two, the first is the one the
    /// statistics speak for.
    pub engines: Vec<EngineEntry>,
    /// The form of a tournament of more than two engines.
    pub tournament: Tournament,
    /// The pairings (`[a, b]` engine indices), one for a match.
    pub pairings: Vec<[usize; 2]>,
    /// Games per pairing (the whole match for two engines), all shards.
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Clock tolerance (see [`super::play::Settings::margin`]).
    pub margin: Duration,
    /// Wait limit for handshakes, `isready` and searches without a clock.
    pub timeout: Duration,
    /// The match seed (openings and chance outcomes).
    pub seed: u64,
    /// Where games start.
    pub openings: OpeningSource,
    /// The SPRT to stop on, if any.
    pub sprt: Option<Sprt>,
    /// Restart crashed or hung engines and go on, instead of stopping the match.
    pub recover: bool,
    /// The adjudication rules.
    pub adjudication: Adjudication,
    /// The slice of the match to play.
    pub shard: Option<Shard>,
    /// The game records file (`--pgnout`), replaced (appended to on `--resume`).
    pub pgnout: Option<PathBuf>,
    /// The per-game JSON lines file (`--jsonl`), replaced (appended to on `--resume`).
    pub jsonl: Option<PathBuf>,
    /// The results summary (`--results`), rewritten after every game.
    pub results: Option<PathBuf>,
    /// Print a report every this many games (0: never).
    pub report_every: u64,
    /// Show the progress line (on a terminal).
    pub progress: bool,
    /// The per-game logs' directory (`--log`).
    pub log_dir: Option<PathBuf>,
    /// The records' `Event` tag.
    pub event: String,
    /// The records' `Site` tag.
    pub site: String,
    /// Go on from the results file of an earlier session, if it exists (`--resume`).
    pub resume: bool,
    /// Start no game once this file exists (`--stop-file`; the games in flight finish).
    pub stop_file: Option<PathBuf>,
    /// Set to a signal's number by the caller's signal handler: the match abandons the
    /// games in flight, writes its results and returns (`None`: no handler).
    pub interrupt: Option<Arc<AtomicUsize>>,
}

impl MatchConfig {
    /// Games in the whole match or tournament, all shards.
    pub fn total_games(&self) -> u64 {
        self.games * self.pairings.len() as u64
    }

    /// The limit of every engine (`nodes=500`), or each engine's when they differ
    /// (`a nodes=500, b 10+0.1`).
    pub fn time_control(&self) -> String {
        let first = self.engines[0].limit;
        if self.engines.iter().all(|e| e.limit == first) {
            first.to_string()
        } else {
            let each: Vec<String> = self
                .engines
                .iter()
                .map(|e| format!("{} {}", e.spec.name, e.limit))
                .collect();
            each.join(", ")
        }
    }
}

/// The `setoption` pairs every engine gets before the user's options: the game, then each
/// rule option the game declares whose value differs from its default.
pub fn setup_options(game: &GameDeclaration, rules: &RuleOptions) -> Vec<(String, String)> {
    let mut out = vec![("Game".to_string(), game.name.to_string())];
    out.extend(
        changed_rules(game, rules)
            .into_iter()
            .map(|(name, value)| (name.to_string(), value)),
    );
    out
}

/// Each rule option `game` declares whose value in `rules` differs from its default, with
/// that value as UCI writes it (`("Placement", "together")`), in declaration order.
pub fn changed_rules(game: &GameDeclaration, rules: &RuleOptions) -> Vec<(&'static str, String)> {
    game.rule_options
        .iter()
        .filter(|option| rules.get(option) != option.default_value())
        .map(|option| (option.name, option.format_value(rules.get(option))))
        .collect()
}

/// Every rule option `game` declares with its value in `rules`, as UCI writes it, in
/// declaration order: the tags that make a record replay without rule flags.
pub fn rule_tags(game: &GameDeclaration, rules: &RuleOptions) -> Vec<(&'static str, String)> {
    game.rule_options
        .iter()
        .map(|option| (option.name, option.format_value(rules.get(option))))
        .collect()
}
