//! The column and row checks of a simultaneous node's double oracle (step 3 of
//! [`crate::simultaneous`]): whether every line outside the restricted game keeps to a
//! threshold against the other player's strategy, each proved by windowed searches of the
//! cells in that strategy's support.

use super::frame::Frame;
use super::terms::{At, SLACK};
use crate::searcher::Searcher;
use quartet_core::eval::Evaluate;

/// Plies a line's cells are searched shallower first (see `keeps_when_reduced`).
const LINE_REDUCTION: i32 = 1;

/// A player with fewer declarations than this has no line reduced (its game is small).
const MIN_LINES_TO_REDUCE: usize = 8;

/// The largest support whose cells a reduced line proof saves and restores.
const SAVED_CELLS: usize = 16;

/// The result of a column or row check.
pub(super) enum Check {
    /// Every row or column outside the restricted game keeps to the threshold; the bound on
    /// the node's value that this proves.
    Proved(f64),
    /// This row or column does better than the threshold for its player: it joins.
    Joins(usize),
}

/// One line to prove: column `line` against the row strategy (`row == false`, the sum must
/// reach `target`) or row `line` against the column strategy (`row == true`, the sum must
/// stay at or below `target`).
#[derive(Clone, Copy, Debug)]
struct LineProof {
    line: usize,
    target: f64,
    row: bool,
}

impl<G: Evaluate> Searcher<'_, G> {
    /// The check of one player's lines outside the restricted game: with `row == false`,
    /// whether every column concedes at least `threshold` against the row strategy `x`;
    /// with `row == true`, whether every row gains at most `threshold` against the column
    /// strategy `y`. Else the first line that does not keep to it joins.
    pub(super) fn line_check(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        threshold: f64,
        row: bool,
    ) -> Option<Check> {
        let (target, mut proved, lines) = if row {
            (threshold + SLACK, f64::NEG_INFINITY, f.n)
        } else {
            (threshold - SLACK, f64::INFINITY, f.m)
        };
        for k in 0..lines {
            let line = if row { f.row_order(k) } else { f.col_order(k) };
            if (row && f.has_row(line)) || (!row && f.has_col(line)) {
                continue;
            }
            let proof = LineProof { line, target, row };
            if self.keeps_when_reduced(f, pos, at, proof)? {
                continue;
            }
            match self.prove_line(f, pos, at, proof)? {
                Some(sum) if row => proved = proved.max(sum),
                Some(sum) => proved = proved.min(sum),
                None => return Some(Check::Joins(line)),
            }
        }
        Some(Check::Proved(proved))
    }

    /// The line reduction: whether a line outside the restricted game keeps to its
    /// target when its cells are searched [`LINE_REDUCTION`] plies shallower. Then the
    /// check takes it as kept, as late-move reductions take a late move that fails low,
    /// and only a line that seems to beat its target is proved at full depth (it joins
    /// only if it beats it there too). Lines are not reduced at depth 1, nor for a player
    /// with fewer than [`MIN_LINES_TO_REDUCE`] declarations, whose game is small enough to
    /// solve exactly. The reduced searches leave the frame's cell bounds as they were, so
    /// every bound the frame keeps is one of a full-depth search, but at the root, where a
    /// kept line keeps the bounds of its reduced search for the report of its payoff. Only
    /// with `Features::reductions`.
    fn keeps_when_reduced(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        proof: LineProof,
    ) -> Option<bool> {
        let support = proof.support(f);
        let declarations = if proof.row { f.n } else { f.m };
        if !self.features.reductions
            || at.depth <= LINE_REDUCTION
            || declarations < MIN_LINES_TO_REDUCE
            || support > SAVED_CELLS
        {
            return Some(false);
        }
        let mut saved = [(0, 0); SAVED_CELLS];
        for (k, slot) in saved.iter_mut().enumerate().take(support) {
            let (i, j) = proof.member(f, k).1;
            *slot = f.bounds(i, j);
        }
        let reduced = At {
            depth: at.depth - LINE_REDUCTION,
            ..at
        };
        let kept = self.prove_line(f, pos, reduced, proof)?.is_some();
        if kept && at.ply == 0 {
            // The root reports each declaration's payoff from its cells' bounds: a kept
            // line keeps its reduced ones rather than none.
            return Some(true);
        }
        for (k, &(l, u)) in saved.iter().enumerate().take(support) {
            let (i, j) = proof.member(f, k).1;
            f.set_bounds(i, j, l, u);
        }
        Some(kept)
    }

    /// For a column `line` (`row == false`): proves `Σ x_i A(i, line) ≥ target` and returns
    /// a lower bound of the sum at least `target`, or `None` once the sum is certainly
    /// below. For a row (`row == true`): proves `Σ y_j A(line, j) ≤ target`, returning an
    /// upper bound of the sum, or `None` once it is certainly above. Each cell of the
    /// strategy's support is searched with the window that decides the sum whatever the
    /// other cells turn out to be within their bounds. `Some(None)`-style: the outer `None`
    /// means the search was aborted.
    fn prove_line(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        proof: LineProof,
    ) -> Option<Option<f64>> {
        let bounds = G::value_bounds();
        let goal = proof.goal();
        let (mut sure, mut hope) = proof.sums(f);
        let probe = proof.probe_window(bounds);
        for k in 0..proof.support(f) {
            if sure >= goal || hope < goal {
                break;
            }
            let (p, cell) = proof.member(f, k);
            if p > 0.0 {
                self.cell(f, pos, cell, at, probe)?;
                (sure, hope) = proof.sums(f);
            }
        }
        for k in 0..proof.support(f) {
            if sure >= goal {
                break;
            }
            if hope < goal {
                return Some(None);
            }
            let (p, cell) = proof.member(f, k);
            let (l, u) = f.bounds(cell.0, cell.1);
            if p <= 0.0 || l == u {
                continue;
            }
            let window = proof.deciding_window(p, (l, u), (sure, hope), bounds);
            self.cell(f, pos, cell, at, window)?;
            (sure, hope) = proof.sums(f);
        }
        let s = proof.sign();
        if sure >= goal {
            Some(Some(s * sure))
        } else if hope < goal {
            Some(None)
        } else {
            // Every cell is exact, so `sure == hope`: rounding noise only.
            Some(Some(s * sure))
                .filter(|_| sure >= goal - SLACK)
                .map_or(Some(None), Some)
        }
    }
}

