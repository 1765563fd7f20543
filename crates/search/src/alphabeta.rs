//! Turn nodes: principal variation search with a transposition table, move ordering
//! (table move, noisy moves by their hint, killers, history), null-move pruning where the
//! game offers a pass, late-move reductions and the shallow pruning of `pruning.rs` (all
//! switched by `Features::reductions`), and quiescence on noisy moves at the horizon.
//!
//! The window arrives in first-player values; inside a node it is turned to the mover's
//! view (`side_window`), and each child's first-player value is turned back.

use super::pruning;
use super::searcher::Searcher;
use super::tt::{Bound, Entry};
use quartet_core::eval::{Evaluate, MATE, MATE_BOUND};
use quartet_core::game::Player;

/// Ordering key of the transposition-table move.
const KEY_TT: i32 = 1 << 30;
/// Base ordering key of noisy moves (plus their hint, within ± [`NOISY_HINT_MAX`]).
const KEY_NOISY: i32 = 1 << 28;
/// Noisy moves' ordering hints are clamped to ± this, so their keys stay above the
/// killers' and the history's.
const NOISY_HINT_MAX: i32 = 1 << 24;
/// Ordering key of the first killer (the second gets one less).
const KEY_KILLER: i32 = 1 << 27;
/// Ordering key of the countermove (below the second killer).
const KEY_COUNTER: i32 = KEY_KILLER - 2;
/// History scores stay within ± this (below the killer keys).
const HISTORY_MAX: i32 = 1 << 20;
/// Null-move pruning is tried from this depth on.
const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Nodes in danger ([`Evaluate::in_danger`]) are extended only this close to the root, so
/// that a long series of threats cannot deepen a path without end.
const EXTENSION_MAX_PLY: usize = crate::MAX_PLY / 2;
/// Without a table move, nodes from this depth on are searched a ply shallower (internal
/// iterative reduction: a node the last iteration did not reach is likely unimportant, and
/// its shallower search finds a move to try first next time).
const IIR_MIN_DEPTH: i32 = 4;

/// The first-player window corresponding to the open window (`a`, `b`) of the player
/// with sign `s` (and back: the map is its own inverse).
pub(crate) fn side_window(s: i32, a: i32, b: i32) -> (i32, i32) {
    if s > 0 { (a, b) } else { (-b, -a) }
}

/// A first-player bound seen by the player with sign `s`.
fn side_bound(s: i32, bound: Bound) -> Bound {
    match (s > 0, bound) {
        (true, b) | (false, b @ Bound::Exact) => b,
        (false, Bound::Lower) => Bound::Upper,
        (false, Bound::Upper) => Bound::Lower,
    }
}

