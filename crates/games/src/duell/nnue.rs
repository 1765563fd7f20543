//! Duell's efficiently updatable network ([`quartet_core::eval::nnue`]): its inputs, the board its
//! accumulator is kept up to date by, and the evaluation it gives.
//!
//! - **Inputs (3600 per view):** a piece by its owner (the viewer's or the other side's),
//!   its kind (an ordinary die in one of its 24 orientations, rules §1.3, which give its top
//!   face and how it rolls; or the key piece) and its square, all seen from the viewer:
//!   Black's view turns the board half a turn about the vertical (a square `s` is seen as
//!   `71 − s`, and a die's north and east faces become its south and west,
//!   [`half_turn`]), so each side sees its own key square at e1. 2 × 25 × 72 inputs; every
//!   piece sets exactly one, so a position sets at most [`MAX_ACTIVE`] = 18 per view.
//! - **Network:** 3600 → 2 × 32 (clipped ReLU, one half per view) → 1, the logit of P(the
//!   side to move wins); a score is that logit times [`SCORE_PER_LOGIT`] (the logistic scale
//!   `quartet tune` fits to Duell's classical evaluation: k ≈ 0.0137 per unit).
//! - **Updates:** the shared thread cache ([`nnue::evaluate`]) with the squares two boards
//!   differ on: a move changes two or three features (the mover leaves its square, arrives
//!   rolled, and a captured piece goes).

use crate::duell::Duell;
use crate::duell::board::{Bitboard, SQUARES};
use crate::duell::die::{ORIENTATIONS, half_turn};
use crate::duell::piece::{self, EMPTY, KEY_KIND, PIECE_CODES, Piece};
use quartet_core::eval::nnue::{self, NnueBoard};
use quartet_core::game::Player;

/// The first bytes of a Duell network file.
pub const MAGIC: &[u8; 8] = b"QDUENN01";
/// Piece kinds an input tells apart: 24 orientations of an ordinary die and the key.
const KINDS: usize = ORIENTATIONS + 1;
/// Inputs per view: owner (viewer's, other's) × kind × square.
pub const INPUTS: usize = 2 * KINDS * SQUARES;
/// The most inputs a position sets in one view: each side's key and 8 dice.
pub const MAX_ACTIVE: usize = 18;
/// Evaluation units per unit of the network's logit (P(win) = logistic(score / 73)).
pub const SCORE_PER_LOGIT: i64 = 73;
/// Whether Duell evaluates with its network unless the `Eval` option says otherwise: no,
/// its match against the classical evaluation was undecided (README, "The networks of R&B
/// and Duell").
pub const NETWORK_BY_DEFAULT: bool = false;

/// The input of piece `p` on square `s` seen from `viewer` (0: White, 1: Black).
const fn input(p: Piece, s: usize, viewer: usize) -> u16 {
    let owner = match piece::owner(p) {
        Player::First => 0,
        Player::Second => 1,
    };
    let relative = (owner != viewer) as usize;
    let kind = piece::kind(p);
    let (seen_kind, seen_square) = if viewer == 0 {
        (kind, s)
    } else if kind == KEY_KIND {
        (kind, SQUARES - 1 - s)
    } else {
        (half_turn(kind), SQUARES - 1 - s)
    };
    ((relative * KINDS + seen_kind as usize) * SQUARES + seen_square) as u16
}

/// `FEATURE[p][s]`: the inputs, seen from White and from Black, of piece `p` (not empty) on
/// square `s`.
static FEATURE: [[[u16; 2]; SQUARES]; PIECE_CODES] = {
    let mut t = [[[0u16; 2]; SQUARES]; PIECE_CODES];
    let mut p = 1;
    while p < PIECE_CODES {
        let mut s = 0;
        while s < SQUARES {
            t[p][s] = [input(p as Piece, s, 0), input(p as Piece, s, 1)];
            s += 1;
        }
        p += 1;
    }
    t
};

/// The pieces of a position as the inputs see them: the piece code on each square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board([Piece; SQUARES]);

impl Board {
    /// The pieces of `pos`.
    #[inline]
    pub(super) fn of(pos: &Duell) -> Board {
        Board(pos.board)
    }
}

/// The board splits into words of eight squares.
const _: () = assert!(SQUARES.is_multiple_of(8));