impl LineProof {
    /// The prover's orientation: `+1` for a column (the first player proves a floor), `-1`
    /// for a row (the second player proves a ceiling), which turns the row case into the
    /// column's shape.
    fn sign(self) -> f64 {
        if self.row { -1.0 } else { 1.0 }
    }

    /// What `sure` must reach, in the prover's orientation.
    fn goal(self) -> f64 {
        self.sign() * self.target
    }

    /// `(sure, hope)`: the strategy's sum against the line with every cell at its bound
    /// against the prover (`sure`) and in its favour (`hope`), in the prover's orientation.
    /// `sure` reaching the goal proves it; `hope` below the goal refutes it.
    fn sums<M: Copy>(self, f: &Frame<M>) -> (f64, f64) {
        let (mut sl, mut su) = (0.0, 0.0);
        // Only the restricted game's lines can have a probability.
        for k in 0..self.support(f) {
            let (p, l, u) = if self.row {
                let j = f.restricted_col(k);
                (f.y(j), f.lower(self.line, j), f.upper(self.line, j))
            } else {
                let i = f.restricted_row(k);
                (f.x(i), f.lower(i, self.line), f.upper(i, self.line))
            };
            if p > 0.0 {
                sl += p * f64::from(l);
                su += p * f64::from(u);
            }
        }
        if self.row { (-su, -sl) } else { (sl, su) }
    }

    /// How many lines of the restricted game the strategy ranges over.
    fn support<M: Copy>(self, f: &Frame<M>) -> usize {
        if self.row { f.c_len } else { f.r_len }
    }

    /// The `k`-th line of the support: its probability and the cell it makes with this line.
    fn member<M: Copy>(self, f: &Frame<M>, k: usize) -> (f64, (usize, usize)) {
        if self.row {
            let other = f.restricted_col(k);
            (f.y(other), (self.line, other))
        } else {
            let other = f.restricted_row(k);
            (f.x(other), (other, self.line))
        }
    }

    /// The null window at the target, for the first probes: if every cell reaches it, so
    /// does the sum (the weights sum to 1); if none does, the sum fails; otherwise the
    /// deciding windows start from bounds on both sides of the target.
    fn probe_window(self, (lo, hi): (i32, i32)) -> (i32, i32) {
        let clamp = |v: f64| v.clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
        if self.row {
            let top = clamp(self.target.floor());
            (top, top + 1)
        } else {
            let bottom = clamp(self.target.ceil());
            (bottom - 1, bottom)
        }
    }

    /// The first-player window for a cell of probability `p` and bounds `(l, u)` that
    /// decides the sum whatever the other cells turn out to be within their bounds.
    fn deciding_window(
        self,
        p: f64,
        (l, u): (i32, i32),
        (sure, hope): (f64, f64),
        (lo, hi): (i32, i32),
    ) -> (i32, i32) {
        let goal = self.goal();
        let clamp = |v: f64| v.clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
        // Oriented cell bounds: the prover wants the cell high (column) or low (row).
        let (cl, cu) = if self.row {
            (-f64::from(u), -f64::from(l))
        } else {
            (f64::from(l), f64::from(u))
        };
        // Below `a` the sum fails even with the others at their best; from `b` on it
        // holds even with the others at their worst.
        let a = (goal - (hope - p * cu)) / p;
        let b = (goal - (sure - p * cl)) / p;
        if self.row {
            // Oriented back to first-player values: the cell must be at most -a.
            let top = clamp((-a).floor());
            let bottom = clamp((-b).floor());
            (bottom, (top + 1).max(bottom + 1))
        } else {
            let wa = clamp(a.ceil() - 1.0);
            let wb = clamp(b.ceil());
            (wa, wb.max(wa + 1))
        }
    }
}
