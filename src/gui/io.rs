//! A session's I/O, apart from its game: the page's socket, the engine child process and
//! the channel the engines' lines arrive on, each tagged with the generation of the engine
//! that wrote it (so that the lines of an engine since replaced are not taken for the new
//! one's). The game's own data is elsewhere (`lines::Lines` and the session's fields).

use axum::extract::ws::WebSocket;
use tokio::sync::mpsc;

use super::engine::{Engine, Event};

/// The channel's capacity: an engine's reader waits when this many lines are unread.
const EVENTS: usize = 4096;

/// One session's I/O; see the module doc.
pub struct Io {
    /// The page's WebSocket (a new one after the page came back).
    pub socket: WebSocket,
    /// Where each engine's reader sends its events.
    pub events_tx: mpsc::Sender<(u64, Event)>,
    /// The engines' events, with the generation of the engine that sent each.
    pub events: mpsc::Receiver<(u64, Event)>,
    /// The engine running, if any.
    pub engine: Option<Engine>,
    /// How many engines were started: the running one's events carry it.
    pub generation: u64,
    /// The page went away (its socket closed).
    pub closed: bool,
}

impl Io {
    /// The I/O of a new session on `socket`, no engine started yet.
    pub fn new(socket: WebSocket) -> Io {
        let (events_tx, events) = mpsc::channel(EVENTS);
        Io {
            socket,
            events_tx,
            events,
            engine: None,
            generation: 0,
            closed: false,
        }
    }
}
