//! Shards partition a match and merging their results gives the totals of one run; runs of
//! one test with different seeds merge into the sum of their tallies.

use crate::support;

use std::path::PathBuf;

use quartet_referee::results::read_results;
use quartet_referee::{MatchError, MatchReport, MergeArgs, StopReason, replay_file, run_merge};

use quartet_testkit::toys::Dice;
use support::{RULES, fake, play, scratch};

fn rounds(path: &std::path::Path) -> Vec<(u32, Vec<String>, String)> {
    let mut v: Vec<_> = replay_file::<Dice>(path, &RULES)
        .unwrap()
        .into_iter()
        .map(|g| {
            let round = g.record.tag("Round").unwrap().parse().unwrap();
            (round, g.record.moves, g.record.result)
        })
        .collect();
    v.sort();
    v
}

/// `quartet match merge FILES [--results RESULTS]`.
fn merge(files: Vec<PathBuf>, results: Option<PathBuf>) -> Result<MatchReport, MatchError> {
    run_merge(&MergeArgs {
        files,
        sprt: None,
        results,
    })
}

#[test]
fn merged_shards_equal_one_run() {
    let dir = scratch("shards");
    let run = |shard: &str, name: &str| {
        let (pgn, results) = (
            dir.join(format!("{name}.pgn")),
            dir.join(format!("{name}.json")),
        );
        let extra = format!(
            "--games 10 --nodes 1 --seed 21 --openings random:2 {shard} --pgnout {} --results {}",
            pgn.display(),
            results.display()
        );
        let (a, b) = (
            fake("A", "--play hash --seed 4"),
            fake("B", "--play hash --seed 9"),
        );
        (play::<Dice>(a, b, &extra), pgn, results)
    };
    let (full, full_pgn, _) = run("", "full");
    let (s1, pgn1, res1) = run("--shard 1/2", "s1");
    let (s2, pgn2, res2) = run("--shard 2/2", "s2");
    // 10 games = 5 pairs; shard 1 has pairs 0, 2, 4 and shard 2 pairs 1, 3.
    assert_eq!((s1.scheduled, s2.scheduled), (6, 4));
    let mut union = rounds(&pgn1);
    union.extend(rounds(&pgn2));
    union.sort();
    assert_eq!(union, rounds(&full_pgn));
    let merged = merge(
        vec![res2.clone(), res1.clone()],
        Some(dir.join("merged.json")),
    )
    .unwrap();
    assert_eq!(merged.tally, full.tally);
    assert_eq!(merged.terminations, full.terminations);
    assert_eq!(merged.scheduled, 10);
    assert_eq!(merged.stop, StopReason::Completed);
    let partial = merge(vec![res1], None).unwrap();
    assert!(matches!(partial.stop, StopReason::Incomplete(_)));
}

#[test]
fn runs_with_different_seeds_merge_into_their_sum() {
    let dir = scratch("runs");
    let run = |seed: u32, openings: &str| {
        let results = dir.join(format!("seed{seed}-{}.json", openings.replace(':', "")));
        let extra = format!(
            "--games 6 --nodes 1 --seed {seed} --openings {openings} --results {}",
            results.display()
        );
        let (a, b) = (
            fake("A", "--play hash --seed 4"),
            fake("B", "--play hash --seed 9"),
        );
        (play::<Dice>(a, b, &extra), results)
    };
    let (first, res1) = run(21, "random:2");
    let (second, res2) = run(22, "random:2");
    let merged_path = dir.join("merged.json");
    let merged = merge(vec![res1.clone(), res2.clone()], Some(merged_path.clone())).unwrap();
    let mut sum = first.tally;
    sum.merge(&second.tally);
    assert_eq!(merged.tally, sum);
    assert_eq!((merged.scheduled, merged.stop), (12, StopReason::Completed));
    let written = read_results(&merged_path).unwrap();
    let runs: Vec<(u64, u64)> = written.runs.iter().map(|r| (r.seed, r.games)).collect();
    assert_eq!(runs, [(21, 6), (22, 6)]);
    assert_eq!(
        (written.seed, written.games, written.report.tally),
        (21, 12, sum)
    );
    let (_, other_openings) = run(23, "random:3");
    let err = merge(vec![res1, other_openings], None).unwrap_err();
    assert!(err.to_string().contains("another test"), "{err}");
    let again = merge(vec![merged_path, res2], None).unwrap_err();
    assert!(again.to_string().contains("appears twice"), "{again}");
}
