//! The root of a simultaneous node: iterative deepening over the root's matrix game (or,
//! at a wide node, its double oracle), the asked side's equilibrium strategy, and a
//! declaration sampled from it.

use super::frame::Frame;
use super::oracle::Oracle;
use super::wide::is_wide;
use crate::root::{empty_result, may_continue};
use crate::screen;
use crate::searcher::Searcher;
use crate::{Info, Limits, SearchResult, Settings};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Player};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Iterative deepening at a simultaneous root for `settings.side`: each iteration solves
/// the root's matrix game exactly (full window); the result holds the side's equilibrium
/// strategy and a declaration sampled from it with `settings.seed`. Reports one line per
/// declaration (up to MultiPV), most probable first, each scored by its payoff against the
/// opponent's equilibrium strategy: exact for the declarations of the final restricted
/// game (the game value for those in the support), a bound for the others (the most they
/// can gain, which the search only proved to be no more than the value).
pub fn search_simultaneous_root<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    limits: &Limits,
    settings: &Settings,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut result = empty_result();
    let Some(side) = settings.side else {
        return result;
    };
    if is_wide(root) {
        return search_wide_root(s, root, side, limits, settings, report);
    }
    let mut first = Vec::new();
    let mut second = Vec::new();
    root.legal_moves(Player::First, &mut first);
    root.legal_moves(Player::Second, &mut second);
    if first.is_empty() || second.is_empty() {
        return result;
    }
    // Before any iteration and outside the node budget: the declarations that lose at once
    // are left out of the root's game while another exists (`screen.rs`); the policy still
    // lists them, with probability 0.
    let (first_loses, second_loses) = screen::declarations_that_lose(root, &first, &second);
    let (first, first_out) = split(first, &first_loses);
    let (second, second_out) = split(second, &second_loses);
    let (mine, left_out) = if side == Player::First {
        (&first, &first_out)
    } else {
        (&second, &second_out)
    };
    let policy = |strategy: Vec<(G::Move, f64)>| {
        let mut policy = strategy;
        policy.extend(left_out.iter().map(|&m| (m, 0.0)));
        policy
    };
    // Before any iteration completes: uniform over the side's declarations that stay.
    let uniform = 1.0 / mine.len() as f64;
    result.policy = policy(mine.iter().map(|&m| (m, uniform)).collect());
    s.push_root(root.hash());
    let (lo, hi) = G::value_bounds();
    let mut hint = None;
    for depth in crate::smp::depths(s.thread, limits.last_depth()) {
        s.root_depth = depth;
        let mut frame = s.take_frame(0);
        frame.rows.clone_from(&first);
        frame.cols.clone_from(&second);
        let at = super::terms::At {
            depth: depth as i32,
            ply: 0,
        };
        let solved = s.solve_declared(&mut frame, root, at, (lo - 1, hi + 1), hint);
        let lines = solved.map(|solved| {
            hint = Some(most_probable(&frame));
            (solved.value, lines(&frame, side))
        });
        s.give_back_frame(frame, 0);
        let Some((value, lines)) = lines else {
            break;
        };
        result.policy = policy(lines.iter().map(|&(i, p, _)| (mine[i], p)).collect());
        result.score = side.sign() * value;
        result.depth = depth;
        for (k, &(i, _, pay)) in lines.iter().take(settings.multipv.max(1)).enumerate() {
            report(&Info {
                depth,
                seldepth: s.seldepth.max(depth),
                multipv: k + 1,
                score: quartet_core::matrix::round_value(pay),
                nodes: s.nodes(),
                time: s.started.elapsed(),
                hashfull: s.tt.hashfull(),
                pv: vec![Action::Single(mine[i])],
            });
        }
        if !may_continue(s, limits) {
            break;
        }
    }
    result.nodes = s.nodes();
    result.best = sample(&result.policy, settings.seed).map(Action::Single);
    result.pv = result.best.into_iter().collect();
    result
}

