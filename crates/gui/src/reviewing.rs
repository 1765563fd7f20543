//! A session's game review: the engine asked about every position of the main line, one
//! `go` per position from the first not yet searched, while the session goes on answering
//! the page (each position is a search like any other, so the review can be cancelled
//! between two `info` lines). Each position's result goes to the page as it comes and is
//! kept with the session (`review::ReviewLog`), so that a reload gets the review back; a
//! review cut short (cancelled, or stopped by a fault) can be continued.

use std::time::Instant;

use serde_json::{Value, json};

use super::answers::answer;
use super::fault::{Failure, FaultKind};
use super::flow::Purpose;
use super::game::Search;
use super::review::{REVIEW_LIMIT, ReviewLog, review_go};
use super::session::Session;
use super::uci::{self, Info};

impl Session {
    /// Starts a review at `ms` milliseconds per position when given, else at `nodes` (the
    /// running search is stopped first; an earlier review's results go).
    pub(super) async fn start_review(&mut self, nodes: u64, ms: u64) -> Result<(), Failure> {
        let (go, per) = match review_go(nodes, ms) {
            Ok(g) => g,
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
        };
        if self.game.fault.is_some() {
            self.io
                .error("the engine had a fault: restart it to review the game")
                .await;
            return Ok(());
        }
        self.stop_search().await?;
        self.game.review = Some(ReviewLog::new(go, per));
        self.state_changed();
        Ok(())
    }

    /// Stops a running review, cut short; the page keeps what it got.
    pub(super) async fn cancel_review(&mut self) -> Result<(), Failure> {
        if self.game.review.as_ref().is_some_and(|r| r.running) {
            self.stop_search().await?;
            if let Some(r) = self.game.review.as_mut() {
                r.stop();
            }
            self.io
                .send(json!({"t": "review_end", "cancelled": true}))
                .await;
            self.state_changed();
        }
        Ok(())
    }

    /// Goes on with a review cut short (or one the game has outgrown): the positions not
    /// yet searched, at the review's own setting. Error to the page: no review, or one
    /// running.
    pub(super) async fn continue_review(&mut self) -> Result<(), Failure> {
        let why = match &self.game.review {
            None => Some("there is no review to continue"),
            Some(r) if r.running => Some("the review is running"),
            Some(_) if self.game.fault.is_some() => {
                Some("the engine had a fault: restart it to review the game")
            }
            Some(_) => None,
        };
        if let Some(why) = why {
            self.io.error(why).await;
            return Ok(());
        }
        self.stop_search().await?;
        if let Some(r) = self.game.review.as_mut() {
            r.running = true;
            r.stopped = false;
        }
        self.state_changed();
        Ok(())
    }

    /// Starts the search of the review's next position; false when no review runs.
    pub(super) async fn review_next(&mut self) -> Result<bool, Failure> {
        let plies = self.game.lines.moves.len();
        let Some(review) = self.game.review.as_mut().filter(|r| r.running) else {
            return Ok(false);
        };
        let Some(ply) = review.next_ply(plies) else {
            review.running = false;
            self.io
                .send(json!({"t": "review_end", "cancelled": false}))
                .await;
            self.state_changed();
            return Ok(false);
        };
        let position = self.game.lines.position_command(ply);
        // The position's description: from what the game has seen, else asked once.
        let described = match self.game.lines.positions.get(ply).filter(|p| !p.is_null()) {
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
        let pov = if described["to_act"] == "p2" {
            "p2"
        } else {
            "p1"
        };
        if described["node"] == "over" {
            // A finished position has nothing to search: its result is the value.
            let result = json!({"result": described["result"]});
            self.send_review_result(ply, pov, result).await;
            return Ok(true);
        }
        let side = if described["node"] == "simultaneous" {
            " side w"
        } else {
            ""
        };
        let Some(review) = self.game.review.as_mut() else {
            return Ok(false);
        };
        review.pov = pov;
        review.last = None;
        let go = format!("{}{side}", review.go);
        self.io.send_engine(&position).await?;
        self.io.send_engine(&go).await?;
        let now = Instant::now();
        self.game.search = Some(Search {
            purpose: Purpose::Review,
            sent: now,
            deadline: Some(now + REVIEW_LIMIT + self.config.margin),
        });
        Ok(true)
    }

    /// Keeps a review search's main-line `info` (the page is told only the result).
    pub(super) fn review_info(&mut self, line: &str) {
        if let (Some(review), Some(Info::Search(info))) =
            (self.game.review.as_mut(), uci::parse_info(line))
            && info.multipv == 1
            && info.score.is_some()
        {
            review.last = Some(info);
        }
    }

    /// The review search's `bestmove`: its result to the page and kept.
    pub(super) async fn review_bestmove(&mut self, token: String) {
        let plies = self.game.lines.moves.len();
        let Some(review) = self.game.review.as_ref() else {
            return;
        };
        let (Some(ply), pov) = (review.next_ply(plies), review.pov) else {
            return;
        };
        let last = review.last.as_ref();
        let found = json!({
            "score": last.map(|i| i.score),
            "wdl": last.map(|i| i.wdl),
            "best": (token != "(none)").then_some(token),
        });
        self.send_review_result(ply, pov, found).await;
    }

    /// Sends one position's result (`found`: its `score`, `wdl`, `best` or `result`) and
    /// keeps it.
    async fn send_review_result(&mut self, ply: usize, pov: &str, found: Value) {
        let mut message = json!({
            "t": "review", "ply": ply, "total": self.game.lines.moves.len() + 1, "pov": pov,
            "score": null, "wdl": null, "result": null, "best": null,
        });
        if let (Some(m), Some(f)) = (message.as_object_mut(), found.as_object()) {
            m.extend(f.clone());
        }
        if let Some(r) = self.game.review.as_mut() {
            r.keep(ply, message.clone());
        }
        self.io.send(message).await;
        self.state_changed();
    }
}
