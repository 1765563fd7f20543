//! Apocalypse's efficiently updatable network ([`crate::eval::nnue`]): its inputs, the board
//! its accumulator is kept up to date by, and the evaluation it gives.
//!
//! - **Inputs (302 per view):** a piece by its owner (the viewer's or the other side's), its
//!   kind (pawn, knight) and its square seen from the viewer: Black's view reverses the
//!   ranks, so each side sees its own pieces start on ranks 1 and 2 and move up (2 × 2 ×
//!   25); the same piece again if an enemy piece attacks its square (it may be taken next
//!   turn), and again if an own piece does (it could be retaken: 2 × 100, the classical
//!   evaluation's attacked and defended pieces); and whether each side (the viewer's, the
//!   other) has a penalty point (2: a side with two has lost). A side has at most 7 pieces,
//!   so a position sets at most [`MAX_ACTIVE`] = 44 inputs a view.
//! - **Network:** 302 → 2 × 32 (clipped ReLU, one half per view) → 1, the logit of P(the
//!   viewer wins). Apocalypse has no side to move: its value, from White's view, is the mean
//!   of White's logit and the negation of Black's ([`nnue::value`]), so the colour-flipped
//!   position (ranks reversed, colours and penalty points swapped) is valued exactly the
//!   negation; a score is that logit times [`SCORE_PER_LOGIT`] (the logistic scale at which
//!   the classical evaluation's scores best predict self-play results).
//! - **Updates:** the shared thread cache ([`nnue::evaluate`]) with the bytes two boards
//!   differ on, found eight at a time: a square's byte holds its piece and whether it is
//!   attacked and defended, so a turn changes the squares it moved on and those whose
//!   attackers changed, a few inputs.

use crate::eval::nnue::{self, NnueBoard};
use crate::game::Player;
use crate::games::apocalypse::Apocalypse;
use crate::games::apocalypse::board::{KNIGHT_MASKS, Piece, SIZE, SQUARES};

/// The first bytes of an Apocalypse network file.
pub const MAGIC: &[u8; 8] = b"QAPONN01";
/// Inputs of one block of facts about the pieces (the pieces, the attacked ones, the
/// defended ones): owner (viewer's, other's) × kind × square.
const PIECE_INPUTS: usize = 2 * 2 * SQUARES;
/// The first input of the penalty points: the viewer's, then the other side's.
const PENALTY_INPUTS: usize = 3 * PIECE_INPUTS;
/// Inputs per view.
pub const INPUTS: usize = PENALTY_INPUTS + 2;
/// The most inputs a position sets in one view: 2 knights and 5 pawns a side, each
/// attacked and defended, and both sides' penalty points.
pub const MAX_ACTIVE: usize = 3 * 2 * 7 + 2;
/// Evaluation units per unit of the network's logit (P(White wins) = logistic(score / 110)):
/// the scale at which the classical evaluation's scores best predict the results of
/// self-play games (held-out loss 0.3266 at 110 on 2500 games, 0.3322 at 90, 0.3298 at 130).
pub const SCORE_PER_LOGIT: i64 = 110;

/// The bytes of a [`Board`]: a byte per square, then each side's penalty flag, padded to
/// whole words of eight. A square's byte is 0 when empty, else the piece's code (1 + owner
/// · 2 + kind, by `Player::index` and `Piece::index`) with the flags [`ATTACKED`] and
/// [`DEFENDED`].
const BYTES: usize = 32;
/// The byte of White's penalty flag (Black's follows): 1 if the side has a penalty point.
const PENALTY_BYTE: usize = SQUARES;
/// The bits of a square's byte that hold the piece's code.
const CODE: u8 = 7;
/// A square's flag: an enemy piece attacks the piece on it.
const ATTACKED: u8 = 8;
/// A square's flag: an own piece attacks the square of the piece on it (defends it).
const DEFENDED: u8 = 16;
/// The squares of the a-file (bit `sq` for square `sq`).
const FILE_A: u32 = 0x0010_8421;
/// The squares of the e-file.
const FILE_E: u32 = FILE_A << (SIZE - 1);
/// Every square.
const ALL: u32 = (1 << SQUARES) - 1;

/// The byte code of a piece: 1 + owner (`Player::index`) · 2 + kind (`Piece::index`).
fn code(owner: usize, piece: Piece) -> u8 {
    (1 + owner * 2 + piece.index()) as u8
}

