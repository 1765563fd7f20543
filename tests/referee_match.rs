//! Matches of the alternating toy game (Nim) between fake engines: totals, adjudications,
//! records, concurrency. Expected results are worked out by hand from the toy rules and the
//! fake engines' fixed strategies (see `fixtures/referee/`).

use crate::support;

use quartet_core::game::{Outcome, Player};
use quartet_referee::{MatchError, StopReason, replay_file, run_match};

use quartet_testkit::toys::Nim;
use support::{RULES, args, fake, play, play_recorded, reason, records_by_round, scratch};

/// Both engines always take one stone: 15 plies, the first player takes the last stone and
/// wins every game, so each engine wins the game it starts: +1 -1 per pair.
#[test]
fn first_player_wins_every_game_of_takers() {
    let dir = scratch("takers");
    let jsonl = dir.join("g.jsonl");
    let extra = format!("--games 4 --nodes 1 --jsonl {}", jsonl.display());
    let (a, b) = (fake("A", "--play first"), fake("B", "--play first"));
    let (r, games) = play_recorded::<Nim>(&dir.join("g.pgn"), a, b, &extra);
    assert_eq!((r.tally.wins, r.tally.draws, r.tally.losses), (2, 0, 2));
    assert_eq!((r.tally.penta.wl, r.tally.penta.pairs()), (2, 2));
    assert_eq!(r.terminations["normal"], 4);
    assert_eq!(r.stop, StopReason::Completed);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.record.moves, vec!["t1"; 15]);
        assert_eq!(g.outcome, Some(Outcome::Win(Player::First)));
    }
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(lines.lines().count(), 4);
    assert!(lines.contains("\"result\":\"1-0\""));
}

/// An engine that always passes loses every game against one that takes: the taker takes
/// all 15 stones. First engine 4 wins, both pairs `ww`.
#[test]
fn passer_loses_everything() {
    let (a, b) = (fake("A", "--play first"), fake("B", "--play last"));
    let r = play::<Nim>(a, b, "--games 4 --nodes 1");
    assert_eq!((r.tally.wins, r.tally.draws, r.tally.losses), (4, 0, 0));
    assert_eq!(r.tally.penta.ww, 2);
}

/// Two passers repeat the start position: p p p p brings it back a third time, a draw by
/// repetition, which only the referee can see.
#[test]
fn repetition_is_a_draw() {
    let pgn = scratch("repetition").join("g.pgn");
    let (a, b) = (fake("A", "--play last"), fake("B", "--play last"));
    let (r, games) = play_recorded::<Nim>(&pgn, a, b, "--games 2 --depth 1");
    assert_eq!((r.tally.draws, r.terminations["repetition"]), (2, 2));
    assert_eq!(r.tally.penta.dd, 1);
    assert_eq!(games[0].record.moves, ["p", "p", "p", "p"]);
}

/// B answers its second move with `t9` (well formed, never legal): it loses both games.
#[test]
fn illegal_move_loses() {
    let pgn = scratch("illegal").join("g.pgn");
    let b = fake("B", "--play first --illegal-at 2 --bad-token t9");
    let (r, games) = play_recorded::<Nim>(&pgn, fake("A", ""), b, "--games 2 --nodes 1");
    assert_eq!((r.tally.wins, r.terminations["illegal move"]), (2, 2));
    // Game 1: A t1, B t1, A t1, then B's t9 (not recorded). Game 2: B t1, A t1, then t9.
    assert_eq!(games[0].record.moves, ["t1", "t1", "t1"]);
    assert_eq!(games[1].record.moves, ["t1", "t1"]);
    let why = reason(&games[0]);
    assert!(why.starts_with("B: illegal move 't9'"), "{why}");
    // A malformed token is caught the same way, with its own message.
    let b = fake("B", "--illegal-at 1 --bad-token zz");
    let (r, games) = play_recorded::<Nim>(&pgn, b, fake("A", ""), "--games 1 --nodes 1");
    assert_eq!(r.tally.losses, 1);
    let why = reason(&games[0]);
    assert!(why.starts_with("B: malformed move 'zz'"), "{why}");
}

/// B exits at its first move of every game. With --recover it is restarted and both games
/// are lost by crash; without, the match stops after the first game.
#[test]
fn crash_loses_and_recover_restarts() {
    let (a, b) = (fake("A", ""), fake("B", "--crash-at 1"));
    let r = play::<Nim>(a.clone(), b.clone(), "--games 2 --nodes 1 --recover");
    assert_eq!((r.tally.wins, r.terminations["crash"]), (2, 2));
    assert_eq!(r.stop, StopReason::Completed);
    let r = play::<Nim>(a, b, "--games 4 --nodes 1");
    assert_eq!(r.tally.games(), 1);
    assert!(
        matches!(r.stop, StopReason::EngineFailure(ref why) if why.contains("game 1")),
        "{:?}",
        r.stop
    );
}

