//! Matching pennies to 3 points (`pennies`, simultaneous), for the referee. Both declare `h`
//! or `t` at once (joint token `<first>/<second>`); equal halves score for First, different
//! ones for Second. Any other lower-case letter is a *void* declaration: it gives the
//! opponent the point (both void: nobody scores). 30 turns without a winner draw. Position
//! string `<first-points> <second-points> <turn>`, start `0 0 0`. The fake engine
//! `tests/fixtures/referee/fake_engine.py` implements the same rules.

use super::text::{declaration, mix, parse_num};
use quartet_core::declaration::{GameDeclaration, NodeKinds};
use quartet_core::game::{Action, EndReason, Game, MoveList, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

/// Matching pennies to 3 points (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pennies {
    /// Points of First and Second.
    pub points: [u32; 2],
    /// Turns played.
    pub turn: u32,
}

/// A declaration: a lower-case letter; only `h` and `t` are legal.
pub type Coin = u8;

impl Game for Pennies {
    type Move = Coin;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }

    fn node(&self) -> Node {
        if self.points[0] >= 3 {
            Node::Terminal(Outcome::Win(Player::First))
        } else if self.points[1] >= 3 {
            Node::Terminal(Outcome::Win(Player::Second))
        } else if self.turn >= 30 {
            Node::Terminal(Outcome::Draw)
        } else {
            Node::Simultaneous
        }
    }

    fn legal_moves(&self, _p: Player, out: &mut MoveList<Coin>) {
        out.clear();
        if self.node() == Node::Simultaneous {
            out.extend([b'h', b't']);
        }
    }

    fn play(&mut self, _m: Coin) {}

    fn play_joint(&mut self, first: Coin, second: Coin) {
        let legal = |c: Coin| c == b'h' || c == b't';
        match (legal(first), legal(second)) {
            (true, true) if first == second => self.points[0] += 1,
            (true, true) => self.points[1] += 1,
            (false, true) => self.points[1] += 1,
            (true, false) => self.points[0] += 1,
            (false, false) => {}
        }
        self.turn += 1;
    }

    fn hash(&self) -> u64 {
        mix(&[
            u64::from(self.points[0]),
            u64::from(self.points[1]),
            u64::from(self.turn),
        ])
    }

    fn is_legal(&self, action: Action<Coin>) -> bool {
        let letter = |c: Coin| c.is_ascii_lowercase();
        match action {
            Action::Joint(a, b) => self.node() == Node::Simultaneous && letter(a) && letter(b),
            Action::Single(_) => false,
        }
    }
}

impl Notation for Pennies {
    const DECLARATION: GameDeclaration = declaration(
        "pennies",
        NodeKinds {
            turns: false,
            simultaneous: true,
            chance: None,
        },
    );

    fn start(_rules: &RuleOptions) -> Self {
        Pennies {
            points: [0, 0],
            turn: 0,
        }
    }

    fn parse_position(text: &str, _rules: &RuleOptions) -> Result<Self, NotationError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [a, b, turn] = fields[..] else {
            return Err(NotationError::position(text, "expected 3 fields"));
        };
        Ok(Pennies {
            points: [parse_num(text, a, "points")?, parse_num(text, b, "points")?],
            turn: parse_num(text, turn, "turn")?,
        })
    }

    fn format_position(&self) -> String {
        format!("{} {} {}", self.points[0], self.points[1], self.turn)
    }

    fn parse_action(&self, token: &str) -> Result<Action<Coin>, NotationError> {
        let action = match token.as_bytes() {
            [a, b'/', b] if a.is_ascii_lowercase() && b.is_ascii_lowercase() => {
                Action::Joint(*a, *b)
            }
            _ => return Err(NotationError::syntax(token, "expected <letter>/<letter>")),
        };
        if self.is_legal(action) {
            Ok(action)
        } else {
            Err(NotationError::illegal(token, "the game is over"))
        }
    }

    fn format_move(&self, m: Coin) -> String {
        char::from(m).to_string()
    }

    fn diagram(&self) -> String {
        self.format_position()
    }

    fn describe(&self) -> quartet_core::notation::Description {
        quartet_core::notation::Description::new() // a toy: nothing to draw
    }
}
