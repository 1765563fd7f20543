//! The simultaneous-move search against exact solutions (issue: "exactness check"): on
//! positions small enough to solve completely, the searched value converges to the exact
//! value, and the root policy is an equilibrium: no pure deviation of the opponent gains
//! more than 0.01 (in units of a win) against it.

use quartet::game::{Game, Player, RuleOptions};
use quartet::games::apocalypse::Apocalypse;
use quartet::games::apocalypse::eval::WIN;
use quartet::games::apocalypse::solve::{ExactSolver, solve_exact};
use quartet::notation::Notation;
use quartet::search::tt::TranspositionTable;
use quartet::search::{Limits, SearchResult, Settings, search};
use std::sync::atomic::AtomicBool;

/// Positions whose games end within `50 - counter` turns (the no-progress draw), so a
/// search that deep sees every line to its end.
const POSITIONS: [&str; 5] = [
    "2n2/1p3/5/3P1/2N2 00 48",
    "N3n/2p2/5/P3N/5 00 48",
    "2n2/5/p4/1P3/5 00 47",
    "4n/1p1P1/5/P4/N3N 00 48",
    "5/2n1p/2P2/P4/N4 10 47",
];

fn parse(text: &str) -> Apocalypse {
    Apocalypse::parse_position(text, &RuleOptions::default()).expect("position")
}

fn searched(
    pos: &Apocalypse,
    side: Player,
    depth: u32,
) -> SearchResult<<Apocalypse as Game>::Move> {
    let tt = TranspositionTable::new(16).expect("table");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let settings = Settings {
        side: Some(side),
        seed: 7,
        ..Settings::default()
    };
    search(
        pos,
        &[],
        &limits,
        &settings,
        &tt,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn turns_left(text: &str) -> u32 {
    50 - text
        .rsplit(' ')
        .next()
        .and_then(|c| c.parse::<u32>().ok())
        .expect("counter")
}

#[test]
#[ignore = "premise wrong (captures reset the counter): being rewritten"]
fn searched_value_equals_the_exact_value() {
    for text in POSITIONS {
        let pos = parse(text);
        let exact = solve_exact(&pos).value;
        let r = searched(&pos, Player::First, turns_left(text));
        let value = f64::from(r.score) / f64::from(WIN);
        assert!(
            (value - exact).abs() <= 0.01,
            "{text}: searched {value}, exact {exact}"
        );
    }
}

#[test]
#[ignore = "premise wrong (captures reset the counter): being rewritten"]
fn root_policies_are_equilibria_of_the_exact_game() {
    for text in POSITIONS {
        let pos = parse(text);
        let mut solver = ExactSolver::new(false);
        let exact = solver.value(&pos);
        let white = solver.declarations(&pos, Player::First);
        let black = solver.declarations(&pos, Player::Second);
        let cell = |solver: &mut ExactSolver, w, b| {
            let mut child = pos.clone();
            child.play_joint(w, b);
            solver.value(&child)
        };
        let depth = turns_left(text);
        let white_policy = searched(&pos, Player::First, depth).policy;
        let black_policy = searched(&pos, Player::Second, depth).policy;
        let sum: f64 = white_policy.iter().map(|&(_, p)| p).sum();
        assert!(
            (sum - 1.0).abs() < 1e-9,
            "{text}: white policy sums to {sum}"
        );
        // White's policy against every pure Black reply.
        for &b in &black {
            let got: f64 = white_policy
                .iter()
                .map(|&(w, p)| p * cell(&mut solver, w, b))
                .sum();
            assert!(
                got >= exact - 0.01,
                "{text}: Black's {b:?} holds White to {got} < {exact}"
            );
        }
        // Black's policy against every pure White reply.
        for &w in &white {
            let got: f64 = black_policy
                .iter()
                .map(|&(b, p)| p * cell(&mut solver, w, b))
                .sum();
            assert!(
                got <= exact + 0.01,
                "{text}: White's {w:?} gets {got} > {exact}"
            );
        }
    }
}

#[test]
fn the_same_seed_samples_the_same_declaration() {
    let pos = parse("npppn/p3p/5/P3P/NPPPN 00 0");
    let a = searched(&pos, Player::First, 2).best;
    let b = searched(&pos, Player::First, 2).best;
    assert_eq!(a, b);
    assert!(a.is_some());
}
