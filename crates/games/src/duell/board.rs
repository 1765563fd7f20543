//! Board geometry (rules §1.1): 9 files × 8 ranks, squares indexed `rank * 9 + file`
//! (a1 = 0, i1 = 8, a2 = 9, …, i8 = 71), sets of squares as `u128` bitboards, and the
//! ray masks that move generation tests paths against.

use super::die::Dir;

/// Number of files (a–i).
pub const FILES: u8 = 9;
/// Number of ranks (1–8).
pub const RANKS: u8 = 8;
/// Number of squares.
pub const SQUARES: usize = (FILES * RANKS) as usize;

/// White's key square, e1.
pub const E1: u8 = 4;
/// Black's key square, e8.
pub const E8: u8 = 7 * FILES + 4;

/// A square index (0..72).
pub type Square = u8;

/// A set of squares: bit `s` is square `s`.
pub type Bitboard = u128;

/// The bitboard holding only `s`.
#[inline]
pub const fn bit(s: Square) -> Bitboard {
    1u128 << s
}

/// The square on `file` (0..9) and `rank` (0..8).
pub const fn square(file: u8, rank: u8) -> Square {
    rank * FILES + file
}

/// The file (0..9) of `s`.
pub const fn file_of(s: Square) -> u8 {
    s % FILES
}

/// The rank (0..8) of `s`.
pub const fn rank_of(s: Square) -> u8 {
    s / FILES
}

/// The name of a square, e.g. `"e1"`.
pub fn square_name(s: Square) -> String {
    format!("{}{}", (b'a' + file_of(s)) as char, rank_of(s) + 1)
}

/// The index change of one step towards `d`.
pub const fn delta(d: Dir) -> i8 {
    match d {
        Dir::North => FILES as i8,
        Dir::South => -(FILES as i8),
        Dir::East => 1,
        Dir::West => -1,
    }
}

/// How many steps from `s` towards `d` stay on the board.
pub const fn ray_len(s: Square, d: Dir) -> u8 {
    match d {
        Dir::North => RANKS - 1 - rank_of(s),
        Dir::South => rank_of(s),
        Dir::East => FILES - 1 - file_of(s),
        Dir::West => file_of(s),
    }
}

/// `RAY_LEN[s][d]`: [`ray_len`] as a table for the hot path.
pub const RAY_LEN: [[u8; 4]; SQUARES] = {
    let mut t = [[0u8; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            t[s][d] = ray_len(s as u8, Dir::from_index(d));
            d += 1;
        }
        s += 1;
    }
    t
};

/// The square `steps` steps from `s` towards `d`. The caller guarantees
/// `steps <= ray_len(s, d)`.
#[inline]
pub const fn step(s: Square, d: Dir, steps: u8) -> Square {
    (s as i8 + delta(d) * steps as i8) as u8
}

/// `VERTICAL[len]`: bits 0, 9, …, 9·(len − 1): `len` squares of one file, from bit 0.
const VERTICAL: [Bitboard; 8] = {
    let mut t = [0u128; 8];
    let mut len = 1;
    while len < 8 {
        t[len] = t[len - 1] | (1u128 << (9 * (len - 1)));
        len += 1;
    }
    t
};

/// The first `len` squares from `s` towards `d`, `s` itself excluded. The caller
/// guarantees `len <= ray_len(s, d)`.
#[inline]
pub const fn ray_mask(s: Square, d: Dir, len: u8) -> Bitboard {
    let s = s as u32;
    let len32 = len as u32;
    match d {
        Dir::North => VERTICAL[len as usize] << (s + 9),
        Dir::South => VERTICAL[len as usize] << (s - 9 * len32),
        Dir::East => ((1u128 << len32) - 1) << (s + 1),
        Dir::West => ((1u128 << len32) - 1) << (s - len32),
    }
}

/// `NEIGHBOUR[s][d]`: the square one step from `s` towards `d`, or `s` itself where that
/// step leaves the board. A piece on `s` thus sees itself, an occupied square, beyond the
/// edge, which makes "is the first step open" one byte compare without an edge test.
pub static NEIGHBOUR: [[Square; 4]; SQUARES] = {
    let mut t = [[0u8; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let dir = Dir::from_index(d);
            t[s][d] = if ray_len(s as u8, dir) > 0 {
                step(s as u8, dir, 1)
            } else {
                s as u8
            };
            d += 1;
        }
        s += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_names() {
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(8), "i1");
        assert_eq!(square_name(9), "a2");
        assert_eq!(square_name(71), "i8");
        assert_eq!(square_name(E1), "e1");
        assert_eq!(square_name(E8), "e8");
        assert_eq!(square(3, 0), 3);
        assert_eq!(SQUARES, 72);
    }

    #[test]
    fn ray_masks_equal_step_by_step_walks() {
        for s in 0..SQUARES as u8 {
            for d in Dir::ALL {
                let (f, r) = (file_of(s) as i32, rank_of(s) as i32);
                let (df, dr) = match d {
                    Dir::North => (0, 1),
                    Dir::South => (0, -1),
                    Dir::East => (1, 0),
                    Dir::West => (-1, 0),
                };
                let mut n = 0;
                let mut walk = 0u128;
                loop {
                    assert_eq!(ray_mask(s, d, n), walk, "{} {d:?} {n}", square_name(s));
                    let (f2, r2) = (f + df * (n as i32 + 1), r + dr * (n as i32 + 1));
                    if !(0..9).contains(&f2) || !(0..8).contains(&r2) {
                        break;
                    }
                    n += 1;
                    walk |= 1u128 << (r2 * 9 + f2);
                    assert_eq!(step(s, d, n) as i32, r2 * 9 + f2);
                }
                assert_eq!(ray_len(s, d), n);
                assert_eq!(RAY_LEN[s as usize][d as usize], n);
            }
        }
    }

    #[test]
    fn neighbours_are_single_steps_or_the_square_itself() {
        // e1: north e2, no south, east f1, west d1.
        assert_eq!(NEIGHBOUR[4], [13, 4, 5, 3]);
        // i8 (71): no north, south i7, no east, west h8.
        assert_eq!(NEIGHBOUR[71], [71, 62, 71, 70]);
        for s in 0..SQUARES as u8 {
            for d in Dir::ALL {
                let n = NEIGHBOUR[s as usize][d as usize];
                if RAY_LEN[s as usize][d as usize] > 0 {
                    let (dx, dy) = (
                        file_of(s).abs_diff(file_of(n)),
                        rank_of(s).abs_diff(rank_of(n)),
                    );
                    assert_eq!(dx + dy, 1);
                    assert_eq!(ray_mask(s, d, 1), bit(n));
                } else {
                    assert_eq!(n, s);
                }
            }
        }
    }
}
