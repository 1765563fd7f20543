//! A dice race (`dice`, chance), for the referee: a race to 15. The side to move rolls
//! (`r1`..`r6`, equal weights), then chooses `a` (advance by the roll) or `b` (advance by 1).
//! After a 6 the same side rolls again. Position string `<first> <second> <f|s> <die|->`,
//! start `0 0 f -`. The fake engine `tests/fixtures/referee/fake_engine.py` implements the
//! same rules.

use super::text::{declaration, mix, parse_num, parse_side, side_char};
use quartet_core::declaration::{GameDeclaration, NodeKinds};
use quartet_core::game::{Action, EndReason, Game, MoveList, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

/// The dice race (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dice {
    /// Squares advanced by First and Second.
    pub pos: [u32; 2],
    /// Side to roll or move.
    pub side: Player,
    /// The pending roll, if the side has rolled.
    pub die: Option<u8>,
}

/// The race's target.
pub const DICE_TARGET: u32 = 15;

/// A dice-race move: a roll (chance outcome) or a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiceMove {
    /// The die shows this number.
    Roll(u8),
    /// Advance by the roll.
    Advance,
    /// Advance by one.
    Step,
}

impl Game for Dice {
    type Move = DiceMove;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }

    fn node(&self) -> Node {
        if self.pos[0] >= DICE_TARGET {
            Node::Terminal(Outcome::Win(Player::First))
        } else if self.pos[1] >= DICE_TARGET {
            Node::Terminal(Outcome::Win(Player::Second))
        } else if self.die.is_none() {
            Node::Chance
        } else {
            Node::Turn(self.side)
        }
    }

    fn legal_moves(&self, p: Player, out: &mut MoveList<DiceMove>) {
        out.clear();
        if self.node() == Node::Turn(p) {
            out.push(DiceMove::Advance);
            out.push(DiceMove::Step);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(DiceMove, u32)>) {
        out.clear();
        if self.node() == Node::Chance {
            out.extend((1..=6).map(|d| (DiceMove::Roll(d), 1)));
        }
    }

    fn play(&mut self, m: DiceMove) {
        let die = self.die.unwrap_or(1);
        match m {
            DiceMove::Roll(d) => {
                self.die = Some(d);
                return;
            }
            DiceMove::Advance => self.pos[self.side.index()] += u32::from(die),
            DiceMove::Step => self.pos[self.side.index()] += 1,
        }
        self.die = None;
        if die != 6 {
            self.side = self.side.other();
        }
    }

    fn hash(&self) -> u64 {
        mix(&[
            u64::from(self.pos[0]),
            u64::from(self.pos[1]),
            self.side.index() as u64,
            u64::from(self.die.unwrap_or(0)),
        ])
    }
}

impl Notation for Dice {
    const DECLARATION: GameDeclaration = declaration(
        "dice",
        NodeKinds {
            turns: true,
            simultaneous: false,
            chance: Some("roll the die first"),
        },
    );

    fn start(_rules: &RuleOptions) -> Self {
        Dice {
            pos: [0, 0],
            side: Player::First,
            die: None,
        }
    }

    fn parse_position(text: &str, _rules: &RuleOptions) -> Result<Self, NotationError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [a, b, side, die] = fields[..] else {
            return Err(NotationError::position(text, "expected 4 fields"));
        };
        let die = match die {
            "-" => None,
            d => Some(parse_num::<u8>(text, d, "die")?).filter(|d| (1..=6).contains(d)),
        };
        if fields[3] != "-" && die.is_none() {
            return Err(NotationError::position(text, "die must be 1..6 or -"));
        }
        Ok(Dice {
            pos: [parse_num(text, a, "square")?, parse_num(text, b, "square")?],
            side: parse_side(text, side)?,
            die,
        })
    }

    fn format_position(&self) -> String {
        let die = self.die.map_or("-".to_string(), |d| d.to_string());
        format!(
            "{} {} {} {die}",
            self.pos[0],
            self.pos[1],
            side_char(self.side)
        )
    }

    fn parse_action(&self, token: &str) -> Result<Action<DiceMove>, NotationError> {
        let m = match token.as_bytes() {
            [b'a'] => DiceMove::Advance,
            [b'b'] => DiceMove::Step,
            [b'r', d @ b'1'..=b'6'] => DiceMove::Roll(d - b'0'),
            _ => return Err(NotationError::syntax(token, "expected a, b or r1..r6")),
        };
        if self.is_legal(Action::Single(m)) {
            Ok(Action::Single(m))
        } else {
            Err(NotationError::illegal(token, "not playable here"))
        }
    }

    fn format_move(&self, m: DiceMove) -> String {
        match m {
            DiceMove::Roll(d) => format!("r{d}"),
            DiceMove::Advance => "a".to_string(),
            DiceMove::Step => "b".to_string(),
        }
    }

    fn diagram(&self) -> String {
        self.format_position()
    }

    fn describe(&self) -> quartet_core::notation::Description {
        quartet_core::notation::Description::new() // a toy: nothing to draw
    }
}
