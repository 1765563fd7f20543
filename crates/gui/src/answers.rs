//! Reading the engine's answers to fenced commands (each command followed by `isready`, so
//! a group is the lines printed before its `readyok`): a query's `response`, a command's
//! error line, `query position`, `query chance` and `query node`. Plain functions, tested
//! without an engine.

use serde_json::Value;

use super::fault::{Failure, FaultKind};
use super::flow::{Actor, Node};

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

/// The first error line of a fenced command's answer.
pub fn error_of(group: &[String]) -> Option<String> {
    group
        .iter()
        .find(|l| l.starts_with("info string error"))
        .cloned()
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

/// Who acts at a position, from a fenced `query node` answer (`Unknown` when unreadable).
pub fn read_actor(group: &[String]) -> Actor {
    let a = answer(group).unwrap_or_default();
    let mut w = a.split_whitespace();
    let node = Node::from_fields(w.next().unwrap_or(""), w.next());
    node.map_or(Actor::Unknown, Actor::at)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::flow::Side;

    /// An engine's answer lines, as the conversation collects them.
    pub(crate) fn lines(v: &[&str]) -> Vec<String> {
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
    fn an_actor_is_read_from_query_node() {
        assert_eq!(
            read_actor(&lines(&["response chance p2"])),
            Actor::at(Node::Chance(Side::P2))
        );
        assert_eq!(read_actor(&lines(&["response what"])), Actor::Unknown);
    }
}
