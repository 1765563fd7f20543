//! What the engine said about each position of a game: the data between asking the engine
//! ([`super::probe`]) and computing the review ([`super::decompose`]), so that the second
//! is a pure function, tested on hand-made facts.

use serde::Serialize;

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first player (`p1`, the first of `query position`'s `sides`).
    First,
    /// The second player (`p2`).
    Second,
}

impl Side {
    /// `x`, an expected score of the first player, from this side's view.
    pub fn view(self, x: f64) -> f64 {
        match self {
            Side::First => x,
            Side::Second => 1.0 - x,
        }
    }

    /// `x`, a change of the first player's expected score, from this side's view.
    pub fn signed(self, x: f64) -> f64 {
        match self {
            Side::First => x,
            Side::Second => -x,
        }
    }
}

/// The value of a position: the first player's expected score, 0..1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Value {
    /// The first player's expected score.
    pub p: f64,
    /// A proven result: a finished game, a `mate` score, an exact value of 0 or 1 (a move
    /// into a forced loss is a blunder).
    pub certain: bool,
    /// Exact rather than searched: a finished game's result, or an exact solver's value.
    pub exact: bool,
}

impl Value {
    /// A finished game's value: its result, certain and exact.
    pub fn result(p: f64) -> Value {
        Value {
            p,
            certain: true,
            exact: true,
        }
    }

    /// Whether this value is a proven loss for `side`.
    pub fn lost_for(self, side: Side) -> bool {
        self.certain && side.view(self.p) == 0.0
    }
}

/// A search's answer at a side's turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    /// The position's value.
    pub value: Value,
    /// The engine's choice (`bestmove`).
    pub best: Option<String>,
}

/// One outcome of a chance node with its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Its token (`r1`..`r6`).
    pub token: String,
    /// Its integer weight (`query chance`).
    pub weight: u32,
    /// The value of the position after it; `None` for the outcome the game took, whose
    /// value is the next position's.
    pub value: Option<Value>,
}

/// One side's declaration at a joint turn, from the review's matrix there.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Declaration {
    /// The declaration's token.
    pub token: String,
    /// Its probability in the side's equilibrium strategy.
    pub probability: f64,
    /// The first player's expected score when it meets the opponent's equilibrium mix
    /// (`None` when the engine did not say: past its MultiPV lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
}

/// What the engine said about one position of the game, before its ply was played.
#[derive(Clone, Debug, PartialEq)]
pub enum Facts {
    /// A side to move.
    Turn {
        /// The side to move.
        mover: Side,
        /// The search; `None` when the side had a single legal move (not searched: the
        /// position's value is that of the position after it).
        searched: Option<Searched>,
    },
    /// Nature acts (a die).
    Chance {
        /// The side whose roll it is.
        roller: Side,
        /// Every outcome, in the engine's order.
        outcomes: Vec<Outcome>,
    },
    /// Both sides declare at once.
    Joint {
        /// The value of the matrix game (the first player's side searched).
        value: Value,
        /// The first player's declarations (equilibrium strategy and values).
        first: Vec<Declaration>,
        /// The second player's.
        second: Vec<Declaration>,
        /// The first player's expected score when the declaration each side played meets
        /// the other's equilibrium mix: `[first's, second's]`.
        played: [f64; 2],
    },
}
