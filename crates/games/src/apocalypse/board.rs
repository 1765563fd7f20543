//! Board geometry of Apocalypse: squares, pieces, declarations ([`Move`]) and the Zobrist keys.
//!
//! A square is a `u8` index `0..25`: `rank_index * 5 + file_index`, so `a1 = 0`, `e1 = 4`,
//! `a5 = 20`, `e5 = 24`. White moves up (towards rank 5), Black down (towards rank 1).

use crate::kit::zobrist;
use quartet_core::game::Player;

/// A side with this many penalty points loses (§1.6-2).
pub const PENALTY_LIMIT: u8 = 2;

/// The no-progress counter value at which the game is drawn (§1.6-3, §1.8).
pub const NO_PROGRESS_LIMIT: u16 = 50;

/// The number of squares on the 5×5 board.
pub const SQUARES: usize = 25;

/// The board's width and height.
pub const SIZE: u8 = 5;

/// A marker "no square" inside a [`Move`] (void declarations, moves without redeploy).
const NO_SQUARE: u8 = SQUARES as u8;

/// A piece kind. Kings do not exist in Apocalypse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A footman: steps straight forward, captures diagonally forward.
    Pawn,
    /// A horseman: a chess knight.
    Knight,
}

impl Piece {
    /// 0 for a pawn, 1 for a knight: an index into per-kind tables.
    pub fn index(self) -> usize {
        match self {
            Piece::Pawn => 0,
            Piece::Knight => 1,
        }
    }
}

/// The content of one square: empty or a piece of one side.
pub type Cell = Option<(Player, Piece)>;

/// The file index `0..5` (a..e) of a square.
pub fn file_of(sq: u8) -> u8 {
    sq % SIZE
}

/// The rank index `0..5` (rank 1..5) of a square.
pub fn rank_of(sq: u8) -> u8 {
    sq / SIZE
}

/// The square at file index `file` and rank index `rank`, both `0..5`.
pub fn square(file: u8, rank: u8) -> u8 {
    rank * SIZE + file
}

/// The rank index of `p`'s last rank: 4 (rank 5) for White, 0 (rank 1) for Black.
pub fn last_rank(p: Player) -> u8 {
    match p {
        Player::First => SIZE - 1,
        Player::Second => 0,
    }
}

/// The rank index one step forward of `rank` for `p`, if it is on the board.
pub fn forward(p: Player, rank: u8) -> Option<u8> {
    match p {
        Player::First if rank + 1 < SIZE => Some(rank + 1),
        Player::Second if rank > 0 => Some(rank - 1),
        _ => None,
    }
}

/// Whether `sq` is one of `p`'s pawn start squares (White b1 c1 d1 a2 e2; Black b5 c5 d5 a4 e4),
/// the squares a double step may start from.
pub fn is_pawn_start(p: Player, sq: u8) -> bool {
    let (file, rank) = (file_of(sq), rank_of(sq));
    let (back, front) = match p {
        Player::First => (0, 1),
        Player::Second => (4, 3),
    };
    (rank == back && (1..=3).contains(&file)) || (rank == front && (file == 0 || file == 4))
}

/// Every square of the board as a bit set: bit `sq` stands for square `sq`.
pub const BOARD: u32 = (1 << SQUARES) - 1;

/// The squares of file a as a bit set.
const FILE_A: u32 = 0b00001_00001_00001_00001_00001;

/// The squares of file e as a bit set.
const FILE_E: u32 = FILE_A << 4;

/// The squares of rank index `rank` (`0..5`) as a bit set.
pub const fn rank_mask(rank: u8) -> u32 {
    0b11111 << (rank * SIZE)
}

/// The squares of file indices `file` and `4 - file` (`file` in `0..3`), as a bit set: a
/// file folded onto a..c.
pub const fn folded_file_mask(file: u8) -> u32 {
    (FILE_A << file) | (FILE_A << (SIZE - 1 - file))
}

