//! Static evaluation and move-ordering knowledge for Duell.
//!
//! The value (White's view, in hundredths of an ordinary die) sums, per side:
//! - material: every die is worth [`DIE`], plus its *potential*: the number of paths a die
//!   has on an empty board from its square, half for its current top and half averaged over
//!   all six tops, because the top changes with every move (a die's worth lies more in
//!   where it stands than in the face it shows now);
//! - mobility: [`MOBILITY`] per path whose first step is open (an empty square, or for a
//!   die showing 1 a square without an own piece). This counts the legal moves exactly
//!   except for paths blocked further along, at a fraction of the cost of generating them;
//! - key danger: enemy pieces that can capture the own key next move (decisive when the
//!   attacker is to move, a serious threat otherwise), and own dice beside the own key, which
//!   close the squares an attacker must pass through last;
//! - key pressure: own dice near the enemy key (within 6 steps, more the nearer);
//! - the key race: how close the own key is to the enemy key square, weighted more as the
//!   board empties;
//! - a small bonus for the side to move.
//!
//! Nothing here generates moves: every term is a table lookup, a bitboard shift or a
//! path-mask test from `attacks.rs`.

use super::attacks::{DIR_PATHS, DIST, reaches};
use super::board::{E1, E8, NEIGHBOUR, SQUARES, Square, bit};
use super::movegen::Move;
use super::piece::{self, EMPTY, VALUE};
use super::{Duell, NO_SQUARE};
use crate::eval::{EVAL_LIMIT, Evaluate};
use crate::game::{MoveList, Player};

/// The base value of an ordinary die.
const DIE: i32 = 100;

/// When the side to move can take the enemy key (or step its key onto the enemy key square).
const WIN_NEXT_MOVE: i32 = 5_000;
/// Per enemy piece that can take the key of the side to move.
const KEY_ATTACKER: i32 = 150;
/// Per own die orthogonally beside the own key.
const KEY_SHIELD: i32 = 12;
/// Per step the own key is nearer the enemy key square than the far corner (15 steps),
/// at full board; grows by 1 per missing die.
const KEY_RACE_BASE: i32 = 2;
/// Per path with an open first step.
const MOBILITY: i32 = 2;
/// Per own die and per step it stands nearer the enemy key than 7 steps.
const KEY_PRESSURE: i32 = 2;
/// For the side to move.
const TEMPO: i32 = 10;

/// `POTENTIAL[s][n]`: paths of a value-`n` piece on `s` on an empty board.
const POTENTIAL: [[u8; 7]; SQUARES] = {
    let mut t = [[0u8; 7]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut n = 1;
        while n <= 6 {
            let d = DIR_PATHS[s][n];
            t[s][n] = d[0] + d[1] + d[2] + d[3];
            n += 1;
        }
        s += 1;
    }
    t
};

/// `MEAN_POTENTIAL[s]`: [`POTENTIAL`] of `s` summed over the six tops, divided by 6.
const MEAN_POTENTIAL: [u8; SQUARES] = {
    let mut t = [0u8; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut sum = 0u32;
        let mut n = 1;
        while n <= 6 {
            sum += POTENTIAL[s][n] as u32;
            n += 1;
        }
        t[s] = (sum / 6) as u8;
        s += 1;
    }
    t
};

/// `MATERIAL[s][n]`: a die with top `n` on `s` is worth [`DIE`] plus its potential: the
/// mean of its paths on an empty board with the current top and over all six tops.
static MATERIAL: [[i16; 7]; SQUARES] = {
    let mut t = [[0i16; 7]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut n = 1;
        while n <= 6 {
            t[s][n] = (DIE + (POTENTIAL[s][n] as i32 + MEAN_POTENTIAL[s] as i32) / 2) as i16;
            n += 1;
        }
        s += 1;
    }
    t
};

/// The other side's key square: the one `side`'s key wins on.
#[inline]
fn target_square(side: Player) -> Square {
    match side {
        Player::First => E8,
        Player::Second => E1,
    }
}

impl Duell {
    /// The number of `by`'s pieces that can land on `target` next move.
    fn attackers(&self, by: Player, target: Square) -> i32 {
        let occ = self.occ[0] | self.occ[1];
        let mut rest = self.occ[by.index()];
        let mut count = 0;
        while rest != 0 {
            let s = rest.trailing_zeros() as Square;
            rest &= rest - 1;
            let n = VALUE[self.board[s as usize] as usize];
            count += reaches(s, n, target, occ) as i32;
        }
        count
    }

    /// Whether `side`'s key stands beside the enemy key square with a way onto it.
    fn key_steps_home(&self, side: Player) -> bool {
        let key = self.keys[side.index()];
        let target = target_square(side);
        key != NO_SQUARE
            && DIST[key as usize][target as usize] == 1
            && self.occ[side.index()] & bit(target) == 0
    }

