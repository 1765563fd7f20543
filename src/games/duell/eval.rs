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

use super::attacks::{DIR_PATHS, DIST, NEIGHBOUR, reaches};
use super::board::{E1, E8, SQUARES, Square, bit};
use super::movegen::Move;
use super::piece::{self, EMPTY, VALUE};
use super::{Duell, NO_SQUARE};
use crate::eval::{EVAL_LIMIT, Evaluate};
use crate::game::Player;

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

    /// Material, mobility, key pressure, shield and key race of `side` (positive is good
    /// for `side`).
    fn side_terms(&self, side: Player, total_dice: i32) -> i32 {
        let key = self.keys[side.index()];
        let enemy_key = self.keys[side.other().index()];
        let mut dice = self.occ[side.index()];
        if key != NO_SQUARE {
            dice &= !bit(key);
        }
        let mut material = 0;
        let mut mobility = 0;
        let mut pressure = 0;
        let mut rest = dice;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = VALUE[self.board[s] as usize] as usize;
            material += MATERIAL[s][n] as i32;
            let paths = &DIR_PATHS[s][n];
            for (d, &next) in NEIGHBOUR[s].iter().enumerate() {
                // Off the board `next` is `s`, an own piece: closed.
                let q = self.board[next as usize];
                let open = q == EMPTY || (n == 1 && piece::owner(q) != side);
                mobility += open as i32 * paths[d] as i32;
            }
            if enemy_key != NO_SQUARE {
                pressure += (7 - DIST[s][enemy_key as usize] as i32).max(0);
            }
        }
        let mut value = material + MOBILITY * mobility + KEY_PRESSURE * pressure;
        if key == NO_SQUARE {
            return value;
        }
        for &next in &NEIGHBOUR[key as usize] {
            value += KEY_SHIELD * (dice & bit(next) != 0) as i32;
        }
        let distance = DIST[key as usize][target_square(side) as usize] as i32;
        let race_weight = KEY_RACE_BASE + (16 - total_dice).max(0);
        value + (15 - distance) * race_weight
    }

    /// The static value from the side to move's view.
    fn relative_value(&self) -> i32 {
        let us = self.side;
        let them = us.other();
        if self.wins_next_move(us) {
            return WIN_NEXT_MOVE;
        }
        let dice = (self.occ[0] | self.occ[1]).count_ones() as i32 - 2;
        let mut value = self.side_terms(us, dice) - self.side_terms(them, dice);
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

impl Evaluate for Duell {
    const MOVE_CODES: usize = SQUARES * SQUARES * 5;

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
mod tests {
    use super::*;
    use crate::game::{Game, MoveList, RuleOptions};
    use crate::games::duell::die::Dir;
    use crate::notation::Notation;
    use rand::{RngExt, SeedableRng};

    fn pos(text: &str) -> Duell {
        Duell::parse_position(text, &RuleOptions::default()).unwrap()
    }

    /// The position turned 180° with the colours swapped: the same game for the other side.
    /// A die turned 180° keeps its top and shows its old south face to the north.
    fn rotated(p: &Duell) -> Duell {
        let mut out = Duell::empty();
        for s in 0..SQUARES as u8 {
            let q = p.board[s as usize];
            if q == EMPTY {
                continue;
            }
            let side = piece::owner(q).other();
            let r = (SQUARES as u8 - 1) - s;
            let moved = if piece::is_key(q) {
                piece::key(side)
            } else {
                let o = piece::kind(q);
                let o2 = super::super::die::orientation(
                    super::super::die::top(o),
                    7 - super::super::die::north(o),
                )
                .unwrap();
                piece::die(side, o2)
            };
            out.put(r, moved);
        }
        out.set_side(p.side.other());
        out
    }

    #[test]
    fn potential_counts_paths_on_an_empty_board() {
        // A key in the corner has 2 moves, on a edge 3, inside 4.
        assert_eq!(POTENTIAL[0][1], 2);
        assert_eq!(POTENTIAL[4][1], 3);
        assert_eq!(POTENTIAL[13][1], 4);
        // A 3 on e4 (4 squares to the west and east, 3 south, 4 north): all 4 + 8·2 paths.
        assert_eq!(POTENTIAL[3 * 9 + 4][3], 20);
    }

    #[test]
    fn the_start_position_is_balanced_up_to_the_tempo() {
        let start = Duell::start(&RuleOptions::default());
        assert_eq!(start.evaluate(), TEMPO);
        assert_eq!(rotated(&start), {
            let mut b = start.clone();
            b.set_side(Player::Second);
            b
        });
    }

    #[test]
    fn evaluation_is_symmetric_and_bounded_along_random_games() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut moves = MoveList::new();
        for _ in 0..40 {
            let mut p = Duell::start(&RuleOptions::default());
            for _ in 0..120 {
                let crate::game::Node::Turn(side) = p.node() else {
                    break;
                };
                let v = p.evaluate();
                assert!(v.abs() < EVAL_LIMIT);
                assert_eq!(rotated(&p).evaluate(), -v, "{}", p.format_position());
                p.legal_moves(side, &mut moves);
                for &m in &moves {
                    assert!((Duell::move_code(m) as usize) < Duell::MOVE_CODES);
                    assert_eq!(p.is_noisy(m), p.order_hint(m) > 0);
                }
                let codes: std::collections::HashSet<u32> =
                    moves.iter().map(|&m| Duell::move_code(m)).collect();
                assert_eq!(codes.len(), moves.len());
                p.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn a_missing_die_costs_about_a_die() {
        let full = pos("4BK4/9/9/4B314/4W324/9/9/4WK4 w 0 1");
        let less = pos("4BK4/9/9/9/4W324/9/9/4WK4 w 0 1");
        assert!(less.evaluate() - full.evaluate() > DIE / 2);
    }

    #[test]
    fn a_key_under_attack_is_seen() {
        // White to move can take the Black key with the die on e5 (north 3): decisive.
        let p = pos("4BK4/9/9/4W314/9/9/9/4WK4 w 0 1");
        assert_eq!(p.evaluate(), WIN_NEXT_MOVE);
        // The same with Black to move: Black is threatened but may flee.
        let q = pos("4BK4/9/9/4W314/9/9/9/4WK4 b 0 1");
        assert!(q.evaluate() > KEY_ATTACKER / 2);
        // A White key beside e8 with e8 free wins next move too.
        let r = pos("BK8/4WK4/9/9/9/9/9/9 w 0 1");
        assert_eq!(r.evaluate(), WIN_NEXT_MOVE);
    }

    #[test]
    fn noisy_moves_are_captures_and_key_square_wins() {
        let p = pos("BK2WKB134/9/9/9/9/9/9/9 w 0 1");
        let mut moves = MoveList::new();
        p.legal_moves(Player::First, &mut moves);
        let noisy: Vec<String> = moves
            .iter()
            .filter(|&&m| p.is_noisy(m))
            .map(|&m| m.token())
            .collect();
        assert_eq!(noisy, vec!["d8e8"]);
        let q = pos("4BK4/9/9/9/9/9/3WK5/9 w 0 1");
        q.legal_moves(Player::First, &mut moves);
        assert!(moves.iter().all(|&m| !q.is_noisy(m)));
    }

    #[test]
    fn move_codes_differ_for_the_two_paths_to_one_square() {
        let a = Move::l_shaped(30, 49, Dir::North, 2, Dir::East, 1);
        let b = Move::l_shaped(30, 49, Dir::East, 1, Dir::North, 2);
        assert_ne!(Duell::move_code(a), Duell::move_code(b));
        assert_eq!(
            Duell::move_code(Move::straight(71, 70, Dir::West, 1)) as usize,
            71 * 360 + 70 * 5
        );
    }
}
