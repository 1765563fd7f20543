//! Attack geometry for the evaluation: Manhattan distances, the ring of squares a piece of
//! value `n` can land on, the (at most two) paths from one square to another, and how many
//! paths a die has per first direction on an empty board.
//!
//! A piece of value `n` moves exactly `n` orthogonal steps with at most one turn (rules
//! §1.7), so it lands exactly on the squares at Manhattan distance `n`, and each such square
//! is reached by one straight path or by two L paths (vertical leg first or horizontal leg
//! first). Testing "can this piece land there" is thus a distance compare plus one or two
//! mask tests, without generating moves.

use super::Duell;
use super::board::{
    Bitboard, E1, E8, FILES, RANKS, SQUARES, Square, bit, file_of, rank_of, ray_mask, step,
};
use super::die::Dir;
use super::movegen::Move;
use super::piece::VALUE;
use quartet_core::game::{MoveList, Player};

/// `DIST[a][b]`: the Manhattan distance between squares `a` and `b` (0..=15).
pub static DIST: [[u8; SQUARES]; SQUARES] = {
    let mut t = [[0u8; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut b = 0;
        while b < SQUARES {
            let dx = (file_of(a as u8) as i32 - file_of(b as u8) as i32).abs();
            let dy = (rank_of(a as u8) as i32 - rank_of(b as u8) as i32).abs();
            t[a][b] = (dx + dy) as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// Whether file `x` and rank `y` lie on the board.
const fn on_board(x: i32, y: i32) -> bool {
    x >= 0 && x < FILES as i32 && y >= 0 && y < RANKS as i32
}

/// `DIR_PATHS[s][n][d]`: the paths of a value-`n` piece on `s` whose first step goes
/// towards `d`, on an empty board (the straight path and the L paths turning after
/// `k = 1..n−1` steps to either side).
pub static DIR_PATHS: [[[u8; 4]; 7]; SQUARES] = {
    let mut t = [[[0u8; 4]; 7]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let (f, r) = (file_of(s as u8) as i32, rank_of(s as u8) as i32);
        let mut n = 1;
        while n <= 6 {
            let mut d = 0;
            while d < 4 {
                // Unit vectors of the first direction and of the two perpendicular ones.
                let (dx, dy) = [(0, 1), (0, -1), (1, 0), (-1, 0)][d];
                let (px, py) = (dy, dx);
                let mut count = 0;
                let mut k = 1;
                while k <= n {
                    let (cx, cy) = (f + dx * k, r + dy * k);
                    if !on_board(cx, cy) {
                        break;
                    }
                    let m = n - k;
                    if m == 0 {
                        count += 1;
                    } else {
                        count += on_board(cx + px * m, cy + py * m) as u8;
                        count += on_board(cx - px * m, cy - py * m) as u8;
                    }
                    k += 1;
                }
                t[s][n as usize][d] = count;
                d += 1;
            }
            n += 1;
        }
        s += 1;
    }
    t
};

/// The vertical and horizontal directions and leg lengths from `from` to `to`.
#[inline]
fn legs(from: Square, to: Square) -> (Dir, u8, Dir, u8) {
    let (fx, fy) = (file_of(from), rank_of(from));
    let (tx, ty) = (file_of(to), rank_of(to));
    let (v, vl) = if ty >= fy {
        (Dir::North, ty - fy)
    } else {
        (Dir::South, fy - ty)
    };
    let (h, hl) = if tx >= fx {
        (Dir::East, tx - fx)
    } else {
        (Dir::West, fx - tx)
    };
    (v, vl, h, hl)
}

/// The squares an L path passes (corner included, `to` excluded): `a` steps towards `d1`,
/// then `b ≥ 1` steps towards `d2`.
#[inline]
fn l_passed(from: Square, d1: Dir, a: u8, d2: Dir, b: u8) -> Bitboard {
    ray_mask(from, d1, a) | ray_mask(step(from, d1, a), d2, b - 1)
}

/// Whether a piece of value `n` on `from` can land on `to` next move, given the occupied
/// squares `occ` (what stands on `to` and on `from` is not looked at).
#[inline]
pub fn reaches(from: Square, n: u8, to: Square, occ: Bitboard) -> bool {
    if DIST[from as usize][to as usize] != n {
        return false;
    }
    let (v, vl, h, hl) = legs(from, to);
    if hl == 0 {
        ray_mask(from, v, vl - 1) & occ == 0
    } else if vl == 0 {
        ray_mask(from, h, hl - 1) & occ == 0
    } else {
        l_passed(from, v, vl, h, hl) & occ == 0 || l_passed(from, h, hl, v, vl) & occ == 0
    }
}

/// Calls `visit` for each path of a value-`DIST[from][to]` piece from `from` to `to`
/// that is clear in `occ`: the straight path, or the vertical-first then the
/// horizontal-first L path.
#[inline]
pub fn for_each_path_to(from: Square, to: Square, occ: Bitboard, mut visit: impl FnMut(Move)) {
    let (v, vl, h, hl) = legs(from, to);
    if hl == 0 || vl == 0 {
        let (d, n) = if hl == 0 { (v, vl) } else { (h, hl) };
        if n > 0 && ray_mask(from, d, n - 1) & occ == 0 {
            visit(Move::straight(from, to, d, n));
        }
        return;
    }
    if l_passed(from, v, vl, h, hl) & occ == 0 {
        visit(Move::l_shaped(from, to, v, vl, h, hl));
    }
    if l_passed(from, h, hl, v, vl) & occ == 0 {
        visit(Move::l_shaped(from, to, h, hl, v, vl));
    }
}

impl Duell {
    /// Clears `out` and fills it with the noisy moves of `p`: exactly the legal moves that
    /// `Evaluate::is_noisy` accepts (captures, and the key stepping onto an empty enemy key
    /// square), in a stable order: captures by moving piece, then target square (both
    /// ascending), the straight or vertical-first path before the horizontal-first one;
    /// the key-square step last. Empty when `p` is not to move or the game is decided.
    /// Costs a distance test per (own piece, enemy piece) pair instead of a full move
    /// generation, for quiescence search.
    pub fn generate_noisy(&self, p: Player, out: &mut MoveList<Move>) {
        out.clear();
        if p != self.side || self.decided().is_some() {
            return;
        }
        let occ = self.occ[0] | self.occ[1];
        let enemy = self.occ[p.other().index()];
        let mut rest = self.occ[p.index()];
        while rest != 0 {
            let from = rest.trailing_zeros() as Square;
            rest &= rest - 1;
            let n = VALUE[self.board[from as usize] as usize];
            let mut targets = enemy;
            while targets != 0 {
                let to = targets.trailing_zeros() as Square;
                targets &= targets - 1;
                if DIST[from as usize][to as usize] == n {
                    for_each_path_to(from, to, occ, |m| out.push(m));
                }
            }
        }
        let key = self.keys[p.index()];
        let target = match p {
            Player::First => E8,
            Player::Second => E1,
        };
        if key != super::NO_SQUARE
            && DIST[key as usize][target as usize] == 1
            && occ & bit(target) == 0
        {
            for_each_path_to(key, target, occ, |m| out.push(m));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duell::board::square;
    use crate::duell::movegen::{Lines, for_each_path};
    use std::ops::ControlFlow;

    #[test]
    fn noisy_moves_are_the_legal_moves_that_is_noisy_accepts() {
        use quartet_core::eval::Evaluate;
        use quartet_core::game::{Game, Node, RuleOptions};
        use quartet_core::notation::Notation;
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let (mut all, mut noisy) = (MoveList::new(), MoveList::new());
        let mut seen_noisy = 0;
        for _ in 0..60 {
            let mut p = Duell::start(&RuleOptions::default());
            while let Node::Turn(side) = p.node() {
                p.legal_moves(side, &mut all);
                p.generate_noisy(side, &mut noisy);
                let mut want: Vec<Move> = all.iter().copied().filter(|&m| p.is_noisy(m)).collect();
                let mut got = noisy.to_vec();
                seen_noisy += got.len();
                want.sort_by_key(|&m| Duell::move_code(m));
                got.sort_by_key(|&m| Duell::move_code(m));
                assert_eq!(got, want, "{}", p.format_position());
                p.generate_noisy(side.other(), &mut noisy);
                assert!(noisy.is_empty());
                p.play(all[rng.random_range(0..all.len())]);
            }
            p.generate_noisy(p.side, &mut noisy);
            assert!(noisy.is_empty(), "decided: {}", p.format_position());
        }
        assert!(seen_noisy > 1000, "{seen_noisy}");
        // W7: the key's step onto the empty e8 is noisy (it wins), as is d8e8 capturing.
        let p =
            Duell::parse_position("4BK4/4WK4/9/9/9/9/9/9 w 0 1", &RuleOptions::default()).unwrap();
        p.generate_noisy(Player::First, &mut noisy);
        assert_eq!(format!("{noisy:?}"), "[e7e8]");
        let q = Duell::parse_position("BK2WKB134/9/9/9/9/9/9/9 w 0 1", &RuleOptions::default())
            .unwrap();
        q.generate_noisy(Player::First, &mut noisy);
        assert_eq!(format!("{noisy:?}"), "[d8e8]");
        let r =
            Duell::parse_position("4BK4/8WK/9/9/9/9/9/9 w 0 1", &RuleOptions::default()).unwrap();
        r.generate_noisy(Player::First, &mut noisy);
        assert!(noisy.is_empty());
    }

    #[test]
    fn distances_are_manhattan() {
        // a1 to i8: 8 files + 7 ranks.
        assert_eq!(DIST[0][71], 15);
        assert_eq!(DIST[square(4, 0) as usize][square(4, 7) as usize], 7);
        assert_eq!(DIST[square(3, 3) as usize][square(5, 6) as usize], 5);
        assert_eq!(DIST[10][10], 0);
    }

    /// Every move generated from `from` (value `n`) in `occ` lands where `reaches` says,
    /// and `for_each_path_to` lists exactly the generated paths to each square.
    fn check_against_movegen(from: Square, n: u8, occ: Bitboard) {
        let mut generated = Vec::new();
        let _ = for_each_path(from, n, &Lines::new(occ, bit(from)), &mut |m| {
            generated.push(m);
            ControlFlow::Continue(())
        });
        for to in 0..SQUARES as u8 {
            let mut want: Vec<Move> = generated.iter().copied().filter(|m| m.to() == to).collect();
            let mut got = Vec::new();
            if DIST[from as usize][to as usize] == n {
                for_each_path_to(from, to, occ, |m| got.push(m));
            }
            want.sort_by_key(|m| format!("{m:?}"));
            got.sort_by_key(|m| format!("{m:?}"));
            assert_eq!(got, want, "from {from} n{n} to {to}");
            assert_eq!(
                reaches(from, n, to, occ),
                !want.is_empty(),
                "{from} {n} {to}"
            );
        }
    }

    #[test]
    fn reaches_and_paths_to_agree_with_move_generation() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for from in 0..SQUARES as u8 {
            for n in 1..=6u8 {
                check_against_movegen(from, n, bit(from));
                for _ in 0..6 {
                    // A random blocker set of about one square in four.
                    let mut occ = bit(from);
                    for s in 0..SQUARES as u8 {
                        if rng.random_range(0..4) == 0 {
                            occ |= bit(s);
                        }
                    }
                    check_against_movegen(from, n, occ);
                }
            }
        }
    }

    #[test]
    fn dir_paths_sum_to_the_paths_on_an_empty_board() {
        for s in 0..SQUARES as u8 {
            for n in 1..=6u8 {
                let mut per_dir = [0u8; 4];
                let _ = for_each_path(s, n, &Lines::new(bit(s), bit(s)), &mut |m| {
                    per_dir[m.first_dir() as usize] += 1;
                    ControlFlow::Continue(())
                });
                assert_eq!(DIR_PATHS[s as usize][n as usize], per_dir, "{s} n{n}");
            }
        }
    }
}
