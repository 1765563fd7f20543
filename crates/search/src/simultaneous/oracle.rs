//! Wide simultaneous nodes: those whose matrix is too large to build (R&B's joint setup
//! under `Placement together` has 11,550 × 11,550 joint turns). Their value and strategies
//! come from a double oracle over whole rows and columns (McMahan, Gordon and Blum 2003):
//!
//! 1. A restricted game of a few rows `R` (first player's declarations) and columns `C`
//!    starts from the previous solve of the node (or the first declaration of each side).
//!    Every cell of a row in `R` and of a column in `C` is searched, to `depth - 1` with a
//!    full window, and kept.
//! 2. The restricted game `R × C` is solved: value `v`, strategies `x` over `R` and `y`
//!    over `C`.
//! 3. Each side's best response over *all* its declarations is found from the kept cells:
//!    the row maximising `Σ y_c A(r, c)`, the column minimising `Σ x_r A(r, c)`. Their gains
//!    over `v` are the exploitability of `y` and of `x` in this depth's game.
//! 4. A best response that gains joins the restricted game (its row or column is searched,
//!    step 1); with no gain on either side `(x, y)` is an exact equilibrium of the depth's
//!    matrix game, found without searching the cells outside `R × all ∪ all × C`.
//!
//! Each round searches one row and one column (about 23,000 cells at the R&B setup), so the
//! cost is the number of rounds times that. A search that runs out of time keeps the last
//! restricted solve: an approximate equilibrium whose gains say how approximate.

use super::terms::SLACK;
use super::wide::WideStart;
use crate::searcher::Searcher;
use quartet_core::eval::Evaluate;
use quartet_core::game::{MoveList, Player};

/// The state of one wide node's double oracle, kept between rounds and, by the root, between
/// depths.
pub struct Oracle<M> {
    /// Every declaration of the first player.
    pub rows: MoveList<M>,
    /// Every declaration of the second player.
    pub cols: MoveList<M>,
    /// The restricted rows (indices into `rows`), in the order they joined.
    pub r: Vec<usize>,
    /// The restricted columns (indices into `cols`).
    pub c: Vec<usize>,
    /// `row_cells[k][j]`: the value of row `r[k]` against column `j`.
    row_cells: Vec<Vec<i32>>,
    /// `col_cells[k][i]`: the value of row `i` against column `c[k]`.
    col_cells: Vec<Vec<i32>>,
    /// The first player's strategy over `r` of the last restricted solve.
    pub x: Vec<f64>,
    /// The second player's strategy over `c`.
    pub y: Vec<f64>,
    /// The value of the last restricted solve (first player's view).
    pub value: f64,
    /// How much the first player's best response gains against `y` over `value` (the
    /// exploitability of the second player's strategy), and how much the second player's
    /// gains against `x`; both at most `SLACK` once the oracle has converged.
    pub gains: (f64, f64),
    /// Whether the last round found no best response that gains: `(x, y)` is an exact
    /// equilibrium of the depth's matrix game.
    pub converged: bool,
    /// Rounds played at the current depth.
    pub rounds: u32,
}

impl<M: Copy + PartialEq> Oracle<M> {
    /// An oracle over `rows` and `cols` (both non-empty) whose restricted game starts with
    /// the declarations `start` holds (those of a previous solve; the first of each side
    /// when none is).
    pub fn new(rows: MoveList<M>, cols: MoveList<M>, start: (&[M], &[M])) -> Self {
        let pick = |all: &[M], wanted: &[M]| -> Vec<usize> {
            let mut picked: Vec<usize> = wanted
                .iter()
                .filter_map(|w| all.iter().position(|m| m == w))
                .collect();
            picked.dedup();
            if picked.is_empty() {
                picked.push(0);
            }
            picked
        };
        let (r, c) = (pick(&rows, start.0), pick(&cols, start.1));
        Oracle {
            rows,
            cols,
            r,
            c,
            row_cells: Vec::new(),
            col_cells: Vec::new(),
            x: Vec::new(),
            y: Vec::new(),
            value: 0.0,
            gains: (f64::INFINITY, f64::INFINITY),
            converged: false,
            rounds: 0,
        }
    }

    /// Whether a restricted game has been solved.
    pub fn solved(&self) -> bool {
        !self.x.is_empty()
    }

