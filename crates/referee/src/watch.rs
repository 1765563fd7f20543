//! `quartet match watch DIR --sprt ...`: one SPRT over the shards of a match run by a
//! scheduler (Slurm's `sbatch --array`, GNU parallel) on many machines that share `DIR`.
//!
//! Each shard writes its `--results` file into `DIR`; the referee rewrites it atomically
//! after every finished game (the per-game JSON lines go beside it with `--jsonl`). The
//! coordinator reads those files every `--poll-ms`, sums them (as `match merge` does),
//! and decides the SPRT once for the whole test. When it decides, it writes the stop marker
//! (`DIR/STOP` unless `--stop-file`) that every shard, started with `--stop-file` on the
//! same path, checks between games: a shard finishes the games in flight and stops. Then it
//! waits for every shard to end (at most `--wait` seconds; a shard killed and requeued
//! resumes and finds the marker) and prints the merged report, written to `--results` if
//! given. Without a decision it ends when every shard has completed. No server, no
//! sockets: the shared directory is the only channel.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use clap::Args;

use super::MatchError;
use super::datetime::unix_ms;
use super::report::{MatchReport, StopReason};
use super::results::{RESULTS_FORMAT, ResultsFile, merge, read_results, write_atomically};
use super::sprt::{Sprt, SprtDecision};

/// `quartet match watch`: the coordinator of one SPRT over the shards in a directory.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct WatchArgs {
    /// The shared directory the shards write their `--results` files (`*.json`) into.
    pub dir: PathBuf,

    /// The test: elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic|bayesian].
    /// The shards themselves run without --sprt.
    #[arg(long, num_args = 4..=5, value_name = "KEY=VALUE", required = true)]
    pub sprt: Vec<String>,

    /// The stop marker to write on a decision (the shards' --stop-file); default DIR/STOP.
    #[arg(long, value_name = "FILE")]
    pub stop_file: Option<PathBuf>,

    /// How often to read the shards' files, in milliseconds.
    #[arg(long, default_value_t = 200)]
    pub poll_ms: u64,

    /// After a decision, how long to wait for every shard to end, in seconds; then the
    /// report says which shards are missing or unfinished.
    #[arg(long, default_value_t = 3600)]
    pub wait: u64,

    /// How many shards to expect before the test can end without a decision (default: the
    /// shard count the files name).
    #[arg(long)]
    pub shards: Option<u32>,

    /// Write the merged results (JSON, as `match merge --results`) here.
    #[arg(long)]
    pub results: Option<PathBuf>,
}

/// What the coordinator saw: the merged report, the decision and its timing.
#[derive(Clone, Debug)]
pub struct WatchOutcome {
    /// The merged report of every shard at the end, its stop reason the decision (or the
    /// merge's own when the test ran out of games undecided).
    pub report: MatchReport,
    /// The decision, the games it was made at and its LLR, if the SPRT decided.
    pub decision: Option<(SprtDecision, u32, f64)>,
    /// Milliseconds from the stop marker's appearance to the last shard's final results
    /// file.
    pub stop_latency_ms: Option<u64>,
    /// The shards seen.
    pub shards: usize,
}

/// The results files of the shards in `dir`: every `*.json` that reads as a shard's
/// results file (`skip` and files being written are left out).
fn shard_files(dir: &Path, skip: Option<&Path>) -> Result<Vec<(PathBuf, ResultsFile)>, MatchError> {
    let entries = std::fs::read_dir(dir).map_err(|e| MatchError::File {
        path: dir.to_path_buf(),
        why: e.to_string(),
    })?;
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "json") || skip.is_some_and(|s| s == path) {
            continue;
        }
        if let Ok(f) = read_results(&path)
            && f.format == RESULTS_FORMAT
            && f.shard.is_some()
        {
            files.push((path, f));
        }
    }
    files.sort_by_key(|(_, f)| f.shard.map(|s| s.index));
    Ok(files)
}

/// Whether a shard has ended: every game played, halted by the marker, or an engine
/// failure. A running or interrupted shard may still go on (a requeue resumes it).
fn ended(f: &ResultsFile) -> bool {
    !matches!(
        f.report.stop,
        StopReason::Running | StopReason::Interrupted(_)
    )
}

