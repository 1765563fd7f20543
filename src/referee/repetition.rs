//! The position history the rules leave to the referee: draws by threefold repetition.
//!
//! [`Game::node`](crate::game::Game::node) cannot see repetitions, so the referee keeps the
//! hashes of all positions of a game and declares a draw on the third occurrence of one
//! within the game's [`repetition_window`](crate::game::Game::repetition_window). History
//! starts at the game's first position (the start position or the opening file's position),
//! as for an engine that receives `position ... moves ...`.

/// The hashes of the positions of one game so far.
#[derive(Clone, Debug, Default)]
pub struct History {
    hashes: Vec<u64>,
}

impl History {
    /// A history that starts at a position with hash `first`.
    pub fn new(first: u64) -> History {
        History {
            hashes: vec![first],
        }
    }

    /// Adds the position reached by a move, whose repetition window is `window`, and tells
    /// whether it is now on the board for the third time (a draw).
    pub fn push(&mut self, hash: u64, window: Option<u32>) -> bool {
        let repeats = match window {
            Some(w) => self
                .hashes
                .iter()
                .rev()
                .take(w as usize)
                .filter(|&&h| h == hash)
                .count(),
            None => 0,
        };
        self.hashes.push(hash);
        repeats >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn third_occurrence_within_the_window_draws() {
        // A B A B A: the position A occurs for the third time at the fifth entry.
        let mut h = History::new(1);
        assert!(!h.push(2, Some(1)));
        assert!(!h.push(1, Some(2)));
        assert!(!h.push(2, Some(3)));
        assert!(h.push(1, Some(4)));
    }

    #[test]
    fn occurrences_outside_the_window_do_not_count() {
        let mut h = History::new(1);
        h.push(2, Some(1));
        h.push(1, Some(2));
        h.push(2, Some(3));
        // Only the last 3 positions (2, 1, 2) may repeat: one earlier occurrence of 1.
        assert!(!h.push(1, Some(3)));
        // Without a window nothing repeats.
        assert!(!h.push(1, None));
    }
}
