//! [`Slot`]: a game `G` with its history, implementing [`AnyGame`] by joining the game's
//! rules and notation to the search, the baselines and perft.

use super::report::format_policy;
use super::{AnyGame, InfoLine, Score, SearchRequest, SearchSummary, mix_seed, outcome_text};
use crate::declaration::GameDeclaration;
use crate::eval::Evaluate;
use crate::game::{Action, EndReason, Node, Player, RuleOptions};
use crate::notation::{Notation, NotationError, player_token};
use crate::perft;
use crate::players::{self, Baseline, Budget};
use crate::record::GameRecord;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Info, Settings};
use serde_json::json;
use std::sync::atomic::AtomicBool;

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
                .then(|| no_move_note(&G::DECLARATION, root.node())),
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
    fn declaration(&self) -> &'static GameDeclaration {
        &G::DECLARATION
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
            ("game", json!(G::DECLARATION.name)),
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
                .then(|| no_move_note(&G::DECLARATION, node)),
            policy: (!result.policy.is_empty()).then(|| format_policy(root, &result.policy)),
        }
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

/// MCTS iterations of a baseline player given no node or time limit.
pub const DEFAULT_BASELINE_ITERATIONS: u64 = 10_000;

/// Why a search at a node of this kind gives no move, from the game's declaration.
fn no_move_note(game: &GameDeclaration, node: Node) -> String {
    match (node, game.nodes.chance) {
        (Node::Chance, Some(what)) => {
            format!("chance node: {what}; the score is the expected value")
        }
        (Node::Simultaneous, _) => {
            "simultaneous move: say which side to declare for with 'go ... side w|b'".to_string()
        }
        _ => "no legal move".to_string(),
    }
}