    /// `p`'s declarations of the last restricted solve with their probabilities and their
    /// payoffs (`p`'s view) against the opponent's strategy, most probable first, then best
    /// payoff first (empty before the first solve).
    pub fn lines(&self, p: Player) -> Vec<(M, f64, f64)> {
        let mut lines: Vec<(M, f64, f64)> = match p {
            Player::First => (0..self.x.len())
                .map(|k| {
                    let payoff = self.against_y(self.r[k]);
                    (self.rows[self.r[k]], self.x[k], payoff)
                })
                .collect(),
            Player::Second => (0..self.y.len())
                .map(|k| {
                    let payoff = -self.against_x(self.c[k]);
                    (self.cols[self.c[k]], self.y[k], payoff)
                })
                .collect(),
        };
        lines.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.total_cmp(&a.2)));
        lines
    }

    /// Row `i`'s expected value against `y`.
    fn against_y(&self, i: usize) -> f64 {
        self.col_cells
            .iter()
            .zip(&self.y)
            .filter(|(_, q)| **q > 0.0)
            .map(|(cells, q)| q * f64::from(cells[i]))
            .sum()
    }

    /// Column `j`'s expected value (first player's view) against `x`.
    fn against_x(&self, j: usize) -> f64 {
        self.row_cells
            .iter()
            .zip(&self.x)
            .filter(|(_, p)| **p > 0.0)
            .map(|(cells, p)| p * f64::from(cells[j]))
            .sum()
    }

    /// Forgets the cells and the solve (a new depth), keeping of the restricted declarations
    /// those the last solve played (all of them when there was none).
    pub fn restart(&mut self) {
        if self.solved() {
            let keep = |lines: &[usize], p: &[f64]| -> Vec<usize> {
                let support: Vec<usize> = lines
                    .iter()
                    .zip(p)
                    .filter(|(_, q)| **q > 0.0)
                    .map(|(&i, _)| i)
                    .collect();
                if support.is_empty() {
                    lines[..1].to_vec()
                } else {
                    support
                }
            };
            self.r = keep(&self.r, &self.x);
            self.c = keep(&self.c, &self.y);
        }
        self.row_cells.clear();
        self.col_cells.clear();
        self.x.clear();
        self.y.clear();
        self.gains = (f64::INFINITY, f64::INFINITY);
        self.converged = false;
        self.rounds = 0;
    }
}

