//! Perft counts derived by hand (not from this code), and the ignored speed measurement.

use super::Rnb;
use crate::game::RuleOptions;
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

/// Times `perft(pos, depth)` and prints leaves per second.
fn measure(name: &str, text: &str, depth: u32) -> u64 {
    let pos = parse(text);
    let began = Instant::now();
    let leaves = perft(&pos, depth);
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "rnb perft {name} depth {depth}: {leaves} leaves in {seconds:.3} s = {:.1} M leaves/s",
        leaves as f64 / seconds / 1e6
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
