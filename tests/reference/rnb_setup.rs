//! The joint setup of R&B's `Placement together`, written straight from
//! `docs/rules/rnb.md` §1.3(d) and §1.7 for the reference of `rnb.rs` (no `quartet` code):
//! every arrangement of a side with its token, the joint turn, and perft from the setup.
//!
//! Perft from the setup multiplies instead of walking 133 million joint turns: for at most
//! 3 plies the count below a joint setup depends on which squares the soldiers stand on,
//! not on their colours. Why: colours matter only to captures (§1.5); the setup captures
//! nothing (§1.3(c)); South's first step reaches rank 3 at most, where no North piece is
//! orthogonally next to it (North stands on ranks 5 and 6), so it captures nothing either;
//! and the leaves of ply 3 (North's first steps) are only counted, never played. The line
//! rule (§1.6-1) and the step counts (§1.4) read squares only. So every depth-1..3 count is
//! a sum over the pairs of square sets, each with one colouring, times the colourings of
//! each side.

use super::game::perft_of;
use super::rnb::{Colour, Kind, Piece, Position, Rnb, Side, Square};

/// §1.2: soldiers of each colour a side owns.
const PER_COLOUR: usize = 4;

/// §1.3(d)1: the free squares of `side`'s zone (its two ranks less its base), in board order
/// (rank by rank from rank 1, each from file a).
pub fn free_squares(side: Side) -> Vec<Square> {
    let mut ranks = side.zone_ranks();
    ranks.sort();
    let mut out = Vec::new();
    for y in ranks {
        for x in 0..6 {
            let sq = Square { x, y };
            if sq != side.base() {
                out.push(sq);
            }
        }
    }
    out
}

/// Every `k`-element subset of `items`, each in the order of `items`.
fn combinations(items: &[Square], k: usize) -> Vec<Vec<Square>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    if items.len() < k {
        return Vec::new();
    }
    let mut with_first: Vec<Vec<Square>> = combinations(&items[1..], k - 1)
        .into_iter()
        .map(|mut rest| {
            rest.insert(0, items[0]);
            rest
        })
        .collect();
    with_first.extend(combinations(&items[1..], k));
    with_first
}

/// One side's arrangement: the squares of its red and of its black soldiers, each in board
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangement {
    pub side: Side,
    pub reds: Vec<Square>,
    pub blacks: Vec<Square>,
}

impl Arrangement {
    /// §1.7: `R@..` for the reds, then `B@..` for the blacks, joined by commas.
    pub fn token(&self) -> String {
        let reds = self.reds.iter().map(|sq| format!("R@{}", sq.name()));
        let blacks = self.blacks.iter().map(|sq| format!("B@{}", sq.name()));
        reds.chain(blacks).collect::<Vec<_>>().join(",")
    }
}

/// §1.3(d)1: every arrangement of `side`: 8 of its free squares, 4 of them red.
pub fn arrangements(side: Side) -> Vec<Arrangement> {
    let mut out = Vec::new();
    for set in combinations(&free_squares(side), 2 * PER_COLOUR) {
        for reds in combinations(&set, PER_COLOUR) {
            let blacks = set
                .iter()
                .copied()
                .filter(|sq| !reds.contains(sq))
                .collect();
            out.push(Arrangement { side, reds, blacks });
        }
    }
    out
}

/// §1.3(d)1–3: both arrangements put on the board at once, both hands empty, South to move.
pub fn place(pos: &Position, south: &Arrangement, north: &Arrangement) -> Position {
    let mut next = pos.clone();
    for a in [south, north] {
        for (colour, squares) in [(Colour::Red, &a.reds), (Colour::Black, &a.blacks)] {
            for &sq in squares {
                assert!(pos.at(sq).is_none(), "{} is taken", sq.name());
                let kind = Kind::Soldier(colour);
                next.set(sq, Some(Piece { side: a.side, kind }));
            }
        }
    }
    next.hand = [[0; 2]; 2];
    next.to_move = Side::South;
    next.setup = false;
    next
}

/// §1.7: plays the joint token `<south>/<north>` (canonical halves) at the setup `pos`.
pub fn play_setup(pos: &Position, token: &str) -> Position {
    let (south, north) = token
        .split_once('/')
        .expect("a joint token <south>/<north>");
    let find = |side: Side, half: &str| {
        arrangements(side)
            .into_iter()
            .find(|a| a.token() == half)
            .unwrap_or_else(|| panic!("{half} is no arrangement of {side:?}"))
    };
    place(pos, &find(Side::South, south), &find(Side::North, north))
}

/// Perft `depth` plies (1 to 3) below the setup `pos`, by the argument of the module
/// documentation.
pub fn perft_setup(pos: &Position, depth: u32) -> u64 {
    assert!((1..=3).contains(&depth), "colours can matter from ply 4 on");
    let colourings = |side: Side| -> u64 {
        let per_set = combinations(&free_squares(side)[..2 * PER_COLOUR], PER_COLOUR).len();
        per_set as u64
    };
    let sets = |side: Side| -> Vec<Arrangement> {
        combinations(&free_squares(side), 2 * PER_COLOUR)
            .into_iter()
            .map(|set| Arrangement {
                side,
                reds: set[..PER_COLOUR].to_vec(),
                blacks: set[PER_COLOUR..].to_vec(),
            })
            .collect()
    };
    let (south, north) = (sets(Side::South), sets(Side::North));
    let mut total = 0;
    for s in &south {
        for n in &north {
            total += perft_of::<Rnb>(&place(pos, s, n), depth - 1);
        }
    }
    total * colourings(Side::South) * colourings(Side::North)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_has_11_free_squares_and_11550_arrangements() {
        assert_eq!(free_squares(Side::South).len(), 11);
        assert_eq!(free_squares(Side::North).len(), 11);
        assert_eq!(arrangements(Side::South).len(), 11_550);
        let tokens: std::collections::HashSet<String> = arrangements(Side::North)
            .iter()
            .map(Arrangement::token)
            .collect();
        assert_eq!(tokens.len(), 11_550);
    }
}