impl<G: Evaluate> Searcher<'_, G> {
    /// A turn node of player `p` with `depth > 0` (see [`Searcher::value`]).
    pub(crate) fn turn(
        &mut self,
        pos: &G,
        p: Player,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let s = p.sign();
        let key = pos.hash();
        let danger = self.extends(pos, ply);
        let mut depth = depth + i32::from(danger);
        let entry = match self.turn_probe(pos, key, depth, ply, alpha, beta) {
            Ok(entry) => entry,
            Err(value) => return value,
        };
        let (mut a, b) = side_window(s, alpha, beta);
        let alpha_orig = a;
        let pv_node = b - a > 1;
        if self.features.reductions
            && G::PRUNING.is_some()
            && depth >= IIR_MIN_DEPTH
            && entry.and_then(|e| e.move_code).is_none()
        {
            depth -= 1;
        }
        // The mover's static value, where the game's shallow pruning may use it (never at
        // a node in danger: its static value says nothing about the threat).
        let stand = (self.features.reductions
            && !pv_node
            && !danger
            && pruning::wants_static_value::<G>(depth))
        .then(|| s * pos.search_value());
        if let Some(v) = stand.and_then(|st| pruning::reverse_futility::<G>(depth, st, b)) {
            return s * v;
        }
        if !danger && let Some(value) = self.null_move_cut(pos, s, stand, depth, ply, (a, b)) {
            return value;
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        pos.legal_moves(p, &mut moves);
        self.order(
            pos,
            p,
            &moves,
            &mut keys,
            ply,
            entry.and_then(|e| e.move_code),
        );

        let mut best = -MATE - 1;
        let mut best_move = None;
        let mut quiets_tried = 0usize;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            // The ordering key says it, except for the table's move.
            let noisy = if keys[i] == KEY_TT {
                pos.is_noisy(m)
            } else {
                keys[i] >= KEY_NOISY - NOISY_HINT_MAX
            };
            let late_quiet = i > 0 && !noisy && keys[i] < KEY_KILLER - 1;
            if late_quiet
                && best > -MATE_BOUND
                && let Some(st) = stand
                && pruning::skip_quiets::<G>(depth, st, a, quiets_tried)
            {
                // The moves left are quiet too: their keys are lower. Not while every move
                // tried loses: one of those left may save the game.
                break;
            }
            let mut child = pos.clone();
            child.play(m);
            self.played[ply + 1] = Some(G::move_code(m));
            let v = if i == 0 {
                self.child_value(&child, s, depth, ply, None, (a, b))
            } else {
                let reduction = self.reduction(depth, i, noisy, keys[i], pv_node);
                self.child_value(&child, s, depth, ply, Some(reduction), (a, b))
            };
            if self.aborted {
                break;
            }
            if !noisy {
                quiets_tried += 1;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > a {
                    a = v;
                    self.update_pv(ply, m);
                }
                if v >= b {
                    if !noisy {
                        self.reward_quiet(p, &moves[..=i], &keys[..=i], depth, ply, quiets_tried);
                    }
                    break;
                }
            }
        }
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        if self.aborted {
            return 0;
        }
        let bound = if best >= b {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            ply as u32,
            Entry {
                move_code: best_move.map(G::move_code),
                value: s * best,
                depth,
                bound: side_bound(s, bound),
            },
        );
        s * best
    }

    /// Whether the turn node `pos` at `ply` is extended by a ply: the side to move is in
    /// danger ([`Evaluate::in_danger`]), in a game that declares its pruning, with
    /// `Features::reductions`, below [`EXTENSION_MAX_PLY`] and below twice the iteration's
    /// depth (as Stockfish bounds its extensions: without it a series of threats past the
    /// horizon searches every reply of every threatened node, and a shallow iteration under
    /// a small node budget never ends).
    #[inline(always)]
    pub(crate) fn extends(&self, pos: &G, ply: usize) -> bool {
        self.features.reductions
            && G::PRUNING.is_some()
            && ply < EXTENSION_MAX_PLY.min(2 * self.root_depth as usize)
            && pos.in_danger()
    }

    /// Before a turn node's moves: a repetition draw or a table cut-off ends the node with
    /// `Err(value)`; otherwise the table's entry, if any, orders the moves.
    #[inline(always)]
    fn turn_probe(
        &mut self,
        pos: &G,
        key: u64,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<Option<Entry>, i32> {
        if ply > 0
            && let Some(window) = pos.repetition_window()
            && self.is_repetition(key, window)
        {
            return Err(0);
        }
        let pv_node = beta - alpha > 1;
        let entry = self.tt.probe(key, ply as u32);
        if let Some(e) = entry
            && self.features.tt_cutoffs
            && !pv_node
            && e.cuts(depth, alpha, beta)
        {
            return Err(e.value);
        }
        Ok(entry)
    }

    /// Null-move pruning at a non-PV node (the window `(a, b)` in the mover's view) of the
    /// mover with sign `s` whose static value (`stand`, if the node has computed it
    /// already) reaches beta: if even passing the turn ([`Evaluate::null_move`]), searched
    /// `R = 2 + depth / 4` plies shallower with a null window at beta, fails high, the node
    /// is cut (`Some`: a first-player lower bound for the mover, capped below the mate
    /// band, since a mate found after a pass is no proof). Only with
    /// `Features::reductions`, from [`NULL_MOVE_MIN_DEPTH`], not right after a null move,
    /// not when beta is a mate score, and only where the game offers a pass.
    #[inline(always)]
    fn null_move_cut(
        &mut self,
        pos: &G,
        s: i32,
        stand: Option<i32>,
        depth: i32,
        ply: usize,
        (a, b): (i32, i32),
    ) -> Option<i32> {
        if !self.features.reductions
            || depth < NULL_MOVE_MIN_DEPTH
            || b - a > 1
            || b.abs() >= MATE_BOUND
            || self.after_null()
        {
            return None;
        }
        // Asked before the static value, which a game without passes need not compute.
        let child = pos.null_move()?;
        if stand.unwrap_or_else(|| s * pos.search_value()) < b {
            return None;
        }
        let reduction = 2 + depth / 4;
        let (lo, hi) = side_window(s, b - 1, b);
        self.played[ply + 1] = None;
        let v = s * self.null_value(&child, (depth - 1 - reduction).max(0), ply + 1, lo, hi);
        if self.aborted {
            return Some(0);
        }
        (v >= b).then(|| s * v.min(MATE_BOUND - 1))
    }

    /// The late-move reduction of the `i`-th move (ordering key `key`) at `depth`, at a
    /// node with an open window if `pv_node`: quiet moves that are neither the table's
    /// move nor killers, after the first two by the game's table ([`Evaluate::PRUNING`]),
    /// or else after the first three by one ply (two from depth 6 and the ninth move).
    #[inline(always)]
    fn reduction(&self, depth: i32, i: usize, noisy: bool, key: i32, pv_node: bool) -> i32 {
        if !self.features.reductions || noisy || key >= KEY_KILLER - 1 {
            0
        } else if G::PRUNING.is_some() {
            if depth >= 3 && i >= 2 {
                self.reductions.of(depth, i, pv_node)
            } else {
                0
            }
        } else if depth >= 3 && i >= 3 {
            1 + i32::from(depth >= 6 && i >= 8)
        } else {
            0
        }
    }

    /// A child's value for the mover of sign `s` with the open window `(a, b)` in the
    /// mover's view, by principal variation search: the first child (`reduction` `None`)
    /// with the full window; the others with a null window, `reduction` plies shallower,
    /// re-searched at full depth and then with the full window while they beat `a`.
    #[inline(always)]
    fn child_value(
        &mut self,
        child: &G,
        s: i32,
        depth: i32,
        ply: usize,
        reduction: Option<i32>,
        (a, b): (i32, i32),
    ) -> i32 {
        let Some(reduction) = reduction else {
            let (lo, hi) = side_window(s, a, b);
            return s * self.value(child, depth - 1, ply + 1, lo, hi);
        };
        let (lo, hi) = side_window(s, a, a + 1);
        let mut v = s * self.value(child, depth - 1 - reduction, ply + 1, lo, hi);
        if v > a && reduction > 0 {
            v = s * self.value(child, depth - 1, ply + 1, lo, hi);
        }
        if v > a && v < b {
            let (lo, hi) = side_window(s, a, b);
            v = s * self.value(child, depth - 1, ply + 1, lo, hi);
        }
        v
    }

    /// Quiescence at a turn node of `p`: the static value stands unless a noisy move
    /// improves on it.
    pub(crate) fn quiesce(&mut self, pos: &G, p: Player, ply: usize, alpha: i32, beta: i32) -> i32 {
        let s = p.sign();
        let (mut a, b) = side_window(s, alpha, beta);
        let stand = s * pos.search_value();
        if stand >= b {
            return s * stand;
        }
        a = a.max(stand);
        let mut best = stand;
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut keys = std::mem::take(&mut self.keys[ply]);
        pos.noisy_moves(p, &mut moves);
        keys.clear();
        keys.extend(moves.iter().map(|&m| pos.order_hint(m)));
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let mut child = pos.clone();
            child.play(moves[i]);
            self.played[ply + 1] = Some(G::move_code(moves[i]));
            let (lo, hi) = side_window(s, a, b);
            let v = s * self.value(&child, 0, ply + 1, lo, hi);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > a {
                    a = v;
                }
                if v >= b {
                    break;
                }
            }
        }
        self.moves[ply] = moves;
        self.keys[ply] = keys;
        s * best
    }

    /// Fills `keys` with ordering keys parallel to `moves`.
    pub(crate) fn order(
        &self,
        pos: &G,
        p: Player,
        moves: &[G::Move],
        keys: &mut Vec<i32>,
        ply: usize,
        tt_move: Option<u32>,
    ) {
        keys.clear();
        let killers = self.killers[ply];
        let counter = self.countermove(p, ply);
        let history = &self.history[p.index() * G::MOVE_CODES..];
        keys.extend(moves.iter().map(|&m| {
            let code = G::move_code(m);
            if Some(code) == tt_move {
                KEY_TT
            } else if pos.is_noisy(m) {
                KEY_NOISY + pos.order_hint(m).clamp(-NOISY_HINT_MAX, NOISY_HINT_MAX)
            } else if killers[0] == Some(m) {
                KEY_KILLER
            } else if killers[1] == Some(m) {
                KEY_KILLER - 1
            } else if counter == Some(m) {
                KEY_COUNTER
            } else {
                history[code as usize]
            }
        }));
    }

    /// The index of `p`'s countermove to the move that led to `ply`, if the game keeps
    /// countermoves and that move is known.
    #[inline(always)]
    fn countermove_index(&self, p: Player, ply: usize) -> Option<usize> {
        let code = self.played[ply]?;
        (!self.countermoves.is_empty()).then(|| p.index() * G::MOVE_CODES + code as usize)
    }

    /// `p`'s countermove at `ply`: the quiet move that last refuted the move that led here.
    #[inline(always)]
    fn countermove(&self, p: Player, ply: usize) -> Option<G::Move> {
        self.countermove_index(p, ply)
            .and_then(|i| self.countermoves[i])
    }

    /// Makes `m` followed by the child's line the principal variation at `ply`.
    pub(crate) fn update_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// A quiet move (the last of `tried`) caused a cut-off: make it a killer and the
    /// countermove to the move that led here, raise its history and lower that of the
    /// quiet moves tried before it.
    fn reward_quiet(
        &mut self,
        p: Player,
        tried: &[G::Move],
        keys: &[i32],
        depth: i32,
        ply: usize,
        quiets_tried: usize,
    ) {
        let Some((&m, earlier)) = tried.split_last() else {
            return;
        };
        let killers = &mut self.killers[ply];
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        if let Some(i) = self.countermove_index(p, ply) {
            self.countermoves[i] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let base = p.index() * G::MOVE_CODES;
        let bump = |h: &mut i32, delta: i32| {
            *h += delta - *h * delta.abs() / HISTORY_MAX;
        };
        bump(&mut self.history[base + G::move_code(m) as usize], bonus);
        if quiets_tried > 1 {
            for (&q, &k) in earlier.iter().zip(keys) {
                if k < KEY_KILLER - 1 {
                    bump(&mut self.history[base + G::move_code(q) as usize], -bonus);
                }
            }
        }
    }
}

/// Moves the entry with the highest key among `i..` to position `i` (selection sort one
/// step at a time: most nodes cut off after a few moves).
pub(crate) fn pick_next<M>(moves: &mut [M], keys: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    keys.swap(i, best);
}
