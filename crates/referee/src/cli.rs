//! The command line of `quartet match` and `quartet match merge` (clap `Args`, flattened
//! into the binary's subcommands by `main.rs`), and its translation into a [`MatchConfig`].

use std::path::PathBuf;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use super::MatchError;
use super::adjudication::{Adjudication, DrawRule, ResignRule};
use super::book::OpeningSource;
use super::clock::TimeControl;
use super::config::MatchConfig;
use super::lineup;
use super::schedule::Shard;
use super::sprt::Sprt;
use super::tournament::Tournament;
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
                    "An engine, given once per engine (two for a match, more for a tournament): \
                     cmd=PATH [name=NAME] [dir=DIR] [args=\"A B\"] [option.X=Y ...] \
                     [conf=NAME] [tc=T | movetime=MS | nodes=N | depth=N]; a match's \
                     statistics are from the first engine's point of view",
                ),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        EngineGroups::augment_args(cmd)
    }
}

/// `quartet match`: play games between two engines (or a tournament of more) and report
/// the statistics.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct MatchArgs {
    /// The game (`quartet games --names` lists them).
    #[arg(long, value_parser = GameKind::parse)]
    pub game: GameKind,

    /// The `--engine` groups.
    #[command(flatten)]
    pub engines: EngineGroups,

    /// Words every engine gets (`tc=`, `nodes=`, `option.X=Y`, ...), which an engine's own
    /// words override.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,

    /// An engines file (JSON: a list of {name, cmd, args, dir, options, tc | movetime |
    /// nodes | depth}), whose entries `--engine conf=NAME` uses.
    #[arg(long = "engines", value_name = "FILE")]
    pub engines_file: Option<PathBuf>,

    /// With more than two engines: every engine against every other, or the first against
    /// each of the others.
    #[arg(long, value_enum, default_value_t = Tournament::RoundRobin)]
    pub tournament: Tournament,

    /// Games to play per pairing (the whole match for two engines), in pairs with colours
    /// swapped.
    #[arg(long, default_value_t = 2)]
    pub games: u64,

    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,

    /// Clock per player: `[moves/]seconds+increment`, e.g. `10+0.1` or `40/60+0` (every
    /// engine without a limit of its own).
    #[arg(long, conflicts_with_all = ["movetime", "nodes", "depth"])]
    pub tc: Option<String>,

    /// Fixed time per move in milliseconds (every engine without a limit of its own).
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    pub movetime: Option<u64>,

    /// Node budget per move (every engine without a limit of its own).
    #[arg(long, conflicts_with = "depth")]
    pub nodes: Option<u64>,

    /// Search depth per move (every engine without a limit of its own).
    #[arg(long)]
    pub depth: Option<u32>,

    /// Seed of the openings and the chance outcomes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// `random:N` (N random plies per pair) or `file:PATH [order=random|sequential]
    /// [start=N] [plies=N]`: a book of position strings (one a line) or of game records
    /// (the --pgnout format; each record's first `plies` tokens), played in an order the
    /// seed shuffles (`order=random`, the default) or the file's, from its N-th opening.
    #[arg(long, num_args = 1.., value_name = "SOURCE [KEY=VALUE]")]
    pub openings: Option<Vec<String>>,

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

    /// Adjudicate a draw once at least N moves were played and both sides' scores stayed
    /// within ±S for K moves: `movenumber=N movecount=K score=S` (fastchess's meaning;
    /// scores in the game's `score cp` units). Refused in a game without draws (Ludo).
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,

    /// Adjudicate a loss once a side's score was −S or worse for K moves of its own:
    /// `movecount=K score=S [twosided]` (twosided: both sides' scores beyond ±S for K moves,
    /// the losing side resigns). In a game without draws (Ludo) the engines' `wdl` is read
    /// and S is in per mille of W − L.
    #[arg(long, num_args = 1..=3, value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,

    /// Adjudicate a draw once the engines played N moves (the opening's not counted)
    /// without a result. Refused in a game without draws (Ludo).
    #[arg(long, value_name = "N")]
    pub maxmoves: Option<u32>,

    /// `exact`: end a game at a position the game's exact solver proves (a certain win,
    /// loss or draw), as tablebases do; only for a game with an exact solver (Apocalypse,
    /// positions of up to 4 pieces).
    #[arg(long, value_enum, value_name = "exact")]
    pub adjudicate: Option<AdjudicateKind>,

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

    /// Go on from the --results file of an earlier session of this same command (stopped by
    /// a signal, SIGKILL, a requeue or an engine failure): its finished games are kept, the
    /// records and JSON lines are appended to; without the file the match starts afresh. A
    /// command that differs (engines, limits, seed, book, rules) is refused.
    #[arg(long)]
    pub resume: bool,

    /// Write every engine's input, output and stderr, per game, with time stamps, to
    /// DIR/game-N.log (without it, the engines' stderr goes to FILE.stderr beside the
    /// --results file, or to the temporary directory).
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,

    /// The records' Event tag.
    #[arg(long, default_value = "Quartet match")]
    pub event: String,

    /// The records' Site tag (default: this machine's name).
    #[arg(long)]
    pub site: Option<String>,

    /// Start no more games once this file exists (the games in flight finish): the stop
    /// marker that `quartet match watch` writes when its SPRT decides.
    #[arg(long, value_name = "FILE")]
    pub stop_file: Option<PathBuf>,
}

/// What `--adjudicate` may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AdjudicateKind {
    /// The game's exact solver.
    Exact,
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

