//! [`Slot`]: a game `G` with its history, implementing [`AnyGame`] by joining the game's
//! rules and notation to the search, the baselines and perft.

use super::plan::{self, Plan, SearchPlan};
use super::report::format_policy;
use super::skill::{Method, Skill, sample_index};
use super::{
    AnyGame, InfoLine, Score, SearchRequest, SearchSummary, mix_seed, outcome_text, side_salt,
};
use quartet_core::declaration::GameDeclaration;
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, EndReason, Node, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::{Notation, NotationError, player_token};
use quartet_core::perft;
use quartet_search::players::{self, Baseline, BaselineBudget};
use quartet_search::tt::TranspositionTable;
use quartet_search::{self as search, Info, SearchResult};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A game `G` under given rule options: the [`AnyGame`] of every game.
#[derive(Clone)]
pub struct Slot<G: Evaluate + Notation> {
    rules: RuleOptions,
    history: GameHistory<G>,
}

impl<G: Evaluate + Notation> Slot<G> {
    /// The start position of `G` under `rules`.
    pub fn new(rules: RuleOptions) -> Self {
        Slot {
            rules,
            history: GameHistory::new(G::start(&rules)),
        }
    }

    /// A baseline player's choice. Its budget is `go nodes` (iterations) and the time
    /// limit's target (the soft budget on a clock, all of a `movetime`); with neither,
    /// [`DEFAULT_BASELINE_ITERATIONS`].
    fn baseline_choice(
        &self,
        baseline: Baseline,
        request: &SearchRequest,
        stop: &AtomicBool,
    ) -> SearchSummary {
        let root = self.history.current();
        let limits = &request.limits;
        let deadline = limits.time.map(|t| Instant::now() + t.target());
        let budget = BaselineBudget {
            iterations: limits
                .nodes
                .or((deadline.is_none()).then_some(DEFAULT_BASELINE_ITERATIONS)),
            deadline,
        };
        let side = request.settings.side;
        let seed = mix_seed(request.settings.seed, root.hash() ^ side_salt(side));
        let choice = players::choose(baseline, root, side, &budget, seed, stop);
        match choice {
            Some(a) => SearchSummary::play(root.format_action(a)),
            None => SearchSummary::no_move(no_move_note(&G::DECLARATION, root.node())),
        }
    }

    /// At a chance node with `EngineRolls`: an outcome drawn by its weight with a generator
    /// seeded by the `Seed` option, the position and the number of tokens played to it.
    fn engine_roll(&self, request: &SearchRequest) -> SearchSummary {
        let root = self.history.current();
        let mut outcomes = Vec::new();
        root.chance_outcomes(&mut outcomes);
        let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
        // The position and how many tokens led to it: a position that comes again (a pass
        // back to the same roll) must not get the same roll again, or play would loop.
        let plies = self.history.history().len() as u64;
        let key = root.hash() ^ plies.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = ChaCha8Rng::seed_from_u64(mix_seed(request.settings.seed, key));
        let mut pick = if total == 0 {
            0
        } else {
            rng.random_range(0..total)
        };
        let roll = outcomes.iter().find(|&&(_, w)| {
            let here = pick < u64::from(w);
            pick = pick.saturating_sub(u64::from(w));
            here
        });
        match roll {
            // Said in an `info` line too: a client that waits for `info` lines (an analysis
            // that stops at a depth) learns that no search comes, and which roll it got.
            Some(&(m, _)) => {
                let token = root.format_move(m);
                SearchSummary {
                    note: Some(format!(
                        "roll {token}: drawn by the engine (EngineRolls), no search"
                    )),
                    ..SearchSummary::play(token)
                }
            }
            None => SearchSummary::no_move(no_move_note(&G::DECLARATION, root.node())),
        }
    }

    /// The reply the search expects to `best`, when it is a move at the next turn.
    fn ponder_move(&self, pv: &[Action<G::Move>]) -> Option<String> {
        let [Action::Single(best), Action::Single(reply), ..] = pv else {
            return None;
        };
        let mut after = self.history.current().clone();
        after.play(*best);
        matches!(after.node(), Node::Turn(_)).then(|| after.format_move(*reply))
    }

    /// A root value as `info` shows it: values of chance roots come from the first
    /// player's view and are shown from the roller's; a turn root's and a side's are
    /// already from the player asked.
    fn shown(&self, score: i32) -> i32 {
        let root = self.history.current();
        match root.node() {
            Node::Chance => root.acting_player().unwrap_or(Player::First).sign() * score,
            _ => score,
        }
    }

