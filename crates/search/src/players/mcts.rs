//! The `mcts` player: plain UCT, the general-game-playing baseline.
//!
//! Each iteration walks from the root by UCB1 (exploration constant sqrt(2), rewards in
//! [0, 1] from the mover's view), samples chance outcomes by weight, lets both players of
//! a simultaneous node choose by UCB1 on their own statistics (decoupled UCT, with a little
//! uniform exploration, `SIMULTANEOUS_EXPLORATION` = 5%), adds one
//! leaf, plays uniformly random actions from it to the end of the game and credits the
//! result (1 / 0.5 / 0 for the first player's win / draw / loss, or the static evaluation
//! mapped into [0, 1] if the playout was capped) to every edge on the way. The answer is
//! the root's most visited move, or at a simultaneous root the asked side's most visited
//! declaration. See `tree.rs` for the tree and `playout.rs` for the rewards.

use super::BaselineBudget;
use super::playout::Playout;
use super::tree::{NONE, Shape, Span, Tree};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, MoveList, Node, Player};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The most nodes a search tree grows to (32 bytes each: 32 MiB). A full tree stops
/// growing and later iterations play out from its leaves.
pub const MAX_TREE_NODES: usize = 1 << 20;

/// The most edges and joint slots a search tree holds (24 bytes an edge for moves up to
/// 4 bytes: under 100 MiB).
pub const MAX_TREE_SLOTS: usize = 1 << 22;

/// The chance that a player at a simultaneous node picks a uniformly random arm instead
/// of its UCB1 choice. Deterministic UCB1 lets both players cycle through their arms in
/// lock-step, each arm always meeting the same opponent arm, so neither ever learns what
/// its arms do against the other's mix (see the test on a dominant declaration); the
/// convergence results for simultaneous-move MCTS assume such exploration (Lisý et al.,
/// NIPS 2013).
const SIMULTANEOUS_EXPLORATION: f64 = 0.05;

/// The most iterations one search runs (visit counts are 32-bit).
const MAX_ITERATIONS: u64 = u32::MAX as u64 - 1;

/// What an MCTS search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The action to play: `Action::Single` of the mover or of the asked side; `None` at
    /// chance and terminal roots and at a simultaneous root without a side.
    pub best: Option<Action<M>>,
    /// Iterations (playouts) run.
    pub iterations: u64,
    /// Nodes in the tree at the end.
    pub tree_nodes: usize,
    /// The visit counts of the root moves (or the asked side's declarations), most
    /// visited first; `best` is the first entry.
    pub policy: Vec<(M, u32)>,
}

/// Runs UCT from `pos` within `budget` (polling `stop` and the deadline before every
/// iteration) with a generator seeded with `seed`, and returns the most visited root
/// move. `side` names the side asked at a simultaneous root and is ignored elsewhere.
/// With `stop` already set, no iteration runs and the answer is a random legal action. A
/// turn root whose moves do not fit the tree gives no answer; a simultaneous root whose
/// joint slots do not fit gives a random declaration (no tree can learn there).
pub fn search<G: Evaluate>(
    pos: &G,
    side: Option<Player>,
    budget: &BaselineBudget,
    seed: u64,
    stop: &AtomicBool,
) -> MctsResult<G::Move> {
    search_in(
        pos,
        side,
        budget,
        seed,
        stop,
        MAX_TREE_NODES,
        MAX_TREE_SLOTS,
    )
}

/// [`search`] with a tree of at most `max_nodes` nodes and `max_slots` edge slots.
fn search_in<G: Evaluate>(
    pos: &G,
    side: Option<Player>,
    budget: &BaselineBudget,
    seed: u64,
    stop: &AtomicBool,
    max_nodes: usize,
    max_slots: usize,
) -> MctsResult<G::Move> {
    let mut result = MctsResult {
        best: None,
        iterations: 0,
        tree_nodes: 0,
        policy: Vec::new(),
    };
    let asked = match (pos.node(), side) {
        (Node::Turn(p), _) | (Node::Simultaneous, Some(p)) => p,
        _ => return result,
    };
    let mut mcts = Mcts::new(seed, max_nodes, max_slots);
    if !mcts.expand(0, pos) {
        // A simultaneous root too wide for the tree's slots (R&B's joint setup has
        // 133,402,500 joint slots): a uniformly random declaration of the side asked.
        if pos.node() == Node::Simultaneous {
            result.best = super::random::choose(pos, side, seed);
        }
        return result;
    }
    let span = match mcts.tree.nodes[0].shape {
        Shape::Turn { edges, .. } => edges,
        Shape::Simultaneous { first, second, .. } => match asked {
            Player::First => first,
            Player::Second => second,
        },
        _ => return result,
    };
    let limit = budget.iterations.unwrap_or(u64::MAX).min(MAX_ITERATIONS);
    while result.iterations < limit
        && !stop.load(Ordering::Relaxed)
        && budget.deadline.is_none_or(|d| Instant::now() < d)
    {
        mcts.iterate(pos);
        result.iterations += 1;
    }
    let tree = &mcts.tree;
    result.tree_nodes = tree.nodes.len();
    result.best = Some(Action::Single(tree.most_visited(span).mv));
    result.policy = tree.edges_by_visits(span);
    result
}

