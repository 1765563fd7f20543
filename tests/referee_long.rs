//! Longer referee runs, not part of the default test run:
//! `cargo test --release --test referee_long -- --ignored --nocapture`.

use quartet::game::RuleOptions;
use quartet::referee::{StopReason, replay_file, run_match};
use quartet::{game, notation};

#[path = "fixtures/referee/support.rs"]
mod support;
#[path = "fixtures/referee/toys.rs"]
mod toys;

use support::{args, fake, scratch};
use toys::{Dice, Pennies};

const RULES: RuleOptions = RuleOptions {
    double_step: true,
    pieces: 4,
};

/// 200 dice games, 4 at a time, with engines that think 5 ms per move: every record checks,
/// the totals add up, and the referee's own time is printed (the target is under 5 % of the
/// engines' time).
#[test]
#[ignore]
fn long_dice_match_and_overhead() {
    let dir = scratch("long-dice");
    let pgn = dir.join("g.pgn");
    let extra = format!(
        "--games 200 --tc 10+0.1 --seed 8 --openings random:4 --concurrency 4 --pgnout {}",
        pgn.display()
    );
    let a = args(
        "dice",
        fake("A", "--play hash --seed 1 --delay 5"),
        fake("B", "--play first --delay 5"),
        &extra,
    );
    let r = run_match::<Dice>(&a, &RULES).unwrap();
    println!("{r}");
    assert_eq!(r.stop, StopReason::Completed);
    assert_eq!(r.tally.games(), 200);
    assert_eq!(r.tally.penta.pairs(), 100);
    assert_eq!(replay_file::<Dice>(&pgn, &RULES).unwrap().len(), 200);
}

/// 100 simultaneous games with 5 ms engines: totals and overhead.
#[test]
#[ignore]
fn long_simultaneous_match_and_overhead() {
    let a = args(
        "pennies",
        fake("A", "--play hash --seed 3 --delay 5"),
        fake("B", "--play hash --seed 4 --delay 5"),
        "--games 100 --tc 10+0.1 --concurrency 2",
    );
    let r = run_match::<Pennies>(&a, &RULES).unwrap();
    println!("{r}");
    assert_eq!(r.tally.games(), 100);
}
