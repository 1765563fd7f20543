//! A session's conversation with its engine, on `io::Io`: lines out and in (each relayed
//! to the page's console), commands fenced by `isready` so that every answer is matched to
//! its command, and the engine's own description of a position. Reading the answers is
//! in `answers` and `snapshot`, plain functions tested without an engine.

use std::time::Duration;

use serde_json::Value;

use super::answers::{answer, error_of, parse_chance, read_actor, read_position};
use super::engine::Event;
use super::fault::{Failure, FaultKind};
use super::flow::{Actor, Node};
use super::io::Io;
use super::snapshot::{Snapshot, legal_queries, read_snapshot, read_view_moves, view_queries};
use super::variations::ViewMoves;

/// How long a query or `isready` may take before the engine counts as hanging.
pub const QUERY_WAIT: Duration = Duration::from_secs(5);

impl Io {
    /// Sends one line to the engine (and to the console).
    pub async fn send_engine(&mut self, line: &str) -> Result<(), Failure> {
        self.console('>', line);
        let Some(engine) = self.engine.as_mut() else {
            return Err(Failure::new(FaultKind::Crash, "the engine is not running"));
        };
        engine
            .send(line)
            .await
            .map_err(|e| Failure::new(FaultKind::Crash, e))
    }

    /// The engine's next output line within `wait`. Error: it ended or stayed silent.
    pub async fn next_line(&mut self, wait: Duration) -> Result<String, Failure> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let event = tokio::time::timeout_at(deadline, self.events.recv()).await;
            let Ok(Some((generation, event))) = event else {
                return Err(Failure::new(
                    FaultKind::Hang,
                    format!("no answer within {} ms", wait.as_millis()),
                ));
            };
            if Some(generation) != self.engine.as_ref().map(|e| e.generation) {
                continue;
            }
            match event {
                Event::Out(line) => {
                    self.console('<', &line);
                    return Ok(line);
                }
                Event::Err(line) => self.console('!', &line),
                Event::Closed => return Err(self.crashed().await),
            }
        }
    }

    /// The failure for an engine whose output closed, with its exit status if known.
    pub async fn crashed(&mut self) -> Failure {
        let status = match self.engine.as_mut() {
            Some(e) => e.wait_exit(Duration::from_millis(200)).await,
            None => None,
        };
        let detail = match status {
            Some(s) => format!("the engine ended ({s})"),
            None => "the engine closed its output".to_string(),
        };
        Failure::new(FaultKind::Crash, detail)
    }

    /// Sends each command followed by `isready` and returns, per command, the lines the
    /// engine printed before its `readyok`.
    pub async fn exchange(&mut self, cmds: &[String]) -> Result<Vec<Vec<String>>, Failure> {
        for c in cmds {
            self.send_engine(c).await?;
            self.send_engine("isready").await?;
        }
        let mut groups = Vec::with_capacity(cmds.len());
        for _ in cmds {
            let mut group = Vec::new();
            loop {
                let line = self.next_line(QUERY_WAIT).await?;
                if line == "readyok" {
                    break;
                }
                group.push(line);
            }
            groups.push(group);
        }
        Ok(groups)
    }

    /// Sets the engine to `command` (a `position` command of `game`) and reads the
    /// position's description and legal moves. The inner error: the engine refused the
    /// position. The legal move queries `guess` (those the last position's node kind
    /// called for) are sent with the position, so that a move costs the engine one
    /// exchange, not two; a guess the new node kind proves wrong is followed by the right
    /// queries.
    pub async fn describe(
        &mut self,
        command: String,
        guess: &[String],
        game: &str,
    ) -> Result<Result<Snapshot, String>, Failure> {
        let mut cmds = vec![command, "query position".to_string()];
        cmds.extend(guess.iter().cloned());
        let mut groups = self.exchange(&cmds).await?;
        if let Some(e) = error_of(&groups[0]) {
            return Ok(Err(e));
        }
        let (position, node) = read_position(&groups[1])?;
        let queries = legal_queries(node);
        let groups = if queries == guess {
            groups.split_off(2)
        } else {
            self.exchange(&queries).await?
        };
        read_snapshot(position, node, &groups, game).map(Ok)
    }

    /// The engine's `query position` after the `position` command `command` (the engine is
    /// left there). Error (the engine's fault): no position.
    pub async fn position_at(&mut self, command: String) -> Result<Value, Failure> {
        let groups = self
            .exchange(&[command, "query position".to_string()])
            .await?;
        read_position(&groups[1]).map(|(p, _)| p)
    }

    /// The engine's `query position` and what a person may play there (`view_queries`),
    /// after the `position` command `command` (the engine is left there).
    pub async fn ask_position(&mut self, command: String) -> Result<(Value, ViewMoves), Failure> {
        let groups = self
            .exchange(&[command, "query position".to_string()])
            .await?;
        let position = answer(&groups[1])
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .ok_or_else(|| {
                Failure::new(
                    FaultKind::Protocol,
                    format!("no position for a view: {:?}", groups[1]),
                )
            })?;
        let node = Node::from_fields(
            position["node"].as_str().unwrap_or(""),
            position["to_act"].as_str(),
        );
        let queries = view_queries(node);
        let groups = if queries.is_empty() {
            Vec::new()
        } else {
            self.exchange(&queries).await?
        };
        Ok((position, read_view_moves(node, &groups)))
    }

    /// Who acted at each of `commands`' positions (`position` commands): the engine's
    /// node kind there.
    pub async fn actors(&mut self, commands: Vec<String>) -> Result<Vec<Actor>, Failure> {
        let mut cmds = Vec::with_capacity(2 * commands.len());
        for c in commands {
            cmds.push(c);
            cmds.push("query node".to_string());
        }
        let groups = self.exchange(&cmds).await?;
        Ok(groups
            .iter()
            .skip(1)
            .step_by(2)
            .map(|g| read_actor(g))
            .collect())
    }

    /// The outcomes and weights of the chance node at `command` (a `position` command),
    /// as `query chance` lists them. Error (the engine's fault): an answer not of its form.
    pub async fn chance_at(&mut self, command: String) -> Result<Vec<(String, u32)>, Failure> {
        let groups = self
            .exchange(&[command, "query chance".to_string()])
            .await?;
        answer(&groups[1])
            .and_then(|text| parse_chance(&text))
            .map_err(|e| Failure::new(FaultKind::Protocol, format!("query chance: {e}")))
    }

    /// The answer of `query fen` at `command` (the engine is left there); empty when the
    /// engine gives none.
    pub async fn fen_at(&mut self, command: String) -> Result<String, Failure> {
        let groups = self.exchange(&[command, "query fen".to_string()]).await?;
        Ok(answer(&groups[1]).unwrap_or_default())
    }
}
