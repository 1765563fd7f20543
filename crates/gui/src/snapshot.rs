//! The engine's description of a position: which legal move queries a node kind is drawn
//! with (for the game's head, and for a position a person looks at), and the snapshot read
//! from their answers. Plain functions, tested without an engine.

use serde_json::Value;

use super::answers::{answer, parse_chance};
use super::fault::{Failure, FaultKind};
use super::flow::Node;
use super::variations::ViewMoves;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answers::tests::lines;
    use crate::flow::Side;

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
    }
}
