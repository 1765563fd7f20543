//! A choice before a die whose value only shows past the chance node.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// A choice before a die: the first player plays `SAFE` or `GAMBLE`. After `SAFE` the die
/// leads to a position worth +10 or +20 (weights 1 and 1), after `GAMBLE` to a win or a loss
/// with the weights given to [`Gamble::new`]. The static value of the chance node after
/// `GAMBLE` is +500 and after `SAFE` -500, so only looking past the die ranks them right.
/// After a +10/+20 position the second player's only move draws the game.
#[derive(Clone, Debug)]
pub struct Gamble {
    weights: (u32, u32),
    stage: Stage,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Start,
    Rolling(u8),
    Quiet(i32),
    Over(Outcome),
}

/// The first player's safe move.
pub const SAFE: u8 = 0;
/// The first player's gamble.
pub const GAMBLE: u8 = 1;

impl Gamble {
    /// The start; after `GAMBLE` the first player wins with weight `win` and loses with
    /// weight `loss`.
    pub fn new(win: u32, loss: u32) -> Gamble {
        Gamble {
            weights: (win, loss),
            stage: Stage::Start,
        }
    }
}

impl Game for Gamble {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        match self.stage {
            Stage::Start => Node::Turn(Player::First),
            Stage::Rolling(_) => Node::Chance,
            Stage::Quiet(_) => Node::Turn(Player::Second),
            Stage::Over(o) => Node::Terminal(o),
        }
    }
    fn legal_moves(&self, p: Player, out: &mut MoveList<u8>) {
        out.clear();
        match (self.stage, p) {
            (Stage::Start, Player::First) => out.extend([SAFE, GAMBLE]),
            (Stage::Quiet(_), Player::Second) => out.push(0),
            _ => {}
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        out.clear();
        match self.stage {
            Stage::Rolling(SAFE) => out.extend([(10, 1), (20, 1)]),
            Stage::Rolling(_) => out.extend([(30, self.weights.0), (31, self.weights.1)]),
            _ => {}
        }
    }
    fn play(&mut self, m: u8) {
        self.stage = match (self.stage, m) {
            (Stage::Start, m) => Stage::Rolling(m),
            (Stage::Rolling(_), 30) => Stage::Over(Outcome::Win(Player::First)),
            (Stage::Rolling(_), 31) => Stage::Over(Outcome::Win(Player::Second)),
            (Stage::Rolling(_), v) => Stage::Quiet(i32::from(v)),
            (_, _) => Stage::Over(Outcome::Draw),
        }
    }
    fn hash(&self) -> u64 {
        match self.stage {
            Stage::Start => 0,
            Stage::Rolling(m) => 1 + u64::from(m),
            Stage::Quiet(v) => 100 + v as u64,
            Stage::Over(_) => 1000,
        }
    }
}

impl Evaluate for Gamble {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 32;
    fn evaluate(&self) -> i32 {
        match self.stage {
            Stage::Rolling(SAFE) => -500,
            Stage::Rolling(_) => 500,
            Stage::Quiet(v) => v,
            _ => 0,
        }
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