    /// The `info` line of one search report (with `wdl` if `show_wdl`).
    fn info_line(&self, i: &Info<G::Move>, show_wdl: bool) -> InfoLine {
        let score = self.shown(i.score);
        InfoLine {
            depth: i.depth,
            seldepth: i.seldepth,
            multipv: i.multipv,
            score: Some(Score::from_value(score)),
            wdl: G::wdl(score).filter(|_| show_wdl),
            nodes: i.nodes,
            time: i.time,
            hashfull: i.hashfull,
            pv: self.tokens_of(&i.pv),
        }
    }

    /// The `info` line to print before `bestmove best`, unless the last one printed
    /// (`last`) is a first line (`multipv 1`, which GUIs keep) that already names `best`
    /// first and counts every node of `result`: then `None`. Without a completed
    /// iteration (nothing printed yet) the line has no score, as none was computed.
    fn closing_line(
        &self,
        best: &str,
        last: Option<&InfoLine>,
        result: &SearchResult<G::Move>,
        started: Instant,
        hashfull: u32,
    ) -> Option<InfoLine> {
        let complete = last.is_some_and(|l| {
            l.multipv == 1
                && l.pv.first().map(String::as_str) == Some(best)
                && l.nodes == result.nodes
        });
        if complete {
            return None;
        }
        let mut pv = self.tokens_of(&result.pv);
        if pv.first().map(String::as_str) != Some(best) {
            pv = vec![best.to_string()];
        }
        let score = self.shown(result.score);
        Some(InfoLine {
            depth: result.depth,
            seldepth: last.map_or(result.depth, |l| l.seldepth),
            multipv: 1,
            score: last.map(|_| Score::from_value(score)),
            // As the lines before it: `wdl` only where they had it.
            wdl: last.and_then(|l| l.wdl.and(G::wdl(score))),
            nodes: result.nodes,
            time: started.elapsed(),
            hashfull,
            pv,
        })
    }

    fn tokens_of(&self, actions: &[Action<G::Move>]) -> Vec<String> {
        let mut pos = self.history.current().clone();
        actions
            .iter()
            .map(|&a| {
                let t = pos.format_action(a);
                pos.apply(a);
                t
            })
            .collect()
    }

    /// Every rule option of the game with its value, as `setoption` writes it (for
    /// `query position`'s `rules`: a GUI records and restores them without knowing them).
    fn rules_json(&self) -> serde_json::Value {
        let rules: serde_json::Map<String, serde_json::Value> = G::DECLARATION
            .rule_options
            .iter()
            .map(|o| (o.name.to_string(), json!(o.format_value(self.rules.get(o)))))
            .collect();
        serde_json::Value::Object(rules)
    }
}

