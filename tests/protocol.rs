//! Protocol sessions against the built binary (protocol.md is the specification).

use crate::common;

use common::{Engine, piped};
use std::time::{Duration, Instant};

const DUELL_START: &str = "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1";

fn bestmove(lines: &[String]) -> &str {
    let last = lines.last().expect("lines");
    last.strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not bestmove: {last}"))
}

#[test]
fn banner_then_uci_handshake() {
    let mut e = Engine::start(&[]);
    let banner = &e.banner;
    assert!(
        banner.starts_with("Quartet ") && banner.contains("'uci'"),
        "{banner}"
    );
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name Quartet "));
    assert_eq!(lines[1], "id author the Quartet developers");
    let names: Vec<String> = quartet_games::GameKind::ALL
        .iter()
        .map(|g| format!(" var {}", g.name()))
        .collect();
    let combo = format!(
        "option name Game type combo default duell{}",
        names.concat()
    );
    assert!(lines.contains(&combo), "{combo}");
    for name in ["Hash", "MultiPV", "Seed", "Move Overhead", "Clear Hash"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name}"
        );
    }
    e.send("ugi");
    assert_eq!(
        e.until(|l| l == "ugiok").last().map(String::as_str),
        Some("ugiok")
    );
}

#[test]
fn go_depth_reports_each_iteration_and_a_legal_move() {
    let mut e = Engine::start(&[]);
    e.ask("position startpos");
    let legal = e.query("legalmoves");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let depths: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(depths, ["1", "2", "3"]);
    for l in lines.iter().filter(|l| l.starts_with("info depth")) {
        for field in [
            " seldepth ",
            " multipv 1 ",
            " score ",
            " nodes ",
            " nps ",
            " hashfull ",
            " time ",
            " pv ",
        ] {
            assert!(l.contains(field), "{field} missing in {l}");
        }
    }
    let best = bestmove(&lines);
    assert!(legal.split(' ').any(|t| t == best), "{best} not in {legal}");
}

#[test]
fn isready_is_answered_during_an_infinite_search_and_stop_is_prompt() {
    let mut e = Engine::start(&[]);
    e.ask("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {lines:?}"
    );
    let sent = Instant::now();
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    // The target is 50 ms (measured by scripts/stress.py); this only catches a hang.
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert!(e.sync().is_empty());
}

#[test]
fn each_go_gets_exactly_one_bestmove() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.send("go depth 1");
    e.send("stop");
    e.send("position startpos moves a1a6");
    e.send("go nodes 100");
    let lines = e.ask("stop");
    // One for the infinite search (stopped by the next go), one for depth 1, one for nodes.
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        3,
        "{lines:?}"
    );
}

#[test]
fn an_illegal_fourth_move_rejects_the_whole_position() {
    let mut e = Engine::start(&[]);
    e.ask("position startpos moves a1a6");
    let before = e.fen();
    let reply = e.ask("position startpos moves a1a6 i8i3 b1b2 e1e3");
    assert_eq!(reply.len(), 1, "{reply:?}");
    assert!(
        reply[0].starts_with("info string error: position: move 4: illegal move 'e1e3'"),
        "{}",
        reply[0]
    );
    assert_eq!(e.fen(), before);
}

#[test]
fn garbage_is_answered_and_changes_nothing() {
    let mut e = Engine::start(&[]);
    e.ask("position startpos moves a1a6");
    let before = e.fen();
    for line in [
        "hello",
        "position",
        "position fen",
        "position fen B53B13/9 w 0 1",
        "position fen xyz moves a1a6",
        "position startpos moves a1a9",
        "position startpos moves zz",
        "go depth x",
        "go wtime",
        "setoption name Hash value 999999999",
        "setoption name Nope value 1",
        "setoption name Game value chess",
        "query weather",
        "\u{0}\u{7f}\u{feff}",
        "go depth 99999999999999999999999999999 nodes 18446744073709551616 extra",
    ] {
        let reply = e.ask(line);
        assert!(
            reply
                .first()
                .is_some_and(|l| l.starts_with("info string error: ")),
            "{line:?} gave {reply:?}"
        );
        assert_eq!(e.fen(), before, "after {line:?}");
    }
    e.send_bytes(&[0xff, 0xfe, b'g', b'o', 0xc3, b'\n']);
    assert!(e.sync().iter().all(|l| l.starts_with("info string error")));
    assert_eq!(e.fen(), before);
}

#[test]
fn random_bytes_never_kill_the_engine() {
    let mut e = Engine::start(&[]);
    let mut seed = 99u64;
    for _ in 0..300 {
        let mut line = Vec::new();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        for _ in 0..(seed >> 59) * 4 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let b = (seed >> 56) as u8;
            if b != b'\n' {
                line.push(b);
            }
        }
        line.push(b'\n');
        e.send_bytes(&line);
    }
    e.send("stop");
    e.sync();
    assert!(e.query("gameover") == "true" || e.query("gameover") == "false");
}

