//! The contents of a square as one byte: empty, a key piece, or an ordinary die of a
//! colour in one of its 24 orientations.

use super::die::{self, ORIENTATIONS};
use quartet_core::game::Player;

/// A square's contents: 0 is empty, otherwise `1 + side * 25 + kind`, where `kind` is the
/// die's orientation (0..24) or [`KEY_KIND`] for the key piece.
pub type Piece = u8;

/// The empty square.
pub const EMPTY: Piece = 0;

/// The `kind` of a key piece.
pub const KEY_KIND: u8 = ORIENTATIONS as u8;

/// Number of piece codes, the empty code included (0..=50).
pub const PIECE_CODES: usize = 1 + 2 * (ORIENTATIONS + 1);

/// The ordinary die of `side` in orientation `o` (< 24).
#[inline]
pub const fn die(side: Player, o: u8) -> Piece {
    1 + side_index(side) * 25 + o
}

/// The key piece of `side`.
#[inline]
pub const fn key(side: Player) -> Piece {
    1 + side_index(side) * 25 + KEY_KIND
}

const fn side_index(side: Player) -> u8 {
    match side {
        Player::First => 0,
        Player::Second => 1,
    }
}

/// The owner of a non-empty piece.
#[inline]
pub const fn owner(p: Piece) -> Player {
    if p > 25 {
        Player::Second
    } else {
        Player::First
    }
}

/// The kind of a non-empty piece: its orientation (< 24) or [`KEY_KIND`].
#[inline]
pub const fn kind(p: Piece) -> u8 {
    (p - 1) % 25
}

/// Whether a non-empty piece is a key piece.
#[inline]
pub const fn is_key(p: Piece) -> bool {
    kind(p) == KEY_KIND
}

/// `VALUE[p]`: the number of steps piece `p` moves: its top face, 1 for a key, 0 for empty.
pub const VALUE: [u8; PIECE_CODES] = {
    let mut t = [0u8; PIECE_CODES];
    let mut p = 1;
    while p < PIECE_CODES {
        let k = kind(p as u8);
        t[p] = if k == KEY_KIND { 1 } else { die::top(k) };
        p += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_decode() {
        let mut seen = std::collections::HashSet::new();
        for side in [Player::First, Player::Second] {
            for o in 0..24u8 {
                let p = die(side, o);
                assert!(p != EMPTY && (p as usize) < PIECE_CODES);
                assert_eq!(owner(p), side);
                assert_eq!(kind(p), o);
                assert!(!is_key(p));
                assert_eq!(VALUE[p as usize], o / 4 + 1);
                assert!(seen.insert(p));
            }
            let k = key(side);
            assert!(is_key(k));
            assert_eq!(owner(k), side);
            assert_eq!(VALUE[k as usize], 1);
            assert!(seen.insert(k));
        }
        assert_eq!(seen.len(), PIECE_CODES - 1);
    }
}
