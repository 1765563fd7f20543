//! A dice race (chance nodes between turns), for the search and the baselines.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// A dice race: a roll of 1, 2 or 3 (weights 1, 2, 1), then the player to move either
/// advances by the roll (move `0`) or pushes the opponent back by it (move `1`, not below
/// 0). Reaching `GOAL` wins. Players alternate after each move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceRace {
    at: [u8; 2],
    to_move: Player,
    roll: Option<u8>,
}

const GOAL: u8 = 7;
const ROLL: u8 = 100;

impl Default for DiceRace {
    fn default() -> Self {
        DiceRace::new()
    }
}

impl DiceRace {
    /// Both at 0, first player to roll.
    pub fn new() -> Self {
        DiceRace {
            at: [0, 0],
            to_move: Player::First,
            roll: None,
        }
    }
}

impl Game for DiceRace {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        if self.at[0] >= GOAL {
            Node::Terminal(Outcome::Win(Player::First))
        } else if self.at[1] >= GOAL {
            Node::Terminal(Outcome::Win(Player::Second))
        } else if self.roll.is_none() {
            Node::Chance
        } else {
            Node::Turn(self.to_move)
        }
    }
    fn legal_moves(&self, p: Player, out: &mut MoveList<u8>) {
        out.clear();
        if self.node() == Node::Turn(p) {
            out.extend([0, 1]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        out.clear();
        if self.node() == Node::Chance {
            out.extend([(ROLL + 1, 1), (ROLL + 2, 2), (ROLL + 3, 1)]);
        }
    }
    fn play(&mut self, m: u8) {
        if m >= ROLL {
            self.roll = Some(m - ROLL);
            return;
        }
        let d = self.roll.take().unwrap_or(0);
        let me = self.to_move.index();
        if m == 0 {
            self.at[me] += d;
        } else {
            self.at[1 - me] = self.at[1 - me].saturating_sub(d);
        }
        self.to_move = self.to_move.other();
    }
    fn hash(&self) -> u64 {
        u64::from(self.at[0])
            | u64::from(self.at[1]) << 8
            | (self.to_move.index() as u64) << 16
            | u64::from(self.roll.unwrap_or(0)) << 24
    }
}

impl Evaluate for DiceRace {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 2;
    fn evaluate(&self) -> i32 {
        (i32::from(self.at[0]) - i32::from(self.at[1])) * 37 + (self.hash() % 13) as i32
    }
    fn is_noisy(&self, m: u8) -> bool {
        m == 1
    }
    fn order_hint(&self, _: u8) -> i32 {
        0
    }
    fn move_code(m: u8) -> u32 {
        u32::from(m)
    }
}
