//! Perft counts from the rules file and by hand, the conformance playouts, and the
//! (ignored) speed measurement.

use super::rules_tests::{after, pos};
use super::*;
use crate::eval::Evaluate;
use crate::game::{Action, RuleOptions};
use crate::notation::Notation;
use crate::perft::{divide, perft};

#[test]
fn w1_perft_of_the_start_position() {
    let start = Duell::start(&RuleOptions::default());
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 37);
    assert_eq!(perft(&start, 2), 1293);
    let total: u64 = divide(&start, 2).iter().map(|&(_, n)| n).sum();
    assert_eq!(total, 1293);
}

#[test]
fn w1_eight_captures_at_depth_two() {
    let start = Duell::start(&RuleOptions::default());
    let mut replies = MoveList::new();
    let mut captures = 0;
    for action in start.actions() {
        let mut child = start.clone();
        child.apply(action);
        child.legal_moves(Player::Second, &mut replies);
        captures += replies
            .iter()
            .filter(|m| child.board[m.to() as usize] != EMPTY)
            .count();
    }
    assert_eq!(captures, 8);
}

#[test]
fn perft_stops_at_the_200_ply_draw() {
    // Three key moves, all quiet: each reaches 200 plies, so nothing follows.
    let p = pos("4BK4/9/9/9/9/9/9/4WK4 w 199 1");
    assert_eq!(perft(&p, 1), 3);
    assert_eq!(perft(&p, 2), 0);
    // With a capture on e2 the game goes on after it: Black's key has d8, e7, f8.
    let p = pos("4BK4/9/9/9/9/9/4B124/4WK4 w 199 1");
    assert_eq!(perft(&p, 1), 3);
    assert_eq!(perft(&p, 2), 3);
}

#[test]
fn perft_stops_at_a_win() {
    // W7: e7e8 wins (no children); after e7d7, e7f7 or e7e6 Black's key has d8, f8 and
    // the emptied e7: 3 each.
    let p = pos("4BK4/4WK4/9/9/9/9/9/9 w 0 1");
    assert_eq!(perft(&p, 1), 4);
    assert_eq!(perft(&p, 2), 9);
    let win = after(&p, "e7e8");
    assert_eq!(perft(&win, 1), 0);
}

#[test]
fn key_race_perft_by_hand() {
    // Lone keys on a1 and i8. White: a2, b1. Black from i8: h8, i7. Depth 3: after a2
    // White has a3, b2, a1 (3); after b1 it has c1, b2, a1 (3): 2 * 2 * 3 = 12.
    let p = pos("8BK/9/9/9/9/9/9/WK8 w 0 1");
    assert_eq!(perft(&p, 1), 2);
    assert_eq!(perft(&p, 2), 4);
    assert_eq!(perft(&p, 3), 12);
}

#[test]
fn random_playouts_pass_the_conformance_checks() {
    let rules = RuleOptions::default();
    let start = Duell::start(&rules);
    crate::conformance::check_random_playouts(&start, &rules, 300, 300, 2024).unwrap();
    // Sparse positions reach the 200-ply draw and key walks more often.
    let sparse = pos("1B532BK4/9/9/9/9/9/9/4WK2W311 w 150 40");
    crate::conformance::check_random_playouts(&sparse, &rules, 50, 300, 9).unwrap();
}

#[test]
fn random_games_end_in_every_way() {
    // Along seeded random games from the start, count how games end: key captures and
    // key-square wins happen; a drawn or no-move end is not required but may occur.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut wins = [0; 2];
    let mut moves = MoveList::new();
    for _ in 0..200 {
        let mut p = Duell::start(&RuleOptions::default());
        while let Node::Turn(side) = p.node() {
            p.legal_moves(side, &mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            assert!(p.is_legal(Action::Single(m)));
            p.play(m);
        }
        if let Node::Terminal(Outcome::Win(w)) = p.node() {
            wins[w.index()] += 1;
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0, "{wins:?}");
}

/// CPU time of the calling thread in seconds (Linux), so that a busy shared machine does
/// not distort the rate; `None` elsewhere.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

/// Measures perft speed: `cargo test --release -- --ignored --nocapture duell_perft_speed`.
/// Prints leaves per second of wall time and of this thread's CPU time.
#[test]
#[ignore]
fn duell_perft_speed() {
    let start = Duell::start(&RuleOptions::default());
    for depth in [4, 5] {
        let (wall, cpu) = (std::time::Instant::now(), thread_cpu_seconds());
        let leaves = perft(&start, depth);
        let wall = wall.elapsed().as_secs_f64();
        let rate = |secs: f64| leaves as f64 / secs / 1e6;
        print!(
            "duell perft {depth}: {leaves} leaves, {wall:.3} s wall = {:.1} M/s",
            rate(wall)
        );
        match (cpu, thread_cpu_seconds()) {
            (Some(a), Some(b)) => println!(", {:.3} s CPU = {:.1} M/s", b - a, rate(b - a)),
            _ => println!(),
        }
    }
    // Static evaluation over the positions two plies deep, repeated.
    let mut leaves = Vec::new();
    for a in start.actions() {
        let mut p = start.clone();
        p.apply(a);
        for b in p.actions() {
            let mut q = p.clone();
            q.apply(b);
            leaves.push(q);
        }
    }
    let (wall, cpu) = (std::time::Instant::now(), thread_cpu_seconds());
    let mut sum = 0i64;
    for _ in 0..200 {
        sum += leaves.iter().map(|q| q.evaluate() as i64).sum::<i64>();
    }
    let evals = 200.0 * leaves.len() as f64;
    let wall = wall.elapsed().as_secs_f64();
    print!(
        "duell evaluate: {:.2} M/s wall (checksum {sum})",
        evals / wall / 1e6
    );
    match (cpu, thread_cpu_seconds()) {
        (Some(a), Some(b)) => println!(", {:.2} M/s CPU", evals / (b - a) / 1e6),
        _ => println!(),
    }
}

#[test]
fn positions_and_moves_stay_small_for_copy_make() {
    assert!(
        std::mem::size_of::<Duell>() <= 128,
        "{}",
        std::mem::size_of::<Duell>()
    );
    assert_eq!(std::mem::size_of::<Move>(), 4);
}
