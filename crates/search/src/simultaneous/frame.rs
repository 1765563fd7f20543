//! The working state of one simultaneous node's double-oracle solve (see
//! [`crate::simultaneous`]): both players' declarations, the bounds of every cell, the
//! restricted game's rows and columns, and the strategies of its last solves, in flat
//! buffers that the searcher keeps per ply.

use quartet_core::matrix::MatrixSolver;

/// The state of one node's solve, kept in the searcher's per-ply buffers (taken at the
/// start and given back at the end, so the search does not allocate once they have grown).
pub(crate) struct Frame<M> {
    /// The first player's declarations (rows), in move generation order.
    pub rows: Vec<M>,
    /// The second player's declarations (columns), in move generation order.
    pub cols: Vec<M>,
    pub(super) n: usize,
    pub(super) m: usize,
    /// `[L: n·m][U: n·m][row order: n][column order: m][R: n][C: m]`.
    pub(super) ints: Vec<i32>,
    /// `[x: n][y: m][restricted matrix: n·m]`.
    pub(super) reals: Vec<f64>,
    pub(super) r_len: usize,
    pub(super) c_len: usize,
}

impl<M: Copy> Frame<M> {
    pub(super) fn lower(&self, i: usize, j: usize) -> i32 {
        self.ints[i * self.m + j]
    }

    pub(super) fn upper(&self, i: usize, j: usize) -> i32 {
        self.ints[self.n * self.m + i * self.m + j]
    }

    pub(super) fn set_bounds(&mut self, i: usize, j: usize, l: i32, u: i32) {
        let nm = self.n * self.m;
        self.ints[i * self.m + j] = l;
        self.ints[nm + i * self.m + j] = u;
    }

    pub(super) fn row_order(&self, k: usize) -> usize {
        self.ints[2 * self.n * self.m + k] as usize
    }

    pub(super) fn col_order(&self, k: usize) -> usize {
        self.ints[2 * self.n * self.m + self.n + k] as usize
    }

    pub(super) fn restricted_rows_offset(&self) -> usize {
        2 * self.n * self.m + self.n + self.m
    }

    pub(super) fn restricted_cols_offset(&self) -> usize {
        self.restricted_rows_offset() + self.n
    }

    /// The `k`-th row of the restricted game.
    pub fn restricted_row(&self, k: usize) -> usize {
        self.ints[self.restricted_rows_offset() + k] as usize
    }

    /// The `k`-th column of the restricted game.
    pub fn restricted_col(&self, k: usize) -> usize {
        self.ints[self.restricted_cols_offset() + k] as usize
    }

    pub(super) fn has_row(&self, i: usize) -> bool {
        (0..self.r_len).any(|k| self.restricted_row(k) == i)
    }

    pub(super) fn has_col(&self, j: usize) -> bool {
        (0..self.c_len).any(|k| self.restricted_col(k) == j)
    }

    pub(super) fn add_row(&mut self, i: usize) {
        let at = self.restricted_rows_offset() + self.r_len;
        self.ints[at] = i as i32;
        self.r_len += 1;
    }

    pub(super) fn add_col(&mut self, j: usize) {
        let at = self.restricted_cols_offset() + self.c_len;
        self.ints[at] = j as i32;
        self.c_len += 1;
    }

    /// The first player's probability of row `i` (0 outside the restricted game).
    pub fn x(&self, i: usize) -> f64 {
        self.reals[i]
    }

    /// The second player's probability of column `j` (0 outside the restricted game).
    pub fn y(&self, j: usize) -> f64 {
        self.reals[self.n + j]
    }

    /// Bounds `(L, U)` of the value of cell `(i, j)`.
    pub fn bounds(&self, i: usize, j: usize) -> (i32, i32) {
        (self.lower(i, j), self.upper(i, j))
    }

    pub(super) fn restricted_exact(&self) -> bool {
        (0..self.r_len).all(|a| {
            (0..self.c_len).all(|b| {
                let (i, j) = (self.restricted_row(a), self.restricted_col(b));
                self.lower(i, j) == self.upper(i, j)
            })
        })
    }

    /// Solves the restricted game on `L` (`pessimistic`) or `U` into `solver`; the value.
    pub(super) fn solve_restricted(&mut self, solver: &mut MatrixSolver, pessimistic: bool) -> f64 {
        let start = self.n + self.m;
        self.reals.truncate(start);
        for a in 0..self.r_len {
            for b in 0..self.c_len {
                let (i, j) = (self.restricted_row(a), self.restricted_col(b));
                let v = if pessimistic {
                    self.lower(i, j)
                } else {
                    self.upper(i, j)
                };
                self.reals.push(f64::from(v));
            }
        }
        solver.solve(&self.reals[start..], self.r_len, self.c_len)
    }

    /// Copies the row (`rows`) or column strategy of `solver`'s last solve into `x` or `y`.
    pub(super) fn keep_strategy(&mut self, solver: &MatrixSolver, rows: bool) {
        let (offset, len) = if rows { (0, self.n) } else { (self.n, self.m) };
        self.reals[offset..offset + len].fill(0.0);
        if rows {
            for (a, &p) in solver.row_strategy().iter().enumerate() {
                let i = self.restricted_row(a);
                self.reals[i] = p;
            }
        } else {
            for (b, &q) in solver.col_strategy().iter().enumerate() {
                let j = self.restricted_col(b);
                self.reals[self.n + j] = q;
            }
        }
    }
}