impl<G: Evaluate + Notation> AnyGame for Slot<G> {
    fn declaration(&self) -> &'static GameDeclaration {
        &G::DECLARATION
    }

    fn set_position_from(
        &mut self,
        position: Option<&str>,
        moves: &mut dyn Iterator<Item = &str>,
    ) -> Result<(), NotationError> {
        let start = match position {
            None => G::start(&self.rules),
            Some(text) => G::parse_position(text, &self.rules)?,
        };
        let mut history = GameHistory::new(start);
        for (i, token) in moves.enumerate() {
            let action = history
                .current()
                .parse_action(token)
                .map_err(|e| e.at_move(i + 1))?;
            history
                .try_play(action)
                .map_err(|_| NotationError::illegal(token, "the game is over").at_move(i + 1))?;
        }
        self.history = history;
        Ok(())
    }

    fn fen(&self) -> String {
        self.history.current().format_position()
    }

    fn diagram(&self) -> String {
        self.history.current().diagram()
    }

    fn hash(&self) -> u64 {
        self.history.current().hash()
    }

    fn node(&self) -> Node {
        self.history.node()
    }

    fn acting_player(&self) -> Option<Player> {
        match self.history.node() {
            Node::Terminal(_) => None,
            _ => self.history.current().acting_player(),
        }
    }

    fn legal_tokens(&self, side: Option<Player>) -> Vec<String> {
        let pos = self.history.current();
        match (self.history.node(), side) {
            (Node::Terminal(_), _) | (Node::Turn(_) | Node::Chance, Some(_)) => Vec::new(),
            (Node::Simultaneous, Some(p)) => {
                let mut moves = Vec::new();
                pos.legal_moves(p, &mut moves);
                moves.into_iter().map(|m| pos.format_move(m)).collect()
            }
            (Node::Simultaneous, None) if pos.count_children() > MAX_JOINT_TOKENS => Vec::new(),
            _ => pos
                .actions()
                .into_iter()
                .map(|a| pos.format_action(a))
                .collect(),
        }
    }

    fn is_legal(&self, token: &str) -> bool {
        !matches!(self.history.node(), Node::Terminal(_))
            && self.history.current().parse_action(token).is_ok()
    }

    fn is_legal_declaration(&self, token: &str, side: Player) -> bool {
        self.history.node() == Node::Simultaneous
            && self
                .history
                .current()
                .parse_declaration(side, token)
                .is_ok()
    }

    fn chance_tokens(&self) -> Vec<(String, u32)> {
        if self.history.node() != Node::Chance {
            return Vec::new();
        }
        let pos = self.history.current();
        let mut outcomes = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        outcomes
            .into_iter()
            .map(|(m, w)| (pos.format_move(m), w))
            .collect()
    }

    fn end_reason(&self) -> Option<EndReason> {
        match self.history.node() {
            Node::Terminal(_) => Some(
                self.history
                    .current()
                    .end_reason()
                    .unwrap_or(EndReason::REPETITION),
            ),
            _ => None,
        }
    }

    fn describe(&self) -> String {
        let node = self.history.node();
        let (kind, result) = match node {
            Node::Turn(_) => ("turn", None),
            Node::Chance => ("chance", None),
            Node::Simultaneous => ("simultaneous", None),
            Node::Terminal(o) => ("over", Some(outcome_text(o))),
        };
        let mut fields = quartet_core::notation::Description::new();
        let common = [
            ("game", json!(G::DECLARATION.name)),
            ("fen", json!(self.fen())),
            ("node", json!(kind)),
            ("to_act", json!(self.acting_player().map(player_token))),
            ("result", json!(result)),
            ("reason", json!(self.end_reason().map(|r| r.token))),
            ("reason_words", json!(self.end_reason().map(|r| r.words))),
            ("rules", self.rules_json()),
            ("sides", json!(G::DECLARATION.sides)),
        ];
        for (key, value) in common {
            fields.insert(key.to_string(), value);
        }
        fields.extend(self.history.current().describe());
        serde_json::Value::Object(fields).to_string()
    }

    fn divide(&self, depth: u32, stop: &AtomicBool, visit: &mut dyn FnMut(&str, u64)) -> bool {
        let pos = self.history.current();
        perft::divide_until(pos, depth, stop, &mut |a, n| {
            visit(&pos.format_action(a), n)
        })
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self.history.current(), depth)
    }

    fn check_searchmoves(
        &self,
        tokens: &mut dyn Iterator<Item = &str>,
    ) -> Result<Vec<String>, String> {
        let pos = self.history.current();
        let turn = matches!(self.history.node(), Node::Turn(_));
        let mut seen = std::collections::HashSet::new();
        let mut last = None;
        let mut moves = Vec::new();
        for token in tokens {
            if !turn {
                return Err("only a side to move can have its moves restricted".to_string());
            }
            // Only legal spellings are remembered (the first illegal one ends the list),
            // so `seen` stays as small as the legal moves.
            if last == Some(token) || !seen.insert(token) {
                continue;
            }
            last = Some(token);
            match pos.parse_action(token) {
                Ok(Action::Single(m)) => {
                    let canonical = pos.format_move(m);
                    if !moves.contains(&canonical) {
                        moves.push(canonical);
                    }
                }
                Ok(Action::Joint(..)) => return Err(format!("'{token}' is not a move here")),
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(moves)
    }

    fn search(
        &self,
        request: &SearchRequest,
        tt: &TranspositionTable,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&InfoLine),
    ) -> SearchSummary {
        let root = self.history.current();
        match plan::resolve(root, self.history.node(), request) {
            Plan::Over(outcome) => {
                SearchSummary::no_move(format!("the game is over ({})", outcome_text(outcome)))
            }
            Plan::Roll => self.engine_roll(request),
            Plan::Baseline(baseline) => self.baseline_choice(baseline, request, stop),
            Plan::Search(plan) => self.run(&plan, request.ponder, tt, stop, info),
        }
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
}

impl<G: Evaluate + Notation> Slot<G> {
    /// Runs a resolved search `plan` and says what it found (with the expected reply when
    /// `ponder`), reporting each line the client asked to see through `info`.
    fn run(
        &self,
        plan: &SearchPlan<G::Move>,
        ponder: bool,
        tt: &TranspositionTable,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&InfoLine),
    ) -> SearchSummary {
        let started = Instant::now();
        let root = self.history.current();
        // The lines of the last completed iteration, when a skill level chooses among them.
        let mut lines: Vec<Info<G::Move>> = Vec::new();
        let mut last: Option<InfoLine> = None;
        let mut report = |i: &Info<G::Move>| {
            if plan.skill.is_some() {
                if lines.first().is_some_and(|l| l.depth != i.depth) {
                    lines.clear();
                }
                lines.push(i.clone());
                if i.multipv > plan.shown_lines {
                    // A candidate the client did not ask to see.
                    return;
                }
            }
            let line = self.info_line(i, plan.show_wdl);
            info(&line);
            last = Some(line);
        };
        let search_root = search::Root {
            position: root,
            history: self.history.history(),
            searchmoves: &plan.searchmoves,
        };
        let mut result = search::search(
            &search_root,
            &plan.limits,
            &plan.settings,
            tt,
            stop,
            &mut report,
        );
        if let Some(skill) = &plan.skill {
            weaken(
                skill,
                &lines,
                mix_seed(plan.settings.seed, SKILL_STREAM),
                &mut result,
            );
        }
        let best = result.best.map(|a| root.format_action(a));
        // The last line before bestmove names the move played first and the whole
        // search's nodes (an interrupted iteration, or a sampled declaration, may differ
        // from the last report).
        let last_info = best.as_ref().and_then(|best| {
            self.closing_line(best, last.as_ref(), &result, started, tt.hashfull())
        });
        SearchSummary {
            note: best
                .is_none()
                .then(|| no_move_note(&G::DECLARATION, self.history.node())),
            policy: (!result.policy.is_empty()).then(|| format_policy(root, &result.policy)),
            ponder: ponder.then(|| self.ponder_move(&result.pv)).flatten(),
            last_info,
            best,
        }
    }
}

