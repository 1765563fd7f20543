//! The board: its size, the base (sun) squares, the setup zones, squares, and bitboard
//! shifts. Every board-dependent constant of R&B is in the block at the top of this file,
//! so another board (say 7×7 with suns d1/d7, the rules' runner-up) is a change there only.

use quartet_core::game::Player;
use std::fmt;

// ---- The board (rules 1.1, 1.2, 1.6-1; CHOICE where the rules say so) ----

/// Files a.. of the board, left to right as South sees it (CHOICE 1.1: 6).
pub const WIDTH: u8 = 6;
/// Ranks 1.. of the board, South's back rank first (CHOICE 1.1: 6).
pub const HEIGHT: u8 = 6;
/// South's base (sun) square as 0-based (file, rank): d1 (CHOICE 1.1).
const SOUTH_BASE_AT: (u8, u8) = (3, 0);
/// North's base (sun) square as 0-based (file, rank): c6 (CHOICE 1.1).
const NORTH_BASE_AT: (u8, u8) = (2, HEIGHT - 1);
/// Ranks in each setup zone, counted from the owner's back rank (rule 1.1: two).
pub const ZONE_DEPTH: u8 = 2;
/// Consecutive own pieces in one rank that lose the game (rule 1.6-1).
pub const LINE_LENGTH: u8 = 6;
/// Soldiers of each colour that each side owns (rule 1.2).
pub const SOLDIERS_PER_COLOUR: u8 = 4;

// ---- Derived constants ----

/// The number of squares.
pub const SQUARES: usize = WIDTH as usize * HEIGHT as usize;
const _: () = assert!(SQUARES <= 64, "a bitboard holds at most 64 squares");
const _: () = assert!(WIDTH <= 26 && HEIGHT >= 2 * ZONE_DEPTH);

/// A set of squares, bit `i` standing for the square of index `i` (a1 = 0, b1 = 1, …).
pub type Bitboard = u64;

/// Every square of the board.
pub const BOARD: Bitboard = if SQUARES == 64 {
    u64::MAX
} else {
    (1 << SQUARES) - 1
};

/// The squares of the first file (a).
const FIRST_FILE: Bitboard = file_mask(0);
/// The squares of the last file.
const LAST_FILE: Bitboard = file_mask(WIDTH - 1);

const fn file_mask(file: u8) -> Bitboard {
    let mut mask = 0;
    let mut rank = 0;
    while rank < HEIGHT {
        mask |= 1 << (rank as u32 * WIDTH as u32 + file as u32);
        rank += 1;
    }
    mask
}

/// The squares of rank `rank` (0-based).
pub const fn rank_mask(rank: u8) -> Bitboard {
    (((1u64 << WIDTH) - 1) << (rank as u32 * WIDTH as u32)) & BOARD
}

/// The setup zone of `p`: the `ZONE_DEPTH` ranks nearest its own side (rule 1.1).
pub const fn zone(p: Player) -> Bitboard {
    let mut mask = 0;
    let mut i = 0;
    while i < ZONE_DEPTH {
        mask |= match p {
            Player::First => rank_mask(i),
            Player::Second => rank_mask(HEIGHT - 1 - i),
        };
        i += 1;
    }
    mask
}

/// The base (sun) square of `p`, where its king starts and the enemy king wins.
pub const fn base(p: Player) -> Square {
    let (file, rank) = match p {
        Player::First => SOUTH_BASE_AT,
        Player::Second => NORTH_BASE_AT,
    };
    Square(rank * WIDTH + file)
}

/// One square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on 0-based `file` and `rank`, if it is on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < WIDTH && rank < HEIGHT {
            Some(Square(rank * WIDTH + file))
        } else {
            None
        }
    }

    /// The square of index `index` (a1 = 0, then along rank 1, then rank 2, …), if any.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The index of the square, below [`SQUARES`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 0-based file (0 = a).
    pub const fn file(self) -> u8 {
        self.0 % WIDTH
    }

    /// The 0-based rank (0 = rank 1).
    pub const fn rank(self) -> u8 {
        self.0 / WIDTH
    }

    /// The one-square set of this square.
    pub const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// Whether `other` is one king step (8 directions) away from `self`.
    pub const fn is_adjacent(self, other: Square) -> bool {
        NEIGHBOURS[self.0 as usize] & other.bit() != 0
    }
}

impl fmt::Display for Square {
    /// The canonical name: file letter, then rank number (`a1`, `f6`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// The squares of `set` in increasing index order.
pub fn squares(set: Bitboard) -> impl Iterator<Item = Square> {
    let mut rest = set;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let index = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        Some(Square(index))
    })
}

/// A step direction: a file and a rank offset, each -1, 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction {
    file: i8,
    rank: i8,
}

