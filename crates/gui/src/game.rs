//! The game-flow core of a session (issue 39 §4): the game (its lines, who plays each side,
//! the engine's description of its head), its search, fault, end, clocks and pauses, the
//! analysis asked for and the review kept with it. Plain data and plain methods: no socket,
//! no engine, no async; the session's I/O shell (`session` and the files that carry out its
//! requests) asks the engine, hands the answers in, and does what these methods decide. The
//! tests reach every decision here without a socket.

use std::time::{Duration, Instant};

use quartet_records::Record;
use serde::Serialize;
use serde_json::{Value, json};

use super::clock::Clocks;
use super::clock_log::ClockLog;
use super::decide::{self, Step};
use super::fault::{Failure, FaultKind};
use super::flow::{self, Actor, Next, Node, Purpose, Side};
use super::lines::Lines;
use super::recording::{self, End, Facts};
use super::request::{Limit, Who};
use super::review::ReviewLog;
use super::snapshot::Snapshot;
use super::variations::listed;

/// A running `go`.
#[derive(Debug, Clone)]
pub struct Search {
    /// Why.
    pub purpose: Purpose,
    /// When `go` was sent.
    pub sent: Instant,
    /// After this the engine counts as hanging.
    pub deadline: Option<Instant>,
}

/// An engine fault that stopped the game.
#[derive(Debug, Clone, Serialize)]
pub struct Fault {
    /// What went wrong (with the side and the details).
    #[serde(flatten)]
    pub failure: Failure,
}

/// What the session's timer finds due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// The running search is past its deadline: the engine hangs (milliseconds waited).
    Hang(u128),
    /// This person's clock ran out.
    Flag(Side),
}

/// Why analysis that was asked for does not run at the position shown, for the page.
pub fn analysis_note(game: &Game) -> Option<&'static str> {
    if !game.analyse {
        return None;
    }
    if game.fault.is_some() {
        return Some("the engine had a fault: restart it to analyse");
    }
    match game.search.as_ref().map(|s| s.purpose) {
        Some(Purpose::Move(_) | Purpose::Declare(_)) => {
            return Some("the engine is searching its own move: the analysis goes on after it");
        }
        Some(Purpose::Analysis(_)) => return None,
        _ => {}
    }
    match game.shown().and_then(|p| p["node"].as_str()) {
        Some("over") => Some("the game is over at this position: nothing to analyse"),
        _ if game.analysis_ended.as_ref() == Some(&game.shown_key()) => {
            Some("the engine ended its analysis of this position")
        }
        _ => None,
    }
}

/// One session's game; see the module doc.
#[derive(Debug, Clone)]
pub struct Game {
    /// The engine's `Game` value.
    pub name: String,
    /// The start position's string as the engine wrote it.
    pub start_text: String,
    /// The game's lines: its start, main line, positions, variations and view.
    pub lines: Lines,
    /// Who plays each side.
    pub players: [Who; 2],
    /// The players' names a loaded record gave (kept in the records saved and shown),
    /// until a new game or new players.
    pub names: [Option<String>; 2],
    /// The engine's description of the game's head.
    pub snap: Option<Snapshot>,
    /// Each side's declaration at a simultaneous turn, until it is revealed.
    pub declared: [Option<String>; 2],
    /// The last simultaneous turn revealed.
    pub reveal: Option<Value>,
    /// The search running.
    pub search: Option<Search>,
    /// An engine fault that stopped the game.
    pub fault: Option<Fault>,
    /// A side whose clock ran out.
    pub flagged: Option<Side>,
    /// A side whose person resigned.
    pub resigned: Option<Side>,
    /// The engine's limit per move.
    pub limit: Limit,
    /// The clocks, under a clock limit.
    pub clocks: Option<Clocks>,
    /// The clock readings of the main line's tokens (`[%clk ...]` in the records).
    pub clock_log: ClockLog,
    /// The pause after each engine action.
    pub delay: Duration,
    /// The next engine action waits until then.
    pub wake: Option<Instant>,
    /// Engine actions wait.
    pub paused: bool,
    /// The person asked for analysis of the position shown.
    pub analyse: bool,
    /// The position (`shown_key`) whose analysis the engine ended by itself (an engine
    /// that answers `go infinite` at once): it is not started there again, so that such an
    /// engine cannot spin the session.
    pub analysis_ended: Option<String>,
    /// The dice seed.
    pub seed: u64,
    /// Milliseconds from the last move's `go` to its `bestmove`.
    pub reply_ms: Option<u64>,
    /// The game's review, running or done.
    pub review: Option<ReviewLog>,
}

