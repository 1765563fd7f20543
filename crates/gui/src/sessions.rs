//! The server's sessions, on `places::Places` (who holds the places: live and kept
//! sessions, the oldest kept giving way to a live page): a socket's claim, a kept session
//! ended when it expires or gives way, and a socket handed to the live session it names (the
//! tab on it is told). A session's id is secret to its tab (the page keeps it in
//! `sessionStorage`).

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::ws::WebSocket;
use tokio::sync::mpsc;

use super::places::{Claim, Places};

/// A socket handed to a live session that a new page takes over.
pub type Handover = mpsc::Receiver<WebSocket>;

/// What a kept session must do: give a socket handed to it while it went away, and end.
pub trait Kept: Send + Sized + 'static {
    /// The socket a page handed over while this session's page went away, if any.
    fn handed(&mut self) -> Option<WebSocket>;
    /// Ends the session's engine.
    fn end(self) -> impl Future<Output = ()> + Send;
}

/// Every session of one server.
pub struct Sessions<S> {
    /// How long a session whose page went away is kept.
    keep: Duration,
    places: Mutex<Places<S, mpsc::Sender<WebSocket>>>,
}

/// Where a socket goes.
pub enum Place<S> {
    /// The kept session it named, with the socket and the session's new handover channel.
    Resumed(S, WebSocket, Handover),
    /// A new session with this id.
    New(String, WebSocket, Handover),
    /// It was handed to the live session it named.
    HandedOver,
    /// No place: `max` live pages hold them all.
    Full(usize, WebSocket),
    /// The live session it named is being taken over by other sockets already.
    Busy(WebSocket),
}

/// A fresh session id: 128 random bits in hex, from the operating system's generator.
fn fresh_id() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl<S: Kept> Sessions<S> {
    /// At most `max` sessions, live and kept; one whose page went away is kept for `keep`.
    pub fn new(max: usize, keep: Duration) -> Sessions<S> {
        Sessions {
            keep,
            places: Mutex::new(Places::new(max)),
        }
    }

    fn places(&self) -> std::sync::MutexGuard<'_, Places<S, mpsc::Sender<WebSocket>>> {
        self.places.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The place of `socket`, whose page names session `asked`. A kept session that gives
    /// way is ended here.
    pub fn claim(&self, asked: Option<&str>, socket: WebSocket) -> Place<S> {
        let id = fresh_id();
        let (tx, rx) = mpsc::channel(2);
        let mut places = self.places();
        match places.claim(asked, &id, tx) {
            Claim::Resumed(s) => Place::Resumed(s, socket, rx),
            // Handed over under the lock, so that the session either takes it or, parking
            // (also under the lock), finds it.
            Claim::TakeOver(h) => match h.try_send(socket) {
                Ok(()) => Place::HandedOver,
                Err(e) => Place::Busy(e.into_inner()),
            },
            Claim::New { evicted } => {
                drop(places);
                if let Some(s) = evicted {
                    tokio::spawn(s.end());
                }
                Place::New(id, socket, rx)
            }
            Claim::Full(max) => Place::Full(max, socket),
        }
    }

    /// Keeps `session` (its page went away) for `keep`, then ends it, unless a socket was
    /// handed to it meanwhile: then it is given back to go on with that one.
    pub fn park(self: &Arc<Self>, id: &str, mut session: S) -> Option<(S, WebSocket)> {
        let number = {
            let mut places = self.places();
            if let Some(socket) = session.handed() {
                return Some((session, socket));
            }
            places.park(id, session)
        };
        let sessions = Arc::clone(self);
        let id = id.to_string();
        tokio::spawn(async move {
            tokio::time::sleep(sessions.keep).await;
            let expired = sessions.places().expire(&id, number);
            if let Some(s) = expired {
                s.end().await;
            }
        });
        None
    }
}
