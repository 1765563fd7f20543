//! Duell's rules (docs/rules/duell.md): the end of the game judged from the position alone,
//! in the order of rules §1.15 (a win, then the 200-ply no-capture draw, then "the side to
//! move has no legal move and loses"), and [`Game`] for [`Duell`]: move generation (in
//! `movegen.rs`) and playing a move with its rolls.

use super::board::{E1, E8, bit};
use super::die::roll;
use super::piece::{self, EMPTY};
use super::{
    Duell, KEY_CAPTURED, KEY_SQUARE, MOVE_RULE, Move, NO_CAPTURE_DRAW_PLIES, NO_LEGAL_MOVE,
    NO_SQUARE, zobrist,
};
use quartet_core::declaration::EndReason;
use quartet_core::game::{Game, MoveList, Node, Outcome, Player};
use std::ops::ControlFlow;

impl Duell {
    /// The winner by the placement alone (rules §1.10): a side whose enemy key is gone,
    /// or whose key stands on the enemy key square.
    pub(super) fn winner(&self) -> Option<Player> {
        let [white, black] = self.keys;
        if black == NO_SQUARE || white == E8 {
            Some(Player::First)
        } else if white == NO_SQUARE || black == E1 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// How the game ended, if it did, before the no-legal-move test: a win, then the
    /// 200-ply draw (rules §1.15).
    pub(super) fn decided(&self) -> Option<Outcome> {
        match self.winner() {
            Some(p) => Some(Outcome::Win(p)),
            None if self.plies_since_capture >= NO_CAPTURE_DRAW_PLIES => Some(Outcome::Draw),
            None => None,
        }
    }
}

impl Game for Duell {
    type Move = Move;

    fn node(&self) -> Node {
        match self.decided() {
            Some(outcome) => Node::Terminal(outcome),
            None if !self.has_move() => Node::Terminal(Outcome::Win(self.side.other())),
            None => Node::Turn(self.side),
        }
    }

    fn end_reason(&self) -> Option<EndReason> {
        let [white, black] = self.keys;
        if black == NO_SQUARE || white == NO_SQUARE {
            Some(KEY_CAPTURED)
        } else if white == E8 || black == E1 {
            Some(KEY_SQUARE)
        } else if self.plies_since_capture >= NO_CAPTURE_DRAW_PLIES {
            Some(MOVE_RULE)
        } else if !self.has_move() {
            Some(NO_LEGAL_MOVE)
        } else {
            None
        }
    }

    fn legal_moves(&self, p: Player, out: &mut MoveList<Move>) {
        out.clear();
        if p != self.side || self.decided().is_some() {
            return;
        }
        let _ = self.for_each_move(|m| {
            out.push(m);
            ControlFlow::Continue(())
        });
    }

    fn play(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let them = us.other();
        let mover = self.board[from as usize];
        let victim = self.board[to as usize];
        if victim != EMPTY {
            self.occ[them.index()] &= !bit(to);
            self.hash ^= zobrist::piece_square(victim, to);
            if piece::is_key(victim) {
                self.keys[them.index()] = NO_SQUARE;
            }
            self.plies_since_capture = 0;
        } else {
            self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        }
        let landed = if piece::is_key(mover) {
            self.keys[us.index()] = to;
            mover
        } else {
            let o = piece::kind(mover);
            let o = roll(o, m.first_dir(), m.first_len() as u32);
            let o = roll(o, m.second_dir(), m.second_len() as u32);
            piece::die(us, o)
        };
        self.board[from as usize] = EMPTY;
        self.board[to as usize] = landed;
        self.occ[us.index()] ^= bit(from) | bit(to);
        self.hash ^= zobrist::piece_square(mover, from)
            ^ zobrist::piece_square(landed, to)
            ^ zobrist::BLACK_TO_MOVE;
        if us == Player::Second {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.side = them;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn repetition_window(&self) -> Option<u32> {
        Some(self.plies_since_capture as u32)
    }

    fn count_children(&self) -> u64 {
        if self.decided().is_some() {
            return 0;
        }
        self.count_moves_of(self.side)
    }
}
