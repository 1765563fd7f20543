//! One browser tab's session: its engine process, the game (start position, tokens, who
//! plays each side), the engine's search, the clocks and the dice. It runs one loop over
//! three sources (the page's messages, the engine's lines, a timer) and sends the page the
//! whole state after every change. When the tab closes the engine is ended.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::ws::{Message, WebSocket};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::Config;
use super::clock::Clocks;
use super::engine::{Engine, Event};
use super::flow::{self, Actor, Next, Node, Side};
use super::request::{self, Limit, Who};
use super::talk::{Failure, FaultKind, Snapshot};
use super::uci::{self, OptionDecl, OptionKind};

/// How long an engine may take to answer `uci`.
const HANDSHAKE_WAIT: Duration = Duration::from_secs(10);
/// How long a depth or node limited search may run before it counts as hanging.
const UNTIMED_LIMIT: Duration = Duration::from_secs(120);
/// Console lines kept per message to the page (the rest of a burst is summarised).
const CONSOLE_BURST: usize = 4000;

/// Why a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "side", rename_all = "lowercase")]
pub enum Purpose {
    /// The engine's move for a side.
    Move(Side),
    /// The engine's declaration for a side (simultaneous turn).
    Declare(Side),
    /// Analysis while a person thinks (for this side at a simultaneous turn).
    Analysis(Option<Side>),
}

impl Purpose {
    /// The side the engine plays for, when it is asked to act.
    pub fn side(self) -> Option<Side> {
        match self {
            Purpose::Move(s) | Purpose::Declare(s) => Some(s),
            Purpose::Analysis(_) => None,
        }
    }
}

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

/// The engine's `id` and `option` lines.
#[derive(Debug, Clone, Default)]
pub struct Ident {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// Every declared option.
    pub options: Vec<OptionDecl>,
}

/// One tab's session; see the module doc.
pub struct Session {
    pub(super) socket: WebSocket,
    pub(super) config: Arc<Config>,
    pub(super) events_tx: mpsc::Sender<(u64, Event)>,
    pub(super) events: mpsc::Receiver<(u64, Event)>,
    pub(super) engine: Option<Engine>,
    pub(super) generation: u64,
    pub(super) ident: Ident,
    /// Options the person set, sent again to a restarted engine.
    pub(super) set_options: Vec<String>,
    /// The engine's `Game` values.
    pub(super) games: Vec<String>,
    pub(super) game: String,
    /// The position string the game started from (`None`: `startpos`).
    pub(super) start_fen: Option<String>,
    /// The start position's string as the engine wrote it.
    pub(super) start_text: String,
    pub(super) moves: Vec<String>,
    pub(super) actors: Vec<Actor>,
    pub(super) players: [Who; 2],
    pub(super) snap: Option<Snapshot>,
    pub(super) declared: [Option<String>; 2],
    pub(super) reveal: Option<Value>,
    pub(super) search: Option<Search>,
    pub(super) fault: Option<Fault>,
    /// A side whose clock ran out.
    pub(super) flagged: Option<Side>,
    pub(super) limit: Limit,
    pub(super) clocks: Option<Clocks>,
    pub(super) delay: Duration,
    /// The next engine action waits until then.
    pub(super) wake: Option<Instant>,
    pub(super) paused: bool,
    pub(super) analyse: bool,
    pub(super) seed: u64,
    pub(super) rng: ChaCha8Rng,
    pub(super) console: Vec<(char, String)>,
    pub(super) console_dropped: usize,
    pub(super) closed: bool,
    pub(super) seq: u64,
    /// Milliseconds from the last move's `go` to its `bestmove`.
    pub(super) reply_ms: Option<u64>,
    /// The state changed since it was last sent.
    pub(super) state_due: bool,
}

