//! Perft: counting the leaves of the game tree to a fixed depth, to check move generation.
//! Every token of a move list is one ply (a move, a chance outcome, a joint turn); a
//! finished position has no children. The last ply is bulk-counted with
//! [`Game::count_children`].

use crate::game::{Action, Game, MoveList, Node, Player};

/// The number of leaves `depth` plies below `pos` (1 at depth 0).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers = Buffers::new(depth as usize);
    count(pos, depth, 0, &mut buffers)
}

/// Perft per root action: each child action of `pos` with the leaf count below it,
/// in the stable order of [`Game::actions`].
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Action<G::Move>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers = Buffers::new(depth as usize);
    pos.actions()
        .into_iter()
        .map(|action| {
            let mut child = pos.clone();
            child.apply(action);
            (action, count(&child, depth - 1, 0, &mut buffers))
        })
        .collect()
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

fn count<G: Game>(pos: &G, depth: u32, ply: usize, buffers: &mut Buffers<G::Move>) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_children();
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
                total += count(&child, depth - 1, ply + 1, buffers);
            }
            buffers.first[ply] = moves;
        }
        Node::Chance => {
            let mut outcomes = std::mem::take(&mut buffers.outcomes[ply]);
            pos.chance_outcomes(&mut outcomes);
            for &(m, _) in &outcomes {
                let mut child = pos.clone();
                child.play(m);
                total += count(&child, depth - 1, ply + 1, buffers);
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
                    child.play_joint(x, y);
                    total += count(&child, depth - 1, ply + 1, buffers);
                }
            }
            buffers.first[ply] = a;
            buffers.second[ply] = b;
        }
    }
    total
}
