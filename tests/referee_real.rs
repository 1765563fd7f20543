//! `quartet match` with the real games and the built-in players, through the real binary:
//! totals, records that replay, Ludo's duplicate dice, Apocalypse's commit-then-reveal and
//! void declarations, R&B's joint setup under `Placement together`, repetition draws in R&B
//! and Duell, and per-game engine seeds.
//!
//! Expected values come from the rules files (`docs/rules/*.md`) and from the engines'
//! own protocol logs, never from the referee's code. Node budgets are tiny, so the tests
//! stay fast in a debug build; the long runs are `#[ignore]`d at the end.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use quartet_core::game::{EndReason, Game, Node, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;
use quartet_games::apocalypse::Apocalypse;
use quartet_games::ludo::Ludo;
use quartet_records::{Record, parse_records};
use quartet_referee::replay_file;
use quartet_referee::results::read_results;

use support::scratch;

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

/// The `--engine` words of the built-in `player` (random, greedy, mcts, search).
fn builtin(name: &str, player: &str) -> Vec<String> {
    vec![
        format!("cmd={QUARTET}"),
        format!("name={name}"),
        format!("args=--player {player}"),
    ]
}

fn fixture(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/referee")
        .join(file)
}

/// The built-in `player` behind the logging proxy, answering `bestmove` with `bestmove`
/// if given (see `fixtures/referee/proxy_engine.py`).
fn proxied(name: &str, player: &str, log: &Path, bestmove: Option<&str>) -> Vec<String> {
    let rewrite = bestmove.map_or(String::new(), |t| format!(" --bestmove {t}"));
    vec![
        "cmd=python3".to_string(),
        format!("name={name}"),
        format!(
            "args={} --log {}{rewrite} -- {QUARTET} --player {player}",
            fixture("proxy_engine.py").display(),
            log.display()
        ),
    ]
}

/// The scripted fake engine playing `cycle` (see `fixtures/referee/fake_engine.py`).
fn cycling(name: &str, cycle: &str) -> Vec<String> {
    vec![
        "cmd=python3".to_string(),
        format!("name={name}"),
        format!(
            "args={} --name {name} --cycle {cycle}",
            fixture("fake_engine.py").display()
        ),
    ]
}