impl Game {
    /// A person against the engine at 1 s a move, no game chosen yet, dice from `seed`.
    pub fn new(seed: u64) -> Game {
        Game {
            name: String::new(),
            start_text: String::new(),
            lines: Lines::default(),
            players: [Who::Human, Who::Engine],
            names: [None, None],
            snap: None,
            declared: [None, None],
            reveal: None,
            search: None,
            fault: None,
            flagged: None,
            resigned: None,
            limit: Limit::Movetime { ms: 1000 },
            clocks: None,
            clock_log: ClockLog::default(),
            delay: Duration::from_millis(300),
            wake: None,
            paused: false,
            analyse: false,
            analysis_ended: None,
            seed,
            reply_ms: None,
            review: None,
        }
    }

    /// What the game waits for now (nothing once it is over or a clock has run out).
    pub fn next(&self) -> Next {
        match (&self.snap, self.flagged.or(self.resigned)) {
            (Some(s), None) => flow::next(
                s.node,
                self.players,
                [self.declared[0].is_some(), self.declared[1].is_some()],
            ),
            _ => Next::Nothing,
        }
    }

    /// The position the page shows: the one looked back at, else the game's head.
    pub fn shown(&self) -> Option<&Value> {
        match self.lines.viewed() {
            Some((_, p)) => Some(p),
            None => self.snap.as_ref().map(|s| &s.position),
        }
    }

    /// The `position` command of the position shown.
    pub fn shown_key(&self) -> String {
        match self.lines.viewed() {
            Some((ply, _)) => self.lines.line_command(self.lines.line, ply),
            None => self.lines.position_command(self.lines.moves.len()),
        }
    }

    /// What the session starts next at `now` (`decide::step`), with the position shown
    /// for analysis (not where the engine ended it by itself); nothing while a search runs
    /// or after a fault.
    pub fn step(&self, now: Instant) -> Step {
        if self.fault.is_some() || self.search.is_some() {
            return Step::Wait;
        }
        let pausing = self.wake.is_some_and(|w| w > now);
        let viewing = self.lines.viewed().is_some();
        let analyse = self.analyse && self.analysis_ended.as_ref() != Some(&self.shown_key());
        decide::step(
            self.next(),
            analyse,
            self.shown(),
            viewing,
            self.paused,
            pausing,
        )
    }

    /// The earliest moment after `now` the session must wake for: an engine action's
    /// pause, a search's deadline, a person's clock running out.
    pub fn wake_time(&self, now: Instant) -> Option<Instant> {
        let mut times = Vec::new();
        if let Some(w) = self.wake.filter(|w| *w > now && !self.paused) {
            times.push(w);
        }
        if let Some(d) = self.search.as_ref().and_then(|s| s.deadline) {
            times.push(d);
        }
        if let Some(c) = &self.clocks {
            for s in Side::BOTH {
                if self.players[s.index()] == Who::Human
                    && let Some(t) = c.flag_at(s.index())
                {
                    times.push(t);
                }
            }
        }
        times.into_iter().min()
    }

    /// What is due at `now`: a search past its deadline, else a person's clock run out.
    pub fn due(&self, now: Instant) -> Option<Due> {
        if let Some(s) = &self.search
            && s.deadline.is_some_and(|d| d <= now)
        {
            return Some(Due::Hang(now.duration_since(s.sent).as_millis()));
        }
        let c = self.clocks.as_ref()?;
        Side::BOTH
            .into_iter()
            .find(|s| {
                self.players[s.index()] == Who::Human
                    && c.flag_at(s.index()).is_some_and(|t| t <= now)
            })
            .map(Due::Flag)
    }

    /// Charges side `s`'s clock for a decision at `now`; false when its time had run out.
    pub fn charge(&mut self, s: Side, now: Instant) -> bool {
        match self.clocks.as_mut() {
            Some(c) => {
                let in_time = c.decided(s.index(), now);
                self.clock_log.decided(s.index(), c.left(s.index(), now));
                in_time
            }
            None => true,
        }
    }

