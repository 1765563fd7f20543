//! Moves (rules §1.7–§1.8) and their generation.
//!
//! A move is one path: `k` steps in a first direction, then `m = n − k` steps in a
//! perpendicular one (`m = 0` for a straight move). Generation walks the first leg square
//! by square (every square before the last must be empty, so the first occupied square
//! ends the walk), and at each possible corner tests the second leg against a ray mask.

use std::fmt;
use std::ops::ControlFlow;

use super::attacks::NEIGHBOUR;
use super::board::{Bitboard, RAY_LEN, Square, bit, ray_mask, square_name, step};
use super::die::Dir;
use super::piece::VALUE;
use super::{Duell, NO_SQUARE};
use crate::game::Player;

/// One move: a path of a piece from one square to another. Packed in 25 bits:
/// from (7), to (7), first direction (2), second direction (2), first-leg length `k` (3),
/// second-leg length `m` (3), and an L flag. A straight move has `k = n`, `m = 0`, second
/// direction 0 and no L flag, so every path has exactly one representation.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

impl Move {
    /// A straight move of `n` steps from `from` towards `d`, ending on `to`.
    #[inline]
    pub(super) const fn straight(from: Square, to: Square, d: Dir, n: u8) -> Move {
        Move(from as u32 | (to as u32) << 7 | (d as u32) << 14 | (n as u32) << 18)
    }

    /// An L move: `k` steps towards `d1`, then `m` steps towards `d2`, ending on `to`.
    #[inline]
    pub(super) const fn l_shaped(from: Square, to: Square, d1: Dir, k: u8, d2: Dir, m: u8) -> Move {
        Move(
            from as u32
                | (to as u32) << 7
                | (d1 as u32) << 14
                | (d2 as u32) << 16
                | (k as u32) << 18
                | (m as u32) << 21
                | 1 << 24,
        )
    }

    /// The square the piece leaves (0..72, a1 = 0, index `rank * 9 + file`).
    #[inline]
    pub const fn from(self) -> Square {
        (self.0 & 0x7f) as u8
    }

    /// The square the piece lands on.
    #[inline]
    pub const fn to(self) -> Square {
        ((self.0 >> 7) & 0x7f) as u8
    }

    /// The direction of the first (for a straight move, the only) leg.
    #[inline]
    pub const fn first_dir(self) -> Dir {
        Dir::from_index(((self.0 >> 14) & 3) as usize)
    }

    /// The direction of the second leg (meaningful for L moves only).
    #[inline]
    pub const fn second_dir(self) -> Dir {
        Dir::from_index(((self.0 >> 16) & 3) as usize)
    }

    /// Steps in the first leg (all steps for a straight move).
    #[inline]
    pub const fn first_len(self) -> u8 {
        ((self.0 >> 18) & 7) as u8
    }

    /// Steps in the second leg (0 for a straight move).
    #[inline]
    pub const fn second_len(self) -> u8 {
        ((self.0 >> 21) & 7) as u8
    }

    /// Whether the move turns once (and so carries a direction suffix in notation).
    #[inline]
    pub const fn is_l(self) -> bool {
        self.0 & (1 << 24) != 0
    }

    /// The notation suffix: the first leg's direction for an L move, none otherwise.
    pub const fn suffix(self) -> Option<Dir> {
        if self.is_l() {
            Some(self.first_dir())
        } else {
            None
        }
    }

    /// The squares entered before the last one (the corner included): they must be empty.
    pub fn passed_squares(self) -> Bitboard {
        let (from, d1, k) = (self.from(), self.first_dir(), self.first_len());
        if self.is_l() {
            let corner = step(from, d1, k);
            ray_mask(from, d1, k) | ray_mask(corner, self.second_dir(), self.second_len() - 1)
        } else {
            ray_mask(from, d1, k - 1)
        }
    }

    /// Canonical text of the move, e.g. `d1d7` or `a1e2n`. Needs no position.
    pub fn token(self) -> String {
        let mut s = square_name(self.from());
        s.push_str(&square_name(self.to()));
        if let Some(d) = self.suffix() {
            s.push(d.letter());
        }
        s
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.token())
    }
}

/// Calls `visit` for each path of a piece with value `n` on `from`, given all occupied
/// squares `occ` and the mover's own `own`, in a stable order: first direction N, S, E, W;
/// along it, the corners nearest first (perpendicular directions in index order), the
/// straight move last. Stops early when `visit` breaks.
#[inline(always)]
pub(super) fn for_each_path(
    from: Square,
    n: u8,
    occ: Bitboard,
    own: Bitboard,
    visit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for d1 in Dir::ALL {
        let reach = RAY_LEN[from as usize][d1 as usize].min(n);
        let mut corner = from;
        for k in 1..=reach {
            corner = step(corner, d1, 1);
            if k == n {
                if own & bit(corner) == 0 {
                    visit(Move::straight(from, corner, d1, n))?;
                }
                break;
            }
            if occ & bit(corner) != 0 {
                break;
            }
            let m = n - k;
            for d2 in d1.perpendicular() {
                if RAY_LEN[corner as usize][d2 as usize] >= m {
                    let to = step(corner, d2, m);
                    if occ & ray_mask(corner, d2, m - 1) == 0 && own & bit(to) == 0 {
                        visit(Move::l_shaped(from, to, d1, k, d2, m))?;
                    }
                }
            }
        }
    }
    ControlFlow::Continue(())
}

