//! Inputs that once crashed or misled the engine, found by fuzzing and the hardening
//! runs (cargo fuzz targets in fuzz/, scripts/fuzz_session.py). Each test states the
//! input and the failure it guards against.

use crate::common;

use common::Engine;
use quartet_search::time::{Clock, clock_budget};
use std::time::Duration;

/// `go wtime 1000 winc 9223372036854775807`: `inc * 3 / 4` overflowed in
/// `search::time::clock_budget` ("attempt to multiply with overflow", a panic of the
/// reading thread in builds with overflow checks; in release builds the wrapped
/// increment made the budget 1 ms). An increment that large means "no limit from the
/// increment": the budget is capped by the clock, as for any large increment.
#[test]
fn a_huge_increment_does_not_overflow_the_clock_budget() {
    let clock = Clock {
        time_ms: 1000,
        inc_ms: i64::MAX,
        moves_to_go: None,
    };
    let budget = clock_budget(clock, 10);
    // Whatever the increment, a move may not use more than the clock minus the overhead,
    // and a large increment does not shrink the budget below that of no increment.
    let plain = clock_budget(Clock { inc_ms: 0, ..clock }, 10);
    assert!(budget.hard <= Duration::from_millis(990), "{budget:?}");
    assert!(budget.soft >= plain.soft, "{budget:?} < {plain:?}");
}

/// The same through the protocol: the engine answers with a move and lives on.
#[test]
fn the_engine_survives_a_huge_increment() {
    let mut e = Engine::start(&[]);
    let legal = e.query("legalmoves");
    e.send("go wtime 1000 btime 1000 winc 9223372036854775807 binc 9223372036854775807");
    let lines = e.until(|l| l.starts_with("bestmove"));
    let best = lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_default();
    assert!(legal.split_whitespace().any(|m| m == best), "{best}");
    assert!(e.sync().is_empty());
}

/// Found by the playout fuzz target: after a threefold repetition `legalmoves` is empty
/// (the game is drawn) while `go perft 1` lists the moves, since perft counts the tree of
/// the position alone. protocol.md §3.1 now says so; this pins both answers.
#[test]
fn perft_ignores_the_history_that_drew_the_game() {
    let mut e = Engine::start(&["--game", "rnb"]);
    let placements =
        "B@a2 B@b6 B@e2 R@a5 R@a1 R@c5 R@d2 R@b5 R@c2 B@e6 R@e1 R@d6 B@b1 B@d5 B@b2 B@a6";
    let shuffle = "b2b3 c5c4 a1b2 c4c3 b1a1 c3d3 a1b1 d3c3 b1a1 c3d3 a1b1 d3c3";
    e.send(&format!("position startpos moves {placements} {shuffle}"));
    assert_eq!(e.query("gameover"), "true");
    assert_eq!(e.query("legalmoves"), "");
    // South to move in bbkrb1/rr1b2/6/1Br3/BRRRB1/1B1KR1: steps to empty squares, by hand:
    // b1 2 (a1 c1), d1 1 (c1), e1 2 (f1 f2), a2 2 (a1 a3), b2 3 (a1 c1 a3), c2 2 (c1 d3),
    // d2 3 (c1 d3 e3), e2 5 (f1 f2 d3 e3 f3), b3 4 (a3 a4 b4 c4): 24.
    e.send("go perft 1");
    let lines = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 24"));
    // The same position without the history is not over.
    let fen = e.fen();
    assert_eq!(fen, "bbkrb1/rr1b2/6/1Br3/BRRRB1/1B1KR1 s 0000 12");
    e.send(&format!("position fen {fen}"));
    assert_eq!(e.query("gameover"), "false");
    assert_eq!(e.query("legalmoves").split_whitespace().count(), 24);
}
