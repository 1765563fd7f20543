//! Moves of R&B (rules 1.3–1.4): placements, steps and the joint setup's arrangements.

use super::arrangement::Arrangement;
use super::geometry::Square;
use super::pieces::Colour;

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
