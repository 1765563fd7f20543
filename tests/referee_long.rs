//! Longer referee runs, not part of the default test run:
//! `cargo test --release --test referee_long -- --ignored --nocapture`.

use crate::support;

use quartet_referee::StopReason;

use quartet_testkit::toys::{Dice, Pennies};
use support::{fake, play, play_recorded, scratch};

/// 200 dice games, 4 at a time, with engines that think 5 ms per move: every record checks,
/// the totals add up, and the referee's own time is printed (the target is under 5 % of the
/// engines' time).
#[test]
#[ignore]
fn long_dice_match_and_overhead() {
    let pgn = scratch("long-dice").join("g.pgn");
    let a = fake("A", "--play hash --seed 1 --delay 5");
    let b = fake("B", "--play first --delay 5");
    let extra = "--games 200 --tc 10+0.1 --seed 8 --openings random:4 --concurrency 4";
    let (r, games) = play_recorded::<Dice>(&pgn, a, b, extra);
    println!("{r}");
    assert_eq!(r.stop, StopReason::Completed);
    assert_eq!(r.tally.games(), 200);
    assert_eq!(r.tally.penta.pairs(), 100);
    assert_eq!(games.len(), 200);
}

/// 100 simultaneous games with 5 ms engines: totals and overhead.
#[test]
#[ignore]
fn long_simultaneous_match_and_overhead() {
    let a = fake("A", "--play hash --seed 3 --delay 5");
    let b = fake("B", "--play hash --seed 4 --delay 5");
    let r = play::<Pennies>(a, b, "--games 100 --tc 10+0.1 --concurrency 2");
    println!("{r}");
    assert_eq!(r.tally.games(), 100);
}
