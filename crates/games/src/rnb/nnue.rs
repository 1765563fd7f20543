//! R&B's efficiently updatable network ([`quartet_core::eval::nnue`]): its inputs, the accumulator
//! kept up to date by the changes between positions, and the evaluation it gives.
//!
//! - **Inputs (232 per view):** a piece by its kind (king, red soldier, black soldier), its
//!   owner (the viewer's or the other side's) and its square seen from the viewer (North's
//!   view turns the board half a turn, so each side sees its own base at d1): 6 × 36; and
//!   each side's hand of each colour as a thermometer (one input per soldier held, 4 each):
//!   2 × 2 × 4. Every piece sets exactly one input, so a position sets at most
//!   [`MAX_ACTIVE`] = 18 per view.
//! - **Network:** 232 → 2 × 32 (clipped ReLU, one half per view) → 1, the logit of P(the side
//!   to move wins); a score is that logit times [`SCORE_PER_LOGIT`] (the logistic scale
//!   `quartet tune` fits to R&B's classical evaluation: k ≈ 0.008 per unit).
//! - **Updates:** the search copies the position before each move (copy-make) and asks for
//!   the static value of a position without saying which move led there, so each search
//!   thread keeps the last position it evaluated with its accumulator ([`Cache`]) and
//!   changes the accumulator by the difference of the two boards: the features removed and
//!   added, a few per move, never a full recomputation once the cache is warm. With debug
//!   assertions each update is checked against the accumulator recomputed from scratch.

use crate::rnb::Rnb;
use crate::rnb::geometry::{Bitboard, SOLDIERS_PER_COLOUR, SQUARES, squares};
use quartet_core::eval::nnue::{self, NnueBoard};
use quartet_core::game::Player;

/// The first bytes of an R&B network file.
pub const MAGIC: &[u8; 8] = b"QRNBNN01";
/// Piece kinds an input tells apart: king, red soldier, black soldier.
const KINDS: usize = 3;
/// Inputs of pieces on the board: owner (viewer's, other's) × kind × square.
const BOARD_INPUTS: usize = 2 * KINDS * SQUARES;
/// Soldiers of one colour a hand may hold.
const HAND_DEPTH: usize = SOLDIERS_PER_COLOUR as usize;
/// Inputs per view.
pub const INPUTS: usize = BOARD_INPUTS + 2 * 2 * HAND_DEPTH;
/// The most inputs a position sets in one view: two kings and every soldier, on the board or
/// in hand.
pub const MAX_ACTIVE: usize = 2 + 2 * 2 * HAND_DEPTH;
/// Evaluation units per unit of the network's logit (P(win) = logistic(score / 125)).
pub const SCORE_PER_LOGIT: i64 = 125;
/// Whether R&B evaluates with its network unless the `Eval` option says otherwise: no, its
/// match against the classical evaluation was undecided (README, "The networks of R&B and
/// Duell").
pub const NETWORK_BY_DEFAULT: bool = false;

/// The pieces of a position as the inputs see them: each owner's kings, red and black
/// soldiers (`[owner · 3 + kind]`, owner by `Player::index`) and hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    pieces: [Bitboard; 2 * KINDS],
    hands: [[u8; 2]; 2],
}

impl Board {
    /// The pieces of `pos`.
    pub(super) fn of(pos: &Rnb) -> Board {
        let mut pieces = [0; 2 * KINDS];
        for owner in 0..2 {
            let own = pos.sides[owner];
            pieces[owner * KINDS] = own & pos.kings;
            pieces[owner * KINDS + 1] = own & pos.red & !pos.kings;
            pieces[owner * KINDS + 2] = own & !pos.red & !pos.kings;
        }
        Board {
            pieces,
            hands: pos.hands,
        }
    }
}

impl NnueBoard for Board {
    fn each_feature(&self, mut apply: impl FnMut([u16; 2])) {
        for slot in 0..2 * KINDS {
            for sq in squares(self.pieces[slot]) {
                apply(board_feature(slot, sq.index()));
            }
        }
        for owner in 0..2 {
            for colour in 0..2 {
                for n in 0..usize::from(self.hands[owner][colour]) {
                    apply(hand_feature(owner, colour, n));
                }
            }
        }
    }

