//! R&B's joint setup under `Placement together`, measured in process: how exploitable the
//! search's setup strategies are, and how long they take.
//!
//! Each side's strategy comes from `search` at the setup with `side` (the double oracle of
//! `search/oracle.rs`). Against it, the other side's best response is computed here, over
//! all 11,550 of its arrangements, from cells valued independently of the oracle: a cell
//! of depth 1 is the static evaluation (or the rules' result) of the position after the
//! joint turn, a cell of depth `d` a search of that position to depth `d - 1`. The figures:
//! each best response's gain over the value of the two strategies played against each
//! other, and their sum (NashConv: 0 at an equilibrium of that depth's game).
//!
//! The default run checks that the depth-1 strategies are an equilibrium of the depth-1
//! game. `cargo test --release --test rnb_setup_strength -- --ignored --nocapture` prints
//! the README's table.

use quartet_core::eval::Evaluate;
use quartet_core::game::{Game, Node, Player, RuleOptions};
use quartet_core::notation::Notation;
use quartet_games::rnb::{Move, PLACEMENT, Rnb};
use quartet_search::time::movetime_budget;
use quartet_search::tt::TranspositionTable;
use quartet_search::{Limits, Root, Settings, search};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The engine's table size in MiB (the protocol's default `Hash`).
const HASH_MB: usize = 16;

/// The joint setup.
fn setup() -> Rnb {
    let rules = RuleOptions::default()
        .with(
            &PLACEMENT,
            PLACEMENT.parse_value("together").expect("a word"),
        )
        .expect("in range");
    Rnb::start(&rules)
}

/// A side's strategy, the time it took and the depth it completed.
struct Strategy {
    policy: Vec<(Move, f64)>,
    time: Duration,
    depth: u32,
}

