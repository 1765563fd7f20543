//! Zero-sum matrix games: the value and optimal mixed strategies of a payoff matrix, used by the
//! simultaneous-move nodes of the search and by Apocalypse's exact solver. A leaf: it
//! knows no game and no search.
//!
//! The row player maximises, the column player minimises. A pure saddle point (which covers
//! every 1×N and N×1 matrix) is found by scanning the row minima and column maxima; otherwise
//! the game is solved exactly as a linear programme by the classic reduction: shift and scale
//! the payoffs into `[1, 2]`, so the value is positive, and solve the column player's
//! standard-form LP `max Σw subject to A·w ≤ 1, w ≥ 0` with a dense tableau simplex. Its
//! optimum is `1/value`, `w·value` is the column strategy and the dual prices of the rows
//! (the reduced costs of the slacks) times `value` are the row strategy.
//!
//! Pivoting uses Dantzig's rule and falls back to Bland's rule, which cannot cycle, after a
//! run of degenerate pivots. [`MatrixSolver`] keeps its buffers, so solving does not allocate
//! once they have grown to the largest matrix seen.

/// A solved matrix game: the value for the row player and an optimal strategy of each side.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The game value (the row player's expected payoff under optimal play by both).
    pub value: f64,
    /// The row player's optimal mixed strategy: non-negative, summing to 1.
    pub row_strategy: Vec<f64>,
    /// The column player's optimal mixed strategy: non-negative, summing to 1.
    pub col_strategy: Vec<f64>,
}

/// Solves the matrix game `payoff` (row-major, `rows × cols`, payoffs to the row player).
/// Allocates the result; the search uses a reused [`MatrixSolver`] instead.
///
/// Panics if `rows` or `cols` is 0 or `payoff.len() != rows * cols`. Payoffs must be finite.
pub fn solve(payoff: &[f64], rows: usize, cols: usize) -> Solution {
    let mut solver = MatrixSolver::new();
    let value = solver.solve(payoff, rows, cols);
    Solution {
        value,
        row_strategy: solver.row_strategy().to_vec(),
        col_strategy: solver.col_strategy().to_vec(),
    }
}

/// Rounds a game value to the integer scale of the search: to the nearest integer, halves
/// upwards, and values within 1e-7 below a half count as that half. Floating-point noise of
/// the simplex (far below 1e-7 on payoffs of up to ~10^5) therefore cannot make two solves of
/// the same game, or of a game and its restriction to an equilibrium's support, round
/// differently.
pub fn round_value(v: f64) -> i32 {
    (v + 0.5 + 1e-7).floor() as i32
}

/// A reusable solver: call [`MatrixSolver::solve`], then read the strategies of that solve.
#[derive(Clone, Debug, Default)]
pub struct MatrixSolver {
    tableau: Vec<f64>,
    basis: Vec<usize>,
    row: Vec<f64>,
    col: Vec<f64>,
}

/// Pivot elements and ratio-test candidates must exceed this (payoffs are scaled to [1, 2]).
const PIVOT_EPS: f64 = 1e-11;

/// A reduced cost below `-COST_EPS` still improves the objective.
const COST_EPS: f64 = 1e-12;

/// The simplex stops after this many pivots per row and column (far above what any game
/// needs: a basis change per pivot, usually fewer than `rows + cols` in all).
const ITERATION_CAP_PER_SIZE: usize = 50;

impl MatrixSolver {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Solves the game `payoff` (row-major, `rows × cols`, payoffs to the row player, which
    /// maximises) and returns its value; the optimal strategies are then available from
    /// [`MatrixSolver::row_strategy`] and [`MatrixSolver::col_strategy`].
    ///
    /// Panics if `rows` or `cols` is 0 or `payoff.len() != rows * cols`. Payoffs must be
    /// finite (the search's values are).
    pub fn solve(&mut self, payoff: &[f64], rows: usize, cols: usize) -> f64 {
        assert!(
            rows > 0 && cols > 0,
            "a matrix game needs a row and a column"
        );
        assert_eq!(payoff.len(), rows * cols, "payoff is not rows × cols");
        self.row.clear();
        self.row.resize(rows, 0.0);
        self.col.clear();
        self.col.resize(cols, 0.0);
        if let Some(value) = self.saddle_point(payoff, rows, cols) {
            return value;
        }
        let (lo, hi) = payoff
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &a| {
                (lo.min(a), hi.max(a))
            });
        // No saddle point means the entries are not all equal, so `hi > lo`.
        let scale = hi - lo;
        let inverse_value = self.simplex(payoff, rows, cols, lo, scale);
        normalise(&mut self.row);
        normalise(&mut self.col);
        (1.0 / inverse_value - 1.0) * scale + lo
    }