/// Runs the session of one WebSocket connection to its end, then ends its engine.
pub async fn run(socket: WebSocket, config: Arc<Config>) {
    let (events_tx, events) = mpsc::channel(4096);
    let seed = config.seed.unwrap_or_else(fresh_seed);
    let mut s = Session {
        socket,
        config,
        events_tx,
        events,
        engine: None,
        generation: 0,
        ident: Ident::default(),
        set_options: Vec::new(),
        games: Vec::new(),
        game: String::new(),
        start_fen: None,
        start_text: String::new(),
        moves: Vec::new(),
        actors: Vec::new(),
        players: [Who::Human, Who::Engine],
        snap: None,
        declared: [None, None],
        reveal: None,
        search: None,
        fault: None,
        flagged: None,
        limit: Limit::Movetime { ms: 1000 },
        clocks: None,
        delay: Duration::from_millis(300),
        wake: None,
        paused: false,
        analyse: false,
        seed,
        rng: ChaCha8Rng::seed_from_u64(seed),
        console: Vec::new(),
        console_dropped: 0,
        closed: false,
        seq: 0,
        reply_ms: None,
        state_due: false,
    };
    s.main().await;
    if let Some(e) = s.engine.take() {
        e.shutdown(Duration::from_millis(300)).await;
    }
}

/// A dice seed from the clock, in 0..2^32 so that people can type it.
pub(super) fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % (1u128 << 32)) as u64
}

impl Session {
    async fn main(&mut self) {
        if let Err(f) = self.start_engine().await {
            self.fail(f).await;
        }
        self.state_changed();
        while !self.closed {
            // Act until nothing is left to start (a roll is followed at once by the move
            // after it; a search or a person then has to answer).
            loop {
                match self.advance().await {
                    Ok(true) if !self.closed => {}
                    Ok(_) => break,
                    Err(f) => {
                        self.fail(f).await;
                        break;
                    }
                }
            }
            if self.state_due {
                self.send_state().await;
            }
            self.flush().await;
            let wake = self.wake_time();
            let sleep_until = wake.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                msg = self.socket.recv() => match msg {
                    Some(Ok(Message::Text(text))) => {
                        if let Err(f) = self.on_request(text.as_str()).await {
                            self.fail(f).await;
                        }
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => self.closed = true,
                    Some(Ok(_)) => {}
                },
                event = self.events.recv() => {
                    if let Some((generation, event)) = event
                        && let Err(f) = self.on_event(generation, event).await
                    {
                        self.fail(f).await;
                    }
                }
                _ = tokio::time::sleep_until(sleep_until.into()), if wake.is_some() => {
                    self.on_timer().await;
                }
            }
        }
    }

    // ---- the page ----------------------------------------------------------------

    /// Appends a console line: `>` sent, `<` received, `!` the engine's stderr, `#` a note.
    pub(super) fn console(&mut self, dir: char, line: &str) {
        if self.console.len() < CONSOLE_BURST {
            self.console.push((dir, line.to_string()));
        } else {
            self.console_dropped += 1;
        }
    }

    pub(super) async fn flush(&mut self) {
        if self.console.is_empty() {
            return;
        }
        if self.console_dropped > 0 {
            let n = std::mem::take(&mut self.console_dropped);
            self.console
                .push(('#', format!("... {n} more lines not shown")));
        }
        let lines: Vec<(String, String)> = std::mem::take(&mut self.console)
            .into_iter()
            .map(|(d, l)| (d.to_string(), l))
            .collect();
        self.send_raw(json!({"t": "console", "lines": lines})).await;
    }

    pub(super) async fn send_raw(&mut self, v: Value) {
        if self
            .socket
            .send(Message::Text(v.to_string().into()))
            .await
            .is_err()
        {
            self.closed = true;
        }
    }

    /// Sends `v` after the console lines so far (so the page sees them in order).
    pub(super) async fn send(&mut self, v: Value) {
        self.flush().await;
        self.send_raw(v).await;
    }

    pub(super) async fn error(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.send(json!({"t": "error", "message": message})).await;
    }

    pub(super) async fn note(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.send(json!({"t": "note", "message": message})).await;
    }

    pub(super) async fn send_hello(&mut self) {
        let options: Vec<&OptionDecl> = self
            .ident
            .options
            .iter()
            .filter(|o| !o.name.eq_ignore_ascii_case("Game"))
            .collect();
        let v = json!({
            "t": "hello",
            "name": self.ident.name,
            "author": self.ident.author,
            "command": self.config.engine.display(),
            "pid": self.engine.as_ref().and_then(|e| e.pid),
            "options": options,
            "games": self.games,
        });
        self.send(v).await;
    }

    pub(super) fn next(&self) -> Next {
        match (&self.snap, self.flagged) {
            (Some(s), None) => flow::next(
                s.node,
                self.players,
                [self.declared[0].is_some(), self.declared[1].is_some()],
            ),
            _ => Next::Nothing,
        }
    }

