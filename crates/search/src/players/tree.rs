//! The MCTS tree: an arena of nodes and edges, grown by one node per iteration.
//!
//! A node is created as a leaf when an iteration first steps onto it and is expanded (its
//! edges created) the next time an iteration passes through it, so leaves cost no edges.
//! Edges keep the statistics: visits and the sum of rewards from the first player's view.
//!
//! - A `Turn` node has one edge per legal move.
//! - A `Chance` node has one edge per outcome with its weight; an iteration samples an
//!   outcome by weight and follows that edge, so each outcome has its own child (the
//!   tree is "closed-loop" over chance).
//! - A `Simultaneous` node has one edge ("arm") per declaration of each player, and a
//!   grid of joint children, one slot per pair of declarations (decoupled UCT: each player
//!   chooses its arm by UCB1 on its own statistics; the pair names the child).
//!
//! Edge lists are shuffled with the search's generator when a node is expanded, so ties in
//! visit counts at the root fall to a seeded random order; UCB1 breaks its own ties with
//! the generator too.

use super::playout::{outcome_reward, weighted_index};
use quartet_core::game::{Game, MoveList, Node, Player};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// "No node": an edge or joint slot whose child has not been created.
pub(crate) const NONE: u32 = u32::MAX;

/// The UCB1 exploration constant for rewards in [0, 1].
const EXPLORATION: f64 = std::f64::consts::SQRT_2;

/// A run of edges `start..start + len` in [`Tree::edges`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Span {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// What a node is, once expanded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Shape {
    /// Not expanded yet.
    Leaf,
    /// A finished game and the first player's reward.
    Terminal(f64),
    /// A decision of `player` among `edges`.
    Turn { player: Player, edges: Span },
    /// A chance node with one weighted edge per outcome.
    Chance { edges: Span },
    /// A simultaneous node: the arms of each player and the first of
    /// `first.len * second.len` joint slots in [`Tree::joints`] (row = first's arm).
    Simultaneous {
        first: Span,
        second: Span,
        joints: u32,
    },
    /// A decision node without legal moves (no correct game has one): scored a draw.
    Stuck,
}

/// A node of the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TreeNode {
    pub(crate) shape: Shape,
    pub(crate) visits: u32,
}

/// A move, outcome or declaration out of a node, with its statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge<M> {
    pub(crate) mv: M,
    /// The outcome's weight at a chance node; 0 elsewhere.
    pub(crate) weight: u32,
    /// The child node, or [`NONE`]; unused for simultaneous arms.
    pub(crate) child: u32,
    pub(crate) visits: u32,
    /// The sum of the first player's rewards of the iterations through this edge.
    pub(crate) reward: f64,
}

/// The arena. Node 0 is the root.
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<TreeNode>,
    pub(crate) edges: Vec<Edge<M>>,
    pub(crate) joints: Vec<u32>,
    max_nodes: usize,
    max_slots: usize,
}

impl<M: Copy> Tree<M> {
    /// A tree holding only a root leaf, which will not grow beyond `max_nodes` nodes and
    /// `max_slots` edges plus joint slots.
    pub(crate) fn new(max_nodes: usize, max_slots: usize) -> Self {
        Tree {
            nodes: vec![TreeNode {
                shape: Shape::Leaf,
                visits: 0,
            }],
            edges: Vec::new(),
            joints: Vec::new(),
            max_nodes,
            max_slots,
        }
    }

    /// A new leaf, or `None` when the tree is full.
    pub(crate) fn add_leaf(&mut self) -> Option<u32> {
        if self.nodes.len() >= self.max_nodes {
            return None;
        }
        self.nodes.push(TreeNode {
            shape: Shape::Leaf,
            visits: 0,
        });
        Some((self.nodes.len() - 1) as u32)
    }

