//! The `quartet` binary: parses the command line and runs the protocol loop or the
//! subcommand asked for (each lives in its own module of [`cli`]).

mod cli;

use clap::Parser;
use cli::{
    Cli, Cmd, bench, games, match_command, perft, playthrough, replay, review, selfplay, shell,
    solve, tune,
};
use quartet_protocol::reader;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match &cli.command {
        None => reader::serve_stdio(cli.game, cli.player),
        Some(Cmd::Perft(args)) => perft::run(args),
        Some(Cmd::Bench(args)) => bench::run(args),
        Some(Cmd::Solve(args)) => solve::run(args),
        Some(Cmd::Match(command)) => match_command::run(command),
        Some(Cmd::Replay(args)) => replay::run(args),
        Some(Cmd::Review(args)) => review::run(args),
        Some(Cmd::Selfplay(args)) => selfplay::run(args),
        Some(Cmd::Tune(args)) => tune::run(args),
        #[cfg(feature = "gui")]
        Some(Cmd::Gui(args)) => quartet_gui::run(args),
        #[cfg(not(feature = "gui"))]
        Some(Cmd::Gui { .. }) => Err("this quartet was built without the board (the 'gui' \
            feature, left out by --no-default-features): build it with the default features, \
            'cargo install --locked --path .'"
            .to_string()),
        Some(Cmd::Playthrough(args)) => playthrough::run(args),
        Some(Cmd::Games(args)) => games::run(args),
        Some(Cmd::Completions(args)) => shell::completions(args),
        Some(Cmd::Man(args)) => shell::man(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quartet: {e}");
            ExitCode::FAILURE
        }
    }
}