/// Runs `quartet match --game game` with two engines and further flags; returns stdout and
/// fails the test if the command fails.
fn run(game: &str, a: &[String], b: &[String], extra: &[String]) -> String {
    let mut cmd = Command::new(QUARTET);
    cmd.args(["match", "--game", game, "--no-progress"]);
    for engine in [a, b] {
        cmd.arg("--engine").args(engine);
    }
    let out = cmd.args(extra).output().expect("quartet runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "quartet match failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// The records of a `--pgnout` file in game order, after `quartet replay` accepted it.
fn replayed(game: &str, pgn: &Path) -> Vec<Record> {
    let out = Command::new(QUARTET)
        .args(["replay", "--game", game])
        .arg(pgn)
        .output()
        .expect("quartet replay runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("every move legal"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(pgn).expect("records");
    let mut records = parse_records(&text).expect("records parse");
    records.sort_by_key(round);
    records
}

fn round(r: &Record) -> u64 {
    r.tag("Round")
        .and_then(|n| n.parse().ok())
        .expect("Round tag")
}

/// The first engine's points (in half points) in a record.
fn half_points(r: &Record, first: &str) -> u32 {
    let white = r.tag("White") == Some(first);
    match (r.result.as_str(), white) {
        ("1/2-1/2", _) => 1,
        ("1-0", true) | ("0-1", false) => 2,
        _ => 0,
    }
}

/// One short match per game between built-in players: the binary's reports, its results
/// file and JSON lines agree with W/D/L and pair counts recounted from the records, and
/// `quartet replay` accepts every record.
#[test]
fn each_game_plays_a_short_match_whose_records_replay() {
    for kind in quartet_games::GameKind::ALL {
        let game = kind.name();
        // A pairing that plays each game quickly; a game not named here gets the last.
        let (a, b) = match game {
            "duell" => ("mcts", "greedy"),
            "apocalypse" => ("search", "random"),
            "ludo" => ("mcts", "random"),
            _ => ("greedy", "random"),
        };
        let dir = scratch(&format!("real-{game}"));
        let (pgn, jsonl, results) = (dir.join("g.pgn"), dir.join("g.jsonl"), dir.join("r.json"));
        let extra = words(&format!(
            "--games 4 --nodes 30 --seed 3 --openings random:2 --concurrency 2 \
             --report-every 2 --pgnout {} --jsonl {} --results {}",
            pgn.display(),
            jsonl.display(),
            results.display()
        ));
        let report = run(game, &builtin(a, a), &builtin(b, b), &extra);
        assert!(report.contains("Games: 4 of 4"), "{report}");
        // The report after game 2, then the final one (not a copy of it after game 4).
        assert_eq!(report.matches("Results of").count(), 2, "{report}");
        // The report after game 2 says the match runs; only the final one that it stopped.
        assert!(report.contains("Running: 2 of 4 games played"), "{report}");
        assert_eq!(report.matches("Stopped:").count(), 1, "{report}");
        assert!(report.contains("Stopped: all games played"), "{report}");
        let records = replayed(game, &pgn);
        assert_eq!(records.iter().map(round).collect::<Vec<_>>(), [1, 2, 3, 4]);
        let mut wdl = [0u32; 3];
        let mut pairs = BTreeMap::new();
        for r in &records {
            assert_eq!(r.tag("Game"), Some(game));
            let termination = r.tag("Termination").unwrap_or_default();
            assert!(
                termination == "normal" || termination == "repetition",
                "{game}: built-in players are never adjudicated: {termination}"
            );
            let points = half_points(r, a);
            wdl[2 - points as usize] += 1;
            *pairs.entry(round(r).div_ceil(2)).or_insert(0) += points;
        }
        let tally = read_results(&results).expect("results file").report.tally;
        assert_eq!([tally.wins, tally.draws, tally.losses], wdl, "{game}");
        let mut by_score = [0u32; 5];
        for points in pairs.values() {
            by_score[*points as usize] += 1;
        }
        assert_eq!(tally.penta.by_score(), by_score, "{game}");
        let lines = std::fs::read_to_string(&jsonl).expect("json lines");
        let results: Vec<String> = lines
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("json");
                format!("{}:{}", v["game"], v["result"].as_str().unwrap_or("?"))
            })
            .collect();
        let mut expected: Vec<String> = records
            .iter()
            .map(|r| format!("{}:{}", round(r), r.result))
            .collect();
        let mut got = results.clone();
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "{game}");
    }
}

fn rolls(r: &Record) -> Vec<&str> {
    let opening: usize = r
        .tag("OpeningPlies")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    r.moves[opening..]
        .iter()
        .map(String::as_str)
        .filter(|t| t.len() == 2 && t.starts_with('r'))
        .collect()
}

/// Each colour's rolls after the opening, in order: `[Red's, Yellow's]`, the roller known
/// by replaying the record (`Game::acting_player` at each chance node).
fn colour_rolls(r: &Record) -> [Vec<String>; 2] {
    let opening: usize = r
        .tag("OpeningPlies")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let fen = r.tag("FEN").expect("FEN tag");
    let start = Ludo::parse_position(fen, &RuleOptions::default()).expect("FEN parses");
    let mut game = GameHistory::new(start);
    let mut rolls = [Vec::new(), Vec::new()];
    for (i, token) in r.moves.iter().enumerate() {
        let pos = game.current();
        if pos.node() == Node::Chance && i >= opening {
            let colour = match pos.acting_player().expect("a roll has a roller") {
                Player::First => 0,
                Player::Second => 1,
            };
            rolls[colour].push(token.clone());
        }
        let action = pos.parse_action(token).expect("token parses");
        game.try_play(action).expect("token plays");
    }
    rolls
}

