//! A token shuffles between squares 0, 1 and 2; moving to square 2 is irreversible. For
//! the history's repetition judgement.

use quartet_core::game::{EndReason, Game, MoveList, Node, Player};

/// The shuffling token (see the module documentation).
#[derive(Clone, Debug)]
pub struct Shuffle {
    /// The token's square.
    pub at: u8,
    /// The side to move.
    pub to_move: Player,
    /// Plies since the last move to square 2.
    pub since_irreversible: u32,
}

impl Game for Shuffle {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // never ends by itself
    }
    fn node(&self) -> Node {
        Node::Turn(self.to_move)
    }
    fn legal_moves(&self, _: Player, out: &mut MoveList<u8>) {
        out.clear();
        out.extend([0, 1, 2].into_iter().filter(|&s| s != self.at));
    }
    fn play(&mut self, m: u8) {
        self.since_irreversible = if m == 2 {
            0
        } else {
            self.since_irreversible + 1
        };
        self.at = m;
        self.to_move = self.to_move.other();
    }
    fn hash(&self) -> u64 {
        u64::from(self.at) * 2 + self.to_move.index() as u64
    }
    fn repetition_window(&self) -> Option<u32> {
        Some(self.since_irreversible)
    }
}
