//! Protocol sessions against the binary for the two games whose nodes are not plain turns:
//! Apocalypse's simultaneous declarations (protocol.md §3.2) and Ludo's chance nodes (§3.3).

use crate::common;

use common::Engine;

/// The lines of one `go`, up to and including `bestmove`.
fn go(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.until(|l| l.starts_with("bestmove "))
}

/// The `<move>=<probability>` pairs of the policy line.
fn policy(lines: &[String]) -> Vec<(String, f64)> {
    let line = lines
        .iter()
        .find_map(|l| l.strip_prefix("info string policy "))
        .unwrap_or_else(|| panic!("no policy line in {lines:?}"));
    line.split(' ')
        .map(|pair| {
            let (m, p) = pair.split_once('=').expect("move=probability");
            (m.to_string(), p.parse().expect("a probability"))
        })
        .collect()
}

#[test]
fn apocalypse_declares_from_a_policy_that_sums_to_one() {
    let mut e = Engine::start(&["--game", "apocalypse"]);
    let legal = e.query("legalmoves w");
    let lines = go(&mut e, "go depth 2 side w");
    let p = policy(&lines);
    // Every legal declaration, each once, with six decimals summing to exactly 1.
    let mut listed: Vec<&str> = p.iter().map(|(m, _)| m.as_str()).collect();
    listed.sort_unstable();
    let mut expected: Vec<&str> = legal.split(' ').collect();
    expected.sort_unstable();
    assert_eq!(listed, expected);
    let units: i64 = p.iter().map(|(_, x)| (x * 1e6).round() as i64).sum();
    assert_eq!(units, 1_000_000, "{p:?}");
    assert!(
        p.windows(2).all(|w| w[0].1 >= w[1].1),
        "most probable first: {p:?}"
    );
    // The declaration played has positive probability.
    let best = lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .expect("bestmove");
    assert!(
        p.iter().any(|(m, x)| m == best && *x > 0.0),
        "{best} in {p:?}"
    );
}

#[test]
fn apocalypse_the_same_seed_gives_the_same_declaration_across_ucinewgame() {
    let mut e = Engine::start(&["--game", "apocalypse"]);
    let mut played = Vec::new();
    for seed in [7, 7, 8, 7] {
        e.ask("ucinewgame");
        e.ask(&format!("setoption name Seed value {seed}"));
        e.ask("position startpos");
        let lines = go(&mut e, "go depth 2 side b");
        played.push((
            seed,
            lines.last().cloned().unwrap_or_default(),
            policy(&lines),
        ));
    }
    assert_eq!(played[0], played[1]);
    assert_eq!(played[0], played[3]);
}

#[test]
fn apocalypse_without_a_side_searches_the_value_and_gives_no_move() {
    let mut e = Engine::start(&["--game", "apocalypse"]);
    let lines = go(&mut e, "go depth 2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    let n = lines.len();
    assert!(
        lines[n - 2].starts_with("info string simultaneous move"),
        "{lines:?}"
    );
    assert_eq!(lines[n - 1], "bestmove (none)");
}

#[test]
fn ludo_reports_wdl_at_a_decision_and_no_move_at_a_roll() {
    let mut e = Engine::start(&["--game", "ludo"]);
    // `wdl` is shown when asked for (as in Stockfish).
    e.ask("setoption name UCI_ShowWDL value true");
    // A decision: Red rolled a 6 and may enter.
    e.ask("position startpos moves r6");
    let lines = go(&mut e, "go depth 3");
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!info.is_empty(), "{lines:?}");
    for l in &info {
        let words: Vec<&str> = l.split(' ').collect();
        let at = words.iter().position(|w| *w == "wdl").expect("a wdl field");
        let wdl: Vec<u32> = words[at + 1..at + 4]
            .iter()
            .map(|w| w.parse().expect("per mille"))
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{l}");
        assert_eq!(wdl[1], 0, "Ludo has no draws: {l}");
    }
    assert_eq!(lines.last().map(String::as_str), Some("bestmove b-0"));
    // A chance node: the die must be rolled first.
    e.ask("position startpos");
    let lines = go(&mut e, "go depth 2");
    let n = lines.len();
    assert!(
        lines[n - 2].starts_with("info string chance node"),
        "{lines:?}"
    );
    // A UGI runner without dice is told which option makes the engine roll.
    assert!(lines[n - 2].contains("EngineRolls"), "{lines:?}");
    assert_eq!(lines[n - 1], "bestmove (none)");
}
