//! One simultaneous turn judged by a rule: matching pennies and a game with a dominant
//! declaration, for the matrix-game search and the baselines.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// One simultaneous turn: both players declare a number below `size`, then `rule` judges
/// the pair (first player's declaration first).
#[derive(Clone, Debug)]
pub struct OneShot {
    size: u8,
    rule: fn(u8, u8) -> Outcome,
    played: Option<(u8, u8)>,
}

/// Matching pennies: the first player wins on equal declarations, the second otherwise.
/// Its only equilibrium mixes both declarations 50/50.
pub fn matching_pennies() -> OneShot {
    OneShot {
        size: 2,
        rule: |a, b| {
            Outcome::Win(if a == b {
                Player::First
            } else {
                Player::Second
            })
        },
        played: None,
    }
}

/// Declarations 0, 1, 2; declaring 2 strictly dominates for both players: 2 against less
/// wins, 2 against 2 and less against less draw.
pub fn dominant() -> OneShot {
    OneShot {
        size: 3,
        rule: |a, b| match (a == 2, b == 2) {
            (true, false) => Outcome::Win(Player::First),
            (false, true) => Outcome::Win(Player::Second),
            _ => Outcome::Draw,
        },
        played: None,
    }
}

impl Game for OneShot {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        match self.played {
            None => Node::Simultaneous,
            Some((a, b)) => Node::Terminal((self.rule)(a, b)),
        }
    }
    fn legal_moves(&self, _: Player, out: &mut MoveList<u8>) {
        out.clear();
        if self.played.is_none() {
            out.extend(0..self.size);
        }
    }
    fn play(&mut self, _: u8) {}
    fn play_joint(&mut self, a: u8, b: u8) {
        self.played = Some((a, b));
    }
    fn hash(&self) -> u64 {
        self.played
            .map_or(0, |(a, b)| 1 + u64::from(a) * 16 + u64::from(b))
    }
}

impl Evaluate for OneShot {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 3;
    fn evaluate(&self) -> i32 {
        0
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
