//! `Game` for R&B: an alternating, deterministic game without chance or joint turns.

use super::pieces::Move;
use super::position::Rnb;
use crate::game::{Game, MoveList, Node, Player};

impl Game for Rnb {
    type Move = Move;

    /// `Terminal` when rule 1.6 ends the game (repetition excepted), else the side to move.
    fn node(&self) -> Node {
        match self.verdict() {
            Some(outcome) => Node::Terminal(outcome),
            None => Node::Turn(self.to_move),
        }
    }

    /// Placements (red first, then black, each by square) or steps (by origin, then
    /// destination) of `p`; empty unless `p` is to move in an unfinished game.
    fn legal_moves(&self, p: Player, out: &mut MoveList<Move>) {
        out.clear();
        if p == self.to_move && self.verdict().is_none() {
            self.generate(out);
        }
    }

    /// R&B has no chance nodes: always empty.
    fn chance_outcomes(&self, out: &mut Vec<(Move, u32)>) {
        out.clear();
    }

    fn play(&mut self, m: Move) {
        self.play_move(m);
    }

    /// R&B has no simultaneous nodes: plays the two moves one after the other.
    fn play_joint(&mut self, first: Move, second: Move) {
        self.play_move(first);
        self.play_move(second);
    }

    /// Covers the board, both hands and the side to move; not the quiet-ply counter.
    fn hash(&self) -> u64 {
        self.hash
    }

    /// `Some(quiet plies)` in the movement phase (a capture or a placement is
    /// irreversible and restarts the history); `Some(0)` during placement, where no
    /// position can repeat.
    fn repetition_window(&self) -> Option<u32> {
        if self.in_placement() {
            Some(0)
        } else {
            Some(u32::from(self.quiet_plies))
        }
    }

    /// Bulk count: a product (placements) or a sum of popcounts (steps); 0 when finished.
    fn count_children(&self) -> u64 {
        self.children()
    }
}
