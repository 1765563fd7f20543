//! A session's searches: `go` for a move, a declaration or analysis, the engine's `info`
//! lines passed on to the page, and its `bestmove` checked and played.

use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::engine::Event;
use super::fault::{Failure, FaultKind};
use super::flow::{Actor, Node, Purpose, Side};
use super::game::Search;
use super::request::{self, Limit};
use super::session::Session;
use super::talk::QUERY_WAIT;
use super::uci;
use serde_json::json;

/// How long a depth or node limited search may run before it counts as hanging.
const UNTIMED_LIMIT: Duration = Duration::from_secs(120);

impl Session {
    /// `go` for `purpose` on the current position.
    pub(super) async fn start_go(&mut self, purpose: Purpose) -> Result<(), Failure> {
        let now = Instant::now();
        let mut go = "go".to_string();
        let mut limit = None;
        match (purpose, self.game.limit) {
            (Purpose::Analysis(_), _) => go.push_str(" infinite"),
            (_, Limit::Movetime { ms }) => {
                go.push_str(&format!(" movetime {ms}"));
                limit = Some(Duration::from_millis(ms));
            }
            (_, Limit::Depth { depth }) => go.push_str(&format!(" depth {depth}")),
            (_, Limit::Nodes { nodes }) => go.push_str(&format!(" nodes {nodes}")),
            (_, Limit::Clock { .. }) => {
                let c = self
                    .game
                    .clocks
                    .get_or_insert_with(|| Clocks::new(60_000, 0));
                let (w, b) = (c.left(0, now).max(1), c.left(1, now).max(1));
                let inc = c.inc();
                go.push_str(&format!(" wtime {w} btime {b} winc {inc} binc {inc}"));
                if let Some(s) = purpose.side() {
                    limit = Some(Duration::from_millis(c.left(s.index(), now).max(0) as u64));
                }
            }
        }
        let side_word = match purpose {
            Purpose::Declare(s) | Purpose::Analysis(Some(s)) => Some(s),
            _ => None,
        };
        if let Some(s) = side_word {
            go.push_str(&format!(" side {}", s.letter()));
        }
        let ply = match (purpose, self.game.lines.viewed()) {
            (Purpose::Analysis(_), Some((ply, _))) => ply,
            _ => self.game.lines.moves.len(),
        };
        // (An analysis of a variation's position is of that line's tokens.)
        let position = match purpose {
            Purpose::Analysis(_) => self
                .game
                .lines
                .tokens_command(&self.game.lines.line_tokens()[..ply]),
            _ => self.game.lines.position_command(ply),
        };
        self.io.send_engine(&position).await?;
        self.io.send_engine(&go).await?;
        let deadline = match purpose {
            Purpose::Analysis(_) => None,
            _ => Some(now + limit.unwrap_or(UNTIMED_LIMIT) + self.config.margin),
        };
        if let (Some(s), Some(c)) = (purpose.side(), self.game.clocks.as_mut()) {
            c.start(s.index(), now);
        }
        self.game.search = Some(Search {
            purpose,
            sent: now,
            deadline,
        });
        self.state_changed();
        Ok(())
    }

    /// An engine event of the running process (a late one of a replaced process is
    /// dropped): a line to the console, `bestmove` to its search, `info` to the page.
    pub(super) async fn on_event(&mut self, generation: u64, event: Event) -> Result<(), Failure> {
        if Some(generation) != self.io.engine.as_ref().map(|e| e.generation) {
            return Ok(());
        }
        match event {
            Event::Err(line) => self.io.console('!', &line),
            Event::Closed => return Err(self.io.crashed().await),
            Event::Out(line) => {
                self.io.console('<', &line);
                let Some(purpose) = self.game.search.as_ref().map(|s| s.purpose) else {
                    return Ok(());
                };
                if let Some(rest) = line.strip_prefix("bestmove") {
                    let token = rest.split_whitespace().next().unwrap_or("").to_string();
                    return self.on_bestmove(token).await;
                }
                self.forward_info(&line, &purpose).await;
            }
        }
        Ok(())
    }

