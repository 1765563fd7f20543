//! A game in progress: the start position, every action played, and the hashes needed to
//! judge repetition draws, which a bare position cannot (see `Game::repetition_window`).
//! The protocol session and the referee keep their games in a [`GameHistory`].

use crate::game::{Action, Game, IllegalAction, Node, Outcome};

/// A position is drawn when it occurs for this many times.
pub const REPETITION_DRAW: usize = 3;

/// A game from a start position, with its history.
#[derive(Clone, Debug)]
pub struct GameHistory<G: Game> {
    start: G,
    current: G,
    actions: Vec<Action<G::Move>>,
    /// Hashes of the positions before `current`, oldest first.
    hashes: Vec<u64>,
}

impl<G: Game> GameHistory<G> {
    /// A game starting at `start` with a fresh history.
    pub fn new(start: G) -> Self {
        GameHistory {
            current: start.clone(),
            start,
            actions: Vec::new(),
            hashes: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The current position.
    pub fn current(&self) -> &G {
        &self.current
    }

    /// The actions played so far.
    pub fn actions(&self) -> &[Action<G::Move>] {
        &self.actions
    }

    /// Hashes of the positions before the current one, oldest first (the search's
    /// repetition history).
    pub fn history(&self) -> &[u64] {
        &self.hashes
    }

    /// Plays `action` if it is legal and the game is not over (repetition included);
    /// otherwise changes nothing.
    pub fn try_play(&mut self, action: Action<G::Move>) -> Result<(), IllegalAction> {
        if matches!(self.node(), Node::Terminal(_)) {
            return Err(IllegalAction);
        }
        let before = self.current.hash();
        self.current.try_apply(action)?;
        self.hashes.push(before);
        self.actions.push(action);
        Ok(())
    }

    /// The node kind of the current position, with a draw by repetition when the current
    /// position occurs for the [`REPETITION_DRAW`]th time within its repetition window.
    pub fn node(&self) -> Node {
        let node = self.current.node();
        if matches!(node, Node::Terminal(_)) {
            return node;
        }
        match self.current.repetition_window() {
            Some(window) if self.occurrences(window) >= REPETITION_DRAW => {
                Node::Terminal(Outcome::Draw)
            }
            _ => node,
        }
    }

    /// How often the current position has occurred, counting itself, looking back at most
    /// `window` plies.
    fn occurrences(&self, window: u32) -> usize {
        let key = self.current.hash();
        let earlier = self
            .hashes
            .iter()
            .rev()
            .take(window as usize)
            .filter(|&&h| h == key)
            .count();
        earlier + 1
    }
}
