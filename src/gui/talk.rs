//! A session's conversation with its engine: lines out and in (each relayed to the page's
//! console), commands fenced by `isready` so that every answer is matched to its command,
//! the engine's own description of the position, and stopping a search.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::engine::Event;
use super::flow::{Node, Side};
use super::session::Session;

/// How long a query or `isready` may take before the engine counts as hanging.
pub const QUERY_WAIT: Duration = Duration::from_secs(5);

/// What went wrong with the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// It exited, closed its output or could not be started.
    Crash,
    /// It did not answer in time.
    Hang,
    /// It played a token that is not among its own legal moves.
    Illegal,
    /// It answered something the GUI cannot use (no `query position`, bad JSON).
    Protocol,
}

impl FaultKind {
    /// The record's `Termination` tag when this fault ends a side's game.
    pub fn termination(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Hang => "stall",
            FaultKind::Illegal => "illegal move",
            FaultKind::Protocol => "crash",
        }
    }
}

/// An engine failure on its way to the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The kind.
    pub kind: FaultKind,
    /// The side the engine was playing for, when it was asked for a move.
    pub side: Option<Side>,
    /// What happened, for people.
    pub detail: String,
}

impl Failure {
    /// A failure of `kind`, the side filled in later.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Failure {
        Failure {
            kind,
            side: None,
            detail: detail.into(),
        }
    }
}

/// The engine's answers about the current position.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// `query position`, as the engine wrote it.
    pub position: Value,
    /// The node kind read from it.
    pub node: Node,
    /// `query legalmoves` at a side's move; at a chance node the outcomes of `chance`.
    pub legal: Vec<String>,
    /// `query chance` (chance nodes): every outcome with its weight; empty elsewhere.
    pub chance: Vec<(String, u32)>,
    /// `query legalmoves w` and `... b` (simultaneous nodes).
    pub legal_side: [Vec<String>; 2],
    /// The game (the engine's `Game` value) the position is of.
    pub game: String,
}

/// The answer of one fenced query: the text after `response`, or the error line.
pub fn answer(group: &[String]) -> Result<String, String> {
    if let Some(r) = group.iter().find_map(|l| {
        (l == "response")
            .then_some("")
            .or_else(|| l.strip_prefix("response "))
    }) {
        return Ok(r.trim().to_string());
    }
    match group.iter().find(|l| l.starts_with("info string error")) {
        Some(e) => Err(e.clone()),
        None => Err("no answer".to_string()),
    }
}

/// The legal move queries a node of this kind is drawn with: one list for a side to move
/// or roll, one per side at a simultaneous turn, none when the game is over.
pub fn legal_queries(node: Node) -> Vec<String> {
    match node {
        Node::Simultaneous => vec!["query legalmoves w".into(), "query legalmoves b".into()],
        Node::Over => vec![],
        Node::Chance(_) => vec!["query chance".into()],
        Node::Turn(_) => vec!["query legalmoves".into()],
    }
}

/// The outcomes of a `query chance` answer, `<token>:<weight>` separated by spaces
/// (protocol.md, `query`). An error names the first pair that is not a token and a weight.
pub fn parse_chance(text: &str) -> Result<Vec<(String, u32)>, String> {
    text.split_whitespace()
        .map(|pair| {
            pair.split_once(':')
                .and_then(|(t, w)| Some((t.to_string(), w.parse().ok()?)))
                .filter(|(t, _)| !t.is_empty())
                .ok_or_else(|| format!("'{pair}' is not <token>:<weight>"))
        })
        .collect()
}

/// The first error line of a fenced command's answer.
pub fn error_of(group: &[String]) -> Option<String> {
    group
        .iter()
        .find(|l| l.starts_with("info string error"))
        .cloned()
}

impl Session {
    /// Sends one line to the engine (and to the console).
    pub(super) async fn send_engine(&mut self, line: &str) -> Result<(), Failure> {
        self.console('>', line);
        let Some(engine) = self.io.engine.as_mut() else {
            return Err(Failure::new(FaultKind::Crash, "the engine is not running"));
        };
        engine
            .send(line)
            .await
            .map_err(|e| Failure::new(FaultKind::Crash, e))
    }