/// Square `s` seen from `viewer` (0: White, 1: Black, who sees the ranks reversed).
const fn seen(s: usize, viewer: usize) -> usize {
    let size = SIZE as usize;
    if viewer == 0 {
        s
    } else {
        (size - 1 - s / size) * size + s % size
    }
}

/// The input seen from `viewer` of the piece of code `c` (1..=4) on square `s`, in the
/// block of inputs starting at `block`.
const fn piece_input(block: usize, s: usize, c: usize, viewer: usize) -> u16 {
    let (owner, kind) = ((c - 1) / 2, (c - 1) % 2);
    let relative = (owner != viewer) as usize;
    (block + (relative * 2 + kind) * SQUARES + seen(s, viewer)) as u16
}

/// `FEATURE[block][s][c]`: the inputs, seen from White and from Black, of the piece of code
/// `c` on square `s` (block 0), attacked there (1) or defended there (2).
static FEATURE: [[[[u16; 2]; 5]; SQUARES]; 3] = {
    let mut t = [[[[0u16; 2]; 5]; SQUARES]; 3];
    let mut block = 0;
    while block < 3 {
        let mut s = 0;
        while s < SQUARES {
            let mut c = 1;
            while c < 5 {
                let first = block * PIECE_INPUTS;
                t[block][s][c] = [piece_input(first, s, c, 0), piece_input(first, s, c, 1)];
                c += 1;
            }
            s += 1;
        }
        block += 1;
    }
    t
};

/// The inputs, seen from White and from Black, of side `owner`'s penalty point.
const fn penalty_feature(owner: usize) -> [u16; 2] {
    [
        (PENALTY_INPUTS + (owner != 0) as usize) as u16,
        (PENALTY_INPUTS + (owner != 1) as usize) as u16,
    ]
}

/// The squares the pawns `pawns` of side `owner` (0: White, moving up) attack: one step
/// diagonally forward.
fn pawn_attacks(owner: usize, pawns: u32) -> u32 {
    let size = u32::from(SIZE);
    if owner == 0 {
        (((pawns & !FILE_A) << (size - 1)) | ((pawns & !FILE_E) << (size + 1))) & ALL
    } else {
        ((pawns & !FILE_A) >> (size + 1)) | ((pawns & !FILE_E) >> (size - 1))
    }
}

/// The pieces, their attacked and defended flags and the penalty flags of a position as the
/// inputs see them (see [`BYTES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board([u8; BYTES]);

impl Board {
    /// The board of `pos`.
    #[inline]
    pub(super) fn of(pos: &Apocalypse) -> Board {
        let mut bytes = [0u8; BYTES];
        let (mut pawns, mut knights) = ([0u32; 2], [0u32; 2]);
        for (s, (b, cell)) in bytes.iter_mut().zip(pos.cells()).enumerate() {
            if let Some((owner, piece)) = *cell {
                let o = owner.index();
                *b = code(o, piece);
                match piece {
                    Piece::Pawn => pawns[o] |= 1 << s,
                    Piece::Knight => knights[o] |= 1 << s,
                }
            }
        }
        let mut attacks = [0u32; 2];
        for (o, a) in attacks.iter_mut().enumerate() {
            *a = pawn_attacks(o, pawns[o]);
            let mut k = knights[o];
            while k != 0 {
                *a |= KNIGHT_MASKS[k.trailing_zeros() as usize];
                k &= k - 1;
            }
        }
        for o in 0..2 {
            let mut own = pawns[o] | knights[o];
            while own != 0 {
                let s = own.trailing_zeros() as usize;
                own &= own - 1;
                let bit = 1 << s;
                if attacks[1 - o] & bit != 0 {
                    bytes[s] |= ATTACKED;
                }
                if attacks[o] & bit != 0 {
                    bytes[s] |= DEFENDED;
                }
            }
        }
        for p in [Player::First, Player::Second] {
            bytes[PENALTY_BYTE + p.index()] = u8::from(pos.penalties(p) > 0);
        }
        Board(bytes)
    }

