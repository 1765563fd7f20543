//! `quartet playthrough`: one seeded game through the protocol as a transcript
//! ([`quartet_protocol::playthrough`]); the transcripts in `tests/playthroughs/` are its
//! output, compared by the tests.

use super::rules::RuleArgs;
use clap::Args;
use quartet_games::GameKind;
use quartet_protocol::output::say;
use quartet_protocol::playthrough::{settings, transcript};
use std::path::PathBuf;

/// The arguments of `quartet playthrough`.
#[derive(Args)]
pub struct PlaythroughArgs {
    /// The game (`quartet games --names` lists them).
    #[arg(long, value_parser = super::game_parser(), required_unless_present = "write")]
    pub game: Option<GameKind>,
    /// Seeds the choice of every move, roll and declaration.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The rule options.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Instead of one transcript on standard output, write every game's under every rule
    /// setting into this folder, one file each (`duell.txt`, `ludo-pieces-2.txt`): the
    /// checked-in ones are in `tests/playthroughs/`.
    #[arg(long, value_name = "DIR", conflicts_with = "game")]
    pub write: Option<PathBuf>,
}

/// Prints the transcript, or writes them all.
pub fn run(args: &PlaythroughArgs) -> Result<(), String> {
    if let Some(dir) = &args.write {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (game, rules, name) in settings() {
            let path = dir.join(format!("{name}.txt"));
            let text = transcript(game, &rules, args.seed)?;
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            say(format!("wrote {}", path.display()));
        }
        return Ok(());
    }
    let Some(game) = args.game else {
        return Err("--game or --write is needed".to_string());
    };
    for line in transcript(game, &args.rules.rules, args.seed)?.lines() {
        say(line);
    }
    Ok(())
}