impl Duell {
    /// Calls `visit` for every move `side` could make if it were to move, ignoring whether
    /// the game is over, in a stable order (pieces by square, then [`for_each_path`]'s).
    #[inline(always)]
    pub(super) fn for_each_move_of(
        &self,
        side: Player,
        mut visit: impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let own = self.occ[side.index()];
        let occ = self.occ[0] | self.occ[1];
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as Square;
            rest &= rest - 1;
            let n = VALUE[self.board[from as usize] as usize];
            for_each_path(from, n, occ, own, &mut visit)?;
        }
        ControlFlow::Continue(())
    }

    /// [`Self::for_each_move_of`] for the side to move.
    #[inline(always)]
    pub(super) fn for_each_move(
        &self,
        visit: impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.for_each_move_of(self.side, visit)
    }

    /// The number of moves `side` would have if it were to move and the game were not over.
    #[inline]
    pub(super) fn count_moves_of(&self, side: Player) -> u64 {
        let mut count = 0;
        let _ = self.for_each_move_of(side, |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        count
    }

    /// Whether the side to move has at least one move (ignoring whether the game is over).
    /// First the cheap sufficient test: the key steps onto any neighbour without an own
    /// piece (true in almost every position); then a generation that stops at the first move.
    #[inline]
    pub(super) fn has_move(&self) -> bool {
        let own = self.occ[self.side.index()];
        let key = self.keys[self.side.index()];
        if key != NO_SQUARE
            && NEIGHBOUR[key as usize]
                .iter()
                .any(|&next| own & bit(next) == 0)
        {
            return true;
        }
        self.for_each_move(|_| ControlFlow::Break(())).is_break()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::duell::board::E1;

    /// Every path of a value-`n` piece on an empty board, by brute force over all step
    /// sequences of the rules' shape.
    fn brute_force_paths(from: Square, n: u8) -> Vec<(Square, Square, Option<Dir>)> {
        let mut out = Vec::new();
        let (f, r) = ((from % 9) as i32, (from / 9) as i32);
        let vec = |d: Dir| match d {
            Dir::North => (0, 1),
            Dir::South => (0, -1),
            Dir::East => (1, 0),
            Dir::West => (-1, 0),
        };
        for d1 in Dir::ALL {
            for k in 1..=n as i32 {
                let seconds: Vec<Option<Dir>> = if k == n as i32 {
                    vec![None]
                } else {
                    d1.perpendicular().iter().map(|&d| Some(d)).collect()
                };
                for d2 in seconds {
                    let (mut x, mut y) = (f, r);
                    let mut on_board = true;
                    for i in 0..n as i32 {
                        let d = if i < k { d1 } else { d2.unwrap() };
                        let (dx, dy) = vec(d);
                        x += dx;
                        y += dy;
                        on_board &= (0..9).contains(&x) && (0..8).contains(&y);
                    }
                    if on_board {
                        let to = (y * 9 + x) as Square;
                        out.push((from, to, d2.map(|_| d1)));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn paths_on_an_empty_board_match_brute_force() {
        for from in 0..72u8 {
            for n in 1..=6u8 {
                let mut got = Vec::new();
                let _ = for_each_path(from, n, bit(from), bit(from), &mut |m| {
                    got.push((m.from(), m.to(), m.suffix()));
                    ControlFlow::Continue(())
                });
                let mut want = brute_force_paths(from, n);
                got.sort_by_key(|&(a, b, c)| (a, b, c.map(|d| d as u8)));
                want.sort_by_key(|&(a, b, c)| (a, b, c.map(|d| d as u8)));
                assert_eq!(got, want, "from {} n {n}", square_name(from));
                assert!(got.len() <= 4 + 8 * (n as usize - 1));
            }
        }
        // In the middle of a big enough board all 4 + 8(n - 1) paths exist.
        let mut count = 0;
        let _ = for_each_path(super::super::board::square(4, 3), 3, 0, 0, &mut |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(count, 4 + 8 * 2);
    }

    #[test]
    fn has_move_agrees_with_counting_moves() {
        use crate::game::{Game, Node, RuleOptions};
        use crate::notation::Notation;
        use rand::{RngExt, SeedableRng};
        let parse = |t: &str| Duell::parse_position(t, &RuleOptions::default()).unwrap();
        // W10: the key is boxed in by its own dice, which cannot move either: no move.
        let boxed = parse("4BK4/9/9/9/9/B138/W62B137/WKW62B136 w 0 1");
        assert!(!boxed.has_move());
        // The same box, but the die on b1 shows 1 and steps onto c1 (Black): a move, though
        // the key has none.
        let die_moves = parse("4BK4/9/9/9/9/B138/W62B137/WKW12B136 w 0 1");
        assert!(die_moves.has_move());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut moves = crate::game::MoveList::new();
        for _ in 0..50 {
            let mut p = Duell::start(&RuleOptions::default());
            while let Node::Turn(side) = p.node() {
                assert_eq!(p.has_move(), p.count_moves_of(side) > 0);
                p.legal_moves(side, &mut moves);
                p.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }

    #[test]
    fn passed_squares_are_the_squares_before_the_last() {
        // a1e2n: a1 -> a2 (corner) -> b2 c2 d2 -> e2. Passed: a2 b2 c2 d2.
        let m = Move::l_shaped(0, 13, Dir::North, 1, Dir::East, 4);
        assert_eq!(m.passed_squares(), bit(9) | bit(10) | bit(11) | bit(12));
        // d1d7: passed d2..d6.
        let m = Move::straight(3, 57, Dir::North, 6);
        assert_eq!(
            m.passed_squares(),
            (1..6).map(|r| bit(3 + 9 * r)).sum::<u128>()
        );
        // The key's one step passes nothing.
        let m = Move::straight(E1, E1 + 9, Dir::North, 1);
        assert_eq!(m.passed_squares(), 0);
        assert_eq!(format!("{m:?}"), "e1e2");
    }
}