    #[inline]
    fn changes(old: &Board, new: &Board, mut apply: impl FnMut([u16; 2], bool)) {
        for added in [false, true] {
            let (from, to) = if added { (old, new) } else { (new, old) };
            for slot in 0..2 * KINDS {
                for sq in squares(to.pieces[slot] & !from.pieces[slot]) {
                    apply(board_feature(slot, sq.index()), added);
                }
            }
            for owner in 0..2 {
                for colour in 0..2 {
                    let (was, is) = (from.hands[owner][colour], to.hands[owner][colour]);
                    for n in was..is {
                        apply(hand_feature(owner, colour, usize::from(n)), added);
                    }
                }
            }
        }
    }
}

/// The inputs, seen from South and from North, of the piece in `slot` (`owner · 3 + kind`)
/// on square index `sq`.
#[inline]
fn board_feature(slot: usize, sq: usize) -> [u16; 2] {
    let (owner, kind) = (slot / KINDS, slot % KINDS);
    let input = |viewer: usize| {
        let relative = usize::from(owner != viewer);
        let seen = if viewer == 0 { sq } else { SQUARES - 1 - sq };
        ((relative * KINDS + kind) * SQUARES + seen) as u16
    };
    [input(0), input(1)]
}

/// The inputs, seen from South and from North, of the `n`-th soldier (from 0) of `colour`
/// in `owner`'s hand.
#[inline]
fn hand_feature(owner: usize, colour: usize, n: usize) -> [u16; 2] {
    let input = |viewer: usize| {
        let relative = usize::from(owner != viewer);
        (BOARD_INPUTS + (relative * 2 + colour) * HAND_DEPTH + n) as u16
    };
    [input(0), input(1)]
}

/// The inputs `pos` sets seen from `viewer` (each once), for training.
pub(super) fn inputs(pos: &Rnb, viewer: Player) -> Vec<u16> {
    nnue::inputs_of(&Board::of(pos), viewer)
}

nnue::game_network!(Rnb, include_bytes!("nnue.bin"), |pos| Some(pos.to_move));

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::eval::nnue::testing;
    use quartet_core::notation::Notation;

    /// A network with random weights (the trainer's start), in integers.
    fn random_net(seed: u64) -> nnue::Quantized {
        testing::random_net(INPUTS, MAX_ACTIVE, seed)
    }

    /// The positions of `games` random playouts of R&B from the start (placements included).
    fn playouts(games: usize, seed: u64) -> Vec<Rnb> {
        testing::playouts(games, 200, seed)
    }

    /// The board and the side to move of `pos`.
    fn describe(pos: &Rnb) -> (Board, Option<Player>) {
        (Board::of(pos), Some(pos.to_move))
    }

    #[test]
    fn the_updated_accumulator_is_the_recomputed_one_along_random_playouts() {
        let boards: Vec<Board> = playouts(30, 1).iter().map(Board::of).collect();
        testing::assert_updates_match(&random_net(5), &boards);
    }

    #[test]
    fn every_piece_sets_one_input_and_north_sees_the_board_turned() {
        for pos in playouts(5, 2) {
            let south = inputs(&pos, Player::First);
            let north = inputs(&pos, Player::Second);
            let pieces = (pos.sides[0] | pos.sides[1]).count_ones() as usize;
            let held: usize = pos.hands.iter().flatten().map(|&n| usize::from(n)).sum();
            assert_eq!(south.len(), pieces + held);
            assert!(south.len() <= MAX_ACTIVE);
            assert!(south.iter().chain(&north).all(|&i| usize::from(i) < INPUTS));
            // South's king on d1 (index 3) is North's other king at c6 turned: 35 - 3.
            if pos.kings & pos.sides[0] & 1 << 3 != 0 {
                assert!(south.contains(&3));
                assert!(north.contains(&((KINDS * SQUARES + 32) as u16)));
            }
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
        assert!(CHECKED_IN.header().contains("quartet tune --game rnb"));
    }

    /// Copy-make against update-undo (and a recomputation at every node, and the engine's
    /// cache) over full-width depth-4 walks of R&B's bench positions:
    /// `cargo test --release --lib rnb::eval::nnue::tests::accumulator_strategies --
    /// --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn accumulator_strategies() {
        let positions: Vec<Rnb> = crate::rnb::DECLARATION
            .bench
            .positions
            .iter()
            .map(|p| Rnb::parse_position(p, &Default::default()).expect("bench position"))
            .collect();
        testing::measure_strategies(&RUNTIME, &random_net(11), describe, &positions, 4);
    }
}
