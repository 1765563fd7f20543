//! One side's whole arrangement at the joint setup of `Placement together` (rule 1.3(d)):
//! every soldier of its hand on the free squares of its zone, with its text form (1.7) and
//! its rank among the side's arrangements (the move code).
//!
//! A zone is `ZONE_DEPTH` whole ranks, so its squares are consecutive bit indices; an
//! arrangement keeps its squares as a mask relative to the zone's first square, which makes
//! it small enough to be one half of a joint turn in a move list.

use super::geometry::{
    Bitboard, SOLDIERS_PER_COLOUR, Square, WIDTH, ZONE_DEPTH, base, squares, zone,
};
use super::pieces::Colour;
use quartet_core::game::Player;

const ZONE_SQUARES: usize = WIDTH as usize * ZONE_DEPTH as usize;
const _: () = assert!(ZONE_SQUARES <= 16, "a zone mask is 16 bits");

/// Soldiers each side arranges: its whole hand.
pub const SOLDIERS: u32 = 2 * SOLDIERS_PER_COLOUR as u32;

/// The free squares of a zone (the zone less the base).
const FREE: u32 = ZONE_SQUARES as u32 - 1;

/// `C(n, k)` for the small numbers of this module.
const fn binomial(n: u32, k: u32) -> u32 {
    if k > n {
        return 0;
    }
    let mut result: u64 = 1;
    let mut i = 0;
    while i < k {
        result = result * (n - i) as u64 / (i + 1) as u64;
        i += 1;
    }
    result as u32
}

/// The number of square sets of an arrangement: C(11, 8) = 165 on the 6×6 board.
const SETS: u32 = binomial(FREE, SOLDIERS);
/// The number of ways to colour a set: C(8, 4) = 70.
const COLOURINGS: u32 = binomial(SOLDIERS, SOLDIERS_PER_COLOUR as u32);
/// The number of arrangements of one side: 165 × 70 = 11,550 on the 6×6 board.
pub const ARRANGEMENTS: u32 = SETS * COLOURINGS;

/// One side's arrangement: which squares of its zone hold soldiers and which of those are
/// red (the others black). Built only by `generate` and [`Arrangement::new`],
/// so it always holds 4 red and 4 black soldiers on distinct free squares of the zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrangement {
    /// Whose arrangement it is.
    side: Player,
    /// The soldiers' squares, relative to the zone's first square.
    soldiers: u16,
    /// The red soldiers' squares, relative to the zone's first square.
    red: u16,
}

/// The index of the first square of `p`'s zone.
const fn shift(p: Player) -> u32 {
    zone(p).trailing_zeros()
}

/// The free squares of `p`'s zone, relative to its first square.
fn free_mask(p: Player) -> u16 {
    ((zone(p) & !base(p).bit()) >> shift(p)) as u16
}

impl Arrangement {
    /// The side whose arrangement it is.
    pub fn side(self) -> Player {
        self.side
    }

    /// The squares of its soldiers.
    pub fn squares(self) -> Bitboard {
        Bitboard::from(self.soldiers) << shift(self.side)
    }

    /// The squares of its red soldiers.
    pub fn red(self) -> Bitboard {
        Bitboard::from(self.red) << shift(self.side)
    }

    /// Whether `placements` have the form of an arrangement: `SOLDIERS` distinct squares,
    /// half of each colour; the error says how the token is malformed.
    pub fn check_form(placements: &[(Colour, Square)]) -> Result<(), String> {
        if placements.len() != SOLDIERS as usize {
            return Err(format!(
                "an arrangement places {SOLDIERS} soldiers, found {}",
                placements.len()
            ));
        }
        let mut all: Bitboard = 0;
        for &(_, sq) in placements {
            if all & sq.bit() != 0 {
                return Err(format!("{sq} is named twice"));
            }
            all |= sq.bit();
        }
        let reds = placements.iter().filter(|(c, _)| *c == Colour::Red).count() as u32;
        if reds != u32::from(SOLDIERS_PER_COLOUR) {
            return Err(format!(
                "an arrangement has {SOLDIERS_PER_COLOUR} red and {SOLDIERS_PER_COLOUR} black \
                 soldiers, found {reds} red and {} black",
                SOLDIERS - reds
            ));
        }
        Ok(())
    }