/// What the skill level's generator mixes into the search's seed, so that its draws are
/// not the search's own (the sample of a mixed strategy).
const SKILL_STREAM: u64 = 0x5C11_1E7E_1A57_0001;

/// Replaces `result`'s move by the one `skill` chooses among `lines` (the last completed
/// iteration's, best first or most probable first), with a generator seeded by `seed`; at a
/// simultaneous root the policy becomes the skill's softmax. No lines (no iteration
/// completed): the result stays.
fn weaken<M: Copy>(skill: &Skill, lines: &[Info<M>], seed: u64, result: &mut SearchResult<M>) {
    let scores: Vec<i32> = lines.iter().map(|l| l.score).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    if skill.keeps_full_strength(rng.random::<f64>()) {
        return;
    }
    let probabilities = (skill.method == Method::Softmax).then(|| skill.softmax(&scores));
    let chosen = match &probabilities {
        Some(p) => Some(sample_index(p, &mut rng)),
        None => skill.pick_best(&scores, &mut rng),
    };
    let Some(line) = chosen.and_then(|i| lines.get(i)) else {
        return;
    };
    if !result.policy.is_empty()
        && let Some(p) = probabilities
    {
        let mut policy: Vec<(M, f64)> = lines
            .iter()
            .zip(p)
            .filter_map(|(l, p)| match l.pv.first() {
                Some(Action::Single(m)) => Some((*m, p)),
                _ => None,
            })
            .collect();
        policy.sort_by(|a, b| b.1.total_cmp(&a.1));
        result.policy = policy;
    }
    result.best = line.pv.first().copied();
    result.pv = line.pv.clone();
    result.score = line.score;
    result.depth = line.depth;
}

/// The most joint tokens [`AnyGame::legal_tokens`] lists without a side: R&B's joint setup
/// has 133,402,500 (10 GB of text), so there it lists none and each side's list is asked
/// for instead.
pub const MAX_JOINT_TOKENS: u64 = 1_000_000;

/// MCTS iterations of a baseline player given no node or time limit.
pub const DEFAULT_BASELINE_ITERATIONS: u64 = 10_000;

/// Why a search at a node of this kind gives no move, from the game's declaration.
fn no_move_note(game: &GameDeclaration, node: Node) -> String {
    match (node, game.nodes.chance) {
        (Node::Chance, Some(what)) => format!(
            "chance node: {what}; the score is the expected value (with 'setoption name \
             EngineRolls value true' the engine answers a roll, for runners without dice)"
        ),
        (Node::Simultaneous, _) => {
            "simultaneous move: say which side to declare for with 'go ... side w|b'".to_string()
        }
        _ => "no legal move".to_string(),
    }
}
