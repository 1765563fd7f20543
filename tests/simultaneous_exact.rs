//! The simultaneous-move search on Apocalypse against two independent references:
//!
//! - plain backward induction to a fixed depth (every cell searched, every matrix game
//!   solved by the simplex, values rounded at each node as the search rounds them): the
//!   search, with all its pruning, must return exactly the same value;
//! - the exact solver of whole games (`games::apocalypse::solve`, values ±1): on positions
//!   whose games are short, a search deep enough to see every line to its end returns the
//!   exact value (to 0.01 of a win), and each side's root policy is an equilibrium strategy
//!   of the exact game: no pure declaration of the opponent gains more than 0.01 against it.

use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Game, Node, Player, RuleOptions};
use quartet_core::matrix::{round_value, solve};
use quartet_core::notation::Notation;
use quartet_games::apocalypse::eval::WIN;
use quartet_games::apocalypse::solve::{ExactSolver, solve_exact};
use quartet_games::apocalypse::{Apocalypse, Move};
use quartet_search::tt::TranspositionTable;
use quartet_search::{Features, Limits, Root, SearchResult, Settings, search};
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

/// Short games with mixed equilibria at the root, whose every line ends within a few turns
/// (the search sees them to the end); their values come from the exact solver.
const SHORT_GAMES: [&str; 1] = ["2n2/5/p4/1P3/5 00 0"];

fn parse(text: &str) -> Apocalypse {
    Apocalypse::parse_position(text, &RuleOptions::default()).expect("position")
}

fn searched(
    pos: &Apocalypse,
    side: Option<Player>,
    depth: u32,
    features: Features,
) -> SearchResult<Move> {
    searched_with_seed(pos, side, depth, features, 7)
}