    /// Calls `apply(feature, added)` with the features of each byte of `self` in `bytes` (a
    /// bit set).
    #[inline]
    fn each_of(&self, mut bytes: u32, added: bool, apply: &mut impl FnMut([u16; 2], bool)) {
        while bytes != 0 {
            let b = bytes.trailing_zeros() as usize;
            bytes &= bytes - 1;
            let v = self.0[b];
            if v == 0 {
                continue;
            }
            if b >= PENALTY_BYTE {
                apply(penalty_feature(b - PENALTY_BYTE), added);
                continue;
            }
            let c = usize::from(v & CODE);
            apply(FEATURE[0][b][c], added);
            if v & ATTACKED != 0 {
                apply(FEATURE[1][b][c], added);
            }
            if v & DEFENDED != 0 {
                apply(FEATURE[2][b][c], added);
            }
        }
    }
}

/// The bytes (a bit set) that `old` and `new` differ on, found eight at a time.
#[inline]
fn differing(old: &Board, new: &Board) -> u32 {
    let (old_words, _) = old.0.as_chunks::<8>();
    let (new_words, _) = new.0.as_chunks::<8>();
    let mut diff = 0;
    for (w, (a, b)) in old_words.iter().zip(new_words).enumerate() {
        let mut x = u64::from_le_bytes(*a) ^ u64::from_le_bytes(*b);
        while x != 0 {
            let byte = x.trailing_zeros() / 8;
            x &= !(0xff << (8 * byte));
            diff |= 1 << (8 * w + byte as usize);
        }
    }
    diff
}

impl NnueBoard for Board {
    fn each_feature(&self, mut apply: impl FnMut([u16; 2])) {
        self.each_of(u32::MAX, true, &mut |f, _| apply(f));
    }

    #[inline]
    fn changes(old: &Board, new: &Board, mut apply: impl FnMut([u16; 2], bool)) {
        let diff = differing(old, new);
        old.each_of(diff, false, &mut apply);
        new.each_of(diff, true, &mut apply);
    }
}

/// The inputs `pos` sets seen from `viewer` (each once), for training.
fn inputs(pos: &Apocalypse, viewer: Player) -> Vec<u16> {
    nnue::inputs_of(&Board::of(pos), viewer)
}

