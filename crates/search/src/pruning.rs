//! Shallow pruning at turn nodes, for the games that declare [`Evaluate::PRUNING`]:
//! reverse futility pruning (a node whose static value beats beta by a margin per ply is
//! cut), futility and late-move pruning of quiet moves near the horizon, and late-move
//! reductions that grow with the logarithms of the depth and of the move's rank. All of
//! them only at nodes with a null window and with `Features::reductions`; a game without
//! the declaration keeps the plain reductions of `alphabeta.rs`.

use quartet_core::eval::Evaluate;

/// Reverse futility pruning is tried up to this depth.
const REVERSE_FUTILITY_MAX_DEPTH: i32 = 6;
/// Quiet moves are pruned by futility up to this depth.
const FUTILITY_MAX_DEPTH: i32 = 2;
/// Late-move pruning applies up to this depth.
const LATE_MOVE_MAX_DEPTH: i32 = 3;
/// Rows and columns of the reduction table; deeper nodes and later moves use its last.
const TABLE: usize = 64;

/// Whether a node of `depth` is shallow enough for any of the game's pruning, so that
/// its static value is wanted.
pub(crate) fn wants_static_value<G: Evaluate>(depth: i32) -> bool {
    G::PRUNING.is_some() && depth <= REVERSE_FUTILITY_MAX_DEPTH
}

/// Reverse futility pruning: `Some(value)` to return from a node of `depth` whose
/// mover's static value `stand` beats the mover's `beta` by the game's margin a ply
/// (`beta` not a mate score).
pub(crate) fn reverse_futility<G: Evaluate>(depth: i32, stand: i32, beta: i32) -> Option<i32> {
    let pruning = G::PRUNING?;
    (depth <= REVERSE_FUTILITY_MAX_DEPTH
        && beta.abs() < quartet_core::eval::MATE_BOUND
        && stand - pruning.margin * depth >= beta)
        .then_some(stand)
}

/// Whether the quiet moves left at a node of `depth` may be skipped, after
/// `quiets_tried` of them: by futility (the mover's static value `stand` plus the margin
/// a ply stays at or below `alpha`) or because enough were tried (`3 + depth²`).
pub(crate) fn skip_quiets<G: Evaluate>(
    depth: i32,
    stand: i32,
    alpha: i32,
    quiets_tried: usize,
) -> bool {
    let Some(pruning) = G::PRUNING else {
        return false;
    };
    (depth <= FUTILITY_MAX_DEPTH && stand + pruning.margin * depth <= alpha)
        || (depth <= LATE_MOVE_MAX_DEPTH && quiets_tried >= (3 + depth * depth) as usize)
}

/// Late-move reductions by `0.75 + ln(depth) · ln(rank) / 2.25` plies (rank from 1),
/// rounded down, as tabled by [`Reductions::new`].
pub struct Reductions {
    table: Vec<[u8; TABLE]>,
}

impl Reductions {
    /// The table for depths and move ranks below 64.
    pub fn new() -> Self {
        let table = (0..TABLE)
            .map(|d| {
                let mut row = [0u8; TABLE];
                for (i, r) in row.iter_mut().enumerate() {
                    if d > 0 && i > 0 {
                        let ln = (d as f64).ln() * (i as f64).ln();
                        *r = (0.75 + ln / 2.25) as u8;
                    }
                }
                row
            })
            .collect();
        Reductions { table }
    }

    /// The reduction of the move of index `i` (0 for the first) at a node of `depth`,
    /// one ply less at a node with an open window, and leaving at least one ply.
    pub fn of(&self, depth: i32, i: usize, pv_node: bool) -> i32 {
        let d = (depth.max(0) as usize).min(TABLE - 1);
        let r = i32::from(self.table[d][(i + 1).min(TABLE - 1)]) - i32::from(pv_node);
        r.clamp(0, (depth - 1).max(0))
    }
}

impl Default for Reductions {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_games::duell::Duell;
    use quartet_testkit::toys::TicTacToe;

    /// Duell's margin a ply.
    fn margin() -> i32 {
        Duell::PRUNING.map(|p| p.margin).unwrap_or(0)
    }

    #[test]
    fn a_static_value_a_margin_a_ply_above_beta_cuts_up_to_depth_six() {
        let m = margin();
        assert!(m > 0);
        assert_eq!(reverse_futility::<Duell>(3, 3 * m, 0), Some(3 * m));
        assert_eq!(reverse_futility::<Duell>(3, 3 * m - 1, 0), None);
        assert_eq!(reverse_futility::<Duell>(7, 100 * m, 0), None);
        // Never against a mate score, and never for a game without the declaration.
        assert_eq!(
            reverse_futility::<Duell>(1, 5000, quartet_core::eval::MATE_BOUND),
            None
        );
        assert_eq!(reverse_futility::<TicTacToe>(1, 5000, 0), None);
        assert!(wants_static_value::<Duell>(6) && !wants_static_value::<Duell>(7));
        assert!(!wants_static_value::<TicTacToe>(1));
    }

    #[test]
    fn quiet_moves_are_skipped_by_futility_or_by_count_near_the_horizon() {
        let m = margin();
        // Futility: at depth 2 the static value plus two margins must reach past alpha.
        assert!(skip_quiets::<Duell>(2, -2 * m, 0, 0));
        assert!(!skip_quiets::<Duell>(2, -2 * m + 1, 0, 0));
        assert!(!skip_quiets::<Duell>(3, -10 * m, 0, 0));
        // By count: 3 + depth² quiet moves tried, up to depth 3.
        assert!(!skip_quiets::<Duell>(3, 10 * m, 0, 11));
        assert!(skip_quiets::<Duell>(3, 10 * m, 0, 12));
        assert!(skip_quiets::<Duell>(1, 10 * m, 0, 4));
        assert!(!skip_quiets::<Duell>(4, 10 * m, 0, 1000));
        assert!(!skip_quiets::<TicTacToe>(1, -10 * m, 0, 1000));
    }

    #[test]
    fn reductions_grow_with_depth_and_rank_and_leave_a_ply() {
        let r = Reductions::new();
        // 0.75 + ln 3 · ln 4 / 2.25 = 1.43; 0.75 + ln 10 · ln 21 / 2.25 = 3.86.
        assert_eq!(r.of(3, 3, false), 1);
        assert_eq!(r.of(10, 20, false), 3);
        assert_eq!(r.of(10, 20, true), 2);
        // The first move is never reduced by the table (ln 1 = 0).
        assert_eq!(r.of(10, 0, false), 0);
        // At depth 2 a reduction of 1 leaves the child one ply.
        assert!(r.of(2, 60, false) <= 1);
        assert!(r.of(63, 63, false) >= r.of(20, 20, false));
    }
}
