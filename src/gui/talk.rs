//! A session's conversation with its engine, on `io::Io`: lines out and in (each relayed
//! to the page's console), commands fenced by `isready` so that every answer is matched to
//! its command, and the engine's own description of a position. Reading the answers is
//! plain functions, tested without an engine.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use super::engine::Event;
use super::flow::{Actor, Node, Side};
use super::io::Io;
use super::variations::ViewMoves;

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

/// The position of a fenced `query position` answer and the node kind it states.
/// Error (the engine's fault): no answer, not JSON, or no valid `node` and `to_act`.
pub fn read_position(group: &[String]) -> Result<(Value, Node), Failure> {
    let protocol = |why: String| Failure::new(FaultKind::Protocol, why);
    let text = answer(group).map_err(|e| protocol(format!("query position: {e}")))?;
    let position: Value = serde_json::from_str(&text)
        .map_err(|e| protocol(format!("query position is not JSON: {e}")))?;
    let node = Node::from_fields(
        position["node"].as_str().unwrap_or(""),
        position["to_act"].as_str(),
    )
    .ok_or_else(|| protocol("query position: no valid node and to_act".to_string()))?;
    Ok((position, node))
}

/// The snapshot of `position` (of node kind `node`, of `game`) from the answers to
/// `legal_queries(node)`: the legal tokens, each side's at a simultaneous turn, and at a
/// chance node the outcomes of `query chance` with their weights (the outcomes are then the
/// legal tokens). Error (the engine's fault): an answer missing or not of its form.
pub fn read_snapshot(
    position: Value,
    node: Node,
    groups: &[Vec<String>],
    game: &str,
) -> Result<Snapshot, Failure> {
    let protocol = |why: String| Failure::new(FaultKind::Protocol, why);
    let queries = legal_queries(node);
    let mut lists = Vec::new();
    for g in groups {
        let list = answer(g).map_err(|e| protocol(format!("{}: {e}", queries[0])))?;
        lists.push(
            list.split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>(),
        );
    }
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
    Ok(Snapshot {
        position,
        node,
        legal,
        legal_side,
        chance,
        game: game.to_string(),
    })
}

/// What a person may play at a position of node kind `node` (`None`: not known), from the
/// answers to `view_queries(node)`; an answer missing counts as no moves.
pub fn read_view_moves(node: Option<Node>, groups: &[Vec<String>]) -> ViewMoves {
    let mut lists = groups.iter().map(|g| {
        answer(g)
            .unwrap_or_default()
            .split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    });
    match node {
        Some(Node::Simultaneous) => ViewMoves {
            legal: Vec::new(),
            sides: [
                lists.next().unwrap_or_default(),
                lists.next().unwrap_or_default(),
            ],
        },
        _ => ViewMoves {
            legal: lists.next().unwrap_or_default(),
            ..ViewMoves::default()
        },
    }
}

/// The queries of what a person may play at a position looked at: `query legalmoves` at a
/// side's move or roll (a roll's outcomes), each side's at a simultaneous turn, none at the
/// end or at an unknown node.
pub fn view_queries(node: Option<Node>) -> Vec<String> {
    match node {
        Some(Node::Turn(_) | Node::Chance(_)) => vec!["query legalmoves".to_string()],
        Some(Node::Simultaneous) => legal_queries(Node::Simultaneous),
        _ => Vec::new(),
    }
}

/// Who acts at a position, from a fenced `query node` answer (`Unknown` when unreadable).
pub fn read_actor(group: &[String]) -> Actor {
    let a = answer(group).unwrap_or_default();
    let mut w = a.split_whitespace();
    let node = Node::from_fields(w.next().unwrap_or(""), w.next());
    node.map_or(Actor::Unknown, Actor::at)
}

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

    #[test]
    fn a_position_answer_names_its_node_or_is_a_protocol_fault() {
        let (p, node) = read_position(&lines(&[r#"response {"node":"turn","to_act":"p2"}"#]))
            .expect("a position");
        assert_eq!(
            (p["to_act"].as_str(), node),
            (Some("p2"), Node::Turn(Side::P2))
        );
        for bad in ["response {", r#"response {"node":"x"}"#, "info depth 1"] {
            let f = read_position(&lines(&[bad])).expect_err(bad);
            assert_eq!(f.kind, FaultKind::Protocol, "{bad}");
        }
    }

    #[test]
    fn a_snapshot_reads_the_lists_of_its_node_kind() {
        let p = serde_json::json!({"fen": "f"});
        let turn = read_snapshot(
            p.clone(),
            Node::Turn(Side::P1),
            &[lines(&["response a b"])],
            "g",
        )
        .expect("a turn");
        assert_eq!(
            (turn.legal, turn.game),
            (lines(&["a", "b"]), "g".to_string())
        );
        let both = [lines(&["response a"]), lines(&["response 0000 c"])];
        let sim = read_snapshot(p.clone(), Node::Simultaneous, &both, "g").expect("a turn");
        assert_eq!(sim.legal_side, [lines(&["a"]), lines(&["0000", "c"])]);
        assert!(sim.legal.is_empty());
        // A chance node's outcomes are its legal tokens, and their weights are kept.
        let roll = read_snapshot(
            p.clone(),
            Node::Chance(Side::P2),
            &[lines(&["response r1:1 r2:3"])],
            "g",
        )
        .expect("a roll");
        assert_eq!(roll.legal, lines(&["r1", "r2"]));
        assert_eq!(
            roll.chance,
            vec![("r1".to_string(), 1), ("r2".to_string(), 3)]
        );
        let bad = read_snapshot(p, Node::Chance(Side::P1), &[lines(&["response r1"])], "g");
        assert_eq!(bad.expect_err("no weight").kind, FaultKind::Protocol);
    }

    #[test]
    fn a_view_reads_what_a_person_may_play_there() {
        assert_eq!(
            view_queries(Some(Node::Chance(Side::P1))),
            ["query legalmoves"]
        );
        assert_eq!(view_queries(Some(Node::Simultaneous)).len(), 2);
        assert!(view_queries(Some(Node::Over)).is_empty() && view_queries(None).is_empty());
        let both = [lines(&["response a"]), lines(&["info string error: x"])];
        let sim = read_view_moves(Some(Node::Simultaneous), &both);
        assert_eq!(sim.sides, [lines(&["a"]), vec![]]);
        let turn = read_view_moves(Some(Node::Turn(Side::P1)), &[lines(&["response a b"])]);
        assert_eq!(turn.legal, lines(&["a", "b"]));
        assert_eq!(
            read_actor(&lines(&["response chance p2"])),
            Actor::at(Node::Chance(Side::P2))
        );
        assert_eq!(read_actor(&lines(&["response what"])), Actor::Unknown);
    }
}
