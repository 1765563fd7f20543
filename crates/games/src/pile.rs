//! Toy Pile (`pile`), a fifth game the registry lists in the test build only: one pile of
//! stones, each side in turn takes 1 to 3 (`t1`..`t3`), whoever takes the last stone wins.
//! Position string `<stones> <f|s>`, start `10 f`. It has what every real game has (an end
//! reason, a declaration with a bench, a notation, an evaluation) in one file, so that the
//! engine layer's tests (`fifth_game_tests.rs`) can show what a new game needs beyond its
//! own code: its line in the registry, and nothing else for the engine and the protocol.

use quartet_core::declaration::{BenchSpec, EndExample, EndReason, GameDeclaration};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Game, MoveList, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

/// The one end of a game of Pile.
pub const LAST_STONE: EndReason = EndReason {
    token: "last-stone",
    words: "the last stone was taken",
    example: Some(EndExample {
        source: "the module documentation: the second player takes the last 3 stones",
        position: "3 s",
        moves: "t3",
    }),
};

/// A position of Pile (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pile {
    /// Stones left.
    pub stones: u8,
    /// Side to move.
    pub side: Player,
}

impl Game for Pile {
    /// The number of stones taken.
    type Move = u8;

    fn node(&self) -> Node {
        if self.stones == 0 {
            Node::Terminal(Outcome::Win(self.side.other()))
        } else {
            Node::Turn(self.side)
        }
    }

    fn end_reason(&self) -> Option<EndReason> {
        (self.stones == 0).then_some(LAST_STONE)
    }

    fn legal_moves(&self, p: Player, out: &mut MoveList<u8>) {
        out.clear();
        if self.node() == Node::Turn(p) {
            out.extend((1..=3).filter(|&k| k <= self.stones));
        }
    }

    fn play(&mut self, m: u8) {
        self.stones = self.stones.saturating_sub(m);
        self.side = self.side.other();
    }

    fn hash(&self) -> u64 {
        (u64::from(self.stones) << 1 | self.side.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

impl Notation for Pile {
    const DECLARATION: GameDeclaration = GameDeclaration {
        name: "pile",
        title: "Pile",
        end_reasons: &[LAST_STONE],
        draws: false,
        bench: BenchSpec {
            depth: 4,
            perft_depth: 4,
            positions: &["10 f"],
            signature: 60,
        },
        ..GameDeclaration::DEFAULT
    };

    fn start(_rules: &RuleOptions) -> Self {
        Pile {
            stones: 10,
            side: Player::First,
        }
    }

    fn parse_position(text: &str, _rules: &RuleOptions) -> Result<Self, NotationError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [stones, side] = fields[..] else {
            return Err(NotationError::position(text, "expected 2 fields"));
        };
        let stones = stones
            .parse()
            .map_err(|_| NotationError::position(text, "bad stones"))?;
        let side = match side {
            "f" => Player::First,
            "s" => Player::Second,
            _ => return Err(NotationError::position(text, "side must be f or s")),
        };
        Ok(Pile { stones, side })
    }

    fn format_position(&self) -> String {
        let side = if self.side == Player::First { "f" } else { "s" };
        format!("{} {side}", self.stones)
    }

    fn parse_action(&self, token: &str) -> Result<Action<u8>, NotationError> {
        let m = match token.as_bytes() {
            [b't', d @ b'1'..=b'3'] => d - b'0',
            _ => return Err(NotationError::syntax(token, "expected t1..t3")),
        };
        if self.is_legal(Action::Single(m)) {
            Ok(Action::Single(m))
        } else {
            Err(NotationError::illegal(token, "not a legal move here"))
        }
    }

    fn format_move(&self, m: u8) -> String {
        format!("t{m}")
    }

    fn diagram(&self) -> String {
        self.format_position()
    }

    fn describe(&self) -> quartet_core::notation::Description {
        quartet_core::notation::Description::new() // a toy: nothing to draw
    }
}

impl Evaluate for Pile {
    /// The skill noise scale: a toy's, any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 4;

    /// A multiple of 4 stones loses for the side to move (with best play): -100 for it.
    fn evaluate(&self) -> i32 {
        let mover = if self.stones.is_multiple_of(4) {
            -100
        } else {
            100
        };
        self.side.sign() * mover
    }

    fn is_noisy(&self, _: u8) -> bool {
        false
    }

    fn order_hint(&self, _: u8) -> i32 {
        0
    }

    fn move_code(m: u8) -> u32 {
        u32::from(m)
    }
}