    /// A declaration as the page may see it: the token to the only person playing,
    /// otherwise hidden.
    pub(super) fn declared_view(&self, side: Side) -> Value {
        let humans = self.players.iter().filter(|w| **w == Who::Human).count();
        match &self.declared[side.index()] {
            None => Value::Null,
            Some(t) if humans == 1 && self.players[side.index()] == Who::Human => json!(t),
            Some(_) => json!("hidden"),
        }
    }

    pub(super) fn over_json(&self) -> Value {
        if let Some(side) = self.flagged {
            let result = if side == Side::P1 { "p2win" } else { "p1win" };
            return json!({"result": result, "reason": "time"});
        }
        match &self.snap {
            Some(s) if s.node == Node::Over => json!({
                "result": s.position["result"],
                "reason": s.position["reason"],
            }),
            _ => Value::Null,
        }
    }

    /// Notes that the state changed: it is sent once the loop has started all it can (so
    /// that a person's move and the engine's `go` after it make one message, one drawing).
    pub(super) fn state_changed(&mut self) {
        self.state_due = true;
    }

    /// Sends the whole state to the page.
    async fn send_state(&mut self) {
        self.state_due = false;
        self.seq += 1;
        let now = Instant::now();
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
        let v = json!({
            "t": "state",
            "seq": self.seq,
            "game": self.game,
            "start_fen": self.start_text,
            "moves": self.moves,
            "actors": self.actors,
            "position": snap.map_or(Value::Null, |s| s.position.clone()),
            "legal": snap.map_or(Vec::new(), |s| s.legal.clone()),
            "legal_side": snap.map_or([Vec::new(), Vec::new()], |s| s.legal_side.clone()),
            "players": self.players,
            "next": self.next(),
            "declared": [self.declared_view(Side::P1), self.declared_view(Side::P2)],
            "reveal": self.reveal,
            "thinking": thinking,
            "fault": self.fault,
            "over": self.over_json(),
            "clocks": clocks,
            "limit": self.limit,
            "delay_ms": self.delay.as_millis() as u64,
            "paused": self.paused,
            "analyse": self.analyse,
            "seed": self.seed,
            "reply_ms": self.reply_ms,
            "engine_running": self.engine.is_some(),
            "pid": self.engine.as_ref().and_then(|e| e.pid),
            "sent_ms": SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
        });
        self.send(v).await;
    }

    // ---- faults --------------------------------------------------------------------

    /// Stops the game on an engine failure: the game so far stays, the page is told, and a
    /// crashed or hanging engine is ended (a restart starts a new one).
    pub(super) async fn fail(&mut self, mut f: Failure) {
        if f.side.is_none() {
            f.side = self.search.as_ref().and_then(|s| s.purpose.side());
        }
        self.search = None;
        if f.kind != FaultKind::Illegal
            && let Some(e) = self.engine.take()
        {
            e.shutdown(Duration::from_millis(200)).await;
        }
        if let Some(c) = self.clocks.as_mut() {
            let now = Instant::now();
            c.halt(0, now);
            c.halt(1, now);
        }
        self.console('#', &format!("engine fault ({:?}): {}", f.kind, f.detail));
        self.send(json!({"t": "fault", "fault": f})).await;
        self.fault = Some(Fault { failure: f });
        self.state_changed();
    }

    // ---- the engine ----------------------------------------------------------------

