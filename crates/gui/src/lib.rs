//! `quartet gui`: a browser board for an engine's games that drives it *only* through
//! the text protocol (issue 12).
//!
//! The server binds 127.0.0.1, serves one page and its assets from the binary and talks to
//! the page over a WebSocket. Each connection (each browser tab) gets its own engine child
//! process: by default this executable without a subcommand, or `--engine CMD`. The server
//! rolls a chance node's outcome itself, seeded, from the weights the engine gives (`query
//! chance`, `turns.rs`); otherwise it draws nothing itself, it asks the engine (`query
//! position`, `query legalmoves`, ...) and passes the answers on, and every line exchanged
//! with the engine is relayed to the page's console pane. It reads and writes no file.
//!
//! Files: `server` (HTTP routes and the WebSocket upgrade), `assets` (the embedded page),
//! `session` (one tab's data and loop), `sessions` (the cap, and kept sessions),
//! `io` (its socket, engine child and channel), `lines` (its game's lines and view, plain
//! data with pure methods), `recording` (its game as a record), and what a session does:
//! `actions` (what the page
//! may ask of it), `page` (its messages to the page, the state), `lifecycle` (starting its
//! engine, faults), `search` (`go`, `info`, `bestmove`), `turns` (the game's flow: moves,
//! rolls, the reveal); `engine` (the child process), `talk` (commands to it, fenced by
//! `isready`), `answers` (reading its answers), `snapshot` (the queries a position is drawn
//! with, and its description), `fault` (what can go wrong with it), `uci`
//! (option and info lines), `request` (what the page may send, validated), `flow` (whose
//! action is awaited), `variations` (lines that leave the main line), `clock`, `record`
//! (game records in the `quartet match --pgnout` format), `review` (a game review's
//! requests and marks).
//! Nothing here may use the crate's rules, search, protocol, referee or player modules; the
//! test `tests/gui_isolation.rs` fails if it does.

#![deny(missing_docs)]

mod actions;
mod answers;
mod archive;
mod assets;
mod clock;
mod decide;
mod engine;
mod fault;
mod flow;
mod head;
mod io;
mod lifecycle;
mod lines;
mod options;
mod page;
pub mod record;
mod recording;
mod request;
mod review;
mod search;
mod server;
mod session;
mod sessions;
mod snapshot;
mod talk;
mod turns;
pub mod uci;
mod variations;
mod viewing;

use std::time::Duration;

pub use engine::EngineCommand;

/// The options of `quartet gui`.
#[derive(clap::Args, Debug, Clone)]
pub struct GuiArgs {
    /// The engine to drive: a program and its arguments, separated by spaces (default: this
    /// quartet binary, started without a subcommand).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// The TCP port on 127.0.0.1 (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8411)]
    pub port: u16,
    /// Milliseconds an engine may exceed its time limit before it counts as hanging.
    #[arg(long, default_value_t = 1000)]
    pub margin_ms: u64,
    /// Seed of the server's Ludo dice (default: a new seed per game, shown in the page).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Most sessions (tabs, each with its engine) open at once; one more is told so.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub max_sessions: u16,
    /// Seconds a session whose page went away (a reload, a dropped connection) is kept
    /// with its game and engine for the page to come back.
    #[arg(long, default_value_t = 600)]
    pub keep_seconds: u64,
}

/// What every session of one server shares.
#[derive(Debug, Clone)]
pub struct Config {
    /// How to start an engine.
    pub engine: EngineCommand,
    /// Slack after an engine's time limit before it counts as hanging.
    pub margin: Duration,
    /// Fixed dice seed, if given.
    pub seed: Option<u64>,
    /// Most sessions open at once.
    pub max_sessions: usize,
    /// How long a session whose page went away is kept.
    pub keep: Duration,
}

/// Starts the server described by `args`, prints its URL and serves until the process is
/// ended. Errors: the engine command is empty or this executable's path is unknown, or the
/// port cannot be bound.
pub fn run(args: &GuiArgs) -> Result<(), String> {
    let engine = match &args.engine {
        Some(cmd) => EngineCommand::parse(cmd)?,
        None => EngineCommand::this_executable()?,
    };
    let config = Config {
        engine,
        margin: Duration::from_millis(args.margin_ms),
        seed: args.seed,
        max_sessions: usize::from(args.max_sessions),
        keep: Duration::from_secs(args.keep_seconds),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("gui: starting the async runtime: {e}"))?;
    runtime.block_on(server::serve(config, args.port))
}
