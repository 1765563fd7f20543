//! Perft: counting the leaves of the game tree to a fixed depth, to check move generation.
//! Every token of a move list is one ply (a move, a chance outcome, a joint turn); a
//! finished position has no children. The last ply is bulk-counted with
//! [`Game::count_children`].

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Action, Game, MoveList, Node, Player};

/// The number of leaves `depth` plies below `pos` (1 at depth 0).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers = Buffers::new(depth as usize);
    count(pos, depth, 0, &mut buffers, &AtomicBool::new(false))
}

/// Perft per root action: each child action of `pos` with the leaf count below it,
/// in the stable order of [`Game::actions`].
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Action<G::Move>, u64)> {
    let mut rows = Vec::new();
    divide_until(pos, depth, &AtomicBool::new(false), &mut |a, n| {
        rows.push((a, n))
    });
    rows
}

/// [`divide`], streamed and stoppable: calls `visit` with each root action and its count as
/// soon as it is known. Once `stop` is set the count under way is abandoned (never
/// reported) and `false` is returned; `true` when every root action was reported.
pub fn divide_until<G: Game>(
    pos: &G,
    depth: u32,
    stop: &AtomicBool,
    visit: &mut dyn FnMut(Action<G::Move>, u64),
) -> bool {
    if depth == 0 {
        return true;
    }
    let mut buffers = Buffers::new(depth as usize);
    let mut one = |action: Action<G::Move>| {
        let mut child = pos.clone();
        child.apply(action);
        let n = count(&child, depth - 1, 0, &mut buffers, stop);
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        visit(action, n);
        true
    };
    if pos.node() != Node::Simultaneous {
        return pos.actions().into_iter().all(one);
    }
    // Joint turns one by one, in the order of `actions`, without listing their product
    // (R&B's joint setup has 133,402,500).
    let mut a = MoveList::new();
    let mut b = MoveList::new();
    pos.legal_moves(Player::First, &mut a);
    pos.legal_moves(Player::Second, &mut b);
    a.iter()
        .all(|&x| b.iter().all(|&y| one(Action::Joint(x, y))))
}

/// Reusable move buffers, one set per ply, so that counting does not allocate per node.
struct Buffers<M> {
    first: Vec<MoveList<M>>,
    second: Vec<MoveList<M>>,
    outcomes: Vec<Vec<(M, u32)>>,
}

impl<M> Buffers<M> {
    fn new(plies: usize) -> Self {
        Buffers {
            first: (0..plies).map(|_| MoveList::new()).collect(),
            second: (0..plies).map(|_| MoveList::new()).collect(),
            outcomes: (0..plies).map(|_| Vec::new()).collect(),
        }
    }
}

/// The leaves `depth` plies below `pos`; 0 (a meaningless partial count) once `stop` is
/// set, which is looked at in every node with at least 3 plies below it.
fn count<G: Game>(
    pos: &G,
    depth: u32,
    ply: usize,
    buffers: &mut Buffers<G::Move>,
    stop: &AtomicBool,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_children();
    }
    if depth >= 3 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    let mut total = 0;
    match pos.node() {
        Node::Terminal(_) => {}
        Node::Turn(p) => {
            let mut moves = std::mem::take(&mut buffers.first[ply]);
            pos.legal_moves(p, &mut moves);
            for &m in &moves {
                let mut child = pos.clone();
                child.play(m);
                total += count(&child, depth - 1, ply + 1, buffers, stop);
            }
            buffers.first[ply] = moves;
        }
        Node::Chance => {
            let mut outcomes = std::mem::take(&mut buffers.outcomes[ply]);
            pos.chance_outcomes(&mut outcomes);
            for &(m, _) in &outcomes {
                let mut child = pos.clone();
                child.play(m);
                total += count(&child, depth - 1, ply + 1, buffers, stop);
            }
            buffers.outcomes[ply] = outcomes;
        }
        Node::Simultaneous => {
            let mut a = std::mem::take(&mut buffers.first[ply]);
            let mut b = std::mem::take(&mut buffers.second[ply]);
            pos.legal_moves(Player::First, &mut a);
            pos.legal_moves(Player::Second, &mut b);
            for &x in &a {
                for &y in &b {
                    let mut child = pos.clone();
                    child.play_legal_joint(x, y);
                    total += count(&child, depth - 1, ply + 1, buffers, stop);
                }
            }
            buffers.first[ply] = a;
            buffers.second[ply] = b;
        }
    }
    total
}
