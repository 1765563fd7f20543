//! Zobrist keys: fixed-seed constants computed at compile time. The hash covers the board,
//! both hands and the side to move, but not the plies-since-capture counter, so that the
//! history keeper can find repetitions by hash.

use super::geometry::{SOLDIERS_PER_COLOUR, SQUARES, Square};
use super::pieces::{Colour, Piece};
use crate::kit::zobrist;
use quartet_core::game::Player;

const HAND_SIZES: usize = SOLDIERS_PER_COLOUR as usize + 1;

struct Keys {
    /// `[player * 3 + piece kind][square]`.
    pieces: [[u64; SQUARES]; 6],
    /// `[player][colour][soldiers in hand]`.
    hands: [[[u64; HAND_SIZES]; 2]; 2],
    /// XORed in when North is to move.
    north_to_move: u64,
    /// XORed in at the joint setup of `Placement together` (drawn last, so that the other
    /// keys are those of the game without it).
    joint_setup: u64,
}

static KEYS: Keys = {
    let mut state = 0x5245_4452_2642_4C4B; // fixed seed: the keys never change between runs
    let pieces = zobrist::table(&mut state);
    let hands = [zobrist::table(&mut state), zobrist::table(&mut state)];
    let [north_to_move, joint_setup] = zobrist::keys(&mut state);
    Keys {
        pieces,
        hands,
        north_to_move,
        joint_setup,
    }
};

/// The key of `piece` of `owner` standing on `square`.
#[inline(always)]
pub(super) fn piece(owner: Player, piece: Piece, square: Square) -> u64 {
    KEYS.pieces[owner.index() * 3 + piece.index()][square.index()]
}

/// The key of `owner` holding `count` soldiers of `colour` in hand (`count` at most
/// `SOLDIERS_PER_COLOUR`).
#[inline(always)]
pub(super) fn hand(owner: Player, colour: Colour, count: u8) -> u64 {
    KEYS.hands[owner.index()][colour.index()][count as usize]
}

/// The key of the joint setup (rule 1.3(d)).
#[inline(always)]
pub(super) fn joint_setup() -> u64 {
    KEYS.joint_setup
}

/// The key of the side to move.
#[inline(always)]
pub(super) fn to_move(side: Player) -> u64 {
    match side {
        Player::First => 0,
        Player::Second => KEYS.north_to_move,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = KEYS.pieces.iter().flatten().copied().collect();
        all.extend(KEYS.hands.iter().flatten().flatten().copied());
        all.extend([KEYS.north_to_move, KEYS.joint_setup]);
        assert!(zobrist::distinct_and_nonzero(all));
    }
}
