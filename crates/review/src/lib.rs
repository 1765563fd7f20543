//! `quartet review`'s core: the review of a played game through an engine, as lichess's
//! analysis and gnubg's batch analysis do it, with one value per position so that luck and
//! skill add up to the result exactly (see [`decompose`] and docs/review.md).
//!
//! The core reaches the engine through the text protocol only ([`engine::Engine`]: send a
//! line, read a line), and depends on no other crate of the workspace: not the rules, the
//! search, the protocol's code or the referee (its manifest names none, so the compiler
//! refuses any such `use`). So a GUI, which may talk to engines only through the protocol,
//! runs the very same review: it calls [`review_game`] with its own connection to its
//! engine, or with a [`engine::ChildEngine`]. The command (`src/cli/review.rs` of the
//! binary) reads the records with the referee's codec and gives the core what they say: the
//! game, its rules, its start and its tokens.
//!
//! Files: `engine` (the protocol connection), `uci` (reading the engine's lines), `curve`
//! (scores to expected scores, on the curve the engine declares), `probe` (the questions
//! asked about each position), `facts` (their answers as data), `decompose` (values, luck
//! and losses), `judge` (lichess's marks and accuracy), `report` (the review as JSON).

#![deny(missing_docs)]

pub mod curve;
pub mod decompose;
pub mod engine;
pub mod facts;
pub mod judge;
pub mod probe;
pub mod report;
pub mod uci;

#[cfg(test)]
mod tests;

use decompose::Played;
use engine::Engine;
use probe::{Node, Probe};
use report::GameReview;

/// The engine's budget for each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
}

/// A game to review, as the engine's `position` command needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInput {
    /// The `Game` option's value (`duell`, `ludo`, ...).
    pub game: String,
    /// The rule options to set, as `setoption` takes them (`("Pieces", "2")`).
    pub rules: Vec<(String, String)>,
    /// The start position string, `None` for the game's start position.
    pub start: Option<String>,
    /// Every token played.
    pub tokens: Vec<String>,
    /// The first player's score if the game has a result (1, 0.5, 0), `None` while it is
    /// under way. A game the rules ended has the rules' result; one ended outside them
    /// (adjudication, resignation, time) gets an `end` ply to this result.
    pub result: Option<f64>,
}

/// Exact values from outside the engine's search (an exact solver), when the caller has
/// one: the review then uses them instead of the engine's and says so (`exact`).
pub trait Exact {
    /// The first player's exact expected score at the position after `tokens` (from the
    /// game's start), or `None` where the solver does not cover it.
    fn value(&mut self, tokens: &[String]) -> Option<f64>;
}

/// Why a game could not be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The game does not replay: the ply at fault (1-based) when one is, and why.
    #[error("{}{why}", .ply.map(|p| format!("ply {p}: ")).unwrap_or_default())]
    Replay {
        /// The ply at fault.
        ply: Option<usize>,
        /// Why.
        why: String,
    },
    /// The engine failed: exited, hung, or refused a command.
    #[error("engine: {0}")]
    Engine(String),
    /// The caller's progress callback stopped the review.
    #[error("cancelled")]
    Cancelled,
}

/// Reviews one game with `engine` (which must have answered `uci` already), each search at
/// `budget`. `progress(done, total)` is called as the positions are done and may return
/// `false` to stop the review. Error: the game does not replay, the engine fails, or the
/// review was stopped.
pub fn review_game<'a, E: Engine>(
    engine: &'a mut E,
    input: &'a GameInput,
    budget: Budget,
    exact: Option<&'a mut dyn Exact>,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<GameReview, ReviewError> {
    let mut probe = Probe::new(engine, input, budget, exact)?;
    let tokens = &input.tokens;
    let total = tokens.len() + 1;
    // The last position first: it checks that the whole game replays.
    let end = probe.describe(tokens)?;
    let over = end.node == Node::Over;
    if over && input.result.is_some() && input.result != end.result {
        return Err(ReviewError::Replay {
            ply: None,
            why: format!(
                "the record's result {} is not the rules' result {}",
                score_text(input.result),
                score_text(end.result)
            ),
        });
    }
    let result = if over { end.result } else { input.result };
    let mut facts = Vec::with_capacity(tokens.len());
    for k in 0..tokens.len() {
        if !progress(k, total) {
            return Err(ReviewError::Cancelled);
        }
        let described = probe.describe(&tokens[..k])?;
        facts.push(probe.facts(tokens, k, &described)?);
    }
    if !progress(tokens.len(), total) {
        return Err(ReviewError::Cancelled);
    }
    let last = probe.evaluate(tokens, Some(end))?;
    progress(total, total);
    let played = Played {
        tokens,
        facts: &facts,
        last,
        over,
        result,
    };
    decompose::review(&played, probe.searches, probe.nodes).map_err(ReviewError::Engine)
}

/// gnubg's temperature map of the chance node after `tokens` (a position before a roll, of
/// the game `input` names: its `tokens` are not used): each outcome with its weight and the
/// value after it, by the engine's search of each at `budget`; the weighted mean is the
/// position's value. Error: the position is not a chance node, or does not replay, or the
/// engine fails.
pub fn temperature_map<'a, E: Engine>(
    engine: &'a mut E,
    input: &'a GameInput,
    tokens: &[String],
    budget: Budget,
) -> Result<Vec<report::OutcomeValue>, ReviewError> {
    let mut probe = Probe::new(engine, input, budget, None)?;
    let described = probe.describe(tokens)?;
    if !matches!(described.node, Node::Chance(_)) {
        return Err(ReviewError::Replay {
            ply: None,
            why: "the position is not a chance node (no roll is due)".into(),
        });
    }
    let mut map = Vec::with_capacity(described.chance.len());
    for (token, weight) in described.chance {
        let mut child = tokens.to_vec();
        child.push(token.clone());
        let value = probe.evaluate(&child, None)?.p;
        map.push(report::OutcomeValue {
            token,
            weight,
            value,
        });
    }
    Ok(map)
}

/// The `uci` handshake: sends `uci` and waits for `uciok`. Error: the engine fails.
pub fn handshake<E: Engine>(engine: &mut E) -> Result<(), ReviewError> {
    engine.send("uci").map_err(ReviewError::Engine)?;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let line = engine.read_line(deadline).map_err(ReviewError::Engine)?;
        if line.split_whitespace().next() == Some("uciok") {
            return Ok(());
        }
    }
}

/// A score as a record writes it.
fn score_text(score: Option<f64>) -> &'static str {
    match score {
        Some(1.0) => "1-0",
        Some(0.0) => "0-1",
        Some(_) => "1/2-1/2",
        None => "*",
    }
}
