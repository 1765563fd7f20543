//! A game review's plain data, kept with the session so that a reload gets it back (issue
//! 39 §2). The review itself is the `quartet-review` crate's, the code `quartet review`
//! runs (issue 39 §3): what the engine said about each position (`Facts`, kept as they
//! come, so that a review cut short goes on where it stopped) and the review computed from
//! them (`GameReview`: each position's value, each decision's loss and mark, each roll's
//! luck and temperature map, each joint turn's two policies, each side's accuracy). No
//! I/O: the session (`reviewing`, `review_run`) runs the crate with an engine of its own
//! and hands its progress and results in; the page draws what the review holds.

use quartet_review::Budget;
use quartet_review::facts::Facts;
use quartet_review::report::GameReview;
use serde_json::{Value, json};

/// Most nodes a review may ask per search.
pub const MAX_REVIEW_NODES: u64 = 10_000_000;

/// Most milliseconds a review may take per search.
pub const MAX_REVIEW_MS: u64 = 30_000;

/// The budget of a review's searches (`go movetime ms` when `ms` is given, else `go
/// nodes`) and its words for people ("20000 nodes", "500 ms"). Error (for the page): a
/// value out of its range.
pub fn review_budget(nodes: u64, ms: u64) -> Result<(Budget, String), String> {
    match (nodes, ms) {
        (_, 1..=MAX_REVIEW_MS) => Ok((Budget::Movetime(ms), format!("{ms} ms"))),
        (_, 1..) => Err(format!("a review takes 1 to {MAX_REVIEW_MS} ms a search")),
        (1..=MAX_REVIEW_NODES, 0) => Ok((Budget::Nodes(nodes), format!("{nodes} nodes"))),
        _ => Err(format!(
            "a review takes 1 to {MAX_REVIEW_NODES} nodes a search"
        )),
    }
}

/// A review of the main line; see the module doc.
#[derive(Debug, Clone)]
pub struct ReviewLog {
    /// Which review of the session this is (a run's results are for its own review only).
    pub id: u64,
    /// The budget of each search.
    pub budget: Budget,
    /// The search in words, for the page and the export's `Annotator` tag.
    pub per: String,
    /// What the engine said about the position before each token, from the first on.
    pub facts: Vec<Facts>,
    /// The review, once every position is done.
    pub review: Option<GameReview>,
    /// Whether it is wanted running (a run goes on, or starts when the page looks).
    pub running: bool,
    /// Stopped before its end by a person, or by its engine's error (it can be continued).
    pub stopped: bool,
    /// Positions done, as the run last said.
    pub done: usize,
    /// Why it stopped, when its engine failed or the game did not replay.
    pub error: Option<String>,
}

impl ReviewLog {
    /// Review number `id`, about to start, each search at `budget` (`per` in words).
    pub fn new(id: u64, budget: Budget, per: String) -> ReviewLog {
        ReviewLog {
            id,
            budget,
            per,
            facts: Vec::new(),
            review: None,
            running: true,
            stopped: false,
            done: 0,
            error: None,
        }
    }

    /// A run of this review went as far as `facts` (for the tokens it reviewed, of which
    /// the first `same` are still the main line's): the longer of them and those kept.
    pub fn take_facts(&mut self, mut facts: Vec<Facts>, same: usize) {
        facts.truncate(same);
        if facts.len() > self.facts.len() {
            self.facts = facts;
        }
        self.done = self.done.max(self.facts.len());
    }

    /// The main line changed from its `n`-th token on: what the engine said about the
    /// positions past it is of another game and goes; the review too, unless it is of at
    /// most `n` tokens (a game that went on after it).
    pub fn keep_first(&mut self, n: usize) {
        self.facts.truncate(n);
        self.done = self.done.min(n);
        let tokens = |r: &GameReview| r.plies.iter().filter(|p| p.token != "(end)").count();
        if self.review.as_ref().is_some_and(|r| tokens(r) > n) {
            self.review = None;
            if !self.running {
                self.stopped = true;
            }
        }
    }

