//! Whose action a game awaits, from the engine's node kind, who plays each side and the
//! declarations already made; and how far a take-back goes. No rules: the node kind comes
//! from the engine (`query position`).

use serde::Serialize;

use super::request::Who;

/// A side: the first player (`p1`, `w` in `go ... side`) or the second (`p2`, `b`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first player.
    P1,
    /// The second player.
    P2,
}

impl Side {
    /// Both sides, first player first.
    pub const BOTH: [Side; 2] = [Side::P1, Side::P2];

    /// 0 for the first player, 1 for the second.
    pub fn index(self) -> usize {
        match self {
            Side::P1 => 0,
            Side::P2 => 1,
        }
    }

    /// The protocol's letter in `go ... side` and `query legalmoves`: `w` or `b`.
    pub fn letter(self) -> &'static str {
        match self {
            Side::P1 => "w",
            Side::P2 => "b",
        }
    }

    /// Reads `p1` or `p2`.
    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "p1" => Some(Side::P1),
            "p2" => Some(Side::P2),
            _ => None,
        }
    }
}

/// The kind of the current node, as the engine reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "side", rename_all = "lowercase")]
pub enum Node {
    /// A side to move.
    Turn(Side),
    /// A side to roll (Ludo).
    Chance(Side),
    /// Both sides declare (Apocalypse).
    Simultaneous,
    /// The game is over.
    Over,
}

impl Node {
    /// Reads the `node` and `to_act` fields of `query position`: `turn`/`chance` need a
    /// side, `simultaneous`/`over` none.
    pub fn from_fields(node: &str, to_act: Option<&str>) -> Option<Node> {
        let side = to_act.and_then(Side::parse);
        match (node, side) {
            ("turn", Some(s)) => Some(Node::Turn(s)),
            ("chance", Some(s)) => Some(Node::Chance(s)),
            ("simultaneous", _) => Some(Node::Simultaneous),
            ("over", _) => Some(Node::Over),
            _ => None,
        }
    }
}

/// Why a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "side", rename_all = "lowercase")]
pub enum Purpose {
    /// The engine's move for a side.
    Move(Side),
    /// The engine's declaration for a side (simultaneous turn).
    Declare(Side),
    /// Analysis of the position shown (for this side at a simultaneous turn).
    Analysis(Option<Side>),
}

impl Purpose {
    /// The side the engine plays for, when it is asked to act.
    pub fn side(self) -> Option<Side> {
        match self {
            Purpose::Move(s) | Purpose::Declare(s) => Some(s),
            Purpose::Analysis(_) => None,
        }
    }
}

/// Who acted for one token of the move list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "side", rename_all = "lowercase")]
pub enum Actor {
    /// A side's move.
    Move(Side),
    /// The dice, for a side's roll.
    Roll(Side),
    /// Both sides' declarations.
    Joint,
    /// Not known (a token of a loaded record the engine would not place).
    Unknown,
}

impl Actor {
    /// The actor of a token played at `node`.
    pub fn at(node: Node) -> Actor {
        match node {
            Node::Turn(s) => Actor::Move(s),
            Node::Chance(s) => Actor::Roll(s),
            Node::Simultaneous => Actor::Joint,
            Node::Over => Actor::Unknown,
        }
    }
}

/// What the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "side", rename_all = "snake_case")]
pub enum Next {
    /// Nothing: the game is over.
    Nothing,
    /// A person's move.
    HumanMove(Side),
    /// A person's roll.
    HumanRoll(Side),
    /// A person's secret declaration.
    HumanDeclare(Side),
    /// The engine's move.
    EngineMove(Side),
    /// The server rolls for the engine's side.
    EngineRoll(Side),
    /// The engine's declaration (`go ... side`).
    EngineDeclare(Side),
    /// Both have declared: reveal and resolve.
    Resolve,
}

/// What `node` waits for with these players, given which sides have declared. At a
/// simultaneous node people declare first (first player first), then the engine, so that
/// a person's declaration is never sent to an engine before that engine has declared.
pub fn next(node: Node, players: [Who; 2], declared: [bool; 2]) -> Next {
    let human = |s: Side| players[s.index()] == Who::Human;
    match node {
        Node::Over => Next::Nothing,
        Node::Turn(s) if human(s) => Next::HumanMove(s),
        Node::Turn(s) => Next::EngineMove(s),
        Node::Chance(s) if human(s) => Next::HumanRoll(s),
        Node::Chance(s) => Next::EngineRoll(s),
        Node::Simultaneous => {
            let waiting = |h: bool| {
                Side::BOTH
                    .into_iter()
                    .find(|s| !declared[s.index()] && human(*s) == h)
            };
            if let Some(s) = waiting(true) {
                Next::HumanDeclare(s)
            } else if let Some(s) = waiting(false) {
                Next::EngineDeclare(s)
            } else {
                Next::Resolve
            }
        }
    }
}

