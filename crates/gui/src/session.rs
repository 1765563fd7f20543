//! One browser tab's session: its engine process, the game (start position, tokens, who
//! plays each side), the engine's search, the clocks and the dice. It runs one loop over
//! three sources (the page's messages, the engine's lines, a timer) and sends the page the
//! whole state after every change. When the tab closes the engine is ended.
//!
//! The loop and the session's data are here; what it does is in `page` (the state and
//! `hello` for the page), `lifecycle` (starting the engine, faults), `search` (`go`,
//! `info`, `bestmove`, `stop`), `turns` (playing tokens, rolls, the reveal), `head` (the
//! engine's description of the game's head), `actions` (the page's requests), `viewing`
//! (looking back, variations), `archive` (records in and out) and `options`.
//!
//! The I/O is `io::Io`: the socket and the console for the page, the engine child, its
//! channel, and the conversation with it (`talk`: fenced commands and their answers read).
//! The decisions are plain functions that know no socket and no engine, each tested
//! alone: `decide` (what to start next, a person's move at the head, what a refused joint
//! turn changes), `flow` (whose action the game awaits, take-backs), `lines::Lines` (the
//! main line, positions, variations and the view: what is shown and where a move goes).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::ws::{Message, WebSocket};
use serde::Serialize;
use serde_json::Value;

use super::Config;
use super::clock::Clocks;
use super::fault::{Failure, FaultKind};
use super::flow::Side;
use super::io::Io;
use super::lines::Lines;
use super::request::{Limit, Who};
use super::review::Review;
use super::sessions::Sessions;
use super::snapshot::Snapshot;
use super::uci::OptionDecl;

/// Most actions the session starts without waiting for the page, the engine or the timer
/// (a roll and the reveal after it take two; a game that needs more is looping).
const MAX_STEPS: usize = 16;

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
    /// A position of a game review.
    Review,
}

impl Purpose {
    /// The side the engine plays for, when it is asked to act.
    pub fn side(self) -> Option<Side> {
        match self {
            Purpose::Move(s) | Purpose::Declare(s) => Some(s),
            Purpose::Analysis(_) | Purpose::Review => None,
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
    /// The secret the page names to get this session back after a reload (`hello`).
    pub id: String,
    /// The socket, the engine and the channel of its lines.
    pub(super) io: Io,
    pub(super) config: Arc<Config>,
    pub(super) ident: Ident,
    /// Options the person set, sent again to a restarted engine.
    pub(super) set_options: Vec<String>,
    /// The engine's `Game` values.
    pub(super) games: Vec<String>,
    pub(super) game: String,
    /// The start position's string as the engine wrote it.
    pub(super) start_text: String,
    /// The game's lines: its start, main line, positions, variations and view (pure).
    pub(super) lines: Lines,
    /// A game review under way.
    pub(super) review: Option<Review>,
    pub(super) players: [Who; 2],
    pub(super) snap: Option<Snapshot>,
    pub(super) declared: [Option<String>; 2],
    pub(super) reveal: Option<Value>,
    pub(super) search: Option<Search>,
    pub(super) fault: Option<Fault>,
    /// A side whose clock ran out.
    pub(super) flagged: Option<Side>,
    /// A side whose person resigned.
    pub(super) resigned: Option<Side>,
    pub(super) limit: Limit,
    pub(super) clocks: Option<Clocks>,
    pub(super) delay: Duration,
    /// The next engine action waits until then.
    pub(super) wake: Option<Instant>,
    pub(super) paused: bool,
    pub(super) analyse: bool,
    pub(super) seed: u64,
    pub(super) seq: u64,
    /// Milliseconds from the last move's `go` to its `bestmove`.
    pub(super) reply_ms: Option<u64>,
    /// The state changed since it was last sent.
    pub(super) state_due: bool,
}

/// Runs a new session on `socket` until its page goes away; then the session (game and
/// engine) is kept in `sessions` for the page to claim again.
pub async fn run(socket: WebSocket, config: Arc<Config>, sessions: Arc<Sessions>) {
    let mut s = Box::new(new_session(socket, config));
    s.main(false).await;
    s.park().await;
    sessions.park(s);
}

/// Runs a kept session again on a new `socket` (the page came back), until it goes away.
pub async fn resume(mut s: Box<Session>, socket: WebSocket, sessions: Arc<Sessions>) {
    s.io.socket = socket;
    s.io.closed = false;
    s.main(true).await;
    s.park().await;
    sessions.park(s);
}

/// A fresh session id: 128 random bits in hex, from the operating system's generator.
fn fresh_id() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn new_session(socket: WebSocket, config: Arc<Config>) -> Session {
    let seed = config.seed.unwrap_or_else(fresh_seed);
    Session {
        id: fresh_id(),
        io: Io::new(socket),
        config,
        ident: Ident::default(),
        set_options: Vec::new(),
        games: Vec::new(),
        game: String::new(),
        start_text: String::new(),
        lines: Lines::default(),
        review: None,
        players: [Who::Human, Who::Engine],
        snap: None,
        declared: [None, None],
        reveal: None,
        search: None,
        fault: None,
        flagged: None,
        resigned: None,
        limit: Limit::Movetime { ms: 1000 },
        clocks: None,
        delay: Duration::from_millis(300),
        wake: None,
        paused: false,
        analyse: false,
        seed,
        seq: 0,
        reply_ms: None,
        state_due: false,
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
    /// Ends the session's engine (a kept session that no page claimed in time).
    pub async fn end(mut self: Box<Self>) {
        if let Some(e) = self.io.engine.take() {
            e.shutdown(Duration::from_millis(300)).await;
        }
    }

    /// Leaves nothing running while no page looks: the search is stopped (an engine's
    /// move is asked again when the page is back) and the console is dropped.
    async fn park(&mut self) {
        if self.io.engine.is_some()
            && let Err(f) = self.stop_search().await
        {
            // A hanging or crashed engine: the page sees the fault when it is back.
            self.io.closed = true;
            self.fail(f).await;
        }
        self.io.clear_console();
    }

    /// The loop: start what the game waits for, send the state, then wait for the page,
    /// the engine or the timer. A `resumed` session tells its page what it has instead of
    /// starting its engine.
    async fn main(&mut self, resumed: bool) {
        if resumed {
            self.io
                .console('#', "the page is back: the session goes on");
            self.send_hello().await;
        } else if let Err(f) = self.start_engine().await {
            self.fail(f).await;
        }
        self.state_changed();
        while !self.io.closed {
            // Act until nothing is left to start (a roll is followed at once by the move
            // after it; a search or a person then has to answer). A game that does not
            // settle within MAX_STEPS is a fault, so that no state can spin the loop.
            let mut steps = 0;
            loop {
                match self.advance().await {
                    Ok(true) if !self.io.closed && steps >= MAX_STEPS => {
                        let f = Failure::new(
                            FaultKind::Protocol,
                            format!("the game did not settle after {MAX_STEPS} steps"),
                        );
                        self.fail(f).await;
                        break;
                    }
                    Ok(true) if !self.io.closed => steps += 1,
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
            self.io.flush().await;
            let wake = self.wake_time();
            let sleep_until = wake.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                msg = self.io.socket.recv() => match msg {
                    Some(Ok(Message::Text(text))) => {
                        if let Err(f) = self.on_request(text.as_str()).await {
                            self.fail(f).await;
                        }
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => self.io.closed = true,
                    Some(Ok(_)) => {}
                },
                event = self.io.events.recv() => {
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

    /// The loop's timer: a search past its deadline is a hang; a person's clock that ran out
    /// ends the game.
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