#[test]
fn go_depth_is_reproducible_across_ucinewgame() {
    let mut e = Engine::start(&[]);
    let strip = |lines: Vec<String>| -> Vec<String> {
        lines
            .into_iter()
            .map(|l| {
                let mut out = Vec::new();
                let mut words = l.split(' ');
                while let Some(w) = words.next() {
                    if w == "nps" || w == "time" || w == "hashfull" {
                        words.next();
                    } else {
                        out.push(w);
                    }
                }
                out.join(" ")
            })
            .collect()
    };
    e.ask("position startpos moves a1a6 i8i3");
    e.send("go depth 5");
    let first = strip(e.until(|l| l.starts_with("bestmove")));
    e.ask("ucinewgame");
    e.ask("position startpos moves a1a6 i8i3");
    e.send("go depth 5");
    let second = strip(e.until(|l| l.starts_with("bestmove")));
    assert_eq!(first, second);
}

#[test]
fn go_perft_prints_fairy_stockfish_format() {
    let mut e = Engine::start(&[]);
    e.ask("position startpos");
    e.send("go perft 2");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 1293")
    );
    assert_eq!(lines[lines.len() - 2], "");
    let per_move: Vec<&String> = lines.iter().filter(|l| l.contains(": ")).collect();
    assert_eq!(per_move.len(), 38); // 37 moves + the total line
    let sum: u64 = per_move[..37]
        .iter()
        .map(|l| {
            l.rsplit(' ')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .expect("count")
        })
        .sum();
    assert_eq!(sum, 1293);
    // Fairy-Stockfish ends its perft with an empty line after the total.
    assert_eq!(e.sync(), [""]);
}

#[test]
fn queries_answer_on_one_line() {
    let mut e = Engine::start(&[]);
    e.ask("position startpos");
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("p1turn"), "true");
    assert_eq!(e.query("result"), "none");
    assert_eq!(e.query("fen"), DUELL_START);
    assert_eq!(e.query("islegal a1e2n"), "true");
    assert_eq!(e.query("islegal a1e2"), "false");
    assert_eq!(e.query("legalmoves").split(' ').count(), 37);
    // W7: White's key captures Black's key on e8 and wins.
    e.ask("position fen 4BK4/4WK4/9/9/9/9/9/9 w 0 1 moves e7e8");
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("result"), "p1win");
    assert_eq!(e.query("legalmoves"), "");
    e.send("go depth 3");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert!(
        lines[lines.len() - 2].starts_with("info string "),
        "{lines:?}"
    );
}

#[test]
fn threefold_repetition_is_judged_from_the_move_list() {
    let mut e = Engine::start(&[]);
    // Keys shuffle: the start position occurs for the third time after 8 plies.
    let cycle = "e1e2 e8e7 e2e1 e7e8";
    e.ask(&format!("position startpos moves {cycle}"));
    assert_eq!(e.query("gameover"), "false");
    e.ask(&format!("position startpos moves {cycle} {cycle}"));
    assert_eq!(e.query("result"), "draw");
    // A fresh history from the same position string forgets the repetitions.
    e.ask(&format!("position fen {DUELL_START}"));
    assert_eq!(e.query("gameover"), "false");
}

#[test]
fn switching_games() {
    let mut e = Engine::start(&[]);
    e.ask("setoption name Game value rnb");
    assert_eq!(e.query("fen"), "2k3/6/6/6/6/3K2 s 4444 0");
    e.ask("setoption name Game value duell");
    assert_eq!(e.query("fen"), DUELL_START);
    let mut e = Engine::start(&["--game", "rnb"]);
    assert_eq!(e.query("fen"), "2k3/6/6/6/6/3K2 s 4444 0");
}

#[test]
fn end_of_input_during_a_search_still_prints_bestmove_and_exits() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_input();
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn quit_exits_at_once() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(5)));
}

#[test]
fn a_clock_limited_go_answers_within_the_clock() {
    let mut e = Engine::start(&[]);
    e.ask("setoption name Move Overhead value 50");
    e.ask("position startpos moves a1a6 i8i3");
    for go in [
        "go wtime 400 btime 400",
        "go wtime 2000 btime 2000 movestogo 1",
        "go movetime 300",
    ] {
        let sent = Instant::now();
        e.send(go);
        e.until(|l| l.starts_with("bestmove"));
        // Generous: only an engine that ignores the clock (searching to depth 100) fails.
        assert!(
            sent.elapsed() < Duration::from_millis(2_500),
            "{go}: {:?}",
            sent.elapsed()
        );
    }
}

#[test]
fn the_end_of_input_lets_a_bounded_search_finish_and_stops_an_infinite_one() {
    let lines = piped(&[], "position startpos\ngo depth 5\n");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
    assert!(bestmove(&lines) != "(none)");
    let lines = piped(&[], "go perft 2\n");
    assert_eq!(lines[lines.len() - 2..], ["Nodes searched: 1293", ""]);
    let started = Instant::now();
    let lines = piped(&[], "go infinite\n");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(bestmove(&lines) != "(none)");
}
