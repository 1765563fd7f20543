//! Openings and independent runs (issue 38 §2): the seed decides a book's order, a records
//! file is a book, repeated games are counted and warned about, and `match merge` refuses
//! runs of another engine or book under the same name.

use crate::support;

use std::path::{Path, PathBuf};

use quartet_records::parse_records;
use quartet_referee::{MatchError, MatchReport, MergeArgs, run_merge};
use quartet_testkit::toys::Nim;

use support::{fake, play, scratch};

/// A book of 12 Nim positions (3 to 14 stones, the first player to move).
fn nim_book(dir: &Path) -> PathBuf {
    let path = dir.join("book.txt");
    let lines: Vec<String> = (3..15).map(|n| format!("{n} f 0")).collect();
    std::fs::write(&path, lines.join("\n") + "\n").expect("book");
    path
}

/// The `FEN` tags of a records file in `Round` order.
fn starts(pgn: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(pgn).expect("records");
    let mut records = parse_records(&text).expect("records parse");
    records.sort_by_key(|r| r.tag("Round").and_then(|n| n.parse::<u32>().ok()));
    records
        .iter()
        .map(|r| r.tag("FEN").unwrap_or_default().to_string())
        .collect()
}

fn merge(files: &[PathBuf]) -> Result<MatchReport, MatchError> {
    run_merge(&MergeArgs {
        files: files.to_vec(),
        sprt: None,
        results: None,
    })
}

/// Two seeds over one book play it in two orders (and one seed in one); `order=sequential`
/// keeps the file's order from `start`; the two runs merge, with their games distinct.
#[test]
fn two_seeds_over_one_book_play_two_orders() {
    let dir = scratch("two-seeds");
    let book = nim_book(&dir);
    let run = |name: &str, seed: u32, options: &str| {
        let (pgn, results) = (
            dir.join(format!("{name}.pgn")),
            dir.join(format!("{name}.json")),
        );
        let extra = format!(
            "--games 12 --nodes 1 --seed {seed} --openings file:{} {options} --pgnout {} \
             --results {}",
            book.display(),
            pgn.display(),
            results.display()
        );
        let report = play::<Nim>(fake("A", "--play first"), fake("B", "--play last"), &extra);
        (report, starts(&pgn), results)
    };
    let (r1, one, res1) = run("seed1", 1, "");
    let (_, again, _) = run("seed1-again", 1, "");
    let (_, two, res2) = run("seed2", 2, "");
    assert_eq!(one, again, "one seed, one order");
    assert_ne!(one, two, "two seeds, two orders");
    // Both games of a pair start from the same position; 6 pairs use 6 book lines.
    for pair in one.chunks(2) {
        assert_eq!(pair[0], pair[1]);
    }
    let (_, sequential, _) = run("sequential", 1, "order=sequential start=4");
    let expected: Vec<String> = (6..12).flat_map(|n| vec![format!("{n} f 0"); 2]).collect();
    assert_eq!(sequential, expected);
    assert!(r1.to_string().contains("Distinct: 6 openings, "), "{r1}");
    let merged = merge(&[res1, res2]).expect("two seeds merge");
    assert_eq!(merged.tally.games(), 24);
    let text = merged.to_string();
    assert!(text.contains("Distinct: "), "{text}");
}

/// A records file is a book: each record's first `plies` tokens from its `FEN`.
#[test]
fn a_records_file_is_a_book() {
    let dir = scratch("records-book");
    let book = dir.join("book.pgn");
    std::fs::write(
        &book,
        "[Game \"nim\"]\n[FEN \"12 f 0\"]\n\nt1 t2 t3 t1 1-0\n\n[Game \"nim\"]\n\nt3 t3 p 0-1\n",
    )
    .expect("book");
    let pgn = dir.join("g.pgn");
    let extra = format!(
        "--games 4 --nodes 1 --openings file:{} order=sequential plies=2 --pgnout {}",
        book.display(),
        pgn.display()
    );
    play::<Nim>(fake("A", ""), fake("B", ""), &extra);
    let text = std::fs::read_to_string(&pgn).expect("records");
    let mut records = parse_records(&text).expect("records parse");
    records.sort_by_key(|r| r.tag("Round").and_then(|n| n.parse::<u32>().ok()));
    let heads: Vec<(Option<&str>, &[String])> = records
        .iter()
        .map(|r| (r.tag("FEN"), &r.moves[..2]))
        .collect();
    assert_eq!(heads[0].0, Some("12 f 0"));
    assert_eq!(heads[0].1, ["t1", "t2"]);
    assert_eq!(heads[2].1, ["t3", "t3"]);
    assert!(records.iter().all(|r| r.tag("OpeningPlies") == Some("2")));
}

