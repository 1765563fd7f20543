//! Resource limits against the built binary: absurd numbers, huge lines, very long move
//! lists. Each is answered by clamping or one clear error within seconds, and the engine
//! goes on answering; it never aborts, hangs or grows without bound (protocol.md §1).

use crate::common;

use common::Engine;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What "within seconds" means here (debug builds on a loaded 2-core machine).
const PROMPT: Duration = Duration::from_secs(10);
const MIB: usize = 1 << 20;

/// The `bestmove` token of a reply block.
fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("lines");
    last.strip_prefix("bestmove ")
        .unwrap_or_else(|| panic!("not bestmove: {last}"))
        .to_string()
}

/// Sends `line` (whatever its size) and `isready`; returns the replies before `readyok`
/// and how long they took.
fn timed(e: &mut Engine, line: &[u8]) -> (Vec<String>, Duration) {
    let started = Instant::now();
    e.send_bytes(line);
    e.send_bytes(b"\n");
    let lines = e.sync();
    (lines, started.elapsed())
}

/// Runs `go`, checks that exactly one legal `bestmove` (or a reasoned `(none)`) comes
/// within [`PROMPT`], and returns it.
fn go_gives_a_move(e: &mut Engine, go: &str, legal: &[String]) -> String {
    let deadline = Instant::now() + PROMPT;
    e.send(go);
    let mut lines = Vec::new();
    while lines
        .last()
        .is_none_or(|l: &String| !l.starts_with("bestmove"))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match e.recv(left) {
            Some(l) => lines.push(l),
            None => panic!("{go}: no bestmove within {PROMPT:?}; got {lines:?}"),
        }
    }
    let best = bestmove(&lines);
    if best == "(none)" {
        assert!(
            lines.iter().any(|l| l.starts_with("info string ")),
            "{go}: (none) without a reason: {lines:?}"
        );
    } else {
        assert!(legal.contains(&best), "{go}: {best} not in {legal:?}");
    }
    // Nothing else follows: no second bestmove for this go.
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")), "{go}");
    best
}

/// Every line that arrives within `wait`.
fn lines_for(e: &Engine, wait: Duration) -> Vec<String> {
    let deadline = Instant::now() + wait;
    let mut got = Vec::new();
    while let Some(l) = e.recv(deadline.saturating_duration_since(Instant::now())) {
        got.push(l);
    }
    got
}

fn legal_moves(e: &mut Engine, side: &str) -> Vec<String> {
    e.query(&format!("legalmoves{side}"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn go_depth_100000_is_clamped_and_searches_until_stop() {
    let mut e = Engine::start(&[]);
    let legal = legal_moves(&mut e, "");
    e.send("go depth 100000");
    // Depth 100 of Duell cannot finish this soon: the search is really running.
    let early = lines_for(&e, Duration::from_millis(300));
    assert!(
        early.iter().all(|l| !l.starts_with("bestmove")),
        "{early:?}"
    );
    e.send("stop");
    let lines = e.until(|l| l.starts_with("bestmove"));
    for l in lines.iter().filter(|l| l.starts_with("info depth ")) {
        let depth: u32 = l
            .split(' ')
            .nth(2)
            .and_then(|d| d.parse().ok())
            .expect("depth");
        assert!(depth <= 100, "{l}");
    }
    assert!(legal.contains(&bestmove(&lines)));
}

#[test]
fn absurd_option_values_are_refused_and_change_nothing() {
    let mut e = Engine::start(&[]);
    let before = e.fen();
    for (line, reply) in [
        (
            "setoption name Hash value 999999999",
            "info string error: setoption: Hash: 999999999 is out of range 1..16384",
        ),
        (
            "setoption name Hash value 0",
            "info string error: setoption: Hash: 0 is out of range 1..16384",
        ),
        (
            "setoption name Hash value -1",
            "info string error: setoption: Hash: -1 is out of range 1..16384",
        ),
        (
            "setoption name MultiPV value 100000",
            "info string error: setoption: MultiPV: 100000 is out of range 1..256",
        ),
        (
            "setoption name Move Overhead value 99999999999",
            "info string error: setoption: Move Overhead: 99999999999 is out of range 0..5000",
        ),
        (
            "setoption name Seed value 2147483648",
            "info string error: setoption: Seed: 2147483648 is out of range 0..2147483647",
        ),
    ] {
        let (lines, took) = timed(&mut e, line.as_bytes());
        assert_eq!(lines, [reply], "{line}");
        assert!(took < PROMPT, "{line}: {took:?}");
    }
    // Out-of-range values changed nothing: same position, one line of MultiPV.
    assert_eq!(e.fen(), before);
    e.send("go depth 2");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains("multipv 2")), "{lines:?}");
}

/// Runs `quartet` with its address space limited to `limit_kib` (sh's `ulimit -v`),
/// feeds it `input` and returns its output; panics if it does not exit within [`PROMPT`].
#[cfg(target_os = "linux")]
fn run_with_address_limit(limit_kib: u64, input: &str) -> (bool, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kib} && exec \"$0\""))
        .arg(env!("CARGO_BIN_EXE_quartet"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start sh");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("write");
    drop(stdin);
    let stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let lines: Vec<String> = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect();
        lines.join("\n")
    });
    let deadline = Instant::now() + PROMPT;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("quartet did not exit within {PROMPT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status.success(), reader.join().expect("reader"))
}