/// The squares `old` and `new` hold different pieces on, found eight squares at a time.
#[inline]
fn differing(old: &Board, new: &Board) -> Bitboard {
    let (old_words, _) = old.0.as_chunks::<8>();
    let (new_words, _) = new.0.as_chunks::<8>();
    let mut diff: Bitboard = 0;
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
        for (s, &p) in self.0.iter().enumerate() {
            if p != EMPTY {
                apply(FEATURE[usize::from(p)][s]);
            }
        }
    }

    #[inline]
    fn changes(old: &Board, new: &Board, mut apply: impl FnMut([u16; 2], bool)) {
        let diff = differing(old, new);
        for (board, added) in [(old, false), (new, true)] {
            let mut rest = diff;
            while rest != 0 {
                let s = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let p = board.0[s];
                if p != EMPTY {
                    apply(FEATURE[usize::from(p)][s], added);
                }
            }
        }
    }
}

/// The inputs `pos` sets seen from `viewer` (each once), for training.
fn inputs(pos: &Duell, viewer: Player) -> Vec<u16> {
    nnue::inputs_of(&Board::of(pos), viewer)
}

nnue::game_network!(Duell, include_bytes!("nnue.bin"), |pos| Some(pos.side));

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::eval::nnue::testing;
    use quartet_core::notation::Notation;

    /// A network with random weights (the trainer's start), in integers.
    fn random_net(seed: u64) -> nnue::Quantized {
        testing::random_net(INPUTS, MAX_ACTIVE, seed)
    }

    /// The positions of `games` random playouts of Duell from the start.
    fn playouts(games: usize, seed: u64) -> Vec<Duell> {
        testing::playouts(games, 300, seed)
    }

    /// The board and the side to move of `pos`.
    fn describe(pos: &Duell) -> (Board, Option<Player>) {
        (Board::of(pos), Some(pos.side))
    }

    #[test]
    fn the_updated_accumulator_is_the_recomputed_one_along_random_playouts() {
        let positions = playouts(30, 1);
        assert!(positions.len() > 1000, "{}", positions.len());
        let boards: Vec<Board> = positions.iter().map(Board::of).collect();
        testing::assert_updates_match(&random_net(5), &boards);
    }

    #[test]
    fn every_piece_sets_one_input_and_black_sees_the_board_turned() {
        let start = Duell::start(&Default::default());
        let white = inputs(&start, Player::First);
        let black = inputs(&start, Player::Second);
        assert_eq!(white.len(), MAX_ACTIVE);
        // The start is the same position seen from either side.
        let sorted = |mut v: Vec<u16>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(white.clone()), sorted(black));
        // White's key on e1 (4) is an own key at e1; Black's on e8 an enemy key at e8.
        let key = |relative: usize, s: usize| (relative * KINDS + KEY_KIND as usize) * SQUARES + s;
        assert!(white.contains(&(key(0, 4) as u16)));
        assert!(white.contains(&(key(1, 67) as u16)));
        for pos in playouts(5, 2) {
            let white = inputs(&pos, Player::First);
            let black = inputs(&pos, Player::Second);
            let pieces = (pos.occ[0] | pos.occ[1]).count_ones() as usize;
            assert_eq!((white.len(), black.len()), (pieces, pieces));
            assert!(white.iter().chain(&black).all(|&i| usize::from(i) < INPUTS));
        }
    }

    #[test]
    fn the_engine_path_gives_the_recomputed_value() {
        let boards: Vec<(Board, Option<Player>)> = playouts(3, 3).iter().map(describe).collect();
        testing::assert_engine_path_matches(&RUNTIME, &random_net(7), &boards);
    }

    #[test]
    fn the_checked_in_weights_are_readable() {
        assert_eq!(CHECKED_IN.inputs(), INPUTS);
        assert!(CHECKED_IN.header().contains("quartet tune --game duell"));
    }

    /// Copy-make against update-undo (and a recomputation at every node, and the engine's
    /// cache) over full-width depth-3 walks of Duell's bench positions:
    /// `cargo test --release --lib duell::eval::nnue::tests::accumulator_strategies --
    /// --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn accumulator_strategies() {
        let positions: Vec<Duell> = crate::duell::DECLARATION
            .bench
            .positions
            .iter()
            .map(|p| Duell::parse_position(p, &Default::default()).expect("bench position"))
            .collect();
        testing::measure_strategies(&RUNTIME, &random_net(11), describe, &positions, 3);
    }
}