/// How many tokens a take-back removes from the end of a game whose tokens were played by
/// `actors`: back to before the last decision of a person (their roll stays: taking back
/// never re-rolls a die); with no person playing, the last decision. Rolls after it go
/// too. Zero when there is no such decision.
pub fn takeback_len(actors: &[Actor], players: [Who; 2]) -> usize {
    let nobody = players.iter().all(|w| *w == Who::Engine);
    let by_person = |a: &Actor| match a {
        Actor::Move(s) => nobody || players[s.index()] == Who::Human,
        Actor::Joint | Actor::Unknown => true,
        Actor::Roll(_) => false,
    };
    match actors.iter().rposition(by_person) {
        Some(i) => actors.len() - i,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Side::{P1, P2};
    use Who::{Engine, Human};

    #[test]
    fn nodes_from_position_fields() {
        assert_eq!(Node::from_fields("turn", Some("p2")), Some(Node::Turn(P2)));
        assert_eq!(
            Node::from_fields("chance", Some("p1")),
            Some(Node::Chance(P1))
        );
        assert_eq!(
            Node::from_fields("simultaneous", None),
            Some(Node::Simultaneous)
        );
        assert_eq!(Node::from_fields("over", None), Some(Node::Over));
        assert_eq!(Node::from_fields("turn", None), None);
        assert_eq!(Node::from_fields("dance", Some("p1")), None);
    }

    #[test]
    fn who_acts_next() {
        let he = [Human, Engine];
        assert_eq!(next(Node::Turn(P1), he, [false; 2]), Next::HumanMove(P1));
        assert_eq!(next(Node::Turn(P2), he, [false; 2]), Next::EngineMove(P2));
        assert_eq!(next(Node::Chance(P1), he, [false; 2]), Next::HumanRoll(P1));
        assert_eq!(next(Node::Chance(P2), he, [false; 2]), Next::EngineRoll(P2));
        assert_eq!(next(Node::Over, he, [false; 2]), Next::Nothing);
        // Simultaneous: people first, then the engine, then the reveal.
        let eh = [Engine, Human];
        assert_eq!(
            next(Node::Simultaneous, eh, [false, false]),
            Next::HumanDeclare(P2)
        );
        assert_eq!(
            next(Node::Simultaneous, eh, [false, true]),
            Next::EngineDeclare(P1)
        );
        assert_eq!(next(Node::Simultaneous, eh, [true, true]), Next::Resolve);
        let hh = [Human, Human];
        assert_eq!(
            next(Node::Simultaneous, hh, [false, false]),
            Next::HumanDeclare(P1)
        );
        assert_eq!(
            next(Node::Simultaneous, hh, [true, false]),
            Next::HumanDeclare(P2)
        );
        let ee = [Engine, Engine];
        assert_eq!(
            next(Node::Simultaneous, ee, [false, false]),
            Next::EngineDeclare(P1)
        );
    }

    #[test]
    fn takeback_to_before_a_persons_last_decision() {
        use Actor::{Joint, Move, Roll};
        let he = [Human, Engine];
        // Ludo: Red (person) rolled and moved, Yellow rolled and moved, Red rolled.
        let ludo = [Roll(P1), Move(P1), Roll(P2), Move(P2), Roll(P1)];
        assert_eq!(takeback_len(&ludo, he), 4);
        // Duell: the person's move and the engine's answer.
        assert_eq!(takeback_len(&[Move(P1), Move(P2)], he), 2);
        // The person plays second and has not moved yet: nothing to take back.
        assert_eq!(takeback_len(&[Move(P1)], [Engine, Human]), 0);
        assert_eq!(
            takeback_len(&[Move(P1), Move(P2), Move(P1)], [Engine, Human]),
            2
        );
        // Two people: one decision.
        assert_eq!(takeback_len(&[Move(P1), Move(P2)], [Human, Human]), 1);
        // Engines only: the last decision and the rolls after it.
        assert_eq!(
            takeback_len(&[Roll(P1), Move(P1), Roll(P2)], [Engine, Engine]),
            2
        );
        assert_eq!(takeback_len(&[Joint, Joint], he), 1);
        assert_eq!(takeback_len(&[], he), 0);
        assert_eq!(takeback_len(&[Roll(P1)], he), 0);
    }
}