    /// Stops it (a person cancelled it, or its engine failed): it is cut short.
    pub fn stop(&mut self) {
        self.running = false;
        self.stopped = true;
    }

    /// Goes on with it (a review cut short, or one the game has outgrown).
    pub fn resume(&mut self) {
        self.running = true;
        self.stopped = false;
        self.error = None;
    }

    /// Whether it was stopped before its review was made.
    pub fn cut_short(&self) -> bool {
        self.stopped && !self.running && self.review.is_none()
    }

    /// The state's `review`: whether it runs, how many positions are done of how many
    /// (of a main line of `plies` tokens), whether it was cut short and why, and its search
    /// in words.
    pub fn json(&self, plies: usize) -> Value {
        json!({
            "running": self.running,
            "done": self.done.min(plies + 1),
            "total": plies + 1,
            "cut": self.cut_short(),
            "error": self.error,
            "per": self.per,
        })
    }

    /// The review as `quartet review --json` prints a game's (docs/review.md), or null
    /// before it is made.
    pub fn report_json(&self) -> Value {
        self.review
            .as_ref()
            .and_then(|r| serde_json::to_value(r).ok())
            .unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_review::facts::Side;

    fn turn() -> Facts {
        Facts::Turn {
            mover: Side::First,
            searched: None,
        }
    }

    #[test]
    fn a_review_searches_by_time_when_given_else_by_nodes() {
        let budget = |n, ms| review_budget(n, ms).map(|(b, _)| b);
        assert_eq!(budget(20_000, 0), Ok(Budget::Nodes(20_000)));
        assert_eq!(budget(20_000, 500), Ok(Budget::Movetime(500)));
        assert_eq!(budget(0, MAX_REVIEW_MS), Ok(Budget::Movetime(30_000)));
        assert_eq!(
            review_budget(0, 500).map(|(_, w)| w).as_deref(),
            Ok("500 ms")
        );
        assert!(review_budget(0, MAX_REVIEW_MS + 1).is_err());
        assert!(review_budget(MAX_REVIEW_NODES + 1, 0).is_err());
        assert!(
            review_budget(0, 0).is_err(),
            "both 0 is a cancel, not a review"
        );
    }

    #[test]
    fn a_review_cut_short_says_so_and_goes_on_where_it_stopped() {
        let mut r = ReviewLog::new(1, Budget::Nodes(9), "9 nodes".into());
        r.take_facts(vec![turn(), turn()], 3);
        assert_eq!(r.done, 2);
        assert!(!r.cut_short(), "running");
        r.stop();
        assert!(r.cut_short());
        assert_eq!(r.json(3)["cut"], json!(true));
        assert_eq!(r.json(3)["total"], json!(4));
        assert_eq!(r.json(3)["done"], json!(2));
        // Continued, it keeps what it had; a run that got less (stopped sooner) takes
        // nothing away, one that got further adds its facts.
        r.resume();
        assert!(!r.cut_short());
        r.take_facts(vec![turn()], 3);
        assert_eq!(r.facts.len(), 2);
        r.take_facts(vec![turn(), turn(), turn()], 3);
        assert_eq!(r.facts.len(), 3);
        // Facts of tokens no longer on the main line are not taken.
        r.take_facts(vec![turn(); 5], 3);
        assert_eq!(r.facts.len(), 3);
        assert_eq!(r.report_json(), Value::Null);
    }

    #[test]
    fn a_changed_main_line_drops_the_facts_past_the_change() {
        let mut r = ReviewLog::new(1, Budget::Nodes(9), "9 nodes".into());
        r.take_facts(vec![turn(); 5], 5);
        r.stop();
        r.resume();
        // A take back to 2 tokens: the positions before the first two are the same.
        r.keep_first(2);
        assert_eq!((r.facts.len(), r.done), (2, 2));
    }
}
