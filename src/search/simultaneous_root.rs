//! The root of a simultaneous node: iterative deepening over the root's matrix game, the
//! asked side's equilibrium strategy, and a declaration sampled from it.

use super::root::{empty_result, max_depth, may_continue};
use super::searcher::Searcher;
use super::{Info, Limits, SearchResult, Settings};
use crate::eval::Evaluate;
use crate::game::{Action, Player};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Iterative deepening at a simultaneous root for `settings.side`: each iteration solves
/// the root's matrix game exactly; the result holds the side's equilibrium strategy and a
/// declaration sampled from it with `settings.seed`. Reports one line per declaration
/// (up to MultiPV), most probable first, each scored by its payoff against the opponent's
/// equilibrium strategy (for declarations in the support, the game value).
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
    let mut first = Vec::new();
    let mut second = Vec::new();
    root.legal_moves(Player::First, &mut first);
    root.legal_moves(Player::Second, &mut second);
    if first.is_empty() || second.is_empty() {
        return result;
    }
    let mine = if side == Player::First {
        &first
    } else {
        &second
    };
    // Before any iteration completes: uniform over the side's declarations.
    let uniform = 1.0 / mine.len() as f64;
    result.policy = mine.iter().map(|&m| (m, uniform)).collect();
    s.push_root(root.hash());
    for depth in 1..=max_depth(limits) {
        let Some(value) = s.solve_node(root, depth as i32, 0) else {
            break;
        };
        let (own, other) = match side {
            Player::First => (s.solver.row_strategy(), s.solver.col_strategy()),
            Player::Second => (s.solver.col_strategy(), s.solver.row_strategy()),
        };
        let matrix = &s.matrices[0];
        let cols = second.len();
        // Each own declaration's payoff against the opponent's strategy, own view.
        let payoff = |i: usize| -> f64 {
            let sum: f64 = other
                .iter()
                .enumerate()
                .map(|(j, &q)| {
                    let cell = match side {
                        Player::First => matrix[i * cols + j],
                        Player::Second => matrix[j * cols + i],
                    };
                    q * cell
                })
                .sum();
            side.sign() as f64 * sum
        };
        let mut lines: Vec<(usize, f64, f64)> =
            (0..mine.len()).map(|i| (i, own[i], payoff(i))).collect();
        lines.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
        result.policy = lines.iter().map(|&(i, p, _)| (mine[i], p)).collect();
        result.score = side.sign() * value;
        result.depth = depth;
        for (k, &(i, _, pay)) in lines.iter().take(settings.multipv.max(1)).enumerate() {
            report(&Info {
                depth,
                seldepth: s.seldepth.max(depth),
                multipv: k + 1,
                score: pay.round() as i32,
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
