//! Counting a side's moves without generating them (perft's last ply, rules §1.7–§1.8).
//!
//! Each rank and each file of the position becomes a [`LineWord`]: the occupied cells in
//! the low half, the mover's cells in the high half, and every bit off the line set in both
//! halves, so that a square off the board counts as the mover's own piece. A leg of `m`
//! steps from a cell is then legal exactly when one mask test finds nothing: the `m − 1`
//! cells it passes are empty (low half) and the cell it lands on holds no own piece (high
//! half), with no edge test. A path's first leg must also leave its corner empty, so the
//! corners of the L paths are the first `min(run, n − 1)` cells of the free run, which one
//! bit scan finds.

use super::Duell;
use super::board::{Bitboard, FILES, RANKS};
use super::piece::VALUE;
use quartet_core::game::Player;

/// A rank or a file of the position: cell `c` at bit `CELL0 + c` (occupied) and
/// `OWN + CELL0 + c` (the mover's), every other bit set in both halves.
type LineWord = u64;

/// The bit of cell 0 within a half: six sentinel cells below it let a leg of up to 6 steps
/// run off the low end without an edge test.
const CELL0: u32 = 6;

/// Where the mover's half of a line word starts.
const OWN: u32 = 32;

/// The bits of a line of `cells` cells that lie off the line, in both halves.
const fn off_line(cells: u32) -> LineWord {
    let half = !(((1u64 << cells) - 1) << CELL0) & 0xffff_ffff;
    half | half << OWN
}

/// `UP[m]`: for a leg of `m` (1..=6) steps towards higher cells from cell 0, the cells it
/// passes (low half) and the cell it lands on (high half). Shifted left by the start cell.
const UP: [LineWord; 8] = {
    let mut t = [0u64; 8];
    let mut m = 1;
    while m <= 6 {
        t[m] = ((1u64 << (m - 1)) - 1) << (CELL0 + 1) | 1u64 << (OWN + CELL0 + m as u32);
        m += 1;
    }
    t
};

/// `DOWN[m]`: [`UP`] towards lower cells: passed cells `−m + 1..−1`, landing cell `−m`.
const DOWN: [LineWord; 8] = {
    let mut t = [0u64; 8];
    let mut m = 1;
    while m <= 6 {
        t[m] = ((1u64 << (m - 1)) - 1) << (CELL0 + 1 - m as u32) | 1u64 << (OWN + CELL0 - m as u32);
        m += 1;
    }
    t
};

/// Whether the leg `mask` (from [`UP`] or [`DOWN`]) is legal on `line` shifted right by
/// the leg's start cell: 1 or 0.
#[inline(always)]
fn open(line: LineWord, mask: LineWord) -> u64 {
    (line & mask == 0) as u64
}

/// Empty cells above cell `c` of `line`, up to the first occupied cell or the end.
#[inline(always)]
fn run_up(line: LineWord, c: usize) -> usize {
    (line >> (CELL0 as usize + 1 + c)).trailing_zeros() as usize
}

/// Empty cells below cell `c` of `line`, down to the first occupied cell or the end.
#[inline(always)]
fn run_down(line: LineWord, c: usize) -> usize {
    ((line as u32) << (32 - CELL0 as usize - c)).leading_zeros() as usize
}

/// The 9 cells of rank `r` of a bitboard given as its low and high 64 bits.
#[inline(always)]
fn cells(lo: u64, hi: u64, r: usize) -> u64 {
    let shift = FILES as usize * r;
    if shift < 64 - FILES as usize {
        (lo >> shift) & 0x1ff
    } else {
        (lo >> shift | hi << (64 - shift)) & 0x1ff
    }
}

/// Transposes an 8 × 8 bit matrix: bit `8r + c` goes to bit `8c + r` (Hacker's Delight,
/// `transpose8rS64`).
#[inline(always)]
fn transpose(x: u64) -> u64 {
    let x = x & 0xaa55_aa55_aa55_aa55
        | (x & 0x00aa_00aa_00aa_00aa) << 7
        | (x >> 7) & 0x00aa_00aa_00aa_00aa;
    let x = x & 0xcccc_3333_cccc_3333
        | (x & 0x0000_cccc_0000_cccc) << 14
        | (x >> 14) & 0x0000_cccc_0000_cccc;
    x & 0xf0f0_f0f0_0f0f_0f0f
        | (x & 0x0000_0000_f0f0_f0f0) << 28
        | (x >> 28) & 0x0000_0000_f0f0_f0f0
}