impl<G: Evaluate> Searcher<'_, G> {
    /// Runs the double oracle of `o` at `pos` (a wide simultaneous node), cells searched to
    /// `depth - 1` from `ply + 1`, until it converges. `false` if the search was aborted
    /// first: `o` then holds the last restricted solve, if any.
    pub(crate) fn run_oracle(
        &mut self,
        o: &mut Oracle<G::Move>,
        pos: &G,
        depth: i32,
        ply: usize,
    ) -> bool {
        while !o.converged {
            if !self.oracle_round(o, pos, depth, ply) {
                return false;
            }
        }
        true
    }

    /// One round: the missing rows and columns of the restricted game are searched, the
    /// restricted game solved and the best responses found (steps 1 to 4 of the module
    /// documentation). `false` if the search was aborted.
    fn oracle_round(&mut self, o: &mut Oracle<G::Move>, pos: &G, depth: i32, ply: usize) -> bool {
        while o.row_cells.len() < o.r.len() {
            let i = o.r[o.row_cells.len()];
            let Some(cells) = self.oracle_line(pos, &o.rows, &o.cols, Line::Row(i), depth, ply)
            else {
                return false;
            };
            o.row_cells.push(cells);
        }
        while o.col_cells.len() < o.c.len() {
            let j = o.c[o.col_cells.len()];
            let Some(cells) = self.oracle_line(pos, &o.rows, &o.cols, Line::Col(j), depth, ply)
            else {
                return false;
            };
            o.col_cells.push(cells);
        }
        let (n, m) = (o.r.len(), o.c.len());
        let matrix: Vec<f64> = o
            .row_cells
            .iter()
            .flat_map(|cells| o.c.iter().map(|&j| f64::from(cells[j])))
            .collect();
        o.value = self.solver.solve(&matrix, n, m);
        o.x = self.solver.row_strategy().to_vec();
        o.y = self.solver.col_strategy().to_vec();
        o.rounds += 1;
        let best_row = (0..o.rows.len())
            .map(|i| (i, o.against_y(i)))
            .fold((0, f64::NEG_INFINITY), |b, c| if c.1 > b.1 { c } else { b });
        let best_col = (0..o.cols.len())
            .map(|j| (j, o.against_x(j)))
            .fold((0, f64::INFINITY), |b, c| if c.1 < b.1 { c } else { b });
        o.gains = (best_row.1 - o.value, o.value - best_col.1);
        let mut grew = false;
        if o.gains.0 > SLACK && !o.r.contains(&best_row.0) {
            o.r.push(best_row.0);
            grew = true;
        }
        if o.gains.1 > SLACK && !o.c.contains(&best_col.0) {
            o.c.push(best_col.0);
            grew = true;
        }
        // Without a new line the gains are rounding noise of the solve: converged.
        o.converged = !grew;
        true
    }

    /// The values of one whole row (against every column) or column, each cell searched to
    /// `depth - 1` with a full window. `None` if the search was aborted.
    fn oracle_line(
        &mut self,
        pos: &G,
        rows: &[G::Move],
        cols: &[G::Move],
        line: Line,
        depth: i32,
        ply: usize,
    ) -> Option<Vec<i32>> {
        let (lo, hi) = G::value_bounds();
        let len = match line {
            Line::Row(_) => cols.len(),
            Line::Col(_) => rows.len(),
        };
        let mut cells = Vec::with_capacity(len);
        for k in 0..len {
            let (a, b) = match line {
                Line::Row(i) => (rows[i], cols[k]),
                Line::Col(j) => (rows[k], cols[j]),
            };
            let mut child = pos.clone();
            child.play_legal_joint(a, b);
            let v = self.value(&child, depth - 1, ply + 1, lo - 1, hi + 1);
            if self.aborted {
                return None;
            }
            cells.push(v);
        }
        Some(cells)
    }

    /// The value of a wide simultaneous node inside the tree (`depth > 0`): the converged
    /// double oracle's, started from the last wide node's declarations when it was this
    /// position. Aborted: 0, which the caller discards.
    pub(crate) fn wide_simultaneous(&mut self, pos: &G, depth: i32, ply: usize) -> i32 {
        let mut rows = MoveList::new();
        let mut cols = MoveList::new();
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        if rows.is_empty() || cols.is_empty() {
            return pos.search_value();
        }
        let key = pos.hash();
        let mut o = self.wide_oracle(key, rows, cols);
        let done = self.run_oracle(&mut o, pos, depth, ply);
        self.keep_wide_start(key, &o);
        if !done {
            return 0;
        }
        quartet_core::matrix::round_value(o.value)
    }

    /// An oracle for the wide node `key` with declarations `rows` and `cols` (both
    /// non-empty), starting where the last solve of that node ended.
    pub(crate) fn wide_oracle(
        &self,
        key: u64,
        rows: MoveList<G::Move>,
        cols: MoveList<G::Move>,
    ) -> Oracle<G::Move> {
        match &self.wide_start {
            Some(start) if start.key == key => Oracle::new(rows, cols, (&start.rows, &start.cols)),
            _ => Oracle::new(rows, cols, (&[], &[])),
        }
    }

    /// Keeps `o`'s restricted declarations as the start of the next solve of the node `key`.
    pub(crate) fn keep_wide_start(&mut self, key: u64, o: &Oracle<G::Move>) {
        self.wide_start = Some(WideStart {
            key,
            rows: o.r.iter().map(|&i| o.rows[i]).collect(),
            cols: o.c.iter().map(|&j| o.cols[j]).collect(),
        });
    }
}