    /// The engine's next output line within `wait`. Error: it ended or stayed silent.
    pub(super) async fn next_line(&mut self, wait: Duration) -> Result<String, Failure> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let event = tokio::time::timeout_at(deadline, self.io.events.recv()).await;
            let Ok(Some((generation, event))) = event else {
                return Err(Failure::new(
                    FaultKind::Hang,
                    format!("no answer within {} ms", wait.as_millis()),
                ));
            };
            if Some(generation) != self.io.engine.as_ref().map(|e| e.generation) {
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
    pub(super) async fn crashed(&mut self) -> Failure {
        let status = match self.io.engine.as_mut() {
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
    pub(super) async fn exchange(&mut self, cmds: &[String]) -> Result<Vec<Vec<String>>, Failure> {
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

    /// Sets the engine to the game's position and reads its description and legal moves
    /// into `snap`. The inner error: the engine refused the position (nothing changed).
    /// The legal move queries the last position's node kind calls for are sent with the
    /// position, so that a move costs the engine one exchange, not two; a guess the new
    /// node kind proves wrong is followed by the right queries.
    pub(super) async fn refresh(&mut self) -> Result<Result<(), String>, Failure> {
        let guess = self.likely_legal_queries();
        let mut cmds = vec![
            self.lines.position_command(self.lines.moves.len()),
            "query position".to_string(),
        ];
        cmds.extend(guess.iter().cloned());
        let mut groups = self.exchange(&cmds).await?;
        if let Some(e) = error_of(&groups[0]) {
            return Ok(Err(e));
        }
        let protocol = |why: String| Failure::new(FaultKind::Protocol, why);
        let text = answer(&groups[1]).map_err(|e| protocol(format!("query position: {e}")))?;
        let position: Value = serde_json::from_str(&text)
            .map_err(|e| protocol(format!("query position is not JSON: {e}")))?;
        let node = Node::from_fields(
            position["node"].as_str().unwrap_or(""),
            position["to_act"].as_str(),
        )
        .ok_or_else(|| protocol("query position: no valid node and to_act".to_string()))?;
        let queries = legal_queries(node);
        let groups = if queries == guess {
            groups.split_off(2)
        } else {
            self.exchange(&queries).await?
        };
        let mut lists = Vec::new();
        for g in &groups {
            let list = answer(g).map_err(|e| protocol(format!("{}: {e}", queries[0])))?;
            lists.push(
                list.split_whitespace()
                    .map(String::from)
                    .collect::<Vec<_>>(),
            );
        }
        // At a chance node the one answer is `query chance`'s: the outcomes are the legal
        // tokens, and their weights are kept for the server's die.
        let chance = match node {
            Node::Chance(_) => parse_chance(&lists.concat().join(" "))
                .map_err(|e| protocol(format!("query chance: {e}")))?,
            _ => Vec::new(),
        };
        if let Node::Chance(_) = node {
            lists = vec![chance.iter().map(|(t, _)| t.clone()).collect()];
        }
        let mut lists = lists.into_iter();
        let (legal, legal_side) = match node {
            Node::Simultaneous => (
                Vec::new(),
                [
                    lists.next().unwrap_or_default(),
                    lists.next().unwrap_or_default(),
                ],
            ),
            _ => (lists.next().unwrap_or_default(), [Vec::new(), Vec::new()]),
        };
        // The position after each ply, for stepping back through the game (`view`).
        let n = self.lines.moves.len();
        self.lines.positions.truncate(n);
        self.lines.positions.resize(n, Value::Null);
        self.lines.positions.push(position.clone());
        self.snap = Some(Snapshot {
            position,
            node,
            legal,
            legal_side,
            chance,
            game: self.game.clone(),
        });
        Ok(Ok(()))
    }

    /// The legal move queries the next position most likely needs: those of the current
    /// position's node kind, when it is a position of this game still under way (a game
    /// keeps its kind of turns); none otherwise.
    fn likely_legal_queries(&self) -> Vec<String> {
        match &self.snap {
            Some(s) if s.node != Node::Over && s.game == self.game => legal_queries(s.node),
            _ => Vec::new(),
        }
    }

    /// The current position string, as the engine wrote it.
    pub(super) fn fen_now(&self) -> String {
        self.snap
            .as_ref()
            .and_then(|s| s.position["fen"].as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// Stops the running search, if any, and waits for its `bestmove` (passing its last
    /// `info` lines on), which is then dropped.
    pub(super) async fn stop_search(&mut self) -> Result<(), Failure> {
        let Some(search) = self.search.take() else {
            return Ok(());
        };
        let side = search.purpose.side();
        self.send_engine("stop").await?;
        let wait = self.config.margin + QUERY_WAIT;
        loop {
            let line = self.next_line(wait).await.map_err(|mut f| {
                f.detail = format!("no bestmove after stop: {}", f.detail);
                f
            })?;
            if line.starts_with("bestmove") {
                break;
            }
            self.forward_info(&line, &search.purpose).await;
        }
        if let (Some(s), Some(c)) = (side, self.clocks.as_mut()) {
            c.halt(s.index(), Instant::now());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn answers_and_errors_of_fenced_queries() {
        assert_eq!(
            answer(&lines(&["response a1a2 b1b2"])),
            Ok("a1a2 b1b2".into())
        );
        assert_eq!(answer(&lines(&["response"])), Ok(String::new()));
        // An error before a response (a side given outside Apocalypse): the response counts.
        assert_eq!(
            answer(&lines(&[
                "info string error: legalmoves: no sides",
                "response"
            ])),
            Ok(String::new())
        );
        assert_eq!(
            answer(&lines(&["info string error: query: expected ..."])),
            Err("info string error: query: expected ...".into())
        );
        assert_eq!(answer(&lines(&["info depth 1"])), Err("no answer".into()));
        assert_eq!(
            error_of(&lines(&["x", "info string error: y"])).as_deref(),
            Some("info string error: y")
        );
        assert_eq!(error_of(&lines(&["responsex"])), None);
    }

    #[test]
    fn legal_move_queries_per_node_kind() {
        // protocol.md: `legalmoves` for a side to move or roll, `legalmoves w|b` for each
        // side's declarations at a simultaneous turn; nothing is legal once the game is over.
        assert_eq!(legal_queries(Node::Turn(Side::P2)), ["query legalmoves"]);
        assert_eq!(legal_queries(Node::Chance(Side::P1)), ["query chance"]);
        assert_eq!(
            legal_queries(Node::Simultaneous),
            ["query legalmoves w", "query legalmoves b"]
        );
        assert!(legal_queries(Node::Over).is_empty());
    }

    #[test]
    fn chance_answers_are_tokens_with_weights() {
        assert_eq!(
            parse_chance("r1:1 r6:2"),
            Ok(vec![("r1".to_string(), 1), ("r6".to_string(), 2)])
        );
        assert_eq!(parse_chance(""), Ok(vec![]));
        for bad in ["r1", "r1:", ":1", "r1:-1", "r1:x"] {
            assert_eq!(
                parse_chance(bad),
                Err(format!("'{bad}' is not <token>:<weight>")),
                "{bad}"
            );
        }
    }
}