/// Deterministic engines from the start position play one game over and over: the report
/// says how many distinct games there were and warns.
#[test]
fn repeated_games_are_counted_and_warned_about() {
    let report = play::<Nim>(fake("A", ""), fake("B", ""), "--games 40 --nodes 1");
    let text = report.to_string();
    // Both engines take one stone each turn, whoever starts: one game, 40 times.
    assert!(
        text.contains("Distinct: 1 openings, 1 games of 40"),
        "{text}"
    );
    assert!(
        text.contains("Warning: 39 of 40 games repeat an earlier game"),
        "{text}"
    );
    let varied = play::<Nim>(
        fake("A", "--play hash --seed 1"),
        fake("B", "--play hash --seed 2"),
        "--games 8 --nodes 1 --openings random:3 --seed 5",
    );
    assert!(!varied.to_string().contains("Warning"), "{varied}");
}

/// `match merge` refuses another engine under the same name (other arguments, or a
/// script whose content changed), another book under the same path, and a seed given
/// twice, and says which and why.
#[test]
fn merge_refuses_another_engine_or_book_under_the_same_name() {
    let dir = scratch("provenance");
    let book = nim_book(&dir);
    let script = dir.join("engine.py");
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/referee/fake_engine.py");
    std::fs::copy(&fixture, &script).expect("copy the engine");
    let engine = |name: &str, options: &str| {
        vec![
            "cmd=python3".to_string(),
            format!("args={} --name {name} {options}", script.display()),
            format!("name={name}"),
        ]
    };
    let run = |name: &str, seed: u32, b: Vec<String>| {
        let results = dir.join(format!("{name}.json"));
        let extra = format!(
            "--games 2 --nodes 1 --seed {seed} --openings file:{} --results {}",
            book.display(),
            results.display()
        );
        play::<Nim>(engine("A", ""), b, &extra);
        results
    };
    let base = run("base", 1, engine("B", "--play last"));
    let other_args = run("args", 2, engine("B", "--play first"));
    let err = merge(&[base.clone(), other_args]).unwrap_err().to_string();
    assert!(err.contains("engine 'B' has other arguments"), "{err}");
    std::fs::write(&book, "5 f 0\n6 f 0\n").expect("rewrite the book");
    let other_book = run("book", 3, engine("B", "--play last"));
    let err = merge(&[base.clone(), other_book]).unwrap_err().to_string();
    assert!(err.contains("another book under the same name"), "{err}");
    nim_book(&dir);
    let mut text = std::fs::read_to_string(&script).expect("script");
    text.push_str("\n# changed\n");
    std::fs::write(&script, text).expect("change the engine");
    let other_script = run("script", 4, engine("B", "--play last"));
    let err = merge(&[base.clone(), other_script])
        .unwrap_err()
        .to_string();
    assert!(err.contains("engine 'A' reads another file"), "{err}");
    std::fs::copy(&fixture, &script).expect("restore the engine");
    let same_seed = run("again", 1, engine("B", "--play last"));
    let err = merge(&[base.clone(), same_seed]).unwrap_err().to_string();
    assert!(err.contains("seed 1 (whole match) appears twice"), "{err}");
    let fine = run("fine", 5, engine("B", "--play last"));
    assert_eq!(merge(&[base, fine]).expect("one test").tally.games(), 4);
}
