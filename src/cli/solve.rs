//! `quartet solve`: the exact value of a small position, from the game's exact solver
//! ([`quartet_core::notation::Notation::SOLVER`]).

use super::rules::RuleArgs;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use quartet_core::eval::Evaluate;
use quartet_core::exact::SolveRequest;
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_protocol::output::say;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The arguments of `quartet solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// The game (one with an exact solver: `quartet games` says which, and the error
    /// names them).
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

/// Solves the position and prints the solver's lines. While it works, its progress goes
/// to stderr: a spinner on a terminal, else a line every [`QUIET_PROGRESS`].
pub fn run(args: &SolveArgs) -> Result<(), String> {
    let lines = args.game.visit(Solve(args))?;
    for line in lines {
        say(line);
    }
    Ok(())
}

/// How often progress is written when stderr is not a terminal.
const QUIET_PROGRESS: Duration = Duration::from_secs(10);

/// Shows a solver's progress phrases on stderr (see [`run`]).
struct Progress {
    bar: Option<ProgressBar>,
    last: Instant,
}

impl Progress {
    fn new(game: &str) -> Self {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
                bar.set_style(style);
            }
            bar.set_message(format!("solving {game}"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            last: Instant::now(),
        }
    }

    fn say(&mut self, phrase: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(phrase.to_string()),
            None if self.last.elapsed() >= QUIET_PROGRESS => {
                self.last = Instant::now();
                eprintln!("solve: {phrase}");
            }
            None => {}
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The names of the games that have an exact solver.
struct Solvable;

impl GameVisitor for Solvable {
    type Output = bool;
    fn visit<G: Evaluate + Notation>(self) -> bool {
        G::SOLVER.is_some()
    }
}

/// The solve for the chosen game.
struct Solve<'a>(&'a SolveArgs);

impl GameVisitor for Solve<'_> {
    type Output = Result<Vec<String>, String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let args = self.0;
        let Some(solver) = G::SOLVER else {
            let solvable: Vec<&str> = GameKind::ALL
                .iter()
                .filter(|g| g.visit(Solvable))
                .map(|g| g.name())
                .collect();
            return Err(format!(
                "solve: {} has no exact solver; the games that have one: {}",
                G::DECLARATION.name,
                solvable.join(", ")
            ));
        };
        let rules: RuleOptions = args.rules.rules;
        let pos = match &args.fen {
            Some(text) => G::parse_position(text, &rules).map_err(|e| e.to_string())?,
            None => G::start(&rules),
        };
        let mut progress = Progress::new(G::DECLARATION.name);
        let request = SolveRequest { void: args.void };
        solver(&pos, &rules, &request, &mut |phrase| progress.say(phrase))
            .map_err(|e| format!("solve: {e}"))
    }
}
