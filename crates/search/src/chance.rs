//! Chance nodes: the expectation of the children's values with *-minimax pruning (Ballard
//! 1983; Hauk, Buro and Schaeffer 2006, "*-Minimax performance in backgammon"). Chance edges
//! cost no depth.
//!
//! Every outcome carries bounds `[lower, upper]` on its child's value, at first the game's
//! [`Evaluate::value_bounds`]. Their weighted sums bound the node's expectation; once those
//! bounds decide that the expectation is outside the window, the node is cut (Star1).
//!
//! **Star2 (probing).** Before any child is searched in full, each child is *probed*: its
//! bounds are tightened from a deep enough transposition-table entry and, at a turn node,
//! by searching only its first move (the table move, else the best by ordering). That move's
//! value is a lower bound on a child where the first player moves and an upper bound where
//! the second does (an exact value when the move is the only one). A probe uses the window
//! that would decide the node, so the probes alone often cut it; otherwise the tighter
//! bounds narrow the windows of the full searches that follow.
//!
//! Values stay those of plain expectimax: probes only ever produce true bounds, and each
//! full search uses the narrowest window that can still change the decision. A chance value
//! is the weighted mean rounded to the nearest integer (halves away from zero), and a cut
//! returns the rounded mean of the deciding bound, which rounds monotonically, so it is a
//! true fail-soft bound on the rounded value.

use super::MAX_PLY;
use super::alphabeta::pick_next;
use super::searcher::Searcher;
use super::tt::{Bound, Entry};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Node, Player};

/// Outcomes beyond this many keep the game's value bounds and are never probed: the bounds
/// live in a fixed array, so a chance node does not allocate.
const MAX_PROBED: usize = 64;

/// What is known of a chance node: the weighted sums of its children's bounds.
#[derive(Clone, Copy, Debug)]
struct Sums {
    /// The sum of `weight * lower` over the outcomes: `total * value >=` this.
    lower: i64,
    /// The sum of `weight * upper` over the outcomes: `total * value <=` this.
    upper: i64,
}

/// The window of one outcome and the node's decision thresholds, all scaled by the total
/// weight.
#[derive(Clone, Copy, Debug)]
struct Thresholds {
    /// `alpha * total`: the node fails low once `Sums::upper` is at most this.
    alpha: i64,
    /// `beta * total`: the node fails high once `Sums::lower` is at least this.
    beta: i64,
    /// The total weight of the outcomes.
    total: i64,
}

/// One chance node's state between its two phases: the bounds of the first
/// [`MAX_PROBED`] outcomes, their weighted sums, and the node's thresholds.
struct NodeState {
    bounds: [(i64, i64); MAX_PROBED],
    sums: Sums,
    th: Thresholds,
}

impl Thresholds {
    /// The node's value and bound if `sums` already decide it.
    fn decided(&self, sums: Sums) -> Option<(i64, Bound)> {
        if sums.upper <= self.alpha {
            Some((rounded_mean(sums.upper, self.total), Bound::Upper))
        } else if sums.lower >= self.beta {
            Some((rounded_mean(sums.lower, self.total), Bound::Lower))
        } else if sums.lower == sums.upper {
            Some((rounded_mean(sums.lower, self.total), Bound::Exact))
        } else {
            None
        }
    }

    /// The open window (a, b) for an outcome of weight `w` with bounds `(l, u)`: a child
    /// value at or below `a` makes the node fail low, one at or above `b` fail high (the
    /// other outcomes at their bounds). Narrowed to `(l - 1, u + 1)`, which holds every
    /// value the child can have; `a < b` whenever `sums` do not decide the node.
    fn window(&self, sums: Sums, w: i64, (l, u): (i64, i64)) -> (i64, i64) {
        let others_upper = sums.upper - w * u;
        let others_lower = sums.lower - w * l;
        let a = (self.alpha - others_upper).div_euclid(w).max(l - 1);
        let b = ceil_div(self.beta - others_lower, w).min(u + 1);
        (a, b)
    }
}