/// The squares one step forward for `p` of the squares of `set` (squares past the last rank
/// drop out).
pub fn step_forward(p: Player, set: u32) -> u32 {
    match p {
        Player::First => (set << SIZE) & BOARD,
        Player::Second => set >> SIZE,
    }
}

/// The squares that pawns of `p` on the squares of `set` attack: one step diagonally forward.
pub fn pawn_attacks(p: Player, set: u32) -> u32 {
    let (left, right) = (set & !FILE_A, set & !FILE_E);
    match p {
        Player::First => ((left << 4) | (right << 6)) & BOARD,
        Player::Second => (left >> 6) | (right >> 4),
    }
}

/// The knight leaps from each square, in a fixed order, padded with `NO_SQUARE`.
const KNIGHT_LEAPS: [[u8; 8]; SQUARES] = knight_leaps();

const fn knight_leaps() -> [[u8; 8]; SQUARES] {
    const DELTAS: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut table = [[NO_SQUARE; 8]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % 5) as i8, (sq / 5) as i8);
        let mut n = 0;
        let mut d = 0;
        while d < 8 {
            let (f, r) = (file + DELTAS[d].0, rank + DELTAS[d].1);
            if f >= 0 && f < 5 && r >= 0 && r < 5 {
                table[sq][n] = (r * 5 + f) as u8;
                n += 1;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// `KNIGHT_MASKS[sq]` has bit `t` set for every square `t` a knight's leap from `sq`.
pub const KNIGHT_MASKS: [u32; SQUARES] = knight_masks();

const fn knight_masks() -> [u32; SQUARES] {
    let mut masks = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut k = 0;
        while k < 8 && KNIGHT_LEAPS[sq][k] != NO_SQUARE {
            masks[sq] |= 1 << KNIGHT_LEAPS[sq][k];
            k += 1;
        }
        sq += 1;
    }
    masks
}

/// The squares a knight on `sq` leaps to, in a fixed order.
pub fn knight_targets(sq: u8) -> impl Iterator<Item = u8> {
    KNIGHT_LEAPS[sq as usize]
        .into_iter()
        .take_while(|&t| t != NO_SQUARE)
}

/// One player's declaration for a turn: `<from><to>`, `<from><to>@<redeploy>`, or VOID.
///
/// VOID stands for `0000` and for any declaration that is not legal in the position it is
/// declared in: the player loses the turn and gets a penalty point. A non-void value names
/// squares only; whether it is legal is a question for the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    redeploy: u8,
}

impl Move {
    /// The void declaration (`0000`).
    pub const VOID: Move = Move {
        from: NO_SQUARE,
        to: NO_SQUARE,
        redeploy: NO_SQUARE,
    };

    /// The declaration `from to [@redeploy]`; `None` if a square is off the board (`>= 25`).
    pub fn new(from: u8, to: u8, redeploy: Option<u8>) -> Option<Move> {
        let on_board = |sq: u8| usize::from(sq) < SQUARES;
        if !on_board(from) || !on_board(to) || redeploy.is_some_and(|r| !on_board(r)) {
            return None;
        }
        Some(Move {
            from,
            to,
            redeploy: redeploy.unwrap_or(NO_SQUARE),
        })
    }

    /// Whether this is the void declaration.
    pub fn is_void(self) -> bool {
        self.from == NO_SQUARE
    }

    /// The origin square (meaningless for VOID, where it is 25).
    pub fn from(self) -> u8 {
        self.from
    }

    /// The destination square `t` (meaningless for VOID, where it is 25).
    pub fn to(self) -> u8 {
        self.to
    }

    /// The redeploy square `r`, if the declaration names one.
    pub fn redeploy(self) -> Option<u8> {
        (self.redeploy != NO_SQUARE).then_some(self.redeploy)
    }