/// One whole row or column of a wide node's matrix.
#[derive(Clone, Copy)]
enum Line {
    /// The first player's declaration of this index against every column.
    Row(usize),
    /// The second player's declaration of this index against every row.
    Col(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simultaneous::wide::{WIDE_CELLS, is_wide};
    use crate::tt::TranspositionTable;
    use crate::{Limits, Root, Settings, search};
    use quartet_core::game::Game;
    use quartet_testkit::toys::{WIDE_SIZE, wide_dominant, wide_drawn, wide_rock_paper_scissors};
    use std::sync::atomic::AtomicBool;

    /// The search at a wide root for `side`, depth 1 (the cells are the outcomes).
    fn declare<G: Evaluate>(pos: &G, side: Player) -> crate::SearchResult<G::Move> {
        let tt = TranspositionTable::new(1).expect("a table");
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let settings = Settings {
            side: Some(side),
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

    #[test]
    fn the_toys_are_wide() {
        assert!(is_wide(&wide_dominant()));
        assert!(u64::from(WIDE_SIZE).pow(2) > WIDE_CELLS);
    }

    /// A searcher with no limits over a 1 MiB table, for running an oracle by hand.
    fn with_searcher<G: Evaluate, T>(run: impl FnOnce(&mut Searcher<'_, G>) -> T) -> T {
        let tt = TranspositionTable::new(1).expect("a table");
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(
            &tt,
            &stop,
            None,
            &Limits::default(),
            Default::default(),
            &[],
        );
        run(&mut s)
    }

    #[test]
    fn a_best_response_far_from_the_start_is_found() {
        // From the first declaration of each side, the only best response is the last
        // number, so the equilibrium (both declare the last) is reached in two rounds, pure.
        let pos = wide_dominant();
        let (mut rows, mut cols) = (MoveList::new(), MoveList::new());
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        let mut o = Oracle::new(rows, cols, (&[], &[]));
        assert_eq!((o.r.clone(), o.c.clone()), (vec![0], vec![0]));
        assert!(with_searcher(|s| s.run_oracle(&mut o, &pos, 1, 0)));
        let last = WIDE_SIZE - 1;
        for side in [Player::First, Player::Second] {
            let (m, p, _) = o.lines(side)[0];
            assert_eq!((m, p), (last, 1.0));
        }
        // At the root, every other declaration loses at once (it draws or loses whatever
        // the other side declares), so the screen starts there.
        for side in [Player::First, Player::Second] {
            let r = declare(&pos, side);
            assert_eq!(r.best, Some(quartet_core::game::Action::Single(last)));
            assert_eq!(r.score, 0, "a draw");
            let top = r.policy.first().expect("a policy");
            assert_eq!((top.0, top.1), (last, 1.0));
        }
    }

    #[test]
    fn a_mixed_equilibrium_gives_each_class_a_third_and_no_gain() {
        let pos = wide_rock_paper_scissors();
        let r = declare(&pos, Player::Second);
        assert_eq!(r.score, 0);
        let mut classes = [0.0; 3];
        for &(m, p) in &r.policy {
            classes[usize::from(m % 3)] += p;
        }
        for c in classes {
            assert!((c - 1.0 / 3.0).abs() < 1e-9, "{classes:?}");
        }
        // The oracle itself: converged, neither side's best response gains.
        let tt = TranspositionTable::new(1).expect("a table");
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(
            &tt,
            &stop,
            None,
            &Limits::default(),
            Default::default(),
            &[],
        );
        let (mut rows, mut cols) = (MoveList::new(), MoveList::new());
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        let mut o = Oracle::new(rows, cols, (&[], &[]));
        assert!(s.run_oracle(&mut o, &pos, 1, 0));
        assert!(o.converged && o.gains.0 <= SLACK && o.gains.1 <= SLACK);
        assert!(o.value.abs() < 1e-6);
        assert_eq!(
            (o.r.len(), o.c.len()),
            (3, 3),
            "one declaration of each class"
        );
        // Inside the tree the node's value is the same.
        assert_eq!(s.wide_simultaneous(&pos, 1, 0), 0);
    }

    /// The search of `pos` at a wide root for the first player within 10 nodes.
    fn ten_nodes<G: Evaluate>(pos: &G) -> crate::SearchResult<G::Move> {
        let tt = TranspositionTable::new(1).expect("a table");
        let limits = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let settings = Settings {
            side: Some(Player::First),
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

    #[test]
    fn a_limit_before_any_solve_plays_the_screened_start_or_uniformly() {
        // No round finished: the declaration the screen found not to lose at once.
        let r = ten_nodes(&wide_dominant());
        assert_eq!(r.depth, 0);
        assert_eq!(r.policy, vec![(WIDE_SIZE - 1, 1.0)]);
        assert_eq!(
            r.best,
            Some(quartet_core::game::Action::Single(WIDE_SIZE - 1))
        );
        // Where every declaration ends the game at once and never in a win, the screen
        // finds none: every declaration with the same probability, one played.
        let r = ten_nodes(&wide_drawn());
        assert_eq!(r.depth, 0);
        assert_eq!(r.policy.len(), usize::from(WIDE_SIZE));
        assert!(
            r.policy
                .iter()
                .all(|&(_, p)| p == 1.0 / f64::from(WIDE_SIZE))
        );
        assert!(r.best.is_some());
    }
}
