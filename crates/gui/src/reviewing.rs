//! A session's game review (issue 39 §2-§3): the `quartet-review` crate's review of the
//! main line, run with an engine of its own (`review_run`) while the session goes on
//! answering the page, and the game and its analysis go on. Its progress and, once done,
//! the review (`review_log`) go to the page and are kept with the session
//! (`review::ReviewLog`), so that a reload gets them back; a review cut short (cancelled,
//! or stopped by its engine's error) can be continued from where it stopped. While no page
//! looks the run is stopped, and it goes on when the page is back.

use quartet_review::{GameInput, ReviewError};
use serde_json::json;

use super::review::{ReviewLog, review_budget};
use super::review_run::{ReviewEvent, ReviewRun};
use super::session::Session;

/// Options of the person's that the review's engine does not take: the transposition
/// table (its own engine's is the default, so that a review takes no more of the memory
/// budget), and MultiPV (the review sets its own).
const NOT_FOR_THE_REVIEW: [&str; 2] = ["Hash", "MultiPV"];

impl Session {
    /// Starts a review at `ms` milliseconds per search when given, else at `nodes` (an
    /// earlier review and its run go).
    pub(super) async fn start_review(&mut self, nodes: u64, ms: u64) {
        let (budget, per) = match review_budget(nodes, ms) {
            Ok(b) => b,
            Err(e) => {
                self.io.error(e).await;
                return;
            }
        };
        if let Some(run) = &self.review_run {
            run.cancel();
        }
        self.reviews += 1;
        self.game.review = Some(ReviewLog::new(self.reviews, budget, per));
        self.send_review_log().await;
        self.state_changed();
    }

    /// Stops a running review, cut short; the page keeps what it got.
    pub(super) async fn cancel_review(&mut self) {
        if let Some(r) = self.game.review.as_mut().filter(|r| r.running) {
            r.stop();
            if let Some(run) = &self.review_run {
                run.cancel();
            }
            self.io
                .send(json!({"t": "review_end", "cancelled": true}))
                .await;
            self.state_changed();
        }
    }

    /// Goes on with a review cut short (or one the game has outgrown): the positions not
    /// yet searched, at the review's own setting. Error to the page: no review, or one
    /// running.
    pub(super) async fn continue_review(&mut self) {
        let why = match &self.game.review {
            None => Some("there is no review to continue"),
            Some(r) if r.running => Some("the review is running"),
            Some(_) => None,
        };
        if let Some(why) = why {
            self.io.error(why).await;
            return;
        }
        if let Some(r) = self.game.review.as_mut() {
            r.resume();
        }
        self.state_changed();
    }

    /// Starts gnubg's temperature map of the position shown (a roll due there), each
    /// outcome searched at `ms` milliseconds when given, else `nodes`. Error to the page:
    /// one is being made (one at a time: each has an engine), no roll is due there, or a
    /// bad budget.
    pub(super) async fn start_temperature(&mut self, nodes: u64, ms: u64) {
        if self.temperature_run.is_some() {
            self.io
                .error("a temperature map is being made: one at a time")
                .await;
            return;
        }
        let (budget, _) = match review_budget(nodes, ms) {
            Ok(b) => b,
            Err(e) => {
                self.io.error(e).await;
                return;
            }
        };
        if self.game.shown().and_then(|p| p["node"].as_str()) != Some("chance") {
            self.io
                .error("a temperature map is of a position where a roll is due")
                .await;
            return;
        }
        let tokens = match self.game.lines.viewed() {
            Some((ply, _)) => self.game.lines.line_tokens()[..ply].to_vec(),
            None => self.game.lines.moves.clone(),
        };
        self.temperature_run = Some(ReviewRun::temperature(
            &self.config.engine,
            self.review_input(),
            tokens,
            budget,
        ));
    }

    /// A temperature map's run ended: its map to the page (each outcome's token, weight and
    /// the first player's value after it), or why not.
    pub(super) async fn on_temperature_event(&mut self, event: Option<ReviewEvent>) {
        match event {
            Some(ReviewEvent::Line(dir, line)) => {
                self.io.console(dir, &format!("(temperature) {line}"));
            }
            Some(ReviewEvent::Map(Ok(map))) => {
                self.temperature_run = None;
                self.io.send(json!({"t": "temperature", "map": map})).await;
            }
            Some(ReviewEvent::Map(Err(e))) => {
                self.temperature_run = None;
                self.io.error(format!("temperature map: {e}")).await;
            }
            Some(_) | None => self.temperature_run = None,
        }
    }

