//! Iterative deepening at the root: one iteration per depth (a helper thread skips some,
//! `smp.rs`), MultiPV lines at turn roots,
//! reports after each completed iteration, and the stopping rules (depth, nodes, time).

use super::alphabeta::side_window;
use super::searcher::Searcher;
use super::{Info, Limits, SearchResult, Settings};
use quartet_core::eval::{Evaluate, MATE};
use quartet_core::game::{Action, Node, Player};

/// The score of a root move not (or not yet) searched to a value in this iteration.
const UNSEARCHED: i32 = -MATE - 1;

/// A root move with its value from the last search that finished it.
struct RootMove<M> {
    m: M,
    /// Value from the mover's view, or [`UNSEARCHED`] if it failed low or was not reached.
    score: i32,
    /// Its principal variation, starting with `m`.
    pv: Vec<M>,
}

/// Whether another iteration may start: not after an abort, and not once half of the soft
/// time budget has gone (the next iteration would likely not finish in time), except for
/// a budget used to its deadline (`movetime`).
pub(crate) fn may_continue<G: Evaluate>(s: &Searcher<'_, G>, limits: &Limits) -> bool {
    !s.aborted
        && limits.time.is_none_or(|t| {
            let elapsed = s.started.elapsed();
            if t.to_deadline {
                elapsed < t.hard
            } else {
                elapsed < t.soft / 2
            }
        })
}

/// Whether `go mate N` is answered: `score` (the mover's) is a forced win in at most N
/// own moves.
fn mate_found(limits: &Limits, score: i32) -> bool {
    limits.mate.is_some_and(|n| {
        score >= quartet_core::eval::MATE_BOUND && (MATE - score + 1) / 2 <= n as i32
    })
}

/// Iterative deepening at a turn root, with `settings.multipv` lines.
pub fn search_turn_root<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    searchmoves: &[G::Move],
    limits: &Limits,
    settings: &Settings,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let Node::Turn(p) = root.node() else {
        return empty_result();
    };
    let mut root_moves = ordered_root_moves(s, root, p);
    if !searchmoves.is_empty() {
        root_moves.retain(|r| searchmoves.contains(&r.m));
    }
    // Before any iteration and outside the node budget: a move that loses at once is
    // never searched, so never played, while another does not (`screen.rs`).
    super::screen::keep_safe_moves(root, p, &mut root_moves, |r| r.m);
    let Some(first) = root_moves.first() else {
        return empty_result();
    };
    let mut result = SearchResult {
        best: Some(Action::Single(first.m)),
        score: 0,
        depth: 0,
        nodes: 0,
        pv: vec![Action::Single(first.m)],
        policy: Vec::new(),
    };
    let lines = settings.multipv.clamp(1, root_moves.len());
    s.push_root(root.hash());
    for depth in crate::smp::depths(s.thread, limits.last_depth()) {
        s.root_depth = depth;
        for line in 0..lines {
            let line_best = if lines == 1 {
                aspirated_line(s, root, p.sign(), &mut root_moves, depth, result.score)
            } else {
                search_line(s, root, p.sign(), &mut root_moves, line, depth, FULL_WINDOW)
            };
            if s.aborted {
                // An interrupted iteration still counts for a first line whose best move
                // was searched to the end (it beat the previous best under a full window).
                if line == 0
                    && let Some(i) = line_best
                {
                    let rm = &root_moves[i];
                    result.best = Some(Action::Single(rm.m));
                    result.score = rm.score;
                    result.pv = rm.pv.iter().map(|&m| Action::Single(m)).collect();
                }
                result.nodes = s.nodes();
                return result;
            }
            // Stable: among equal scores the earlier order stays.
            root_moves[line..].sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        let best = &root_moves[0];
        result = SearchResult {
            best: Some(Action::Single(best.m)),
            score: best.score,
            depth,
            nodes: s.nodes(),
            pv: best.pv.iter().map(|&m| Action::Single(m)).collect(),
            policy: Vec::new(),
        };
        report_lines(s, &root_moves[..lines], depth, report);
        let forced = root_moves.len() == 1 && limits.time.is_some();
        if forced || mate_found(limits, result.score) || !may_continue(s, limits) {
            break;
        }
    }
    result.nodes = s.nodes();
    result
}

