//! R&B ("Red & Black", R&B-Dual): rules, notation and evaluation, per
//! `docs/rules/rnb.md`.
//!
//! A 6×6 board (see [`geometry`] for every board constant), kings on their base squares,
//! 16 alternating soldier placements, then one-step moves in 8 directions with hasami-shogi
//! style orthogonal captures (same-tribe pair, king pair, Dual). [`Rnb`] is the position and
//! implements [`quartet_core::game::Game`], [`quartet_core::notation::Notation`]
//! (`NAME = "rnb"`) and [`quartet_core::eval::Evaluate`]; [`Move`] is a placement (`R@a2`), a
//! step (`d1d2`) or, under the rule option [`PLACEMENT`] `together`, one side's whole
//! [`Arrangement`] of the joint setup (a simultaneous node, rule 1.3(d)).
//!
//! Threefold repetition (rule 1.6-5) needs the history, so it is not in `node()`: the
//! history keeper uses [`quartet_core::game::Game::repetition_window`] and the hash, which covers
//! board, hands and side to move but not the quiet-ply counter.

mod arrangement;
mod capture;
mod describe;
mod eval;
pub mod geometry;
mod moves;
mod notation;
mod pieces;
mod position;
mod rules;
mod setup_notation;
mod threats;
mod token;
mod zobrist;

#[cfg(test)]
mod tests;

pub use arrangement::{ARRANGEMENTS, Arrangement};
pub use geometry::Square;
pub use moves::Move;
pub use pieces::{Colour, Piece};
pub use position::{QUIET_PLY_LIMIT, Rnb};
use quartet_core::declaration::{
    BenchSpec, EndExample, EndReason, GameDeclaration, NodeKinds, RuleKind, RuleOption, WinChance,
};
use quartet_core::game::{Player, RuleOptions};

/// R&B as the registry lists it.
pub const DECLARATION: GameDeclaration = GameDeclaration {
    name: "rnb",
    title: "R&B",
    nodes: NodeKinds {
        turns: true,
        simultaneous: true,
        chance: None,
    },
    bench: BenchSpec {
        depth: 7,
        perft_depth: 6,
        positions: &[
            "2k3/6/6/6/6/3K2 s 4444 0",
            "b1kbbr/r2br1/6/6/R1BB2/B1RKRB s 1010 0",
            "1bkr1b/rr1bbr/6/6/BRRB1R/1R1KBB s 0000 0",
            "bbkbr1/1rrbr1/6/B5/R1B1RR/1RBKB1 n 0000 1",
            "1rkrr1/bb1b1b/6/2Kr2/B2BRB/RB2RR s 0000 4",
            "b2br1/rbk1br/rB4/6/1R2RB/1BRKBR n 0000 7",
        ],
        signature: 83637,
    },
    rule_options: &[PLACEMENT],
    skill_elo: Some(SKILL_ELO),
    end_reasons: &[
        KING_CAPTURED,
        KING_ON_BASE,
        SIX_IN_A_RANK,
        NO_LEGAL_MOVE,
        EndReason::REPETITION,
        MOVE_RULE,
    ],
    draws: true,
    sides: ["South", "North"],
    // Fitted to self-play results (docs/review.md, "The curves": 1000 games at 8000 nodes
    // a move, 11614 positions; `quartet review --fit-curve`).
    win_chance: WinChance::Logistic { k: 0.007_388_19 },
};

/// The measured Elo of R&B's skill levels: `scripts/skill_ladder.py --games 80
/// --anchor-games 400 --nodes 2000 --levels 0,4,8,12,16,19,20` (README.md, "Skill levels",
/// has the table with its ± and the exact command).
const SKILL_ELO: &[(u8, i32)] = &[
    (0, 700),
    (4, 915),
    (8, 1142),
    (12, 1427),
    (16, 1689),
    (19, 1868),
    (20, 2206),
];

/// Rule 1.6-2: a king was captured.
pub const KING_CAPTURED: EndReason = EndReason {
    token: "king-captured",
    words: "a king was captured",
    example: Some(EndExample {
        source: "R&B example 7: the Dual takes the king on b3",
        position: "6/6/2R3/rk4/6/3K2 s 0000 0",
        moves: "c4c3",
    }),
};

/// Rule 1.6-3: a king entered the enemy base.
pub const KING_ON_BASE: EndReason = EndReason {
    token: "king-on-base",
    words: "a king reached the enemy base",
    example: Some(EndExample {
        source: "R&B example 15: the king enters the empty North base",
        position: "5k/2K3/6/6/6/6 s 0000 0",
        moves: "c5c6",
    }),
};

/// Rule 1.6-1: the player who acted has six own pieces in one rank (and loses).
pub const SIX_IN_A_RANK: EndReason = EndReason {
    token: "six-in-a-rank",
    words: "six own pieces in a rank",
    example: Some(EndExample {
        source: "R&B example 13: rank 2 full of South's pieces",
        position: "2k3/6/6/3R2/RBR1BR/3K2 s 0000 0",
        moves: "d3d2",
    }),
};

/// Rule 1.6-4: the side to move has no legal move (and loses).
pub const NO_LEGAL_MOVE: EndReason = EndReason {
    token: "no-legal-move",
    words: "the side to move has no legal move",
    example: Some(EndExample {
        source: "R&B example 16: North's only piece has no empty neighbour",
        position: "kR4/RB4/6/6/6/3K2 n 0000 0",
        moves: "",
    }),
};

/// Rule 1.6-5: 100 movement plies without a capture (a draw).
pub const MOVE_RULE: EndReason = EndReason {
    token: "move-rule",
    words: "100 movement plies without a capture",
    example: Some(EndExample {
        source: "R&B rule 1.6-5: the 100th movement ply without a capture",
        position: "2k3/6/6/6/6/3K2 s 0000 99",
        moves: "d1d2",
    }),
};

/// The rule option `Placement` (rule 1.3(d)): `alternate`, the official rule (16 placements
/// one by one, South first), or `together`, the local rule (one simultaneous turn in which
/// each side declares its whole arrangement).
pub const PLACEMENT: RuleOption = RuleOption {
    name: "Placement",
    help: "R&B: place the soldiers one by one in turn (alternate) or all at once in secret \
    (together)",
    kind: RuleKind::Combo {
        default: 0,
        values: &["alternate", "together"],
    },
};

/// The value of [`PLACEMENT`] for `together`.
const TOGETHER: i64 = 1;

/// The side's name (South, North), as messages and `d` write it.
fn side_name(p: Player) -> &'static str {
    DECLARATION.sides[p.index()]
}

/// Whether `rules` play the setup as one joint turn (`Placement together`).
fn together(rules: &RuleOptions) -> bool {
    rules.get(&PLACEMENT) == TOGETHER
}
