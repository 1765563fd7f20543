//! The protocol as real clients drive it (protocol.md §1, §3, §4): scripts that pipe a
//! whole session in, UGI runners that wait for every reply and flag at `time - elapsed <=
//! 0`, and GUIs that ponder, restrict the root moves or forget `stop`. Each test runs the
//! built binary; the expected behaviour is Stockfish's where UCI leaves it open.

use crate::common;

use common::{Engine, piped};
use std::time::{Duration, Instant};

/// The lines of one `go`, up to and including `bestmove`.
fn go(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.until(|l| l.starts_with("bestmove "))
}

/// The move of the last `bestmove` line in `lines`.
fn best(lines: &[String]) -> String {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no bestmove in {lines:?}"))
        .to_string()
}

/// The value after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split(' ');
    words.find(|w| *w == key)?;
    words.next()
}

/// The `info depth` lines in `lines`.
fn infos(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect()
}

/// Checks that no `bestmove` comes for `wait` (the search goes on).
fn no_bestmove_for(e: &Engine, wait: Duration) {
    let until = Instant::now() + wait;
    while let Some(l) = e.recv(until.saturating_duration_since(Instant::now())) {
        assert!(!l.starts_with("bestmove"), "the search goes on: {l}");
    }
}

/// How long the engine takes to answer `go_line` after `setup`, from the moment the `go`
/// is sent to its `bestmove`.
fn time_of(args: &[&str], setup: &[&str], go_line: &str) -> Duration {
    let mut e = Engine::start(args);
    for line in setup {
        e.send(line);
    }
    e.sync();
    let sent = Instant::now();
    go(&mut e, go_line);
    sent.elapsed()
}

#[test]
fn a_piped_session_gets_whole_searches_in_order() {
    // Issue: the second `go` used to cut the first search short at depth 2.
    let lines = piped(
        &[],
        "position startpos\ngo depth 8\nposition startpos moves a1a6\ngo depth 8\n",
    );
    let bests: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("bestmove "))
        .collect();
    assert_eq!(bests.len(), 2, "{lines:?}");
    for (from, to) in [(0, bests[0]), (bests[0], bests[1])] {
        assert!(
            lines[from..to]
                .iter()
                .any(|l| l.starts_with("info depth 8 ")),
            "each search reaches depth 8: {lines:?}"
        );
    }
    // The second search is Black's, after a1a6: Black's pieces start on ranks 7 and 8.
    let second = best(&lines[..=bests[1]]);
    assert!(second[1..2] == *"8" || second[1..2] == *"7", "{second}");
}

#[test]
fn a_position_sent_during_a_bounded_search_applies_at_once_and_the_search_goes_on() {
    let mut e = Engine::start(&[]);
    e.send("go depth 7");
    e.send("position startpos moves a1a6");
    e.send("query fen");
    // The query sees the new position at once, before the search's bestmove.
    let lines = e.until(|l| l.starts_with("response"));
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    assert!(
        lines.last().is_some_and(|l| l.contains(" b 1 1")),
        "{lines:?}"
    );
    // The search of the start position runs on to its depth.
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 7 ")),
        "{lines:?}"
    );
    // `isready` during a search is answered at once, without stopping it.
    e.send("go depth 60");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
}

#[test]
fn a_gui_that_forgets_stop_after_go_infinite_gets_that_search_s_move() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(150));
    // A position does not stop it (Stockfish's rule): it is for the next go.
    e.send("position startpos moves a1a6");
    e.send("query fen");
    let lines = e.until(|l| l.starts_with("response"));
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    assert!(
        lines.last().is_some_and(|l| l.contains(" b 1 1")),
        "{lines:?}"
    );
    no_bestmove_for(&e, Duration::from_millis(300));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    // Another `go` likewise: two bestmoves, one per go.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let lines = go(&mut e, "go depth 2");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    // A refused line does not stop it.
    e.send("go infinite");
    e.send("hello");
    e.send("position startpos moves zz9");
    let lines = e.until(|l| l.contains("'zz9'"));
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    no_bestmove_for(&e, Duration::from_millis(300));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
}

#[test]
fn the_end_of_input_lets_a_timed_search_use_its_time_then_exits() {
    let started = Instant::now();
    let lines = piped(&[], "go movetime 1500\n");
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(1400), "{took:?}");
    assert_ne!(best(&lines), "(none)");
}

