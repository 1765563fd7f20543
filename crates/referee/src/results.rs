//! Machine-readable results: one JSON line per game (`--jsonl`), a summary file per run or
//! shard (`--results`), and the merge of shard summaries, and of independent runs of one
//! test, into one report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::MatchError;
use super::distinct::DistinctCount;
use super::provenance::{self, Identity};
use super::report::{MatchReport, StopReason};
use super::resume_state::ResumeState;
use super::schedule::Shard;
use super::sprt::Sprt;

/// The `format` field of the results files of one run (or shard) and of a merge of one
/// run's shards.
pub const RESULTS_FORMAT: &str = "quartet-match-results/1";

/// The `format` field of a merge of several runs (with `runs`), which older versions, that
/// would take it for one run, refuse.
pub const RESULTS_FORMAT_RUNS: &str = "quartet-match-results/2";

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
    /// The verdict's reason: the game's words for an end by the rules, or the adjudication's.
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
    /// The fingerprint of the opening (hex; see `distinct`), absent in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening_id: Option<String>,
    /// The fingerprint of the game: its start and every token (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
    /// When the game began: milliseconds since the Unix epoch (absent in older files). A
    /// shard stopped by `quartet match watch` begins no game after the stop marker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<u64>,
    /// When the game was counted: milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<u64>,
}

/// The `--results` file: a run's (or shard's) report and what identifies its match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// [`RESULTS_FORMAT`], or [`RESULTS_FORMAT_RUNS`] when `runs` is not empty.
    pub format: String,
    /// The match seed (of a merge of several runs: the smallest of `runs`).
    pub seed: u64,
    /// Games in the whole match, all shards (of a merge of several runs: in all of them).
    pub games: u64,
    /// Which shard this is, if any.
    pub shard: Option<Shard>,
    /// The `--openings` of the match (`startpos`, `random:N`, `file:PATH`); absent in the
    /// files of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// The runs a merge of several runs (different seeds) sums, each taken as a whole in a
    /// later merge; empty for one run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunId>,
    /// What the match was played with (absent in the files of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<Identity>,
    /// How far the match got, for `--resume` (absent in a merge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume: Option<ResumeState>,
    /// The report of this run.
    pub report: MatchReport,
}

/// One run of a test in a merged results file: its seed and its game count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunId {
    /// The run's match seed.
    pub seed: u64,
    /// Games in the whole run.
    pub games: u64,
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
    if file.format != RESULTS_FORMAT && file.format != RESULTS_FORMAT_RUNS {
        return Err(file_error(format!("unknown format '{}'", file.format)));
    }
    Ok(file)
}

/// What makes `f` another test than `first` (its game, engines, time control or openings,
/// with both values; with provenance in both files, also an engine's program, arguments,
/// options or limit, the book's content, the rules, the adjudication or Quartet's version),
/// or `None` when it is the same test. Without provenance (older files) openings given as
/// files compare by the path as written.
fn other_test(first: &ResultsFile, f: &ResultsFile) -> Option<String> {
    if let (Some(a), Some(b)) = (&first.identity, &f.identity) {
        return provenance::difference(a, b, (&f.name(), &first.name()));
    }
    let (a, b) = (&first.report, &f.report);
    let openings = |f: &ResultsFile| f.openings.clone().unwrap_or_else(|| "unknown".to_string());
    let (what, x, y) = if a.game != b.game {
        ("games", a.game.clone(), b.game.clone())
    } else if a.engines != b.engines {
        ("engines", a.engines.join(" vs "), b.engines.join(" vs "))
    } else if a.time_control != b.time_control {
        (
            "time controls",
            a.time_control.clone(),
            b.time_control.clone(),
        )
    } else if first.openings != f.openings {
        ("openings", openings(first), openings(f))
    } else {
        return None;
    };
    Some(format!("the {what} differ ('{y}' against '{x}')"))
}

