//! Chance nodes: the expectation of the children's values, with Star1 pruning (Ballard
//! 1983): once the outcomes searched so far, with the unsearched ones assumed at the
//! game's worst (or best) possible value, already decide that the expectation is outside
//! the window, the node is cut. Each child is searched with the narrowest window that can
//! still change the decision. Chance edges cost no depth.

use super::searcher::Searcher;
use super::tt::{Bound, Entry};
use crate::eval::Evaluate;

impl<G: Evaluate> Searcher<'_, G> {
    /// A chance node with `depth > 0` (see [`Searcher::value`]).
    pub(crate) fn chance(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let key = pos.hash();
        if let Some(e) = self.tt.probe(key, ply as u32)
            && self.features.tt_cutoffs
            && e.depth >= depth
        {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
            if cut {
                return e.value;
            }
        }
        let (lo, hi) = G::value_bounds();
        let (lo, hi) = (i64::from(lo), i64::from(hi));
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        pos.chance_outcomes(&mut outcomes);
        let total: i64 = outcomes.iter().map(|&(_, w)| i64::from(w)).sum();
        let (alpha_w, beta_w) = (i64::from(alpha) * total, i64::from(beta) * total);
        let mut sum = 0i64;
        let mut remaining = total;
        let mut result = None;
        for &(m, w) in &outcomes {
            let w = i64::from(w);
            remaining -= w;
            // The child's value v decides a fail-low if sum + w·v + remaining·hi <= alpha·W,
            // and a fail-high if sum + w·v + remaining·lo >= beta·W.
            let a = (alpha_w - sum - remaining * hi).div_euclid(w).max(lo - 1);
            let b = ceil_div(beta_w - sum - remaining * lo, w).min(hi + 1);
            let mut child = pos.clone();
            child.play(m);
            let v = self.value(&child, depth, ply + 1, a as i32, b as i32);
            if self.aborted {
                break;
            }
            sum += w * i64::from(v);
            if sum + remaining * hi <= alpha_w {
                result = Some(((sum + remaining * hi).div_euclid(total), Bound::Upper));
                break;
            }
            if sum + remaining * lo >= beta_w {
                result = Some((ceil_div(sum + remaining * lo, total), Bound::Lower));
                break;
            }
        }
        self.outcomes[ply] = outcomes;
        if self.aborted {
            return 0;
        }
        let (value, bound) =
            result.unwrap_or(((sum as f64 / total as f64).round() as i64, Bound::Exact));
        let value = value as i32;
        self.tt.store(
            key,
            ply as u32,
            Entry {
                move_code: None,
                value,
                depth,
                bound,
            },
        );
        value
    }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}
