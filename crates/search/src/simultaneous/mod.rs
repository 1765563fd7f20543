//! Simultaneous nodes: the value of the zero-sum matrix game whose entries are the
//! children's values (backward induction), found by a double oracle with alpha-beta style
//! bounds on the cells (after Bošanský et al. 2016, "DOαβ"; Saffidine, Finnsson and Buro
//! 2012 for bounds on cells).
//!
//! Every cell (a row declaration of the first player against a column declaration of the
//! second) keeps a pessimistic and an optimistic bound `L ≤ A ≤ U`. A restricted game of a
//! few rows `R` and columns `C` grows from the best pair of the transposition table:
//!
//! 1. Its cells are searched within the node's window (cached bounds may already decide).
//! 2. The restricted games on `L` and on `U` are solved: the row strategy `x` of the `L` game
//!    guarantees the first player at least `vL` against every column of `C`, the column
//!    strategy `y` of the `U` game holds the first player to at most `vU` on every row of `R`.
//! 3. Column check: every other column must concede at least `min(vL, β)` against `x`; each
//!    is proved with windowed searches of the cells in `x`'s support (Star1-style windows
//!    from the other cells' bounds). The first column that fails joins `C`. Row check: the
//!    same for the rows against `y` and `max(vU, α)`. With `Features::reductions` a line
//!    is first proved one turn shallower, and only one that fails there is proved at full
//!    depth (`line_check.rs`).
//! 4. A proved check bounds the node's value by backward induction (a strategy's worst case
//!    bounds the game value); a bound past the window ends the node (fail-soft). With no
//!    new row or column and `vL = vU` the value is exact. Otherwise the restricted cells that
//!    are only bounded are searched exactly.
//!
//! The game is finite, `R` and `C` only grow and refined cells stay exact, so the loop ends.
//! Without the reductions every conclusion is a bound proved from cell bounds, so inside the
//! window the value is
//! that of plain backward induction with [`round_value`] at each node. The pure cases cost
//! what alpha-beta costs in the serialised game: a fail-high needs one row against every
//! column, a fail-low one column against every row.

//!
//! The folder: this file (a node's search), `root.rs` (the simultaneous root), `frame.rs`
//! (a node's cells and bounds), `line_check.rs` (step 3's checks), `oracle.rs` and
//! `wide.rs` (nodes too wide for a matrix), `terms.rs` (what they share).

pub mod frame;
pub mod line_check;
pub mod oracle;
pub mod root;
pub mod terms;
pub mod wide;

use crate::searcher::Searcher;
use crate::tt::{Bound, Entry};
use frame::Frame;
use line_check::Check;
use quartet_core::eval::Evaluate;
use quartet_core::game::{Node, Player};
use quartet_core::matrix::round_value;
use terms::{At, SLACK};
use wide::WIDE_CELLS;

/// Row and column indices above this do not fit the packed best pair of a table entry.
const PAIR_LIMIT: usize = 1 << 10;

/// Ordering key of a killer declaration (below the table's pair only).
const KEY_KILLER: i32 = 1 << 30;

/// Base ordering key of noisy declarations (plus their hint).
const KEY_NOISY: i32 = 1 << 28;

/// History scores stay within ± this (below the noisy keys).
const HISTORY_MAX: i32 = 1 << 20;

/// What a simultaneous node's search found: a value and how it bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Solved {
    /// The value (first player's view), fail-soft.
    pub value: i32,
    /// How `value` bounds the node's value.
    pub bound: Bound,
}