/// Ludo's duplicate dice, one stream per colour: over a 40-game match, Red's k-th roll in
/// game 1 of a pair is Red's k-th roll in game 2 (and Yellow's likewise), however the play
/// diverges. Extra rolls (a six, a capture, a piece reaching home) used to shift the one
/// shared stream between the colours; the pairs here do diverge, so the check would fail
/// with a single stream. Other pairs get other rolls.
#[test]
fn ludo_each_colour_keeps_its_dice_in_a_pair() {
    let dir = scratch("real-ludo-dice");
    let pgn = dir.join("g.pgn");
    let extra = words(&format!(
        "--games 40 --nodes 1 --seed 11 --concurrency 2 --pgnout {}",
        pgn.display()
    ));
    run(
        "ludo",
        &builtin("greedy", "greedy"),
        &builtin("random", "random"),
        &extra,
    );
    let records = replayed("ludo", &pgn);
    assert_eq!(records.len(), 40);
    let (mut compared, mut shifted) = (0, 0);
    for pair in records.chunks(2) {
        assert_eq!(pair[0].tag("Seed"), pair[1].tag("Seed"));
        assert_ne!(pair[0].tag("White"), pair[1].tag("White"));
        assert_eq!(pair[0].tag("Dice"), Some("per-player"));
        let (a, b) = (colour_rolls(&pair[0]), colour_rolls(&pair[1]));
        for colour in 0..2 {
            let n = a[colour].len().min(b[colour].len());
            // A winner moves 4 pieces 56 squares each: at least 224 / 6 > 37 rolls; the loser
            // rolls at least once less.
            assert!(n >= 37, "round {}: only {n} rolls", round(&pair[0]));
            assert_eq!(a[colour][..n], b[colour][..n], "round {}", round(&pair[0]));
            compared += n;
        }
        // The games' roll sequences, colours interleaved, part somewhere: the play diverged.
        if rolls(&pair[0]) != rolls(&pair[1]) {
            shifted += 1;
        }
    }
    assert!(compared >= 20 * 2 * 37);
    assert!(shifted > 0, "no pair diverged: the test shows nothing");
    assert_ne!(
        colour_rolls(&records[0])[0][..37],
        colour_rolls(&records[2])[0][..37]
    );
}

/// One game's part of a proxy log: what the referee sent and what the engine answered.
#[derive(Default)]
struct Dialogue {
    sent: Vec<String>,
    answers: Vec<String>,
}

/// A proxy log cut into games at each `ucinewgame`; what precedes the first one (the
/// handshake) is dropped. The `setoption` lines just before `ucinewgame` go with the game.
fn dialogues(log: &Path) -> Vec<Dialogue> {
    let text = std::fs::read_to_string(log).expect("proxy log");
    let mut games: Vec<Dialogue> = Vec::new();
    let mut pending = Vec::new();
    for line in text.lines() {
        if let Some(sent) = line.strip_prefix("< ") {
            if sent == "ucinewgame" {
                games.push(Dialogue {
                    sent: std::mem::take(&mut pending),
                    answers: Vec::new(),
                });
            }
            if sent.starts_with("setoption name Seed") {
                pending.push(sent.to_string());
            } else if let Some(g) = games.last_mut() {
                g.sent.push(sent.to_string());
            }
        } else if let (Some(token), Some(g)) = (line.strip_prefix("> bestmove "), games.last_mut())
        {
            g.answers.push(token.to_string());
        }
    }
    games
}