/// [`search_simultaneous_root`] at a wide node (`oracle.rs`): each iteration runs the
/// double oracle to convergence with cells searched one ply shallower. The policy holds
/// the side's restricted declarations (every other one has probability 0); one `info` line
/// per declaration (up to MultiPV), scored by its payoff against the opponent's strategy.
/// An iteration cut short by a limit still counts when it is the first: its last
/// restricted solve is played. With no solve at all, the side's start is played: a
/// declaration the screen found not to lose at once (uniform over every declaration when
/// it found none).
fn search_wide_root<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    side: Player,
    limits: &Limits,
    settings: &Settings,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut result = empty_result();
    let mut rows = Vec::new();
    let mut cols = Vec::new();
    root.legal_moves(Player::First, &mut rows);
    root.legal_moves(Player::Second, &mut cols);
    if rows.is_empty() || cols.is_empty() {
        return result;
    }
    // Before any iteration and outside the node budget: each side's restricted game starts
    // from a declaration that does not lose at once (`screen.rs`). While both sides' do,
    // best responses never add one that does (against declarations that do not lose at once
    // it loses at once, the least a declaration can get), so no restricted solve gives one
    // a probability.
    let start_row = screen::safe_wide_declaration(root, Player::First, &rows, &cols);
    let start_col = screen::safe_wide_declaration(root, Player::Second, &rows, &cols);
    let (mine, mine_start) = if side == Player::First {
        (&rows, start_row)
    } else {
        (&cols, start_col)
    };
    result.policy = match mine_start {
        Some(k) => vec![(mine[k], 1.0)],
        None => {
            let uniform = 1.0 / mine.len() as f64;
            mine.iter().map(|&m| (m, uniform)).collect()
        }
    };
    let key = root.hash();
    let start_rows: Vec<G::Move> = start_row.map(|i| rows[i]).into_iter().collect();
    let start_cols: Vec<G::Move> = start_col.map(|j| cols[j]).into_iter().collect();
    let mut o = Oracle::new(rows, cols, (&start_rows, &start_cols));
    s.push_root(key);
    for depth in crate::smp::depths(s.thread, limits.last_depth()) {
        s.root_depth = depth;
        o.restart();
        let done = s.run_oracle(&mut o, root, depth as i32, 0);
        if !(done || depth == 1 && o.solved()) {
            break;
        }
        s.keep_wide_start(key, &o);
        let lines = o.lines(side);
        result.policy = lines.iter().map(|&(m, p, _)| (m, p)).collect();
        result.score = side.sign() * quartet_core::matrix::round_value(o.value);
        result.depth = depth;
        for (k, &(m, _, pay)) in lines.iter().take(settings.multipv.max(1)).enumerate() {
            report(&Info {
                depth,
                seldepth: s.seldepth.max(depth),
                multipv: k + 1,
                score: quartet_core::matrix::round_value(pay),
                nodes: s.nodes(),
                time: s.started.elapsed(),
                hashfull: s.tt.hashfull(),
                pv: vec![Action::Single(m)],
            });
        }
        if !done || !may_continue(s, limits) {
            break;
        }
    }
    result.nodes = s.nodes();
    result.best = sample(&result.policy, settings.seed).map(Action::Single);
    result.pv = result.best.into_iter().collect();
    result
}

/// The most probable row and column of a solved frame (the first pair to try next time).
fn most_probable<M: Copy>(f: &Frame<M>) -> (usize, usize) {
    let argmax = |len: usize, p: &dyn Fn(usize) -> f64| {
        (0..len).max_by(|&a, &b| p(a).total_cmp(&p(b))).unwrap_or(0)
    };
    (
        argmax(f.rows.len(), &|i| f.x(i)),
        argmax(f.cols.len(), &|j| f.y(j)),
    )
}

/// Each of `side`'s declarations (by index) with its probability and its payoff (own
/// view) against the opponent's strategy, most probable first, then best payoff first.
/// Cells outside the final restricted game are only bounded: their payoffs use the bound
/// in the declaration's favour.
fn lines<M: Copy>(f: &Frame<M>, side: Player) -> Vec<(usize, f64, f64)> {
    let (own_len, other_len) = match side {
        Player::First => (f.rows.len(), f.cols.len()),
        Player::Second => (f.cols.len(), f.rows.len()),
    };
    let payoff = |k: usize| -> f64 {
        (0..other_len)
            .map(|o| {
                let (i, j, q) = match side {
                    Player::First => (k, o, f.y(o)),
                    Player::Second => (o, k, f.x(o)),
                };
                if q <= 0.0 {
                    return 0.0;
                }
                let (l, u) = f.bounds(i, j);
                let favourable = match side {
                    Player::First => u,
                    Player::Second => -l,
                };
                q * f64::from(favourable)
            })
            .sum()
    };
    let probability = |k: usize| match side {
        Player::First => f.x(k),
        Player::Second => f.y(k),
    };
    let mut lines: Vec<(usize, f64, f64)> = (0..own_len)
        .map(|k| (k, probability(k), payoff(k)))
        .collect();
    lines.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
    lines
}

/// A declaration drawn from `policy` with a generator seeded by `seed`.
fn sample<M: Copy>(policy: &[(M, f64)], seed: u64) -> Option<M> {
    let total: f64 = policy.iter().map(|&(_, p)| p).sum();
    let mut x = ChaCha8Rng::seed_from_u64(seed).random::<f64>() * total;
    for &(m, p) in policy {
        if x < p {
            return Some(m);
        }
        x -= p;
    }
    policy
        .iter()
        .rev()
        .find(|&&(_, p)| p > 0.0)
        .map(|&(m, _)| m)
}

/// `declarations` split into those whose flag in `loses` is false and those whose flag is
/// true, each in order.
fn split<M: Copy>(declarations: Vec<M>, loses: &[bool]) -> (Vec<M>, Vec<M>) {
    let mut kept = Vec::new();
    let mut out = Vec::new();
    for (m, &l) in declarations.into_iter().zip(loses) {
        if l { out.push(m) } else { kept.push(m) }
    }
    (kept, out)
}
