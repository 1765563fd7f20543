//! Apocalypse (C. S. Elliott, 1976): a 5×5 chess variant of knights and pawns with
//! simultaneous moves, as specified in docs/rules/apocalypse.md.
//!
//! [`Apocalypse`] is the position (it implements `Game`, `Notation` and `Evaluate`);
//! [`Move`] is one player's declaration, VOID included. Every non-terminal node is
//! `Node::Simultaneous`; a joint turn is `Action::Joint(white, black)`.

mod board;
mod describe;
pub mod eval;
mod notation;
mod rules;
pub mod solve;

#[cfg(test)]
mod tests;

pub use board::{Cell, Move, Piece};
pub use board::{NO_PROGRESS_LIMIT, PENALTY_LIMIT};
pub use notation::START;
use quartet_core::declaration::{
    BenchSpec, EndExample, EndReason, GameDeclaration, NodeKinds, RuleKind, RuleOption, WinChance,
};
pub use rules::Apocalypse;

/// Apocalypse as the registry lists it.
pub const DECLARATION: GameDeclaration = GameDeclaration {
    name: "apocalypse",
    title: "Apocalypse",
    nodes: NodeKinds {
        turns: false,
        simultaneous: true,
        chance: None,
    },
    bench: BenchSpec {
        depth: 2,
        perft_depth: 3,
        positions: &[
            "npppn/p3p/5/P3P/NPPPN 00 0",
            "npppn/p4/4P/P2pP/NPP1N 00 2",
            "1p1pn/p1p2/PNP1p/4P/1P2N 00 2",
            "2np1/p3p/pN3/1nP1P/N2P1 00 3",
            "1n2n/P1p2/5/4p/N3N 00 0",
        ],
        signature: 1838,
    },
    rule_options: &[DOUBLE_STEP],
    skill_elo: Some(SKILL_ELO),
    end_reasons: &[NO_PAWNS, PENALTIES, MOVE_RULE, NO_LEGAL_MOVE],
    draws: true,
    sides: ["White", "Black"],
    // The evaluation's own scale: a logistic of 110 per unit (a won game is 9000 and more).
    win_chance: WinChance::Logistic { k: 1.0 / 110.0 },
};

/// The measured Elo of Apocalypse's skill levels: `scripts/skill_ladder.py --games 80
/// --anchor-games 400 --nodes 2000 --levels 0,4,8,12,16,19,20` (README.md, "Skill levels",
/// has the table with its ± and the exact command).
const SKILL_ELO: &[(u8, i32)] = &[
    (0, 137),
    (4, 259),
    (8, 376),
    (12, 545),
    (16, 579),
    (19, 592),
    (20, 593),
];

/// Rule 1.6-1: a side has no pawns left (it loses; both: a draw).
pub const NO_PAWNS: EndReason = EndReason {
    token: "no-pawns",
    words: "a side has no pawns left",
    example: Some(EndExample {
        source: "Apocalypse example 16: both last pawns collide",
        position: "4n/2p2/5/2P2/N4 00 0",
        moves: "c2c3/c4c3",
    }),
};

/// Rule 1.6-2: a side reached two penalty points (it loses; both: a draw).
pub const PENALTIES: EndReason = EndReason {
    token: "penalties",
    words: "two penalty points",
    example: Some(EndExample {
        source: "Apocalypse example 9: White's second penalty point",
        position: "npppn/p3p/5/P3P/NPPPN 10 0",
        moves: "a2b3/a5b3",
    }),
};

/// Rules 1.6-3 and 1.8: 50 turns without progress (a draw).
pub const MOVE_RULE: EndReason = EndReason {
    token: "move-rule",
    words: "50 turns without progress",
    example: Some(EndExample {
        source: "Apocalypse rule 1.8: the 50th turn without progress",
        position: "npppn/p3p/5/P3P/NPPPN 00 49",
        moves: "c1c2/c5c4",
    }),
};

/// Rule 1.6-4: a side has no legal move (a draw).
pub const NO_LEGAL_MOVE: EndReason = EndReason {
    token: "no-legal-move",
    words: "a side has no legal move",
    example: Some(EndExample {
        source: "Apocalypse example 17: White has no legal move",
        position: "4n/p4/P4/5/5 00 0",
        moves: "",
    }),
};

/// The rule option `DoubleStep` (rules §1.2): pawns on their start squares may step two
/// squares. On by default (the seed's rule); off gives the Wikipedia game.
pub const DOUBLE_STEP: RuleOption = RuleOption {
    name: "DoubleStep",
    help: "Apocalypse: pawns on their start squares may step two squares",
    kind: RuleKind::Check { default: true },
};
