//! Pieces and moves of R&B (rules 1.2–1.4).

use super::arrangement::Arrangement;
use super::geometry::Square;

/// A soldier's colour, its "tribe" (rule 1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Red soldiers (`R` / `r`).
    Red,
    /// Black soldiers (`B` / `b`).
    Black,
}

impl Colour {
    /// Both colours, red first: the order of hands in the position string.
    pub const ALL: [Colour; 2] = [Colour::Red, Colour::Black];

    /// 0 for red, 1 for black.
    pub const fn index(self) -> usize {
        match self {
            Colour::Red => 0,
            Colour::Black => 1,
        }
    }

    /// The upper-case letter of the colour (`R`, `B`), as placements are written.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Black => 'B',
        }
    }

    /// The colour's English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Black => "black",
        }
    }
}

/// The kind of a piece, whoever owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A soldier of the given colour.
    Soldier(Colour),
    /// The king.
    King,
}

impl Piece {
    /// 0 red soldier, 1 black soldier, 2 king: an index into per-kind tables.
    pub const fn index(self) -> usize {
        match self {
            Piece::Soldier(c) => c.index(),
            Piece::King => 2,
        }
    }
}

/// One move: a placement during the placement phase or a one-square step afterwards (the
/// owner is the side to move), or one side's half of the joint setup of `Placement
/// together` (rule 1.3(d)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Puts a soldier of `colour` from the mover's hand on the empty square `to` (`R@a2`).
    Place {
        /// The colour drawn from the hand.
        colour: Colour,
        /// The empty square of the mover's zone.
        to: Square,
    },
    /// Moves the mover's piece on `from` to the adjacent empty square `to` (`d1d2`).
    Step {
        /// The square the piece leaves.
        from: Square,
        /// The square it enters.
        to: Square,
    },
    /// One side's whole arrangement at the joint setup (`R@a2,...,B@f1`).
    Arrange(Arrangement),
}