    /// Whether `side`, if it were to move, could win at once.
    fn wins_next_move(&self, side: Player) -> bool {
        let their_key = self.keys[side.other().index()];
        their_key != NO_SQUARE && (self.key_steps_home(side) || self.attackers(side, their_key) > 0)
    }

    /// The unweighted terms of `side` (see [`SideTerms`]).
    fn side_terms(&self, side: Player) -> SideTerms {
        let key = self.keys[side.index()];
        let enemy_key = self.keys[side.other().index()];
        let mut dice = self.occ[side.index()];
        if key != NO_SQUARE {
            dice &= !bit(key);
        }
        let mut t = SideTerms::default();
        let mut rest = dice;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = VALUE[self.board[s] as usize] as usize;
            t.material += MATERIAL[s][n] as i32;
            let paths = &DIR_PATHS[s][n];
            for (d, &next) in NEIGHBOUR[s].iter().enumerate() {
                // Off the board `next` is `s`, an own piece: closed.
                let q = self.board[next as usize];
                let open = q == EMPTY || (n == 1 && piece::owner(q) != side);
                t.mobility += open as i32 * paths[d] as i32;
            }
            if enemy_key != NO_SQUARE {
                t.pressure += (7 - DIST[s][enemy_key as usize] as i32).max(0);
            }
        }
        if key != NO_SQUARE {
            for &next in &NEIGHBOUR[key as usize] {
                t.shield += (dice & bit(next) != 0) as i32;
            }
            t.race = 15 - DIST[key as usize][target_square(side) as usize] as i32;
        }
        t
    }

    /// The static value from the side to move's view.
    fn relative_value(&self) -> i32 {
        let us = self.side;
        let them = us.other();
        if self.wins_next_move(us) {
            return WIN_NEXT_MOVE;
        }
        let dice = (self.occ[0] | self.occ[1]).count_ones() as i32 - 2;
        let race_weight = KEY_RACE_BASE + (16 - dice).max(0);
        let mut value =
            self.side_terms(us).weighted(race_weight) - self.side_terms(them).weighted(race_weight);
        let our_key = self.keys[us.index()];
        if our_key != NO_SQUARE {
            value -= KEY_ATTACKER * self.attackers(them, our_key);
        }
        if self.key_steps_home(them) {
            value -= KEY_ATTACKER;
        }
        value + TEMPO
    }
}

/// The evaluation terms of one side, unweighted (each grows with the side's advantage).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SideTerms {
    /// [`MATERIAL`] summed over the side's dice.
    material: i32,
    /// Paths of the side's dice whose first step is open (see the module documentation).
    mobility: i32,
    /// Per die within 6 steps of the enemy key: 7 minus that distance.
    pressure: i32,
    /// Own dice orthogonally beside the own key (0..=4).
    shield: i32,
    /// 15 minus the distance of the own key to the enemy key square (0 without a key).
    race: i32,
}

impl SideTerms {
    /// The weighted sum, with `race_weight` per step of [`SideTerms::race`].
    #[inline]
    fn weighted(&self, race_weight: i32) -> i32 {
        self.material
            + MOBILITY * self.mobility
            + KEY_PRESSURE * self.pressure
            + KEY_SHIELD * self.shield
            + race_weight * self.race
    }
}

impl Evaluate for Duell {
    const MOVE_CODES: usize = SQUARES * SQUARES * 5;

    fn noisy_moves(&self, p: Player, out: &mut MoveList<Move>) {
        self.generate_noisy(p, out);
    }

    fn evaluate(&self) -> i32 {
        let v = self.relative_value().clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1);
        v * self.side.sign()
    }

    fn is_noisy(&self, m: Move) -> bool {
        let us = self.side.index();
        self.occ[1 - us] & bit(m.to()) != 0
            || (m.from() == self.keys[us] && m.to() == target_square(self.side))
    }

    fn order_hint(&self, m: Move) -> i32 {
        let mover = self.board[m.from() as usize];
        let victim = self.board[m.to() as usize];
        let wins = (victim != EMPTY && piece::is_key(victim))
            || (piece::is_key(mover) && m.to() == target_square(self.side));
        if wins {
            return 10_000;
        }
        if victim == EMPTY {
            return 0;
        }
        // Most valuable victim first (a high top is more potential), then least valuable
        // attacker (a key capturing is riskiest, so it counts as the most valuable).
        let attacker = if piece::is_key(mover) {
            7
        } else {
            VALUE[mover as usize] as i32
        };
        1_000 + 16 * VALUE[victim as usize] as i32 - attacker
    }

    fn move_code(m: Move) -> u32 {
        let suffix = m.suffix().map_or(0, |d| 1 + d as u32);
        (m.from() as u32 * SQUARES as u32 + m.to() as u32) * 5 + suffix
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;
