//! `quartet replay`: re-checks every move of a records file, Quartet's (`match --pgnout`,
//! the GUI's) or another program's (cutegames' PGN). Each record names its game and rules
//! in its tags; `--game` and the rule flags supply what a foreign record leaves out, and a
//! flag that disagrees with a record's tag is an error that names both.

use super::rules::RuleArgs;
use clap::Args;
use quartet_core::eval::Evaluate;
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_protocol::output::say;
use quartet_records::Record;
use quartet_referee::record;
use std::path::PathBuf;

/// The arguments of `quartet replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// The game of records without a `Game` tag (another program's); a record's own tag
    /// must agree with it.
    #[arg(long, value_parser = super::game_parser())]
    pub game: Option<GameKind>,
    /// The records file.
    pub file: PathBuf,
    /// The rule options of records without rule tags; a record's own tag (such as
    /// `[Pieces "2"]`) must agree with a flag given.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Replays every record; the first illegal move or bad record is the error.
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    let path = args.file.display();
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let records = quartet_records::parse_records(&text).map_err(|e| format!("{path}: {e}"))?;
    for (i, rec) in records.iter().enumerate() {
        let index = i + 1;
        let game = record_game(rec, args.game).map_err(|e| format!("{path}: game {index}: {e}"))?;
        let rules = record_rules(rec, game, &args.rules)
            .map_err(|e| format!("{path}: game {index}: {e}"))?;
        game.visit(Check {
            record: rec,
            index,
            rules,
        })
        .map_err(|e| format!("{path}: {e}"))?;
    }
    say(format_args!(
        "{path}: {} games, every move legal",
        records.len()
    ));
    Ok(())
}

/// The game of `record`: its `Game` tag, or `flag` when it has none; both must agree.
pub fn record_game(record: &Record, flag: Option<GameKind>) -> Result<GameKind, String> {
    match (record.tag("Game").map(GameKind::parse).transpose()?, flag) {
        (Some(tag), Some(flag)) if tag != flag => Err(format!(
            "the record's Game tag says '{}', --game says '{}'",
            tag.name(),
            flag.name()
        )),
        (Some(game), _) | (None, Some(game)) => Ok(game),
        (None, None) => Err("the record has no Game tag: say which game with --game".into()),
    }
}

/// The rules of `record`, a game of `game`: each rule option from the record's tag, else
/// from its flag, else its default; a flag given that disagrees with the tag is an error.
pub fn record_rules(
    record: &Record,
    game: GameKind,
    flags: &RuleArgs,
) -> Result<RuleOptions, String> {
    let mut rules = RuleOptions::default();
    for option in game.declaration().rule_options {
        let flag = flags
            .given
            .iter()
            .any(|g| g.name == option.name)
            .then(|| flags.rules.get(option));
        let tag = record
            .tag(option.name)
            .map(|t| option.parse_value(t))
            .transpose()?;
        let value = match (tag, flag) {
            (Some(tag), Some(flag)) if tag != flag => {
                return Err(format!(
                    "the record's {} tag says '{}', --{} says '{}'",
                    option.name,
                    option.format_value(tag),
                    option.flag(),
                    option.format_value(flag)
                ));
            }
            (Some(v), _) | (None, Some(v)) => v,
            (None, None) => option.default_value(),
        };
        rules = rules.with(option, value)?;
    }
    Ok(rules)
}

/// One record's check under its game's rules.
struct Check<'a> {
    record: &'a Record,
    index: usize,
    rules: RuleOptions,
}

impl GameVisitor for Check<'_> {
    type Output = Result<(), String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        record::check_record::<G>(self.record, self.index, &self.rules)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}
