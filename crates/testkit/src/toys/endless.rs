//! A game that never ends, for budgets and playout limits.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Player};

/// A game that never ends: players alternate, each with the moves 0 and 1, and the static
/// value is always `EVAL`.
#[derive(Clone, Debug)]
pub struct Endless {
    /// Plies played so far.
    pub plies: u32,
}

impl Endless {
    /// The static value of every position.
    pub const EVAL: i32 = 200;
}

impl Game for Endless {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        Node::Turn(if self.plies.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        })
    }
    fn legal_moves(&self, _: Player, out: &mut MoveList<u8>) {
        out.clear();
        out.extend([0, 1]);
    }
    fn play(&mut self, _: u8) {
        self.plies += 1;
    }
    fn hash(&self) -> u64 {
        u64::from(self.plies)
    }
}

impl Evaluate for Endless {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 2;
    fn evaluate(&self) -> i32 {
        Endless::EVAL
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
