//! Tic-tac-toe with a pseudo-random static value (turn nodes only), for the search.

use quartet_core::eval::Evaluate;
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// Tic-tac-toe; cells 0..9, first player is X. The static value is a deterministic
/// pseudo-random function of the position, so that depth-limited values are not trivial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [u8; 9],
    to_move: Player,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// The empty board.
    pub fn new() -> Self {
        TicTacToe {
            cells: [0; 9],
            to_move: Player::First,
        }
    }

    fn winner(&self) -> Option<Player> {
        const LINES: [[usize; 3]; 8] = [
            [0, 1, 2],
            [3, 4, 5],
            [6, 7, 8],
            [0, 3, 6],
            [1, 4, 7],
            [2, 5, 8],
            [0, 4, 8],
            [2, 4, 6],
        ];
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then_some(if c == 1 {
                Player::First
            } else {
                Player::Second
            })
        })
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn end_reason(&self) -> Option<EndReason> {
        None // a toy: no named end rules
    }
    fn node(&self) -> Node {
        if let Some(p) = self.winner() {
            Node::Terminal(Outcome::Win(p))
        } else if self.cells.iter().all(|&c| c != 0) {
            Node::Terminal(Outcome::Draw)
        } else {
            Node::Turn(self.to_move)
        }
    }
    fn legal_moves(&self, p: Player, out: &mut MoveList<u8>) {
        out.clear();
        if self.node() == Node::Turn(p) {
            out.extend((0..9u8).filter(|&i| self.cells[i as usize] == 0));
        }
    }
    fn play(&mut self, m: u8) {
        self.cells[m as usize] = if self.to_move == Player::First { 1 } else { 2 };
        self.to_move = self.to_move.other();
    }
    fn hash(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for &c in &self.cells {
            h = (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3);
        }
        h ^ self.to_move.index() as u64
    }
}

impl Evaluate for TicTacToe {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 9;
    fn evaluate(&self) -> i32 {
        (self.hash() % 201) as i32 - 100
    }
    fn is_noisy(&self, m: u8) -> bool {
        m == 4
    }
    fn order_hint(&self, _: u8) -> i32 {
        0
    }
    fn move_code(m: u8) -> u32 {
        u32::from(m)
    }
}