/// B stops answering at its first move, not even `stop` gets a reply: a stall after the
/// move time plus the margin (and the grace for `stop`), then B is restarted. (The move
/// time leaves A room on a busy machine.)
#[test]
fn stall_loses() {
    let pgn = scratch("stall").join("g.pgn");
    let (a, b) = (fake("A", ""), fake("B", "--stall-at 1"));
    let extra = "--games 2 --movetime 200 --margin 50 --recover";
    let (r, games) = play_recorded::<Nim>(&pgn, a.clone(), b.clone(), extra);
    assert_eq!((r.tally.wins, r.terminations["stall"]), (2, 2));
    let why = reason(&games[0]);
    assert!(why.contains("not even after stop"), "{why}");
    // Under a node limit the wait is bounded by --timeout (which also bounds the handshake,
    // so it leaves room for a slow start of Python on a busy machine).
    let r = play::<Nim>(a, b, "--games 1 --nodes 5 --timeout 2000");
    assert_eq!(r.terminations["stall"], 1);
}

/// With 1 s on the clock, B thinks 5 s at its first move (until `stop`, sent at 1000 ms +
/// 20 ms margin): it loses on time. A slow but punctual engine does not.
#[test]
fn clock_overrun_loses_on_time() {
    let pgn = scratch("overrun").join("g.pgn");
    let (a, b) = (fake("A", ""), fake("B", "--delay-at 1:5000"));
    let (r, games) = play_recorded::<Nim>(&pgn, a, b, "--games 2 --tc 1+0.1 --margin 20");
    assert_eq!((r.tally.wins, r.terminations["time forfeit"]), (2, 2));
    let why = reason(&games[0]);
    assert!(why.contains("with 1000 ms left"), "{why}");
    let (a, b) = (fake("A", "--delay 5"), fake("B", "--delay 5"));
    let r = play::<Nim>(a, b, "--games 2 --tc 2+0.1");
    assert_eq!(r.terminations["normal"], 2);
}

/// An engine that never finishes the handshake cannot start: the match is an error.
#[test]
fn handshake_stall_is_an_engine_error() {
    let a = args(
        "nim",
        fake("A", ""),
        fake("B", "--no-uciok"),
        "--games 2 --nodes 1 --timeout 2000",
    );
    match run_match::<Nim>(&a, &RULES) {
        Err(MatchError::Engine { name, why }) => {
            assert_eq!(name, "B");
            assert!(why.contains("uciok"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // A registered game other than the one played is a usage error, before any engine.
    let mut a = args("duell", fake("A", ""), fake("B", ""), "--games 2 --nodes 1");
    a.game = quartet_games::GameKind::Rnb;
    assert!(matches!(
        run_match::<quartet_games::duell::Duell>(&a, &RULES),
        Err(MatchError::Usage(_))
    ));
}

/// Concurrency changes the order games finish in, not the games: with deterministic
/// engines and seeded openings the records are the same.
#[test]
fn concurrency_plays_the_same_games() {
    let dir = scratch("concurrency");
    let mut records = Vec::new();
    for k in [1, 3] {
        let pgn = dir.join(format!("k{k}.pgn"));
        let extra = format!("--games 12 --nodes 1 --openings random:3 --seed 11 --concurrency {k}");
        let (a, b) = (
            fake("A", "--play hash --seed 1"),
            fake("B", "--play hash --seed 2"),
        );
        let (r, games) = play_recorded::<Nim>(&pgn, a, b, &extra);
        assert_eq!(r.tally.games(), 12);
        records.push((r.tally, records_by_round(games)));
    }
    assert_eq!(records[0], records[1]);
    // Both games of a pair start with the same 3 opening plies.
    let games = &records[0].1;
    assert_eq!(games[0].moves[..3], games[1].moves[..3]);
    assert_eq!(games[0].tag("OpeningPlies"), Some("3"));
}

/// A tampered record is caught when read back.
#[test]
fn tampered_record_fails_replay() {
    let pgn = scratch("tamper").join("g.pgn");
    play_recorded::<Nim>(&pgn, fake("A", ""), fake("B", ""), "--games 1 --nodes 1");
    let text = std::fs::read_to_string(&pgn).unwrap();
    let tampered = text.replacen("} t1 {", "} t3 {", 1);
    assert_ne!(tampered, text);
    std::fs::write(&pgn, tampered).unwrap();
    let err = replay_file::<Nim>(&pgn, &RULES).unwrap_err().to_string();
    assert!(err.contains("game 1"), "{err}");
}

/// A strong engine against a passer: the SPRT accepts H1 long before 200 games.
#[test]
fn sprt_stops_the_match() {
    let extra = "--games 200 --nodes 1 --sprt elo0=0 elo1=10 alpha=0.05 beta=0.05";
    let r = play::<Nim>(fake("A", ""), fake("B", "--play last"), extra);
    assert_eq!(r.stop, StopReason::SprtH1);
    assert!(r.tally.games() < 200);
    assert_eq!(r.tally.losses, 0);
}
