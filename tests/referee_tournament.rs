//! Tournaments (issue 38 §1): any number of engines, round robin or gauntlet, `--each`,
//! per-engine limits that the referee holds each engine to, an engines file, and a report
//! with the standings from one maximum-likelihood fit, a crosstable and each pairing's
//! pentanomial statistics. Expected values are worked out from the toy game's rules (Nim:
//! 15 stones, take 1 to 3, the last stone wins) and the fake engines' fixed strategies.

use crate::support;

use std::collections::BTreeMap;

use quartet_records::Record;
use quartet_testkit::toys::Nim;

use support::{RULES, args, fake, logging_fake, play_recorded, records_by_round, scratch};

/// Four engines in Nim: a taker (always `t1`) wins every game against a passer (always
/// `p`: the taker takes all 15 stones); two takers win the game they start (15 plies); two
/// passers draw by repetition. So with A, B takers and C, D passers, every pairing of a
/// taker and a passer is +2 per pair for the taker, and the others are even.
fn four(dir: &std::path::Path, extra: &str) -> (quartet_referee::MatchReport, Vec<Record>) {
    let mut m = args(
        "nim",
        fake("A", "--play first"),
        fake("B", "--play first"),
        extra,
    );
    m.engines.0.push(fake("C", "--play last"));
    m.engines.0.push(fake("D", "--play last"));
    let pgn = dir.join("g.pgn");
    m.pgnout = Some(pgn.clone());
    let report = quartet_referee::run_match::<Nim>(&m, &RULES).expect("the tournament runs");
    let games = quartet_referee::replay_file::<Nim>(&pgn, &RULES).expect("records replay");
    (report, records_by_round(games))
}