    /// Starts a new engine process, reads its `id` and `option` lines, sends again the
    /// options the person set, and sets it to the game.
    pub(super) async fn start_engine(&mut self) -> Result<(), Failure> {
        if let Some(e) = self.engine.take() {
            e.shutdown(Duration::from_millis(300)).await;
        }
        self.generation += 1;
        let engine = Engine::spawn(&self.config.engine, self.generation, self.events_tx.clone())
            .map_err(|e| Failure::new(FaultKind::Crash, e))?;
        self.console(
            '#',
            &format!(
                "started {} (pid {})",
                self.config.engine.display(),
                engine.pid.map_or("?".to_string(), |p| p.to_string())
            ),
        );
        self.engine = Some(engine);
        self.search = None;
        self.send_engine("uci").await?;
        let mut ident = Ident::default();
        loop {
            let line = self.next_line(HANDSHAKE_WAIT).await?;
            if line == "uciok" {
                break;
            }
            if let Some(n) = line.strip_prefix("id name ") {
                ident.name = n.trim().to_string();
            } else if let Some(a) = line.strip_prefix("id author ") {
                ident.author = a.trim().to_string();
            } else if let Some(o) = uci::parse_option(&line) {
                ident.options.push(o);
            }
        }
        self.games = match ident.options.iter().find(|o| o.name == "Game") {
            Some(OptionDecl {
                kind: OptionKind::Combo { vars, default },
                ..
            }) => {
                if self.game.is_empty() {
                    self.game = default.clone();
                }
                vars.clone()
            }
            _ => Vec::new(),
        };
        if ident.name.is_empty() {
            ident.name = "engine".to_string();
        }
        self.ident = ident;
        let mut cmds = self.set_options.clone();
        if !self.games.is_empty() {
            cmds.push(format!("setoption name Game value {}", self.game));
        }
        cmds.push("ucinewgame".to_string());
        self.exchange(&cmds).await?;
        if let Err(e) = self.refresh().await? {
            self.note(format!(
                "the game could not be set up again ({e}): a new game"
            ))
            .await;
            self.moves.clear();
            self.actors.clear();
            self.start_fen = None;
            if let Err(e) = self.refresh().await? {
                return Err(Failure::new(FaultKind::Protocol, e));
            }
        }
        if self.moves.is_empty() {
            self.start_text = self.fen_now();
        }
        self.send_hello().await;
        Ok(())
    }

    pub(super) fn fen_now(&self) -> String {
        self.snap
            .as_ref()
            .and_then(|s| s.position["fen"].as_str())
            .unwrap_or_default()
            .to_string()
    }

    pub(super) async fn on_event(&mut self, generation: u64, event: Event) -> Result<(), Failure> {
        if Some(generation) != self.engine.as_ref().map(|e| e.generation) {
            return Ok(());
        }
        match event {
            Event::Err(line) => self.console('!', &line),
            Event::Closed => return Err(self.crashed().await),
            Event::Out(line) => {
                self.console('<', &line);
                let Some(purpose) = self.search.as_ref().map(|s| s.purpose) else {
                    return Ok(());
                };
                if let Some(rest) = line.strip_prefix("bestmove") {
                    let token = rest.split_whitespace().next().unwrap_or("").to_string();
                    return self.on_bestmove(token).await;
                }
                self.forward_info(&line, &purpose).await;
            }
        }
        Ok(())
    }

    /// Passes an `info` line of a search on to the page, with the side its score is for.
    pub(super) async fn forward_info(&mut self, line: &str, purpose: &Purpose) {
        let Some(info) = uci::parse_info(line) else {
            return;
        };
        let pov = match (*purpose, self.snap.as_ref().map(|s| s.node)) {
            (Purpose::Move(s) | Purpose::Declare(s), _) => s,
            (Purpose::Analysis(Some(s)), _) => s,
            (_, Some(Node::Turn(s) | Node::Chance(s))) => s,
            _ => Side::P1,
        };
        self.send(json!({"t": "info", "purpose": purpose, "pov": pov, "info": info}))
            .await;
    }

    /// Charges side `s`'s clock for a decision now; false when its time had run out.
    pub(super) fn charge(&mut self, s: Side) -> bool {
        match self.clocks.as_mut() {
            Some(c) => c.decided(s.index(), Instant::now()),
            None => true,
        }
    }

