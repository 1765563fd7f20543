//! One simultaneous turn too wide for a matrix (more joint turns than
//! `search::simultaneous::wide::WIDE_CELLS`): the double oracle's test games.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// Declarations per side: 1,100² joint turns, above 2^20.
pub const WIDE_SIZE: u16 = 1_100;

/// One simultaneous turn: both players declare a number below [`WIDE_SIZE`], then `rule`
/// judges the pair (first player's declaration first).
#[derive(Clone, Debug)]
pub struct Wide {
    rule: fn(u16, u16) -> Outcome,
    played: Option<(u16, u16)>,
}

/// Rock, paper, scissors by the declaration's remainder mod 3 (`(a - b) mod 3 = 1` wins):
/// the value is a draw, and every equilibrium gives each remainder probability 1/3.
pub fn wide_rock_paper_scissors() -> Wide {
    Wide {
        rule: |a, b| match (3 + a % 3 - b % 3) % 3 {
            0 => Outcome::Draw,
            1 => Outcome::Win(Player::First),
            _ => Outcome::Win(Player::Second),
        },
        played: None,
    }
}

/// Declaring the largest number (the last of each list) wins against any other
/// declaration; any other pair draws: the only equilibrium is both declaring it, the best
/// response to the first declaration and far from it.
pub fn wide_dominant() -> Wide {
    Wide {
        rule: |a, b| match (a == WIDE_SIZE - 1, b == WIDE_SIZE - 1) {
            (true, false) => Outcome::Win(Player::First),
            (false, true) => Outcome::Win(Player::Second),
            _ => Outcome::Draw,
        },
        played: None,
    }
}

/// Every pair of declarations draws: every declaration of each side ends the game at once
/// and never in its side's win.
pub fn wide_drawn() -> Wide {
    Wide {
        rule: |_, _| Outcome::Draw,
        played: None,
    }
}

impl Game for Wide {
    type Move = u16;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        match self.played {
            None => Node::Simultaneous,
            Some((a, b)) => Node::Terminal((self.rule)(a, b)),
        }
    }
    fn legal_moves(&self, _: Player, out: &mut MoveList<u16>) {
        out.clear();
        if self.played.is_none() {
            out.extend(0..WIDE_SIZE);
        }
    }
    fn play(&mut self, _: u16) {}
    fn play_joint(&mut self, a: u16, b: u16) {
        self.played = Some((a, b));
    }
    fn hash(&self) -> u64 {
        self.played
            .map_or(0, |(a, b)| 1 + u64::from(a) * 2048 + u64::from(b))
    }
}

impl Evaluate for Wide {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = WIDE_SIZE as usize;
    fn evaluate(&self) -> i32 {
        0
    }
    fn is_noisy(&self, _: u16) -> bool {
        false
    }
    fn order_hint(&self, _: u16) -> i32 {
        0
    }
    fn move_code(m: u16) -> u32 {
        u32::from(m)
    }
}