/// The search's strategy for `side` at the setup within `limits` (a fresh table).
fn strategy(pos: &Rnb, side: Player, limits: &Limits) -> Strategy {
    let tt = TranspositionTable::new(HASH_MB).expect("a table");
    let settings = Settings {
        side: Some(side),
        ..Settings::default()
    };
    let started = Instant::now();
    let r = search(
        &Root::of(pos),
        limits,
        &settings,
        &tt,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    Strategy {
        policy: r.policy.into_iter().filter(|&(_, p)| p > 0.0).collect(),
        time: started.elapsed(),
        depth: r.depth,
    }
}

/// Cells of one depth, valued as the module documentation says, kept once computed.
struct Cells {
    depth: u32,
    tt: TranspositionTable,
    known: HashMap<(Move, Move), i32>,
}

impl Cells {
    fn new(depth: u32) -> Self {
        Cells {
            depth,
            tt: TranspositionTable::new(HASH_MB).expect("a table"),
            known: HashMap::new(),
        }
    }

    /// The value (South's view) of South's `a` against North's `b`.
    fn value(&mut self, pos: &Rnb, a: Move, b: Move) -> i32 {
        if let Some(&v) = self.known.get(&(a, b)) {
            return v;
        }
        let mut child = pos.clone();
        child.play_joint(a, b);
        let v = match child.node() {
            Node::Terminal(outcome) => child.terminal_value(outcome, 1),
            _ if self.depth == 1 => child.evaluate(),
            _ => {
                let limits = Limits {
                    depth: Some(self.depth - 1),
                    ..Limits::default()
                };
                let root = Root::of(&child);
                let stop = AtomicBool::new(false);
                // South is to move after the setup: its score is South's view.
                let r = search(
                    &root,
                    &limits,
                    &Settings::default(),
                    &self.tt,
                    &stop,
                    &mut |_| {},
                );
                r.score
            }
        };
        self.known.insert((a, b), v);
        v
    }
}

/// The best responses' gains against `south` and `north` at `depth` (South's, North's).
fn gains(pos: &Rnb, south: &[(Move, f64)], north: &[(Move, f64)], depth: u32) -> (f64, f64) {
    let mut cells = Cells::new(depth);
    let mut all = Vec::new();
    let mut played = 0.0;
    for &(a, p) in south {
        for &(b, q) in north {
            played += p * q * f64::from(cells.value(pos, a, b));
        }
    }
    pos.legal_moves(Player::First, &mut all);
    let best_south = all
        .iter()
        .map(|&a| {
            north
                .iter()
                .map(|&(b, q)| q * f64::from(cells.value(pos, a, b)))
                .sum::<f64>()
        })
        .fold(f64::NEG_INFINITY, f64::max);
    pos.legal_moves(Player::Second, &mut all);
    let best_north = all
        .iter()
        .map(|&b| {
            south
                .iter()
                .map(|&(a, p)| p * f64::from(cells.value(pos, a, b)))
                .sum::<f64>()
        })
        .fold(f64::INFINITY, f64::min);
    (best_south - played, played - best_north)
}

#[test]
fn the_depth_1_strategies_are_an_equilibrium_of_the_depth_1_game() {
    let pos = setup();
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let south = strategy(&pos, Player::First, &limits);
    let north = strategy(&pos, Player::Second, &limits);
    assert_eq!((south.depth, north.depth), (1, 1));
    let (g_south, g_north) = gains(&pos, &south.policy, &north.policy, 1);
    assert!(
        g_south.abs() < 1e-6 && g_north.abs() < 1e-6,
        "{g_south} {g_north}"
    );
    // Not vacuous: South's arrangement of worked example 18 against North's strategy leaves
    // South a better response.
    let Ok(quartet_core::game::Action::Joint(example, _)) = pos.parse_action(
        "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1/R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6",
    ) else {
        panic!("example 18 is legal");
    };
    let (worse, _) = gains(&pos, &[(example, 1.0)], &north.policy, 1);
    assert!(worse > 1.0, "{worse}");
}

#[test]
#[ignore = "measurement: run with --release -- --ignored --nocapture"]
fn how_much_the_two_arrangements_interact() {
    // A(a, b) - A(a, b0) - A(a0, b) + A(a0, b0) over pairs of safe arrangements: 0 for all
    // when the depth's game separates into one choice per side (then a pure equilibrium
    // is exact, and its exploitability 0 by construction).
    let pos = setup();
    let (mut south, mut north) = (Vec::new(), Vec::new());
    pos.legal_moves(Player::First, &mut south);
    pos.legal_moves(Player::Second, &mut north);
    let pick = |list: &[Move], k: usize| list[(k * 7_919) % list.len()];
    for depth in 1..=3 {
        let mut cells = Cells::new(depth);
        let (a0, b0) = (pick(&south, 1), pick(&north, 2));
        let base = cells.value(&pos, a0, b0);
        let (mut max, mut nonzero, mut pairs) = (0, 0, 0);
        for k in 0..300 {
            let (a, b) = (pick(&south, 3 + 2 * k), pick(&north, 4 + 2 * k));
            let values = [
                cells.value(&pos, a, b),
                cells.value(&pos, a, b0),
                cells.value(&pos, a0, b),
            ];
            if values.iter().chain([&base]).any(|v| v.abs() > 10_000) {
                continue; // a broken line: a result, not an evaluation
            }
            pairs += 1;
            let interaction = (values[0] - values[1] - values[2] + base).abs();
            max = max.max(interaction);
            nonzero += usize::from(interaction != 0);
        }
        println!("depth {depth}: {pairs} pairs, {nonzero} interact, at most {max} cp");
    }
}

#[test]
#[ignore = "measurement: run with --release -- --ignored --nocapture"]
fn exploitability_table() {
    let pos = setup();
    let by_depth = |d: u32| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let by_time = |ms: u64| Limits {
        time: Some(movetime_budget(ms, 10)),
        ..Limits::default()
    };
    let cases = [
        ("go depth 1", by_depth(1)),
        ("go depth 2", by_depth(2)),
        ("go depth 3", by_depth(3)),
        ("go movetime 100", by_time(100)),
        ("go movetime 330", by_time(330)),
    ];
    println!(
        "| limit | depth reached | time (S, N) | support (S, N) | gains at that depth (S, N) | NashConv | one ply deeper: gains (S, N) | NashConv |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (name, limits) in cases {
        let south = strategy(&pos, Player::First, &limits);
        let north = strategy(&pos, Player::Second, &limits);
        let depth = south.depth.min(north.depth).max(1);
        let same = gains(&pos, &south.policy, &north.policy, depth);
        let deeper = gains(&pos, &south.policy, &north.policy, depth + 1);
        println!(
            "| `{name}` | {}, {} | {} ms, {} ms | {}, {} | {:.1}, {:.1} cp | {:.1} cp | {:.1}, {:.1} cp | {:.1} cp |",
            south.depth,
            north.depth,
            south.time.as_millis(),
            north.time.as_millis(),
            south.policy.len(),
            north.policy.len(),
            same.0,
            same.1,
            same.0 + same.1,
            deeper.0,
            deeper.1,
            deeper.0 + deeper.1
        );
    }
}
