//! Goofspiel: several simultaneous rounds, for the baselines' decoupled search.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// Goofspiel: both players hold the cards 1..=n (a move is a card's value minus one); in
/// round k (from 0) both play a card at once for the prize n - k, which the higher card
/// wins (a tie wins nothing). More prize points win the game.
#[derive(Clone, Debug)]
pub struct Goofspiel {
    n: u8,
    round: u8,
    hands: [u16; 2],
    points: [u8; 2],
}

impl Goofspiel {
    /// The game before the first round, with `n` (at most 16) cards each.
    pub fn new(n: u8) -> Goofspiel {
        let full = ((1u32 << n) - 1) as u16;
        Goofspiel {
            n,
            round: 0,
            hands: [full; 2],
            points: [0; 2],
        }
    }
}

impl Game for Goofspiel {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        if self.round < self.n {
            Node::Simultaneous
        } else {
            Node::Terminal(match self.points[0].cmp(&self.points[1]) {
                std::cmp::Ordering::Greater => Outcome::Win(Player::First),
                std::cmp::Ordering::Less => Outcome::Win(Player::Second),
                std::cmp::Ordering::Equal => Outcome::Draw,
            })
        }
    }
    fn legal_moves(&self, p: Player, out: &mut MoveList<u8>) {
        out.clear();
        if self.round < self.n {
            out.extend((0..self.n).filter(|&c| self.hands[p.index()] & (1 << c) != 0));
        }
    }
    fn play(&mut self, _: u8) {}
    fn play_joint(&mut self, a: u8, b: u8) {
        let prize = self.n - self.round;
        self.hands[0] &= !(1 << a);
        self.hands[1] &= !(1 << b);
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => self.points[0] += prize,
            std::cmp::Ordering::Less => self.points[1] += prize,
            std::cmp::Ordering::Equal => {}
        }
        self.round += 1;
    }
    fn hash(&self) -> u64 {
        u64::from(self.hands[0])
            | u64::from(self.hands[1]) << 16
            | u64::from(self.points[0]) << 32
            | u64::from(self.points[1]) << 40
    }
}

impl Evaluate for Goofspiel {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 16;
    fn evaluate(&self) -> i32 {
        (i32::from(self.points[0]) - i32::from(self.points[1])) * 100
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
