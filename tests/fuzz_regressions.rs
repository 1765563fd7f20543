//! Inputs that once crashed or misled the engine, found by fuzzing and the hardening
//! runs (cargo fuzz targets in fuzz/, scripts/fuzz_session.py). Each test states the
//! input and the failure it guards against.

mod common;

use common::Engine;
use quartet::search::time::{Clock, clock_budget};
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
    e.send("go wtime 1000 btime 1000 winc 9223372036854775807 binc 9223372036854775807");
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_ne!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert!(e.sync().is_empty());
}