/// One step of an iteration's path: a node and the edges (up to two at a simultaneous
/// node) it left by.
#[derive(Clone, Copy)]
struct Step {
    node: u32,
    first: u32,
    second: u32,
}

/// Where an iteration goes from a node: through an edge or a joint slot.
enum Link {
    Edge(u32),
    Joint(u32),
}

/// The state of one search.
struct Mcts<G: Evaluate> {
    tree: Tree<G::Move>,
    playout: Playout<G>,
    rng: ChaCha8Rng,
    path: Vec<Step>,
    moves: MoveList<G::Move>,
    other: MoveList<G::Move>,
    outcomes: Vec<(G::Move, u32)>,
}

impl<G: Evaluate> Mcts<G> {
    fn new(seed: u64, max_nodes: usize, max_slots: usize) -> Self {
        Mcts {
            tree: Tree::new(max_nodes, max_slots),
            playout: Playout::new(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            path: Vec::new(),
            moves: MoveList::new(),
            other: MoveList::new(),
            outcomes: Vec::new(),
        }
    }

    /// Expands the leaf `node` at `pos`; false when the tree is full.
    fn expand(&mut self, node: u32, pos: &G) -> bool {
        let (moves, other, outcomes) = (&mut self.moves, &mut self.other, &mut self.outcomes);
        self.tree
            .expand(node, pos, &mut self.rng, moves, other, outcomes)
    }

    /// The arm `player` chooses among `span` at a simultaneous node visited `visits`
    /// times: uniformly at random with probability [`SIMULTANEOUS_EXPLORATION`], else by
    /// UCB1 on the player's own statistics.
    fn arm(&mut self, span: Span, player: Player, visits: u32) -> u32 {
        if self.rng.random_bool(SIMULTANEOUS_EXPLORATION) {
            span.start + self.rng.random_range(0..span.len)
        } else {
            self.tree.ucb1(span, player, visits, &mut self.rng)
        }
    }

    /// One iteration: selection, expansion by one leaf, playout, backpropagation.
    fn iterate(&mut self, root: &G) {
        let mut pos = root.clone();
        self.path.clear();
        let mut node = 0u32;
        let reward = loop {
            self.path.push(Step {
                node,
                first: NONE,
                second: NONE,
            });
            if self.tree.nodes[node as usize].shape == Shape::Leaf && !self.expand(node, &pos) {
                break self.playout.run(&mut pos, &mut self.rng);
            }
            let visits = self.tree.nodes[node as usize].visits;
            let (first, second, link) = match self.tree.nodes[node as usize].shape {
                // A leaf was expanded above; a stuck node scores a draw.
                Shape::Leaf | Shape::Stuck => break 0.5,
                Shape::Terminal(reward) => break reward,
                Shape::Turn { player, edges } => {
                    let e = self.tree.ucb1(edges, player, visits, &mut self.rng);
                    pos.play(self.tree.edges[e as usize].mv);
                    (e, NONE, Link::Edge(e))
                }
                Shape::Chance { edges } => {
                    let e = self.tree.sample(edges, &mut self.rng);
                    pos.play(self.tree.edges[e as usize].mv);
                    (e, NONE, Link::Edge(e))
                }
                Shape::Simultaneous {
                    first,
                    second,
                    joints,
                } => {
                    let a = self.arm(first, Player::First, visits);
                    let b = self.arm(second, Player::Second, visits);
                    let edges = &self.tree.edges;
                    pos.play_joint(edges[a as usize].mv, edges[b as usize].mv);
                    let slot = joints + (a - first.start) * second.len + (b - second.start);
                    (a, b, Link::Joint(slot))
                }
            };
            if let Some(step) = self.path.last_mut() {
                step.first = first;
                step.second = second;
            }
            let child = match link {
                Link::Edge(e) => self.tree.edges[e as usize].child,
                Link::Joint(s) => self.tree.joints[s as usize],
            };
            if child != NONE {
                node = child;
                continue;
            }
            if let Some(leaf) = self.tree.add_leaf() {
                match link {
                    Link::Edge(e) => self.tree.edges[e as usize].child = leaf,
                    Link::Joint(s) => self.tree.joints[s as usize] = leaf,
                }
                self.path.push(Step {
                    node: leaf,
                    first: NONE,
                    second: NONE,
                });
            }
            break self.playout.run(&mut pos, &mut self.rng);
        };
        for step in &self.path {
            self.tree.nodes[step.node as usize].visits += 1;
            for e in [step.first, step.second] {
                if e != NONE {
                    let edge = &mut self.tree.edges[e as usize];
                    edge.visits += 1;
                    edge.reward += reward;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
