//! Ludo (Ply Yard 2-player, Red vs Yellow): rules, notation, evaluation, a rule-based expert
//! player and exact solutions of the small variants. The rules are `docs/rules/ludo.md`.
//!
//! A position is a chance node when the side to move must roll (`r1`..`r6`, weight 1 each)
//! and a decision node when a rolled value waits for a move. Piece values are in the owner's
//! frame (`0..=56`, [`BASE`] for a piece in its yard); see [`Ludo`].

mod board;
mod count;
mod describe;
mod diagram;
mod eval;
pub mod expert;
pub mod net;
mod notation;
mod rules;
pub mod solve;
mod zobrist;

#[cfg(test)]
mod tests;

pub use expert::expert_move;
use quartet_core::declaration::{
    BenchSpec, EndExample, EndReason, GameDeclaration, NodeKinds, RuleKind, RuleOption, WinChance,
};
pub use solve::LudoSolution;

use quartet_core::game::Player;

/// Ludo as the registry lists it.
pub const DECLARATION: GameDeclaration = GameDeclaration {
    name: "ludo",
    title: "Ludo",
    nodes: NodeKinds {
        turns: true,
        simultaneous: false,
        chance: Some("the die must be rolled first: send a roll token r1..r6"),
    },
    bench: BenchSpec {
        depth: 4,
        perft_depth: 16,
        positions: &[
            "b,b,b,b/b,b,b,b r - 0",
            "b,b,22,23/b,b,5,42 y - 0",
            "b,19,27,31/b,16,25,36 r - 0",
            "0,19,38,56/1,11,21,56 r - 0",
            "3,25,46,56/17,30,50,55 r - 0",
        ],
        signature: 229352,
    },
    rule_options: &[PIECES],
    skill_elo: Some(SKILL_ELO),
    end_reasons: &[ALL_HOME],
    // Rules 1.7: the game ends with probability 1, and never drawn.
    draws: false,
    sides: ["Red", "Yellow"],
    // Ludo's scores are win probabilities: `cp = round((2p - 1) * 10000)`.
    win_chance: WinChance::Probability { full: 10_000 },
};

/// The measured Elo of Ludo's skill levels: `scripts/skill_ladder.py --games 80
/// --anchor-games 400 --nodes 2000 --levels 0,4,8,12,16,19,20` (README.md, "Skill levels",
/// has the table with its ± and the exact command).
/// Above level 12 the measured chain was not ascending (neighbouring levels differ by less
/// than the matches can tell): the script pooled those levels to their mean and made them
/// ascend by at least 1.
const SKILL_ELO: &[(u8, i32)] = &[
    (0, 151),
    (4, 320),
    (8, 499),
    (12, 517),
    (16, 525),
    (19, 526),
    (20, 527),
];

/// All of a side's pieces reached the goal (that side wins).
pub const ALL_HOME: EndReason = EndReason {
    token: "all-home",
    words: "all pieces home",
    example: Some(EndExample {
        source: "Ludo example 11: Red's last piece reaches the goal",
        position: "53,56,56,56/b,b,b,b r - 0",
        moves: "r3 53-56",
    }),
};

/// The rule option `Pieces`: pieces per side, 1 to 4 (4 is the real game; 1 and 2 are small
/// enough to solve exactly).
pub const PIECES: RuleOption = RuleOption {
    name: "Pieces",
    help: "Ludo: pieces per side (1 to 4)",
    kind: RuleKind::Spin {
        default: MAX_PIECES as i64,
        min: 1,
        max: MAX_PIECES as i64,
    },
};

/// The value of a piece in its yard (`b` in the notation). Every other value is a progress
/// `0..=`[`GOAL`] in the owner's frame.
pub const BASE: u8 = u8::MAX;

/// The progress of a piece that has reached the goal.
pub const GOAL: u8 = 56;

/// The last progress on the shared track; `51..=55` are the home column.
pub const LAST_TRACK: u8 = 50;

/// A value no piece has (above [`GOAL`], below [`BASE`]): "no previous piece" when a loop
/// skips pieces that share a value.
const NO_VALUE: u8 = GOAL + 1;

/// The most pieces a side may have (the rule option `Pieces` ranges over `1..=MAX_PIECES`).
pub const MAX_PIECES: usize = 4;

/// A Ludo move, a die roll included (rolls are the outcomes of chance nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The die shows this value, 1 to 6 (token `r1`..`r6`); legal only at a chance node.
    Roll(u8),
    /// A piece leaves the yard for its start square on a 6 (token `b-0`).
    Enter,
    /// A piece moves from `from` to `to = from + die` in the mover's frame (token `27-30`).
    Step {
        /// Progress before the move, `0..=55`.
        from: u8,
        /// Progress after the move, `from + 1..=56`.
        to: u8,
    },
    /// No piece move: no piece can move, or the roll is a void third six (token `pass`).
    Pass,
}

/// A Ludo position: both sides' pieces, the side to move, the pending die and the count of
/// consecutive sixes in the current turn, plus the number of pieces per side (rule option
/// `Pieces`) and the incrementally kept Zobrist hash.
///
/// Invariant: each side's pieces are sorted in notation order ([`BASE`] first, then ascending
/// progress); only the first `pieces` slots are used.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ludo {
    pieces: [[u8; MAX_PIECES]; 2],
    count: u8,
    side: Player,
    die: u8,
    sixes: u8,
    hash: u64,
}

impl Ludo {
    /// The pieces of `side` in notation order ([`BASE`] first, then ascending progress).
    pub fn pieces(&self, side: Player) -> &[u8] {
        &self.pieces[side.index()][..self.count as usize]
    }

    /// The number of pieces per side (the rule option `Pieces`).
    pub fn piece_count(&self) -> u8 {
        self.count
    }

    /// The side that rolls or moves next (the winner once the game is over).
    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// The rolled value waiting for a move, or `None` at a chance node.
    pub fn die(&self) -> Option<u8> {
        (self.die != 0).then_some(self.die)
    }

    /// Consecutive sixes rolled in the current turn, a pending 6 included (0 to 3).
    pub fn sixes(&self) -> u8 {
        self.sixes
    }
}

/// The sort key of a piece value in notation order: [`BASE`] first, then ascending progress.
const fn order_key(value: u8) -> u8 {
    value.wrapping_add(1)
}
