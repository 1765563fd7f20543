//! Duell (docs/rules/duell.md): rules, notation and evaluation.
//!
//! [`Duell`] is a position: the placement of the keys and dice (each die with its
//! orientation), the side to move, the plies since the last capture and the move number.
//! [`Move`] is one path of a piece. Positions are small (`Clone` is a 128-byte copy) because
//! the search copies a position and then plays a move on the copy.
//!
//! This file holds the type and the declaration; the rules (`rules.rs`: the end of the game
//! and [`quartet_core::game::Game`]), the move generator, the notation and the evaluation are
//! beside it. Repetition is left to the history keeper: the hash covers exactly placement,
//! orientations and side to move, and the repetition window is the plies since the last
//! capture.

mod attacks;
mod board;
mod count;
mod describe;
mod die;
mod eval;
mod movegen;
mod notation;
mod piece;
mod rules;
mod zobrist;

#[cfg(test)]
mod tests;

use board::{Bitboard, SQUARES, bit};
use piece::{EMPTY, Piece};
use quartet_core::declaration::{BenchSpec, EndExample, EndReason, GameDeclaration, WinChance};
use quartet_core::game::Player;

pub use board::Square;
pub use die::Dir;
pub use movegen::Move;
pub use notation::START_DFEN;

/// Duell as the registry lists it.
pub const DECLARATION: GameDeclaration = GameDeclaration {
    name: "duell",
    title: "Duell",
    bench: BenchSpec {
        depth: 7,
        perft_depth: 5,
        positions: &[
            "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1",
            "B53B13B23B63BK1B23B13B53/9/9/7W641/3B135/9/9/W54W14W24W64WKW64W24W141 w 2 2",
            "1W622BKB63B231B53/1B627/2W266/6B512/9/7W131/5W313/1W14W241WK2W141 b 0 8",
            "4BK2B131/5B311B121/3W245/6W532/1B637/3B46W124/9/W543WK1W24W141 w 4 12",
            "1W311BK3B131/9/9/5B653/1B147/9/5B643/W541W244WK1 b 1 18",
        ],
        signature: 207214,
    },
    skill_elo: Some(SKILL_ELO),
    end_reasons: &[
        KEY_CAPTURED,
        KEY_SQUARE,
        EndReason::REPETITION,
        MOVE_RULE,
        NO_LEGAL_MOVE,
    ],
    sides: ["White", "Black"],
    // Fitted to self-play results (docs/review.md, "The curves": 1000 games at 8000 nodes
    // a move, 8356 positions; `quartet review --fit-curve`).
    win_chance: WinChance::Logistic { k: 0.020_266_78 },
    ..GameDeclaration::DEFAULT
};

/// The measured Elo of Duell's skill levels: `scripts/skill_ladder.py --games 80
/// --anchor-games 400 --nodes 2000 --levels 0,4,8,12,16,19,20` (README.md, "Skill levels",
/// has the table with its ± and the exact command).
const SKILL_ELO: &[(u8, i32)] = &[
    (0, 920),
    (4, 1088),
    (8, 1262),
    (12, 1441),
    (16, 1644),
    (19, 1835),
    (20, 2136),
];

/// Rule 1.10 (a): a key piece was captured.
pub const KEY_CAPTURED: EndReason = EndReason {
    token: "key-captured",
    words: "a key piece was captured",
    example: Some(EndExample {
        source: "Duell W7: White's key captures Black's key on e8",
        position: "4BK4/4WK4/9/9/9/9/9/9 w 0 1",
        moves: "e7e8",
    }),
};

/// Rule 1.10 (b): a key piece stands on the enemy key square.
pub const KEY_SQUARE: EndReason = EndReason {
    token: "key-square",
    words: "a key piece reached the enemy key square",
    example: Some(EndExample {
        source: "Duell W7: the key takes the die on e8 and stands on Black's key square",
        position: "BK2WKB134/9/9/9/9/9/9/9 w 0 1",
        moves: "d8e8",
    }),
};

/// Rule 1.12 (b): 200 plies without a capture (a draw).
pub const MOVE_RULE: EndReason = EndReason {
    token: "move-rule",
    words: "200 plies without a capture",
    example: Some(EndExample {
        source: "Duell rule 1.12 b: the 200th ply without a capture",
        position: "4BK4/9/9/9/9/9/9/4WK4 w 199 1",
        moves: "e1e2",
    }),
};

/// Rule 1.11: the side to move has no legal move (and loses).
pub const NO_LEGAL_MOVE: EndReason = EndReason {
    token: "no-legal-move",
    words: "the side to move has no legal move",
    example: Some(EndExample {
        source: "Duell W10: White's key is boxed in by its own dice",
        position: "4BK4/9/9/9/9/B138/W62B137/WKW62B136 w 0 1",
        moves: "",
    }),
};

/// Plies without a capture after which the game is drawn (rules §1.12 b).
pub const NO_CAPTURE_DRAW_PLIES: u16 = 200;

/// The square index meaning "this side's key has been captured".
const NO_SQUARE: Square = u8::MAX;

/// A Duell position: placement, orientations, side to move and the two DFEN counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duell {
    /// Occupied squares per side (index [`Player::index`]).
    occ: [Bitboard; 2],
    /// The piece code on each square ([`piece::Piece`]).
    board: [Piece; SQUARES],
    /// Zobrist hash of placement, orientations and side to move.
    hash: u64,
    /// The DFEN move number: starts at 1, goes up after each Black move.
    move_number: u32,
    /// Plies since the last capture.
    plies_since_capture: u16,
    /// Each side's key square, or [`NO_SQUARE`] once captured.
    keys: [Square; 2],
    /// The side to move.
    side: Player,
}

impl Duell {
    /// An empty board with White to move, counters 0 and 1; pieces come from [`Self::put`].
    fn empty() -> Duell {
        Duell {
            occ: [0; 2],
            board: [EMPTY; SQUARES],
            hash: 0,
            move_number: 1,
            plies_since_capture: 0,
            keys: [NO_SQUARE; 2],
            side: Player::First,
        }
    }

    /// Puts piece `p` on the empty square `s`, keeping masks, keys and hash in step.
    fn put(&mut self, s: Square, p: Piece) {
        let side = piece::owner(p);
        self.board[s as usize] = p;
        self.occ[side.index()] |= bit(s);
        self.hash ^= zobrist::piece_square(p, s);
        if piece::is_key(p) {
            self.keys[side.index()] = s;
        }
    }

    /// Sets the side to move, keeping the hash in step.
    fn set_side(&mut self, side: Player) {
        if side != self.side {
            self.hash ^= zobrist::BLACK_TO_MOVE;
            self.side = side;
        }
    }

    /// Passes the turn (for the search's null move; the rules have no pass): the other
    /// side moves, and the counters advance as after a quiet move.
    fn pass_turn(&mut self) {
        self.plies_since_capture = self.plies_since_capture.saturating_add(1);
        if self.side == Player::Second {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.set_side(self.side.other());
    }

    /// The side to move (also when the game is over).
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// Plies since the last capture (the third DFEN field).
    pub fn plies_since_capture(&self) -> u32 {
        self.plies_since_capture as u32
    }

    /// The move number (the last DFEN field).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
}