/// The legal moves of `p` at the root, in the search's move order, none searched yet.
fn ordered_root_moves<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    p: Player,
) -> Vec<RootMove<G::Move>> {
    let mut moves = Vec::new();
    let mut keys = Vec::new();
    root.legal_moves(p, &mut moves);
    s.order(root, p, &moves, &mut keys, 0, None);
    let mut keyed: Vec<(i32, RootMove<G::Move>)> = keys
        .into_iter()
        .zip(moves.iter().map(|&m| RootMove {
            m,
            score: UNSEARCHED,
            pv: vec![m],
        }))
        .collect();
    keyed.sort_by_key(|(k, _)| std::cmp::Reverse(*k));
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// The whole window of root values, in the mover's view.
const FULL_WINDOW: (i32, i32) = (UNSEARCHED, MATE + 1);
/// Aspiration windows start from this depth (the iteration before has a value).
const ASPIRATION_MIN_DEPTH: u32 = 4;

/// The single line of one iteration at `depth` searched with an aspiration window around
/// `last`, the value of the iteration before (the mover's view): a window of a quarter of
/// the game's pruning margin ([`Evaluate::PRUNING`]) on each side, widened on the side
/// the search fell out of, twice as far each time, until the value falls inside. Games
/// without the declaration, shallow iterations and mate scores take the whole window.
/// Returns what [`search_line`] returns for the last window searched.
fn aspirated_line<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    sign: i32,
    root_moves: &mut [RootMove<G::Move>],
    depth: u32,
    last: i32,
) -> Option<usize> {
    let margin = match G::PRUNING {
        Some(p) if depth >= ASPIRATION_MIN_DEPTH && last.abs() < quartet_core::eval::MATE_BOUND => {
            p.margin
        }
        _ => return search_line(s, root, sign, root_moves, 0, depth, FULL_WINDOW),
    };
    let mut delta = (margin / 4).max(1);
    let (mut lo, mut hi) = (last - delta, last + delta);
    loop {
        let best = search_line(s, root, sign, root_moves, 0, depth, (lo, hi));
        if s.aborted {
            return best;
        }
        match best {
            None => lo = (lo - delta).max(UNSEARCHED),
            Some(i) if root_moves[i].score >= hi => {
                // The move that failed high is searched first next time.
                root_moves[..=i].rotate_right(1);
                hi = (hi + delta).min(MATE + 1);
            }
            found => return found,
        }
        delta = delta.saturating_mul(2);
    }
}

/// Searches MultiPV line `line` of one iteration within the window `(lo, hi)` of the
/// mover's values (sign `sign`): the moves from `line` on, the first with the window, the
/// others with a null window and a re-search when they beat it. Returns the index of the
/// line's best move that finished with a value above `lo` (`None`: every move failed
/// low); moves that did not are left [`UNSEARCHED`]. A move reaching `hi` ends the line
/// (a fail-high: its value is a lower bound, and the moves after it keep their values of
/// the iteration before).
fn search_line<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    sign: i32,
    root_moves: &mut [RootMove<G::Move>],
    line: usize,
    depth: u32,
    (lo, hi): (i32, i32),
) -> Option<usize> {
    let mut line_best = None;
    let mut alpha = lo;
    let beta = hi;
    for i in crate::smp::root_order(s.thread, line, root_moves.len()) {
        let rm = &mut root_moves[i];
        let mut child = root.clone();
        child.play(rm.m);
        s.played[1] = Some(G::move_code(rm.m));
        let d = depth as i32 - 1;
        let mut v = if i == line {
            let (lo, hi) = side_window(sign, alpha, beta);
            sign * s.value(&child, d, 1, lo, hi)
        } else {
            let (lo, hi) = side_window(sign, alpha, alpha + 1);
            sign * s.value(&child, d, 1, lo, hi)
        };
        if i > line && v > alpha && !s.aborted {
            let (lo, hi) = side_window(sign, alpha, beta);
            v = sign * s.value(&child, d, 1, lo, hi);
        }
        if s.aborted {
            break;
        }
        if v > alpha {
            rm.score = v;
            rm.pv.clear();
            rm.pv.push(rm.m);
            rm.pv.extend_from_slice(&s.pv[1]);
            alpha = v;
            line_best = Some(i);
            if v >= beta {
                break;
            }
        } else {
            rm.score = UNSEARCHED;
        }
    }
    line_best
}

/// Reports each of `lines` after a completed iteration.
fn report_lines<G: Evaluate>(
    s: &Searcher<'_, G>,
    lines: &[RootMove<G::Move>],
    depth: u32,
    report: &mut dyn FnMut(&Info<G::Move>),
) {
    for (i, rm) in lines.iter().enumerate() {
        report(&Info {
            depth,
            seldepth: s.seldepth.max(depth),
            multipv: i + 1,
            score: rm.score,
            nodes: s.nodes(),
            time: s.started.elapsed(),
            hashfull: s.tt.hashfull(),
            pv: rm.pv.iter().map(|&m| Action::Single(m)).collect(),
        });
    }
}

/// Iterative deepening of the value of a chance or simultaneous root: no move is chosen,
/// only the value is reported (from the first player's view).
pub fn search_value_root<G: Evaluate>(
    s: &mut Searcher<'_, G>,
    root: &G,
    limits: &Limits,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut result = empty_result();
    for depth in crate::smp::depths(s.thread, limits.last_depth()) {
        s.root_depth = depth;
        let v = s.value(root, depth as i32, 0, -MATE - 1, MATE + 1);
        if s.aborted {
            break;
        }
        result.score = v;
        result.depth = depth;
        report(&Info {
            depth,
            seldepth: s.seldepth.max(depth),
            multipv: 1,
            score: v,
            nodes: s.nodes(),
            time: s.started.elapsed(),
            hashfull: s.tt.hashfull(),
            pv: Vec::new(),
        });
        if !may_continue(s, limits) {
            break;
        }
    }
    result.nodes = s.nodes();
    result
}

pub(crate) fn empty_result<M>() -> SearchResult<M> {
    SearchResult {
        best: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: Vec::new(),
        policy: Vec::new(),
    }
}