    /// The row player's optimal strategy of the last solve.
    pub fn row_strategy(&self) -> &[f64] {
        &self.row
    }

    /// The column player's optimal strategy of the last solve.
    pub fn col_strategy(&self) -> &[f64] {
        &self.col
    }

    /// A pure equilibrium if there is one: the first row whose minimum is the largest row
    /// minimum, against the first column whose maximum is the smallest column maximum, when
    /// those two numbers are equal.
    fn saddle_point(&mut self, payoff: &[f64], rows: usize, cols: usize) -> Option<f64> {
        let mut best_row = (0, f64::NEG_INFINITY);
        for i in 0..rows {
            let row_min = payoff[i * cols..(i + 1) * cols]
                .iter()
                .fold(f64::INFINITY, |m, &a| m.min(a));
            if row_min > best_row.1 {
                best_row = (i, row_min);
            }
        }
        let mut best_col = (0, f64::INFINITY);
        for j in 0..cols {
            let col_max = (0..rows)
                .map(|i| payoff[i * cols + j])
                .fold(f64::NEG_INFINITY, f64::max);
            if col_max < best_col.1 {
                best_col = (j, col_max);
            }
        }
        if best_row.1 < best_col.1 {
            return None;
        }
        self.row[best_row.0] = 1.0;
        self.col[best_col.0] = 1.0;
        Some(payoff[best_row.0 * cols + best_col.0])
    }

    /// Runs the simplex on `max Σw, A'·w ≤ 1, w ≥ 0` with `A' = 1 + (A - lo) / scale`, fills
    /// the unnormalised strategies and returns the optimum `Σw`.
    fn simplex(&mut self, payoff: &[f64], rows: usize, cols: usize, lo: f64, scale: f64) -> f64 {
        let width = cols + rows + 1;
        let rhs = width - 1;
        let objective = rows;
        self.tableau.clear();
        self.tableau.resize((rows + 1) * width, 0.0);
        self.basis.clear();
        self.basis.extend(cols..cols + rows);
        let t = &mut self.tableau;
        for i in 0..rows {
            for j in 0..cols {
                t[i * width + j] = 1.0 + (payoff[i * cols + j] - lo) / scale;
            }
            t[i * width + cols + i] = 1.0;
            t[i * width + rhs] = 1.0;
        }
        for j in 0..cols {
            t[objective * width + j] = -1.0;
        }
        let mut degenerate_run = 0;
        let bland_after = rows + cols;
        // Bland's rule terminates in exact arithmetic; the cap guards against rounding.
        for _ in 0..ITERATION_CAP_PER_SIZE * (rows + cols) {
            let use_bland = degenerate_run > bland_after;
            let Some(enter) =
                entering_column(&t[objective * width..objective * width + rhs], use_bland)
            else {
                break;
            };
            let Some(leave) = leaving_row(t, &self.basis, width, enter) else {
                // Unbounded: impossible with positive entries; keep the current basis.
                break;
            };
            if t[leave * width + rhs] <= PIVOT_EPS {
                degenerate_run += 1;
            } else {
                degenerate_run = 0;
            }
            pivot(t, width, leave, enter);
            self.basis[leave] = enter;
        }
        let optimum = t[objective * width + rhs];
        for (i, &b) in self.basis.iter().enumerate() {
            if b < cols {
                self.col[b] = t[i * width + rhs];
            }
        }
        for i in 0..rows {
            self.row[i] = t[objective * width + cols + i];
        }
        optimum
    }
}

/// The entering column: the most negative reduced cost (Dantzig), or the first negative one
/// (Bland); `None` at the optimum.
fn entering_column(costs: &[f64], bland: bool) -> Option<usize> {
    if bland {
        return costs.iter().position(|&c| c < -COST_EPS);
    }
    let mut best: Option<(usize, f64)> = None;
    for (j, &c) in costs.iter().enumerate() {
        if c < -COST_EPS && best.is_none_or(|(_, b)| c < b) {
            best = Some((j, c));
        }
    }
    best.map(|(j, _)| j)
}

