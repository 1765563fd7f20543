//! The search: iterative deepening over a position of any game, generic over
//! `G: Evaluate` and monomorphised per game.
//!
//! Values are from the first player's view inside the search (chance and simultaneous
//! nodes have no side to move, so negamax does not fit them); reports and results are from
//! the root player's view, as UCI expects. Node kinds are searched by
//! [`alphabeta`] (turn nodes: PVS, transposition table, move ordering, quiescence),
//! [`chance`] (expectation with Star1 cuts and Star2 probing) and the simultaneous-node
//! search (the folder [`simultaneous`]: its line checks, and the double oracle of nodes
//! too wide for a matrix).
//! Before the first iteration, the root's actions that lose at once are screened out from
//! the rules alone (`screen.rs`), so that no budget plays one while another exists.
//! Search never prints and never reads input: it takes a stop flag and limits and reports
//! through a callback.

#![deny(missing_docs)]

pub mod alphabeta;
pub mod chance;
pub mod players;
pub mod pruning;
pub mod root;
pub(crate) mod screen;
pub mod searcher;
pub mod simultaneous;
pub(crate) mod smp;
pub mod time;
pub mod tt;

use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Node, Player};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use time::TimeBudget;
use tt::TranspositionTable;

/// The deepest iteration a search starts (deeper `go depth` requests are clamped).
pub const MAX_DEPTH: u32 = 100;

/// The deepest ply a search path may reach (quiescence included).
pub const MAX_PLY: usize = 128;

/// When a search must end (any limit reached ends it; none at all means "until stopped").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Complete at most this many iterations.
    pub depth: Option<u32>,
    /// Visit at most this many nodes (exact: the search stops at this count).
    pub nodes: Option<u64>,
    /// Time allowance.
    pub time: Option<TimeBudget>,
    /// Stop once a forced win in at most this many own moves is proved (at turn roots).
    pub mate: Option<u32>,
}

impl Limits {
    /// The last iteration a search within these limits starts: `depth` (at least 1), or
    /// [`MAX_DEPTH`] without one or above it.
    pub fn last_depth(&self) -> u32 {
        self.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    }
}

/// Switches for the pruning techniques whose values may differ from plain minimax. All
/// on by default; tests switch them off to compare with a plain minimax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Late-move reductions.
    pub reductions: bool,
    /// Quiescence search on noisy moves at the horizon.
    pub quiescence: bool,
    /// Cut-offs from transposition-table values (the table still orders moves when off).
    pub tt_cutoffs: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            reductions: true,
            quiescence: true,
            tt_cutoffs: true,
        }
    }
}

/// Search settings beyond the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How many best lines to report (at least 1).
    pub multipv: usize,
    /// Pruning switches.
    pub features: Features,
    /// At a simultaneous root: the side whose declaration is wanted (`None`: only the
    /// value is searched).
    pub side: Option<Player>,
    /// Seed of the sample drawn from a mixed strategy.
    pub seed: u64,
    /// Search threads (Lazy SMP: every thread searches the same root and they share the
    /// transposition table; see [`search`] for the result played). 1 is deterministic.
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            multipv: 1,
            features: Features::default(),
            side: None,
            seed: 0,
            threads: 1,
        }
    }
}

/// One line of progress, reported after each completed iteration (one per MultiPV line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The 1-based MultiPV index.
    pub multipv: usize,
    /// The value from the root player's view.
    pub score: i32,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Transposition table use in per mille.
    pub hashfull: u32,
    /// The principal variation, starting with the root move (empty at chance roots).
    pub pv: Vec<Action<M>>,
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The action to play, `None` at a terminal or chance root (or when nothing is legal).
    pub best: Option<Action<M>>,
    /// The value from the root player's view.
    pub score: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The principal variation of the best line.
    pub pv: Vec<Action<M>>,
    /// At a simultaneous root with a side: that side's mixed strategy, every legal
    /// declaration with its probability (summing to 1), most probable first.
    pub policy: Vec<(M, f64)>,
}

/// The player from whose view a root's values are reported: the side to move, or the
/// first player at chance and simultaneous roots unless `asked` names one.
pub fn root_player<G: Evaluate>(root: &G, asked: Option<Player>) -> Player {
    match root.node() {
        Node::Turn(p) => p,
        _ => asked.unwrap_or(Player::First),
    }
}

/// What a search starts from: the position, the hashes of the positions before it (oldest
/// first, for repetition draws), and the root moves to consider (empty: all of them; only
/// turn roots are restricted).
#[derive(Clone, Copy, Debug)]
pub struct Root<'a, G: Evaluate> {
    /// The position searched.
    pub position: &'a G,
    /// Hashes of the positions before it, oldest first.
    pub history: &'a [u64],
    /// `go searchmoves`: the only root moves searched (empty: every legal move).
    pub searchmoves: &'a [G::Move],
}

impl<'a, G: Evaluate> Root<'a, G> {
    /// `position` with no history and every move searched.
    pub fn of(position: &'a G) -> Root<'a, G> {
        Root {
            position,
            history: &[],
            searchmoves: &[],
        }
    }
}

/// Searches `root` within `limits`. `stop` ends the search early when set. `report`
/// receives an [`Info`] per completed iteration and MultiPV line.
///
/// With `settings.threads > 1` the other threads search the same root silently, sharing
/// the table, each skipping some iterations and starting the root's moves (after the
/// first) and the chance outcomes near the root elsewhere, so that the threads work on
/// different lines (Lazy SMP, `smp.rs`). The search ends when the main thread has its
/// answer or a helper has finished the last iteration asked for. The main thread's result
/// is played unless a helper finished a deeper iteration and `smp::replaces` takes it;
/// then that helper's lines of its last iteration are reported before it is returned.
pub fn search<G: Evaluate>(
    root: &Root<'_, G>,
    limits: &Limits,
    settings: &Settings,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    tt.new_search();
    let history = root.history;
    if settings.threads <= 1 {
        let mut s = searcher::Searcher::new(tt, stop, None, limits, settings.features, history);
        return search_root(&mut s, root, limits, settings, report);
    }
    smp::search_threads(root, limits, settings, tt, stop, report)
}

/// One thread's iterative deepening at `root`, by the root's node kind, its scores (the
/// result's and each `info` line's) reported on the evaluation's scale
/// ([`Evaluate::reported`]).
fn search_root<G: Evaluate>(
    s: &mut searcher::Searcher<'_, G>,
    root: &Root<'_, G>,
    limits: &Limits,
    settings: &Settings,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let mut reported = |info: &Info<G::Move>| {
        report(&Info {
            score: G::reported(info.score),
            ..info.clone()
        })
    };
    let mut result = search_kind(s, root, limits, settings, &mut reported);
    result.score = G::reported(result.score);
    result
}

/// [`search_root`] by the root's node kind, with the search's own values.
fn search_kind<G: Evaluate>(
    s: &mut searcher::Searcher<'_, G>,
    root: &Root<'_, G>,
    limits: &Limits,
    settings: &Settings,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let (searchmoves, root) = (root.searchmoves, root.position);
    match root.node() {
        Node::Terminal(outcome) => SearchResult {
            best: None,
            score: root_player(root, None).sign() * root.terminal_value(outcome, 0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            policy: Vec::new(),
        },
        Node::Turn(_) => root::search_turn_root(s, root, searchmoves, limits, settings, report),
        Node::Simultaneous if settings.side.is_some() => {
            simultaneous::root::search_simultaneous_root(s, root, limits, settings, report)
        }
        Node::Chance | Node::Simultaneous => root::search_value_root(s, root, limits, report),
    }
}

#[cfg(test)]
mod tests;
