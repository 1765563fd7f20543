//! `quartet solve`: the exact value of a small position, from the game's exact solver
//! ([`quartet_core::notation::Notation::SOLVER`]).

use super::rules::RuleArgs;
use clap::Args;
use quartet_core::eval::Evaluate;
use quartet_core::exact::SolveRequest;
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_protocol::output::say;

/// The arguments of `quartet solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// The game (one with an exact solver: apocalypse, ludo).
    #[arg(long, value_parser = super::game_parser())]
    pub game: GameKind,
    /// Position string (default: the start position, usually far too big to solve).
    #[arg(long)]
    pub fen: Option<String>,
    /// Let either side also declare a void move (a pass costing a penalty point; games
    /// with simultaneous moves).
    #[arg(long)]
    pub void: bool,
    /// The rule options.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Solves the position and prints the solver's lines.
pub fn run(args: &SolveArgs) -> Result<(), String> {
    let lines = args.game.visit(Solve(args))?;
    for line in lines {
        say(line);
    }
    Ok(())
}

/// The solve for the chosen game.
struct Solve<'a>(&'a SolveArgs);

impl GameVisitor for Solve<'_> {
    type Output = Result<Vec<String>, String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let args = self.0;
        let solver =
            G::SOLVER.ok_or_else(|| format!("solve: not available for {}", G::DECLARATION.name))?;
        let rules: RuleOptions = args.rules.rules;
        let pos = match &args.fen {
            Some(text) => G::parse_position(text, &rules).map_err(|e| e.to_string())?,
            None => G::start(&rules),
        };
        solver(&pos, &rules, &SolveRequest { void: args.void }).map_err(|e| format!("solve: {e}"))
    }
}
