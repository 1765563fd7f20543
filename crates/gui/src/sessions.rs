//! The server's sessions: how many are alive (each holds an engine), and those whose page
//! went away, kept for a while so that a reload, a closed lid or a dropped connection gets
//! its game and engine back. A kept session's id is secret to its tab (the page keeps it
//! in `sessionStorage`); a socket that names an id no kept session has (or one a live tab
//! uses) gets a new session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::session::Session;

/// Every session of one server.
pub struct Sessions {
    /// Most sessions alive at once, kept ones included.
    max: usize,
    /// How long a session whose page went away is kept.
    keep: Duration,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    alive: usize,
    /// Kept sessions by id, with the number of their parking (a later parking of the same
    /// session makes an earlier expiry a no-op).
    kept: HashMap<String, (u64, Box<Session>)>,
    parkings: u64,
}

/// A place for a socket: a kept session given back, a new place, or none (the cap).
pub enum Place {
    /// The kept session of the id the page named.
    Resumed(Box<Session>),
    /// A new session may start.
    New,
    /// `max` sessions are alive.
    Full(usize),
}

impl Sessions {
    /// At most `max` sessions alive; one whose page went away is kept for `keep`.
    pub fn new(max: usize, keep: Duration) -> Sessions {
        Sessions {
            max,
            keep,
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The place for a socket whose page names `id` (from an earlier `hello`).
    pub fn claim(&self, id: Option<&str>) -> Place {
        let mut st = self.state();
        if let Some((_, s)) = id.and_then(|id| st.kept.remove(id)) {
            return Place::Resumed(s);
        }
        if st.alive >= self.max {
            return Place::Full(self.max);
        }
        st.alive += 1;
        Place::New
    }

    /// Keeps `session` (its page went away) for `keep`, then ends it and its engine.
    pub fn park(self: &Arc<Self>, session: Box<Session>) {
        let id = session.id.clone();
        let number = {
            let mut st = self.state();
            st.parkings += 1;
            let n = st.parkings;
            st.kept.insert(id.clone(), (n, session));
            n
        };
        let sessions = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(sessions.keep).await;
            let expired = {
                let mut st = sessions.state();
                match st.kept.get(&id) {
                    Some((n, _)) if *n == number => {
                        st.alive -= 1;
                        st.kept.remove(&id).map(|(_, s)| s)
                    }
                    _ => None,
                }
            };
            if let Some(s) = expired {
                s.end().await;
            }
        });
    }
}
