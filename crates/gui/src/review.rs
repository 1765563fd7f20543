//! A game review: the engine asked about every position of the game, one `go nodes N` per
//! ply from the start, while the session goes on answering the page (each position is a
//! search like any other, so the review can be cancelled between two `info` lines). Each
//! position's result goes to the page as it comes; the page draws the graph and marks the
//! moves.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::answers::answer;
use super::fault::{Failure, FaultKind};
use super::session::{Purpose, Search, Session};
use super::uci::{self, Info, SearchInfo};

/// How long one review search may run before the engine counts as hanging.
const REVIEW_LIMIT: Duration = Duration::from_secs(60);

/// Most nodes a review may ask per position.
pub const MAX_REVIEW_NODES: u64 = 10_000_000;

/// Most milliseconds a review may take per position (well within `REVIEW_LIMIT`).
pub const MAX_REVIEW_MS: u64 = 30_000;

/// The `go` of a review's search: `go movetime ms` when `ms` is given, else `go nodes`.
/// Error (for the page): a value out of its range.
pub fn review_go(nodes: u64, ms: u64) -> Result<String, String> {
    match (nodes, ms) {
        (_, 1..=MAX_REVIEW_MS) => Ok(format!("go movetime {ms}")),
        (_, 1..) => Err(format!("a review takes 1 to {MAX_REVIEW_MS} ms a position")),
        (1..=MAX_REVIEW_NODES, 0) => Ok(format!("go nodes {nodes}")),
        _ => Err(format!(
            "a review takes 1 to {MAX_REVIEW_NODES} nodes a position"
        )),
    }
}

/// A running review.
#[derive(Debug, Clone)]
pub struct Review {
    /// The `go` of each position's search (`review_go`).
    pub go: String,
    /// The ply whose position is searched now, or next.
    pub ply: usize,
    /// The side the running search's score is for (`p1`/`p2`).
    pub pov: &'static str,
    /// The last main-line `info` of the running search.
    pub last: Option<SearchInfo>,
}

impl Session {
    /// Starts a review at `ms` milliseconds per position when given, else at `nodes` (the
    /// running search is stopped first).
    pub(super) async fn start_review(&mut self, nodes: u64, ms: u64) -> Result<(), Failure> {
        let go = match review_go(nodes, ms) {
            Ok(go) => go,
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
        };
        if self.fault.is_some() {
            self.io
                .error("the engine had a fault: restart it to review the game")
                .await;
            return Ok(());
        }
        self.stop_search().await?;
        self.review = Some(Review {
            go,
            ply: 0,
            pov: "p1",
            last: None,
        });
        self.state_changed();
        Ok(())
    }

    /// Ends a running review; the page keeps what it got.
    pub(super) async fn cancel_review(&mut self) -> Result<(), Failure> {
        if self.review.take().is_some() {
            self.stop_search().await?;
            self.io
                .send(json!({"t": "review_end", "cancelled": true}))
                .await;
            self.state_changed();
        }
        Ok(())
    }

    /// Starts the search of the review's next position; false when there is no review.
    pub(super) async fn review_next(&mut self) -> Result<bool, Failure> {
        let Some(ply) = self.review.as_ref().map(|r| r.ply) else {
            return Ok(false);
        };
        if ply > self.lines.moves.len() {
            self.review = None;
            self.io
                .send(json!({"t": "review_end", "cancelled": false}))
                .await;
            self.state_changed();
            return Ok(false);
        }
        let position = self.lines.position_command(ply);
        // The position's description: from what the game has seen, else asked once.
        let described = match self.lines.positions.get(ply).filter(|p| !p.is_null()) {
            Some(p) => p.clone(),
            None => {
                let groups = self
                    .io
                    .exchange(&[position.clone(), "query position".to_string()])
                    .await?;
                answer(&groups[1])
                    .ok()
                    .and_then(|t| serde_json::from_str::<Value>(&t).ok())
                    .ok_or_else(|| Failure::new(FaultKind::Protocol, "review: no query position"))?
            }
        };
        let over = described["node"] == "over";
        let simultaneous = described["node"] == "simultaneous";
        let pov = if described["to_act"] == "p2" {
            "p2"
        } else {
            "p1"
        };
        if over {
            // A finished position has nothing to search: its result is the value.
            let result = json!({"result": described["result"]});
            self.send_review_result(ply, pov, result).await;
            return Ok(true);
        }
        let Some(review) = self.review.as_mut() else {
            return Ok(false);
        };
        review.pov = pov;
        review.last = None;
        let side = if simultaneous { " side w" } else { "" };
        let go = format!("{}{side}", review.go);
        self.io.send_engine(&position).await?;
        self.io.send_engine(&go).await?;
        let now = Instant::now();
        self.search = Some(Search {
            purpose: Purpose::Review,
            sent: now,
            deadline: Some(now + REVIEW_LIMIT + self.config.margin),
        });
        Ok(true)
    }

    /// Keeps a review search's main-line `info` (the page is told only the result).
    pub(super) fn review_info(&mut self, line: &str) {
        if let (Some(review), Some(Info::Search(info))) =
            (self.review.as_mut(), uci::parse_info(line))
            && info.multipv == 1
            && info.score.is_some()
        {
            review.last = Some(info);
        }
    }

    /// The review search's `bestmove`: its result to the page, then the next ply.
    pub(super) async fn review_bestmove(&mut self, token: String) {
        let Some(review) = self.review.as_ref() else {
            return;
        };
        let (ply, pov) = (review.ply, review.pov);
        let last = review.last.as_ref();
        let found = json!({
            "score": last.map(|i| i.score),
            "wdl": last.map(|i| i.wdl),
            "best": (token != "(none)").then_some(token),
        });
        self.send_review_result(ply, pov, found).await;
    }

    /// Sends one position's result (`found`: its `score`, `wdl`, `best` or `result`) and
    /// moves the review on to the next ply.
    async fn send_review_result(&mut self, ply: usize, pov: &str, found: Value) {
        let mut message = json!({
            "t": "review", "ply": ply, "total": self.lines.moves.len() + 1, "pov": pov,
            "score": null, "wdl": null, "result": null, "best": null,
        });
        if let (Some(m), Some(f)) = (message.as_object_mut(), found.as_object()) {
            m.extend(f.clone());
        }
        self.io.send(message).await;
        if let Some(r) = self.review.as_mut() {
            r.ply += 1;
        }
        self.state_changed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_searches_by_time_when_given_else_by_nodes() {
        assert_eq!(review_go(20_000, 0).as_deref(), Ok("go nodes 20000"));
        assert_eq!(review_go(20_000, 500).as_deref(), Ok("go movetime 500"));
        assert_eq!(
            review_go(0, MAX_REVIEW_MS).as_deref(),
            Ok("go movetime 30000")
        );
        assert!(review_go(0, MAX_REVIEW_MS + 1).is_err());
        assert!(review_go(MAX_REVIEW_NODES + 1, 0).is_err());
        assert!(review_go(0, 0).is_err(), "both 0 is a cancel, not a review");
        // The deadline of a review search covers the longest time a position may take.
        assert!(Duration::from_millis(MAX_REVIEW_MS) < REVIEW_LIMIT);
    }
}