impl<G: Evaluate> Searcher<'_, G> {
    /// A chance node with `depth > 0` (see [`Searcher::value`]).
    pub(crate) fn chance(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        let key = pos.hash();
        if let Some(e) = self.tt.probe(key, ply as u32)
            && self.features.tt_cutoffs
            && e.cuts(depth, alpha, beta)
        {
            return e.value;
        }
        let (lo, hi) = G::value_bounds();
        let (lo, hi) = (i64::from(lo), i64::from(hi));
        let mut outcomes = std::mem::take(&mut self.outcomes[ply]);
        pos.chance_outcomes(&mut outcomes);
        if crate::smp::rotates_outcomes(ply) {
            // Near the root each helper starts from another outcome (`smp.rs`).
            let first = crate::smp::start(self.thread, outcomes.len());
            outcomes.rotate_left(first);
        }
        let total: i64 = outcomes.iter().map(|&(_, w)| i64::from(w)).sum();
        let mut state = NodeState {
            bounds: [(lo, hi); MAX_PROBED],
            sums: Sums {
                lower: lo * total,
                upper: hi * total,
            },
            th: Thresholds {
                alpha: i64::from(alpha) * total,
                beta: i64::from(beta) * total,
                total,
            },
        };
        // Probes can only help where a cut is possible at all.
        let mut result = None;
        if i64::from(alpha) >= lo || i64::from(beta) <= hi {
            result = self.probe_outcomes(pos, &outcomes, &mut state, depth, ply);
        }
        if result.is_none() && !self.aborted {
            result = self.search_outcomes(pos, &outcomes, &mut state, depth, ply);
        }
        let sums = state.sums;
        self.outcomes[ply] = outcomes;
        if self.aborted {
            return 0;
        }
        // Without a cut every outcome ends exact, so the sums meet.
        let (value, bound) = result.unwrap_or((rounded_mean(sums.lower, total), Bound::Exact));
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

    /// The probing phase: tightens the bounds of the first [`MAX_PROBED`] outcomes one by
    /// one; returns the node's value and bound as soon as the sums decide it.
    fn probe_outcomes(
        &mut self,
        pos: &G,
        outcomes: &[(G::Move, u32)],
        state: &mut NodeState,
        depth: i32,
        ply: usize,
    ) -> Option<(i64, Bound)> {
        let NodeState { bounds, sums, th } = state;
        for (&(m, w), slot) in outcomes.iter().zip(bounds.iter_mut()) {
            let w = i64::from(w);
            let (a, b) = th.window(*sums, w, *slot);
            let mut child = pos.clone();
            child.play(m);
            let (l, u) = self.probe(&child, depth, ply + 1, *slot, (a, b));
            if self.aborted {
                return None;
            }
            sums.lower += w * (l - slot.0);
            sums.upper += w * (u - slot.1);
            *slot = (l, u);
            if let Some(decided) = th.decided(*sums) {
                return Some(decided);
            }
        }
        None
    }

    /// The search phase (Star1 on the probed bounds): searches each outcome not yet exact
    /// with the narrowest window that can still change the decision; returns the value and
    /// bound once the sums decide the node (`None` only when the search was aborted).
    fn search_outcomes(
        &mut self,
        pos: &G,
        outcomes: &[(G::Move, u32)],
        state: &mut NodeState,
        depth: i32,
        ply: usize,
    ) -> Option<(i64, Bound)> {
        let NodeState { bounds, sums, th } = state;
        let (lo, hi) = G::value_bounds();
        for (i, &(m, w)) in outcomes.iter().enumerate() {
            let w = i64::from(w);
            let (l, u) = bounds
                .get(i)
                .copied()
                .unwrap_or((i64::from(lo), i64::from(hi)));
            if l == u {
                continue;
            }
            let (a, b) = th.window(*sums, w, (l, u));
            let mut child = pos.clone();
            child.play(m);
            let v = i64::from(self.value(&child, depth, ply + 1, a as i32, b as i32));
            if self.aborted {
                return None;
            }
            // A value outside the bounds would contradict a probe (possible only with
            // value-changing pruning on): the bound it crosses is kept.
            let clamped = v.clamp(l, u);
            let (l2, u2) = if v <= a {
                (l, clamped)
            } else if v >= b {
                (clamped, u)
            } else {
                (clamped, clamped)
            };
            sums.lower += w * (l2 - l);
            sums.upper += w * (u2 - u);
            if let Some(slot) = bounds.get_mut(i) {
                *slot = (l2, u2);
            }
            if let Some(decided) = th.decided(*sums) {
                return Some(decided);
            }
        }
        th.decided(*sums)
    }

    /// Bounds on the value of `child` (a chance outcome, `ply` plies deep, to be searched
    /// `depth` deep) tighter than or equal to `known`, found cheaply: a terminal value, a
    /// deep enough table entry, and at a turn node the value of its first move searched with
    /// the window `(a, b)` (fail-soft: only a value inside the window, or beyond it on the
    /// side the mover's choice makes a bound, tightens).
    fn probe(
        &mut self,
        child: &G,
        depth: i32,
        ply: usize,
        known: (i64, i64),
        (a, b): (i64, i64),
    ) -> (i64, i64) {
        let mut bounds = known;
        let p = match child.node() {
            Node::Terminal(outcome) => {
                let v = i64::from(child.terminal_value(outcome, ply as u32));
                return (v, v);
            }
            Node::Turn(p) => p,
            Node::Chance | Node::Simultaneous => {
                let entry = self.tt.probe(child.hash(), ply as u32);
                return self.table_bounds(entry, depth, bounds);
            }
        };
        // The first move's search below does not enter `child` into the repetition path.
        if child.repetition_window().is_some() || ply >= MAX_PLY || !self.enter_node(ply) {
            return bounds;
        }
        let entry = self.tt.probe(child.hash(), ply as u32);
        bounds = self.table_bounds(entry, depth, bounds);
        let (l, u) = bounds;
        if l == u || l >= b || u <= a {
            return bounds;
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        child.legal_moves(p, &mut moves);
        self.order(
            child,
            p,
            &moves,
            &mut keys,
            ply,
            entry.and_then(|e| e.move_code),
        );
        let first = if moves.is_empty() {
            None
        } else {
            pick_next(&mut moves, &mut keys, 0);
            Some((moves[0], moves.len() == 1))
        };
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        let Some((m, only)) = first else {
            return bounds;
        };
        let (wa, wb) = (a.max(l - 1), b.min(u + 1));
        let mut grandchild = child.clone();
        grandchild.play(m);
        let r = i64::from(self.value(&grandchild, depth - 1, ply + 1, wa as i32, wb as i32));
        if self.aborted {
            return known;
        }
        let (mut l, mut u) = bounds;
        // The mover picks the best move, so one move's value bounds the node on one side.
        let (raises_lower, lowers_upper) = match p {
            Player::First => (true, only),
            Player::Second => (only, true),
        };
        if raises_lower && r > wa {
            l = l.max(r);
        }
        if lowers_upper && r < wb {
            u = u.min(r);
        }
        // Bounds that cross can only come from value-changing pruning: trust the probe.
        if l > u { (r, r) } else { (l, u) }
    }

    /// `known` tightened by a node's table entry if it was searched at least `depth` deep
    /// and table cut-offs are on.
    fn table_bounds(&self, entry: Option<Entry>, depth: i32, known: (i64, i64)) -> (i64, i64) {
        let (l, u) = known;
        match entry {
            Some(e) if self.features.tt_cutoffs && e.depth >= depth => {
                let v = i64::from(e.value).clamp(l, u);
                match e.bound {
                    Bound::Exact => (v, v),
                    Bound::Lower => (v, u),
                    Bound::Upper => (l, v),
                }
            }
            _ => known,
        }
    }
}

/// `sum / total` rounded to the nearest integer, halves away from zero (as plain
/// expectimax rounds).
fn rounded_mean(sum: i64, total: i64) -> i64 {
    (sum as f64 / total as f64).round() as i64
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

#[cfg(test)]
mod tests {
    use super::super::tests::plain;
    use super::super::tt::TranspositionTable;
    use super::super::{Features, Limits};
    use super::*;
    use quartet_core::eval::MATE;
    use quartet_core::game::{Game, RuleOptions};
    use quartet_core::notation::Notation;
    use quartet_games::ludo::Ludo;
    use quartet_testkit::toys::DiceRace;
    use std::sync::atomic::AtomicBool;

    const NO_PRUNING_CHANGES: Features = Features {
        reductions: false,
        quiescence: false,
        tt_cutoffs: false,
    };

    /// The searched value of `pos` at `depth` in the window (`alpha`, `beta`), with a fresh
    /// table and the value-changing pruning off.
    fn searched<G: Evaluate>(pos: &G, depth: i32, alpha: i32, beta: i32) -> i32 {
        let tt = TranspositionTable::new(1).expect("table");
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let mut s = Searcher::new(&tt, &stop, None, &limits, NO_PRUNING_CHANGES, &[]);
        s.value(pos, depth, 0, alpha, beta)
    }

    /// Checks the fail-soft contract of `v` searched in (`alpha`, `beta`) against `exact`.
    fn assert_fail_soft(v: i32, exact: i32, alpha: i32, beta: i32, what: &str) {
        if v <= alpha {
            assert!(exact <= v, "{what}: fail low {v} but exact {exact}");
        } else if v >= beta {
            assert!(exact >= v, "{what}: fail high {v} but exact {exact}");
        } else {
            assert_eq!(v, exact, "{what}: inside ({alpha}, {beta})");
        }
    }

    /// Chance and decision nodes along a fixed pseudo-random line from `start`.
    fn line<G: Game>(start: &G, plies: usize, seed: u64) -> Vec<G> {
        let mut out = Vec::new();
        let mut pos = start.clone();
        let mut x = seed;
        for _ in 0..plies {
            let actions = pos.actions();
            if actions.is_empty() {
                break;
            }
            out.push(pos.clone());
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.apply(actions[(x >> 33) as usize % actions.len()]);
        }
        out
    }

    #[test]
    fn star2_equals_expectimax_on_the_dice_race_in_every_window() {
        let mut checked = 0;
        for seed in 1..=6 {
            for pos in line(&DiceRace::new(), 14, seed) {
                for depth in 1..=4 {
                    let exact = plain(&pos, depth, 0);
                    let full = searched(&pos, depth, -MATE - 1, MATE + 1);
                    assert_eq!(full, exact, "{pos:?} depth {depth}");
                    for (a, b) in [
                        (exact - 1, exact + 1),
                        (exact, exact + 1),
                        (exact - 40, exact - 20),
                    ] {
                        let v = searched(&pos, depth, a, b);
                        assert_fail_soft(v, exact, a, b, &format!("{pos:?} depth {depth}"));
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 200, "{checked}");
    }

    /// Ludo scores are bounded by +-10000, so Star1 and the probes cut there; its chance
    /// nodes have six equal outcomes and every child is a turn node.
    #[test]
    fn star2_equals_expectimax_on_ludo_in_every_window() {
        let rules = RuleOptions::default();
        let starts = [
            "b,b,3,20/b,5,30,44 r - 0",
            "b,10,27,50/b,4,4,51 y - 0",
            "0,13,40,53/b,b,22,56 r - 1",
            "b,b,b,30/b,b,b,0 y - 0",
        ];
        let mut cuts = 0;
        for (k, text) in starts.iter().enumerate() {
            let start = Ludo::parse_position(text, &rules).expect(text);
            for pos in line(&start, 8, k as u64) {
                for depth in 1..=3 {
                    let exact = plain(&pos, depth, 0);
                    let what = format!("{} depth {depth}", pos.format_position());
                    assert_eq!(searched(&pos, depth, -MATE - 1, MATE + 1), exact, "{what}");
                    for (a, b) in [
                        (exact - 1, exact + 1),
                        (exact - 300, exact - 299),
                        (exact - 40, exact - 39),
                        (exact + 30, exact + 31),
                        (exact + 250, exact + 251),
                        (-MATE - 1, exact - 1),
                        (exact + 1, MATE + 1),
                    ] {
                        let v = searched(&pos, depth, a, b);
                        assert_fail_soft(v, exact, a, b, &what);
                        cuts += usize::from(v != exact);
                    }
                }
            }
        }
        // Failing windows return bounds, not the exact value, when the node is cut.
        assert!(cuts > 10, "{cuts}");
    }
}
