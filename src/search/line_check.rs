//! The column and row checks of a simultaneous node's double oracle (step 3 of
//! [`super::simultaneous`]): whether every line outside the restricted game keeps to a
//! threshold against the other player's strategy, each proved by windowed searches of the
//! cells in that strategy's support.

use super::frame::Frame;
use super::searcher::Searcher;
use super::simultaneous::{At, SLACK};
use crate::eval::Evaluate;

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
            match self.prove_line(f, pos, at, LineProof { line, target, row })? {
                Some(sum) if row => proved = proved.max(sum),
                Some(sum) => proved = proved.min(sum),
                None => return Some(Check::Joins(line)),
            }
        }
        Some(Check::Proved(proved))
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
        LineProof { line, target, row }: LineProof,
    ) -> Option<Option<f64>> {
        let (lo, hi) = G::value_bounds();
        // The sums in the prover's favour (`good`, with the cells at their bounds on the
        // prover's side) and against it (`bad`). For a column the prover is the first
        // player with pessimistic sum `bad = Σ x L` and optimistic `good = Σ x U`; signs
        // flip the row case into the same shape.
        let s = if row { -1.0 } else { 1.0 };
        let sums = |f: &Frame<G::Move>| -> (f64, f64) {
            let (mut sl, mut su) = (0.0, 0.0);
            let len = if row { f.m } else { f.n };
            for k in 0..len {
                let (p, l, u) = if row {
                    (f.y(k), f.lower(line, k), f.upper(line, k))
                } else {
                    (f.x(k), f.lower(k, line), f.upper(k, line))
                };
                if p > 0.0 {
                    sl += p * f64::from(l);
                    su += p * f64::from(u);
                }
            }
            (sl, su)
        };
        // In the prover's orientation: `sure` must reach `goal`, `hope` below it refutes.
        let oriented =
            |(sl, su): (f64, f64)| -> (f64, f64) { if row { (-su, -sl) } else { (sl, su) } };
        let goal = s * target;
        let (mut sure, mut hope) = oriented(sums(f));
        let support = if row { f.c_len } else { f.r_len };
        let clamp = |v: f64| v.clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
        // Probes: each cell against the target itself (a null window). If every cell
        // reaches it, so does the sum (the weights sum to 1); if none does, the sum fails;
        // otherwise the windows below start from bounds on both sides of the target.
        let probe = if row {
            let top = clamp(target.floor());
            (top, top + 1)
        } else {
            let bottom = clamp(target.ceil());
            (bottom - 1, bottom)
        };
        for k in 0..support {
            if sure >= goal || hope < goal {
                break;
            }
            let other = if row {
                f.restricted_col(k)
            } else {
                f.restricted_row(k)
            };
            let p = if row { f.y(other) } else { f.x(other) };
            if p > 0.0 {
                let (i, j) = if row { (line, other) } else { (other, line) };
                self.cell(f, pos, (i, j), at, probe)?;
                (sure, hope) = oriented(sums(f));
            }
        }
        for k in 0..support {
            if sure >= goal {
                break;
            }
            if hope < goal {
                return Some(None);
            }
            let other = if row {
                f.restricted_col(k)
            } else {
                f.restricted_row(k)
            };
            let p = if row { f.y(other) } else { f.x(other) };
            if p <= 0.0 {
                continue;
            }
            let (i, j) = if row { (line, other) } else { (other, line) };
            let (l, u) = f.bounds(i, j);
            if l == u {
                continue;
            }
            // Oriented cell bounds: the prover wants the cell high (column) or low (row).
            let (cl, cu) = if row {
                (-f64::from(u), -f64::from(l))
            } else {
                (f64::from(l), f64::from(u))
            };
            // Below `a` the sum fails even with the others at their best; from `b` on it
            // holds even with the others at their worst.
            let a = (goal - (hope - p * cu)) / p;
            let b = (goal - (sure - p * cl)) / p;
            let (wa, wb) = if row {
                // Oriented back to first-player values: the cell must be at most -a.
                let top = (-a).floor().clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
                let bottom = (-b).floor().clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
                (bottom, (top + 1).max(bottom + 1))
            } else {
                let wa = (a.ceil() - 1.0).clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
                let wb = b.ceil().clamp(f64::from(lo - 1), f64::from(hi + 1)) as i32;
                (wa, wb.max(wa + 1))
            };
            self.cell(f, pos, (i, j), at, (wa, wb))?;
            (sure, hope) = oriented(sums(f));
        }
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
