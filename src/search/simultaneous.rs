//! Simultaneous nodes: the value of the zero-sum matrix game whose entries are the
//! children's values (backward induction), with alpha-beta bounds from the two serialised
//! games (Bošanský et al. 2016, "BI with serialized alpha-beta bounds").
//!
//! If the first player had to commit first, the second could answer: the value of that
//! serialised game, `max_i min_j`, is a lower bound of the true value; committing second
//! gives the upper bound `min_j max_i`. Both are computed by ordinary alpha-beta over the
//! serialised tree (cheap). When a bound already decides the window the node is cut; when
//! the bounds meet the value is known without building the matrix; otherwise every cell is
//! searched exactly and the matrix game is solved by [`super::matrix`].

use super::searcher::Searcher;
use super::tt::{Bound, Entry};
use crate::eval::Evaluate;
use crate::game::{Node, Player};

/// Hash keys of the serialised games, so that their values never pass for the true value
/// in the transposition table.
const SERIAL_KEYS: [u64; 2] = [0x5E71_A1F1_2F3C_0001, 0x5E71_A1F1_2F3C_0002];

impl<G: Evaluate> Searcher<'_, G> {
    /// A simultaneous node with `depth > 0` (see [`Searcher::value`]).
    pub(crate) fn simultaneous(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let key = pos.hash();
        if let Some(v) = self.tt_cut(key, ply, depth, alpha, beta) {
            return v;
        }
        // Lower bound: the first player commits first.
        let lower = self.serial(pos, depth, ply, alpha, beta, Player::First);
        if self.aborted {
            return 0;
        }
        if lower >= beta {
            self.store(key, ply, depth, lower, Bound::Lower);
            return lower;
        }
        let upper = self.serial(pos, depth, ply, alpha, beta, Player::Second);
        if self.aborted {
            return 0;
        }
        if upper <= alpha {
            self.store(key, ply, depth, upper, Bound::Upper);
            return upper;
        }
        // Inside the window both serialised values are exact; equal, they are the value.
        if lower > alpha && upper < beta && lower == upper {
            self.store(key, ply, depth, lower, Bound::Exact);
            return lower;
        }
        let Some(value) = self.solve_node(pos, depth, ply) else {
            return 0;
        };
        self.store(key, ply, depth, value, Bound::Exact);
        value
    }

    /// Searches every cell of `pos`'s matrix exactly at `depth - 1` and solves the matrix
    /// game; the strategies stay in `self.solver`. `None` if the search was aborted.
    pub(crate) fn solve_node(&mut self, pos: &G, depth: i32, ply: usize) -> Option<i32> {
        let (lo, hi) = G::value_bounds();
        let mut rows = std::mem::take(&mut self.moves[ply]);
        let mut cols = std::mem::take(&mut self.second_moves[ply]);
        let mut matrix = std::mem::take(&mut self.matrices[ply]);
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        matrix.clear();
        'cells: for &a in &rows {
            for &b in &cols {
                let mut child = pos.clone();
                child.play_joint(a, b);
                let v = self.value(&child, depth - 1, ply + 1, lo - 1, hi + 1);
                if self.aborted {
                    break 'cells;
                }
                matrix.push(f64::from(v));
            }
        }
        let value = (!self.aborted && !rows.is_empty() && !cols.is_empty())
            .then(|| self.solver.solve(&matrix, rows.len(), cols.len()).round() as i32);
        self.moves[ply] = rows;
        self.second_moves[ply] = cols;
        self.matrices[ply] = matrix;
        value
    }

    /// The value of the serialised game in which `first` commits first at every
    /// simultaneous node (plain alpha-beta, fail-soft, first-player values).
    fn serial(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        first: Player,
    ) -> i32 {
        if !self.enter_node(ply) {
            return 0;
        }
        match pos.node() {
            Node::Terminal(outcome) => return pos.terminal_value(outcome, ply as u32),
            Node::Simultaneous if depth > 0 => {}
            Node::Simultaneous => return pos.evaluate(),
            // Other node kinds below a simultaneous one are searched as usual.
            _ => return self.value(pos, depth, ply, alpha, beta),
        }
        let key = pos.hash() ^ SERIAL_KEYS[first.index()];
        if let Some(v) = self.tt_cut(key, ply, depth, alpha, beta) {
            return v;
        }
        let mut outer_moves = std::mem::take(&mut self.moves[ply]);
        let mut inner_moves = std::mem::take(&mut self.second_moves[ply]);
        pos.legal_moves(first, &mut outer_moves);
        pos.legal_moves(first.other(), &mut inner_moves);
        // The outer player maximises its own view: sign s turns first-player values to it.
        let s = first.sign();
        let (mut a, b) = if s > 0 {
            (alpha, beta)
        } else {
            (-beta, -alpha)
        };
        let a0 = a;
        let mut best = i32::MIN + 1;
        'outer: for &x in &outer_moves {
            // The inner player answers x, minimising the outer player's view.
            let mut worst = i32::MAX;
            let mut inner_b = b;
            for &y in &inner_moves {
                let mut child = pos.clone();
                if first == Player::First {
                    child.play_joint(x, y);
                } else {
                    child.play_joint(y, x);
                }
                let (lo, hi) = if s > 0 { (a, inner_b) } else { (-inner_b, -a) };
                let v = s * self.serial(&child, depth - 1, ply + 1, lo, hi, first);
                if self.aborted {
                    break 'outer;
                }
                worst = worst.min(v);
                inner_b = inner_b.min(v);
                if worst <= a {
                    break;
                }
            }
            best = best.max(worst);
            a = a.max(best);
            if best >= b {
                break;
            }
        }
        self.moves[ply] = outer_moves;
        self.second_moves[ply] = inner_moves;
        if self.aborted {
            return 0;
        }
        let bound = if best >= b {
            Bound::Lower
        } else if best > a0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let bound = match (s > 0, bound) {
            (false, Bound::Lower) => Bound::Upper,
            (false, Bound::Upper) => Bound::Lower,
            (_, b) => b,
        };
        self.store(key, ply, depth, s * best, bound);
        s * best
    }

    /// A transposition-table value that settles the window, if any.
    fn tt_cut(&self, key: u64, ply: usize, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let e = self.tt.probe(key, ply as u32)?;
        let cut = self.features.tt_cutoffs
            && e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.value >= beta,
                Bound::Upper => e.value <= alpha,
            };
        cut.then_some(e.value)
    }

    fn store(&self, key: u64, ply: usize, depth: i32, value: i32, bound: Bound) {
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
    }
}
