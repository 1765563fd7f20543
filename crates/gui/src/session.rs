//! One browser tab's session, the I/O shell around its game (issue 39 §4): the page's socket,
//! the engine process and the channel of its lines, the timers. It runs one loop over four
//! sources (the page's messages, the engine's lines, a timer, and a socket handed over by a
//! tab that takes the session) and sends the page the whole state after every change. The
//! game itself, and every decision about it, is the pure core `game::Game` (with `decide`,
//! `flow`, `lines`, `review`); the shell asks the engine and does what the core decides.
//!
//! What the shell does is in `page` (the state and `hello` for the page), `lifecycle`
//! (starting the engine, faults), `search` (`go`, `info`, `bestmove`), `turns` (playing
//! tokens, rolls, the reveal), `head` (the engine's description of the game's head),
//! `actions` (the page's requests), `viewing` (looking back, variations), `archive`
//! (records in and out), `options` and `reviewing`. The I/O is `io::Io` with `talk` (fenced
//! commands and their answers read).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::ws::{Message, WebSocket};
use serde_json::json;

use super::Config;
use super::fault::{Failure, FaultKind};
use super::game::{Due, Game};
use super::io::{Io, recv};
use super::review_run::{self, ReviewRun};
use super::sessions::{Handover, Kept, Sessions};
use super::uci::OptionDecl;

/// Most actions the session starts without waiting for the page, the engine or the timer
/// (a roll and the reveal after it take two; a game that needs more is looping).
const MAX_STEPS: usize = 16;

/// The engine's `id` and `option` lines.
#[derive(Debug, Clone, Default)]
pub struct Ident {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// Every declared option (`Hash` capped to the session's share, `limits`).
    pub options: Vec<OptionDecl>,
}

/// One tab's session; see the module doc.
pub struct Session {
    /// The secret the page names to get this session back after a reload (`hello`).
    pub id: String,
    /// The socket, the engine and the channel of its lines.
    pub(super) io: Io,
    /// Sockets of tabs that take this session over.
    pub(super) handover: Handover,
    pub(super) config: Arc<Config>,
    pub(super) ident: Ident,
    /// Options the person set, sent again to a restarted engine.
    pub(super) set_options: Vec<String>,
    /// The engine's `Game` values.
    pub(super) games: Vec<String>,
    /// Each game's rule options (`query position`'s `rules` of its start), by game.
    pub(super) rules: serde_json::Map<String, serde_json::Value>,
    /// The game: every decision about it is the core's.
    pub(super) game: Game,
    /// The number of the last state sent.
    pub(super) seq: u64,
    /// The state changed since it was last sent.
    pub(super) state_due: bool,
    /// The review's run, while one runs (with an engine of its own).
    pub(super) review_run: Option<ReviewRun>,
    /// How many reviews were started (the id of the latest).
    pub(super) reviews: u64,
    /// A temperature map's run, while one runs.
    pub(super) temperature_run: Option<ReviewRun>,
}

impl Kept for Box<Session> {
    fn handed(&mut self) -> Option<WebSocket> {
        self.handover.try_recv().ok()
    }

    async fn end(mut self) {
        if let Some(e) = self.io.engine.take() {
            e.shutdown(Duration::from_millis(300)).await;
        }
    }
}

/// How a socket comes to a session.
pub enum Start {
    /// A new session; `lost`: the page named a session the server does not have (it was
    /// restarted, or the session expired or gave way), and is told so.
    New {
        /// The new session's id.
        id: String,
        /// Whether the page asked for a session that is gone.
        lost: bool,
    },
    /// A kept session, its page back.
    Resumed(Box<Session>),
}