impl Direction {
    /// Moves every square of `set` one step this way; squares that would leave the
    /// board are dropped.
    #[inline(always)]
    pub const fn shift(self, set: Bitboard) -> Bitboard {
        let kept = match self.file {
            1 => set & !LAST_FILE,
            -1 => set & !FIRST_FILE,
            _ => set,
        };
        let delta = self.rank as i32 * WIDTH as i32 + self.file as i32;
        let moved = if delta >= 0 {
            kept << delta
        } else {
            kept >> -delta
        };
        moved & BOARD
    }

    /// The opposite direction.
    pub const fn opposite(self) -> Direction {
        Direction {
            file: -self.file,
            rank: -self.rank,
        }
    }
}

/// The four orthogonal directions (north, east, south, west): the lines of capture.
pub const ORTHOGONAL: [Direction; 4] = [
    Direction { file: 0, rank: 1 },
    Direction { file: 1, rank: 0 },
    Direction { file: 0, rank: -1 },
    Direction { file: -1, rank: 0 },
];

/// All eight step directions (rule 1.4).
pub const ALL_DIRECTIONS: [Direction; 8] = [
    Direction { file: 0, rank: 1 },
    Direction { file: 1, rank: 1 },
    Direction { file: 1, rank: 0 },
    Direction { file: 1, rank: -1 },
    Direction { file: 0, rank: -1 },
    Direction { file: -1, rank: -1 },
    Direction { file: -1, rank: 0 },
    Direction { file: -1, rank: 1 },
];

/// The squares one step (8 directions) from some square of `set`, plus `set` itself.
#[inline(always)]
pub const fn spread(set: Bitboard) -> Bitboard {
    let row = set | ALL_DIRECTIONS[2].shift(set) | ALL_DIRECTIONS[6].shift(set);
    row | ALL_DIRECTIONS[0].shift(row) | ALL_DIRECTIONS[4].shift(row)
}

/// `NEIGHBOURS[i]`: the squares one step from the square of index `i`.
pub const NEIGHBOURS: [Bitboard; SQUARES] = {
    let mut table = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        table[i] = spread(1 << i) & !(1 << i);
        i += 1;
    }
    table
};

/// Whether `own` holds `LINE_LENGTH` consecutive squares of one rank (rule 1.6-1).
#[inline(always)]
pub const fn has_line(own: Bitboard) -> bool {
    // After k rounds, bit s is set iff s, s+1, …, s+k are all in `own` on one rank.
    let mut runs = own;
    let mut k = 1;
    while k < LINE_LENGTH {
        runs &= (runs & !FIRST_FILE) >> 1;
        k += 1;
    }
    runs != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1').unwrap()
    }

    #[test]
    fn bases_and_zones_follow_rule_1_1() {
        assert_eq!(base(Player::First).to_string(), "d1");
        assert_eq!(base(Player::Second).to_string(), "c6");
        let south: Vec<String> = squares(zone(Player::First))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(south.len(), 12);
        assert!(south.iter().all(|s| s.ends_with('1') || s.ends_with('2')));
        let north: Vec<String> = squares(zone(Player::Second))
            .map(|s| s.to_string())
            .collect();
        assert_eq!(north.len(), 12);
        assert!(north.iter().all(|s| s.ends_with('5') || s.ends_with('6')));
    }

    #[test]
    fn shifts_drop_squares_that_leave_the_board() {
        let east = ORTHOGONAL[1];
        assert_eq!(east.shift(sq("f3").bit()), 0);
        assert_eq!(east.shift(sq("e3").bit()), sq("f3").bit());
        assert_eq!(east.opposite().shift(sq("a3").bit()), 0);
        assert_eq!(ORTHOGONAL[0].shift(sq("c6").bit()), 0);
        assert_eq!(ORTHOGONAL[2].shift(sq("c1").bit()), 0);
        assert_eq!(ALL_DIRECTIONS[1].shift(sq("b2").bit()), sq("c3").bit());
    }

    #[test]
    fn neighbours_count_3_at_corners_5_on_edges_8_inside() {
        assert_eq!(NEIGHBOURS[sq("a1").index()].count_ones(), 3);
        assert_eq!(NEIGHBOURS[sq("f6").index()].count_ones(), 3);
        assert_eq!(NEIGHBOURS[sq("d1").index()].count_ones(), 5);
        assert_eq!(NEIGHBOURS[sq("a4").index()].count_ones(), 5);
        assert_eq!(NEIGHBOURS[sq("c3").index()].count_ones(), 8);
        assert!(sq("c3").is_adjacent(sq("d4")));
        assert!(!sq("c3").is_adjacent(sq("c5")));
        assert!(!sq("f1").is_adjacent(sq("a2")));
    }

    #[test]
    fn a_line_is_a_full_rank_and_never_wraps() {
        assert!(has_line(rank_mask(0)));
        assert!(has_line(rank_mask(5)));
        assert!(!has_line(rank_mask(2) & !sq("c3").bit()));
        // b1..f1 plus a2 are six consecutive indices but not one rank.
        let wrapped = (rank_mask(0) & !sq("a1").bit()) | sq("a2").bit();
        assert!(!has_line(wrapped));
        assert!(!has_line(file_mask(0)));
    }
}
