//! The rule flags of every subcommand, read from the registry: one flag per rule option of
//! any game (`--double-step true|false`, `--pieces N`, `--placement alternate|together`),
//! named after its UCI name. A flag
//! of a game other than the one chosen is accepted and has no effect.

use clap::builder::ValueParser;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};
use quartet_core::declaration::{RuleKind, RuleOption};
use quartet_core::game::RuleOptions;
use quartet_games as games;

/// The rule options given on the command line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleArgs {
    /// Every option given, and every other at its default.
    pub rules: RuleOptions,
    /// The options whose flag was given (a value equal to the default included), so that
    /// a flag can be told from a default where a record names its own rules.
    pub given: Vec<&'static RuleOption>,
}

impl FromArgMatches for RuleArgs {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = RuleArgs::default();
        for option in games::rule_options() {
            if let Some(&value) = matches.get_one::<i64>(option.name) {
                args.rules = args.rules.with(option, value).map_err(|e| {
                    clap::Error::raw(clap::error::ErrorKind::ValueValidation, e + "\n")
                })?;
                args.given.push(option);
            }
        }
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = RuleArgs::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for RuleArgs {
    fn augment_args(cmd: Command) -> Command {
        games::rule_options()
            .into_iter()
            .fold(cmd, |cmd, option| cmd.arg(flag(option)))
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        RuleArgs::augment_args(cmd)
    }
}

/// The flag of one rule option.
fn flag(option: &'static RuleOption) -> Arg {
    let (min, max) = option.range();
    let value_name = match option.kind {
        RuleKind::Check { .. } => "true|false".to_string(),
        RuleKind::Combo { values, .. } => values.join("|"),
        RuleKind::Spin { .. } => format!("{min}..{max}"),
    };
    Arg::new(option.name)
        .long(option.flag())
        .value_name(value_name)
        .help(format!(
            "{} (default {})",
            option.help,
            option.format_value(option.default_value())
        ))
        .value_parser(parser(option))
}

/// The parser of one rule option's flag: a check's or a combo's words (listed by `--help`,
/// offered by the completions, in any case), or a spin's whole number in its range.
fn parser(option: &'static RuleOption) -> ValueParser {
    use clap::builder::TypedValueParser;
    let words: Option<Vec<&'static str>> = match option.kind {
        RuleKind::Check { .. } => Some(vec!["true", "false"]),
        RuleKind::Combo { values, .. } => Some(values.to_vec()),
        RuleKind::Spin { .. } => None,
    };
    match words {
        Some(words) => ValueParser::new(
            super::Names::new(words).try_map(move |text| option.parse_value(&text)),
        ),
        None => ValueParser::new(move |text: &str| option.parse_value(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use quartet_games::{apocalypse, ludo, rnb};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        rules: RuleArgs,
    }

    fn parse(line: &str) -> Result<RuleOptions, String> {
        let words = std::iter::once("quartet").chain(line.split_whitespace());
        Cli::try_parse_from(words)
            .map(|c| c.rules.rules)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_declared_rule_option_is_a_flag() {
        assert_eq!(parse(""), Ok(RuleOptions::default()));
        let r = parse("--pieces 2 --double-step false").expect("valid flags");
        assert_eq!(r.get(&ludo::PIECES), 2);
        assert!(!r.flag(&apocalypse::DOUBLE_STEP));
        assert!(parse("--pieces 5").is_err_and(|e| e.contains("out of range 1..4")));
        assert!(parse("--double-step maybe").is_err());
        let r = parse("--placement Together").expect("a word of the combo, any case");
        assert_eq!(r.get(&rnb::PLACEMENT), 1);
        assert!(parse("--placement both").is_err_and(|e| e.contains("alternate, together")));
    }
}