nnue::game_network!(Apocalypse, include_bytes!("nnue.bin"), |pos| None);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::testing;
    use crate::game::RuleOptions;
    use crate::notation::Notation;

    /// A network with random weights (the trainer's start), in integers.
    fn random_net(seed: u64) -> nnue::Quantized {
        testing::random_net(INPUTS, MAX_ACTIVE, seed)
    }

    /// The positions of `games` random playouts from the start (a side declares void one
    /// time in 50, so penalty points come and go).
    fn playouts(games: usize, seed: u64) -> Vec<Apocalypse> {
        crate::games::apocalypse::tests::rules::random_positions(true, games, seed)
    }

    fn parse(text: &str) -> Apocalypse {
        Apocalypse::parse_position(text, &RuleOptions::default()).expect("a position")
    }

    /// The colour-flipped board: ranks reversed, colours and penalty flags swapped (a
    /// square's attacked and defended flags stay with its piece).
    fn flipped(board: &Board) -> Board {
        let mut out = [0u8; BYTES];
        for s in 0..SQUARES {
            let v = board.0[s];
            out[seen(s, 1)] = if v == 0 {
                0
            } else {
                (((v & CODE) - 1) ^ 2) + 1 | (v & !CODE)
            };
        }
        out[PENALTY_BYTE] = board.0[PENALTY_BYTE + 1];
        out[PENALTY_BYTE + 1] = board.0[PENALTY_BYTE];
        Board(out)
    }

    #[test]
    fn the_updated_accumulator_is_the_recomputed_one_along_random_playouts() {
        let positions = playouts(60, 1);
        assert!(positions.len() > 1000, "{}", positions.len());
        let penalised = positions
            .iter()
            .filter(|p| p.penalties(Player::First) + p.penalties(Player::Second) > 0)
            .count();
        assert!(penalised > 100, "{penalised}");
        let boards: Vec<Board> = positions.iter().map(Board::of).collect();
        testing::assert_updates_match(&random_net(5), &boards);
    }

    #[test]
    fn the_inputs_name_each_piece_its_attacks_and_penalty_and_black_sees_the_ranks_reversed() {
        let start = parse("npppn/p3p/5/P3P/NPPPN 00 0");
        let white = inputs(&start, Player::First);
        let black = inputs(&start, Player::Second);
        // The start is the same position seen from either side.
        let sorted = |mut v: Vec<u16>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(white.clone()), sorted(black.clone()));
        // White's knight a1 (square 0) is, for White, an own knight (kind 1) at a1: 25 + 0;
        // for Black an enemy knight at a5 (square 20): (2 + 1) · 25 + 20.
        assert!(white.contains(&25) && black.contains(&95));
        // Black's pawn a4 (square 15) is, for Black, an own pawn at a2 (square 5): 5.
        assert!(black.contains(&5));
        // At the start no piece is attacked, and the pawns a2 and e2 are defended (by the
        // pawns b1 and d1): for White an own pawn at a2, defended, is 200 + 5.
        assert!(white.contains(&205));
        assert!(white.iter().all(|&i| !(100..200).contains(&i)));
        // White has a penalty point: 300 for White, 301 for Black.
        let penalty = parse("npppn/p3p/5/P3P/NPPPN 10 0");
        assert!(inputs(&penalty, Player::First).contains(&300));
        assert!(inputs(&penalty, Player::Second).contains(&301));
        // The white knight c3 attacked by the black pawn b4 and defended by the pawn b2:
        // an own knight at c3 (25 + 12), attacked (125 + 12) and defended (225 + 12);
        // the pawn b4, for Black an own pawn at b2 (6), is not attacked (c3's knight leaps
        // to a4, b5, d5, e4, e2, d1, b1, a2).
        let attacked = parse("n4/1p3/2N2/1P3/5 00 0");
        let (white, black) = (
            inputs(&attacked, Player::First),
            inputs(&attacked, Player::Second),
        );
        for i in [37, 137, 237] {
            assert!(white.contains(&i), "{i} in {white:?}");
        }
        assert!(black.contains(&6) && !black.contains(&106));
    }

    #[test]
    fn the_attack_flags_are_the_classical_evaluations_attackers() {
        for pos in playouts(20, 2) {
            let board = Board::of(&pos);
            let masks = super::super::Masks::of(&pos);
            let mut pieces = 0;
            for s in 0..SQUARES as u8 {
                let Some((owner, _)) = pos.cell(s) else {
                    assert_eq!(board.0[usize::from(s)], 0);
                    continue;
                };
                pieces += 1;
                let v = board.0[usize::from(s)];
                let enemy = masks.attackers(s, owner.other()).any();
                let own = masks.attackers(s, owner).any();
                assert_eq!(
                    (v & ATTACKED != 0, v & DEFENDED != 0),
                    (enemy, own),
                    "{pos:?}"
                );
            }
            let flags = [Player::First, Player::Second]
                .iter()
                .filter(|&&p| pos.penalties(p) > 0)
                .count();
            let set = |b: u8| board.0[..SQUARES].iter().filter(|&&v| v & b != 0).count();
            let count = pieces + set(ATTACKED) + set(DEFENDED) + flags;
            let (white, black) = (inputs(&pos, Player::First), inputs(&pos, Player::Second));
            assert_eq!((white.len(), black.len()), (count, count));
            assert!(white.len() <= MAX_ACTIVE);
            assert!(white.iter().chain(&black).all(|&i| usize::from(i) < INPUTS));
        }
    }

    #[test]
    fn the_colour_flipped_position_is_valued_the_negation() {
        let net = random_net(3);
        // A position and its mirror written by hand (the classical evaluation's test pair).
        let (a, b) = (
            Board::of(&parse("n1ppn/p3p/2P2/P4/NPP1N 10 0")),
            Board::of(&parse("npp1n/p4/2p2/P3P/N1PPN 01 0")),
        );
        assert_eq!(flipped(&a), b);
        for pos in playouts(5, 4) {
            let board = Board::of(&pos);
            let acc = nnue::accumulator(&net, &board);
            let mirror = nnue::accumulator(&net, &flipped(&board));
            assert_eq!(mirror.halves, [acc.halves[1], acc.halves[0]]);
            let value = |acc| nnue::value(&net, acc, None, SCORE_PER_LOGIT);
            assert_eq!(value(&mirror), -value(&acc), "{pos:?}");
        }
    }

    #[test]
    fn the_engine_path_gives_the_recomputed_value() {
        let boards: Vec<(Board, Option<Player>)> = playouts(5, 3)
            .iter()
            .map(|p| (Board::of(p), None))
            .collect();
        testing::assert_engine_path_matches(&RUNTIME, &random_net(7), &boards);
    }

    #[test]
    fn the_checked_in_weights_are_readable() {
        assert_eq!(CHECKED_IN.inputs(), INPUTS);
        assert!(
            CHECKED_IN
                .header()
                .contains("quartet tune --game apocalypse")
        );
    }
}
