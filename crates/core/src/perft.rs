//! Perft: counting the leaves of the game tree to a fixed depth, to check move generation.
//! Every token of a move list is one ply (a move, a chance outcome, a joint turn); a
//! finished position has no children. The last ply is bulk-counted with
//! [`Game::count_children`], the last two with [`Game::count_grandchildren`] where the game
//! offers it.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::{Action, Game, MoveList, Node, Player};

/// The number of leaves `depth` plies below `pos` (1 at depth 0).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers = buffers(depth as usize);
    count(pos, depth, &mut buffers, &AtomicBool::new(false))
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
    let mut buffers = buffers(depth as usize);
    let mut one = |action: Action<G::Move>| {
        let mut child = pos.clone();
        child.apply(action);
        let n = count(&child, depth - 1, &mut buffers, stop);
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

/// Reusable move buffers of one ply, so that counting does not allocate per node.
struct Ply<M> {
    first: MoveList<M>,
    second: MoveList<M>,
    outcomes: Vec<(M, u32)>,
}

/// Buffers for `plies` plies, the first for the node counted first.
fn buffers<M>(plies: usize) -> Vec<Ply<M>> {
    (0..plies)
        .map(|_| Ply {
            first: MoveList::new(),
            second: MoveList::new(),
            outcomes: Vec::new(),
        })
        .collect()
}

/// The leaves `depth` plies below `pos`; 0 (a meaningless partial count) once `stop` is
/// set, which is looked at in every node with at least 3 plies below it. `plies` holds a
/// buffer for each ply below. The bulk counts of the last plies are inlined into the loops
/// of [`expand`], which call this for every child.
#[inline(always)]
fn count<G: Game>(pos: &G, depth: u32, plies: &mut [Ply<G::Move>], stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_children(),
        2 => match pos.count_grandchildren() {
            Some(n) => n,
            None => expand(pos, depth, plies, stop),
        },
        _ if stop.load(Ordering::Relaxed) => 0,
        _ => expand(pos, depth, plies, stop),
    }
}

/// [`count`] at a node with at least 2 plies below it, by playing each child.
fn expand<G: Game>(pos: &G, depth: u32, plies: &mut [Ply<G::Move>], stop: &AtomicBool) -> u64 {
    let (here, deeper) = plies.split_at_mut(1);
    let here = &mut here[0];
    let mut total = 0;
    match pos.node() {
        Node::Terminal(_) => {}
        Node::Turn(p) => {
            pos.legal_moves(p, &mut here.first);
            for &m in &here.first {
                let mut child = pos.clone();
                child.play(m);
                total += count(&child, depth - 1, deeper, stop);
            }
        }
        Node::Chance => {
            pos.chance_outcomes(&mut here.outcomes);
            for &(m, _) in &here.outcomes {
                let mut child = pos.clone();
                child.play(m);
                total += count(&child, depth - 1, deeper, stop);
            }
        }
        Node::Simultaneous => {
            pos.legal_moves(Player::First, &mut here.first);
            pos.legal_moves(Player::Second, &mut here.second);
            for &x in &here.first {
                for &y in &here.second {
                    let mut child = pos.clone();
                    child.play_legal_joint(x, y);
                    total += count(&child, depth - 1, deeper, stop);
                }
            }
        }
    }
    total
}
