//! What the searches of a simultaneous node share ([`crate::simultaneous`], its line
//! checks and the double oracle): where a node stands, and the slack of their comparisons.

/// Slack of the comparisons of expected payoffs: the simplex's rounding noise is far below
/// it (payoffs are integers of at most ~10^5), and it is far below the integer steps of
/// values, so a check "proved" within it rounds like the exact comparison.
pub(crate) const SLACK: f64 = 1e-6;

/// Where a node stands: its remaining depth and its ply from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    /// Plies left to search.
    pub depth: i32,
    /// Plies from the root.
    pub ply: usize,
}