#[cfg(target_os = "linux")]
#[test]
fn a_hash_table_that_cannot_be_allocated_is_an_error_not_an_abort() {
    // 1 GiB of address space: the engine runs, a 4 GiB table cannot be had.
    let (ok, out) = run_with_address_limit(
        1 << 20,
        "setoption name Hash value 4096\ngo depth 3\nisready\n",
    );
    assert!(ok, "{out}");
    // The table is allocated off the reading thread: the error comes when the allocation
    // fails, before the search of the `go` that waited for it, which uses the old table.
    let lines: Vec<&str> = out.lines().collect();
    let error = lines.iter().position(|l| {
        *l == "info string error: setoption: Hash: cannot allocate 4096 MiB for the hash table; \
               the table in use stays"
    });
    let first_info = lines.iter().position(|l| l.starts_with("info depth"));
    assert!(error.is_some() && error < first_info, "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("bestmove ") && l != "bestmove (none)"),
        "{out}"
    );
}

/// Lines of about 10 MiB: each gets one short reply in seconds, and the engine goes on.
#[test]
fn ten_megabyte_lines_are_answered_in_seconds() {
    let mut e = Engine::start(&[]);
    let before = e.fen();
    let cases: [(&str, Vec<u8>, &str); 6] = [
        (
            "moves of garbage",
            [
                b"position startpos moves ".as_slice(),
                &b"x ".repeat(5 * MIB),
            ]
            .concat(),
            "info string error: position: move 1: malformed move 'x': ",
        ),
        (
            "one word",
            vec![b'a'; 10 * MIB],
            "info string error: unknown command 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' (type 'help' for the list)",
        ),
        (
            "invalid UTF-8",
            b"\xff\xfe".repeat(5 * MIB),
            "info string error: unknown command '",
        ),
        (
            "a position string",
            [b"position fen ".as_slice(), &b"9/".repeat(5 * MIB)].concat(),
            "info string error: position: invalid position '9/9/9/",
        ),
        (
            "a legal move repeated",
            [
                b"position startpos moves ".as_slice(),
                &b"d1d7 ".repeat(2 * MIB),
            ]
            .concat(),
            "info string error: position: move 2: illegal move 'd1d7': ",
        ),
        (
            "islegal of a huge token",
            [b"query islegal ".as_slice(), &vec![b'd'; 10 * MIB]].concat(),
            "response false",
        ),
    ];
    for (what, line, reply) in cases {
        let (lines, took) = timed(&mut e, &line);
        assert_eq!(lines.len(), 1, "{what}: {} lines", lines.len());
        assert!(
            lines[0].starts_with(reply),
            "{what}: {}",
            &lines[0][..200.min(lines[0].len())]
        );
        assert!(took < PROMPT, "{what}: {took:?}");
    }
    assert_eq!(e.fen(), before);
    // A valid command made 10 MiB long by repetition is carried out.
    let go = [b"go".as_slice(), &b" depth 1".repeat(10 * MIB / 8)].concat();
    e.send_bytes(&go);
    e.send_bytes(b"\n");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{lines:?}"
    );
}