/// Apocalypse with real engines behind logging proxies: every turn both engines get the
/// same `position` (the earlier joint turns only) and a `go ... side w|b` for their own
/// side, and the record's joint token is White's answer `/` Black's answer, verbatim.
/// Each game begins with each engine's own `Seed` (31 bits, one per seat, the same for a
/// seat in both games of a pair).
#[test]
fn apocalypse_declarations_are_committed_then_revealed() {
    let dir = scratch("real-apocalypse-reveal");
    let (pgn, log_a, log_b) = (dir.join("g.pgn"), dir.join("a.log"), dir.join("b.log"));
    let extra = words(&format!(
        "--games 2 --nodes 20 --seed 4 --pgnout {}",
        pgn.display()
    ));
    run(
        "apocalypse",
        &proxied("A", "random", &log_a, None),
        &proxied("B", "greedy", &log_b, None),
        &extra,
    );
    let records = replayed("apocalypse", &pgn);
    let logs = [("A", dialogues(&log_a)), ("B", dialogues(&log_b))];
    assert!(logs.iter().all(|(_, games)| games.len() == 2));
    let mut seat_seeds = Vec::new();
    for (g, record) in records.iter().enumerate() {
        let seed: u64 = record
            .tag("Seed")
            .and_then(|s| s.parse().ok())
            .expect("Seed");
        let mut answers = BTreeMap::new();
        for (name, games) in &logs {
            let side = if record.tag("White") == Some(name) {
                "w"
            } else {
                "b"
            };
            let d = &games[g];
            let engine_seed: u64 = d.sent[0]
                .strip_prefix("setoption name Seed value ")
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("a Seed first: {}", d.sent[0]));
            assert!(engine_seed <= i32::MAX as u64, "{engine_seed}");
            seat_seeds.push((seed, side, engine_seed));
            let positions: Vec<&String> = d
                .sent
                .iter()
                .filter(|l| l.starts_with("position"))
                .collect();
            let gos: Vec<&String> = d.sent.iter().filter(|l| l.starts_with("go")).collect();
            assert_eq!(positions.len(), record.moves.len(), "one search per turn");
            for (turn, (position, go)) in positions.iter().zip(&gos).enumerate() {
                let earlier = &record.moves[..turn];
                let expected = if earlier.is_empty() {
                    "position startpos".to_string()
                } else {
                    format!("position startpos moves {}", earlier.join(" "))
                };
                assert_eq!(**position, expected, "{name}, turn {}", turn + 1);
                assert_eq!(**go, format!("go nodes 20 side {side}"));
            }
            answers.insert(side, d.answers.clone());
        }
        for (turn, joint) in record.moves.iter().enumerate() {
            assert_eq!(
                *joint,
                format!("{}/{}", answers["w"][turn], answers["b"][turn])
            );
        }
    }
    // Two games of one pair (one Seed tag): each seat keeps its value, the seats differ.
    let of = |side: &str| -> Vec<u64> {
        seat_seeds
            .iter()
            .filter(|(_, s, _)| *s == side)
            .map(|&(_, _, v)| v)
            .collect()
    };
    assert_eq!(seat_seeds[0].0, seat_seeds[2].0, "one pair");
    let (w, b) = (of("w"), of("b"));
    assert_eq!(w[0], w[1], "{seat_seeds:?}");
    assert_eq!(b[0], b[1], "{seat_seeds:?}");
    assert_ne!(w[0], b[0], "{seat_seeds:?}");
}

/// An engine whose every declaration is replaced by a void one (`a3a4`: no piece of its
/// side stands on a3 until it moves, and it never moves; or `0000`) against a real engine.
/// The rules give the voider a penalty point per turn and the loss at two (apocalypse.md
/// 1.4-3, 1.6-2), so each game is two turns long; the declarations are in the record
/// verbatim.
#[test]
fn apocalypse_void_declarations_are_recorded_and_penalised() {
    for void in ["a3a4", "0000"] {
        let dir = scratch(&format!("real-apocalypse-void-{void}"));
        let (pgn, log) = (dir.join("g.pgn"), dir.join("v.log"));
        let extra = words(&format!(
            "--games 2 --nodes 10 --seed 2 --pgnout {}",
            pgn.display()
        ));
        let report = run(
            "apocalypse",
            &proxied("voider", "random", &log, Some(void)),
            &builtin("random", "random"),
            &extra,
        );
        assert!(report.contains("Wins: 0, Losses: 2, Draws: 0"), "{report}");
        let games = replay_file::<Apocalypse>(&pgn, &RuleOptions::default()).expect("replays");
        for g in &games {
            let r = &g.record;
            let voider_white = r.tag("White") == Some("voider");
            assert_eq!(r.moves.len(), 2, "{:?}", r.moves);
            for joint in &r.moves {
                let (w, b) = joint.split_once('/').expect("a joint token");
                assert_eq!(if voider_white { w } else { b }, void);
            }
            let (result, penalties) = if voider_white {
                ("0-1", "20")
            } else {
                ("1-0", "02")
            };
            assert_eq!(r.result, result);
            assert_eq!(r.tag("Termination"), Some("normal"));
            // The words Apocalypse declares for the end by two penalty points.
            assert_eq!(
                r.tag("Reason"),
                Some(quartet_games::apocalypse::PENALTIES.words)
            );
            let fields: Vec<&str> = g.final_position.split(' ').collect();
            assert_eq!(fields[1], penalties, "{}", g.final_position);
        }
    }
}

