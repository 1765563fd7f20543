//! Perft counts derived by hand (not from this code), and the ignored speed measurement.

use super::Rnb;
use crate::eval::Evaluate;
use crate::game::{Game, Node, RuleOptions};
use crate::notation::Notation;
use crate::perft::{divide, perft};
use std::time::Instant;

fn parse(text: &str) -> Rnb {
    Rnb::parse_position(text, &RuleOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// From the start each side places into its own zone, which the other side never touches:
/// 11 empty squares × 2 colours = 22 placements for each side's first soldier; the second
/// soldier of each side has 10 squares and still 2 colours (20); the third 9 × 2 (18).
/// No rank can fill before a side's fifth soldier, so nothing ends earlier.
#[test]
fn perft_from_the_start_by_hand() {
    let start = Rnb::start(&RuleOptions::default());
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 22);
    assert_eq!(perft(&start, 2), 22 * 22);
    assert_eq!(perft(&start, 3), 22 * 22 * 20);
    assert_eq!(perft(&start, 4), 22 * 22 * 20 * 20);
    assert_eq!(perft(&start, 5), 22 * 22 * 20 * 20 * 18);
    let per_root = divide(&start, 2);
    assert_eq!(per_root.len(), 22);
    assert!(per_root.iter().all(|&(_, n)| n == 22));
}

/// Kings alone: d1 has 5 neighbours and c6 has 5. After one step the South king stands on
/// c1 or e1 (5 steps each) or on c2, d2, e2 (8 each): 34 two-step paths, and North's
/// mirror image likewise. The kings stay in ranks 1–3 and 4–6, so they never meet, and
/// kings alone capture nothing.
#[test]
fn perft_of_two_lone_kings_by_hand() {
    let kings = parse("2k3/6/6/6/6/3K2 s 0000 0");
    assert_eq!(perft(&kings, 1), 5);
    assert_eq!(perft(&kings, 2), 5 * 5);
    assert_eq!(perft(&kings, 3), 34 * 5);
    assert_eq!(perft(&kings, 4), 34 * 34);
}

/// The 100th quiet movement ply draws, so the plies after it have no children.
#[test]
fn perft_stops_at_the_quiet_ply_draw() {
    let ninety_nine = parse("2k3/6/6/6/6/3K2 s 0000 99");
    assert_eq!(perft(&ninety_nine, 1), 5);
    assert_eq!(perft(&ninety_nine, 2), 0);
    let ninety_eight = parse("2k3/6/6/6/6/3K2 s 0000 98");
    assert_eq!(perft(&ninety_eight, 2), 25);
    assert_eq!(perft(&ninety_eight, 3), 0);
}

/// A finished position has no children (worked example 16: North is boxed in).
#[test]
fn perft_of_a_finished_position_is_zero() {
    assert_eq!(perft(&parse("kR4/RB4/6/6/6/3K2 n 0000 0"), 1), 0);
    assert_eq!(perft(&parse("kR4/RB4/6/6/6/3K2 n 0000 0"), 3), 0);
}

/// CPU time of this thread in seconds, where Linux tells it (`/proc/thread-self/schedstat`):
/// on a shared machine wall time also counts the time other processes had the core.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}

/// Runs `work`, returning its result, wall seconds and (if known) CPU seconds.
fn timed<T>(work: impl FnOnce() -> T) -> (T, f64, Option<f64>) {
    let cpu_before = thread_cpu_seconds();
    let began = Instant::now();
    let result = work();
    let wall = began.elapsed().as_secs_f64();
    let cpu = thread_cpu_seconds()
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    (result, wall, cpu)
}

/// Times `perft(pos, depth)` and prints leaves per second of wall and of CPU time.
fn measure(name: &str, text: &str, depth: u32) -> u64 {
    let pos = parse(text);
    let (leaves, wall, cpu) = timed(|| perft(&pos, depth));
    let cpu = cpu.unwrap_or(wall);
    println!(
        "rnb perft {name} depth {depth}: {leaves} leaves, {wall:.3} s wall = {:.0} M leaves/s, \
         {cpu:.3} s CPU = {:.0} M leaves/s",
        leaves as f64 / wall / 1e6,
        leaves as f64 / cpu / 1e6
    );
    leaves
}

/// Speed: `cargo test --release rnb::perft_tests -- --ignored --nocapture`.
#[test]
#[ignore]
fn perft_speed() {
    let start = measure("start", "2k3/6/6/6/6/3K2 s 4444 0", 6);
    assert_eq!(start, 22 * 22 * 20 * 20 * 18 * 18);
    measure(
        "middle game",
        "1bk1r1/rb1b2/2r1b1/1B2R1/R1B1R1/B2KB1 s 0000 0",
        6,
    );
    measure(
        "after placement",
        "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0",
        6,
    );
}

/// Speed of `evaluate` over the positions of a few seeded random games:
/// `cargo test --release rnb::perft_tests -- --ignored --nocapture`.
#[test]
#[ignore]
fn evaluate_speed() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut positions = Vec::new();
    for _ in 0..50 {
        let mut pos = Rnb::start(&RuleOptions::default());
        while let Node::Turn(_) = pos.node() {
            positions.push(pos.clone());
            let actions = pos.actions();
            pos.apply(actions[rng.random_range(0..actions.len())]);
        }
    }
    let rounds = 200;
    let (sum, wall, cpu) = timed(|| {
        let mut sum = 0i64;
        for _ in 0..rounds {
            for pos in &positions {
                sum += i64::from(std::hint::black_box(pos).evaluate());
            }
        }
        sum
    });
    let cpu = cpu.unwrap_or(wall);
    let calls = (rounds * positions.len()) as f64;
    println!(
        "rnb evaluate: {calls} calls, {:.0} ns wall, {:.0} ns CPU per call (checksum {sum})",
        wall / calls * 1e9,
        cpu / calls * 1e9
    );
}