    /// Stops the running search, if any, and waits for its `bestmove` (passing its last
    /// `info` lines on), which is then dropped.
    pub(super) async fn stop_search(&mut self) -> Result<(), Failure> {
        let Some(search) = self.game.search.take() else {
            return Ok(());
        };
        let side = search.purpose.side();
        self.io.send_engine("stop").await?;
        let wait = self.config.margin + QUERY_WAIT;
        loop {
            let line = self.io.next_line(wait).await.map_err(|mut f| {
                f.detail = format!("no bestmove after stop: {}", f.detail);
                f
            })?;
            if line.starts_with("bestmove") {
                break;
            }
            self.forward_info(&line, &search.purpose).await;
        }
        if let (Some(s), Some(c)) = (side, self.game.clocks.as_mut()) {
            c.halt(s.index(), Instant::now());
        }
        Ok(())
    }

    /// Passes an `info` line of a search on to the page, with the side its score is for.
    pub(super) async fn forward_info(&mut self, line: &str, purpose: &Purpose) {
        let Some(info) = uci::parse_info(line) else {
            return;
        };
        let viewed = self
            .game
            .lines
            .viewed()
            .filter(|_| matches!(purpose, Purpose::Analysis(_)));
        let pov = match (*purpose, self.game.snap.as_ref().map(|s| s.node), viewed) {
            (Purpose::Move(s) | Purpose::Declare(s), _, _) => s,
            (Purpose::Analysis(Some(s)), _, _) => s,
            (_, _, Some((_, p))) if p["to_act"] == "p2" => Side::P2,
            (_, _, Some(_)) => Side::P1,
            (_, Some(Node::Turn(s) | Node::Chance(s)), None) => s,
            _ => Side::P1,
        };
        let ply = viewed.map_or(self.game.lines.moves.len(), |(ply, _)| ply);
        let line = viewed.and(self.game.lines.line);
        let message = json!({
            "t": "info", "purpose": purpose, "pov": pov, "ply": ply, "line": line, "info": info
        });
        self.io.send(message).await;
    }

    /// The engine's answer to the running search: a move is checked against the engine's
    /// own legal list and played, a declaration is kept hidden, analysis ends.
    pub(super) async fn on_bestmove(&mut self, token: String) -> Result<(), Failure> {
        let Some(search) = self.game.search.take() else {
            return Ok(());
        };
        let now = Instant::now();
        let illegal = |side: Side, why: String| Failure {
            kind: FaultKind::Illegal,
            side: Some(side),
            detail: why,
        };
        match search.purpose {
            Purpose::Analysis(_) => {
                // Ended by itself (not stopped): not started there again.
                self.game.analysis_ended = Some(self.game.shown_key());
                self.state_changed();
                Ok(())
            }
            Purpose::Move(side) => {
                self.game.reply_ms = Some(now.duration_since(search.sent).as_millis() as u64);
                let in_time = self.game.charge(side, now);
                let legal = self
                    .game
                    .snap
                    .as_ref()
                    .is_some_and(|s| s.legal.contains(&token));
                if !legal || !request::is_token_safe(&token) {
                    return Err(illegal(
                        side,
                        format!(
                            "bestmove '{token}' is not among the engine's own legal moves here"
                        ),
                    ));
                }
                self.play(token, Actor::Move(side)).await?;
                if !in_time {
                    self.game.flagged = Some(side);
                }
                self.game.wake = Some(now + self.game.delay);
                self.state_changed();
                Ok(())
            }
            Purpose::Declare(side) => {
                self.game.reply_ms = Some(now.duration_since(search.sent).as_millis() as u64);
                let in_time = self.game.charge(side, now);
                if !request::is_token_safe(&token) {
                    return Err(illegal(
                        side,
                        format!("bestmove '{token}' is not a declaration"),
                    ));
                }
                self.game.declared[side.index()] = Some(token);
                if !in_time {
                    self.game.flagged = Some(side);
                }
                self.state_changed();
                Ok(())
            }
        }
    }
}