    /// A code below `MOVE_CODE_COUNT`, distinct for distinct declarations; VOID is 0.
    pub fn code(self) -> u32 {
        if self.is_void() {
            return 0;
        }
        let per_to = (NO_SQUARE as u32) + 1;
        1 + (self.from as u32 * SQUARES as u32 + self.to as u32) * per_to + self.redeploy as u32
    }
}

/// The number of distinct [`Move::code`] values.
pub const MOVE_CODE_COUNT: usize = 1 + SQUARES * SQUARES * (SQUARES + 1);

/// The Zobrist keys: one per (square, side, kind), one per (side, penalty 1 or 2), one for
/// the `DoubleStep` rule being on, and one per no-progress counter value 1 to
/// [`COUNTER_KEYS`]` - 1`. An empty square, 0 penalty points, `DoubleStep` off and a counter
/// of 0 contribute nothing.
pub struct Zobrist {
    pieces: [[u64; 4]; SQUARES],
    penalties: [[u64; 3]; 2],
    double_step: u64,
    counters: [u64; COUNTER_KEYS],
}

/// The number of counter keys: counters 0 to the no-progress limit each have one.
pub const COUNTER_KEYS: usize = NO_PROGRESS_LIMIT as usize + 1;

/// The keys, generated at compile time from a fixed seed (splitmix64).
pub const ZOBRIST: Zobrist = zobrist_keys();

const fn zobrist_keys() -> Zobrist {
    let mut state = 0x41_706F_6361_6C79_u64; // "Apocaly"
    let pieces = zobrist::table(&mut state);
    // 0 penalty points and a counter of 0 keep key 0.
    let penalties = [
        zobrist::keys_but_zero(&mut state),
        zobrist::keys_but_zero(&mut state),
    ];
    let [double_step] = zobrist::keys(&mut state);
    let counters = zobrist::keys_but_zero(&mut state);
    Zobrist {
        pieces,
        penalties,
        double_step,
        counters,
    }
}

impl Zobrist {
    /// The key of `cell` standing on `sq` (0 for an empty square).
    pub fn cell(&self, sq: u8, cell: Cell) -> u64 {
        match cell {
            None => 0,
            Some((p, piece)) => self.pieces[sq as usize][p.index() * 2 + piece.index()],
        }
    }

    /// The key of `p` holding `points` penalty points (0 for 0; points above 2 count as 2).
    pub fn penalty(&self, p: Player, points: u8) -> u64 {
        self.penalties[p.index()][usize::from(points.min(2))]
    }

    /// The key of the `DoubleStep` rule option.
    pub fn double_step(&self, on: bool) -> u64 {
        if on { self.double_step } else { 0 }
    }

    /// The key of the no-progress counter `counter` (0 for 0; larger values than the last key
    /// share it, and positions never hold them).
    pub fn counter(&self, counter: u16) -> u64 {
        self.counters[usize::from(counter).min(COUNTER_KEYS - 1)]
    }
}