/// R&B under `Placement together` (rnb.md 1.3(d)): the referee sets the rule up in both
/// engines, asks both for their arrangement on the same `position startpos` (`side w` and
/// `side b`) before either answer is revealed, records `<south>/<north>` verbatim with a
/// `Placement` tag, and `quartet replay` re-checks the records from that tag alone.
#[test]
fn rnb_together_arrangements_are_committed_then_revealed() {
    let dir = scratch("real-rnb-together");
    let (pgn, log_a, log_b) = (dir.join("g.pgn"), dir.join("a.log"), dir.join("b.log"));
    let extra = words(&format!(
        "--placement together --games 2 --nodes 300 --seed 3 --pgnout {}",
        pgn.display()
    ));
    run(
        "rnb",
        &proxied("A", "search", &log_a, None),
        &proxied("B", "greedy", &log_b, None),
        &extra,
    );
    for log in [&log_a, &log_b] {
        let text = std::fs::read_to_string(log).expect("proxy log");
        assert!(
            text.lines()
                .any(|l| l == "< setoption name Placement value together"),
            "{}",
            log.display()
        );
    }
    let records = replayed("rnb", &pgn);
    let logs = [("A", dialogues(&log_a)), ("B", dialogues(&log_b))];
    for (g, record) in records.iter().enumerate() {
        assert_eq!(record.tag("Placement"), Some("together"));
        assert_eq!(record.tag("FEN"), Some("2k3/6/6/6/6/3K2 sn 4444 0"));
        let mut setup = BTreeMap::new();
        for (name, games) in &logs {
            let side = if record.tag("White") == Some(name) {
                "w"
            } else {
                "b"
            };
            let d = &games[g];
            let first_position = d.sent.iter().find(|l| l.starts_with("position"));
            let first_go = d.sent.iter().find(|l| l.starts_with("go"));
            assert_eq!(
                first_position.map(String::as_str),
                Some("position startpos")
            );
            assert_eq!(first_go, Some(&format!("go nodes 300 side {side}")));
            setup.insert(side, d.answers[0].clone());
        }
        let joint = format!("{}/{}", setup["w"], setup["b"]);
        assert_eq!(record.moves[0], joint, "game {}", g + 1);
        assert_eq!(
            joint.split(',').count(),
            15,
            "two arrangements of 8: {joint}"
        );
    }
    // The rule comes from the tag: without it the FEN tag (`sn`) is no position of the
    // default rule, unless the flag gives the rule.
    let untagged = dir.join("untagged.pgn");
    let text = std::fs::read_to_string(&pgn).expect("records");
    std::fs::write(&untagged, text.replace("[Placement \"together\"]\n", "")).expect("write");
    let out = Command::new(QUARTET)
        .args(["replay", "--game", "rnb"])
        .arg(&untagged)
        .output()
        .expect("quartet replay runs");
    assert!(!out.status.success());
    let with_flag = Command::new(QUARTET)
        .args(["replay", "--game", "rnb", "--placement", "together"])
        .arg(&untagged)
        .output()
        .expect("quartet replay runs");
    assert!(with_flag.status.success());
}

