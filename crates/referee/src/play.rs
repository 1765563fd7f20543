//! Playing one game between two engine processes, checking every move with the rules.
//!
//! - `Turn(p)`: engine `p` gets `position ...` and `go <limits>`; its token must parse and be
//!   legal, or it loses by illegal move.
//! - `Chance`: the referee draws the outcome from the pair's dice (a stream per player);
//!   no engine is asked.
//! - `Simultaneous`: both engines get the same `position` and `go <limits> side w|b` before
//!   either answer is read (commit, then reveal: neither sees the other's declaration, which
//!   is only ever sent as part of the joint token afterwards). The joint token
//!   `<first>/<second>` is recorded verbatim and resolved by the rules; a declaration the
//!   rules accept as void is part of the game, a half that the rules refuse loses.
//!
//! Crashes, time forfeits and stalls are judged by the clocks and the engine's replies (see
//! [`super::engine::Reply`]); every ending is a [`Verdict`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use quartet_core::game::{Action, Node, Outcome, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;

use super::adjudicate::{Failure, Termination, Verdict, quote, rules_verdict};
use super::adjudication::{Adjudication, Tracker};
use super::clock::{Clocks, TimeControl};
use super::dice::DiceStreams;
use super::engine::{Engine, Reply};
use super::info::SearchInfo;
use super::schedule::GameSpec;
use quartet_core::exact::Prover;

/// What one game needs besides the engines.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'a> {
    /// Each player's limit: the first player's, then the second's.
    pub tc: [TimeControl; 2],
    /// Tolerance on clocks, and how long past a deadline an engine may still answer `stop`
    /// (at least 100 ms) before it counts as stalled.
    pub margin: Duration,
    /// Wait limit without a clock (node and depth limits) and for `isready`.
    pub timeout: Duration,
    /// Set by the match to abandon the game (a decided SPRT, an engine failure without
    /// `--recover`, a signal).
    pub stop: &'a AtomicBool,
    /// The adjudication rules.
    pub adjudication: Adjudication,
}

impl Settings<'_> {
    fn grace(&self) -> Duration {
        self.margin.max(Duration::from_millis(100))
    }
}

/// What one engine said about its move, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineNote {
    /// The engine's token (its half of a joint turn).
    pub token: String,
    /// Its last score, depth and policy.
    pub info: SearchInfo,
    /// Time from `go` to `bestmove`.
    pub elapsed: Duration,
    /// Its clock after the move (the increment added), under a clock.
    pub clock: Option<Duration>,
}

/// Where a token of the game came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// The opening.
    Book,
    /// The referee's dice.
    Chance,
    /// The engines: one, or both at a joint turn (the first player's first).
    Engines(Vec<EngineNote>),
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Every token, opening included.
    pub moves: Vec<String>,
    /// Where each token came from, and what its engines said.
    pub notes: Vec<Note>,
    /// How many of `moves` were the opening.
    pub opening_plies: usize,
    /// How it ended.
    pub verdict: Verdict,
    /// Per player: the engine crashed or hangs and must be restarted before it plays again.
    pub broken: [bool; 2],
    /// Time spent waiting for engines: their new-game handshakes (`ucinewgame` clears an
    /// engine's table, its own work) and their searches.
    pub engine_time: Duration,
    /// Time of the whole game, waiting included.
    pub wall_time: Duration,
    /// When it began: milliseconds since the Unix epoch.
    pub started_ms: u64,
}

/// Turns an engine's reply into its token, or into the failure it is.
fn judge(
    reply: Reply,
    clocks: &mut Clocks,
    p: Player,
    s: &Settings,
) -> Result<(String, Duration), (Failure, bool)> {
    let fail = |termination, reason: String| Failure {
        termination,
        reason,
    };
    match reply {
        Reply::InTime { token, elapsed } => match clocks.spend(p, elapsed) {
            Ok(()) => Ok((token, elapsed)),
            Err(o) => Err((fail(Termination::TimeForfeit, o.to_string()), false)),
        },
        Reply::Late { elapsed, .. } if clocks.tc(p).is_timed() => {
            let why = format!(
                "no bestmove before stop: used {} ms with {} ms left and {} ms margin",
                elapsed.as_millis(),
                clocks.left(p).as_millis(),
                s.margin.as_millis()
            );
            Err((fail(Termination::TimeForfeit, why), false))
        }
        Reply::Late { .. } => {
            let why = format!("no bestmove within {} ms", s.timeout.as_millis());
            Err((fail(Termination::Stall, why), false))
        }
        Reply::Silent => {
            let why = "no bestmove, not even after stop".to_string();
            Err((fail(Termination::Stall, why), true))
        }
        Reply::Closed => Err((
            fail(Termination::Crash, "the engine exited".to_string()),
            true,
        )),
        // Never judged: the game loop sees the abandonment first.
        Reply::Abandoned => Err((
            fail(Termination::Stall, "the game was abandoned".to_string()),
            false,
        )),
    }
}