/// Combines the results of one test into one results file: the shards of a match, and of
/// several independent runs of it (matches with different seeds, e.g. one run extended by
/// another). Every file must come from the same test (game, engines, time control,
/// openings); the files of one seed must be distinct shards of one match (same game count
/// and shard count). The SPRT is `sprt` if given, else the first file's. The report's stop
/// reason is `Completed` only when every shard of every run is present and completed.
///
/// The file holds the whole of every run. With one run, its `seed` and `games` are that
/// run's; with several, every run is listed in `runs`, and `seed` and `games` are the
/// smallest seed and the games of all runs. A later merge takes each run of it as complete:
/// the files of a run with missing shards are to be merged again themselves.
pub fn merge(files: &[ResultsFile], sprt: Option<Sprt>) -> Result<ResultsFile, MatchError> {
    let bad = |why: String| MatchError::Merge(why);
    let first = files
        .first()
        .ok_or_else(|| bad("no results files".to_string()))?;
    let mut runs: BTreeMap<u64, Run> = BTreeMap::new();
    let mut merged = MatchReport {
        scheduled: 0,
        tally: Default::default(),
        terminations: BTreeMap::new(),
        sprt: sprt.or(first.report.sprt),
        stop: StopReason::Completed,
        engine_ms: 0,
        wall_ms: 0,
        elapsed_ms: 0,
        distinct_openings: None,
        distinct_games: None,
        pairings: Vec::new(),
        faults: BTreeMap::new(),
        stderr: None,
        ..first.report.clone()
    };
    let mut problems = Vec::new();
    for f in files {
        let r = &f.report;
        if let Some(differ) = other_test(first, f) {
            return Err(bad(format!(
                "{} is from another test than {}: {differ}",
                f.name(),
                first.name()
            )));
        }
        for (id, shard) in f.units() {
            let known = runs.entry(id.seed).or_insert(Run {
                games: id.games,
                count: shard.count,
                seen: BTreeSet::new(),
            });
            if known.games != id.games || known.count != shard.count {
                return Err(bad(format!(
                    "{} is from another match than the other files of seed {} (games or shard \
                    count differ)",
                    f.name(),
                    id.seed
                )));
            }
            if !known.seen.insert(shard.index) {
                return Err(bad(format!("{} appears twice", f.name())));
            }
        }
        merged.scheduled += r.scheduled;
        merged.tally.merge(&r.tally);
        for p in &r.pairings {
            match merged.pairings.iter_mut().find(|q| q.engines == p.engines) {
                Some(q) => q.tally.merge(&p.tally),
                None => merged.pairings.push(p.clone()),
            }
        }
        for (k, v) in &r.terminations {
            *merged.terminations.entry(k.clone()).or_insert(0) += v;
        }
        for (engine, kinds) in &r.faults {
            for (k, v) in kinds {
                *merged
                    .faults
                    .entry(engine.clone())
                    .or_default()
                    .entry(k.clone())
                    .or_insert(0) += v;
            }
        }
        merged.engine_ms += r.engine_ms;
        merged.wall_ms += r.wall_ms;
        match r.stop {
            StopReason::Completed => {}
            StopReason::Running | StopReason::Interrupted(_) => problems.push(format!(
                "{} is unfinished (still running, or interrupted)",
                f.name()
            )),
            ref stop => problems.push(format!("{} stopped: {stop}", f.name())),
        }
    }
    for (seed, run) in &runs {
        let missing: Vec<String> = (1..=run.count)
            .filter(|i| !run.seen.contains(i))
            .map(|i| format!("{i}/{}", run.count))
            .collect();
        if !missing.is_empty() {
            problems.push(format!(
                "seed {seed}: missing shards {}",
                missing.join(", ")
            ));
        }
    }
    if !problems.is_empty() {
        merged.stop = StopReason::Incomplete(problems.join("; "));
    }
    let reports: Vec<&MatchReport> = files.iter().map(|f| &f.report).collect();
    if reports.iter().all(|r| r.distinct_games.is_some()) {
        merged.distinct_openings = Some(DistinctCount::union(
            reports.iter().filter_map(|r| r.distinct_openings.as_ref()),
        ));
        merged.distinct_games = Some(DistinctCount::union(
            reports.iter().filter_map(|r| r.distinct_games.as_ref()),
        ));
    }
    let listed: Vec<RunId> = if runs.len() > 1 {
        runs.iter()
            .map(|(&seed, run)| RunId {
                seed,
                games: run.games,
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(ResultsFile {
        format: if listed.is_empty() {
            RESULTS_FORMAT
        } else {
            RESULTS_FORMAT_RUNS
        }
        .to_string(),
        seed: runs.keys().next().copied().unwrap_or(first.seed),
        games: runs.values().map(|run| run.games).sum(),
        shard: None,
        openings: first.openings.clone(),
        runs: listed,
        identity: first.identity.clone(),
        resume: None,
        report: merged,
    })
}

/// The shards of one seed's match met so far in a merge.
struct Run {
    games: u64,
    count: u32,
    seen: BTreeSet<u32>,
}

impl ResultsFile {
    /// The runs and shards this file holds: one shard of one match (a whole match is shard
    /// 1/1), or the whole of each run of a merged file.
    fn units(&self) -> Vec<(RunId, Shard)> {
        const WHOLE: Shard = Shard { index: 1, count: 1 };
        if self.runs.is_empty() {
            let id = RunId {
                seed: self.seed,
                games: self.games,
            };
            vec![(id, self.shard.unwrap_or(WHOLE))]
        } else {
            self.runs.iter().map(|&id| (id, WHOLE)).collect()
        }
    }

    /// How a merge names this file in its messages: seed and shard.
    fn name(&self) -> String {
        match (&self.shard, self.runs.is_empty()) {
            (_, false) => {
                let seeds: Vec<String> = self.runs.iter().map(|r| r.seed.to_string()).collect();
                format!("the merge of seeds {}", seeds.join(", "))
            }
            (Some(s), true) => format!("seed {} shard {}/{}", self.seed, s.index, s.count),
            (None, true) => format!("seed {} (whole match)", self.seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Tally;

    fn file(index: u32, count: u32, wins: u32, draws: u32) -> ResultsFile {
        ResultsFile {
            format: RESULTS_FORMAT.to_string(),
            seed: 1,
            games: 8,
            shard: Some(Shard { index, count }),
            openings: Some("random:8".to_string()),
            runs: Vec::new(),
            identity: None,
            resume: None,
            report: MatchReport {
                game: "nim".to_string(),
                engines: vec!["a".to_string(), "b".to_string()],
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
                ..MatchReport::default()
            },
        }
    }

    #[test]
    fn merge_sums_shards() {
        let m = merge(&[file(2, 2, 1, 3), file(1, 2, 2, 2)], None)
            .unwrap()
            .report;
        assert_eq!((m.tally.wins, m.tally.draws, m.scheduled), (3, 5, 8));
        assert_eq!(m.terminations["normal"], 8);
        assert_eq!((m.engine_ms, m.wall_ms), (20, 22));
        assert_eq!(m.stop, StopReason::Completed);
    }

    #[test]
    fn merge_refuses_mixtures_and_notes_gaps() {
        let err = merge(&[file(1, 2, 1, 1), file(1, 2, 1, 1)], None).unwrap_err();
        assert!(
            err.to_string().contains("seed 1 shard 1/2 appears twice"),
            "{err}"
        );
        assert!(merge(&[file(1, 2, 1, 1), file(2, 3, 1, 1)], None).is_err());
        let mut more_games = file(2, 2, 1, 1);
        more_games.games = 10;
        assert!(merge(&[file(1, 2, 1, 1), more_games], None).is_err());
        assert!(merge(&[], None).is_err());
        let m = merge(&[file(1, 3, 1, 1)], None).unwrap().report;
        assert_eq!(
            m.stop,
            StopReason::Incomplete("seed 1: missing shards 2/3, 3/3".to_string())
        );
    }

    /// The same test with another seed, as one whole match.
    fn run(seed: u64, wins: u32) -> ResultsFile {
        ResultsFile {
            seed,
            shard: None,
            ..file(1, 1, wins, 0)
        }
    }

    #[test]
    fn merge_sums_runs_with_different_seeds_and_their_shards() {
        let mut shard = file(1, 2, 2, 0);
        shard.seed = 5;
        let m = merge(&[run(4, 1), shard.clone(), run(3, 3)], None)
            .unwrap()
            .report;
        assert_eq!((m.tally.wins, m.scheduled), (6, 12));
        assert_eq!(
            m.stop,
            StopReason::Incomplete("seed 5: missing shards 2/2".to_string())
        );
        let mut other_half = file(2, 2, 1, 0);
        other_half.seed = 5;
        let m = merge(&[run(4, 1), shard, run(3, 3), other_half], None)
            .unwrap()
            .report;
        assert_eq!((m.tally.wins, m.stop), (7, StopReason::Completed));
    }

    #[test]
    fn merge_refuses_runs_of_another_test() {
        let mut book = run(2, 1);
        book.openings = Some("file:book.txt".to_string());
        let err = merge(&[run(1, 1), book], None).unwrap_err().to_string();
        assert!(err.contains("another test"), "{err}");
        assert!(
            err.contains("the openings differ") && err.contains("file:book.txt"),
            "the message names the field and its values: {err}"
        );
        let mut swapped = run(2, 1);
        swapped.report.engines.reverse();
        let err = merge(&[run(1, 1), swapped], None).unwrap_err().to_string();
        assert!(err.contains("the engines differ"), "{err}");
        let mut slower = run(2, 1);
        slower.report.time_control = "nodes=2".to_string();
        assert!(merge(&[run(1, 1), slower], None).is_err());
    }

    #[test]
    fn a_merged_file_lists_its_runs_and_merges_again() {
        let runs = [run(2, 1), run(1, 2)];
        let merged = merge(&runs, None).unwrap();
        assert_eq!((merged.seed, merged.games, merged.shard), (1, 16, None));
        let ids: Vec<(u64, u64)> = merged.runs.iter().map(|r| (r.seed, r.games)).collect();
        assert_eq!(ids, [(1, 8), (2, 8)]);
        assert_eq!(merged.format, RESULTS_FORMAT_RUNS);
        let m = merge(&[merged.clone(), run(3, 4)], None).unwrap().report;
        assert_eq!((m.tally.wins, m.stop), (7, StopReason::Completed));
        let err = merge(&[merged, run(2, 1)], None).unwrap_err();
        assert!(err.to_string().contains("appears twice"), "{err}");
        let one = [file(1, 2, 1, 0), file(2, 2, 1, 0)];
        let whole = merge(&one, None).unwrap();
        assert_eq!((whole.seed, whole.games, whole.runs.len()), (1, 8, 0));
        assert_eq!(whole.format, RESULTS_FORMAT);
        // A shard of a seed the merged file holds whole is another match of that seed.
        let mut shard_of_two = file(1, 2, 1, 0);
        shard_of_two.seed = 2;
        assert!(merge(&[merge(&runs, None).unwrap(), shard_of_two], None).is_err());
    }

    #[test]
    fn files_of_older_versions_read_without_openings_or_runs_and_merge_with_each_other() {
        let mut old = serde_json::to_value(run(1, 1)).unwrap();
        let fields = old.as_object_mut().unwrap();
        fields.remove("openings");
        assert!(!fields.contains_key("runs"), "one run writes no runs");
        let old: ResultsFile = serde_json::from_value(old).unwrap();
        assert_eq!((old.openings.clone(), old.runs.len()), (None, 0));
        let old_two = ResultsFile {
            seed: 2,
            ..old.clone()
        };
        assert!(merge(&[old.clone(), old_two], None).is_ok());
        assert!(merge(&[old, run(2, 1)], None).is_err(), "unknown openings");
    }

    #[test]
    fn a_run_stopped_early_makes_the_sum_incomplete_and_says_why() {
        let mut stopped = run(2, 1);
        stopped.report.stop = StopReason::SprtH1;
        let m = merge(&[run(1, 1), stopped], None).unwrap().report;
        assert_eq!(
            m.stop,
            StopReason::Incomplete("seed 2 (whole match) stopped: SPRT: H1 accepted".to_string())
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
        let runs = [run(1, 1), run(2, 1)];
        let merged = merge(&runs, None).unwrap();
        write_atomically(&path, &serde_json::to_string(&merged).unwrap()).unwrap();
        assert_eq!(read_results(&path).unwrap(), merged);
        std::fs::write(&path, "{\"format\":\"other\"}").unwrap();
        assert!(read_results(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