/// The ranks and files of a position as line words, from the mover's view. The file array
/// is padded to a power of two so that masked indices need no bounds test.
struct LineWords {
    rank: [LineWord; 8],
    file: [LineWord; 16],
}

impl LineWords {
    /// The line words of the occupied squares `occ`, the mover's `own` (within `occ`). The
    /// files come from the ranks by transposing files a to h as an 8 × 8 matrix.
    #[inline(always)]
    fn new(occ: Bitboard, own: Bitboard) -> LineWords {
        let mut rank = [0; 8];
        // Files a..h of each rank as the bytes of a matrix, and file i as a byte.
        let (mut occ_ah, mut own_ah, mut occ_i, mut own_i) = (0u64, 0u64, 0u64, 0u64);
        let (occ_lo, occ_hi, own_lo, own_hi) = (
            occ as u64,
            (occ >> 64) as u64,
            own as u64,
            (own >> 64) as u64,
        );
        for (r, word) in rank.iter_mut().enumerate() {
            let (o, w) = (cells(occ_lo, occ_hi, r), cells(own_lo, own_hi, r));
            *word = off_line(FILES as u32) | o << CELL0 | w << (OWN + CELL0);
            occ_ah |= (o & 0xff) << (8 * r);
            own_ah |= (w & 0xff) << (8 * r);
            occ_i |= (o >> 8) << r;
            own_i |= (w >> 8) << r;
        }
        let (occ_ah, own_ah) = (transpose(occ_ah), transpose(own_ah));
        let mut file = [0; 16];
        for (f, word) in file.iter_mut().take(8).enumerate() {
            let (o, w) = ((occ_ah >> (8 * f)) & 0xff, (own_ah >> (8 * f)) & 0xff);
            *word = off_line(RANKS as u32) | o << CELL0 | w << (OWN + CELL0);
        }
        file[8] = off_line(RANKS as u32) | occ_i << CELL0 | own_i << (OWN + CELL0);
        LineWords { rank, file }
    }

    /// The mover's cells of rank `r` (bit `x` for file `x`).
    #[inline(always)]
    fn own_cells(&self, r: usize) -> u64 {
        (self.rank[r & 7] >> (OWN + CELL0)) & 0x1ff
    }

    /// The paths of a piece of value `n` (1..=6) on (`x`, `y`): [`super::movegen`]'s
    /// `for_each_path` counted.
    #[inline(always)]
    fn paths(&self, x: usize, y: usize, n: usize) -> u64 {
        let (rank, file) = (self.rank[y & 7], self.file[x & 15]);
        let (up, down) = (UP[n & 7], DOWN[n & 7]);
        let (along_rank, along_file) = (rank >> x, file >> y);
        let mut count = open(along_file, up)
            + open(along_file, down)
            + open(along_rank, up)
            + open(along_rank, down);
        if n == 1 {
            return count;
        }
        let last = n - 1;
        // First leg along the file: the corners are on ranks, the second legs along them.
        let mut k = 1;
        let corners = run_up(file, y).min(last);
        while k <= corners {
            let line = self.rank[(y + k) & 7] >> x;
            count += open(line, UP[(n - k) & 7]) + open(line, DOWN[(n - k) & 7]);
            k += 1;
        }
        let mut k = 1;
        let corners = run_down(file, y).min(last);
        while k <= corners {
            let line = self.rank[(y - k) & 7] >> x;
            count += open(line, UP[(n - k) & 7]) + open(line, DOWN[(n - k) & 7]);
            k += 1;
        }
        // First leg along the rank: the second legs run along files.
        let mut k = 1;
        let corners = run_up(rank, x).min(last);
        while k <= corners {
            let line = self.file[(x + k) & 15] >> y;
            count += open(line, UP[(n - k) & 7]) + open(line, DOWN[(n - k) & 7]);
            k += 1;
        }
        let mut k = 1;
        let corners = run_down(rank, x).min(last);
        while k <= corners {
            let line = self.file[(x - k) & 15] >> y;
            count += open(line, UP[(n - k) & 7]) + open(line, DOWN[(n - k) & 7]);
            k += 1;
        }
        count
    }
}

