//! Exact solving, the optional capability of a game whose small positions can be solved
//! whole (Apocalypse by backward induction, Ludo with 1 or 2 pieces by value iteration).
//! A game offers it through [`crate::notation::Notation::SOLVER`]; `quartet solve` calls
//! it without knowing the game.

use crate::game::{Outcome, RuleOptions};

/// What `quartet solve` asks for besides the position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveRequest {
    /// Let either side also declare a void move (a pass costing a penalty point); only for
    /// games with simultaneous moves, others refuse it.
    pub void: bool,
}

/// An exact solver: solves `position` under the rules and returns the lines `quartet
/// solve` prints (the value and what it means, the optimal strategies or move values, the
/// work done), or says why it cannot. Long work says how far it is by calling `progress`
/// with a short phrase (`sweep 12, largest change 3.1e-7`) now and then (at most a few
/// times a second), which `quartet solve` shows while it waits.
pub type Solver<G> =
    fn(&G, &RuleOptions, &SolveRequest, &mut dyn FnMut(&str)) -> Result<Vec<String>, String>;

/// Proves positions' results for the referee (`quartet match --adjudicate exact`, the
/// analogue of tablebase adjudication): a game whose small positions the exact solver can
/// decide offers one through [`crate::notation::Notation::PROVER`].
pub trait Prover<G> {
    /// The result of `pos` under correct play when it is certain (a side wins whatever the
    /// other does, or each side can make sure of not losing), or `None` when the position
    /// is too big, the work too much, or the result not certain.
    fn prove(&mut self, pos: &G) -> Option<Outcome>;
}

/// Makes a prover for one game under the rules.
pub type MakeProver<G> = fn(&RuleOptions) -> Box<dyn Prover<G>>;

/// An exact value for a review: the first player's expected score (0..1) at `position`
/// under `rules` when the game's solver covers it quickly (`quartet review --exact`), else
/// `None`. Its documentation says which positions it covers and what the first call costs.
pub type ExactValue<G> = fn(&G, &RuleOptions) -> Option<f64>;
