//! One game behind a text-level, object-safe interface: the protocol session holds a
//! `Box<dyn AnyGame>` and never needs to know which game it is. [`Slot`] implements it for
//! every game with rules, notation and evaluation.

use crate::eval::{Evaluate, MATE_BOUND};
use crate::game::{Action, EndReason, Node, Player, RuleOptions};
use crate::notation::{Notation, NotationError, player_token};
use crate::perft;
use crate::players::{self, Baseline, Budget, PlayerKind};
use crate::record::GameRecord;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Info, Limits, Settings};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A score as UCI shows it, from the acting player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (or the game's documented unit).
    Cp(i32),
    /// A forced win in this many own moves (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// The UCI form of a search value `v` (from the acting player's view).
    pub fn from_value(v: i32) -> Self {
        if v >= MATE_BOUND {
            Score::Mate((crate::eval::MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(crate::eval::MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// One `info` line of a search, with moves already in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// The score from the acting player's view.
    pub score: Score,
    /// Win/draw/loss per mille, for games whose scores are probabilities.
    pub wdl: Option<[u32; 3]>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// The principal variation as tokens.
    pub pv: Vec<String>,
}

/// What one `go` asks of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// When to stop.
    pub limits: Limits,
    /// MultiPV, pruning switches, the side asked (simultaneous games) and the seed of
    /// random choices (mixed strategies, baseline players). The seed is mixed with the
    /// position's hash before use.
    pub settings: Settings,
    /// The engine's search or a built-in baseline player.
    pub player: PlayerKind,
}

/// What a search found, in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// The token to play, or `None` when there is nothing to play.
    pub best: Option<String>,
    /// Why there is no move, when `best` is `None`.
    pub note: Option<String>,
    /// The mixed strategy played from, as `<move>=<probability> ...` (simultaneous games).
    pub policy: Option<String>,
}

/// A position of some game, with its history, behind a text interface.
pub trait AnyGame: Send {
    /// The game's name as the `Game` option spells it.
    fn name(&self) -> &'static str;

    /// Sets the position to `position` (or the start position when `None`) followed by
    /// `moves`, atomically: on any error nothing changes. The history restarts at the
    /// given position.
    fn set_position(&mut self, position: Option<&str>, moves: &[&str])
    -> Result<(), NotationError>;

    /// The current position string.
    fn fen(&self) -> String;

    /// A board diagram for `d`.
    fn diagram(&self) -> String;

    /// The current position's hash.
    fn hash(&self) -> u64;

    /// The current node kind, repetition draws included.
    fn node(&self) -> Node;

    /// The player to move or to roll (see `Game::acting_player`).
    fn acting_player(&self) -> Option<Player>;

    /// The legal tokens in stable order: `side`'s declarations when given (simultaneous
    /// games), otherwise every child action (joint turns in simultaneous games).
    fn legal_tokens(&self, side: Option<Player>) -> Vec<String>;

    /// Whether `token` may be played now (the game not being over).
    fn is_legal(&self, token: &str) -> bool;

    /// Whether the game has simultaneous turns, where one side's declarations can be
    /// asked for (`legalmoves w`, `islegal <token> w`).
    fn has_simultaneous_turns(&self) -> bool;

    /// Whether `token` is one of `side`'s legal declarations at a simultaneous turn (a
    /// well-formed but illegal declaration, which `position` records as void, is not).
    fn is_legal_declaration(&self, token: &str, side: Player) -> bool;

    /// Why the game is over (repetition included); `None` while it goes on.
    fn end_reason(&self) -> Option<EndReason>;

    /// The current position for drawing it, as the one-line JSON object of `query
    /// position` (protocol.md): the fields every game has, then the game's own.
    fn describe(&self) -> String;

    /// Perft per root token, in stable order, each row passed to `visit` as soon as it is
    /// counted; `false` when `stop` ended it early (see [`perft::divide_until`]).
    fn divide(&self, depth: u32, stop: &AtomicBool, visit: &mut dyn FnMut(&str, u64)) -> bool;

    /// Perft of the current position.
    fn perft(&self, depth: u32) -> u64;

    /// Searches the current position, calling `info` for each report line.
    fn search(
        &self,
        request: &SearchRequest,
        tt: &TranspositionTable,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&InfoLine),
    ) -> SearchSummary;

    /// A copy for a worker thread.
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

/// A game `G` under given rule options: the [`AnyGame`] of every game.
#[derive(Clone)]
pub struct Slot<G: Evaluate + Notation> {
    rules: RuleOptions,
    record: GameRecord<G>,
}

impl<G: Evaluate + Notation> Slot<G> {
    /// The start position of `G` under `rules`.
    pub fn new(rules: RuleOptions) -> Self {
        Slot {
            rules,
            record: GameRecord::new(G::start(&rules)),
        }
    }

    /// A baseline player's choice. Its budget is `go nodes` (iterations) and the time
    /// limit; with neither, [`DEFAULT_BASELINE_ITERATIONS`].
    fn baseline_choice(
        &self,
        baseline: Baseline,
        request: &SearchRequest,
        stop: &AtomicBool,
    ) -> SearchSummary {
        let root = self.record.current();
        let limits = &request.limits;
        let deadline = limits.time.map(|t| std::time::Instant::now() + t.hard);
        let budget = Budget {
            iterations: limits
                .nodes
                .or((deadline.is_none()).then_some(DEFAULT_BASELINE_ITERATIONS)),
            deadline,
        };
        let seed = mix_seed(request.settings.seed, root.hash());
        let side = request.settings.side;
        let choice = players::choose(baseline, root, side, &budget, seed, stop);
        SearchSummary {
            best: choice.map(|a| root.format_action(a)),
            note: choice
                .is_none()
                .then(|| no_move_note(root.node()).to_string()),
            policy: None,
        }
    }

    fn tokens_of(&self, actions: &[Action<G::Move>]) -> Vec<String> {
        let mut pos = self.record.current().clone();
        actions
            .iter()
            .map(|&a| {
                let t = pos.format_action(a);
                pos.apply(a);
                t
            })
            .collect()
    }
}

impl<G: Evaluate + Notation> AnyGame for Slot<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn set_position(
        &mut self,
        position: Option<&str>,
        moves: &[&str],
    ) -> Result<(), NotationError> {
        let start = match position {
            None => G::start(&self.rules),
            Some(text) => G::parse_position(text, &self.rules)?,
        };
        let mut record = GameRecord::new(start);
        for (i, token) in moves.iter().enumerate() {
            let action = record.current().parse_action(token)?;
            record.try_play(action).map_err(|_| {
                NotationError::illegal(token, format!("the game is over before move {}", i + 1))
            })?;
        }
        self.record = record;
        Ok(())
    }

    fn fen(&self) -> String {
        self.record.current().format_position()
    }

    fn diagram(&self) -> String {
        self.record.current().diagram()
    }

    fn hash(&self) -> u64 {
        self.record.current().hash()
    }

    fn node(&self) -> Node {
        self.record.node()
    }

    fn acting_player(&self) -> Option<Player> {
        match self.record.node() {
            Node::Terminal(_) => None,
            _ => self.record.current().acting_player(),
        }
    }

    fn legal_tokens(&self, side: Option<Player>) -> Vec<String> {
        let pos = self.record.current();
        match (self.record.node(), side) {
            (Node::Terminal(_), _) => Vec::new(),
            (Node::Simultaneous, Some(p)) => {
                let mut moves = Vec::new();
                pos.legal_moves(p, &mut moves);
                moves.into_iter().map(|m| pos.format_move(m)).collect()
            }
            _ => pos
                .actions()
                .into_iter()
                .map(|a| pos.format_action(a))
                .collect(),
        }
    }

    fn is_legal(&self, token: &str) -> bool {
        !matches!(self.record.node(), Node::Terminal(_))
            && self.record.current().parse_action(token).is_ok()
    }

    fn has_simultaneous_turns(&self) -> bool {
        G::start(&self.rules).node() == Node::Simultaneous
    }

    fn is_legal_declaration(&self, token: &str, side: Player) -> bool {
        self.record.node() == Node::Simultaneous
            && self.legal_tokens(Some(side)).iter().any(|t| t == token)
    }

    fn end_reason(&self) -> Option<EndReason> {
        match self.record.node() {
            Node::Terminal(_) => Some(
                self.record
                    .current()
                    .end_reason()
                    .unwrap_or(EndReason::Repetition),
            ),
            _ => None,
        }
    }

    fn describe(&self) -> String {
        let node = self.record.node();
        let (kind, result) = match node {
            Node::Turn(_) => ("turn", None),
            Node::Chance => ("chance", None),
            Node::Simultaneous => ("simultaneous", None),
            Node::Terminal(o) => ("over", Some(outcome_text(o))),
        };
        let mut fields = crate::notation::Description::new();
        let common = [
            ("game", json!(G::NAME)),
            ("fen", json!(self.fen())),
            ("node", json!(kind)),
            ("to_act", json!(self.acting_player().map(player_token))),
            ("result", json!(result)),
            ("reason", json!(self.end_reason().map(EndReason::token))),
        ];
        for (key, value) in common {
            fields.insert(key.to_string(), value);
        }
        fields.extend(self.record.current().describe());
        serde_json::Value::Object(fields).to_string()
    }

    fn divide(&self, depth: u32, stop: &AtomicBool, visit: &mut dyn FnMut(&str, u64)) -> bool {
        let pos = self.record.current();
        perft::divide_until(pos, depth, stop, &mut |a, n| {
            visit(&pos.format_action(a), n)
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self.record.current(), depth)
    }

    fn search(
        &self,
        request: &SearchRequest,
        tt: &TranspositionTable,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&InfoLine),
    ) -> SearchSummary {
        let root = self.record.current();
        let node = self.record.node();
        if let Node::Terminal(outcome) = node {
            return SearchSummary {
                best: None,
                note: Some(format!("the game is over ({})", outcome_text(outcome))),
                policy: None,
            };
        }
        if let Some(baseline) = request.player.baseline() {
            return self.baseline_choice(baseline, request, stop);
        }
        let viewer = root
            .acting_player()
            .or(request.settings.side)
            .unwrap_or(Player::First);
        let mut report = |i: &Info<G::Move>| {
            // Values of chance and simultaneous roots come from the first player's view.
            let score = match root.node() {
                Node::Turn(_) => i.score,
                _ => viewer.sign() * i.score,
            };
            info(&InfoLine {
                depth: i.depth,
                seldepth: i.seldepth,
                multipv: i.multipv,
                score: Score::from_value(score),
                wdl: G::wdl(score),
                nodes: i.nodes,
                time: i.time,
                hashfull: i.hashfull,
                pv: self.tokens_of(&i.pv),
            });
        };
        let settings = Settings {
            seed: mix_seed(request.settings.seed, root.hash()),
            ..request.settings
        };
        let result = search::search(
            root,
            self.record.history(),
            &request.limits,
            &settings,
            tt,
            stop,
            &mut report,
        );
        SearchSummary {
            best: result.best.map(|a| root.format_action(a)),
            note: result
                .best
                .is_none()
                .then(|| no_move_note(node).to_string()),
            policy: (!result.policy.is_empty()).then(|| format_policy(root, &result.policy)),
        }
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

/// `<move>=<probability> ...` with six decimals that sum to exactly 1 (largest
/// remainders get the rounding), most probable first.
fn format_policy<G: Notation>(pos: &G, policy: &[(G::Move, f64)]) -> String {
    const UNITS: i64 = 1_000_000;
    let total: f64 = policy.iter().map(|&(_, p)| p.max(0.0)).sum();
    let exact: Vec<f64> = policy
        .iter()
        .map(|&(_, p)| p.max(0.0) / total.max(f64::MIN_POSITIVE) * UNITS as f64)
        .collect();
    let mut units: Vec<i64> = exact.iter().map(|x| x.floor() as i64).collect();
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    let missing = UNITS - units.iter().sum::<i64>();
    for &i in order.iter().cycle().take(missing.max(0) as usize) {
        units[i] += 1;
    }
    policy
        .iter()
        .zip(&units)
        .map(|(&(m, _), &u)| format!("{}={}.{:06}", pos.format_move(m), u / UNITS, u % UNITS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// MCTS iterations of a baseline player given no node or time limit.
pub const DEFAULT_BASELINE_ITERATIONS: u64 = 10_000;

/// Why a search at a node of this kind gives no move.
fn no_move_note(node: Node) -> &'static str {
    match node {
        Node::Chance => {
            "chance node: the die must be rolled first (send a roll token); the score is the expected value"
        }
        Node::Simultaneous => {
            "simultaneous move: say which side to declare for with 'go ... side w|b'"
        }
        _ => "no legal move",
    }
}

/// A seed for one position: the `Seed` option mixed with the position's hash
/// (splitmix64's finaliser), so that the same seed and position give the same choice.
pub fn mix_seed(seed: u64, hash: u64) -> u64 {
    crate::splitmix::finalise(seed ^ hash.rotate_left(17) ^ crate::splitmix::GOLDEN_GAMMA)
}

/// `p1win`, `p2win` or `draw`, as `query result` answers.
pub fn outcome_text(outcome: crate::game::Outcome) -> &'static str {
    match outcome {
        crate::game::Outcome::Win(Player::First) => "p1win",
        crate::game::Outcome::Win(Player::Second) => "p2win",
        crate::game::Outcome::Draw => "draw",
    }
}
