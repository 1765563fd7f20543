//! Test kits, a dev-dependency only (never in a release build): small [`toys`] games for
//! the tests of the game-generic parts, and the [`invariants`] every game must keep along
//! random playouts.

#![deny(missing_docs)]

pub mod invariants;
pub mod toys;