#[test]
fn a_round_robin_of_four_reports_standings_crosstable_and_pairings() {
    let dir = scratch("round-robin");
    let (report, records) = four(&dir, "--games 4 --nodes 1 --concurrency 2");
    // 6 pairings x 4 games.
    assert_eq!((report.scheduled, records.len()), (24, 24));
    assert_eq!(report.pairings.len(), 6);
    let mut met: BTreeMap<(String, String), u32> = BTreeMap::new();
    for r in &records {
        let (w, b) = (r.tag("White").unwrap(), r.tag("Black").unwrap());
        assert_ne!(w, b);
        let key = if w < b { (w, b) } else { (b, w) };
        *met.entry((key.0.to_string(), key.1.to_string()))
            .or_default() += 1;
    }
    assert!(met.values().all(|&n| n == 4), "{met:?}");
    let tally = |a: &str, b: &str| {
        report
            .pairings
            .iter()
            .find(|p| p.engines == [a.to_string(), b.to_string()])
            .expect("the pairing")
            .tally
    };
    // A and B split every pair; takers beat passers 4-0; passers draw.
    assert_eq!(
        (
            tally("A", "B").wins,
            tally("A", "B").losses,
            tally("A", "B").penta.wl
        ),
        (2, 2, 2)
    );
    assert_eq!((tally("A", "C").wins, tally("A", "C").penta.ww), (4, 2));
    assert_eq!((tally("B", "D").wins, tally("B", "D").penta.ww), (4, 2));
    assert_eq!((tally("C", "D").draws, tally("C", "D").penta.dd), (4, 2));
    // The first engine's total is over its own pairings: 2 + 4 + 4 wins of 12.
    assert_eq!((report.tally.wins, report.tally.games()), (10, 12));
    let text = report.to_string();
    for needle in [
        "Results of a round-robin of 4 engines (nim, nodes=1):",
        "Games: 24 of 24",
        "Rank Engine",
        // A and B: 2 + 4 + 4 = 10 of 12 each; C and D 2 of 12 (draws with each other).
        "Elo: one maximum-likelihood fit over all 24 games",
        "with one virtual draw per pairing",
        "A vs B: 4 games, +2 =0 -2",
        "A vs C: 4 games, +4 =0 -0",
        "C vs D: 4 games, +0 =4 -0",
        "Ptnml(0-2): [0, 0, 0+2, 0, 0]",
        "Terminations: normal 20, repetition 4",
        "Stopped: all games played",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    // The standings: the takers first, 10 points of 12, the passers 2.
    let standings: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Rank"))
        .skip(1)
        .take(4)
        .collect();
    assert!(
        standings[0].contains("10.0") && standings[1].contains("10.0"),
        "{text}"
    );
    assert!(
        standings[2].contains("2.0") && standings[3].contains("2.0"),
        "{text}"
    );
    assert!(standings[0].contains("83.3 %"), "{text}");
    // The crosstable: A's row against C is 4/4.
    let row_a = text
        .lines()
        .skip_while(|l| !l.starts_with("Crosstable"))
        .find(|l| l.split_whitespace().nth(1) == Some("A"))
        .expect("A's row");
    assert!(row_a.contains("4/4") && row_a.contains("2/4"), "{row_a}");
}

#[test]
fn a_gauntlet_pairs_the_first_engine_with_each_other() {
    let dir = scratch("gauntlet");
    let (report, records) = four(&dir, "--games 2 --nodes 1 --tournament gauntlet");
    assert_eq!(records.len(), 6);
    let names: Vec<[String; 2]> = report.pairings.iter().map(|p| p.engines.clone()).collect();
    assert_eq!(
        names,
        [["A", "B"], ["A", "C"], ["A", "D"]].map(|[a, b]| [a.to_string(), b.to_string()])
    );
    assert!(
        records
            .iter()
            .all(|r| r.tag("White") == Some("A") || r.tag("Black") == Some("A"))
    );
    assert!(
        report
            .to_string()
            .contains("Results of a gauntlet of 4 engines")
    );
}

/// Each engine gets its own limit in its `go` and is judged by it: A under a move time of
/// 200 ms that thinks 400 ms at its first move loses on time, while B under a node limit,
/// as slow, does not.
#[test]
fn each_engine_is_held_to_its_own_limit() {
    let dir = scratch("own-limits");
    let (a, log_a) = logging_fake(&dir, "A", "--delay-at 1:400");
    let (b, log_b) = logging_fake(&dir, "B", "--delay-at 1:400");
    let mut a = a;
    a.push("movetime=200".to_string());
    let mut b = b;
    b.push("nodes=7".to_string());
    let pgn = dir.join("g.pgn");
    let (report, games) = play_recorded::<Nim>(&pgn, a, b, "--games 2 --margin 50");
    assert_eq!(report.terminations.get("time forfeit"), Some(&2));
    assert_eq!(report.tally.losses, 2, "A loses both games on time");
    let faults = &report.faults["A"];
    assert_eq!(faults.get("time forfeit"), Some(&2));
    assert!(!report.faults.contains_key("B"));
    for (log, go) in [(&log_a, "go movetime 200"), (&log_b, "go nodes 7")] {
        let text = std::fs::read_to_string(log).expect("log");
        assert!(text.lines().all(|l| l.ends_with(go)), "{text}");
    }
    let records = records_by_round(games);
    assert_eq!(records[0].tag("WhiteTimeControl"), Some("movetime=200"));
    assert_eq!(records[0].tag("BlackTimeControl"), Some("nodes=7"));
    assert_eq!(records[0].tag("TimeControl"), None);
    assert!(report.to_string().contains("Faults: A: time forfeit 2"));
}

/// `--each` gives every engine its words, an engines file its entries by `conf=NAME`.
#[test]
fn each_and_an_engines_file() {
    let dir = scratch("engines-file");
    let file = dir.join("engines.json");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/referee/fake_engine.py");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    std::fs::write(
        &file,
        format!(
            r#"[{{"name": "taker", "cmd": "python3",
                 "args": ["{s}", "--name", "taker", "--log-file", "{a}"], "depth": 3}},
               {{"name": "passer", "cmd": "python3",
                 "args": "{s} --name passer --play last --log-file {b}"}}]"#,
            s = script.display(),
            a = log_a.display(),
            b = log_b.display()
        ),
    )
    .expect("engines file");
    let extra = format!(
        "--games 2 --engines {} --each nodes=11 option.Hash=4",
        file.display()
    );
    let mut m = args(
        "nim",
        vec!["conf=taker".into()],
        vec!["conf=passer".into()],
        &extra,
    );
    m.pgnout = Some(dir.join("g.pgn"));
    let config = m.to_config().expect("the arguments");
    assert_eq!(config.engines[0].spec.name, "taker");
    assert_eq!(
        config.engines[1].spec.options,
        [("Hash".to_string(), "4".to_string())]
    );
    let report = quartet_referee::run_match::<Nim>(&m, &RULES).expect("the match runs");
    assert_eq!(report.tally.wins, 2);
    let go = |log: &std::path::Path| {
        std::fs::read_to_string(log)
            .expect("log")
            .lines()
            .map(|l| l.split('|').nth(1).unwrap_or_default().to_string())
            .collect::<Vec<_>>()
    };
    assert!(go(&log_a).iter().all(|g| g == "go depth 3"));
    assert!(go(&log_b).iter().all(|g| g == "go nodes 11"));
}

/// The shards of a tournament merge into the unsharded run's pairings and faults.
#[test]
fn a_sharded_tournament_merges_into_the_whole() {
    let dir = scratch("sharded-tournament");
    let extra = |shard: &str, name: &str| {
        format!(
            "--games 4 --nodes 1 --openings random:2 --seed 3 {shard} --results {}",
            dir.join(name).display()
        )
    };
    let (whole, _) = four(&dir, &extra("", "whole.json"));
    for i in 1..=3 {
        four(
            &dir,
            &extra(&format!("--shard {i}/3"), &format!("s{i}.json")),
        );
    }
    let merged = quartet_referee::run_merge(&quartet_referee::MergeArgs {
        files: (1..=3).map(|i| dir.join(format!("s{i}.json"))).collect(),
        sprt: None,
        results: None,
    })
    .expect("the shards merge");
    assert_eq!(merged.pairings, whole.pairings);
    assert_eq!(merged.terminations, whole.terminations);
    assert_eq!(merged.tally, whole.tally);
    assert_eq!(merged.scheduled, 24);
}
