//! The command line of `quartet match` and `quartet match merge` (clap `Args`, flattened
//! into the binary's subcommands by `main.rs`), and its translation into a [`MatchConfig`].

use std::path::PathBuf;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::MatchError;
use super::clock::TimeControl;
use super::engine::EngineSpec;
use super::runner::MatchConfig;
use super::schedule::{OpeningSource, Shard};
use super::sprt::Sprt;
use quartet_games::GameKind;

/// The words of each `--engine` occurrence, kept apart (clap's derive flattens repeated
/// multi-value options into one list, so this part is written by hand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineGroups(pub Vec<Vec<String>>);

impl FromArgMatches for EngineGroups {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineGroups(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = EngineGroups::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for EngineGroups {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(ArgAction::Append)
                .required(true)
                .value_name("KEY=VALUE")
                .help(
                    "An engine, given twice: cmd=PATH [name=NAME] [dir=DIR] [args=\"A B\"] \
                     [option.X=Y ...]; statistics are from the first engine's point of view",
                ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        EngineGroups::augment_args(cmd)
    }
}

/// `quartet match`: play games between two engines and report the statistics.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct MatchArgs {
    /// The game (`quartet games --names` lists them).
    #[arg(long, value_parser = GameKind::parse)]
    pub game: GameKind,

    /// The `--engine` groups.
    #[command(flatten)]
    pub engines: EngineGroups,

    /// Games to play in the whole match (in pairs with colours swapped).
    #[arg(long, default_value_t = 2)]
    pub games: u64,

    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,

    /// Clock per player: `[moves/]seconds+increment`, e.g. `10+0.1` or `40/60+0`.
    #[arg(long, conflicts_with_all = ["movetime", "nodes", "depth"])]
    pub tc: Option<String>,

    /// Fixed time per move in milliseconds.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub movetime: Option<u64>,

    /// Node budget per move.
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,

    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,

    /// Seed of the openings and the chance outcomes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// `random:N` (N random plies per pair) or `file:PATH` (one position string per line).
    #[arg(long)]
    pub openings: Option<String>,

    /// Write the game records here (replaced).
    #[arg(long)]
    pub pgnout: Option<PathBuf>,

    /// Stop on an SPRT decision:
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic|bayesian]`.
    #[arg(long, num_args = 4..=5, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,

    /// Restart an engine that crashed or hung and go on (otherwise the match stops).
    #[arg(long)]
    pub recover: bool,

    /// Play only slice i of n (`--shard 2/4`); merge the shards' --results files afterwards.
    #[arg(long)]
    pub shard: Option<String>,

    /// Write the results summary (JSON) here, after every game (replaced).
    #[arg(long)]
    pub results: Option<PathBuf>,

    /// Write one JSON line per game here (replaced).
    #[arg(long)]
    pub jsonl: Option<PathBuf>,

    /// Print a report every N games (0: only the final one).
    #[arg(long, default_value_t = 0)]
    pub report_every: u64,

    /// Clock tolerance in milliseconds; also how long a late engine may still answer `stop`
    /// (at least 100 ms) before it counts as stalled.
    #[arg(long, default_value_t = 20)]
    pub margin: u64,

    /// Milliseconds an engine may take for the handshake, `isready`, and a move under
    /// --nodes or --depth before it counts as stalled.
    #[arg(long, default_value_t = 60_000)]
    pub timeout: u64,

    /// Do not show the progress line.
    #[arg(long)]
    pub no_progress: bool,
}

/// `quartet match merge`: combine the --results files of a match's shards, or of several
/// runs of one test with different seeds, into one report.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct MergeArgs {
    /// The results files: shards of one match, or of several runs (different seeds) of one
    /// test (same game, engines, time control and openings).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,

    /// Use this SPRT instead of the first file's one.
    #[arg(long, num_args = 4..=5, value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,

    /// Write the merged results summary (JSON) here.
    #[arg(long)]
    pub results: Option<PathBuf>,
}

fn usage(why: impl Into<String>) -> MatchError {
    MatchError::Usage(why.into())
}

/// Reads one `--engine` group of `key=value` words.
pub fn parse_engine(words: &[String]) -> Result<EngineSpec, MatchError> {
    let (mut cmd, mut name, mut dir, mut args) = (None, None, None, Vec::new());
    let mut options = Vec::new();
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| usage(format!("--engine: expected key=value, got '{word}'")))?;
        match key {
            "cmd" => cmd = Some(PathBuf::from(value)),
            "name" => name = Some(value.to_string()),
            "dir" => dir = Some(PathBuf::from(value)),
            "args" => args.extend(value.split_whitespace().map(String::from)),
            _ => match key.strip_prefix("option.") {
                Some(option) if !option.is_empty() => {
                    options.push((option.to_string(), value.to_string()));
                }
                _ => return Err(usage(format!("--engine: unknown key '{key}' in '{word}'"))),
            },
        }
    }
    let cmd = cmd.ok_or_else(|| usage("--engine: cmd= is missing"))?;
    let name = name.unwrap_or_else(|| {
        cmd.file_stem()
            .map_or("engine".to_string(), |s| s.to_string_lossy().into_owned())
    });
    Ok(EngineSpec {
        name,
        cmd,
        args,
        dir,
        options,
    })
}

impl MatchArgs {
    /// Checks the arguments and builds the match configuration. Two engines with the same
    /// name are told apart as `NAME-1` and `NAME-2`.
    pub fn to_config(&self) -> Result<MatchConfig, MatchError> {
        let [a, b] = &self.engines.0[..] else {
            let times = self.engines.0.len();
            return Err(usage(format!(
                "--engine must be given twice, not {times} times"
            )));
        };
        let (mut a, mut b) = (parse_engine(a)?, parse_engine(b)?);
        if a.name == b.name {
            a.name.push_str("-1");
            b.name.push_str("-2");
        }
        let tc = match (&self.tc, self.movetime, self.nodes, self.depth) {
            (Some(tc), None, None, None) => TimeControl::parse_clock(tc).map_err(usage)?,
            (None, Some(ms), None, None) if ms > 0 => {
                TimeControl::MoveTime(Duration::from_millis(ms))
            }
            (None, None, Some(n), None) if n > 0 => TimeControl::Nodes(n),
            (None, None, None, Some(d)) if d > 0 => TimeControl::Depth(d),
            _ => {
                return Err(usage(
                    "give exactly one positive limit: --tc, --movetime, --nodes or --depth",
                ));
            }
        };
        if self.games == 0 {
            return Err(usage("--games must be at least 1"));
        }
        if self.concurrency == 0 {
            return Err(usage("--concurrency must be at least 1"));
        }
        Ok(MatchConfig {
            game: self.game,
            engines: [a, b],
            games: self.games,
            concurrency: self.concurrency,
            tc,
            margin: Duration::from_millis(self.margin),
            timeout: Duration::from_millis(self.timeout),
            seed: self.seed,
            openings: match &self.openings {
                Some(text) => OpeningSource::parse(text).map_err(usage)?,
                None => OpeningSource::StartPosition,
            },
            sprt: self
                .sprt
                .as_deref()
                .map(Sprt::parse)
                .transpose()
                .map_err(usage)?,
            recover: self.recover,
            shard: self
                .shard
                .as_deref()
                .map(Shard::parse)
                .transpose()
                .map_err(usage)?,
            pgnout: self.pgnout.clone(),
            jsonl: self.jsonl.clone(),
            results: self.results.clone(),
            report_every: self.report_every,
            progress: !self.no_progress,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(line: &str) -> Result<MatchConfig, String> {
        let words = std::iter::once("quartet").chain(line.split(' '));
        let cli = Cli::try_parse_from(words).map_err(|e| e.to_string())?;
        cli.args.to_config().map_err(|e| e.to_string())
    }

    #[test]
    fn full_command_line() {
        let c = parse(
            "--game duell --engine cmd=/bin/e1 option.Hash=16 args=-q --engine cmd=./e2 name=two \
            dir=/tmp \
             --games 10 --concurrency 3 --tc 40/1+0.01 --seed 7 --openings random:4 --pgnout g.pgn \
             --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --recover --shard 1/2 --results r.json \
             --jsonl g.jsonl --report-every 5 --margin 30 --timeout 1000 --no-progress",
        )
        .unwrap();
        assert_eq!(c.game, GameKind::Duell);
        assert_eq!(c.engines[0].name, "e1");
        assert_eq!(
            c.engines[0].options,
            [("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(c.engines[0].args, ["-q"]);
        assert_eq!(c.engines[1].name, "two");
        assert_eq!(c.engines[1].dir, Some(PathBuf::from("/tmp")));
        assert_eq!(
            (c.games, c.concurrency, c.seed, c.report_every),
            (10, 3, 7, 5)
        );
        assert_eq!(c.tc.to_string(), "40/1+0.01");
        assert_eq!(c.openings, OpeningSource::Random(4));
        assert!(c.sprt.is_some() && c.recover && !c.progress);
        assert_eq!(c.shard, Some(Shard { index: 1, count: 2 }));
        assert_eq!(
            (c.margin, c.timeout),
            (Duration::from_millis(30), Duration::from_secs(1))
        );
    }

    #[test]
    fn the_game_is_parsed_into_the_registry_s_type() {
        // A toy game of the tests (Nim) is no game of the registry: refused when parsed,
        // with the games that are.
        let err = parse("--game nim --engine cmd=a --engine cmd=b --nodes 1").unwrap_err();
        assert!(err.contains("unknown game 'nim'"), "{err}");
        assert!(err.contains(GameKind::DEFAULT.name()), "{err}");
        for &game in GameKind::ALL {
            let line = format!(
                "--game {} --engine cmd=a --engine cmd=b --nodes 1",
                game.name()
            );
            assert_eq!(parse(&line).map(|c| c.game), Ok(game));
        }
    }

    #[test]
    fn limits_and_defaults() {
        let c = parse("--game duell --engine cmd=a --engine cmd=a --nodes 500").unwrap();
        assert_eq!(c.tc, TimeControl::Nodes(500));
        assert_eq!(
            (c.engines[0].name.as_str(), c.engines[1].name.as_str()),
            ("a-1", "a-2")
        );
        assert_eq!((c.games, c.concurrency, c.seed), (2, 1, 0));
        assert_eq!(c.openings, OpeningSource::StartPosition);
        let c = parse("--game duell --engine cmd=a --engine cmd=b --depth 3").unwrap();
        assert_eq!(c.tc, TimeControl::Depth(3));
        let c = parse("--game duell --engine cmd=a --engine cmd=b --movetime 100").unwrap();
        assert_eq!(c.tc, TimeControl::MoveTime(Duration::from_millis(100)));
    }

    #[test]
    fn bad_command_lines_are_refused() {
        for bad in [
            "--game duell --engine cmd=a --nodes 1",
            "--game duell --engine cmd=a --engine cmd=b --engine cmd=c --nodes 1",
            "--game duell --engine cmd=a --engine cmd=b",
            "--game duell --engine cmd=a --engine cmd=b --nodes 1 --depth 2",
            "--game duell --engine cmd=a --engine cmd=b --nodes 0",
            "--game duell --engine cmd=a --engine cmd=b --tc 0+1",
            "--game duell --engine name=x --engine cmd=b --nodes 1",
            "--game duell --engine cmd=a hash=1 --engine cmd=b --nodes 1",
            "--game duell --engine cmd=a option.=1 --engine cmd=b --nodes 1",
            "--game duell --engine cmd=a --engine cmd=b --nodes 1 --games 0",
            "--game duell --engine cmd=a --engine cmd=b --nodes 1 --shard 3/2",
            "--game duell --engine cmd=a --engine cmd=b --nodes 1 --openings book",
            "--game duell --engine cmd=a --engine cmd=b --nodes 1 --sprt elo0=5 elo1=0 alpha=0.05 \
            beta=0.05",
        ] {
            assert!(parse(bad).is_err(), "accepted: {bad}");
        }
    }
}
