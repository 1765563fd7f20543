//! What the search needs to know about a game beyond its rules: a static evaluation,
//! which moves are noisy (for quiescence), an ordering hint, and a compact move code for
//! the transposition table and the history heuristic.
//!
//! Scores are `i32` from the first player's point of view. Static evaluations stay strictly
//! inside `±EVAL_LIMIT`; forced wins and losses use the mate band above it.

pub mod network;
pub mod nnue;
pub mod tunable;

use crate::game::{Game, MoveList, Outcome, Player};
use network::NetworkTraining;
use nnue::NnueSpec;
use tunable::TunableEval;

/// The score of a win at the root (a mate in 0 plies). A win found `ply` plies below the
/// root scores `MATE - ply` for the winner.
pub const MATE: i32 = 30_000;

/// Scores with an absolute value at least this are forced wins or losses ("mate scores").
pub const MATE_BOUND: i32 = MATE - 1_000;

/// Static evaluations lie strictly inside `(-EVAL_LIMIT, EVAL_LIMIT)`.
pub const EVAL_LIMIT: i32 = 20_000;

/// The largest number of distinct move codes a game may use (codes fit 20 bits of a
/// transposition-table entry).
pub const MAX_MOVE_CODES: usize = 1 << 20;

/// Search knowledge of one game.
pub trait Evaluate: Game {
    /// Move codes are below this bound (at most [`MAX_MOVE_CODES`]); sizes the history
    /// tables.
    const MOVE_CODES: usize;

    /// The evaluation as `quartet tune` fits it, when it is a weighted sum of terms
    /// ([`tunable::Tunable`]); `None` (the default) for an evaluation of another shape.
    const TUNABLE: Option<TunableEval<Self>> = None;

    /// The evaluation's learned network as `quartet tune` trains it
    /// ([`network::NetworkTraining`]); `None` (the default) for a game without one.
    const NETWORK: Option<NetworkTraining<Self>> = None;

    /// The evaluation's efficiently updatable network ([`nnue::NnueSpec`]), a choice beside
    /// its classical evaluation (the `Eval` option) that `quartet tune --network` trains;
    /// `None` (the default) for a game without one.
    const NNUE: Option<NnueSpec<Self>> = None;

    /// The scale of a weakened skill level's noise, in this evaluation's score unit: the
    /// cap of Stockfish's `pick_best` noise (its `PawnValue`) at a side's turn, the
    /// softmax temperature at level 0 at a decision between chance nodes or a declaration
    /// (`quartet_engine::skill`). About the value of a pawn, or of a tempo.
    const SKILL_UNIT: f64;

    /// The static value of the position from the first player's view, strictly inside
    /// `±EVAL_LIMIT`. Called on non-terminal positions only. Must not allocate.
    fn evaluate(&self) -> i32;

    /// The static value the search backs up: [`Evaluate::evaluate`] unless the game puts
    /// it on another scale. A game whose search averages values (mixed strategies) may
    /// give the expected result instead, where an average means what it should;
    /// [`Evaluate::reported`] maps the search's values back to the evaluation's scale.
    /// Monotone in `evaluate`, and negated by a colour flip as it is. Must not allocate.
    fn search_value(&self) -> i32 {
        self.evaluate()
    }

    /// The score reported (an `info` line's, a search result's) for `value`, a value the
    /// search backed up: the inverse of [`Evaluate::search_value`]'s scale, so that scores
    /// are in the evaluation's unit. The value itself unless a game says otherwise.
    fn reported(value: i32) -> i32 {
        value
    }

    /// Whether `m` (legal here) changes material or is otherwise forcing: quiescence search
    /// tries exactly these moves.
    fn is_noisy(&self, m: Self::Move) -> bool;

    /// Clears `out` and fills it with the legal moves of `p` that [`Evaluate::is_noisy`]
    /// accepts (the moves quiescence search tries), in any stable order. The default
    /// filters [`Game::legal_moves`]; games override it with a cheaper generator.
    fn noisy_moves(&self, p: Player, out: &mut MoveList<Self::Move>) {
        self.legal_moves(p, out);
        out.retain(|&m| self.is_noisy(m));
    }

    /// An ordering hint for `m` (legal here): higher is tried earlier among noisy moves,
    /// e.g. victim value minus a fraction of the attacker's.
    fn order_hint(&self, m: Self::Move) -> i32;

    /// A code for `m` below [`Evaluate::MOVE_CODES`], distinct for distinct legal moves of
    /// any one position.
    fn move_code(m: Self::Move) -> u32;

    /// The value of a finished game `ply` plies below the root, from the first player's
    /// view. The default prefers quick wins and slow losses (mate distance).
    fn terminal_value(&self, outcome: Outcome, ply: u32) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) => p.sign() * (MATE - ply as i32),
        }
    }

    /// Win/draw/loss per mille for the acting player, for a value from that player's view,
    /// when the game's values are win probabilities (shown as `wdl` in `info` lines).
    /// `None` (the default) for games whose values are not.
    fn wdl(value: i32) -> Option<[u32; 3]> {
        let _ = value;
        None
    }

    /// This position with the turn passed to the opponent, for null-move pruning: `None`
    /// (the default) where passing must not be tried, because the game has no turn to pass
    /// here or because being obliged to move may hurt (zugzwang). A game returns `Some`
    /// only at a turn node and only where zugzwang is rare; the child's hash differs from
    /// this position's (the side to move is part of it). The rules have no pass: this is
    /// search knowledge. Must not allocate.
    fn null_move(&self) -> Option<Self> {
        None
    }

    /// Whether the side to move stands to lose at once: its opponent, were it the
    /// opponent's turn, could win with one move (chess's check). The search extends such a
    /// turn node by a ply (at the horizon too, instead of standing pat) and neither passes
    /// nor prunes it by its static value. The default (`false`) is for games without such
    /// threats; a game answers from its rules alone, cheaply (asked at every turn node of
    /// a game that declares [`Evaluate::PRUNING`]). Must not allocate.
    fn in_danger(&self) -> bool {
        false
    }

    /// The bounds every value of this game lies in (used by chance-node pruning, where
    /// tighter bounds prune more). The default covers mate scores.
    fn value_bounds() -> (i32, i32) {
        (-MATE, MATE)
    }

    /// Whether turn nodes may be pruned by the static value and their late moves reduced
    /// by the logarithmic table (`quartet_search::pruning`), with the margin a ply in this
    /// evaluation's unit; `None` (the default) for a game whose static value is too rough
    /// a guide, which keeps the plain late-move reductions.
    const PRUNING: Option<Pruning> = None;
}

/// A game's shallow pruning ([`Evaluate::PRUNING`]): search knowledge, not rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// How much the static value may change in one ply, in the evaluation's unit: a node
    /// whose static value beats beta by this much a ply of depth is cut, and quiet moves
    /// are skipped where it cannot lift the static value to alpha.
    pub margin: i32,
}

/// A score from `p`'s point of view, given one from the first player's.
pub fn for_player(score: i32, p: Player) -> i32 {
    score * p.sign()
}
