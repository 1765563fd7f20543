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
//! The server is an I/O shell around a pure game-flow core (issue 39 §4). The core, plain
//! data and plain functions that the unit tests reach without a socket or an engine:
//! `game` (a session's game: its flow, end, clocks, analysis and review, and the state the
//! page draws), `decide` (what to start next, a person's move, a refused joint turn),
//! `flow` (whose action is awaited, take-backs), `lines` and `variations` (the main line,
//! variations and the view), `review` (a review kept with the session), `places` (who holds the
//! server's places), `limits` (what a page may make a session take), `dice`, `clock`,
//! `clock_log` (the clock readings of the main line), `recording` (a game's record in the
//! `quartet match --pgnout` format, written and read by `quartet-records`),
//! `request` (what the page may send, validated), `uci` (option and info lines),
//! `answers` and `snapshot` (the engine's answers read), `fault`. The shell: `server`
//! (HTTP routes and the WebSocket upgrade), `assets` (the embedded page), `sessions` (the
//! places with their sockets and timers), `session` (one tab's loop), `io` (its socket,
//! engine child and channel), `engine` (the child process), `talk` (commands to it, fenced
//! by `isready`), and what a session does: `actions` (the page's requests), `page` (its
//! messages to the page), `lifecycle` (starting its engine, faults), `search` (`go`,
//! `info`, `bestmove`), `turns` (moves, rolls, the reveal), `head` (the game's head as the
//! engine describes it), `viewing` (looking back, variations), `archive` (records in and
//! out), `options`, `reviewing` (a review for the page) and `review_run` (a review's run,
//! with an engine of its own, in a thread). The shell's files use the core's; no core file
//! uses the shell's, and the modules use each other without a circle (the tests of
//! `layering`). Of the workspace's crates the GUI uses only `quartet-review`, the review's
//! core that `quartet review` runs, itself a client of the text protocol and of no crate of
//! ours, and `quartet-records`, the records' text (which knows no rules): like any GUI, it
//! reaches an engine through the text protocol only.

#![deny(missing_docs)]

mod actions;
mod answers;
mod archive;
mod assets;
mod clock;
mod clock_log;
mod decide;
mod dice;
mod engine;
mod fault;
mod flow;
mod game;
mod head;
mod io;
mod lifecycle;
mod limits;
mod lines;
mod options;
mod page;
mod places;
mod recording;
mod request;
mod review;
mod review_run;
mod reviewing;
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

#[cfg(test)]
mod layering;

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
    /// Most sessions (tabs, each with its engine, open or kept) at once: a new tab takes the
    /// place of the oldest kept one, and with every place open one more is told so.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub max_sessions: u16,
    /// Seconds a session whose page went away (a reload, a dropped connection) is kept
    /// with its game and engine for the page to come back (a new page takes the place of
    /// the oldest kept one when every place is taken).
    #[arg(long, default_value_t = 600)]
    pub keep_seconds: u64,
    /// Megabytes of transposition table (the engines' `Hash`) all sessions together may
    /// take: each session's `Hash` is capped at this over --max-sessions.
    #[arg(long, default_value_t = 2048, value_name = "MB")]
    pub hash_budget: u64,
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
    /// Most `Hash` (MB) one session's engine may be set to.
    pub hash_cap: i64,
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
        hash_cap: limits::hash_cap(args.hash_budget, usize::from(args.max_sessions)),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("gui: starting the async runtime: {e}"))?;
    runtime.block_on(server::serve(config, args.port))
}
