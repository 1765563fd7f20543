//! What a search reports, in text: the score as UCI shows it, one `info` line, what a `go`
//! asks and what the search found. The protocol formats these; nothing here prints.

use super::skill::Strength;
use quartet_core::eval::MATE_BOUND;
use quartet_core::notation::Notation;
use quartet_search::players::PlayerKind;
use quartet_search::{Limits, Settings};
use std::time::Duration;

/// A score as UCI shows it, from the acting player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (or the game's documented unit).
    Cp(i32),
    /// A forced win in this many own moves (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// The UCI form of a search value `v` (from the acting player's view).
    pub fn from_value(v: i32) -> Self {
        if v >= MATE_BOUND {
            Score::Mate((quartet_core::eval::MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            // A loss `MATE + v` plies away comes on the mover's own move (odd plies: a move
            // that loses by itself, as R&B's own line) or on the opponent's reply (even).
            Score::Mate(-((quartet_core::eval::MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// One `info` line of a search, with moves already in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV index.
    pub multipv: usize,
    /// The score from the acting player's view; `None` when no iteration completed (a
    /// `go nodes 0` or a search stopped at once), so there is no score to show.
    pub score: Option<Score>,
    /// Win/draw/loss per mille, for games whose scores are probabilities, when asked for
    /// (`UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    /// The principal variation as tokens.
    pub pv: Vec<String>,
}

/// What one `go` asks of the search. The default is a plain `go` to the engine's search:
/// default limits and settings, every root move, no engine rolls, no ponder, full strength,
/// no `wdl`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchRequest {
    /// When to stop.
    pub limits: Limits,
    /// MultiPV, pruning switches, the side asked (simultaneous games) and the seed of
    /// random choices (mixed strategies, baseline players). The seed is mixed with the
    /// position's hash before use.
    pub settings: Settings,
    /// The engine's search or a built-in baseline player.
    pub player: PlayerKind,
    /// `go searchmoves`: the only root moves to search, as tokens (checked beforehand with
    /// `AnyGame::check_searchmoves`); empty for all.
    pub searchmoves: Vec<String>,
    /// At a chance node, answer a roll drawn from the seed instead of no move (the
    /// `EngineRolls` option, for runners without dice).
    pub engine_rolls: bool,
    /// Name the move expected in reply (`bestmove M ponder P`; the `Ponder` option).
    pub ponder: bool,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo` (the search's own player only).
    pub strength: Strength,
    /// `UCI_ShowWDL`: give `wdl` in the `info` lines where the game's scores are win
    /// probabilities (off by default, as in Stockfish).
    pub show_wdl: bool,
}

/// What a search found, in text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// The token to play, or `None` when there is nothing to play.
    pub best: Option<String>,
    /// Said before `bestmove` as `info string`: why there is no move, when `best` is
    /// `None`, or that the move is a roll the engine drew (`EngineRolls`).
    pub note: Option<String>,
    /// The mixed strategy played from, as `<move>=<probability> ...` (simultaneous games).
    pub policy: Option<String>,
    /// The reply expected to the move played (when asked for and known).
    pub ponder: Option<String>,
    /// The line to print last before `bestmove`, when the last report does not already say
    /// the whole search: its pv starts with the move played and its nodes are the search's.
    pub last_info: Option<InfoLine>,
}

impl SearchSummary {
    /// A summary that plays `token` and says nothing more.
    pub fn play(token: String) -> Self {
        SearchSummary {
            best: Some(token),
            note: None,
            policy: None,
            ponder: None,
            last_info: None,
        }
    }

    /// A summary with no move to give, for `why`.
    pub fn no_move(why: String) -> Self {
        SearchSummary {
            best: None,
            note: Some(why),
            policy: None,
            ponder: None,
            last_info: None,
        }
    }
}

/// `<move>=<probability> ...` with six decimals that sum to exactly 1 (largest
/// remainders get the rounding), most probable first.
pub(super) fn format_policy<G: Notation>(pos: &G, policy: &[(G::Move, f64)]) -> String {
    const UNITS: i64 = 1_000_000;
    let total: f64 = policy.iter().map(|&(_, p)| p.max(0.0)).sum();
    let exact: Vec<f64> = policy
        .iter()
        .map(|&(_, p)| p.max(0.0) / total.max(f64::MIN_POSITIVE) * UNITS as f64)
        .collect();
    let mut units: Vec<i64> = exact.iter().map(|x| x.floor() as i64).collect();
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by(|&a, &b| (exact[b] - exact[b].floor()).total_cmp(&(exact[a] - exact[a].floor())));
    let missing = UNITS - units.iter().sum::<i64>();
    for &i in order.iter().cycle().take(missing.max(0) as usize) {
        units[i] += 1;
    }
    policy
        .iter()
        .zip(&units)
        .map(|(&(m, _), &u)| format!("{}={}.{:06}", pos.format_move(m), u / UNITS, u % UNITS))
        .collect::<Vec<_>>()
        .join(" ")
}