    /// Keeps the review's run in step with the game: a run whose tokens are no longer the
    /// main line's is stopped (the review goes on with the new line once it has ended),
    /// and a review wanted running gets a run while a page looks.
    pub(super) fn review_step(&mut self) {
        let moves = &self.game.lines.moves;
        if let Some(run) = &self.review_run
            && (!moves.starts_with(&run.tokens)
                || self.game.review.as_ref().is_none_or(|r| r.id != run.id))
        {
            run.cancel();
        }
        if self.review_run.is_some() || self.io.closed || self.io.socket.is_none() {
            return;
        }
        let Some(review) = self.game.review.as_ref().filter(|r| r.running) else {
            return;
        };
        let input = self.review_input();
        self.review_run = Some(ReviewRun::start(
            review.id,
            &self.config.engine,
            input,
            review.budget,
            review.facts.clone(),
        ));
    }

    /// The game as the review takes it: its game, its rule options and the person's own
    /// options (but `NOT_FOR_THE_REVIEW`), its start, the main line and its result.
    fn review_input(&self) -> GameInput {
        let position = self.game.snap.as_ref().map(|s| &s.position);
        let mut rules: Vec<(String, String)> = position
            .and_then(|p| p["rules"].as_object())
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
            .collect();
        for cmd in &self.set_options {
            if let Some((name, value)) = cmd
                .strip_prefix("setoption name ")
                .and_then(|rest| rest.split_once(" value "))
                && !NOT_FOR_THE_REVIEW.contains(&name)
                && !rules.iter().any(|(n, _)| n == name)
            {
                rules.push((name.to_string(), value.to_string()));
            }
        }
        let result = match self.game.over_json()["result"].as_str() {
            Some("p1win") => Some(1.0),
            Some("p2win") => Some(0.0),
            Some("draw") => Some(0.5),
            _ => None,
        };
        GameInput {
            game: self.game.name.clone(),
            rules,
            start: self.game.lines.start_fen.clone(),
            tokens: self.game.lines.moves.clone(),
            result,
        }
    }

    /// What the review's run said: its progress, its engine's lines (to the console), and
    /// its end (its facts kept; the review made, or cut short by an error, or, cancelled
    /// while still wanted, started again on the main line as it is now).
    pub(super) async fn on_review_event(&mut self, event: Option<ReviewEvent>) {
        let Some(run) = self.review_run.as_ref() else {
            return;
        };
        let (id, tokens) = (run.id, run.tokens.clone());
        let mine = self.game.review.as_ref().is_some_and(|r| r.id == id);
        match event {
            Some(ReviewEvent::Line(dir, line)) => self.io.console(dir, &format!("(review) {line}")),
            // A temperature map's (a review's run sends none).
            Some(ReviewEvent::Map(_)) => {}
            Some(ReviewEvent::Progress(done)) => {
                if let Some(r) = self.game.review.as_mut().filter(|_| mine) {
                    r.done = done;
                    self.state_changed();
                }
            }
            None => {
                // The run's thread ended without its result (it cannot, short of a panic).
                self.review_run = None;
                if let Some(r) = self.game.review.as_mut().filter(|_| mine) {
                    r.stop();
                    r.error = Some("the review ended without a result".into());
                }
                self.state_changed();
            }
            Some(ReviewEvent::Done(facts, outcome)) => {
                self.review_run = None;
                let moves = &self.game.lines.moves;
                let same = tokens.iter().zip(moves).take_while(|(a, b)| a == b).count();
                let current = moves.starts_with(&tokens);
                let Some(r) = self.game.review.as_mut().filter(|_| mine) else {
                    return;
                };
                r.take_facts(facts, same);
                match *outcome {
                    Ok(review) if current => {
                        r.review = Some(review);
                        r.running = false;
                        r.stopped = false;
                        r.done = tokens.len() + 1;
                        self.io
                            .send(json!({"t": "review_end", "cancelled": false}))
                            .await;
                        self.send_review_log().await;
                    }
                    // Of a line since changed, or stopped while still wanted: again.
                    Ok(_) | Err(ReviewError::Cancelled) => {}
                    Err(e) => {
                        r.stop();
                        let why = format!("review: {e}");
                        r.error = Some(why.clone());
                        self.io.error(why).await;
                    }
                }
                self.state_changed();
            }
        }
    }
}
