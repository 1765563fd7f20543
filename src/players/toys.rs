//! Small games for testing the baseline players on node kinds the search toys lack:
//! one-shot simultaneous games, Goofspiel (several simultaneous rounds) and a gamble
//! behind a chance node. Test-only.

use crate::eval::Evaluate;
use crate::game::{Game, MoveList, Node, Outcome, Player};

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

    fn end_reason(&self) -> Option<crate::game::EndReason> {
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
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        out.clear();
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

    fn end_reason(&self) -> Option<crate::game::EndReason> {
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
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        out.clear();
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

    fn end_reason(&self) -> Option<crate::game::EndReason> {
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
    fn play_joint(&mut self, _: u8, _: u8) {}
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

    fn end_reason(&self) -> Option<crate::game::EndReason> {
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
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        out.clear();
    }
    fn play(&mut self, _: u8) {
        self.plies += 1;
    }
    fn play_joint(&mut self, _: u8, _: u8) {}
    fn hash(&self) -> u64 {
        u64::from(self.plies)
    }
}

impl Evaluate for Endless {
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