fn searched_with_seed(
    pos: &Apocalypse,
    side: Option<Player>,
    depth: u32,
    features: Features,
    seed: u64,
) -> SearchResult<Move> {
    let tt = TranspositionTable::new(4).expect("table");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let settings = Settings {
        side,
        seed,
        features,
        ..Settings::default()
    };
    search(
        &Root::of(pos),
        &limits,
        &settings,
        &tt,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

fn declarations(pos: &Apocalypse, p: Player) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.legal_moves(p, &mut moves);
    moves
}

/// Plain backward induction `depth` turns deep, `ply` turns below the root: terminal values
/// as the search scores them, the static value as the search backs it up at depth 0
/// (`Evaluate::search_value`), and otherwise the rounded
/// value of the matrix game of all children.
fn backward_induction(pos: &Apocalypse, depth: u32, ply: u32) -> i32 {
    match pos.node() {
        Node::Terminal(outcome) => return pos.terminal_value(outcome, ply),
        _ if depth == 0 => return pos.search_value(),
        _ => {}
    }
    let rows = declarations(pos, Player::First);
    let cols = declarations(pos, Player::Second);
    let mut payoff = Vec::with_capacity(rows.len() * cols.len());
    for &w in &rows {
        for &b in &cols {
            let mut child = pos.clone();
            child.play_joint(w, b);
            payoff.push(f64::from(backward_induction(&child, depth - 1, ply + 1)));
        }
    }
    round_value(solve(&payoff, rows.len(), cols.len()).value)
}

/// The most turns the game at `pos` can still last (memoised by position string).
fn longest_game(pos: &Apocalypse, memo: &mut HashMap<String, u32>) -> u32 {
    if matches!(pos.node(), Node::Terminal(_)) {
        return 0;
    }
    let text = pos.format_position();
    if let Some(&turns) = memo.get(&text) {
        return turns;
    }
    let mut longest = 0;
    for w in declarations(pos, Player::First) {
        for b in declarations(pos, Player::Second) {
            let mut child = pos.clone();
            child.play_joint(w, b);
            longest = longest.max(1 + longest_game(&child, memo));
        }
    }
    memo.insert(text, longest);
    longest
}

/// A random position with one or two pawns and up to two knights per side, small counters
/// and penalty points; `None` if the notation rejects it or the game is over.
fn random_small_position(rng: &mut rand_chacha::ChaCha8Rng) -> Option<Apocalypse> {
    let mut board = [['.'; 5]; 5];
    let mut pieces = Vec::new();
    for (pawn, knight) in [('P', 'N'), ('p', 'n')] {
        pieces.extend(std::iter::repeat_n(pawn, rng.random_range(1..3)));
        pieces.extend(std::iter::repeat_n(knight, rng.random_range(0..3)));
    }
    for piece in pieces {
        loop {
            let (rank, file) = (rng.random_range(0..5), rng.random_range(0..5));
            if board[rank][file] == '.' {
                board[rank][file] = piece;
                break;
            }
        }
    }
    let ranks: Vec<String> = board
        .iter()
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in rank {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    let text = format!(
        "{} {}{} {}",
        ranks.join("/"),
        rng.random_range(0..2),
        rng.random_range(0..2),
        rng.random_range(0..10)
    );
    let pos = Apocalypse::parse_position(&text, &RuleOptions::default()).ok()?;
    (pos.node() == Node::Simultaneous).then_some(pos)
}

#[test]
fn search_equals_plain_backward_induction_on_small_positions() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    // The line reductions give up exactness for depth (see `reductions_search_fewer_nodes`).
    let exact = Features {
        reductions: false,
        ..Features::default()
    };
    let no_tt = Features {
        tt_cutoffs: false,
        ..exact
    };
    let mut tested = 0;
    while tested < 24 {
        let Some(pos) = random_small_position(&mut rng) else {
            continue;
        };
        tested += 1;
        let text = pos.format_position();
        for depth in 1..=3 {
            // Searches report on the evaluation's scale (`Evaluate::reported`).
            let expected = Apocalypse::reported(backward_induction(&pos, depth, 0));
            for features in [exact, no_tt] {
                let value = searched(&pos, None, depth, features).score;
                assert_eq!(value, expected, "{text} depth {depth} {features:?}");
            }
            // The root of a side's search solves the same game.
            for side in [Player::First, Player::Second] {
                let r = searched(&pos, Some(side), depth, exact);
                assert_eq!(
                    r.score,
                    side.sign() * expected,
                    "{text} depth {depth} {side:?}"
                );
            }
        }
    }
}

#[test]
fn searched_value_equals_the_exact_value() {
    for text in SHORT_GAMES {
        let pos = parse(text);
        let exact = solve_exact(&pos).value;
        let depth = longest_game(&pos, &mut HashMap::new());
        let r = searched(&pos, Some(Player::First), depth, Features::default());
        // Within 0.01 of a win of the exact value, on the reported scale (monotone).
        let within = |d: f64| Apocalypse::reported(((exact + d) * f64::from(WIN)).round() as i32);
        assert!(
            (within(-0.01)..=within(0.01)).contains(&r.score),
            "{text}: searched {}, exact {exact}",
            r.score
        );
    }
}

/// How much a best-responding opponent gains, in the exact game, against White's policy
/// and against Black's (each in the opponent's favour, 0 for an equilibrium strategy).
fn exploitability(
    pos: &Apocalypse,
    solver: &mut ExactSolver,
    white_policy: &[(Move, f64)],
    black_policy: &[(Move, f64)],
) -> (f64, f64) {
    let exact = solver.value(pos);
    let mut cell = |w, b| {
        let mut child = pos.clone();
        child.play_joint(w, b);
        solver.value(&child)
    };
    let mut against_white = f64::NEG_INFINITY;
    for b in declarations(pos, Player::Second) {
        let got: f64 = white_policy.iter().map(|&(w, p)| p * cell(w, b)).sum();
        against_white = against_white.max(exact - got);
    }
    let mut against_black = f64::NEG_INFINITY;
    for w in declarations(pos, Player::First) {
        let got: f64 = black_policy.iter().map(|&(b, p)| p * cell(w, b)).sum();
        against_black = against_black.max(got - exact);
    }
    (against_white, against_black)
}

#[test]
fn root_policies_are_equilibria_of_the_exact_game() {
    for text in SHORT_GAMES {
        let pos = parse(text);
        let depth = longest_game(&pos, &mut HashMap::new());
        let white_policy = searched(&pos, Some(Player::First), depth, Features::default()).policy;
        let black_policy = searched(&pos, Some(Player::Second), depth, Features::default()).policy;
        for policy in [&white_policy, &black_policy] {
            let sum: f64 = policy.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{text}: policy sums to {sum}");
        }
        let mut solver = ExactSolver::new(false);
        let (white, black) = exploitability(&pos, &mut solver, &white_policy, &black_policy);
        assert_equilibrium(text, white, black);
    }
}

/// No pure deviation gains the opponent more than 0.01 against either side's policy
/// (`white`, `black`: the exploitabilities of White's and Black's policies).
fn assert_equilibrium(text: &str, white: f64, black: f64) {
    assert!(
        white < 0.01,
        "{text}: Black gains {white} against White's policy"
    );
    assert!(
        black < 0.01,
        "{text}: White gains {black} against Black's policy"
    );
}

/// Positions whose whole games (up to the no-progress limit) the exact solver handles in
/// about a second, with mixed equilibria at the root (values 0.227 and -0.5).
const SOLVABLE: [&str; 2] = ["1n3/5/p4/1P3/3N1 00 0", "1n3/p4/2P2/5/3N1 00 40"];

/// The search sees these games only to its horizon, so its root policies become
/// equilibria of the exact game only once it looks deep enough: 8 turns (measured at
/// 0.0011 at most; at 6 and 7 turns the first position's policies still give away 0.0054
/// and 0.0004, and at 5 turns the second's 0.0225). Prints the exploitability at each
/// depth up to 8 (`--nocapture`).
#[test]
fn root_policies_eight_turns_deep_are_equilibria_of_solvable_games() {
    let run = || {
        for text in SOLVABLE {
            let pos = parse(text);
            let mut solver = ExactSolver::new(false);
            println!("{text}: exact value {:.4}", solver.value(&pos));
            for depth in 1..=8 {
                let w = searched(&pos, Some(Player::First), depth, Features::default());
                let b = searched(&pos, Some(Player::Second), depth, Features::default());
                let (white, black) = exploitability(&pos, &mut solver, &w.policy, &b.policy);
                println!(
                    "  depth {depth}: exploitability white {white:.4} black {black:.4} (nodes {} + {})",
                    w.nodes, b.nodes
                );
                if depth == 8 {
                    assert_equilibrium(text, white, black);
                }
            }
        }
    };
    // The exact solver recurses once per turn of the game.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .expect("thread")
        .join()
        .expect("the exploitability checks");
}

#[test]
fn the_same_seed_samples_the_same_declaration() {
    // After a1b3/e5d3 (the start's depth-3 policy is pure with the network).
    let pos = parse("nppp1/p3p/1N1n1/P3P/1PPPN 00 1");
    // Without the line reductions, whose depth-3 policy here is pure.
    let exact = Features {
        reductions: false,
        ..Features::default()
    };
    let mut sampled = std::collections::HashSet::new();
    for seed in 1..=12 {
        let run = || searched_with_seed(&pos, Some(Player::First), 3, exact, seed);
        let (a, b) = (run(), run());
        assert_eq!(a.best, b.best, "seed {seed}");
        let Some(Action::Single(m)) = a.best else {
            panic!("seed {seed}: no declaration");
        };
        // The sample comes from the policy: never a declaration it gives no weight.
        assert!(
            a.policy.iter().any(|&(d, p)| d == m && p > 0.0),
            "seed {seed}: {m:?} not in the support"
        );
        sampled.insert(m);
    }
    // The policy at depth 3 is mixed (three declarations in its support with the
    // reductions), so twelve seeds sample more than one of them.
    assert!(sampled.len() > 1, "{sampled:?}");
}

/// The line reductions (`Features::reductions`) prove most lines outside a restricted game
/// one turn shallower: from the start, depth 3 costs a fraction of the exact search's
/// nodes, and the value stays the symmetric start's 0.
#[test]
fn reductions_search_fewer_nodes() {
    let pos = parse("npppn/p3p/5/P3P/NPPPN 00 0");
    let exact = Features {
        reductions: false,
        ..Features::default()
    };
    let reduced = searched(&pos, Some(Player::First), 3, Features::default());
    let full = searched(&pos, Some(Player::First), 3, exact);
    assert_eq!((reduced.score, full.score), (0, 0));
    assert!(
        reduced.nodes * 4 < full.nodes,
        "reduced {} nodes, exact {}",
        reduced.nodes,
        full.nodes
    );
}