#[test]
fn go_perft_is_whole_on_every_run_and_ends_without_bestmove() {
    // 37 root moves and 1 702 613 leaves at depth 4 (crates/games/src/duell/perft.data, from the
    // independent reference generator).
    for run in 0..20 {
        let lines = piped(&[], "position startpos\ngo perft 4\nquit\n");
        let rows = lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count();
        assert_eq!(rows, 37, "run {run}: {lines:?}");
        assert_eq!(
            lines[lines.len() - 2..],
            ["Nodes searched: 1702613", ""],
            "run {run}"
        );
        assert!(lines.iter().all(|l| !l.starts_with("bestmove")));
    }
}

#[test]
fn apocalypse_scores_are_from_the_side_asked() {
    // Black has two knights and five pawns, White one pawn: Black is winning.
    let mut e = Engine::start(&["--game", "apocalypse"]);
    e.send("position fen npppn/p3p/5/5/4P 00 0");
    for (side, sign) in [("b", 1), ("w", -1)] {
        let lines = go(&mut e, &format!("go depth 3 side {side}"));
        for l in infos(&lines) {
            let cp: i32 = field(l, "cp").and_then(|v| v.parse().ok()).expect("cp");
            assert!(cp * sign > 5000, "side {side}: {l}");
        }
    }
}

/// Mirrors an Apocalypse declaration top to bottom (rank r to 6 - r).
fn mirrored(token: &str) -> String {
    token
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(r @ 1..=5) => char::from_digit(6 - r, 10).unwrap_or(c),
            _ => c,
        })
        .collect()
}

#[test]
fn apocalypse_sides_with_one_seed_sample_independently() {
    // After the a-pawns met on a3 both sides have the same (mirrored) mixed strategy at
    // depth 3, with three declarations of positive probability. If both sides drew the same
    // index of it, the mirrored choices would agree for every seed.
    let mut same = 0;
    for seed in 0..12 {
        let mut e = Engine::start(&["--game", "apocalypse"]);
        e.send(&format!("setoption name Seed value {seed}"));
        e.send("position fen npppn/4p/5/4P/NPPPN 00 0");
        let white = best(&go(&mut e, "go depth 3 side w"));
        let black = best(&go(&mut e, "go depth 3 side b"));
        same += usize::from(mirrored(&white) == black);
    }
    assert!(same < 12, "the sides copy each other's sample");
}

#[test]
fn movetime_is_used_nearly_whole() {
    // At least 95 % of 1000 ms less the 10 ms overhead; and the deadline is kept, up to what
    // a loaded machine adds (the budget itself is `crates/search/src/time.rs`'s unit
    // tests; how much of a clock the engine uses is measured by scripts/time_use.py, not
    // asserted here: a bound of 850 ms failed at 870 under load).
    for args in [
        &["--game", "duell"][..],
        &["--game", "duell", "--player", "mcts"],
    ] {
        let took = time_of(args, &[], "go movetime 1000");
        assert!(
            took >= Duration::from_millis(940) && took <= Duration::from_millis(3000),
            "{args:?}: {took:?}"
        );
    }
}

#[test]
fn a_go_with_only_the_other_clock_or_only_increments_is_a_clock_of_zero() {
    for go_line in ["go btime 60000", "go winc 100 binc 100", "go binc 1000"] {
        let took = time_of(&[], &[], go_line);
        assert!(took < Duration::from_millis(300), "{go_line}: {took:?}");
    }
}

