//! `quartet match`: the referee that plays engines against each other.
//!
//! The referee links the rules in-process and trusts no engine: it checks every move with
//! [`Notation::parse_action`] and [`Game::is_legal`](quartet_core::game::Game::is_legal), keeps
//! the clocks, rolls the dice (seeded, duplicate pairs), collects simultaneous declarations
//! before revealing either, judges repetitions (each game is a
//! [`GameHistory`](quartet_core::history::GameHistory), as in the engines' protocol session), and
//! adjudicates illegal moves, crashes, time forfeits and stalls. Statistics follow
//! fastchess (Elo, nElo, LOS, pentanomial, SPRT).
//!
//! Entry points for `main.rs`: [`MatchArgs`] with [`run_match`], [`MergeArgs`] with
//! [`run_merge`], and [`replay`] / [`replay_file`] to re-check records.
//!
//! Files: `engine` (processes), `clock`, `adjudicate`, `dice`, `book` (openings),
//! `schedule`, `play` (one game), `runner` (threads and outputs), `stats`, `sprt`,
//! `record`, `results` (JSON outputs and merge), `provenance` (what a match was played
//! with), `distinct` (repeated games), `report`, `progress`, `cli`.

#![deny(missing_docs)]

pub mod adjudicate;
pub mod adjudication;
pub mod book;
pub mod cli;
pub mod clock;
pub mod config;
pub mod crosstable;
pub mod datetime;
pub mod dice;
pub mod distinct;
pub mod elo_fit;
pub mod engine;
pub mod gather;
pub mod info;
pub mod lineup;
pub mod logs;
pub mod play;
pub mod progress;
pub mod provenance;
pub mod record;
pub mod report;
pub mod results;
pub mod resume;
pub mod resume_state;
pub mod runner;
pub mod schedule;
pub mod signals;
pub mod sprt;
pub mod stats;
pub mod tournament;
pub mod watch;

use std::path::{Path, PathBuf};

use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;

pub use cli::{MatchArgs, MergeArgs};
pub use record::{RecordError, ReplayedGame};
pub use report::{MatchReport, StopReason};

/// Why a match (or a merge) could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The arguments are wrong (the text says which and why).
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{}: {why}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// The reason.
        why: String,
    },
    /// An engine could not be started (or restarted).
    #[error("engine {name}: {why}")]
    Engine {
        /// The engine's name.
        name: String,
        /// The reason.
        why: String,
    },
    /// The results files do not fit together (another test, another match of one seed, or a
    /// shard or seed given twice).
    #[error("merge: {0}")]
    Merge(String),
    /// A fault of the referee itself.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Plays the match `args` describes with the rules of `G` under `rules` (the caller picks
/// `G` from `args.game`; a mismatch is a usage error). Prints a report every
/// `--report-every` games on stdout and shows a progress line on stderr when it is a
/// terminal; the final report is returned, not printed. An engine failure without
/// `--recover` ends the match early with [`StopReason::EngineFailure`] (the caller should
/// exit non-zero); an engine that cannot start at all is an `Err`.
pub fn run_match<G: Notation>(
    args: &MatchArgs,
    rules: &RuleOptions,
) -> Result<MatchReport, MatchError> {
    runner::run::<G>(&args.to_config()?, rules)
}

/// Merges the `--results` files of a match's shards, or of several runs of one test with
/// different seeds, into one report (see [`results::merge`]), and writes the merged summary
/// if `args.results` is set. The report's stop reason is [`StopReason::Incomplete`] when
/// shards are missing or stopped early.
pub fn run_merge(args: &MergeArgs) -> Result<MatchReport, MatchError> {
    let files = args
        .files
        .iter()
        .map(|p| results::read_results(p))
        .collect::<Result<Vec<_>, _>>()?;
    let sprt = args
        .sprt
        .as_deref()
        .map(sprt::Sprt::parse)
        .transpose()
        .map_err(MatchError::Usage)?;
    let merged = results::merge(&files, sprt)?;
    if let Some(path) = &args.results {
        let json = serde_json::to_string_pretty(&merged)
            .map_err(|e| MatchError::Internal(e.to_string()))?;
        results::write_atomically(path, &(json + "\n"))?;
    }
    Ok(merged.report)
}

/// Reads every record of `text` (a `--pgnout` file) and re-checks each with the rules of
/// `G` under `rules` (see [`record::check_record`]); the first record that fails is the
/// error.
pub fn replay<G: Notation>(
    text: &str,
    rules: &RuleOptions,
) -> Result<Vec<ReplayedGame>, RecordError> {
    quartet_records::parse_records(text)?
        .iter()
        .enumerate()
        .map(|(i, r)| record::check_record::<G>(r, i + 1, rules))
        .collect()
}

/// [`replay`] on a file.
pub fn replay_file<G: Notation>(
    path: &Path,
    rules: &RuleOptions,
) -> Result<Vec<ReplayedGame>, MatchError> {
    let text = std::fs::read_to_string(path).map_err(|e| MatchError::File {
        path: path.to_path_buf(),
        why: e.to_string(),
    })?;
    replay::<G>(&text, rules).map_err(|e| MatchError::File {
        path: path.to_path_buf(),
        why: e.to_string(),
    })
}