    /// Stops both clocks at `now`.
    pub fn halt_clocks(&mut self, now: Instant) {
        if let Some(c) = self.clocks.as_mut() {
            c.halt(0, now);
            c.halt(1, now);
        }
    }

    /// New clocks for a new game under the limit (none without a clock).
    pub fn reset_clocks(&mut self) {
        self.clocks = match self.limit {
            Limit::Clock { base_ms, inc_ms } => Some(Clocks::new(base_ms, inc_ms)),
            _ => None,
        };
        self.clock_log = ClockLog::new(match self.limit {
            Limit::Clock { base_ms, inc_ms } => Some((base_ms, inc_ms)),
            _ => None,
        });
    }

    /// What a new main line from the token after the first `kept` on resets, as a take
    /// back does: declarations, the reveal, an end by clock or resignation, the pause
    /// before an engine move, running clocks, an illegal-move fault (the move is gone), and
    /// the review's results past it.
    pub fn after_line_change(&mut self, kept: usize, now: Instant) {
        self.declared = [None, None];
        self.reveal = None;
        self.flagged = None;
        self.resigned = None;
        self.wake = None;
        self.halt_clocks(now);
        self.clock_log.forget_pending();
        if self
            .fault
            .as_ref()
            .is_some_and(|f| f.failure.kind == FaultKind::Illegal)
        {
            self.fault = None;
        }
        if let Some(r) = self.review.as_mut() {
            r.keep_first(kept);
        }
    }

    /// What a new game (a new one, one from a position, a record loaded) starts without:
    /// variations, declarations, the reveal, its end, the pause, the reply time, the
    /// review, and its clocks (new ones).
    pub fn start_afresh(&mut self, plies: usize) {
        self.lines.clear_variations();
        self.lines.actors = vec![Actor::Unknown; plies];
        self.declared = [None, None];
        self.reveal = None;
        self.flagged = None;
        self.resigned = None;
        self.wake = None;
        self.reply_ms = None;
        self.review = None;
        self.names = [None, None];
        self.reset_clocks();
    }

    /// How the game ended, for the page: `result`, the `reason` token and its `words` (a
    /// resignation's and a flag's are the server's own; a rule's are the engine's
    /// `reason_words`, so the page needs no table of any game's reasons); null while the
    /// game goes on.
    pub fn over_json(&self) -> Value {
        if let Some(side) = self.resigned {
            let result = if side == Side::P1 { "p2win" } else { "p1win" };
            return json!({"result": result, "reason": "resignation", "words": "resignation"});
        }
        if let Some(side) = self.flagged {
            let result = if side == Side::P1 { "p2win" } else { "p1win" };
            return json!({"result": result, "reason": "time", "words": "the clock ran out"});
        }
        match &self.snap {
            Some(s) if s.node == Node::Over => json!({
                "result": s.position["result"],
                "reason": s.position["reason"],
                "words": s.position["reason_words"],
            }),
            _ => Value::Null,
        }
    }

    /// A declaration as the page may see it: the token to the only person playing,
    /// otherwise hidden.
    pub fn declared_view(&self, side: Side) -> Value {
        let humans = self.players.iter().filter(|w| **w == Who::Human).count();
        match &self.declared[side.index()] {
            None => Value::Null,
            Some(t) if humans == 1 && self.players[side.index()] == Who::Human => json!(t),
            Some(_) => json!("hidden"),
        }
    }

    /// The players' names: a loaded record's, else "Human" or the engine's `engine` name.
    pub fn player_names(&self, engine: &str) -> [String; 2] {
        let name = |i: usize| match (&self.names[i], self.players[i]) {
            (Some(n), _) => n.clone(),
            (None, Who::Human) => "Human".to_string(),
            (None, Who::Engine) => engine.to_string(),
        };
        [name(0), name(1)]
    }

