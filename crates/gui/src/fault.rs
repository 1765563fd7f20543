//! What can go wrong with an engine, on its way to the page: the kind of fault (a crash, a
//! hang, an illegal move, an answer the GUI cannot use) and the failure that carries it.

use serde::Serialize;

use super::flow::Side;

/// What went wrong with the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    /// It exited, closed its output or could not be started.
    Crash,
    /// It did not answer in time.
    Hang,
    /// It played a token that is not among its own legal moves.
    Illegal,
    /// It answered something the GUI cannot use (no `query position`, bad JSON).
    Protocol,
}

impl FaultKind {
    /// The record's `Termination` tag when this fault ends a side's game.
    pub fn termination(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::Hang => "stall",
            FaultKind::Illegal => "illegal move",
            FaultKind::Protocol => "crash",
        }
    }
}

/// An engine failure on its way to the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The kind.
    pub kind: FaultKind,
    /// The side the engine was playing for, when it was asked for a move.
    pub side: Option<Side>,
    /// What happened, for people.
    pub detail: String,
}

impl Failure {
    /// A failure of `kind`, the side filled in later.
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Failure {
        Failure {
            kind,
            side: None,
            detail: detail.into(),
        }
    }
}