    /// The arrangement of `side` of well-formed `placements` ([`Arrangement::check_form`]),
    /// if every square is a free square of `side`'s zone; else why not.
    pub fn new(side: Player, placements: &[(Colour, Square)]) -> Result<Self, String> {
        let mut all: Bitboard = 0;
        let mut red: Bitboard = 0;
        for &(colour, sq) in placements {
            if sq == base(side) {
                return Err(format!("{sq} is the base, where the king stands"));
            }
            if zone(side) & sq.bit() == 0 {
                return Err(format!("{sq} is outside the zone"));
            }
            all |= sq.bit();
            if colour == Colour::Red {
                red |= sq.bit();
            }
        }
        Ok(Arrangement {
            side,
            soldiers: (all >> shift(side)) as u16,
            red: (red >> shift(side)) as u16,
        })
    }

    /// Its rank among its side's arrangements in the order of `generate` (below
    /// [`ARRANGEMENTS`]).
    pub fn rank(self) -> u32 {
        let free = free_mask(self.side);
        let set = compress(self.soldiers, free);
        let red = compress(self.red, self.soldiers);
        colex_rank(set) * COLOURINGS + colex_rank(red)
    }

    /// The token of rule 1.7: reds first, then blacks, each by square, joined by commas.
    pub fn token(self) -> String {
        let black = self.squares() & !self.red();
        let mut parts: Vec<String> = squares(self.red())
            .map(|sq| format!("{}@{sq}", Colour::Red.letter()))
            .collect();
        parts.extend(squares(black).map(|sq| format!("{}@{sq}", Colour::Black.letter())));
        parts.join(",")
    }
}

/// The bits of `mask` at the set bits of `within`, packed to the low bits in order.
fn compress(mask: u16, within: u16) -> u16 {
    let mut out = 0;
    let mut k = 0;
    let mut rest = within;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        if mask & bit != 0 {
            out |= 1 << k;
        }
        k += 1;
        rest &= rest - 1;
    }
    out
}

/// The rank of `mask` among the masks of its popcount in increasing numeric order (the
/// colexicographic rank of the combination).
fn colex_rank(mask: u16) -> u32 {
    let mut rank = 0;
    let mut rest = mask;
    let mut i = 1;
    while rest != 0 {
        rank += binomial(rest.trailing_zeros(), i);
        i += 1;
        rest &= rest - 1;
    }
    rank
}

/// Gives every arrangement of `side` to `visit`, in increasing [`Arrangement::rank`]: square
/// sets in increasing numeric order of their zone masks, each with its red subsets in
/// increasing numeric order.
pub fn generate(side: Player, mut visit: impl FnMut(Arrangement)) {
    let free = free_mask(side);
    let mut set: u16 = 0;
    loop {
        // The next submask of `free` in increasing order.
        set = set.wrapping_sub(free) & free;
        if set == 0 {
            break;
        }
        if set.count_ones() != SOLDIERS {
            continue;
        }
        let mut red: u16 = 0;
        loop {
            red = red.wrapping_sub(set) & set;
            if red == 0 {
                break;
            }
            if red.count_ones() == u32::from(SOLDIERS_PER_COLOUR) {
                visit(Arrangement {
                    side,
                    soldiers: set,
                    red,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(side: Player) -> Vec<Arrangement> {
        let mut out = Vec::new();
        generate(side, |a| out.push(a));
        out
    }

    #[test]
    fn each_side_has_c_11_8_times_c_8_4_arrangements_ranked_in_order() {
        // Rule 1.3(d): 11 free squares (12 less the base), 8 soldiers, 4 of them red.
        assert_eq!((SETS, COLOURINGS, ARRANGEMENTS), (165, 70, 11_550));
        for side in [Player::First, Player::Second] {
            let list = all(side);
            assert_eq!(list.len(), 11_550);
            for (i, a) in list.iter().enumerate() {
                assert_eq!(a.rank(), i as u32);
                assert_eq!(a.squares() & !zone(side), 0);
                assert_eq!(a.squares() & base(side).bit(), 0);
                assert_eq!(a.squares().count_ones(), 8);
                assert_eq!(a.red().count_ones(), 4);
                assert_eq!(a.red() & !a.squares(), 0);
            }
        }
    }

    #[test]
    fn tokens_list_reds_then_blacks_by_square() {
        let first = all(Player::First)[0];
        // The lowest set: the 8 lowest free squares a1 b1 c1 e1 f1 a2 b2 c2; its lowest reds.
        assert_eq!(first.token(), "R@a1,R@b1,R@c1,R@e1,B@f1,B@a2,B@b2,B@c2");
        let last = all(Player::Second)[11_549];
        // The highest set: d5 e5 f5 a6 b6 d6 e6 f6; its highest reds: b6 d6 e6 f6.
        assert_eq!(last.token(), "R@b6,R@d6,R@e6,R@f6,B@d5,B@e5,B@f5,B@a6");
    }
}