impl Duell {
    /// The number of moves `side` would have if it were to move and the game were not over:
    /// the number of moves [`Duell::for_each_move_of`] gives, without generating them.
    #[inline]
    pub(super) fn count_moves_of(&self, side: Player) -> u64 {
        let lines = LineWords::new(self.occ[0] | self.occ[1], self.occ[side.index()]);
        let mut count = 0;
        for y in 0..RANKS as usize {
            let mut rest = lines.own_cells(y);
            while rest != 0 {
                let x = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let n = VALUE[self.board[y * FILES as usize + x] as usize] as usize;
                count += lines.paths(x, y, n);
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duell::board::SQUARES;
    use crate::duell::piece;
    use quartet_core::game::{Game, MoveList, Node, RuleOptions};
    use quartet_core::notation::Notation;
    use rand::{RngExt, SeedableRng};
    use std::ops::ControlFlow;

    /// The moves of `side` as the generator lists them, counted one by one.
    fn generated(p: &Duell, side: Player) -> u64 {
        let mut n = 0;
        let _ = p.for_each_move_of(side, |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    #[test]
    fn leg_masks_pass_and_land_where_they_should() {
        // Three steps up from cell 2: passes 3 and 4, lands on 5.
        let passed = 1u64 << (CELL0 + 3) | 1u64 << (CELL0 + 4);
        assert_eq!(UP[3] << 2, passed | 1u64 << (OWN + CELL0 + 5));
        // Three steps down from cell 5: passes 4 and 3, lands on 2.
        assert_eq!(DOWN[3] << 5, passed | 1u64 << (OWN + CELL0 + 2));
        // Off either end of a line the landing cell is own: no leg leaves the board.
        for cells in [FILES as u32, RANKS as u32] {
            let empty = off_line(cells);
            for c in 0..cells {
                for m in 1..=6u32 {
                    let up = open(empty >> c, UP[m as usize]) == 1;
                    let down = open(empty >> c, DOWN[m as usize]) == 1;
                    assert_eq!(up, c + m < cells, "{cells} cells, {c} up {m}");
                    assert_eq!(down, c >= m, "{cells} cells, {c} down {m}");
                }
                assert_eq!(run_up(empty, c as usize), (cells - 1 - c) as usize);
                assert_eq!(run_down(empty, c as usize), c as usize);
            }
        }
    }

    #[test]
    fn transpose_moves_bit_8r_plus_c_to_8c_plus_r() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        for _ in 0..100 {
            let x: u64 = rng.random();
            let mut want = 0;
            for (r, c) in (0..8).flat_map(|r| (0..8).map(move |c| (r, c))) {
                want |= (x >> (8 * r + c) & 1) << (8 * c + r);
            }
            assert_eq!(transpose(x), want);
        }
    }

    #[test]
    fn counts_equal_the_generated_moves_along_random_games() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
        let mut moves = MoveList::new();
        let mut checked = 0;
        for _ in 0..60 {
            let mut p = Duell::start(&RuleOptions::default());
            while let Node::Turn(side) = p.node() {
                for s in [side, side.other()] {
                    assert_eq!(
                        p.count_moves_of(s),
                        generated(&p, s),
                        "{}",
                        p.format_position()
                    );
                }
                checked += 1;
                p.legal_moves(side, &mut moves);
                p.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn counts_equal_the_generated_moves_on_random_crowded_boards() {
        // Boards the games rarely reach: any piece of either colour on any square, from
        // a few pieces to a nearly full board, so every leg meets every kind of blocker.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(43);
        for density in [8, 4, 2] {
            for _ in 0..400 {
                let mut p = Duell::empty();
                for s in 0..SQUARES as u8 {
                    if rng.random_range(0..density) == 0 {
                        let side = if rng.random_range(0..2) == 0 {
                            Player::First
                        } else {
                            Player::Second
                        };
                        p.put(s, piece::die(side, rng.random_range(0..24)));
                    }
                }
                for side in [Player::First, Player::Second] {
                    assert_eq!(p.count_moves_of(side), generated(&p, side));
                }
            }
        }
    }
}