/// Sends the position and `go` to `engine` and waits for its answer (or the game's
/// abandonment, `cancel`).
fn ask(
    engine: &mut Engine,
    position: &str,
    go: &str,
    (limit, grace): (Duration, Duration),
    cancel: &AtomicBool,
) -> Reply {
    match engine.start_search(position, go) {
        Ok(()) => engine.await_move(limit, grace, cancel),
        Err(_) => Reply::Closed,
    }
}

/// Why each half of a refused joint token is at fault: a half is tried against a legal
/// declaration of the other side; if neither half fails alone, both are blamed.
fn culprits<G: Notation>(pos: &G, tokens: &[String; 2], joint_error: &str) -> [Option<String>; 2] {
    let probe = |p: Player| {
        let mut moves = Vec::new();
        pos.legal_moves(p, &mut moves);
        moves.first().map(|&m| pos.format_move(m))
    };
    let probes = [probe(Player::First), probe(Player::Second)];
    let mut blame: [Option<String>; 2] = [None, None];
    for p in [Player::First, Player::Second] {
        let token = &tokens[p.index()];
        blame[p.index()] = if token.is_empty() || token.contains('/') {
            Some(format!("malformed declaration '{}'", quote(token)))
        } else {
            let other = probes[p.other().index()].as_deref();
            let joint = match (p, other) {
                (_, None) => None,
                (Player::First, Some(o)) => Some(format!("{token}/{o}")),
                (Player::Second, Some(o)) => Some(format!("{o}/{token}")),
            };
            joint.and_then(|j| pos.parse_action(&j).err().map(|e| e.to_string()))
        };
    }
    if blame == [None, None] {
        blame = [Some(joint_error.to_string()), Some(joint_error.to_string())];
    }
    blame
}

fn illegal(reason: String) -> Failure {
    Failure {
        termination: Termination::IllegalMove,
        reason,
    }
}

/// Plays `spec` with `engines[p]` playing player `p` (named `names[p]`). Returns `Ok(None)`
/// when the game was abandoned through `settings.stop`, `Err` if the opening does not
/// replay (a bug in the schedule, as openings are checked when it is built).
pub fn play_game<G: Notation>(
    s: &Settings,
    engines: [&mut Engine; 2],
    names: [&str; 2],
    spec: &GameSpec,
    rules: &RuleOptions,
) -> Result<Option<PlayedGame>, String> {
    let started = Instant::now();
    let started_ms = super::datetime::unix_ms();
    let mut table = Table::<G>::new(s, engines, spec, rules)?;
    let opening_plies = table.moves.len();
    table.new_game(spec);
    let verdict = loop {
        if s.stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        if let Some(v) = Verdict::from_failures(std::mem::take(&mut table.failures), names) {
            break v;
        }
        if let Some(v) = rules_verdict(&table.game) {
            break v;
        }
        if let Some(v) = table.adjudicate(names) {
            break v;
        }
        let step = match table.game.node() {
            // Judged above: a terminal node is a rules verdict.
            Node::Terminal(_) => None,
            Node::Chance => Some(table.roll()?),
            Node::Turn(p) => table.turn(p),
            Node::Simultaneous => table.simultaneous(),
        };
        // No step: a failure was recorded, and the next round judges it.
        if let Some((action, token, note)) = step {
            table.play(action, token, note)?;
        }
    };
    Ok(Some(PlayedGame {
        moves: table.moves,
        notes: table.notes,
        opening_plies,
        verdict,
        broken: table.broken,
        engine_time: table.engine_time,
        wall_time: started.elapsed(),
        started_ms,
    }))
}