    /// The state the page draws, at `now` (the session adds what only its I/O knows: the
    /// message's number, the engine's process).
    pub fn state_json(&self, now: Instant, engine: &str) -> Value {
        let viewing = self
            .lines
            .viewed()
            .map(|(ply, _)| json!({"ply": ply, "line": self.lines.line}));
        let snap = self.snap.as_ref();
        let clocks = self.clocks.as_ref().map(|c| {
            json!({
                "left": [c.left(0, now), c.left(1, now)],
                "running": [c.running(0), c.running(1)],
            })
        });
        let thinking = self.search.as_ref().map(
            |s| json!({"purpose": s.purpose, "ms": now.duration_since(s.sent).as_millis() as u64}),
        );
        let plies = self.lines.moves.len();
        json!({
            "t": "state",
            "game": self.name,
            "start_fen": self.start_text,
            "moves": self.lines.moves,
            "actors": self.lines.actors,
            "variations": self.lines.variations_json(),
            "viewing": viewing,
            "position": snap.map_or(Value::Null, |s| s.position.clone()),
            // The position before the last token, for the marks of what it captured.
            "before": plies.checked_sub(1).and_then(|b| self.lines.seen(None, b)),
            "legal": snap.map_or(Vec::new(), |s| s.legal.clone()),
            "legal_side": snap.map_or(json!([[], []]), |s| {
                json!([listed(&s.legal_side[0]), listed(&s.legal_side[1])])
            }),
            "players": self.players,
            "names": self.player_names(engine),
            "next": self.next(),
            "declared": [self.declared_view(Side::P1), self.declared_view(Side::P2)],
            "reveal": self.reveal,
            "thinking": thinking,
            "fault": self.fault,
            "over": self.over_json(),
            "clocks": clocks,
            "clk": self.clock_log.json(plies),
            "limit": self.limit,
            "delay_ms": self.delay.as_millis() as u64,
            "paused": self.paused,
            "analyse": self.analyse,
            "analysis_note": analysis_note(self),
            "review": self.review.as_ref().map(|r| r.json(plies)),
            "seed": self.seed,
            "reply_ms": self.reply_ms,
        })
    }

