//! `quartet match`: a match between two engines under the referee, or `quartet match merge`
//! to join the results of a match's shards, or of runs of one test with different seeds.
//! The referee's own arguments are [`MatchArgs`] and [`MergeArgs`]; the rule flags come from
//! the registry.

use super::rules::RuleArgs;
use clap::{ArgMatches, Args, FromArgMatches};
use quartet_core::eval::Evaluate;
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::GameVisitor;
use quartet_protocol::output::say;
use quartet_referee::watch::WatchArgs;
use quartet_referee::{self as referee, MatchArgs, MatchReport, MergeArgs, StopReason};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `match ARGS` or `match merge FILES`. Written by hand: clap's derive cannot tell when a
/// flattened `Option<MatchArgs>` is present, because `MatchArgs` itself flattens the
/// hand-written `--engine` groups.
pub enum MatchCommand {
    /// Play a match under these rules.
    Play(Box<MatchArgs>, RuleArgs),
    /// Merge the results of shards, or of runs of one test with different seeds.
    Merge(MergeArgs),
    /// Coordinate one SPRT over the shards writing into a shared directory.
    Watch(WatchArgs),
}

impl FromArgMatches for MatchCommand {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        match matches.subcommand() {
            Some(("merge", sub)) => Ok(MatchCommand::Merge(MergeArgs::from_arg_matches(sub)?)),
            Some(("watch", sub)) => Ok(MatchCommand::Watch(WatchArgs::from_arg_matches(sub)?)),
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
            .subcommand(WatchArgs::augment_args(clap::Command::new("watch").about(
                "Decide one SPRT over the shards writing their --results files into a shared \
                directory, write the stop marker they check, and print the merged report",
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
        MatchCommand::Watch(args) => return watch(args),
        MatchCommand::Play(args, rules) => {
            referee::signals::install_handlers(&interrupt)?;
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

/// `match watch`: the coordinator's progress lines, the merged report, the decision and
/// how long the last shard took to stop after it.
fn watch(args: &WatchArgs) -> Result<(), String> {
    let outcome = referee::watch::watch(args, |line| say(line)).map_err(|e| e.to_string())?;
    say(&outcome.report);
    match outcome.decision {
        Some((d, games, llr)) => say(format_args!(
            "Decided once for {} shards: {d} at {games} games (LLR {llr:.2}); the last shard \
            stopped {} ms after the decision",
            outcome.shards,
            outcome
                .stop_latency_ms
                .map_or("?".to_string(), |ms| ms.to_string())
        )),
        None => say(format_args!(
            "Undecided: the {} shards played every game",
            outcome.shards
        )),
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
