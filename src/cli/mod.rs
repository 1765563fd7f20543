//! The command line of the `quartet` binary (clap): the protocol loop by default, and one
//! module per subcommand (`perft`, `bench`, `solve`, `match`, `replay`, `selfplay`,
//! `tune`), each with its arguments and its body. Rule flags come from the registry
//! ([`rules`]); every line goes out through [`quartet_protocol::output`].

pub mod bench;
pub mod games;
pub mod match_command;
pub mod perft;
pub mod playthrough;
pub mod replay;
pub mod review;
pub mod rules;
pub mod selfplay;
pub mod shell;
pub mod solve;
pub mod tune;
pub mod tune_args;
pub mod tune_net;

use clap::{Parser, Subcommand};
use quartet_core::eval::nnue::Choice;
use quartet_games::GameKind;
use quartet_search::players::PlayerKind;

/// A parser of one of `names` (lower case), in any case: `--help` lists the names and the
/// shell completions offer them; anything else is refused with the list.
#[derive(Clone)]
pub struct Names(clap::builder::PossibleValuesParser);

impl Names {
    /// The parser of one of `names`.
    pub fn new(names: impl IntoIterator<Item = &'static str>) -> Names {
        Names(clap::builder::PossibleValuesParser::new(names))
    }
}

impl clap::builder::TypedValueParser for Names {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let lower = value.to_str().map(str::to_ascii_lowercase);
        let value = lower.as_deref().map_or(value, std::ffi::OsStr::new);
        self.0.parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        self.0.possible_values()
    }
}

/// The parser of `--game`: the registry's names ([`GameKind::name`]).
pub fn game_parser() -> impl clap::builder::TypedValueParser<Value = GameKind> {
    use clap::builder::TypedValueParser;
    Names::new(GameKind::ALL.iter().map(|g| g.name()))
        .map(|name| GameKind::from_name(&name).unwrap_or(GameKind::DEFAULT))
}

/// The parser of `--player`: the baselines' names ([`PlayerKind::name`]).
pub fn player_parser() -> impl clap::builder::TypedValueParser<Value = PlayerKind> {
    use clap::builder::TypedValueParser;
    Names::new(PlayerKind::ALL.map(PlayerKind::name))
        .map(|name| PlayerKind::from_name(&name).unwrap_or(PlayerKind::Search))
}

/// The parser of a subcommand's `--eval`: the `Eval` option's values ([`Choice::name`]).
pub fn eval_choice() -> impl clap::builder::TypedValueParser<Value = Choice> {
    use clap::builder::TypedValueParser;
    Names::new(Choice::ALL.map(Choice::name))
        .map(|name| Choice::parse(&name).unwrap_or(Choice::Auto))
}

/// Quartet: one engine for two-player board games (`quartet games` lists them), speaking a
/// UCI-style protocol on standard input and output (see protocol.md).
#[derive(Parser)]
#[command(version)]
pub struct Cli {
    /// The game to play at start (one of the `Game` option's values).
    #[arg(long, default_value = GameKind::DEFAULT.name(), value_parser = game_parser())]
    pub game: GameKind,
    /// Who chooses the moves: the engine's search or a baseline; the `Player` option
    /// changes it later.
    #[arg(long, default_value = "search", value_parser = player_parser())]
    pub player: PlayerKind,
    /// A subcommand; without one, the protocol loop runs.
    #[command(subcommand)]
    pub command: Option<Cmd>,
}

/// The subcommands.
#[derive(Subcommand)]
pub enum Cmd {
    /// Count the leaves of the game tree (every token one ply), per root move.
    Perft(perft::PerftArgs),
    /// Play engines against each other under a referee that checks every move; or
    /// `match merge FILES...` to combine the results of shards, or of runs with different
    /// seeds.
    Match(match_command::MatchCommand),
    /// Search fixed positions of each game to a fixed depth: prints the node count (a
    /// deterministic signature), nodes per second, the depth reached in one second and
    /// perft leaves per second.
    Bench(bench::BenchArgs),
    /// Solve a small position exactly and print its value, for the games that have an
    /// exact solver: Apocalypse by backward induction over the whole game (with both
    /// sides' optimal root strategies), Ludo with 1 or 2 pieces (`--pieces`) by value
    /// iteration over every state (with every move's value at a decision node).
    Solve(solve::SolveArgs),
    /// Re-check every move of the game records in a file written by `match --pgnout`.
    Replay(replay::ReplayArgs),
    /// Review every game of a records file through an engine: each position's value, the
    /// luck of each roll, each decision's loss and mark, each side's accuracy (JSON with
    /// --json; docs/review.md).
    Review(review::ReviewArgs),
    /// Play the engine against itself and write positions with their game results and
    /// search scores (training data for `tune`); `selfplay merge` joins shards.
    Selfplay(selfplay::SelfplayArgs),
    /// Fit a game's evaluation weights to self-play data (Texel's method) and write the
    /// generated weights file.
    Tune(tune_args::TuneArgs),
    /// Serve a browser board for the engine's games on 127.0.0.1 that drives an engine (this
    /// one by default) over the protocol.
    #[cfg(feature = "gui")]
    Gui(quartet_gui::GuiArgs),
    /// A build without the board (`--no-default-features`): says how to get it.
    #[cfg(not(feature = "gui"))]
    #[command(hide = true)]
    Gui {
        /// Whatever was given, ignored.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Play one seeded game through the protocol and print the transcript: every line sent
    /// and every answer (the checked-in transcripts of `tests/playthroughs/`).
    Playthrough(playthrough::PlaythroughArgs),
    /// List the games, their node kinds and rule options (JSON; `--names`: one name a line).
    Games(games::GamesArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(shell::CompletionsArgs),
    /// Print the man page (roff), or write every page (`--dir`).
    Man(shell::ManArgs),
}