/// What one round of the double oracle found.
enum Round {
    /// The node is solved within its window (or fails out of it).
    Solved(Solved),
    /// A row or column joined the restricted game.
    Grew,
    /// Nothing joined, but the restricted game is only bounded.
    Bounded,
}

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
        let entry = self.tt.probe(key, ply as u32);
        if let Some(e) = entry
            && self.features.tt_cutoffs
            && e.cuts(depth, alpha, beta)
        {
            return e.value;
        }
        let hint = entry.and_then(|e| e.move_code).map(unpack_pair);
        let mut frame = self.take_frame(ply);
        let solved = self.solve_frame(&mut frame, pos, At { depth, ply }, (alpha, beta), hint);
        let best = best_pair(&frame);
        if solved.is_some()
            && let Some(pair) = best
        {
            self.reward_pair(&frame, pair, depth, ply);
        }
        self.give_back_frame(frame, ply);
        let Some(solved) = solved else {
            return 0;
        };
        self.tt.store(
            key,
            ply as u32,
            Entry {
                move_code: best.map(pack_pair),
                value: solved.value,
                depth,
                bound: solved.bound,
            },
        );
        solved.value
    }

    /// The per-ply buffers of a node's solve at `ply`.
    pub(crate) fn take_frame(&mut self, ply: usize) -> Frame<G::Move> {
        Frame {
            rows: std::mem::take(&mut self.moves[ply]),
            cols: std::mem::take(&mut self.second_moves[ply]),
            n: 0,
            m: 0,
            ints: std::mem::take(&mut self.keys[ply]),
            reals: std::mem::take(&mut self.matrices[ply]),
            r_len: 0,
            c_len: 0,
        }
    }

    /// Returns the buffers of `frame` to `ply`.
    pub(crate) fn give_back_frame(&mut self, frame: Frame<G::Move>, ply: usize) {
        self.moves[ply] = frame.rows;
        self.second_moves[ply] = frame.cols;
        self.keys[ply] = frame.ints;
        self.matrices[ply] = frame.reals;
    }

    /// Solves the matrix game of `pos` (simultaneous, `at.depth > 0`) within the window
    /// (`alpha`, `beta`) as the module documentation describes, starting from the rows and
    /// columns `hint` (indices into the generated move lists). The frame keeps the final
    /// restricted game and strategies. `None` if the search was aborted.
    pub(crate) fn solve_frame(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        window: (i32, i32),
        hint: Option<(usize, usize)>,
    ) -> Option<Solved> {
        pos.legal_moves(Player::First, &mut f.rows);
        pos.legal_moves(Player::Second, &mut f.cols);
        self.solve_declared(f, pos, at, window, hint)
    }

    /// [`Searcher::solve_frame`] over the declarations already in `f.rows` and `f.cols`
    /// (some of the legal ones: the root leaves out those that lose at once), `hint`
    /// indexing them.
    pub(crate) fn solve_declared(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        window: (i32, i32),
        hint: Option<(usize, usize)>,
    ) -> Option<Solved> {
        let (lo, hi) = G::value_bounds();
        let (n, m) = (f.rows.len(), f.cols.len());
        f.n = n;
        f.m = m;
        f.r_len = 0;
        f.c_len = 0;
        if (n as u64) * (m as u64) > WIDE_CELLS {
            // Too wide for a matrix: the double oracle over whole rows and columns
            // (`oracle.rs`), exact at this depth; the frame's restricted game stays empty.
            let value = self.wide_simultaneous(pos, at.depth, at.ply);
            return (!self.aborted).then_some(Solved {
                value,
                bound: Bound::Exact,
            });
        }
        if n == 0 || m == 0 {
            // Not a real simultaneous node (the game should have ended): its static value.
            let value = pos.search_value();
            return Some(Solved {
                value,
                bound: Bound::Exact,
            });
        }
        f.ints.clear();
        f.ints.resize(n * m, lo);
        f.ints.resize(2 * n * m, hi);
        self.order_declarations(f, pos, at.ply, hint);
        f.ints.resize(2 * n * m + 2 * n + 2 * m, 0);
        f.reals.clear();
        f.reals.resize(n + m, 0.0);
        let (first_row, first_col) = (f.row_order(0), f.col_order(0));
        f.add_row(first_row);
        f.add_col(first_col);
        // The bounds proved so far on the node's (unrounded) value.
        let mut proved = (f64::from(lo), f64::from(hi));
        loop {
            match self.round(f, pos, at, window, &mut proved)? {
                Round::Solved(solved) => return Some(solved),
                Round::Grew => {}
                Round::Bounded => {
                    // Nothing new to add, but the restricted game is only bounded: make it
                    // exact.
                    self.restricted_cells(f, pos, at, (lo - 1, hi + 1))?;
                }
            }
        }
    }

    /// Searches every cell of the restricted game within `window`.
    fn restricted_cells(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        window: (i32, i32),
    ) -> Option<()> {
        for a in 0..f.r_len {
            for b in 0..f.c_len {
                let cell = (f.restricted_row(a), f.restricted_col(b));
                self.cell(f, pos, cell, at, window)?;
            }
        }
        Some(())
    }

    /// One round of the double oracle (steps 1 to 4 of the module documentation) within
    /// (`alpha`, `beta`); `proved` holds the node's lower and upper bounds proved so far.
    fn round(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        at: At,
        (alpha, beta): (i32, i32),
        proved: &mut (f64, f64),
    ) -> Option<Round> {
        self.restricted_cells(f, pos, at, (alpha, beta))?;
        let exact = f.restricted_exact();
        let v_low = f.solve_restricted(&mut self.solver, true);
        f.keep_strategy(&self.solver, true);
        let v_high = if exact {
            f.keep_strategy(&self.solver, false);
            v_low
        } else {
            let v = f.solve_restricted(&mut self.solver, false);
            f.keep_strategy(&self.solver, false);
            v
        };
        let mut grew = false;
        let mut lower_proved = false;
        let mut upper_proved = false;
        if v_low > f64::from(alpha) {
            let threshold = v_low.min(f64::from(beta));
            match self.line_check(f, pos, at, threshold, false)? {
                Check::Proved(bound) => {
                    proved.0 = proved.0.max(bound.min(v_low));
                    lower_proved = true;
                }
                Check::Joins(j) => {
                    f.add_col(j);
                    grew = true;
                }
            }
        }
        if proved.0 >= f64::from(beta) - SLACK {
            return Some(Round::Solved(Solved {
                value: round_value(proved.0).max(beta),
                bound: Bound::Lower,
            }));
        }
        if v_high < f64::from(beta) {
            let threshold = v_high.max(f64::from(alpha));
            match self.line_check(f, pos, at, threshold, true)? {
                Check::Proved(bound) => {
                    proved.1 = proved.1.min(bound.max(v_high));
                    upper_proved = true;
                }
                Check::Joins(i) => {
                    f.add_row(i);
                    grew = true;
                }
            }
        }
        if proved.1 <= f64::from(alpha) + SLACK {
            return Some(Round::Solved(Solved {
                value: round_value(proved.1).min(alpha),
                bound: Bound::Upper,
            }));
        }
        if lower_proved && upper_proved && exact {
            // Both strategies hold the restricted value against everything: exact.
            return Some(Round::Solved(Solved {
                value: round_value(v_low),
                bound: Bound::Exact,
            }));
        }
        Some(if grew { Round::Grew } else { Round::Bounded })
    }

    /// Orders rows and columns into the frame's order arrays: the table's pair first, then
    /// the declarations that were best at the last node of this ply (killers), noisy ones by
    /// the game's hint, and the rest by their history; ties in generation order. Each key is
    /// computed once (into the searcher's scratch buffer, packed with its index so that one
    /// unstable sort gives that order).
    fn order_declarations(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        ply: usize,
        hint: Option<(usize, usize)>,
    ) {
        let mut packed = std::mem::take(&mut self.order_scratch);
        for (moves, p, hinted) in [
            (&f.rows, Player::First, hint.map(|h| h.0)),
            (&f.cols, Player::Second, hint.map(|h| h.1)),
        ] {
            packed.clear();
            packed.extend(moves.iter().enumerate().map(|(k, &mv)| {
                let key = if Some(k) == hinted {
                    i32::MAX
                } else if self.killers[ply][p.index()] == Some(mv) {
                    KEY_KILLER
                } else if pos.is_noisy(mv) {
                    KEY_NOISY + pos.order_hint(mv).clamp(-(1 << 24), 1 << 24)
                } else {
                    self.history[p.index() * G::MOVE_CODES + G::move_code(mv) as usize]
                };
                // Higher keys first, then lower indices.
                (-i64::from(key) << 32) | k as i64
            }));
            packed.sort_unstable();
            f.ints
                .extend(packed.iter().map(|&v| (v & 0xFFFF_FFFF) as i32));
        }
        self.order_scratch = packed;
    }

    /// Makes the node's best pair the killers of `ply` and raises its history.
    fn reward_pair(&mut self, f: &Frame<G::Move>, (i, j): (usize, usize), depth: i32, ply: usize) {
        let (row, col) = (f.rows[i], f.cols[j]);
        self.killers[ply] = [Some(row), Some(col)];
        let bonus = (depth * depth).min(400);
        for (p, mv) in [(Player::First, row), (Player::Second, col)] {
            let h = &mut self.history[p.index() * G::MOVE_CODES + G::move_code(mv) as usize];
            *h += bonus - *h * bonus / HISTORY_MAX;
        }
    }

    /// Searches cell (`i`, `j`) within (`wa`, `wb`) unless its bounds already decide that
    /// window, and narrows its bounds. `None` if the search was aborted.
    pub(super) fn cell(
        &mut self,
        f: &mut Frame<G::Move>,
        pos: &G,
        (i, j): (usize, usize),
        At { depth, ply }: At,
        (wa, wb): (i32, i32),
    ) -> Option<()> {
        let (l, u) = f.bounds(i, j);
        if l == u || u <= wa || l >= wb {
            return Some(());
        }
        let mut child = pos.clone();
        child.play_legal_joint(f.rows[i], f.cols[j]);
        let v = self.value(&child, depth - 1, ply + 1, wa, wb);
        if self.aborted {
            return None;
        }
        // Leaves are exact whatever the window.
        let leaf = match child.node() {
            Node::Terminal(_) => true,
            Node::Simultaneous => depth == 1,
            _ => false,
        };
        let (lo, hi) = G::value_bounds();
        let (l, u) = if leaf || (wa < v && v < wb) {
            (v, v)
        } else if v <= wa {
            // A fail-low: an upper bound (one contradicting the old lower bound wins).
            (if l > v { lo.min(v) } else { l }, v.min(u).max(lo.min(v)))
        } else {
            (v.max(l), if u < v { hi.max(v) } else { u })
        };
        f.set_bounds(i, j, l, u);
        Some(())
    }
}

/// The pair to try first next time: the most probable row and column of the final
/// strategies (`None` if the frame is empty or the indices do not fit).
fn best_pair<M: Copy>(f: &Frame<M>) -> Option<(usize, usize)> {
    if f.n == 0 || f.m == 0 || f.r_len == 0 {
        return None;
    }
    let argmax = |len: usize, p: &dyn Fn(usize) -> f64| {
        (0..len).max_by(|&a, &b| p(a).total_cmp(&p(b))).unwrap_or(0)
    };
    let i = argmax(f.n, &|i| f.x(i));
    let j = argmax(f.m, &|j| f.y(j));
    (i < PAIR_LIMIT && j < PAIR_LIMIT).then_some((i, j))
}

fn pack_pair((i, j): (usize, usize)) -> u32 {
    ((i << 10) | j) as u32
}

fn unpack_pair(code: u32) -> (usize, usize) {
    ((code >> 10) as usize, (code & 0x3FF) as usize)
}
