//! `quartet perft`: leaves per root move, the total and the speed.

use super::rules::RuleArgs;
use clap::Args;
use quartet_engine as engine;
use quartet_games::GameKind;
use quartet_protocol::output::say;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The arguments of `quartet perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, default_value = GameKind::DEFAULT.name(), value_parser = super::game_parser())]
    pub game: GameKind,
    /// Plies to count.
    #[arg(long)]
    pub depth: u32,
    /// Position string (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play from the position first.
    #[arg(long, num_args = 0.., allow_hyphen_values = true)]
    pub moves: Vec<String>,
    /// The rule options.
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// Prints `<token>: <count>` per root token, then the total and leaves per second.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let mut g = engine::new_game(args.game, args.rules.rules);
    let moves: Vec<&str> = args.moves.iter().map(String::as_str).collect();
    g.set_position(args.fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut total = 0;
    let never = AtomicBool::new(false);
    g.divide(args.depth, &never, &mut |token, count| {
        say(format_args!("{token}: {count}"));
        total += count;
    });
    if args.depth == 0 {
        total = 1;
    }
    let secs = started.elapsed().as_secs_f64();
    say("");
    say(format_args!("Nodes searched: {total}"));
    say(format_args!(
        "Time: {secs:.3} s, {:.0} leaves/s",
        total as f64 / secs.max(1e-9)
    ));
    Ok(())
}
