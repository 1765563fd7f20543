//! `quartet match`: a match between two engines under the referee, or `quartet match merge`
//! to join the results of a match's shards, or of runs of one test with different seeds.
//! The referee's own arguments are [`MatchArgs`] and [`MergeArgs`]; the rule flags come from
//! the registry.

use super::rules::RuleArgs;
use crate::eval::Evaluate;
use crate::game::RuleOptions;
use crate::games::GameVisitor;
use crate::notation::Notation;
use crate::output::say;
use crate::referee::{self, MatchArgs, MatchReport, MergeArgs, StopReason};
use clap::{ArgMatches, Args, FromArgMatches};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// `match ARGS` or `match merge FILES`. Written by hand: clap's derive cannot tell when a
/// flattened `Option<MatchArgs>` is present, because `MatchArgs` itself flattens the
/// hand-written `--engine` groups.
pub enum MatchCommand {
    /// Play a match under these rules.
    Play(Box<MatchArgs>, RuleArgs),
    /// Merge the results of shards, or of runs of one test with different seeds.
    Merge(MergeArgs),
}

impl FromArgMatches for MatchCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        match matches.subcommand() {
            Some(("merge", sub)) => Ok(MatchCommand::Merge(MergeArgs::from_arg_matches(sub)?)),
            _ => Ok(MatchCommand::Play(
                Box::new(MatchArgs::from_arg_matches(matches)?),
                RuleArgs::from_arg_matches(matches)?,
            )),
        }
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = MatchCommand::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for MatchCommand {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        RuleArgs::augment_args(MatchArgs::augment_args(cmd))
            .subcommand(MergeArgs::augment_args(clap::Command::new("merge").about(
                "Combine the --results files of a match's shards, or of runs of one test with \
                different seeds, into one report",
            )))
            .args_conflicts_with_subcommands(true)
            .subcommand_negates_reqs(true)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        MatchCommand::augment_args(cmd)
    }
}

/// Plays the match (or merges the shards) and prints the final report; an engine failure
/// that ended the match early is an error (a failure exit status). SIGINT and SIGTERM
/// stop the match: the report so far is printed with the command that resumes it, and the
/// program exits with 128 + the signal's number (a second signal ends it at once).
pub fn run(command: &MatchCommand) -> Result<(), String> {
    let interrupt = Arc::new(AtomicUsize::new(0));
    let report = match command {
        MatchCommand::Merge(args) => referee::run_merge(args).map_err(|e| e.to_string())?,
        MatchCommand::Play(args, rules) => {
            install_handlers(&interrupt)?;
            args.game
                .visit(Match(args, rules.rules, Arc::clone(&interrupt)))?
        }
    };
    say(&report);
    match report.stop {
        StopReason::EngineFailure(why) => Err(format!("match ended early: {why}")),
        StopReason::Interrupted(_) => {
            say(format_args!("Resume with: {}", resume_command()));
            std::process::exit(128 + interrupt.load(Ordering::Relaxed) as i32);
        }
        _ => Ok(()),
    }
}

/// SIGINT and SIGTERM store their number in `interrupt`; a second one exits at once.
fn install_handlers(interrupt: &Arc<AtomicUsize>) -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    let again = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        let code = 128 + signal;
        flag::register_conditional_shutdown(signal, code, Arc::clone(&again))
            .and_then(|_| flag::register(signal, Arc::clone(&again)))
            .and_then(|_| flag::register_usize(signal, Arc::clone(interrupt), signal as usize))
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
    }
    Ok(())
}

/// This command line with `--resume` (once), quoted for a POSIX shell.
fn resume_command() -> String {
    let mut words: Vec<String> = std::env::args().collect();
    if !words.iter().any(|w| w == "--resume") {
        words.push("--resume".to_string());
    }
    words
        .iter()
        .map(|w| {
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c));
            if plain {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `quartet match` for the chosen game, stopped by `interrupt`.
struct Match<'a>(&'a MatchArgs, RuleOptions, Arc<AtomicUsize>);

impl GameVisitor for Match<'_> {
    type Output = Result<MatchReport, String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let mut cfg = self.0.to_config().map_err(|e| e.to_string())?;
        cfg.interrupt = Some(self.2);
        referee::runner::run::<G>(&cfg, &self.1).map_err(|e| e.to_string())
    }
}
