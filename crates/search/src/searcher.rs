//! The per-search state shared by every node kind: limits, counters, the path of hashes
//! for repetition draws, per-ply buffers and the ordering heuristics. Node searches are
//! `impl` blocks on [`Searcher`] in `alphabeta.rs`, `chance.rs` and the simultaneous
//! search; [`Searcher::value`] dispatches on the node kind.

use super::pruning::Reductions;
use super::simultaneous::wide::WideStart;
use super::tt::TranspositionTable;
use super::{Features, Limits, MAX_PLY};
use quartet_core::eval::Evaluate;
use quartet_core::game::{MoveList, Node};
use quartet_core::matrix::MatrixSolver;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How many nodes pass between two looks at the clock and the stop flag.
const POLL_INTERVAL: u64 = 1024;

/// What the threads of one search share besides the transposition table.
#[derive(Debug, Default)]
pub struct Shared {
    /// Nodes of every thread, flushed at each poll (so the hot path takes no atomics).
    pub nodes: AtomicU64,
    /// Set by the thread that ends the search (the main thread when it has its answer, or a
    /// helper that finished the last iteration asked for): the other threads stop.
    pub done: AtomicBool,
}

/// The state of one search thread.
pub struct Searcher<'a, G: Evaluate> {
    pub(crate) tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    /// Set when the search runs on several threads.
    shared: Option<&'a Shared>,
    /// This thread's index among them (0: the main thread), which picks the iterations it
    /// skips and where it starts the root's moves and the outcomes of the chance nodes
    /// near the root (`smp.rs`).
    pub(crate) thread: usize,
    /// Own nodes already added to `shared.nodes`.
    flushed: u64,
    pub(crate) features: Features,
    node_limit: u64,
    deadline: Option<Instant>,
    /// When the search began.
    pub(crate) started: Instant,
    /// Nodes this thread visited.
    nodes: u64,
    /// The deepest ply reached.
    pub(crate) seldepth: u32,
    /// Set once a limit or the stop flag ended the search; values computed after it are
    /// meaningless and callers unwind without using them.
    pub(crate) aborted: bool,
    hashes: Vec<u64>,
    root_len: usize,
    /// Move buffers, one per ply.
    pub(crate) moves: Vec<MoveList<G::Move>>,
    /// The second player's declarations at simultaneous nodes, one buffer per ply.
    pub(crate) second_moves: Vec<MoveList<G::Move>>,
    /// Payoff matrices of simultaneous nodes, one buffer per ply.
    pub(crate) matrices: Vec<Vec<f64>>,
    /// The matrix-game solver; after `solve_node` it holds that node's strategies.
    pub(crate) solver: MatrixSolver,
    /// Ordering keys parallel to `moves`.
    pub(crate) keys: Vec<Vec<i32>>,
    /// Chance outcome buffers, one per ply.
    pub(crate) outcomes: Vec<Vec<(G::Move, u32)>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from `ply`.
    pub(crate) pv: Vec<Vec<G::Move>>,
    /// Two killer moves per ply.
    pub(crate) killers: Vec<[Option<G::Move>; 2]>,
    /// History heuristic scores, indexed by player then move code.
    pub(crate) history: Vec<i32>,
    /// The quiet move that last refuted each move (countermove heuristic), indexed by the
    /// replying player then the refuted move's code; empty for games without
    /// [`Evaluate::PRUNING`].
    pub(crate) countermoves: Vec<Option<G::Move>>,
    /// The code of the move that led to each ply's node from a turn node above it
    /// (`None` at the root, after a null move, or below another kind of node).
    pub(crate) played: Vec<Option<u32>>,
    /// The late-move reductions of games that declare their pruning.
    pub(crate) reductions: Reductions,
    /// Scratch buffer of the simultaneous search's declaration ordering (packed keys).
    pub(crate) order_scratch: Vec<i64>,
    /// The last wide simultaneous node solved (its hash) with the restricted declarations
    /// of each side, where its next solve starts (`oracle.rs`).
    pub(crate) wide_start: Option<WideStart<G::Move>>,
    /// The depth of the iteration being searched (extensions stop at twice this ply).
    pub(crate) root_depth: u32,
    /// The index in `hashes` of the position reached by the latest null move on the path,
    /// if any: repetitions are not looked for across it (a pass is no move of the game).
    null_child: Option<usize>,
}