/// Kings shuffling forth and back bring the start position back at plies 4 and 8: the
/// third occurrence is a draw by repetition (rnb.md 1.6-5, duell.md 1.12), which only the
/// referee's game history shows. The fake engine plays the cycle for either colour.
#[test]
fn rnb_and_duell_repetition_draws_are_detected() {
    let cases = [
        ("rnb", "2k3/6/6/6/6/3K2 s 0000 0", "d1d2,c6c5,d2d1,c5c6"),
        (
            "duell",
            "4BK4/9/9/9/9/9/9/4WK4 w 0 1",
            "e1d1,e8d8,d1e1,d8e8",
        ),
    ];
    for (game, fen, cycle) in cases {
        let dir = scratch(&format!("real-repetition-{game}"));
        let (pgn, book) = (dir.join("g.pgn"), dir.join("book.txt"));
        std::fs::write(&book, format!("{fen}\n")).expect("opening file");
        let extra = words(&format!(
            "--games 2 --nodes 1 --openings file:{} --pgnout {}",
            book.display(),
            pgn.display()
        ));
        let report = run(game, &cycling("A", cycle), &cycling("B", cycle), &extra);
        assert!(report.contains("Terminations: repetition 2"), "{report}");
        for r in replayed(game, &pgn) {
            assert_eq!(r.tag("Termination"), Some("repetition"));
            assert_eq!(r.tag("Reason"), Some(EndReason::REPETITION.words));
            assert_eq!(r.result, "1/2-1/2");
            assert_eq!(r.tag("FEN"), Some(fen));
            let twice: Vec<&str> = cycle.split(',').chain(cycle.split(',')).collect();
            assert_eq!(r.moves, twice);
        }
    }
}

/// The engines' random choices follow the game's seed: random players from the Duell start
/// play different games in different pairs, the same match twice gives the same records
/// (apart from the moves' times), and a `Seed` the user fixes is left alone (then every
/// pair repeats the first).
#[test]
fn engine_seeds_vary_by_pair_and_repeat_by_match_seed() {
    let dir = scratch("real-seeds");
    let play = |name: &str, option: &str| {
        let pgn = dir.join(name);
        let extra = words(&format!(
            "--games 4 --nodes 1 --seed 5 --pgnout {}",
            pgn.display()
        ));
        let mut a = builtin("A", "random");
        let mut b = builtin("B", "random");
        if !option.is_empty() {
            a.push(option.to_string());
            b.push(option.to_string());
        }
        run("duell", &a, &b, &extra);
        let records = replayed("duell", &pgn);
        let text = std::fs::read_to_string(&pgn).expect("records");
        (records, text)
    };
    let (records, text) = play("a.pgn", "");
    assert_ne!(records[0].moves, records[2].moves);
    assert_ne!(records[1].moves, records[3].moves);
    let (_, again) = play("b.pgn", "");
    assert_eq!(
        support::without_timings(&text),
        support::without_timings(&again)
    );
    let (fixed, _) = play("c.pgn", "option.Seed=9");
    assert_eq!(fixed[0].moves, fixed[2].moves);
    assert_eq!(fixed[1].moves, fixed[3].moves);
}

/// Without a terminal the progress is one line per finished game on stderr, as fastchess
/// prints it, with the match so far.
#[test]
fn progress_without_a_terminal_is_a_line_per_game() {
    let mut cmd = Command::new(QUARTET);
    cmd.args(["match", "--game", "rnb", "--games", "2", "--nodes", "1"]);
    for engine in [builtin("greedy", "greedy"), builtin("random", "random")] {
        cmd.arg("--engine").args(engine);
    }
    let out = cmd.output().expect("quartet runs");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    for (i, (line, players)) in lines
        .iter()
        .zip(["(greedy vs random)", "(random vs greedy)"])
        .enumerate()
    {
        let head = format!("Finished game {} of 2 {players}: ", i + 1);
        assert!(line.starts_with(&head), "{line}");
        assert!(
            // The termination, then the words the game declares for the end.
            line.contains(" {normal: ") || line.contains(" {repetition: "),
            "{line}"
        );
    }
}

/// The overhead target: 2 engines × 100 games of Duell at 1000 nodes, 2 at a time; prints
/// the report with its "Referee overhead" and "Duration" lines. Run it in release mode:
/// `cargo test --release --test referee_real -- --ignored --nocapture`.
#[test]
#[ignore]
fn duell_hundred_games_overhead() {
    let dir = scratch("real-overhead");
    let pgn = dir.join("g.pgn");
    let extra = words(&format!(
        "--games 100 --nodes 1000 --concurrency 2 --seed 1 --openings random:4 --pgnout {}",
        pgn.display()
    ));
    let report = run(
        "duell",
        &builtin("search", "search"),
        &builtin("mcts", "mcts"),
        &extra,
    );
    println!("{report}");
    assert!(report.contains("Games: 100 of 100"), "{report}");
    assert_eq!(replayed("duell", &pgn).len(), 100);
}
