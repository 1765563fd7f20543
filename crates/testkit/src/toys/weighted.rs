//! One chance node with outcomes 0, 1, 2 of weights 1, 2, 3, for the referee's dice.

use quartet_core::game::{EndReason, Game, MoveList, Node, Player};

/// The weighted chance node (see the module documentation).
#[derive(Clone, Debug)]
pub struct Weighted;

impl Game for Weighted {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // never ends
    }
    fn node(&self) -> Node {
        Node::Chance
    }
    fn legal_moves(&self, _p: Player, out: &mut MoveList<u8>) {
        out.clear();
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        out.clear();
        out.extend([(0, 1), (1, 2), (2, 3)]);
    }
    fn play(&mut self, _m: u8) {}
    fn hash(&self) -> u64 {
        0
    }
}