/// Runs the coordinator until the test is decided and every shard has stopped, or every
/// shard has completed undecided. `say` gets one line whenever the sums change.
pub fn watch(args: &WatchArgs, mut say: impl FnMut(&str)) -> Result<WatchOutcome, MatchError> {
    let sprt = Sprt::parse(&args.sprt).map_err(MatchError::Usage)?;
    let marker = args
        .stop_file
        .clone()
        .unwrap_or_else(|| args.dir.join("STOP"));
    let poll = Duration::from_millis(args.poll_ms.max(10));
    let (lower, upper) = sprt.bounds();
    let mut decision: Option<(SprtDecision, u32, f64)> = None;
    let mut decided_at: Option<(Instant, u64)> = None;
    let mut last_games = None;
    loop {
        let files = shard_files(&args.dir, args.results.as_deref())?;
        let expected = args
            .shards
            .or_else(|| files.first().and_then(|(_, f)| f.shard.map(|s| s.count)))
            .unwrap_or(u32::MAX) as usize;
        let all_ended = files.len() >= expected && files.iter().all(|(_, f)| ended(f));
        if !files.is_empty() {
            let plain: Vec<ResultsFile> = files.iter().map(|(_, f)| f.clone()).collect();
            let merged = merge(&plain, Some(sprt))?;
            let tally = &merged.report.tally;
            let llr = sprt.llr(tally);
            if last_games != Some(tally.games()) {
                last_games = Some(tally.games());
                say(&format!(
                    "watch: {} shards, {} games, {} pairs, LLR {llr:.2} ({lower:.2}, {upper:.2})",
                    files.len(),
                    tally.games(),
                    tally.penta.pairs()
                ));
            }
            if decision.is_none() {
                let d = sprt.decide(llr);
                if d != SprtDecision::Continue {
                    let now = unix_ms();
                    let text = format!(
                        "{d} at {} games (LLR {llr:.2}) decided_ms={now}\n",
                        tally.games()
                    );
                    write_atomically(&marker, &text)?;
                    // The marker exists from here on (on a loaded machine, well after `now`).
                    let written = unix_ms();
                    say(&format!(
                        "watch: {d} at {} games; wrote {}",
                        tally.games(),
                        marker.display()
                    ));
                    decision = Some((d, tally.games(), llr));
                    decided_at = Some((Instant::now(), written));
                }
            }
            let waited_out = decided_at.is_some_and(|(t, _)| t.elapsed().as_secs() >= args.wait);
            if (decision.is_some() && (all_ended || waited_out))
                || (decision.is_none() && all_ended)
            {
                let decided = decided_at.map(|(_, ms)| ms);
                return finish(args, &files, merged, decision, decided, all_ended);
            }
        }
        std::thread::sleep(poll);
    }
}

/// The outcome once the shards have ended: the merged report with the decision as its
/// stop reason (or, when some shard never ended, the merge's account of which), written to
/// `--results` if given.
fn finish(
    args: &WatchArgs,
    files: &[(PathBuf, ResultsFile)],
    mut merged: ResultsFile,
    decision: Option<(SprtDecision, u32, f64)>,
    decided_ms: Option<u64>,
    all_ended: bool,
) -> Result<WatchOutcome, MatchError> {
    if let (Some((d, _, _)), true) = (decision, all_ended) {
        merged.report.stop = match d {
            SprtDecision::AcceptH1 => StopReason::SprtH1,
            _ => StopReason::SprtH0,
        };
    }
    let stop_latency_ms = decided_ms.and_then(|decided| {
        files
            .iter()
            .filter_map(|(p, _)| std::fs::metadata(p).and_then(|m| m.modified()).ok())
            .filter_map(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map(|t| t.as_millis() as u64)
            .max()
            .map(|last| last.saturating_sub(decided))
    });
    if let Some(path) = &args.results {
        let json = serde_json::to_string_pretty(&merged)
            .map_err(|e| MatchError::Internal(e.to_string()))?;
        write_atomically(path, &(json + "\n"))?;
    }
    Ok(WatchOutcome {
        report: merged.report,
        decision,
        stop_latency_ms,
        shards: files.len(),
    })
}
