//! Records and logs (issue 38 §5): every engine move carries `{score/depth time}` (with
//! the clock under a clock, and the declaration's probability in Apocalypse), the records
//! have Date, Site and Event tags and replay; `--log DIR` keeps every engine's input,
//! output and stderr per game; without it stderr still goes to a file and a crash's
//! reason quotes its last lines; the report counts each engine's faults; and a
//! concurrency above the cores is warned about.

use crate::support;

use std::process::Command;

use quartet_records::parse_records;
use quartet_testkit::toys::Nim;

use support::{fake, play, play_recorded, reason, scratch};

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

/// The words of a `{...}` comment after each token of a record's text (`None` without).
fn comments(text: &str) -> Vec<Option<String>> {
    let body = text.split("\n\n").nth(1).expect("a move list");
    let mut out: Vec<Option<String>> = Vec::new();
    let mut rest = body.replace('\n', " ");
    while !rest.trim().is_empty() {
        let trimmed = rest.trim_start().to_string();
        if let Some(inner) = trimmed.strip_prefix('{') {
            let end = inner.find('}').expect("a closed comment");
            if let Some(last) = out.last_mut() {
                *last = Some(inner[..end].to_string());
            }
            rest = inner[end + 1..].to_string();
        } else {
            let end = trimmed.find(' ').unwrap_or(trimmed.len());
            out.push(None);
            rest = trimmed[end..].to_string();
        }
    }
    out.pop(); // the result
    out
}

/// Apocalypse under a clock, one engine behind a random opening of 2 plies: the opening's
/// tokens say `book`, every joint turn has both halves with their clocks, the searching
/// engine's half its score, depth and the probability of its declaration.
#[test]
fn moves_carry_score_depth_time_clock_and_probability() {
    let dir = scratch("records-comments");
    let pgn = dir.join("g.pgn");
    let out = Command::new(QUARTET)
        .args([
            "match",
            "--game",
            "apocalypse",
            "--no-progress",
            "--games",
            "1",
        ])
        .args(["--engine", &format!("cmd={QUARTET}"), "name=search"])
        .args([
            "--engine",
            &format!("cmd={QUARTET}"),
            "name=random",
            "args=--player random",
        ])
        .args([
            "--tc",
            "30+0.1",
            "--each",
            "option.Hash=1",
            "--openings",
            "random:2",
        ])
        .args(["--event", "Comment test", "--site", "the lab", "--pgnout"])
        .arg(&pgn)
        .output()
        .expect("quartet runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).expect("records");
    let record = &parse_records(&text).expect("records")[0];
    assert_eq!(record.tag("Event"), Some("Comment test"));
    assert_eq!(record.tag("Site"), Some("the lab"));
    let date = record.tag("Date").expect("a Date tag");
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'.' && date.as_bytes()[7] == b'.',
        "{date}"
    );
    let notes = comments(&text);
    assert_eq!(notes.len(), record.moves.len());
    assert_eq!(notes[0].as_deref(), Some("book"));
    assert_eq!(notes[1].as_deref(), Some("book"));
    for note in &notes[2..] {
        let note = note.as_deref().expect("a comment after every engine move");
        let halves: Vec<&str> = note.split(" / ").collect();
        assert_eq!(halves.len(), 2, "{note}");
        // The search is White: `+0.12/4 0.050s p=0.667 [%clk 0:00:29]`.
        let white: Vec<&str> = halves[0].split(' ').collect();
        let (score, depth) = white[0].split_once('/').expect("score/depth");
        assert!(score.starts_with(['+', '-']), "{note}");
        assert!(depth.parse::<u32>().is_ok(), "{note}");
        assert!(white[1].ends_with('s') && white[1].contains('.'), "{note}");
        let p: f64 = white[2]
            .strip_prefix("p=")
            .expect("p=")
            .parse()
            .expect("a probability");
        assert!((0.0..=1.0).contains(&p), "{note}");
        assert!(
            halves[0].ends_with(']') && halves[0].contains("[%clk 0:00:"),
            "{note}"
        );
        // The random player prints no score: its time and clock only.
        assert!(halves[1].contains("[%clk 0:00:"), "{note}");
    }
    let replay = Command::new(QUARTET)
        .arg("replay")
        .arg(&pgn)
        .output()
        .expect("replay");
    assert!(replay.status.success());
}

