//! Apocalypse's efficiently updatable network ([`crate::eval::nnue`]): its inputs, the board
//! its accumulator is kept up to date by, and the evaluation it gives.
//!
//! - **Inputs (102 per view):** a piece by its owner (the viewer's or the other side's), its
//!   kind (pawn, knight) and its square seen from the viewer: Black's view reverses the
//!   ranks, so each side sees its own pieces start on ranks 1 and 2 and move up (2 × 2 ×
//!   25); and whether each side (the viewer's, the other) has a penalty point (2: a side
//!   with two has lost). A side has at most 7 pieces, so a position sets at most
//!   [`MAX_ACTIVE`] = 16 inputs a view.
//! - **Network:** 102 → 2 × 32 (clipped ReLU, one half per view) → 1, the logit of P(the
//!   viewer wins). Apocalypse has no side to move: its value, from White's view, is the mean
//!   of White's logit and the negation of Black's ([`nnue::value`]), so the colour-flipped
//!   position (ranks reversed, colours and penalty points swapped) is valued exactly the
//!   negation; a score is that logit times [`SCORE_PER_LOGIT`] (the logistic scale at which
//!   the classical evaluation's scores best predict self-play results).
//! - **Updates:** the shared thread cache ([`nnue::evaluate`]) with the bytes two boards
//!   differ on, found eight at a time: a turn changes at most a few squares and a penalty.

use crate::eval::nnue::{self, NnueBoard};
use crate::game::Player;
use crate::games::apocalypse::Apocalypse;
use crate::games::apocalypse::board::{Piece, SIZE, SQUARES};

/// The first bytes of an Apocalypse network file.
pub const MAGIC: &[u8; 8] = b"QAPONN01";
/// Inputs of pieces on the board: owner (viewer's, other's) × kind × square.
const PIECE_INPUTS: usize = 2 * 2 * SQUARES;
/// Inputs per view: the pieces, then a penalty point of the viewer and of the other side.
pub const INPUTS: usize = PIECE_INPUTS + 2;
/// The most inputs a position sets in one view: 2 knights and 5 pawns a side, and both
/// sides' penalty points.
pub const MAX_ACTIVE: usize = 2 * 7 + 2;
/// Evaluation units per unit of the network's logit (P(White wins) = logistic(score / 110)):
/// the scale at which the classical evaluation's scores best predict the results of
/// self-play games (held-out loss 0.3266 at 110 on 2500 games, 0.3322 at 90, 0.3298 at 130).
pub const SCORE_PER_LOGIT: i64 = 110;

/// The bytes of a [`Board`]: a piece code per square, then each side's penalty flag,
/// padded to whole words of eight.
const BYTES: usize = 32;
/// The byte of White's penalty flag (Black's follows).
const PENALTY_BYTE: usize = SQUARES;
/// Codes a byte holds: 0 (empty, or no penalty) and 1 + owner · 2 + kind.
const CODES: usize = 5;

/// The byte code of a piece: 1 + owner (`Player::index`) · 2 + kind (`Piece::index`).
fn code(owner: Player, piece: Piece) -> u8 {
    (1 + owner.index() * 2 + piece.index()) as u8
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

/// The input seen from `viewer` of byte `b` holding code `c` (not 0).
const fn input(b: usize, c: usize, viewer: usize) -> u16 {
    if b < SQUARES {
        let (owner, kind) = ((c - 1) / 2, (c - 1) % 2);
        let relative = (owner != viewer) as usize;
        ((relative * 2 + kind) * SQUARES + seen(b, viewer)) as u16
    } else {
        let owner = b - PENALTY_BYTE;
        (PIECE_INPUTS + (owner != viewer) as usize) as u16
    }
}

/// `FEATURE[b][c]`: the inputs, seen from White and from Black, of byte `b` holding code
/// `c` (a piece on a square, or a side's penalty flag, whose code is 1).
static FEATURE: [[[u16; 2]; CODES]; PENALTY_BYTE + 2] = {
    let mut t = [[[0u16; 2]; CODES]; PENALTY_BYTE + 2];
    let mut b = 0;
    while b < PENALTY_BYTE + 2 {
        let mut c = 1;
        while c < CODES {
            t[b][c] = [input(b, c, 0), input(b, c, 1)];
            c += 1;
        }
        b += 1;
    }
    t
};

/// The pieces and penalty flags of a position as the inputs see them (see [`BYTES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board([u8; BYTES]);

impl Board {
    /// The board of `pos`.
    #[inline]
    pub(super) fn of(pos: &Apocalypse) -> Board {
        let mut bytes = [0u8; BYTES];
        for (b, cell) in bytes.iter_mut().zip(pos.cells()) {
            if let Some((owner, piece)) = *cell {
                *b = code(owner, piece);
            }
        }
        for p in [Player::First, Player::Second] {
            bytes[PENALTY_BYTE + p.index()] = u8::from(pos.penalties(p) > 0);
        }
        Board(bytes)
    }

    /// Calls `apply` with the feature of each byte of `self` in `bytes` (a bit set) that
    /// holds something.
    #[inline]
    fn each_of(&self, mut bytes: u32, added: bool, apply: &mut impl FnMut([u16; 2], bool)) {
        while bytes != 0 {
            let b = bytes.trailing_zeros() as usize;
            bytes &= bytes - 1;
            let c = usize::from(self.0[b]);
            if c != 0 {
                apply(FEATURE[b][c], added);
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

    /// The colour-flipped board: ranks reversed, colours and penalty flags swapped.
    fn flipped(board: &Board) -> Board {
        let mut out = [0u8; BYTES];
        for s in 0..SQUARES {
            let c = board.0[s];
            out[seen(s, 1)] = if c == 0 { 0 } else { ((c - 1) ^ 2) + 1 };
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
    fn every_piece_and_penalty_sets_one_input_and_black_sees_the_ranks_reversed() {
        let start = parse("npppn/p3p/5/P3P/NPPPN 00 0");
        let white = inputs(&start, Player::First);
        let black = inputs(&start, Player::Second);
        assert_eq!(white.len(), 14);
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
        // White has a penalty point: 100 for White, 101 for Black.
        let penalty = parse("npppn/p3p/5/P3P/NPPPN 10 0");
        assert!(inputs(&penalty, Player::First).contains(&100));
        assert!(inputs(&penalty, Player::Second).contains(&101));
        assert_eq!(inputs(&penalty, Player::First).len(), 15);
        for pos in playouts(10, 2) {
            let pieces = pos.cells().iter().flatten().count();
            let flags = [Player::First, Player::Second]
                .iter()
                .filter(|&&p| pos.penalties(p) > 0)
                .count();
            let (white, black) = (inputs(&pos, Player::First), inputs(&pos, Player::Second));
            assert_eq!((white.len(), black.len()), (pieces + flags, pieces + flags));
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