/// Runs a session on `socket` until its page goes away and no other tab took it; then the
/// session (game and engine) is kept in `sessions` for the page to claim again.
pub async fn run(
    start: Start,
    socket: WebSocket,
    handover: Handover,
    config: Arc<Config>,
    sessions: Arc<Sessions<Box<Session>>>,
) {
    let (mut s, mut resumed, lost) = match start {
        Start::New { id, lost } => (
            Box::new(new_session(id, socket, handover, config)),
            false,
            lost,
        ),
        Start::Resumed(mut s) => {
            s.io.open_page(socket);
            s.handover = handover;
            (s, true, false)
        }
    };
    if lost {
        s.io.note(
            "the server no longer has this tab's game (it was restarted, or the game was \
                 away longer than it is kept, or gave its place to another tab): a new game",
        )
        .await;
    }
    loop {
        s.main(resumed).await;
        s.quiet().await;
        let id = s.id.clone();
        let Some((back, socket)) = sessions.park(&id, s) else {
            return;
        };
        // A tab took the session over as its page went away: it goes on there.
        s = back;
        s.io.open_page(socket);
        resumed = true;
    }
}

fn new_session(id: String, socket: WebSocket, handover: Handover, config: Arc<Config>) -> Session {
    let seed = config.seed.unwrap_or_else(fresh_seed);
    Session {
        id,
        io: Io::new(socket),
        handover,
        config,
        ident: Ident::default(),
        set_options: Vec::new(),
        games: Vec::new(),
        rules: serde_json::Map::new(),
        game: Game::new(seed),
        seq: 0,
        state_due: false,
        review_run: None,
        reviews: 0,
        temperature_run: None,
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
    /// Leaves nothing running while no page looks: the search and the review's run are
    /// stopped (an engine's move is asked again, and the review goes on, when the page is
    /// back), the socket is closed and the console is dropped.
    async fn quiet(&mut self) {
        self.io.close_page();
        if let Some(run) = &self.review_run {
            run.cancel();
        }
        // A temperature map is asked again by a person: it goes.
        self.temperature_run = None;
        if self.io.engine.is_some()
            && let Err(f) = self.stop_search().await
        {
            // A hanging or crashed engine: the page sees the fault when it is back.
            self.fail(f).await;
        }
        self.io.clear_console();
    }

    /// Another tab took the session over with `socket`: the page on it is told and its
    /// socket closed, and the new page gets the session.
    async fn take_over(&mut self, socket: WebSocket) {
        self.io
            .send(json!({"t": "taken", "message": "this game is now open in another tab"}))
            .await;
        self.io.open_page(socket);
        self.io.console(
            '#',
            "another tab took the session over: the game goes on there",
        );
        self.send_hello().await;
        self.state_changed();
    }

    /// The loop: start what the game waits for, send the state, then wait for the page,
    /// the engine, the timer or a tab taking the session over. A `resumed` session tells
    /// its page what it has instead of starting its engine.
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
            let wake = self.game.wake_time(Instant::now());
            let sleep_until = wake.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                msg = recv(&mut self.io.socket) => match msg {
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
                Some(socket) = self.handover.recv() => self.take_over(socket).await,
                event = review_run::next_event(&mut self.review_run) => {
                    self.on_review_event(event).await;
                }
                event = review_run::next_event(&mut self.temperature_run) => {
                    self.on_temperature_event(event).await;
                }
                _ = tokio::time::sleep_until(sleep_until.into()), if wake.is_some() => {
                    self.on_timer().await;
                }
            }
        }
    }

    /// The loop's timer: a search past its deadline is a hang; a person's clock that ran out
    /// ends the game.
    pub(super) async fn on_timer(&mut self) {
        let now = Instant::now();
        match self.game.due(now) {
            Some(Due::Hang(waited)) => {
                let f = Failure::new(
                    FaultKind::Hang,
                    format!("no bestmove after {waited} ms (the limit plus the margin)"),
                );
                self.fail(f).await;
            }
            Some(Due::Flag(side)) => {
                if let Err(f) = self.stop_search().await {
                    self.fail(f).await;
                }
                self.game.halt_clocks(now);
                self.game.flagged = Some(side);
                self.state_changed();
            }
            None => {}
        }
    }
}