/// The name of a square, e.g. `"c3"`, as two ASCII bytes.
pub fn square_name(sq: u8) -> [char; 2] {
    [(b'a' + file_of(sq)) as char, (b'1' + rank_of(sq)) as char]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_keys_are_distinct_and_nonzero_except_the_empty_ones() {
        let z = &ZOBRIST;
        let drawn = z.pieces.iter().flatten().copied();
        let drawn = drawn.chain(z.penalties.iter().flat_map(|p| p[1..].iter().copied()));
        let drawn = drawn
            .chain([z.double_step])
            .chain(z.counters[1..].iter().copied());
        assert!(crate::kit::zobrist::distinct_and_nonzero(drawn));
        assert_eq!(
            (z.penalties[0][0], z.penalties[1][0], z.counters[0]),
            (0, 0, 0)
        );
    }

    #[test]
    fn squares_are_rank_major_from_a1() {
        assert_eq!(square(0, 0), 0);
        assert_eq!(square(4, 0), 4);
        assert_eq!(square(2, 2), 12);
        assert_eq!(square_name(24), ['e', '5']);
        assert_eq!((file_of(13), rank_of(13)), (3, 2)); // d3
    }

    #[test]
    fn knight_masks_hold_the_knight_targets() {
        for sq in 0..25u8 {
            let from_targets = knight_targets(sq).fold(0u32, |m, t| m | 1 << t);
            assert_eq!(KNIGHT_MASKS[usize::from(sq)], from_targets, "square {sq}");
            assert!(KNIGHT_MASKS[usize::from(sq)].count_ones() >= 2);
        }
    }

    #[test]
    fn bit_set_helpers_agree_with_the_square_arithmetic() {
        for sq in 0..25u8 {
            let bit = 1u32 << sq;
            let (file, rank) = (file_of(sq), rank_of(sq));
            assert_eq!(rank_mask(rank) & bit, bit, "square {sq}");
            assert_eq!(
                folded_file_mask(file.min(4 - file)) & bit,
                bit,
                "square {sq}"
            );
            for p in [Player::First, Player::Second] {
                let ahead = forward(p, rank).map_or(0, |r| 1 << square(file, r));
                assert_eq!(step_forward(p, bit), ahead, "square {sq} {p:?}");
                let diagonals = forward(p, rank).map_or(0, |r| {
                    [file.checked_sub(1), Some(file + 1)]
                        .into_iter()
                        .flatten()
                        .filter(|&f| f < SIZE)
                        .fold(0, |m, f| m | 1 << square(f, r))
                });
                assert_eq!(pawn_attacks(p, bit), diagonals, "square {sq} {p:?}");
            }
        }
        assert_eq!((0..5).fold(0, |m, r| m | rank_mask(r)), BOARD);
        assert_eq!((0..3).fold(0, |m, f| m | folded_file_mask(f)), BOARD);
    }

    /// Whether `a` and `b` are a knight's leap apart: the reference for the leap tables.
    fn is_knight_leap(a: u8, b: u8) -> bool {
        let df = file_of(a).abs_diff(file_of(b));
        let dr = rank_of(a).abs_diff(rank_of(b));
        (df == 1 && dr == 2) || (df == 2 && dr == 1)
    }

    #[test]
    fn knight_targets_match_the_leap_test() {
        for a in 0..25u8 {
            let listed: Vec<u8> = knight_targets(a).collect();
            let brute: Vec<u8> = (0..25u8).filter(|&b| is_knight_leap(a, b)).collect();
            let mut sorted = listed.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, brute, "square {a}");
        }
        // a1 leaps to b3 and c2 only; c3 (the centre) to all eight.
        assert_eq!(knight_targets(0).count(), 2);
        assert_eq!(knight_targets(12).count(), 8);
    }

    #[test]
    fn pawn_start_squares_are_those_of_the_setup() {
        let white: Vec<u8> = (0..25)
            .filter(|&s| is_pawn_start(Player::First, s))
            .collect();
        let black: Vec<u8> = (0..25)
            .filter(|&s| is_pawn_start(Player::Second, s))
            .collect();
        assert_eq!(white, vec![1, 2, 3, 5, 9]); // b1 c1 d1 a2 e2
        assert_eq!(black, vec![15, 19, 21, 22, 23]); // a4 e4 b5 c5 d5
    }

    #[test]
    fn move_codes_are_distinct_and_bounded() {
        let mut seen = vec![false; MOVE_CODE_COUNT];
        seen[Move::VOID.code() as usize] = true;
        for from in 0..25 {
            for to in 0..25 {
                for r in (0..25).map(Some).chain([None]) {
                    let code = Move::new(from, to, r).unwrap().code() as usize;
                    assert!(!seen[code], "code {code} repeated");
                    seen[code] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn move_new_rejects_off_board_squares() {
        assert!(Move::new(25, 0, None).is_none());
        assert!(Move::new(0, 25, None).is_none());
        assert!(Move::new(0, 1, Some(25)).is_none());
        assert!(!Move::new(0, 1, None).unwrap().is_void());
        assert!(Move::VOID.is_void());
    }
}