#[test]
fn error_lines_stay_short_whatever_the_input() {
    let mut e = Engine::start(&[]);
    for line in [
        [
            b"setoption name Seed value ".as_slice(),
            &vec![b'9'; 10 * MIB],
        ]
        .concat(),
        [
            b"setoption name ".as_slice(),
            &b"Hash ".repeat(2 * MIB),
            b"value 1",
        ]
        .concat(),
        [
            b"setoption name Game value ".as_slice(),
            &vec![b'x'; 10 * MIB],
        ]
        .concat(),
    ] {
        let (lines, _) = timed(&mut e, &line);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].len() < 1000, "{} bytes", lines[0].len());
    }
}

#[test]
fn a_line_beyond_16_mib_is_refused_whole() {
    let mut e = Engine::start(&[]);
    let before = e.fen();
    // Carried out, this line would change the position.
    let mut line = b"position startpos moves d1d7".to_vec();
    line.resize(17 * MIB, b' ');
    let (lines, took) = timed(&mut e, &line);
    assert_eq!(
        lines,
        ["info string error: line longer than 16777216 bytes ignored (it began 'position')"]
    );
    assert!(took < PROMPT, "{took:?}");
    assert_eq!(e.fen(), before);
}

#[test]
fn a_line_beyond_16_mib_still_gets_the_reply_its_command_awaits() {
    let mut e = Engine::start(&[]);
    let long = |start: &str| {
        let mut line = start.as_bytes().to_vec();
        line.resize(17 * MIB, b'1');
        line
    };
    let refused = |word: &str| {
        format!("info string error: line longer than 16777216 bytes ignored (it began '{word}')")
    };
    e.send_bytes(&long("isready "));
    e.send_bytes(b"\n");
    assert_eq!(
        e.until(|l| l == "readyok"),
        [refused("isready"), "readyok".to_string()]
    );
    let (lines, _) = timed(&mut e, &long("go depth "));
    assert_eq!(lines, [refused("go"), "bestmove (none)".to_string()]);
    let (lines, _) = timed(&mut e, &long("query islegal "));
    assert_eq!(lines, [refused("query"), "response false".to_string()]);
    let (lines, _) = timed(&mut e, &long("query fen "));
    assert_eq!(lines, [refused("query"), "response".to_string()]);
    e.send_bytes(&long("uci "));
    e.send_bytes(b"\n");
    let uci = e.until(|l| l == "uciok");
    assert_eq!(uci[0], refused("uci"));
    assert!(
        uci.iter().any(|l| l.starts_with("option name Game ")),
        "{uci:?}"
    );
}

#[test]
fn a_hundred_thousand_move_ludo_list_is_accepted() {
    // Ludo has no automatic draw (rules/ludo.md, "Draw / length"): a 1 rolled at the
    // start moves no piece out of the yard, so the only move is `pass` and Yellow rolls;
    // after an even number of such turns Red rolls again in the start position.
    let mut e = Engine::start(&["--game", "ludo"]);
    let line = format!("position startpos moves{}", " r1 pass".repeat(50_000));
    let (lines, took) = timed(&mut e, line.as_bytes());
    assert!(lines.is_empty(), "{lines:?}");
    assert!(took < PROMPT, "{took:?}");
    assert_eq!(e.query("fen"), "b,b,b,b/b,b,b,b r - 0");
    assert_eq!(e.query("gameover"), "false");
    let moves = e.query("legalmoves");
    let legal: Vec<String> = moves.split(' ').map(str::to_string).collect();
    assert_eq!(go_gives_a_move(&mut e, "go depth 2", &legal), "(none)");
    // One more turn after the 100,000: Red rolls, then Yellow.
    let line = format!("{line} r3 pass");
    let (lines, _) = timed(&mut e, line.as_bytes());
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(e.query("fen"), "b,b,b,b/b,b,b,b y - 0");
}