    /// Expands the leaf `node`, whose position is `pos`, and returns whether it did (a
    /// full tree leaves it a leaf). `moves`, `other` and `outcomes` are scratch buffers.
    pub(crate) fn expand<G: Game<Move = M>>(
        &mut self,
        node: u32,
        pos: &G,
        rng: &mut ChaCha8Rng,
        moves: &mut MoveList<M>,
        other: &mut MoveList<M>,
        outcomes: &mut Vec<(M, u32)>,
    ) -> bool {
        let shape = match pos.node() {
            Node::Terminal(outcome) => Shape::Terminal(outcome_reward(outcome)),
            Node::Turn(player) => {
                pos.legal_moves(player, moves);
                if !self.has_room(moves.len()) {
                    return false;
                }
                moves.shuffle(rng);
                match self.push_edges(moves.iter().map(|&m| (m, 0))) {
                    Some(edges) => Shape::Turn { player, edges },
                    None => Shape::Stuck,
                }
            }
            Node::Chance => {
                pos.chance_outcomes(outcomes);
                if !self.has_room(outcomes.len()) {
                    return false;
                }
                match self.push_edges(outcomes.iter().copied()) {
                    Some(edges) => Shape::Chance { edges },
                    None => Shape::Stuck,
                }
            }
            Node::Simultaneous => {
                pos.legal_moves(Player::First, moves);
                pos.legal_moves(Player::Second, other);
                let grid = moves.len() * other.len();
                if !self.has_room(moves.len() + other.len() + grid) {
                    return false;
                }
                moves.shuffle(rng);
                other.shuffle(rng);
                let first = self.push_edges(moves.iter().map(|&m| (m, 0)));
                let second = self.push_edges(other.iter().map(|&m| (m, 0)));
                match (first, second) {
                    (Some(first), Some(second)) => {
                        let joints = self.joints.len() as u32;
                        self.joints.resize(self.joints.len() + grid, NONE);
                        Shape::Simultaneous {
                            first,
                            second,
                            joints,
                        }
                    }
                    _ => Shape::Stuck,
                }
            }
        };
        self.nodes[node as usize].shape = shape;
        true
    }

    fn has_room(&self, slots: usize) -> bool {
        self.edges.len() + self.joints.len() + slots <= self.max_slots
    }

    /// Appends one edge per `(move, weight)`; `None` (appending nothing) if there are none.
    fn push_edges(&mut self, items: impl Iterator<Item = (M, u32)>) -> Option<Span> {
        let start = self.edges.len() as u32;
        self.edges.extend(items.map(|(mv, weight)| Edge {
            mv,
            weight,
            child: NONE,
            visits: 0,
            reward: 0.0,
        }));
        let len = self.edges.len() as u32 - start;
        (len > 0).then_some(Span { start, len })
    }

    /// The edge of `span` that UCB1 picks for `player` under a parent visited
    /// `parent_visits` times: an unvisited edge if there is one, else the highest
    /// `mean + sqrt(2) * sqrt(ln(parent_visits) / visits)` with the mean reward taken from
    /// `player`'s view. Ties are broken uniformly at random with `rng`: at a simultaneous
    /// node a fixed tie order would let both players step through their arms in lock-step
    /// and never learn from each other.
    pub(crate) fn ucb1(
        &self,
        span: Span,
        player: Player,
        parent_visits: u32,
        rng: &mut ChaCha8Rng,
    ) -> u32 {
        let log_parent = f64::from(parent_visits.max(1)).ln();
        let mut best = span.start;
        let mut best_score = f64::NEG_INFINITY;
        let mut ties = 0u32;
        for (i, edge) in self.edges[span.range()].iter().enumerate() {
            let score = if edge.visits == 0 {
                f64::INFINITY
            } else {
                let n = f64::from(edge.visits);
                let mean = match player {
                    Player::First => edge.reward / n,
                    Player::Second => 1.0 - edge.reward / n,
                };
                mean + EXPLORATION * (log_parent / n).sqrt()
            };
            if score > best_score {
                (best, best_score, ties) = (span.start + i as u32, score, 1);
            } else if score == best_score {
                // Reservoir sampling: each of the k tied edges is kept with chance 1/k.
                ties += 1;
                if rng.random_range(0..ties) == 0 {
                    best = span.start + i as u32;
                }
            }
        }
        best
    }

    /// An edge of the chance node's `span` drawn with probability proportional to its
    /// outcome's weight (the first edge if all weights are zero).
    pub(crate) fn sample(&self, span: Span, rng: &mut ChaCha8Rng) -> u32 {
        let edges = &self.edges[span.range()];
        let index = weighted_index(edges.iter().map(|e| e.weight), rng).unwrap_or(0);
        span.start + index as u32
    }

    /// The most visited edge of `span` (the first one on ties).
    pub(crate) fn most_visited(&self, span: Span) -> &Edge<M> {
        let edges = &self.edges[span.range()];
        let mut best = &edges[0];
        for edge in edges {
            if edge.visits > best.visits {
                best = edge;
            }
        }
        best
    }

    /// The edges of `span`, most visited first.
    pub(crate) fn edges_by_visits(&self, span: Span) -> Vec<(M, u32)> {
        let mut out: Vec<(M, u32)> = self.edges[span.range()]
            .iter()
            .map(|e| (e.mv, e.visits))
            .collect();
        out.sort_by_key(|&(_, visits)| std::cmp::Reverse(visits));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_testkit::toys::Goofspiel;
    use quartet_testkit::toys::{DiceRace, TicTacToe};
    use rand::SeedableRng;

    fn expanded<G: Game>(pos: &G, max_slots: usize) -> (Tree<G::Move>, bool) {
        let mut tree = Tree::new(10, max_slots);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut a, mut b, mut o) = (Vec::new(), Vec::new(), Vec::new());
        let done = tree.expand(0, pos, &mut rng, &mut a, &mut b, &mut o);
        (tree, done)
    }

