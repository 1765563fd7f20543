//! Board geometry (rules §1.1 to §1.3): the shared track seen from either side's frame, the
//! safe squares and the cells of the 15x15 cross used by the diagram.

use super::{BASE, LAST_TRACK};
use quartet_core::game::Player;

/// Squares on the shared track.
pub(super) const TRACK_LEN: u8 = 52;

/// How far Yellow's start square lies from Red's on the shared track (A26).
pub(super) const YELLOW_START: u8 = 26;

/// Safe squares as a bit set over progress `0..=50`: the four start squares and the four
/// stars, {0, 8, 13, 21, 26, 34, 39, 47}. The set is the same in both frames (§1.3).
const SAFE: u64 =
    (1 << 0) | (1 << 8) | (1 << 13) | (1 << 21) | (1 << 26) | (1 << 34) | (1 << 39) | (1 << 47);

/// Whether progress `p` (either frame) is a track square on which nobody can be captured.
/// `p` must be on the track (`0..=50`).
pub(super) fn is_safe(p: u8) -> bool {
    SAFE & (1 << p) != 0
}

/// The other side's progress for the track square at progress `p` of one side, or `None`
/// when the other side never stands there (home column, goal, base, or the square just
/// before the other side's start, which it never visits).
pub(super) fn other_frame(p: u8) -> Option<u8> {
    if p > LAST_TRACK {
        return None;
    }
    let q = (p + YELLOW_START) % TRACK_LEN;
    (q <= LAST_TRACK).then_some(q)
}

/// How the opponent can hit a piece with its next roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Threat {
    /// Distinct distances 1..=6 from an opponent piece behind it: rolls that hit at once.
    pub(super) near: u32,
    /// The piece is 1..=6 past the opponent's start square and the opponent has a piece in
    /// base: a 6 enters it and the extra roll may hit.
    pub(super) entering: bool,
}

/// The threat to a piece at progress `p` (its owner's frame) from the opponent's pieces
/// `enemy` (their frame). Safe squares, the home column, the goal and the base are never
/// threatened.
pub(super) fn threat(p: u8, enemy: &[u8]) -> Threat {
    let mut t = Threat {
        near: 0,
        entering: false,
    };
    if p > LAST_TRACK || is_safe(p) {
        return t;
    }
    let Some(q) = other_frame(p) else {
        return t;
    };
    for d in 1..=q.min(6) {
        if enemy.contains(&(q - d)) {
            t.near += 1;
        }
    }
    t.entering = (1..=6).contains(&q) && enemy.contains(&BASE);
    t
}

/// The absolute track index A of progress `p` (on the track) of `side`.
pub(super) fn absolute(side: Player, p: u8) -> u8 {
    match side {
        Player::First => p,
        Player::Second => (p + YELLOW_START) % TRACK_LEN,
    }
}

/// The (row, column) cell of each shared-track square A = 0..51 (§1.1).
pub(super) const TRACK_CELLS: [(u8, u8); TRACK_LEN as usize] = [
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (6, 5),
    (5, 6),
    (4, 6),
    (3, 6),
    (2, 6),
    (1, 6),
    (0, 6),
    (0, 7),
    (0, 8),
    (1, 8),
    (2, 8),
    (3, 8),
    (4, 8),
    (5, 8),
    (6, 9),
    (6, 10),
    (6, 11),
    (6, 12),
    (6, 13),
    (6, 14),
    (7, 14),
    (8, 14),
    (8, 13),
    (8, 12),
    (8, 11),
    (8, 10),
    (8, 9),
    (9, 8),
    (10, 8),
    (11, 8),
    (12, 8),
    (13, 8),
    (14, 8),
    (14, 7),
    (14, 6),
    (13, 6),
    (12, 6),
    (11, 6),
    (10, 6),
    (9, 6),
    (8, 5),
    (8, 4),
    (8, 3),
    (8, 2),
    (8, 1),
    (8, 0),
    (7, 0),
    (6, 0),
];

/// The cell of home-column square `k` (1..=5) of `side`: Red's R1..R5 run right along row 7
/// from column 1, Yellow's Y1..Y5 run left along row 7 from column 13.
pub(super) fn home_cell(side: Player, k: u8) -> (u8, u8) {
    match side {
        Player::First => (7, k),
        Player::Second => (7, 14 - k),
    }
}

/// The goal cell where `side`'s finished pieces are drawn: the centre cell its home column
/// leads into.
pub(super) fn goal_cell(side: Player) -> (u8, u8) {
    match side {
        Player::First => (7, 6),
        Player::Second => (7, 8),
    }
}

