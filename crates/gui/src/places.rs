//! Who holds the server's places, as plain data (issue 39 §1.1): at most `max` sessions hold
//! an engine, each either live (a page's socket is on it) or kept (its page went away, and
//! it waits for the page to come back). Kept sessions never lock out a live page: when every
//! place is taken, the oldest kept session gives way. A page that names a live session takes
//! it over (the tab on it is told). Only live pages hold places for good, so no program can
//! hold them by leaving and coming back; one that keeps `max` sockets open holds `max`
//! places while they are open, as `max` tabs would.
//!
//! Generic over the kept session `S` and the handle `H` of a live one, so that the tests
//! reach it without sockets or engines; `sessions` wraps it with the real ones.

use std::collections::{HashMap, VecDeque};

/// The places of one server.
#[derive(Debug)]
pub struct Places<S, H> {
    max: usize,
    /// Live sessions by id, with the handle a page taking one over is sent through.
    live: HashMap<String, H>,
    /// Kept sessions, the oldest parked first, each with the number of its parking (a later
    /// parking of the same session makes an earlier expiry a no-op).
    kept: VecDeque<(String, u64, S)>,
    parkings: u64,
}

/// What a socket gets.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim<S, H> {
    /// The kept session of the id the page named: it is live again under that id.
    Resumed(S),
    /// The id names a live session: hand the socket to it through this handle.
    TakeOver(H),
    /// A new session under the new id; `evicted`, when every place was taken, is the
    /// oldest kept session, whose place it takes (to be ended).
    New {
        /// The kept session that gave way, if one did.
        evicted: Option<S>,
    },
    /// Every one of the `max` places holds a live page.
    Full(usize),
}

impl<S, H: Clone> Places<S, H> {
    /// At most `max` sessions, live and kept together.
    pub fn new(max: usize) -> Places<S, H> {
        Places {
            max,
            live: HashMap::new(),
            kept: VecDeque::new(),
            parkings: 0,
        }
    }

    /// The place for a socket whose page names `asked` (from an earlier `hello`), with the
    /// id and handle it gets if it is a new or resumed session: a kept session back, a live
    /// one taken over, a new one (in a free place, else in the oldest kept one's), or none.
    pub fn claim(&mut self, asked: Option<&str>, new_id: &str, handle: H) -> Claim<S, H> {
        if let Some(id) = asked {
            if let Some(i) = self.kept.iter().position(|(k, ..)| k == id) {
                let (id, _, s) = self.kept.remove(i).expect("found");
                self.live.insert(id, handle);
                return Claim::Resumed(s);
            }
            if let Some(h) = self.live.get(id) {
                return Claim::TakeOver(h.clone());
            }
        }
        let evicted = if self.live.len() + self.kept.len() < self.max {
            None
        } else if let Some((_, _, s)) = self.kept.pop_front() {
            Some(s)
        } else {
            return Claim::Full(self.max);
        };
        self.live.insert(new_id.to_string(), handle);
        Claim::New { evicted }
    }

    /// Session `id`'s page went away: it is kept (`session`) until `expire` with the number
    /// returned, or until a live page needs its place.
    pub fn park(&mut self, id: &str, session: S) -> u64 {
        self.live.remove(id);
        self.parkings += 1;
        self.kept
            .push_back((id.to_string(), self.parkings, session));
        self.parkings
    }

    /// The kept session `id` if it is still the one parked as `number` (not taken back,
    /// parked again or given way since): it leaves, to be ended.
    pub fn expire(&mut self, id: &str, number: u64) -> Option<S> {
        let i = self
            .kept
            .iter()
            .position(|(k, n, _)| k == id && *n == number)?;
        self.kept.remove(i).map(|(_, _, s)| s)
    }

    /// Live and kept sessions now.
    #[cfg(test)]
    pub fn counts(&self) -> (usize, usize) {
        (self.live.len(), self.kept.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type P = Places<&'static str, u8>;

    fn new(p: &mut P, id: &str) -> Claim<&'static str, u8> {
        p.claim(None, id, 0)
    }

    #[test]
    fn closed_tabs_never_lock_out_a_new_one() {
        // Issue 39 §1.1: nine tabs opened and closed with 8 places; the ninth and the
        // tenth get a place, the oldest kept sessions giving way.
        let mut p = P::new(8);
        let names = ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"];
        for (i, id) in names.iter().enumerate() {
            let claim = new(&mut p, id);
            let expected = if i < 8 { None } else { Some("kept s0") };
            assert_eq!(claim, Claim::New { evicted: expected }, "tab {i}");
            p.park(id, if i == 0 { "kept s0" } else { "kept" });
        }
        assert_eq!(p.counts(), (0, 8));
        assert_eq!(
            new(&mut p, "s9"),
            Claim::New {
                evicted: Some("kept")
            }
        );
        assert_eq!(p.counts(), (1, 7));
    }

    #[test]
    fn leaving_and_coming_back_holds_no_place_against_a_live_page() {
        // A program that parks all 8 sessions and reconnects each before it expires: a page
        // still gets in between, taking the oldest kept session's place.
        let mut p = P::new(2);
        assert_eq!(new(&mut p, "a"), Claim::New { evicted: None });
        assert_eq!(new(&mut p, "b"), Claim::New { evicted: None });
        p.park("a", "A");
        p.park("b", "B");
        assert_eq!(p.claim(Some("a"), "x", 0), Claim::Resumed("A"));
        p.park("a", "A");
        assert_eq!(new(&mut p, "page"), Claim::New { evicted: Some("B") });
        // Live pages are not displaced: with both places live, one more is refused.
        assert_eq!(p.claim(Some("a"), "y", 0), Claim::Resumed("A"));
        assert_eq!(new(&mut p, "more"), Claim::Full(2));
    }

    #[test]
    fn a_live_session_named_again_is_taken_over_and_a_stale_expiry_does_nothing() {
        let mut p: Places<&str, u8> = Places::new(3);
        assert_eq!(p.claim(None, "a", 7), Claim::New { evicted: None });
        assert_eq!(p.claim(Some("a"), "z", 1), Claim::TakeOver(7));
        assert_eq!(p.counts(), (1, 0), "a take over takes no place");
        let first = p.park("a", "A");
        assert_eq!(p.claim(Some("a"), "z", 2), Claim::Resumed("A"));
        let second = p.park("a", "A");
        assert_eq!(p.expire("a", first), None, "parked again since");
        assert_eq!(p.expire("a", second), Some("A"));
        assert_eq!(p.counts(), (0, 0));
        // An id nobody has is a new session.
        assert_eq!(p.claim(Some("gone"), "n", 0), Claim::New { evicted: None });
    }
}
