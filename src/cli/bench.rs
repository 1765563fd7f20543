//! `quartet bench`: prints each game's bench (see [`quartet_engine::bench`]) and the totals; the
//! `Nodes searched` line is the node signature.

use clap::Args;
use quartet_core::eval::nnue::Choice;
use quartet_engine::bench;
use quartet_games::GameKind;
use quartet_protocol::output::say;

/// The arguments of `quartet bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Only this game (default: all).
    #[arg(long, value_parser = super::game_parser())]
    pub game: Option<GameKind>,
    /// Search depth instead of each game's default.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Skip the one-second searches (the output is then fully deterministic but for the
    /// times).
    #[arg(long)]
    pub untimed: bool,
    /// The evaluation of the games that have a network, as the `Eval` option: `auto` (the
    /// default, each game's declared choice, whose nodes are the pinned signature),
    /// `classical` or `network`.
    #[arg(long, value_parser = super::eval_choice(), default_value = Choice::Auto.name())]
    pub eval: Choice,
}

/// Runs the bench of every game (or of the one asked for) and prints one line each.
pub fn run(args: &BenchArgs) -> Result<(), String> {
    quartet_engine::choose_eval(args.eval);
    let mut total_nodes = 0;
    let mut total_time = 0.0;
    for &game in GameKind::ALL
        .iter()
        .filter(|&&g| args.game.is_none_or(|only| only == g))
    {
        let spec = game.declaration().bench;
        let r = bench::run(game, args.depth, !args.untimed)?;
        let secs = r.search_time.as_secs_f64().max(1e-9);
        let perft_secs = r.perft_time.as_secs_f64().max(1e-9);
        let one_second = r.depth_in_one_second.map_or(String::new(), |d| {
            format!(", depth {d} in 1 s from the start")
        });
        say(format_args!(
            "{:<10} search depth {}: {} nodes in {:.3} s = {:.0} nodes/s{one_second}; perft {}: {} \
            leaves in {:.3} s = {:.0} leaves/s",
            game.name(),
            args.depth.unwrap_or(spec.depth),
            r.nodes,
            secs,
            r.nodes as f64 / secs,
            spec.perft_depth,
            r.perft_leaves,
            perft_secs,
            r.perft_leaves as f64 / perft_secs,
        ));
        total_nodes += r.nodes;
        total_time += secs;
    }
    say(format_args!("Nodes searched: {total_nodes}"));
    say(format_args!(
        "Nodes/second: {:.0}",
        total_nodes as f64 / total_time.max(1e-9)
    ));
    Ok(())
}