#[test]
fn every_awaited_reply_comes_even_after_a_refusal() {
    let mut e = Engine::start(&[]);
    for (line, last) in [
        ("query legalmoves x", "response"),
        ("query P1TURN", "response"),
        ("query", "response"),
        ("go depth x", "bestmove (none)"),
    ] {
        e.send(line);
        let lines = e.until(|l| l.starts_with(last));
        assert_eq!(lines.len(), 2, "{line}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{line}: {lines:?}"
        );
    }
    // Trailing tokens are ignored after these, as UCI says.
    e.send("uci extra");
    let lines = e.until(|l| l == "uciok" || l.starts_with("info string"));
    assert_eq!(lines.last().map(String::as_str), Some("uciok"), "{lines:?}");
    e.send("ugi x y");
    e.until(|l| l == "ugiok");
    for line in [
        "isready x",
        "ucinewgame now",
        "uginewgame x",
        "stop please",
        "debug on",
        "debug off",
        "register later",
        "register name x code y",
        "# a comment: go depth x",
        "   # indented comment",
    ] {
        assert_eq!(e.ask(line), Vec::<String>::new(), "{line}");
    }
    e.send("quit now");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn lines_end_at_lf_crlf_or_cr_and_unicode_spaces_separate_tokens() {
    let mut e = Engine::start(&[]);
    e.send_bytes("\u{feff}position\u{a0}startpos\tmoves  a1a6\r\nquery fen\r".as_bytes());
    let lines = e.until(|l| l.starts_with("response"));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].ends_with(" b 1 1"), "{lines:?}");
    // Invisible characters in a refused line are shown escaped.
    e.send("go\u{200b} depth 1");
    let lines = e.until(|l| l.starts_with("info string error"));
    assert!(lines[0].contains("\\u{200b}"), "{lines:?}");
}