    #[test]
    fn expansion_makes_one_edge_per_action() {
        let (tree, done) = expanded(&TicTacToe::new(), 100);
        assert!(done);
        let Shape::Turn { player, edges } = tree.nodes[0].shape else {
            panic!("a turn node")
        };
        assert_eq!(player, Player::First);
        let mut moves: Vec<u8> = tree.edges[edges.range()].iter().map(|e| e.mv).collect();
        moves.sort();
        assert_eq!(moves, (0..9).collect::<Vec<u8>>());

        let (tree, _) = expanded(&DiceRace::new(), 100);
        let Shape::Chance { edges } = tree.nodes[0].shape else {
            panic!("a chance node")
        };
        let weights: Vec<u32> = tree.edges[edges.range()].iter().map(|e| e.weight).collect();
        assert_eq!(weights, [1, 2, 1]);

        let (tree, _) = expanded(&Goofspiel::new(3), 100);
        let Shape::Simultaneous {
            first,
            second,
            joints,
        } = tree.nodes[0].shape
        else {
            panic!("a simultaneous node")
        };
        assert_eq!((first.len, second.len, joints), (3, 3, 0));
        assert_eq!(tree.joints, [NONE; 9]);
    }

    #[test]
    fn a_full_tree_does_not_expand() {
        assert!(!expanded(&TicTacToe::new(), 8).1);
        assert!(expanded(&TicTacToe::new(), 9).1);
        assert!(!expanded(&Goofspiel::new(3), 14).1);
        assert!(expanded(&Goofspiel::new(3), 15).1);
        let mut tree: Tree<u8> = Tree::new(2, 0);
        assert_eq!(tree.add_leaf(), Some(1));
        assert_eq!(tree.add_leaf(), None);
    }

    #[test]
    fn ucb1_tries_unvisited_edges_then_balances_mean_and_exploration() {
        let (mut tree, _) = expanded(&DiceRace::new(), 100);
        let rng = &mut ChaCha8Rng::seed_from_u64(0);
        let span = Span { start: 0, len: 3 };
        tree.edges[0].visits = 10;
        tree.edges[0].reward = 9.0;
        tree.edges[2].visits = 1;
        assert_eq!(tree.ucb1(span, Player::First, 11, rng), 1);
        // Means for the first player 0.9, 0.5, 0.2 with 10, 10, 1 visits out of 21:
        // bonuses sqrt(2 ln 21 / n) = 0.780, 0.780, 2.468 -> scores 1.68, 1.28, 2.67.
        tree.edges[1].visits = 10;
        tree.edges[1].reward = 5.0;
        tree.edges[2].reward = 0.2;
        assert_eq!(tree.ucb1(span, Player::First, 21, rng), 2);
        // For the second player the means are 0.1, 0.5, 0.8: scores 0.88, 1.28, 3.27.
        assert_eq!(tree.ucb1(span, Player::Second, 21, rng), 2);
        // With 100 visits on the third edge (mean 0.2 / 0.8) out of 120, bonuses are
        // 0.979, 0.979, 0.309: first player 1.88, 1.48, 0.51; second 1.08, 1.48, 1.11.
        tree.edges[2].visits = 100;
        tree.edges[2].reward = 20.0;
        assert_eq!(tree.ucb1(span, Player::First, 120, rng), 0);
        assert_eq!(tree.ucb1(span, Player::Second, 120, rng), 1);
        assert_eq!(tree.most_visited(span).mv, 103); // the roll of 3
        assert_eq!(tree.edges_by_visits(span)[0].1, 100);
    }

    #[test]
    fn ucb1_breaks_ties_at_random() {
        let (mut tree, _) = expanded(&DiceRace::new(), 100);
        let rng = &mut ChaCha8Rng::seed_from_u64(0);
        let span = Span { start: 0, len: 3 };
        let mut counts = [0u32; 3];
        for _ in 0..3_000 {
            counts[tree.ucb1(span, Player::First, 0, rng) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&n| (800..1200).contains(&n)),
            "{counts:?}"
        );
        // Edges 0 and 2 tie with the same statistics; edge 1 scores lower.
        for (e, reward) in [(0, 3.0), (1, 1.0), (2, 3.0)] {
            tree.edges[e].visits = 4;
            tree.edges[e].reward = reward;
        }
        let mut counts = [0u32; 3];
        for _ in 0..2_000 {
            counts[tree.ucb1(span, Player::First, 12, rng) as usize] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!((800..1200).contains(&counts[0]), "{counts:?}");
    }
}
