//! Moves (rules §1.7–§1.8) and their generation.
//!
//! A move is one path: `k` steps in a first direction, then `m = n − k` steps in a
//! perpendicular one (`m = 0` for a straight move). Generation walks the first leg square
//! by square (every square before the last must be empty, so the first occupied square
//! ends the walk), and at each possible corner tests the second leg against a ray mask.

use std::fmt;
use std::ops::ControlFlow;

use super::board::{
    Bitboard, FILES, NEIGHBOUR, RANKS, RAY_LEN, Square, bit, file_of, rank_of, ray_mask,
    square_name, step,
};
use super::die::Dir;
use super::piece::VALUE;
use super::{Duell, NO_SQUARE};
use quartet_core::game::Player;

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

/// `BETWEEN[a][b]`: the bits strictly between `a` and `b` (both below 9), for either order.
static BETWEEN: [[u16; 9]; 9] = {
    let mut t = [[0u16; 9]; 9];
    let mut a = 0;
    while a < 9 {
        let mut b = 0;
        while b < 9 {
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let mut bit = lo + 1;
            while bit < hi {
                t[a][b] |= 1 << bit;
                bit += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// The occupancy of a position by lines, so that path tests are small-integer masks:
/// bit `f` of `rank[r]` and bit `r` of `file[f]` are set when square (`f`, `r`) is
/// occupied, bit `f` of `own_rank[r]` when the mover's piece stands there.
pub(super) struct Lines {
    rank: [u16; RANKS as usize],
    file: [u16; FILES as usize],
    own_rank: [u16; RANKS as usize],
}

impl Lines {
    /// The lines of the occupied squares `occ` and the mover's squares `own` (within `occ`).
    #[inline(always)]
    pub(super) fn new(occ: Bitboard, own: Bitboard) -> Lines {
        let mut lines = Lines {
            rank: [0; RANKS as usize],
            file: [0; FILES as usize],
            own_rank: [0; RANKS as usize],
        };
        for r in 0..RANKS as usize {
            lines.rank[r] = (occ >> (FILES as usize * r)) as u16 & 0x1ff;
            lines.own_rank[r] = (own >> (FILES as usize * r)) as u16 & 0x1ff;
        }
        let mut rest = occ;
        while rest != 0 {
            let s = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            lines.file[file_of(s) as usize] |= 1 << rank_of(s);
        }
        lines
    }
}

/// Calls `visit` for each path of a piece with value `n` on `from`, given the occupancy
/// `lines` (the mover's pieces marked own), in a stable order: first direction N, S, E, W;
/// along it, the corners nearest first (perpendicular directions in index order), the
/// straight move last. Stops early when `visit` breaks.
#[inline(always)]
pub(super) fn for_each_path(
    from: Square,
    n: u8,
    lines: &Lines,
    visit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let (x, y) = (file_of(from) as usize, rank_of(from) as usize);
    let at = |f: usize, r: usize| (r * FILES as usize + f) as Square;
    for d1 in Dir::ALL {
        let reach = RAY_LEN[from as usize][d1 as usize].min(n) as usize;
        let n = n as usize;
        for k in 1..=reach {
            let (cx, cy) = match d1 {
                Dir::North => (x, y + k),
                Dir::South => (x, y - k),
                Dir::East => (x + k, y),
                Dir::West => (x - k, y),
            };
            if k == n {
                if lines.own_rank[cy] >> cx & 1 == 0 {
                    visit(Move::straight(from, at(cx, cy), d1, n as u8))?;
                }
                break;
            }
            if lines.rank[cy] >> cx & 1 != 0 {
                break;
            }
            let m = n - k;
            let l_move = |tx: usize, ty: usize, d2: Dir| {
                Move::l_shaped(from, at(tx, ty), d1, k as u8, d2, m as u8)
            };
            if matches!(d1, Dir::North | Dir::South) {
                let (row, own) = (lines.rank[cy], lines.own_rank[cy]);
                let east = cx + m;
                if east < FILES as usize && row & BETWEEN[cx][east] == 0 && own >> east & 1 == 0 {
                    visit(l_move(east, cy, Dir::East))?;
                }
                if cx >= m && row & BETWEEN[cx][cx - m] == 0 && own >> (cx - m) & 1 == 0 {
                    visit(l_move(cx - m, cy, Dir::West))?;
                }
            } else {
                let column = lines.file[cx];
                let north = cy + m;
                if north < RANKS as usize
                    && column & BETWEEN[cy][north] == 0
                    && lines.own_rank[north] >> cx & 1 == 0
                {
                    visit(l_move(cx, north, Dir::North))?;
                }
                if cy >= m
                    && column & BETWEEN[cy][cy - m] == 0
                    && lines.own_rank[cy - m] >> cx & 1 == 0
                {
                    visit(l_move(cx, cy - m, Dir::South))?;
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
        let lines = Lines::new(self.occ[0] | self.occ[1], own);
        let mut rest = own;
        while rest != 0 {
            let from = rest.trailing_zeros() as Square;
            rest &= rest - 1;
            let n = VALUE[self.board[from as usize] as usize];
            for_each_path(from, n, &lines, &mut visit)?;
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
    use crate::duell::board::E1;

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
                let lines = Lines::new(bit(from), bit(from));
                let _ = for_each_path(from, n, &lines, &mut |m| {
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
        let _ = for_each_path(
            super::super::board::square(4, 3),
            3,
            &Lines::new(0, 0),
            &mut |_| {
                count += 1;
                ControlFlow::Continue(())
            },
        );
        assert_eq!(count, 4 + 8 * 2);
    }

    #[test]
    fn has_move_agrees_with_counting_moves() {
        use quartet_core::game::{Game, Node, RuleOptions};
        use quartet_core::notation::Notation;
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
        let mut moves = quartet_core::game::MoveList::new();
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
