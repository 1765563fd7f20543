//! Which simultaneous nodes are wide (too many joint turns for a matrix: R&B's joint setup
//! under `Placement together`), and where the next solve of one starts: what the searcher
//! keeps for the double oracle of [`super::oracle`].

use quartet_core::game::Game;

/// A simultaneous node with more joint turns than this is wide: it is solved by the
/// double oracle ([`super::oracle`]) instead of the bounded matrix search.
pub const WIDE_CELLS: u64 = 1 << 20;

/// Whether `pos` is a wide simultaneous node (see [`WIDE_CELLS`]).
pub fn is_wide<G: Game>(pos: &G) -> bool {
    pos.count_children() > WIDE_CELLS
}

/// Where the next solve of a wide node starts: its hash and the restricted declarations
/// of each side at the end of the last solve.
#[derive(Clone, Debug)]
pub struct WideStart<M> {
    /// The node's hash.
    pub(crate) key: u64,
    /// The first player's restricted declarations.
    pub(crate) rows: Vec<M>,
    /// The second player's restricted declarations.
    pub(crate) cols: Vec<M>,
}
