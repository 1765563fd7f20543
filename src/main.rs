//! The `quartet` binary: the protocol loop by default; `perft` and `bench` subcommands.

use clap::{Parser, Subcommand};
use quartet::games::GameKind;
use quartet::protocol::output::Output;
use quartet::protocol::session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, Session};
use std::io::{BufRead, Read};
use std::process::ExitCode;

/// Quartet: one engine for R&B, Duell, Apocalypse and Ludo, speaking a UCI-style protocol
/// on standard input and output (see protocol.md).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// The game to play at start (rnb, duell, apocalypse, ludo).
    #[arg(long, global = true, default_value = "duell", value_parser = parse_game)]
    game: GameKind,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Count the leaves of the game tree (every token one ply), per root move.
    Perft {
        /// Plies to count.
        #[arg(long)]
        depth: u32,
        /// Position string (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play from the position first.
        #[arg(long, num_args = 0.., allow_hyphen_values = true)]
        moves: Vec<String>,
    },
}

fn parse_game(name: &str) -> Result<GameKind, String> {
    GameKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
        format!("unknown game '{name}' (one of {})", names.join(", "))
    })
}

/// The longest input line read whole; longer lines are refused.
const MAX_LINE_BYTES: u64 = 16 << 20;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => protocol_loop(cli.game),
        Some(Cmd::Perft { depth, fen, moves }) => perft(cli.game, depth, fen, &moves),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("quartet: {e}");
            ExitCode::FAILURE
        }
    }
}

fn protocol_loop(game: GameKind) -> Result<(), String> {
    let out = Output::stdout();
    out.line(&format!(
        "{ENGINE_NAME} by {ENGINE_AUTHOR} · game {} · type 'uci' to start or 'help' for the commands",
        game.name()
    ));
    let mut session = Session::new(out.clone(), game)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("reading input: {e}"))?;
        if n == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            // Skip the rest of the over-long line.
            let mut skipped = Vec::new();
            while !skipped.ends_with(b"\n") {
                skipped.clear();
                let m = (&mut input)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut skipped)
                    .map_err(|e| format!("reading input: {e}"))?;
                if m == 0 {
                    break;
                }
            }
            out.line(&format!(
                "info string error: line longer than {MAX_LINE_BYTES} bytes ignored"
            ));
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        if session.handle_line(line.trim_end_matches(['\n', '\r'])) == Flow::Quit {
            return Ok(());
        }
    }
    session.stop_search();
    Ok(())
}

fn perft(game: GameKind, depth: u32, fen: Option<String>, moves: &[String]) -> Result<(), String> {
    let mut g = game.new_game(Default::default())?;
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    g.set_position(fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    let started = std::time::Instant::now();
    let mut total = 0;
    for (token, count) in g.divide(depth) {
        println!("{token}: {count}");
        total += count;
    }
    if depth == 0 {
        total = 1;
    }
    let secs = started.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {total}");
    println!(
        "Time: {:.3} s, {:.0} leaves/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}
