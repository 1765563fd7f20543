//! `quartet replay`: re-checks every move of a records file (`match --pgnout`).

use super::rules::RuleArgs;
use crate::eval::Evaluate;
use crate::games::{GameKind, GameVisitor};
use crate::notation::Notation;
use crate::output::say;
use crate::referee;
use clap::Args;
use std::path::PathBuf;

/// The arguments of `quartet replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// The game.
    #[arg(long, default_value = GameKind::DEFAULT.name(), value_parser = GameKind::parse)]
    pub game: GameKind,
    /// The records file.
    pub file: PathBuf,
    /// The rule options the games were played under (a record's own rule tags, such as
    /// `[Placement "together"]`, win over these).
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Replays every record; the first illegal move or bad record is the error.
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    args.game.visit(Replay(args))
}

/// The replay for the chosen game.
struct Replay<'a>(&'a ReplayArgs);

impl GameVisitor for Replay<'_> {
    type Output = Result<(), String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let args = self.0;
        let games =
            referee::replay_file::<G>(&args.file, &args.rules.0).map_err(|e| e.to_string())?;
        say(format_args!(
            "{}: {} games, every move legal",
            args.file.display(),
            games.len()
        ));
        Ok(())
    }
}