    /// The current position string, as the engine wrote it.
    pub fn fen_now(&self) -> String {
        self.snap
            .as_ref()
            .and_then(|s| s.position["fen"].as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// The game as a record in the `quartet match --pgnout` format (`engine`: the engine's
    /// name for its players): a finished game with its result (`Termination` normal or
    /// repetition, `Reason` the engine's words for the rule), a game stopped by an engine
    /// fault or a clock as lost by that side (crash, stall, illegal move, time forfeit),
    /// and a game under way as `*` (`Termination` unterminated).
    pub fn record(&self, engine: &str) -> Record {
        let position = self.snap.as_ref().map(|s| &s.position);
        let end = match (&self.snap, self.flagged, self.resigned, &self.fault) {
            (Some(s), ..) if s.node == Node::Over => End::Rules {
                result: s.position["result"].as_str(),
                reason: s.position["reason"].as_str(),
                words: s.position["reason_words"].as_str(),
            },
            (_, Some(side), ..) => End::Flagged(side),
            (_, _, Some(side), _) => End::Resigned(side),
            (.., Some(Fault { failure })) => match failure.side {
                Some(side) => End::Fault(side, failure),
                None => End::Unfinished,
            },
            _ => End::Unfinished,
        };
        // Every rule option as the engine reports it (`query position`'s `rules`), as the
        // referee writes them: `quartet replay` and a later load set them again.
        let rules = position
            .and_then(|p| p["rules"].as_object())
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
            .collect();
        let rolled = self
            .lines
            .actors
            .iter()
            .any(|a| matches!(a, Actor::Roll(_)));
        recording::record(&Facts {
            names: self.player_names(engine),
            game: &self.name,
            end,
            limit: &self.limit,
            start_text: &self.start_text,
            rules,
            moves: &self.lines.moves,
            clocks: self.clock_log.readings(self.lines.moves.len()),
            dice_seed: rolled.then_some(self.seed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::Snapshot;

    fn snap(node: Node, position: Value) -> Snapshot {
        Snapshot {
            position,
            node,
            legal: vec!["a1a2".into()],
            chance: Vec::new(),
            legal_side: [Vec::new(), Vec::new()],
            game: "g".into(),
        }
    }

    /// A finished game of two tokens between two people, its positions seen.
    fn finished() -> Game {
        let mut g = Game::new(1);
        g.name = "g".into();
        g.players = [Who::Human, Who::Human];
        g.lines.moves = vec!["a1a2".into(), "b7b6".into()];
        g.lines.actors = vec![Actor::Move(Side::P1), Actor::Move(Side::P2)];
        g.lines.positions = vec![
            json!({"node": "turn", "to_act": "p1"}),
            json!({"node": "turn", "to_act": "p2"}),
            json!({"node": "over", "result": "p2win"}),
        ];
        g.snap = Some(snap(Node::Over, json!({"node": "over", "result": "p2win"})));
        g
    }

    #[test]
    fn a_finished_game_is_analysed_at_the_position_shown_and_says_why_not_at_its_end() {
        // Issue 39 §1.3: analysis waited because no one was to move.
        let now = Instant::now();
        let mut g = finished();
        g.analyse = true;
        assert_eq!(g.step(now), Step::Wait);
        assert_eq!(
            analysis_note(&g),
            Some("the game is over at this position: nothing to analyse")
        );
        g.lines.viewing = Some(1);
        assert_eq!(
            g.step(now),
            Step::Analyse {
                clock: None,
                side: None
            }
        );
        assert_eq!(analysis_note(&g), None);
        // An engine that ends its analysis by itself is not asked again there.
        g.analysis_ended = Some(g.shown_key());
        assert_eq!(g.step(now), Step::Wait);
        assert!(analysis_note(&g).is_some_and(|n| n.contains("ended")));
        g.lines.viewing = Some(0);
        assert_ne!(g.step(now), Step::Wait, "another position is");
        // Not asked: nothing, and nothing to say.
        g.analyse = false;
        assert_eq!((g.step(now), analysis_note(&g)), (Step::Wait, None));
    }

    #[test]
    fn an_engine_game_paused_is_analysed_and_the_engines_own_search_comes_first() {
        let now = Instant::now();
        let mut g = finished();
        g.players = [Who::Engine, Who::Engine];
        g.snap = Some(snap(
            Node::Turn(Side::P1),
            json!({"node": "turn", "to_act": "p1"}),
        ));
        g.lines.positions[2] = json!({"node": "turn", "to_act": "p1"});
        g.analyse = true;
        assert_eq!(g.step(now), Step::Go(Purpose::Move(Side::P1)));
        g.paused = true;
        assert_eq!(
            g.step(now),
            Step::Analyse {
                clock: None,
                side: None
            }
        );
        g.search = Some(Search {
            purpose: Purpose::Move(Side::P1),
            sent: now,
            deadline: None,
        });
        assert_eq!(g.step(now), Step::Wait);
        assert!(analysis_note(&g).is_some_and(|n| n.contains("its own move")));
    }

    #[test]
    fn a_take_back_keeps_the_review_of_the_positions_before_it() {
        let mut g = finished();
        let mut r = ReviewLog::new(1, quartet_review::Budget::Nodes(1), "1 nodes".into());
        let turn = quartet_review::facts::Facts::Turn {
            mover: quartet_review::facts::Side::First,
            searched: None,
        };
        r.take_facts(vec![turn; 3], 3);
        g.review = Some(r);
        g.after_line_change(1, Instant::now());
        assert_eq!(
            g.review.as_ref().map(|r| (r.facts.len(), r.done)),
            Some((1, 1))
        );
        g.start_afresh(0);
        assert!(g.review.is_none());
    }

    #[test]
    fn a_loaded_records_names_stay_in_the_state_and_the_record_until_a_new_game() {
        let mut g = finished();
        assert_eq!(g.player_names("Quartet"), ["Human", "Human"]);
        g.names = [Some("Alpha".into()), Some("Beta".into())];
        let state = g.state_json(Instant::now(), "Quartet");
        assert_eq!(state["names"], json!(["Alpha", "Beta"]));
        let text = g.record("Quartet").to_text();
        assert!(text.contains("[White \"Alpha\"]") && text.contains("[Black \"Beta\"]"));
        g.start_afresh(0);
        g.players = [Who::Human, Who::Engine];
        assert_eq!(g.player_names("Quartet"), ["Human", "Quartet"]);
    }
}
