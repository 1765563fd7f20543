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
use quartet_referee::{self as referee, MatchArgs, MatchReport, MergeArgs, StopReason};

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
/// that ended the match early is an error (a failure exit status).
pub fn run(command: &MatchCommand) -> Result<(), String> {
    let report = match command {
        MatchCommand::Merge(args) => referee::run_merge(args).map_err(|e| e.to_string())?,
        MatchCommand::Play(args, rules) => args.game.visit(Match(args, rules.rules))?,
    };
    say(&report);
    match report.stop {
        StopReason::EngineFailure(why) => Err(format!("match ended early: {why}")),
        _ => Ok(()),
    }
}

/// `quartet match` for the chosen game.
struct Match<'a>(&'a MatchArgs, RuleOptions);

impl GameVisitor for Match<'_> {
    type Output = Result<MatchReport, String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        referee::run_match::<G>(self.0, &self.1).map_err(|e| e.to_string())
    }
}
