//! The review of one game as data, serialised as docs/review.md documents it. Every value
//! is the first player's expected score (0..1) unless a field says otherwise; a loss is
//! from its mover's view (positive: worse for the mover).

use super::facts::{Declaration, Side};
use serde::Serialize;

/// lichess's marks of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Mark {
    /// An inaccuracy: winning chances (−1..+1) fell by at least 0.1.
    #[serde(rename = "?!")]
    Inaccuracy,
    /// A mistake: by at least 0.2.
    #[serde(rename = "?")]
    Mistake,
    /// A blunder: by at least 0.3, or into a forced loss from a position not lost.
    #[serde(rename = "??")]
    Blunder,
}

/// The kind of a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    /// A side moved.
    Turn,
    /// Nature chose (a die).
    Chance,
    /// Both sides declared at once.
    Joint,
    /// The game ended outside the rules (adjudication, resignation, time, a fault): the
    /// step from the last position's value to the result.
    End,
}

/// Who acted at a ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mover {
    /// The first player (at a chance node: whose roll it was).
    First,
    /// The second player.
    Second,
    /// Both (a joint turn).
    Both,
}

impl From<Side> for Mover {
    fn from(side: Side) -> Mover {
        match side {
            Side::First => Mover::First,
            Side::Second => Mover::Second,
        }
    }
}

/// One outcome of a chance node: the temperature map's cell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeValue {
    /// Its token.
    pub token: String,
    /// Its weight.
    pub weight: u32,
    /// The value after it.
    pub value: f64,
}

/// One side's part of a joint turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointSide {
    /// The declaration it played.
    pub declaration: String,
    /// Its loss: the equilibrium value less its declaration's value against the opponent's
    /// equilibrium mix, from its view (GTO Wizard's EV loss).
    pub loss: f64,
    /// Its mark.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// Its equilibrium strategy: every declaration with its probability and its value
    /// against the opponent's mix, most probable first.
    pub policy: Vec<Declaration>,
}

/// One ply of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ply {
    /// 1-based.
    pub ply: usize,
    /// The token played (`(end)` for an end outside the rules).
    pub token: String,
    /// The kind of node it was played at.
    pub node: NodeKind,
    /// Who acted.
    pub mover: Mover,
    /// The value after the ply.
    pub value: f64,
    /// Whether `value` is exact (a finished game, an exact solver).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// The engine's choice at the node: its `bestmove` at a turn, the only move when there
    /// was one, each side's most probable declaration at a joint turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// A side's turn with a single legal move: no decision, no loss.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// The mover's loss, at a decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// The change the outcome caused (chance), or the meeting of the two mixed
    /// strategies caused (joint), in the first player's expected score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck: Option<f64>,
    /// The mark (the worse of the two sides' at a joint turn).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// At a chance node: the value after each outcome (gnubg's temperature map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<OutcomeValue>>,
    /// At a joint turn: the first player's part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<JointSide>,
    /// At a joint turn: the second player's part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second: Option<JointSide>,
}

/// One side's summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// lichess's game accuracy over the side's decisions (0..100); `None` without one.
    pub accuracy: Option<f64>,
    /// The mean of the side's losses over its decisions; `None` without one.
    pub average_loss: Option<f64>,
    /// The sum of the side's losses.
    pub loss: f64,
    /// The number of its decisions (turns with a choice, its half of each joint turn).
    pub decisions: usize,
    /// The luck of its own rolls, from its view (gnubg's luck).
    pub luck: f64,
    /// Its result less all luck in its favour (every roll's and every joint turn's):
    /// its start value less its losses plus the opponent's. `None` while unfinished.
    pub luck_adjusted_result: Option<f64>,
    /// Its `?!` marks.
    pub inaccuracies: usize,
    /// Its `?` marks.
    pub mistakes: usize,
    /// Its `??` marks.
    pub blunders: usize,
}

/// Both sides' summaries.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sides {
    /// The first player's.
    pub first: SideSummary,
    /// The second player's.
    pub second: SideSummary,
}

/// The review of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReview {
    /// The first player's expected score at the start.
    pub start_value: f64,
    /// Whether `start_value` is exact.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub start_exact: bool,
    /// The game's score for the first player (1, 0.5, 0); `None` while unfinished.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<f64>,
    /// The sum of every ply's luck (the first player's view).
    pub luck: f64,
    /// The positions whose value is exact (finished games, exact solvers).
    pub exact_positions: usize,
    /// The searches the review asked of the engine.
    pub searches: u64,
    /// The nodes they searched, as the engine counted them.
    pub nodes: u64,
    /// Each side's summary.
    pub sides: Sides,
    /// Every ply.
    pub plies: Vec<Ply>,
}