/// The yard cells where `side`'s base pieces are drawn (four cells inside its 6x6 corner).
pub(super) fn yard_cells(side: Player) -> [(u8, u8); 4] {
    let (r, c) = match side {
        Player::First => (0, 0),
        Player::Second => (9, 9),
    };
    [
        (r + 2, c + 2),
        (r + 2, c + 3),
        (r + 3, c + 2),
        (r + 3, c + 3),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_set_is_the_starts_and_stars() {
        let safe: Vec<u8> = (0..=LAST_TRACK).filter(|&p| is_safe(p)).collect();
        assert_eq!(safe, vec![0, 8, 13, 21, 26, 34, 39, 47]);
        // The set is symmetric under the +26 frame change (§1.3).
        for p in 0..=LAST_TRACK {
            if let Some(q) = other_frame(p) {
                assert_eq!(is_safe(p), is_safe(q), "p = {p}");
            }
        }
    }

    #[test]
    fn threats_count_distinct_distances_behind_on_the_shared_track() {
        let t = |p, enemy: &[u8]| threat(p, enemy);
        // Red 30 = Yellow 4: Yellow pieces at 1 and 3 are 3 and 1 behind; base enters.
        assert_eq!(
            t(30, &[BASE, BASE, 1, 3]),
            Threat {
                near: 2,
                entering: true
            }
        );
        // Two pieces at one distance are one roll; a piece ahead is no threat.
        assert_eq!(
            t(30, &[1, 1, 5, 56]),
            Threat {
                near: 1,
                entering: false
            }
        );
        // Red 40 = Yellow 14: Yellow 4 is 10 behind, beyond one roll.
        assert_eq!(
            t(40, &[2, 4, 56, 56]),
            Threat {
                near: 0,
                entering: false
            }
        );
        // Yellow's frame: Yellow 10 = A36 = Red 36; Red 33 is 3 behind.
        assert_eq!(
            t(10, &[33, 56, 56, 56]),
            Threat {
                near: 1,
                entering: false
            }
        );
        // Safe squares, the home column and A25 (which Yellow never visits).
        let none = Threat {
            near: 0,
            entering: false,
        };
        assert_eq!(t(34, &[BASE, 30, 31, 32]), none);
        assert_eq!(t(52, &[47, 48, 49, 50]), none);
        assert_eq!(t(25, &[BASE, 45, 46, 47]), none);
    }

    #[test]
    fn frames_share_squares_as_the_rules_say() {
        // §1.2: Red 30 and Yellow 4 share A30.
        assert_eq!(other_frame(30), Some(4));
        assert_eq!(other_frame(4), Some(30));
        // A25 = Yellow's S-1 and A51 = Red's S-1 are never visited by that side.
        assert_eq!(other_frame(25), None);
        assert_eq!(absolute(Player::Second, 25), 51);
        assert_eq!(other_frame(51), None);
        assert_eq!(other_frame(50), Some(24));
        assert_eq!(absolute(Player::Second, 50), 24);
    }

    #[test]
    fn track_cells_match_the_anchors_of_section_1_1() {
        assert_eq!(TRACK_CELLS[0], (6, 1));
        assert_eq!(TRACK_CELLS[4], (6, 5));
        assert_eq!(TRACK_CELLS[5], (5, 6));
        assert_eq!(TRACK_CELLS[12], (0, 8));
        assert_eq!(TRACK_CELLS[24], (7, 14));
        assert_eq!(TRACK_CELLS[26], (8, 13));
        assert_eq!(TRACK_CELLS[38], (14, 6));
        assert_eq!(TRACK_CELLS[50], (7, 0));
        assert_eq!(TRACK_CELLS[51], (6, 0));
    }

    #[test]
    fn track_is_a_closed_walk_with_four_diagonal_hops() {
        for a in 0..TRACK_LEN as usize {
            let (r0, c0) = TRACK_CELLS[a];
            let (r1, c1) = TRACK_CELLS[(a + 1) % TRACK_LEN as usize];
            let (dr, dc) = (r0.abs_diff(r1), c0.abs_diff(c1));
            if [4, 17, 30, 43].contains(&a) {
                assert_eq!((dr, dc), (1, 1), "A{a} to A{} is a diagonal hop", a + 1);
            } else {
                assert_eq!(dr + dc, 1, "A{a} to A{} are neighbours", a + 1);
            }
        }
        let mut cells = TRACK_CELLS.to_vec();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), TRACK_LEN as usize, "cells are distinct");
    }

    #[test]
    fn home_columns_lead_from_the_last_track_square_to_the_goal() {
        // Red turns in at A50 = (7,0); Yellow at its p = 50, i.e. A24 = (7,14).
        assert_eq!(TRACK_CELLS[50], (7, 0));
        assert_eq!(home_cell(Player::First, 1), (7, 1));
        assert_eq!(home_cell(Player::First, 5), (7, 5));
        assert_eq!(goal_cell(Player::First), (7, 6));
        assert_eq!(TRACK_CELLS[absolute(Player::Second, 50) as usize], (7, 14));
        assert_eq!(home_cell(Player::Second, 1), (7, 13));
        assert_eq!(home_cell(Player::Second, 5), (7, 9));
        assert_eq!(goal_cell(Player::Second), (7, 8));
    }
}
