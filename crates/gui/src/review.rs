//! A game review's plain data, kept with the session so that a reload gets it back (issue
//! 39 §2): the search asked of each position, the result of every position searched so
//! far, whether it runs, and whether it was cut short (cancelled, or stopped by an engine
//! fault) and can be continued. No I/O: the session (`reviewing`) asks the engine and hands
//! each result in; the page draws the graph and the marks from the results.

use std::time::Duration;

use serde_json::{Value, json};

use super::uci::SearchInfo;

/// How long one review search may run before the engine counts as hanging.
pub const REVIEW_LIMIT: Duration = Duration::from_secs(60);

/// Most nodes a review may ask per position.
pub const MAX_REVIEW_NODES: u64 = 10_000_000;

/// Most milliseconds a review may take per position (well within `REVIEW_LIMIT`).
pub const MAX_REVIEW_MS: u64 = 30_000;

/// The `go` of a review's search (`go movetime ms` when `ms` is given, else `go nodes`)
/// and its words for people ("20000 nodes", "500 ms"). Error (for the page): a value out
/// of its range.
pub fn review_go(nodes: u64, ms: u64) -> Result<(String, String), String> {
    match (nodes, ms) {
        (_, 1..=MAX_REVIEW_MS) => Ok((format!("go movetime {ms}"), format!("{ms} ms"))),
        (_, 1..) => Err(format!("a review takes 1 to {MAX_REVIEW_MS} ms a position")),
        (1..=MAX_REVIEW_NODES, 0) => Ok((format!("go nodes {nodes}"), format!("{nodes} nodes"))),
        _ => Err(format!(
            "a review takes 1 to {MAX_REVIEW_NODES} nodes a position"
        )),
    }
}

/// A review of the main line: one result per position (after 0, 1, ... tokens).
#[derive(Debug, Clone)]
pub struct ReviewLog {
    /// The `go` of each position's search (`review_go`).
    pub go: String,
    /// The search in words, for the page and the export's `Annotator` tag.
    pub per: String,
    /// The `review` message of each position searched (`None`: not yet).
    pub results: Vec<Option<Value>>,
    /// Whether positions are being searched.
    pub running: bool,
    /// Stopped before its end by a person or a fault (it can be continued).
    pub stopped: bool,
    /// The side the running search's score is for (`p1`/`p2`).
    pub pov: &'static str,
    /// The last main-line `info` of the running search.
    pub last: Option<SearchInfo>,
}

impl ReviewLog {
    /// A review about to start, searching each position with `go` (`per` in words).
    pub fn new(go: String, per: String) -> ReviewLog {
        ReviewLog {
            go,
            per,
            results: Vec::new(),
            running: true,
            stopped: false,
            pov: "p1",
            last: None,
        }
    }

    /// The first position of a main line of `plies` tokens not yet searched.
    pub fn next_ply(&self, plies: usize) -> Option<usize> {
        (0..=plies).find(|&p| self.results.get(p).is_none_or(Option::is_none))
    }

    /// Keeps `message` as the result of the position after `ply` tokens.
    pub fn keep(&mut self, ply: usize, message: Value) {
        if self.results.len() <= ply {
            self.results.resize(ply + 1, None);
        }
        self.results[ply] = Some(message);
    }

    /// How many positions have their result.
    pub fn done(&self) -> usize {
        self.results.iter().flatten().count()
    }

    /// The main line changed from its `n`-th token on: the results of the positions after
    /// more than `n` tokens are of another game and go.
    pub fn keep_first(&mut self, n: usize) {
        self.results.truncate(n + 1);
    }

    /// Stops it (a person cancelled it, or the engine failed): it is cut short.
    pub fn stop(&mut self) {
        self.running = false;
        self.stopped = true;
        self.last = None;
    }

    /// Whether it was stopped with positions of a main line of `plies` tokens left.
    pub fn cut_short(&self, plies: usize) -> bool {
        self.stopped && !self.running && self.next_ply(plies).is_some()
    }

    /// The state's `review`: whether it runs, how many positions are done of how many,
    /// whether it was cut short, and its search in words.
    pub fn json(&self, plies: usize) -> Value {
        json!({
            "running": self.running,
            "done": self.done(),
            "total": plies + 1,
            "cut": self.cut_short(plies),
            "per": self.per,
        })
    }

    /// Every result kept, in the order of the plies, for a page that comes back.
    pub fn results_json(&self) -> Value {
        json!(self.results.iter().flatten().collect::<Vec<_>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_searches_by_time_when_given_else_by_nodes() {
        let go = |n, ms| review_go(n, ms).map(|(g, _)| g);
        assert_eq!(go(20_000, 0).as_deref(), Ok("go nodes 20000"));
        assert_eq!(go(20_000, 500).as_deref(), Ok("go movetime 500"));
        assert_eq!(go(0, MAX_REVIEW_MS).as_deref(), Ok("go movetime 30000"));
        assert_eq!(review_go(0, 500).map(|(_, w)| w).as_deref(), Ok("500 ms"));
        assert!(review_go(0, MAX_REVIEW_MS + 1).is_err());
        assert!(review_go(MAX_REVIEW_NODES + 1, 0).is_err());
        assert!(review_go(0, 0).is_err(), "both 0 is a cancel, not a review");
        // The deadline of a review search covers the longest time a position may take.
        assert!(Duration::from_millis(MAX_REVIEW_MS) < REVIEW_LIMIT);
    }

    #[test]
    fn a_review_cut_short_says_so_and_goes_on_where_it_stopped() {
        let mut r = ReviewLog::new("go nodes 9".into(), "9 nodes".into());
        assert_eq!(r.next_ply(3), Some(0));
        r.keep(0, json!({"ply": 0}));
        r.keep(1, json!({"ply": 1}));
        assert_eq!((r.next_ply(3), r.done()), (Some(2), 2));
        assert!(!r.cut_short(3), "running");
        r.stop();
        assert!(r.cut_short(3));
        assert_eq!(r.json(3)["cut"], json!(true));
        assert_eq!(r.json(3)["total"], json!(4));
        // Continued, it searches the positions left, from where it stopped.
        r.running = true;
        r.stopped = false;
        assert_eq!(r.next_ply(3), Some(2));
        r.keep(2, json!({"ply": 2}));
        r.keep(3, json!({"ply": 3}));
        assert_eq!(r.next_ply(3), None);
        r.running = false;
        assert!(!r.cut_short(3));
        // A game that went on after it is reviewed as far as it was, not cut short.
        assert!(!r.cut_short(5) && r.next_ply(5) == Some(4));
        assert_eq!(
            r.results_json(),
            json!([{"ply": 0}, {"ply": 1}, {"ply": 2}, {"ply": 3}])
        );
    }

    #[test]
    fn a_changed_main_line_drops_the_results_past_the_change() {
        let mut r = ReviewLog::new("go nodes 9".into(), "9 nodes".into());
        for p in 0..5 {
            r.keep(p, json!({ "ply": p }));
        }
        // A take back to 2 tokens: the positions after 0, 1 and 2 tokens are the same.
        r.keep_first(2);
        assert_eq!(r.done(), 3);
        assert_eq!(r.next_ply(4), Some(3));
    }
}