#[test]
fn go_mate_stops_at_the_mate_and_searchmoves_restricts_the_root() {
    let mut e = Engine::start(&[]);
    // White's key on e7 takes Black's on e8: a win in one move.
    e.send("position fen 4BK4/4WK4/9/9/9/9/9/9 w 0 1");
    let lines = go(&mut e, "go mate 1");
    assert_eq!(best(&lines), "e7e8");
    assert!(
        infos(&lines).iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    // Restricted to two moves, the search plays one of them.
    e.send("position startpos");
    for moves in ["b1b2", "h1h2 a1d3n"] {
        let lines = go(&mut e, &format!("go depth 3 searchmoves {moves}"));
        assert!(
            moves.split(' ').any(|m| m == best(&lines)),
            "{moves}: {lines:?}"
        );
        for l in infos(&lines) {
            let first = field(l, "pv").unwrap_or("");
            assert!(moves.contains(first), "{moves}: {l}");
        }
    }
    // An illegal one is refused, and the go still answered.
    let lines = go(&mut e, "go depth 3 searchmoves b1b2 a1a9");
    assert!(
        lines[0].starts_with("info string error: go: searchmoves"),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
}

#[test]
fn the_last_info_line_names_the_move_played_and_the_whole_search_s_nodes() {
    for kind in quartet_games::GameKind::ALL {
        let args = ["--game", kind.name()];
        let mut e = Engine::start(&args);
        e.send("position startpos");
        // A chance node at the start (Ludo's roll): play its last outcome (Ludo's 6, after
        // which a piece can enter, so there is a choice to search).
        if e.query("node").starts_with("chance") {
            let outcomes = e.query("chance");
            let last = outcomes.split(' ').next_back().unwrap_or("");
            let token = last.split(':').next().unwrap_or("").to_string();
            e.send(&format!("position startpos moves {token}"));
        }
        e.send("setoption name MultiPV value 2");
        // A simultaneous turn at the start (Apocalypse) is searched for White.
        let side = if e.query("node") == "simultaneous" {
            " side w"
        } else {
            ""
        };
        // Depth 3: Apocalypse's depth 4 is millions of nodes (tens of seconds in a debug build).
        for limit in ["depth 3", "movetime 150", "nodes 3000"] {
            let lines = go(&mut e, &format!("go {limit}{side}"));
            let info = infos(&lines);
            let last = info.last().expect("an info line");
            assert_eq!(
                field(last, "pv"),
                Some(best(&lines).as_str()),
                "{args:?} {limit}: {lines:?}"
            );
            let nodes = |l: &str| {
                field(l, "nodes")
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            assert!(
                info.iter().all(|l| nodes(l) <= nodes(last)),
                "{args:?} {limit}: {lines:?}"
            );
        }
    }
}

#[test]
fn pondering_waits_for_ponderhit_or_stop() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Ponder value true");
    let lines = go(&mut e, "go depth 3");
    let words: Vec<&str> = lines
        .last()
        .map(|l| l.split(' ').collect())
        .unwrap_or_default();
    assert_eq!(words.len(), 4, "bestmove M ponder P: {lines:?}");
    assert_eq!(words[2], "ponder");
    // The expected reply is legal after the move.
    e.send(&format!("position startpos moves {}", words[1]));
    let legal = e.query("legalmoves");
    assert!(
        legal.split(' ').any(|m| m == words[3]),
        "{} in {legal}",
        words[3]
    );
    // Pondering on that reply: no bestmove before ponderhit, then one on the clock.
    e.send(&format!(
        "position startpos moves {} {}",
        words[1], words[3]
    ));
    e.send("go ponder wtime 2000 btime 2000");
    no_bestmove_for(&e, Duration::from_millis(400));
    let hit = Instant::now();
    e.send("ponderhit");
    e.until(|l| l.starts_with("bestmove"));
    assert!(
        hit.elapsed() < Duration::from_millis(1600),
        "{:?}",
        hit.elapsed()
    );
    // A depth-limited ponder search that ends early still waits.
    e.send("go ponder depth 1");
    std::thread::sleep(Duration::from_millis(300));
    let lines = e.sync();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    // Without Ponder, plain bestmove; ponderhit when not pondering is an error.
    e.send("setoption name Ponder value false");
    e.send("position startpos");
    let lines = go(&mut e, "go depth 2");
    assert_eq!(lines.last().map(|l| l.split(' ').count()), Some(2));
    assert!(e.ask("ponderhit")[0].starts_with("info string error: ponderhit"));
}

#[test]
fn options_fit_32_bits_show_the_command_line_s_default_and_a_same_value_changes_nothing() {
    let mut e = Engine::start(&["--game", "ludo"]);
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Game type combo default ludo ")),
        "{lines:?}"
    );
    for l in lines.iter().filter(|l| l.contains(" type spin ")) {
        let max: i64 = field(l, "max").and_then(|m| m.parse().ok()).expect("max");
        assert!(max <= i64::from(i32::MAX), "{l}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Seed type spin default 0 min 0 max 2147483647")
    );
    // Setting the game it plays already keeps the position (a change would restart it).
    e.send("position startpos moves r6");
    let fen = e.query("fen");
    assert!(e.ask("setoption name Game value ludo").is_empty());
    assert!(e.ask("setoption name Pieces value 4").is_empty());
    assert_eq!(e.query("fen"), fen);
    assert!(e.ask("setoption name Pieces value 2").is_empty());
    assert_ne!(e.query("fen"), fen);
}

#[test]
fn a_ludo_game_with_engine_rolls_is_a_record_quartet_replay_accepts() {
    // A runner without dice: the engine rolls (EngineRolls) and moves; the runner plays
    // every answer as a token, writes the record, and `quartet replay` re-checks it.
    let mut e = Engine::start(&["--game", "ludo"]);
    e.send("setoption name Pieces value 1");
    e.send("setoption name EngineRolls value true");
    let mut moves: Vec<String> = Vec::new();
    while e.query("gameover") == "false" {
        let token = best(&go(&mut e, "go nodes 200"));
        assert_ne!(token, "(none)", "after {moves:?}");
        moves.push(token);
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        assert!(moves.len() < 2000, "the game ends");
    }
    assert!(moves.iter().any(|m| m.starts_with('r')) && moves.iter().any(|m| !m.starts_with('r')));
    let result = match e.query("result").as_str() {
        "p1win" => "1-0",
        "p2win" => "0-1",
        other => panic!("Ludo has no draws: {other}"),
    };
    let record = format!(
        "[Game \"ludo\"]\n[Result \"{result}\"]\n\n{} {result}\n",
        moves.join(" ")
    );
    let dir = std::env::temp_dir().join(format!("quartet-engine-rolls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("game.pgn");
    std::fs::write(&path, record).expect("write the record");
    let replay = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_quartet"))
            .args(["replay", "--game", "ludo", "--pieces", "1"])
            .arg(&path)
            .output()
            .expect("run replay")
    };
    let out = replay();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 games, every move legal"));
    // The same record with a malformed roll is refused: the check is real.
    let bad = std::fs::read_to_string(&path)
        .expect("read")
        .replacen(" r", " rx", 1);
    std::fs::write(&path, bad).expect("write");
    assert!(!replay().status.success());
}