impl MatchArgs {
    /// The global limit (`--tc`, `--movetime`, `--nodes`, `--depth`), if one is given.
    fn global_limit(&self) -> Result<Option<TimeControl>, MatchError> {
        Ok(match (&self.tc, self.movetime, self.nodes, self.depth) {
            (Some(tc), None, None, None) => Some(TimeControl::parse_clock(tc).map_err(usage)?),
            (None, Some(ms), None, None) if ms > 0 => {
                Some(TimeControl::MoveTime(Duration::from_millis(ms)))
            }
            (None, None, Some(n), None) if n > 0 => Some(TimeControl::Nodes(n)),
            (None, None, None, Some(d)) if d > 0 => Some(TimeControl::Depth(d)),
            (None, None, None, None) => None,
            _ => {
                return Err(usage(
                    "give exactly one positive limit: --tc, --movetime, --nodes or --depth",
                ));
            }
        })
    }

    /// Checks the arguments and builds the match configuration (see [`lineup::engines`]
    /// for the engines and their limits).
    pub fn to_config(&self) -> Result<MatchConfig, MatchError> {
        let engines = lineup::engines(
            &self.engines.0,
            &self.each,
            self.engines_file.as_deref(),
            self.global_limit()?,
        )
        .map_err(usage)?;
        if engines.len() < 2 {
            return Err(usage(format!(
                "--engine must be given at least twice, not {} times",
                engines.len()
            )));
        }
        if self.games == 0 {
            return Err(usage("--games must be at least 1"));
        }
        if self.concurrency == 0 {
            return Err(usage("--concurrency must be at least 1"));
        }
        let sprt = self
            .sprt
            .as_deref()
            .map(Sprt::parse)
            .transpose()
            .map_err(usage)?;
        if sprt.is_some() && engines.len() > 2 {
            return Err(usage(
                "--sprt tests one engine against another: give two engines",
            ));
        }
        Ok(MatchConfig {
            game: self.game,
            pairings: self.tournament.pairings(engines.len()),
            tournament: self.tournament,
            engines,
            games: self.games,
            concurrency: self.concurrency,
            margin: Duration::from_millis(self.margin),
            timeout: Duration::from_millis(self.timeout),
            seed: self.seed,
            openings: match &self.openings {
                Some(words) => OpeningSource::parse(words).map_err(usage)?,
                None => OpeningSource::StartPosition,
            },
            sprt,
            recover: self.recover,
            adjudication: Adjudication {
                draw: self
                    .draw
                    .as_deref()
                    .map(DrawRule::parse)
                    .transpose()
                    .map_err(usage)?,
                resign: self
                    .resign
                    .as_deref()
                    .map(ResignRule::parse)
                    .transpose()
                    .map_err(usage)?,
                maxmoves: match self.maxmoves {
                    Some(0) => return Err(usage("--maxmoves must be at least 1")),
                    n => n,
                },
                exact: self.adjudicate == Some(AdjudicateKind::Exact),
            },
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
            resume: self.resume,
            log_dir: self.log.clone(),
            event: self.event.clone(),
            site: self.site.clone().unwrap_or_else(super::datetime::host_name),
            stop_file: self.stop_file.clone(),
            interrupt: None,
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
        assert_eq!(c.engines[0].spec.name, "e1");
        assert_eq!(
            c.engines[0].spec.options,
            [("Hash".to_string(), "16".to_string())]
        );
        assert_eq!(c.engines[0].spec.args, ["-q"]);
        assert_eq!(c.engines[1].spec.name, "two");
        assert_eq!(c.engines[1].spec.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(
            (c.games, c.concurrency, c.seed, c.report_every),
            (10, 3, 7, 5)
        );
        assert_eq!(c.engines[1].limit.to_string(), "40/1+0.01");
        assert_eq!(c.pairings, [[0, 1]]);
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
        assert_eq!(c.engines[0].limit, TimeControl::Nodes(500));
        assert_eq!(
            (
                c.engines[0].spec.name.as_str(),
                c.engines[1].spec.name.as_str()
            ),
            ("a-1", "a-2")
        );
        assert_eq!((c.games, c.concurrency, c.seed), (2, 1, 0));
        assert_eq!(c.openings, OpeningSource::StartPosition);
        let c = parse("--game duell --engine cmd=a --engine cmd=b --depth 3").unwrap();
        assert_eq!(c.engines[1].limit, TimeControl::Depth(3));
        let c = parse("--game duell --engine cmd=a --engine cmd=b --movetime 100").unwrap();
        assert_eq!(
            c.engines[0].limit,
            TimeControl::MoveTime(Duration::from_millis(100))
        );
        let c = parse(
            "--game duell --engine cmd=a tc=10+0.1 --engine cmd=b --engine cmd=c --nodes 9 \
             --tournament gauntlet --each option.Hash=8",
        )
        .unwrap();
        assert_eq!(c.pairings, [[0, 1], [0, 2]]);
        assert_eq!(c.engines[0].limit.to_string(), "10+0.1");
        assert_eq!(c.engines[2].limit, TimeControl::Nodes(9));
        assert_eq!(c.engines[2].spec.options[0].1, "8");
    }

    #[test]
    fn bad_command_lines_are_refused() {
        for bad in [
            "--game duell --engine cmd=a --nodes 1",
            "--game duell --engine cmd=a --engine cmd=b --engine cmd=c --nodes 1 --sprt elo0=0 \
            elo1=5 alpha=0.05 beta=0.05",
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