/// The leaving row by the minimum ratio test; ties go to the smallest basic variable (which
/// with Bland's entering rule prevents cycling).
fn leaving_row(t: &[f64], basis: &[usize], width: usize, enter: usize) -> Option<usize> {
    let rhs = width - 1;
    let mut best: Option<(usize, f64)> = None;
    for (i, &b) in basis.iter().enumerate() {
        let a = t[i * width + enter];
        if a > PIVOT_EPS {
            let ratio = t[i * width + rhs] / a;
            let better = match best {
                None => true,
                Some((k, r)) => ratio < r - 1e-15 || (ratio <= r + 1e-15 && b < basis[k]),
            };
            if better {
                best = Some((i, ratio));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// Pivots the tableau (rows of `width`) on row `leave`, column `enter`.
fn pivot(t: &mut [f64], width: usize, leave: usize, enter: usize) {
    let (before, rest) = t.split_at_mut(leave * width);
    let (pivot_row, after) = rest.split_at_mut(width);
    let inverse = 1.0 / pivot_row[enter];
    for x in pivot_row.iter_mut() {
        *x *= inverse;
    }
    for row in before
        .chunks_exact_mut(width)
        .chain(after.chunks_exact_mut(width))
    {
        let factor = row[enter];
        if factor != 0.0 {
            for (x, &v) in row.iter_mut().zip(pivot_row.iter()) {
                *x -= factor * v;
            }
            row[enter] = 0.0;
        }
    }
}

/// Clamps rounding noise below zero and rescales to sum 1.
fn normalise(strategy: &mut [f64]) {
    for x in strategy.iter_mut() {
        *x = x.max(0.0);
    }
    let sum: f64 = strategy.iter().sum();
    if sum > 0.0 {
        for x in strategy.iter_mut() {
            *x /= sum;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The largest gain of a pure deviation from `s` by either player (0 at an equilibrium),
    /// after checking both strategies are distributions.
    fn equilibrium_gap(payoff: &[f64], rows: usize, cols: usize, s: &Solution) -> f64 {
        for strategy in [&s.row_strategy, &s.col_strategy] {
            assert!(strategy.iter().all(|&p| p >= 0.0));
            assert!((strategy.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert_eq!((s.row_strategy.len(), s.col_strategy.len()), (rows, cols));
        let a = |i: usize, j: usize| payoff[i * cols + j];
        // The best row against the column strategy, the best column against the row strategy.
        let best_row = (0..rows)
            .map(|i| (0..cols).map(|j| a(i, j) * s.col_strategy[j]).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        let best_col = (0..cols)
            .map(|j| (0..rows).map(|i| a(i, j) * s.row_strategy[i]).sum::<f64>())
            .fold(f64::INFINITY, f64::min);
        (best_row - s.value).max(s.value - best_col)
    }

    fn assert_close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }

    fn assert_all_close(a: &[f64], b: &[f64]) {
        assert_eq!(a.len(), b.len());
        for (&x, &y) in a.iter().zip(b) {
            assert_close(x, y);
        }
    }

    #[test]
    fn values_round_to_nearest_with_halves_up_despite_noise() {
        assert_eq!(round_value(0.49), 0);
        assert_eq!(round_value(0.5), 1);
        assert_eq!(round_value(0.5 - 1e-9), 1);
        assert_eq!(round_value(0.5 + 1e-9), 1);
        assert_eq!(round_value(-0.5), 0);
        assert_eq!(round_value(-0.5 - 1e-9), 0);
        assert_eq!(round_value(-0.51), -1);
        assert_eq!(round_value(-3.0 - 1e-9), -3);
        assert_eq!(round_value(9999.6), 10000);
    }

    #[test]
    fn matching_pennies_is_a_fair_coin_toss() {
        let payoff = [1.0, -1.0, -1.0, 1.0];
        let s = solve(&payoff, 2, 2);
        assert_close(s.value, 0.0);
        assert_all_close(&s.row_strategy, &[0.5, 0.5]);
        assert_all_close(&s.col_strategy, &[0.5, 0.5]);
    }

    #[test]
    fn rock_paper_scissors_mixes_evenly() {
        let payoff = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let s = solve(&payoff, 3, 3);
        assert_close(s.value, 0.0);
        let third = 1.0 / 3.0;
        assert_all_close(&s.row_strategy, &[third; 3]);
        assert_all_close(&s.col_strategy, &[third; 3]);
    }

    #[test]
    fn a_saddle_point_gives_pure_strategies() {
        // Row minima 1, 3, 0: row 1 guarantees 3. Column maxima 5, 3, 6: column 1 concedes 3.
        let payoff = [1.0, 2.0, 6.0, 5.0, 3.0, 4.0, 0.0, 1.0, 2.0];
        let s = solve(&payoff, 3, 3);
        assert_eq!(s.value, 3.0);
        assert_eq!(s.row_strategy, vec![0.0, 1.0, 0.0]);
        assert_eq!(s.col_strategy, vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn a_two_by_two_game_solved_by_hand() {
        // [[3, -1], [-2, 1]]: no saddle point. The row mix p on row 0 equalises the columns:
        // 3p - 2(1-p) = -p + (1-p) → 5p - 2 = 1 - 2p → p = 3/7, value 5·3/7 - 2 = 1/7.
        // The column mix q on column 0: 3q - (1-q) = -2q + (1-q) → 4q - 1 = 1 - 3q → q = 2/7.
        let payoff = [3.0, -1.0, -2.0, 1.0];
        let s = solve(&payoff, 2, 2);
        assert_close(s.value, 1.0 / 7.0);
        assert_all_close(&s.row_strategy, &[3.0 / 7.0, 4.0 / 7.0]);
        assert_all_close(&s.col_strategy, &[2.0 / 7.0, 5.0 / 7.0]);
    }

    #[test]
    fn a_dominated_row_is_never_played() {
        // Row 2 = [0, -2, 0] is beaten by row 0 = [2, -1, 1] everywhere. Then column 2,
        // (1, 1) on rows 0 and 1, is beaten by the mix ½·col0 + ½·col1 = (½, ½), so the game
        // reduces to [[2, -1], [-1, 2]]: both mix ½-½ and the value is ½. (Summing the two
        // equilibrium inequalities of each side shows row 2 and column 2 get weight 0.)
        let payoff = [2.0, -1.0, 1.0, -1.0, 2.0, 1.0, 0.0, -2.0, 0.0];
        let s = solve(&payoff, 3, 3);
        assert_close(s.value, 0.5);
        assert_all_close(&s.row_strategy, &[0.5, 0.5, 0.0]);
        assert_all_close(&s.col_strategy, &[0.5, 0.5, 0.0]);
    }

    #[test]
    fn one_row_and_one_column_games() {
        let s = solve(&[4.0, -2.0, 7.0], 1, 3);
        assert_eq!(s.value, -2.0);
        assert_eq!(s.col_strategy, vec![0.0, 1.0, 0.0]);
        let s = solve(&[4.0, -2.0, 7.0], 3, 1);
        assert_eq!(s.value, 7.0);
        assert_eq!(s.row_strategy, vec![0.0, 0.0, 1.0]);
        let s = solve(&[5.5], 1, 1);
        assert_eq!(
            (s.value, s.row_strategy, s.col_strategy),
            (5.5, vec![1.0], vec![1.0])
        );
    }

    #[test]
    fn an_all_equal_matrix_has_its_entry_as_value() {
        let s = solve(&[2.0; 12], 3, 4);
        assert_eq!(s.value, 2.0);
        assert_eq!(equilibrium_gap(&[2.0; 12], 3, 4, &s), 0.0);
    }

    #[test]
    fn random_matrices_are_solved_to_an_equilibrium() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let mut solver = MatrixSolver::new();
        for trial in 0..2000 {
            let rows = rng.random_range(1..13);
            let cols = rng.random_range(1..13);
            // Small integers make ties and degenerate pivots common; wide reals do not.
            let payoff: Vec<f64> = (0..rows * cols)
                .map(|_| {
                    if trial % 2 == 0 {
                        f64::from(rng.random_range(-3..4))
                    } else {
                        rng.random_range(-1000.0..1000.0)
                    }
                })
                .collect();
            let value = solver.solve(&payoff, rows, cols);
            let s = Solution {
                value,
                row_strategy: solver.row_strategy().to_vec(),
                col_strategy: solver.col_strategy().to_vec(),
            };
            let gap = equilibrium_gap(&payoff, rows, cols, &s);
            let tolerance = 1e-9 * payoff.iter().fold(1.0f64, |m, a| m.max(a.abs()));
            assert!(gap <= tolerance, "trial {trial}: gap {gap} for {payoff:?}");
        }
    }

    #[test]
    fn large_degenerate_matrices_terminate_at_an_equilibrium() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        for _ in 0..50 {
            let n = 30;
            let payoff: Vec<f64> = (0..n * n)
                .map(|_| f64::from(rng.random_range(-1..2)))
                .collect();
            let s = solve(&payoff, n, n);
            assert!(equilibrium_gap(&payoff, n, n, &s) <= 1e-9);
        }
    }

    /// Prints the time per solve of random 12×12 and 30×30 games (the best of 5 rounds of
    /// 1000 solves, since the machine may be shared).
    /// `cargo test --release --lib -- --ignored --nocapture matrix::tests::solve_times`
    #[test]
    #[ignore]
    fn solve_times() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut solver = MatrixSolver::new();
        for n in [12, 30] {
            let games: Vec<Vec<f64>> = (0..1000)
                .map(|_| {
                    (0..n * n)
                        .map(|_| rng.random_range(-1000.0..1000.0))
                        .collect()
                })
                .collect();
            let mut best = f64::INFINITY;
            let mut total = 0.0;
            for _ in 0..5 {
                let started = std::time::Instant::now();
                for payoff in &games {
                    total += solver.solve(payoff, n, n);
                }
                best = best.min(started.elapsed().as_secs_f64() / games.len() as f64);
            }
            println!(
                "{n}x{n}: {:.1} µs per solve (checksum {total:.3})",
                best * 1e6
            );
        }
    }
}