#[test]
fn moves_after_the_end_of_a_long_duell_game_are_refused_clearly() {
    // Playing the first legal move each time ends the game by threefold repetition; a
    // move of the repeated cycle would fit the board, but the game is over: refused,
    // naming its place in the list.
    let mut e = Engine::start(&[]);
    let mut played: Vec<String> = Vec::new();
    while e.query("gameover") == "false" {
        assert!(played.len() < 5_000, "no end after {} plies", played.len());
        let first = legal_moves(&mut e, "").swap_remove(0);
        played.push(first);
        assert!(
            e.ask(&format!("position startpos moves {}", played.join(" ")))
                .is_empty()
        );
    }
    let ended = format!("position startpos moves {}", played.join(" "));
    let again = played[played.len() - 4].clone();
    let line = format!("{ended}{}", format!(" {again}").repeat(100_000));
    let (lines, took) = timed(&mut e, line.as_bytes());
    assert!(took < PROMPT, "{took:?}");
    assert_eq!(
        lines,
        [format!(
            "info string error: position: move {}: illegal move '{again}': the game is over",
            played.len() + 1
        )]
    );
    // The position is the finished game's, still.
    assert_eq!(e.query("gameover"), "true");
}

#[test]
fn odd_search_limits_still_give_one_legal_move_promptly() {
    let limits = [
        "go nodes 0",
        "go depth 0",
        "go movetime 0",
        "go wtime 0 btime 0",
        "go wtime -5 btime -5",
        "go wtime -1000 btime -1000 winc -50 binc -50",
        "go wtime -9223372036854775808 btime 1",
        "go wtime 100 btime 100 movestogo 0",
        "go wtime 100 btime 100 movestogo 18446744073709551616",
        "go movetime 18446744073709551616 nodes 2000",
        "go wtime 9223372036854775807 btime 9223372036854775807 nodes 2000",
        "go nodes 18446744073709551616 depth 2",
    ];
    for kind in quartet_engine::GameKind::ALL {
        let game = kind.name();
        let mut e = Engine::start(&["--game", game]);
        let start = e.query("legalmoves");
        // A game that starts with a roll: roll first, so that there is a move to choose.
        if e.query("node").starts_with("chance") {
            let roll = e.query("chance");
            let first = roll
                .split([' ', ':'])
                .next()
                .unwrap_or_default()
                .to_string();
            assert!(
                e.ask(&format!("position startpos moves {first}"))
                    .is_empty()
            );
        }
        // A simultaneous start: ask for the first player's declaration.
        let side = if e.query("node") == "simultaneous" {
            " side w"
        } else {
            ""
        };
        let legal = legal_moves(&mut e, side.trim_start_matches(" side"));
        assert!(!legal.is_empty(), "{game}: {start}");
        for go in limits {
            go_gives_a_move(&mut e, &format!("{go}{side}"), &legal);
        }
    }
}

#[test]
fn a_huge_perft_can_be_stopped() {
    let mut e = Engine::start(&[]);
    e.send("go perft 100000");
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    e.send("stop");
    e.send("isready");
    let got = e.until(|l| l == "readyok");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        got.iter()
            .any(|l| l.starts_with("info string perft stopped")),
        "{got:?}"
    );
    assert!(
        !got.iter().any(|l| l.starts_with("Nodes searched")),
        "{got:?}"
    );
}

/// The structured session fuzzer (scripts/fuzz_session.py) for 30 seconds against the
/// binary under test; needs `python3`.
#[test]
#[ignore = "runs python3 scripts/fuzz_session.py for 30 s"]
fn structured_session_fuzzing_for_30_seconds() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fuzz_session.py");
    let status = Command::new("python3")
        .args([script, "--seed", "1", "--seconds", "30"])
        .env("QUARTET", env!("CARGO_BIN_EXE_quartet"))
        .status()
        .expect("run python3");
    assert!(status.success(), "{script} failed: {status}");
}
