//! Toy Nim with passes (`nim`, alternating), for the referee: take 1 to 3 stones (`t1`..`t3`)
//! or pass (`p`); whoever takes the last stone wins; 10 plies without a take draw; positions
//! repeat (window = plies since the last take), so the referee's threefold-repetition rule
//! applies. Position string `<stones> <f|s> <plies-since-take>`, start `15 f 0`. The fake
//! engine `tests/fixtures/referee/fake_engine.py` implements the same rules.

use super::text::{declaration, mix, parse_num, parse_side, side_char};
use quartet_core::declaration::{GameDeclaration, NodeKinds};
use quartet_core::game::{Action, EndReason, Game, MoveList, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

/// Toy Nim with passes (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    /// Stones left.
    pub stones: u32,
    /// Side to move.
    pub side: Player,
    /// Plies since the last take.
    pub since: u32,
}

/// A Nim move: take 1..=9 stones (only 1..=3 are ever legal) or pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NimMove {
    /// Take this many stones.
    Take(u8),
    /// Do nothing.
    Pass,
}

impl Game for Nim {
    type Move = NimMove;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }

    fn node(&self) -> Node {
        if self.stones == 0 {
            Node::Terminal(Outcome::Win(self.side.other()))
        } else if self.since >= 10 {
            Node::Terminal(Outcome::Draw)
        } else {
            Node::Turn(self.side)
        }
    }

    fn legal_moves(&self, p: Player, out: &mut MoveList<NimMove>) {
        out.clear();
        if self.node() != Node::Turn(p) {
            return;
        }
        for k in 1..=3u8 {
            if u32::from(k) <= self.stones {
                out.push(NimMove::Take(k));
            }
        }
        out.push(NimMove::Pass);
    }

    fn play(&mut self, m: NimMove) {
        match m {
            NimMove::Take(k) => {
                self.stones -= u32::from(k);
                self.since = 0;
            }
            NimMove::Pass => self.since += 1,
        }
        self.side = self.side.other();
    }

    fn hash(&self) -> u64 {
        mix(&[u64::from(self.stones), self.side.index() as u64])
    }

    fn repetition_window(&self) -> Option<u32> {
        Some(self.since)
    }
}

impl Notation for Nim {
    const DECLARATION: GameDeclaration = declaration(
        "nim",
        NodeKinds {
            turns: true,
            simultaneous: false,
            chance: None,
        },
    );

    fn start(_rules: &RuleOptions) -> Self {
        Nim {
            stones: 15,
            side: Player::First,
            since: 0,
        }
    }

    fn parse_position(text: &str, _rules: &RuleOptions) -> Result<Self, NotationError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [stones, side, since] = fields[..] else {
            return Err(NotationError::position(text, "expected 3 fields"));
        };
        Ok(Nim {
            stones: parse_num(text, stones, "stones")?,
            side: parse_side(text, side)?,
            since: parse_num(text, since, "counter")?,
        })
    }

    fn format_position(&self) -> String {
        format!("{} {} {}", self.stones, side_char(self.side), self.since)
    }

    fn parse_action(&self, token: &str) -> Result<Action<NimMove>, NotationError> {
        let m = match token.as_bytes() {
            [b'p'] => NimMove::Pass,
            [b't', d @ b'1'..=b'9'] => NimMove::Take(d - b'0'),
            _ => return Err(NotationError::syntax(token, "expected t1..t9 or p")),
        };
        if self.is_legal(Action::Single(m)) {
            Ok(Action::Single(m))
        } else {
            Err(NotationError::illegal(token, "not a legal move here"))
        }
    }

    fn format_move(&self, m: NimMove) -> String {
        match m {
            NimMove::Take(k) => format!("t{k}"),
            NimMove::Pass => "p".to_string(),
        }
    }

    fn diagram(&self) -> String {
        self.format_position()
    }

    fn describe(&self) -> quartet_core::notation::Description {
        quartet_core::notation::Description::new() // a toy: nothing to draw
    }
}