/// `--log DIR`: one file per game with both engines' lines, marked `<` (sent), `>`
/// (written) and `!` (stderr), each with its time. (An engine's stderr is read beside its
/// output, so a line written at a game's very end may land in the next game's file: the
/// stderr lines are counted over both.)
#[test]
fn the_log_keeps_every_engine_line_per_game() {
    let dir = scratch("records-log");
    let logs = dir.join("logs");
    let extra = format!("--games 2 --nodes 1 --log {}", logs.display());
    let report = play::<Nim>(fake("A", "--stderr thinking"), fake("B", ""), &extra);
    let mut stderr_lines = 0;
    for game in 1..=2 {
        let text = std::fs::read_to_string(logs.join(format!("game-{game}.log"))).expect("log");
        let mut seen = std::collections::BTreeSet::new();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert!(words[0].parse::<f64>().is_ok(), "{line}");
            seen.insert((words[1].to_string(), words[2].to_string()));
        }
        for (who, mark) in [("A", "<"), ("A", ">"), ("B", "<"), ("B", ">")] {
            assert!(
                seen.contains(&(who.to_string(), mark.to_string())),
                "{who} {mark}: {text}"
            );
        }
        assert!(text.contains("B < ucinewgame"), "{text}");
        assert!(text.contains("A > bestmove t1"), "{text}");
        stderr_lines += text.lines().filter(|l| l.ends_with("A ! thinking")).count();
    }
    // Both engines take a stone a turn: 15 plies a game, A's 8 in the first and 7 in the
    // second, one stderr line each.
    assert_eq!(stderr_lines, 15);
    assert_eq!(
        report.stderr, None,
        "with --log, stderr goes to the game logs"
    );
}

/// Without `--log` the engines' stderr goes to a file beside the results, and a crash's
/// reason quotes the engine's last stderr lines; the report names the file and counts the
/// crash against the engine.
#[test]
fn a_crash_quotes_the_engine_s_last_words() {
    let dir = scratch("records-crash");
    let results = dir.join("r.json");
    let pgn = dir.join("g.pgn");
    let extra = format!(
        "--games 2 --nodes 1 --recover --results {}",
        results.display()
    );
    let (report, games) = play_recorded::<Nim>(
        &pgn,
        fake("A", ""),
        fake("B", "--crash-at 2 --stderr dying"),
        &extra,
    );
    let why = reason(&games[0]);
    assert!(
        why.starts_with("B: the engine exited; its last stderr lines: 'dying' | 'dying'"),
        "{why}"
    );
    assert_eq!(report.faults["B"]["crash"], 2);
    let stderr_file = dir.join("r.json.stderr");
    assert_eq!(report.stderr.as_deref(), stderr_file.to_str());
    let text = std::fs::read_to_string(&stderr_file).expect("the stderr file");
    assert!(text.lines().all(|l| l.ends_with("B ! dying")), "{text}");
    let shown = report.to_string();
    assert!(shown.contains("Faults: B: crash 2"), "{shown}");
    assert!(
        shown.contains(&format!("Engine stderr: {}", stderr_file.display())),
        "{shown}"
    );
}

/// More games at once than cores: a warning on stderr.
#[test]
fn too_much_concurrency_is_warned_about() {
    let out = Command::new(QUARTET)
        .args([
            "match",
            "--game",
            "duell",
            "--no-progress",
            "--games",
            "1",
            "--nodes",
            "1",
        ])
        .args(["--concurrency", "4096"])
        .args([
            "--engine",
            &format!("cmd={QUARTET}"),
            "--engine",
            &format!("cmd={QUARTET}"),
        ])
        .output()
        .expect("quartet runs");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("warning: --concurrency 4096 exceeds the"),
        "{stderr}"
    );
}