impl<'a, G: Evaluate> Searcher<'a, G> {
    /// A searcher for one search with the given limits; `history` holds the hashes of the
    /// positions before the root. `shared` is given when several threads search together:
    /// the node limit then counts every thread's nodes (checked at each poll, so not
    /// exactly), and the threads stop when `shared.done` is set.
    pub fn new(
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        shared: Option<&'a Shared>,
        limits: &Limits,
        features: Features,
        history: &[u64],
    ) -> Self {
        let started = Instant::now();
        Searcher {
            tt,
            stop,
            shared,
            thread: 0,
            flushed: 0,
            features,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline: limits.time.map(|b| started + b.hard),
            started,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            hashes: history.to_vec(),
            root_len: history.len(),
            moves: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            second_moves: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            matrices: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            solver: MatrixSolver::new(),
            keys: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            outcomes: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; 2 * G::MOVE_CODES],
            countermoves: if G::PRUNING.is_some() {
                vec![None; 2 * G::MOVE_CODES]
            } else {
                Vec::new()
            },
            played: vec![None; MAX_PLY + 2],
            reductions: Reductions::new(),
            order_scratch: Vec::new(),
            wide_start: None,
            null_child: None,
            root_depth: super::MAX_DEPTH,
        }
    }

    /// The value of `pos` searched `depth` plies deep (chance edges are free), `ply` plies
    /// below the root, within the open window (`alpha`, `beta`) of first-player values.
    /// Fail-soft: a value at or below `alpha` is an upper bound, one at or above `beta` a
    /// lower bound.
    pub fn value(&mut self, pos: &G, depth: i32, ply: usize, alpha: i32, beta: i32) -> i32 {
        self.pv[ply].clear();
        if !self.enter_node(ply) {
            return 0;
        }
        let node = pos.node();
        if let Node::Terminal(outcome) = node {
            return pos.terminal_value(outcome, ply as u32);
        }
        if ply >= MAX_PLY {
            return pos.search_value();
        }
        self.hashes.push(pos.hash());
        let v = match node {
            Node::Turn(p) if depth > 0 || self.extends(pos, ply) => {
                self.turn(pos, p, depth, ply, alpha, beta)
            }
            Node::Turn(p) if self.features.quiescence => self.quiesce(pos, p, ply, alpha, beta),
            Node::Chance if depth > 0 => {
                self.played[ply + 1] = None;
                self.chance(pos, depth, ply, alpha, beta)
            }
            Node::Simultaneous if depth > 0 => {
                self.played[ply + 1] = None;
                self.simultaneous(pos, depth, ply, alpha, beta)
            }
            _ => pos.search_value(),
        };
        self.hashes.pop();
        v
    }

    /// The value of `child`, the position after a null move from the node being searched,
    /// as [`Searcher::value`] gives it; below it the path before the pass is not searched
    /// for repetitions.
    pub(crate) fn null_value(
        &mut self,
        child: &G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let outer = self.null_child.replace(self.hashes.len());
        let v = self.value(child, depth, ply, alpha, beta);
        self.null_child = outer;
        v
    }

    /// Whether the node being searched (the last position of the path) was reached by a
    /// null move: it passes no turn itself, as two passes in a row prove nothing.
    pub(crate) fn after_null(&self) -> bool {
        self.null_child == Some(self.hashes.len() - 1)
    }

    /// Enters the root position (with hash `key`) into the path, for repetition checks
    /// below it. Called once, before the first child of the root is searched.
    pub(crate) fn push_root(&mut self, key: u64) {
        self.hashes.truncate(self.root_len);
        self.hashes.push(key);
    }

    /// Counts a node `ply` plies deep and checks the limits; false once the search must
    /// end (then the caller returns at once).
    pub(crate) fn enter_node(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        if (self.shared.is_none() && self.nodes >= self.node_limit)
            || (self.nodes.is_multiple_of(POLL_INTERVAL) && self.poll())
        {
            self.aborted = true;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        !self.aborted
    }

    /// Every thread's nodes so far (this thread's exactly, the others' as of their last
    /// poll).
    pub(crate) fn nodes(&self) -> u64 {
        match self.shared {
            Some(shared) => shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed,
            None => self.nodes,
        }
    }

    /// The periodic look at the world: flushes the node count and says whether the search
    /// must end (stop flag, deadline, shared node limit, main thread done).
    fn poll(&mut self) -> bool {
        if let Some(shared) = self.shared {
            let total = shared
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
                + (self.nodes - self.flushed);
            self.flushed = self.nodes;
            if total >= self.node_limit || shared.done.load(Ordering::Relaxed) {
                return true;
            }
        }
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether the position just pushed (with hash `key`, `window` reversible plies) is a
    /// draw by repetition: it occurred before inside the search, or twice before in the
    /// game (making three occurrences). Positions before the latest null move on the path
    /// do not count.
    pub(crate) fn is_repetition(&self, key: u64, window: u32) -> bool {
        let current = self.hashes.len() - 1;
        let start = current
            .saturating_sub(window as usize)
            .max(self.null_child.unwrap_or(0));
        let mut earlier = 0;
        for i in (start..current).rev() {
            if self.hashes[i] == key {
                if i >= self.root_len {
                    return true;
                }
                earlier += 1;
                if earlier >= 2 {
                    return true;
                }
            }
        }
        false
    }
}