    pub(super) async fn on_bestmove(&mut self, token: String) -> Result<(), Failure> {
        let Some(search) = self.search.take() else {
            return Ok(());
        };
        let now = Instant::now();
        let illegal = |side: Side, why: String| Failure {
            kind: FaultKind::Illegal,
            side: Some(side),
            detail: why,
        };
        match search.purpose {
            Purpose::Analysis(_) => Ok(()),
            Purpose::Move(side) => {
                self.reply_ms = Some(now.duration_since(search.sent).as_millis() as u64);
                let in_time = self.charge(side);
                let legal = self.snap.as_ref().is_some_and(|s| s.legal.contains(&token));
                if !legal || !request::is_token_safe(&token) {
                    return Err(illegal(
                        side,
                        format!(
                            "bestmove '{token}' is not among the engine's own legal moves here"
                        ),
                    ));
                }
                self.play(token, Actor::Move(side)).await?;
                if !in_time {
                    self.flagged = Some(side);
                }
                self.wake = Some(now + self.delay);
                self.state_changed();
                Ok(())
            }
            Purpose::Declare(side) => {
                self.reply_ms = Some(now.duration_since(search.sent).as_millis() as u64);
                let in_time = self.charge(side);
                if !request::is_token_safe(&token) {
                    return Err(illegal(
                        side,
                        format!("bestmove '{token}' is not a declaration"),
                    ));
                }
                self.declared[side.index()] = Some(token);
                if !in_time {
                    self.flagged = Some(side);
                }
                self.state_changed();
                Ok(())
            }
        }
    }

    /// Plays `token` on the game (the engine accepted it in its legal list before).
    pub(super) async fn play(&mut self, token: String, actor: Actor) -> Result<(), Failure> {
        self.moves.push(token);
        self.actors.push(actor);
        if !matches!(actor, Actor::Joint) {
            self.reveal = None;
        }
        if let Err(e) = self.refresh().await? {
            self.moves.pop();
            self.actors.pop();
            return Err(Failure::new(
                FaultKind::Protocol,
                format!("the engine refused a token of its own legal list: {e}"),
            ));
        }
        Ok(())
    }

    /// `go` for `purpose` on the current position.
    pub(super) async fn start_go(&mut self, purpose: Purpose) -> Result<(), Failure> {
        let now = Instant::now();
        let mut go = "go".to_string();
        let mut limit = None;
        match (purpose, self.limit) {
            (Purpose::Analysis(_), _) => go.push_str(" infinite"),
            (_, Limit::Movetime { ms }) => {
                go.push_str(&format!(" movetime {ms}"));
                limit = Some(Duration::from_millis(ms));
            }
            (_, Limit::Depth { depth }) => go.push_str(&format!(" depth {depth}")),
            (_, Limit::Nodes { nodes }) => go.push_str(&format!(" nodes {nodes}")),
            (_, Limit::Clock { .. }) => {
                let c = self.clocks.get_or_insert_with(|| Clocks::new(60_000, 0));
                let (w, b) = (c.left(0, now).max(1), c.left(1, now).max(1));
                let inc = c.inc();
                go.push_str(&format!(" wtime {w} btime {b} winc {inc} binc {inc}"));
                if let Some(s) = purpose.side() {
                    limit = Some(Duration::from_millis(c.left(s.index(), now).max(0) as u64));
                }
            }
        }
        let side_word = match purpose {
            Purpose::Declare(s) | Purpose::Analysis(Some(s)) => Some(s),
            _ => None,
        };
        if let Some(s) = side_word {
            go.push_str(&format!(" side {}", s.letter()));
        }
        let position = self.position_command(self.moves.len());
        self.send_engine(&position).await?;
        self.send_engine(&go).await?;
        let deadline = match purpose {
            Purpose::Analysis(_) => None,
            _ => Some(now + limit.unwrap_or(UNTIMED_LIMIT) + self.config.margin),
        };
        if let (Some(s), Some(c)) = (purpose.side(), self.clocks.as_mut()) {
            c.start(s.index(), now);
        }
        self.search = Some(Search {
            purpose,
            sent: now,
            deadline,
        });
        self.state_changed();
        Ok(())
    }

    /// The server rolls the die for `side`: `r1`..`r6` from its seeded generator.
    pub(super) async fn roll(&mut self, side: Side) -> Result<(), Failure> {
        let token = format!("r{}", self.rng.random_range(1..=6u8));
        if !self.snap.as_ref().is_some_and(|s| s.legal.contains(&token)) {
            return Err(Failure::new(
                FaultKind::Protocol,
                format!("the engine does not list the roll {token} at this chance node"),
            ));
        }
        self.play(token, Actor::Roll(side)).await?;
        self.state_changed();
        Ok(())
    }

