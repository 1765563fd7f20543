//! Machine-readable results: one JSON line per game (`--jsonl`), a summary file per run or
//! shard (`--results`), and the merge of shard summaries into one report.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::MatchError;
use super::report::{MatchReport, StopReason};
use super::schedule::Shard;
use super::sprt::Sprt;

/// The `format` field of results files this version writes and reads.
pub const RESULTS_FORMAT: &str = "quartet-match-results/1";

/// One line of the `--jsonl` file: one finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's number in the match, from 1 (the PGN `Round`).
    pub game: u64,
    /// Its pair, from 1.
    pub pair: u64,
    /// The first player's engine.
    pub white: String,
    /// The second player's engine.
    pub black: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// The termination's tag text.
    pub termination: String,
    /// The adjudication's reason (empty for an end by the rules).
    pub reason: String,
    /// Tokens in the game, opening included.
    pub plies: usize,
    /// Tokens of the opening.
    pub opening_plies: usize,
    /// The seed of the pair's chance outcomes.
    pub seed: u64,
    /// Milliseconds spent waiting for the engines.
    pub engine_ms: u64,
    /// Milliseconds of the whole game.
    pub wall_ms: u64,
}

/// The `--results` file: a run's (or shard's) report and what identifies its match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// Always [`RESULTS_FORMAT`].
    pub format: String,
    /// The match seed.
    pub seed: u64,
    /// Games in the whole match (all shards).
    pub games: u64,
    /// Which shard this is, if any.
    pub shard: Option<Shard>,
    /// The report of this run.
    pub report: MatchReport,
}

/// Writes `content` to `path` through a temporary file and a rename, so a reader never sees
/// half a file.
pub fn write_atomically(path: &Path, content: &str) -> Result<(), MatchError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, content)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| MatchError::File {
            path: path.to_path_buf(),
            why: e.to_string(),
        })
}

/// Reads a results file.
pub fn read_results(path: &Path) -> Result<ResultsFile, MatchError> {
    let file_error = |why: String| MatchError::File {
        path: path.to_path_buf(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| file_error(e.to_string()))?;
    let file: ResultsFile = serde_json::from_str(&text).map_err(|e| file_error(e.to_string()))?;
    if file.format != RESULTS_FORMAT {
        return Err(file_error(format!("unknown format '{}'", file.format)));
    }
    Ok(file)
}

/// Combines the results of the shards of one match into one report. All files must come from
/// the same match (game, engines, time control, seed, game count, shard count) and be
/// distinct shards. The SPRT is `sprt` if given, else the shards'. The report's stop reason is
/// `Completed` only when every shard is present and completed.
pub fn merge(files: &[ResultsFile], sprt: Option<Sprt>) -> Result<MatchReport, MatchError> {
    let bad = |why: String| MatchError::Merge(why);
    let first = files
        .first()
        .ok_or_else(|| bad("no results files".to_string()))?;
    let count = first.shard.map_or(1, |s| s.count);
    let mut seen = BTreeMap::new();
    let mut merged = MatchReport {
        scheduled: 0,
        tally: Default::default(),
        terminations: BTreeMap::new(),
        sprt: sprt.or(first.report.sprt),
        stop: StopReason::Completed,
        engine_ms: 0,
        wall_ms: 0,
        elapsed_ms: 0,
        ..first.report.clone()
    };
    let mut problems = Vec::new();
    for f in files {
        let r = &f.report;
        let same = r.game == first.report.game
            && r.engines == first.report.engines
            && r.time_control == first.report.time_control
            && f.seed == first.seed
            && f.games == first.games
            && f.shard.map_or(1, |s| s.count) == count;
        if !same {
            return Err(bad(format!(
                "shard {} is from another match (game, engines, time control, seed, games or shard count differ)",
                shard_name(f.shard)
            )));
        }
        let index = f.shard.map_or(1, |s| s.index);
        if seen.insert(index, ()).is_some() {
            return Err(bad(format!("shard {} appears twice", shard_name(f.shard))));
        }
        merged.scheduled += r.scheduled;
        merged.tally.merge(&r.tally);
        for (k, v) in &r.terminations {
            *merged.terminations.entry(k.clone()).or_insert(0) += v;
        }
        merged.engine_ms += r.engine_ms;
        merged.wall_ms += r.wall_ms;
        match r.stop {
            StopReason::Completed => {}
            StopReason::Running => problems.push(format!(
                "shard {} is unfinished (still running, or interrupted)",
                shard_name(f.shard)
            )),
            ref stop => problems.push(format!("shard {} stopped: {stop}", shard_name(f.shard))),
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !seen.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        problems.push(format!("missing shards {}", missing.join(", ")));
    }
    if !problems.is_empty() {
        merged.stop = StopReason::Incomplete(problems.join("; "));
    }
    Ok(merged)
}

fn shard_name(shard: Option<Shard>) -> String {
    shard.map_or("(whole match)".to_string(), |s| {
        format!("{}/{}", s.index, s.count)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::stats::Tally;

    fn file(index: u32, count: u32, wins: u32, draws: u32) -> ResultsFile {
        ResultsFile {
            format: RESULTS_FORMAT.to_string(),
            seed: 1,
            games: 8,
            shard: Some(Shard { index, count }),
            report: MatchReport {
                game: "nim".to_string(),
                engines: ["a".to_string(), "b".to_string()],
                time_control: "nodes=1".to_string(),
                scheduled: 4,
                tally: Tally {
                    wins,
                    draws,
                    ..Tally::default()
                },
                terminations: BTreeMap::from([("normal".to_string(), wins + draws)]),
                sprt: None,
                stop: StopReason::Completed,
                engine_ms: 10,
                wall_ms: 11,
                elapsed_ms: 12,
                concurrency: 1,
            },
        }
    }

    #[test]
    fn merge_sums_shards() {
        let m = merge(&[file(2, 2, 1, 3), file(1, 2, 2, 2)], None).unwrap();
        assert_eq!((m.tally.wins, m.tally.draws, m.scheduled), (3, 5, 8));
        assert_eq!(m.terminations["normal"], 8);
        assert_eq!((m.engine_ms, m.wall_ms), (20, 22));
        assert_eq!(m.stop, StopReason::Completed);
    }

    #[test]
    fn merge_refuses_mixtures_and_notes_gaps() {
        let err = merge(&[file(1, 2, 1, 1), file(1, 2, 1, 1)], None).unwrap_err();
        assert!(err.to_string().contains("twice"), "{err}");
        let mut other = file(2, 2, 1, 1);
        other.seed = 2;
        assert!(merge(&[file(1, 2, 1, 1), other], None).is_err());
        assert!(merge(&[file(1, 2, 1, 1), file(2, 3, 1, 1)], None).is_err());
        assert!(merge(&[], None).is_err());
        let m = merge(&[file(1, 3, 1, 1)], None).unwrap();
        assert_eq!(
            m.stop,
            StopReason::Incomplete("missing shards 2/3, 3/3".to_string())
        );
    }

    #[test]
    fn results_file_round_trips_on_disk() {
        let dir = std::env::temp_dir().join(format!("quartet-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.json");
        let f = file(1, 2, 1, 1);
        write_atomically(&path, &serde_json::to_string(&f).unwrap()).unwrap();
        assert_eq!(read_results(&path).unwrap(), f);
        std::fs::write(&path, "{\"format\":\"other\"}").unwrap();
        assert!(read_results(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