/// One game under way: the position with its history, the move list as sent to the
/// engines, the clocks, the dice, and what has gone wrong.
struct Table<'a, 'e, G: Notation> {
    s: &'a Settings<'a>,
    engines: [&'e mut Engine; 2],
    game: GameHistory<G>,
    notes: Vec<Note>,
    /// The adjudication counts.
    tracker: Tracker,
    /// The exact solver's prover (`--adjudicate exact`).
    prover: Option<Box<dyn Prover<G>>>,
    /// The players of the last decision, until the adjudication looked at it.
    movers: Vec<Player>,
    /// `position startpos` or `position fen <fen>`.
    base: String,
    moves: Vec<String>,
    /// ` <token>` per move, appended to `base` after ` moves`.
    moves_text: String,
    clocks: Clocks,
    dice: DiceStreams,
    outcomes: Vec<(G::Move, u32)>,
    engine_time: Duration,
    failures: [Option<Failure>; 2],
    broken: [bool; 2],
}

impl<'a, 'e, G: Notation> Table<'a, 'e, G> {
    /// The game at its opening's end (the opening replayed and checked).
    fn new(
        s: &'a Settings<'a>,
        engines: [&'e mut Engine; 2],
        spec: &GameSpec,
        rules: &RuleOptions,
    ) -> Result<Self, String> {
        let start = match &spec.opening.fen {
            Some(fen) => G::parse_position(fen, rules).map_err(|e| e.to_string())?,
            None => G::start(rules),
        };
        let base = match &spec.opening.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        let prover = G::PROVER
            .filter(|_| s.adjudication.exact)
            .map(|make| make(rules));
        let mut table = Table {
            s,
            engines,
            game: GameHistory::new(start),
            notes: Vec::new(),
            tracker: Tracker::new(s.adjudication, G::DECLARATION.draws),
            prover,
            movers: Vec::new(),
            base,
            moves: Vec::new(),
            moves_text: String::new(),
            clocks: Clocks::new(s.tc, s.margin),
            dice: DiceStreams::new(spec.seed),
            outcomes: Vec::new(),
            engine_time: Duration::ZERO,
            failures: [None, None],
            broken: [false; 2],
        };
        for token in &spec.opening.moves {
            let pos = table.game.current();
            let action = pos.parse_action(token).map_err(|e| e.to_string())?;
            let note = match pos.node() {
                Node::Chance => Note::Chance,
                _ => Note::Book,
            };
            table
                .play(action, token.clone(), note)
                .map_err(|_| format!("opening token '{token}' is illegal"))?;
        }
        table.movers.clear();
        Ok(table)
    }

    /// The new-game handshake of both engines; a failure is recorded against its engine.
    fn new_game(&mut self, spec: &GameSpec) {
        for p in [Player::First, Player::Second] {
            let asked = Instant::now();
            let ready = self.engines[p.index()].new_game(spec.engine_seed(p), self.s.timeout);
            self.engine_time += asked.elapsed();
            if let Err(e) = ready {
                let termination = if e == super::engine::EngineError::Closed {
                    Termination::Crash
                } else {
                    Termination::Stall
                };
                self.fail(
                    p,
                    Failure {
                        termination,
                        reason: format!("before the game: {e}"),
                    },
                    true,
                );
            }
        }
    }

    /// Plays a checked action, appends its token to the move list and counts its
    /// decisions for the adjudication.
    fn play(&mut self, action: Action<G::Move>, token: String, note: Note) -> Result<(), String> {
        let movers = match self.game.node() {
            Node::Turn(p) => vec![p],
            Node::Simultaneous => vec![Player::First, Player::Second],
            _ => Vec::new(),
        };
        self.game
            .try_play(action)
            .map_err(|_| format!("the checked action '{token}' was refused"))?;
        match &note {
            Note::Engines(engines) => {
                for (&p, e) in movers.iter().zip(engines) {
                    self.tracker.engine_ply(p, &e.info);
                }
            }
            _ => movers.iter().for_each(|_| self.tracker.book_ply()),
        }
        if !movers.is_empty() {
            self.movers = movers;
        }
        self.moves_text.push(' ');
        self.moves_text.push_str(&token);
        self.moves.push(token);
        self.notes.push(note);
        Ok(())
    }

    /// The adjudication of the position reached, if the rules asked for call one: the
    /// exact solver's proof first, then the scores' rules after a decision.
    fn adjudicate(&mut self, names: [&str; 2]) -> Option<Verdict> {
        if let Some(prover) = self.prover.as_mut()
            && let Some(outcome) = prover.prove(self.game.current())
        {
            let what = match outcome {
                Outcome::Win(p) => format!("a win for {}", names[p.index()]),
                Outcome::Draw => "a draw".to_string(),
            };
            return Some(Verdict {
                outcome,
                termination: Termination::ExactAdjudication,
                reason: format!("the exact solver proves {what} with correct play"),
            });
        }
        let movers = std::mem::take(&mut self.movers);
        if movers.is_empty() {
            return None;
        }
        self.tracker.verdict(&movers, names)
    }

    /// What engine `p` said about the move it just made in `elapsed`.
    fn engine_note(&self, p: Player, token: &str, elapsed: Duration) -> EngineNote {
        EngineNote {
            token: token.to_string(),
            info: self.engines[p.index()].info().clone(),
            elapsed,
            clock: matches!(self.clocks.tc(p), TimeControl::Clock { .. })
                .then(|| self.clocks.left(p)),
        }
    }

    /// The `position` command of the game so far.
    fn position(&self) -> String {
        if self.moves_text.is_empty() {
            self.base.clone()
        } else {
            format!("{} moves{}", self.base, self.moves_text)
        }
    }

    /// How long engine `p` may take for this move.
    fn limit(&self, p: Player) -> Duration {
        self.clocks.wait_limit(p).unwrap_or(self.s.timeout)
    }

    /// Records a failure of `p` (and whether its engine must be restarted); a crash's
    /// reason quotes the last lines the engine wrote to stderr.
    fn fail(&mut self, p: Player, mut failure: Failure, broken: bool) {
        if failure.termination == Termination::Crash {
            let words = self.engines[p.index()]
                .sink()
                .last_words(Duration::from_millis(200));
            if !words.is_empty() {
                failure
                    .reason
                    .push_str(&format!("; its last stderr lines: {words}"));
            }
        }
        self.broken[p.index()] |= broken;
        self.failures[p.index()] = Some(failure);
    }

    /// A chance node: the referee draws the outcome from the pair's dice.
    fn roll(&mut self) -> Result<(Action<G::Move>, String, Note), String> {
        let pos = self.game.current();
        let m = self
            .dice
            .sample(pos, &mut self.outcomes)
            .ok_or("a chance node without outcomes")?;
        Ok((Action::Single(m), pos.format_move(m), Note::Chance))
    }

    /// A turn of `p`: its engine's token, if it is legal and came in time.
    fn turn(&mut self, p: Player) -> Option<(Action<G::Move>, String, Note)> {
        let go = format!("go {}", self.clocks.go_limits(p));
        let asked = Instant::now();
        let (position, limit, grace) = (self.position(), self.limit(p), self.s.grace());
        let reply = ask(
            self.engines[p.index()],
            &position,
            &go,
            (limit, grace),
            self.s.stop,
        );
        self.engine_time += asked.elapsed();
        let (token, elapsed) = match judge(reply, &mut self.clocks, p, self.s) {
            Ok(answer) => answer,
            Err((f, b)) => {
                self.fail(p, f, b);
                return None;
            }
        };
        let pos = self.game.current();
        match pos.parse_action(&token) {
            Ok(a @ Action::Single(_)) if pos.is_legal(a) => {
                let note = Note::Engines(vec![self.engine_note(p, &token, elapsed)]);
                Some((a, pos.format_action(a), note))
            }
            Ok(_) => {
                let why = format!("'{}' is not a move of this turn", quote(&token));
                self.fail(p, illegal(why), false);
                None
            }
            Err(e) => {
                self.fail(p, illegal(e.to_string()), false);
                None
            }
        }
    }

    /// A simultaneous turn: both engines are asked before either answer is read, then the
    /// joint token is checked.
    fn simultaneous(&mut self) -> Option<(Action<G::Move>, String, Note)> {
        let position = self.position();
        let asked = Instant::now();
        let mut started = [true; 2];
        for (p, side) in [(Player::First, "w"), (Player::Second, "b")] {
            let go = format!("go {} side {side}", self.clocks.go_limits(p));
            started[p.index()] = self.engines[p.index()].start_search(&position, &go).is_ok();
        }
        let mut tokens = [String::new(), String::new()];
        let mut times = [Duration::ZERO; 2];
        for p in [Player::First, Player::Second] {
            let reply = if started[p.index()] {
                let (limit, grace) = (self.limit(p), self.s.grace());
                self.engines[p.index()].await_move(limit, grace, self.s.stop)
            } else {
                Reply::Closed
            };
            match judge(reply, &mut self.clocks, p, self.s) {
                Ok((token, elapsed)) => {
                    tokens[p.index()] = token;
                    times[p.index()] = elapsed;
                }
                Err((f, b)) => self.fail(p, f, b),
            }
        }
        self.engine_time += asked.elapsed();
        if self.failures.iter().any(Option::is_some) {
            return None;
        }
        let joint = format!("{}/{}", tokens[0], tokens[1]);
        let pos = self.game.current();
        match pos.parse_action(&joint) {
            Ok(a @ Action::Joint(..)) if pos.is_legal(a) => {
                let note = Note::Engines(
                    [Player::First, Player::Second]
                        .map(|p| self.engine_note(p, &tokens[p.index()], times[p.index()]))
                        .to_vec(),
                );
                Some((a, joint, note))
            }
            other => {
                let why = match other {
                    Err(e) => e.to_string(),
                    Ok(_) => format!("'{}' is not a joint turn", quote(&joint)),
                };
                self.failures = culprits(pos, &tokens, &why).map(|b| b.map(illegal));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_testkit::toys::Pennies;

    fn settings(stop: &AtomicBool, tc: TimeControl) -> Settings<'_> {
        Settings {
            tc: [tc; 2],
            margin: Duration::from_millis(10),
            timeout: Duration::from_millis(500),
            stop,
            adjudication: Adjudication::default(),
        }
    }

    #[test]
    fn replies_are_judged_by_kind_and_clock() {
        let stop = AtomicBool::new(false);
        let ms = Duration::from_millis;
        let timed = settings(&stop, TimeControl::MoveTime(ms(100)));
        let mut clocks = Clocks::new(timed.tc, timed.margin);
        let mut untimed_clocks = Clocks::new([TimeControl::Nodes(5); 2], timed.margin);
        let p = Player::First;
        let in_time = |elapsed| Reply::InTime {
            token: "x".to_string(),
            elapsed,
        };
        assert_eq!(
            judge(in_time(ms(110)), &mut clocks, p, &timed),
            Ok(("x".to_string(), ms(110)))
        );
        let (f, broken) = judge(in_time(ms(111)), &mut clocks, p, &timed).unwrap_err();
        assert_eq!((f.termination, broken), (Termination::TimeForfeit, false));
        let late = Reply::Late {
            token: "x".to_string(),
            elapsed: ms(200),
        };
        let (f, _) = judge(late.clone(), &mut clocks, p, &timed).unwrap_err();
        assert_eq!(f.termination, Termination::TimeForfeit);
        // Without a clock a late answer is a stall, but the engine still works.
        let untimed = settings(&stop, TimeControl::Nodes(5));
        let (f, broken) = judge(late, &mut untimed_clocks, p, &untimed).unwrap_err();
        assert_eq!((f.termination, broken), (Termination::Stall, false));
        let (f, broken) = judge(Reply::Silent, &mut untimed_clocks, p, &untimed).unwrap_err();
        assert_eq!((f.termination, broken), (Termination::Stall, true));
        let (f, broken) = judge(Reply::Closed, &mut untimed_clocks, p, &untimed).unwrap_err();
        assert_eq!((f.termination, broken), (Termination::Crash, true));
        assert_eq!(untimed.grace(), ms(100));
    }

    #[test]
    fn culprits_blame_the_refused_half() {
        let pos = Pennies::start(&RuleOptions::default());
        let tokens = |a: &str, b: &str| [a.to_string(), b.to_string()];
        let blame = culprits(&pos, &tokens("H", "t"), "joint");
        assert!(
            blame[0]
                .as_deref()
                .is_some_and(|w| w.starts_with("malformed move 'H/h'"))
        );
        assert_eq!(blame[1], None);
        let blame = culprits(&pos, &tokens("h", "t/h"), "joint");
        assert_eq!(blame[0], None);
        assert_eq!(blame[1].as_deref(), Some("malformed declaration 't/h'"));
        let blame = culprits(&pos, &tokens("", "1"), "joint");
        assert!(blame[0].is_some() && blame[1].is_some());
        // When each half passes alone, both are blamed with the joint error.
        let blame = culprits(&pos, &tokens("h", "t"), "joint");
        assert_eq!(
            blame,
            [Some("joint".to_string()), Some("joint".to_string())]
        );
    }
}