    /// Reveals and resolves a simultaneous turn once both sides have declared.
    pub(super) async fn resolve(&mut self) -> Result<(), Failure> {
        let (Some(w), Some(b)) = (self.declared[0].clone(), self.declared[1].clone()) else {
            return Ok(());
        };
        let Some(snap) = self.snap.clone() else {
            return Ok(());
        };
        let void = [
            !snap.legal_side[0].contains(&w),
            !snap.legal_side[1].contains(&b),
        ];
        self.moves.push(format!("{w}/{b}"));
        self.actors.push(Actor::Joint);
        match self.refresh().await? {
            Ok(()) => {
                self.reveal = Some(json!({
                    "w": w, "b": b, "void": void,
                    "before": snap.position,
                }));
                self.declared = [None, None];
                self.wake = Some(Instant::now() + self.delay);
                self.state_changed();
            }
            Err(e) => {
                // A void declaration that is not even well formed: the engine refused it.
                self.moves.pop();
                self.actors.pop();
                if let Err(e2) = self.refresh().await? {
                    return Err(Failure::new(FaultKind::Protocol, e2));
                }
                for side in Side::BOTH {
                    let token = [&w, &b][side.index()];
                    let named = e.contains(&format!("'{token}'"));
                    if !(void[side.index()] && (named || !e.contains('\''))) {
                        continue;
                    }
                    if self.players[side.index()] == Who::Engine {
                        return Err(Failure {
                            kind: FaultKind::Illegal,
                            side: Some(side),
                            detail: format!("declaration '{token}' refused: {e}"),
                        });
                    }
                    self.declared[side.index()] = None;
                    self.error(format!("declaration '{token}' is not well formed: {e}"))
                        .await;
                }
                self.state_changed();
            }
        }
        Ok(())
    }

    /// Starts whatever the game waits for from the engine or the dice, or analysis.
    /// Returns whether it started something.
    pub(super) async fn advance(&mut self) -> Result<bool, Failure> {
        if self.closed || self.engine.is_none() || self.fault.is_some() || self.search.is_some() {
            return Ok(false);
        }
        let now = Instant::now();
        let next = self.next();
        match next {
            Next::Nothing => Ok(false),
            Next::HumanMove(s) | Next::HumanRoll(s) | Next::HumanDeclare(s) => {
                if let Some(c) = self.clocks.as_mut() {
                    c.start(s.index(), now);
                }
                if !self.analyse {
                    return Ok(false);
                }
                let side = matches!(next, Next::HumanDeclare(_)).then_some(s);
                self.start_go(Purpose::Analysis(side)).await?;
                Ok(true)
            }
            Next::Resolve => {
                self.resolve().await?;
                Ok(true)
            }
            Next::EngineMove(s) | Next::EngineRoll(s) | Next::EngineDeclare(s) => {
                if self.paused {
                    return Ok(false);
                }
                if let Some(w) = self.wake {
                    if w > now {
                        return Ok(false);
                    }
                    self.wake = None;
                }
                match next {
                    Next::EngineMove(_) => self.start_go(Purpose::Move(s)).await?,
                    Next::EngineDeclare(_) => self.start_go(Purpose::Declare(s)).await?,
                    _ => {
                        self.roll(s).await?;
                        self.wake = Some(Instant::now() + self.delay);
                    }
                }
                Ok(true)
            }
        }
    }

    /// The earliest future moment the loop must wake for: an engine action's pause, a
    /// search's deadline, a person's clock running out.
    pub(super) fn wake_time(&self) -> Option<Instant> {
        let now = Instant::now();
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

    pub(super) async fn on_timer(&mut self) {
        let now = Instant::now();
        if let Some(s) = &self.search
            && s.deadline.is_some_and(|d| d <= now)
        {
            let waited = now.duration_since(s.sent).as_millis();
            let f = Failure::new(
                FaultKind::Hang,
                format!("no bestmove after {waited} ms (the limit plus the margin)"),
            );
            self.fail(f).await;
            return;
        }
        let flag = self.clocks.as_ref().and_then(|c| {
            Side::BOTH.into_iter().find(|s| {
                self.players[s.index()] == Who::Human
                    && c.flag_at(s.index()).is_some_and(|t| t <= now)
            })
        });
        if let Some(side) = flag {
            if let Err(f) = self.stop_search().await {
                self.fail(f).await;
            }
            if let Some(c) = self.clocks.as_mut() {
                c.halt(0, now);
                c.halt(1, now);
            }
            self.flagged = Some(side);
            self.state_changed();
        }
    }
}
