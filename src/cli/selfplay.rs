//! `quartet selfplay`: write training positions from self-play (see
//! `quartet::learn::selfplay`), and `quartet selfplay merge` to join the shards of a run.

use super::rules::RuleArgs;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use quartet_core::eval::Evaluate;
use quartet_core::eval::nnue::Choice;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_learn::data::{self, DataFile, Summary};
use quartet_learn::selfplay::{self, Config, MoveLimit};
use quartet_protocol::output::say;
use std::io::{BufWriter, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `quartet selfplay --game G --games N (--nodes K | --movetime MS) --seed S [--shard i/n]
/// --out FILE`, or `quartet selfplay merge --out FILE SHARDS...`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SelfplayArgs {
    /// `merge`: join the files of a run's shards.
    #[command(subcommand)]
    pub merge: Option<SelfplayCommand>,
    /// The game (`quartet games --names` lists them).
    #[arg(long, required = true, value_parser = super::game_parser())]
    pub game: Option<GameKind>,
    /// Games in the whole run (all shards together).
    #[arg(long, required = true)]
    pub games: Option<u64>,
    /// Node budget per move (deterministic: the same seed gives the same file).
    #[arg(
        long,
        required_unless_present = "movetime",
        conflicts_with = "movetime"
    )]
    pub nodes: Option<u64>,
    /// Milliseconds per move (the games then depend on the machine's speed).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only slice i of n (`--shard 2/4`): the games g with g % n == i - 1.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
    /// Decisions played at random at the start of each game (varied openings).
    #[arg(long, default_value_t = 8)]
    pub random_plies: u32,
    /// Positions kept per game at most (drawn uniformly among its searched positions), so
    /// that long games do not dominate the data.
    #[arg(long, default_value_t = 12)]
    pub per_game: usize,
    /// A game still running after this many plies is scored a draw.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    /// Transposition table per game, MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Games played at once (one thread each).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The evaluation of the games that have a network, as the `Eval` option: `auto` (the
    /// default, each game's declared choice), `classical` or `network`.
    #[arg(long, value_parser = super::eval_choice(), default_value = Choice::Auto.name())]
    pub eval: Choice,
    /// The rule options.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The data file to write (replaced).
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Do not show the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// The subcommands of `selfplay`.
#[derive(Subcommand, Debug)]
pub enum SelfplayCommand {
    /// Join the files of shards 1/n .. n/n of one run into the file the unsharded run
    /// writes.
    Merge {
        /// The merged file to write (replaced).
        #[arg(long)]
        out: PathBuf,
        /// The shards' files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Runs `quartet selfplay` or `quartet selfplay merge`.
pub fn run(args: &SelfplayArgs) -> Result<(), String> {
    if let Some(SelfplayCommand::Merge { out, files }) = &args.merge {
        return merge(out, files);
    }
    let missing = |what: &str| format!("selfplay: {what} is required");
    let game = args.game.ok_or_else(|| missing("--game"))?;
    let out = args.out.as_ref().ok_or_else(|| missing("--out"))?;
    let limit = match (args.nodes, args.movetime) {
        (Some(n), None) if n > 0 => MoveLimit::Nodes(n),
        (None, Some(ms)) if ms > 0 => MoveLimit::Movetime(ms),
        _ => return Err("selfplay: give one of --nodes K or --movetime MS (above 0)".into()),
    };
    let shard = parse_shard(&args.shard)?;
    quartet_engine::choose_eval(args.eval);
    let config = Config {
        game: game.name().to_string(),
        games: args.games.ok_or_else(|| missing("--games"))?,
        limit,
        seed: args.seed,
        shard,
        random_plies: args.random_plies,
        per_game: args.per_game,
        max_plies: args.max_plies,
        hash_mb: args.hash.max(1),
        concurrency: args.concurrency.max(1),
        rules: args.rules.rules,
    };
    let started = Instant::now();
    let summary = game.visit(Selfplay {
        config: &config,
        out,
        progress: !args.no_progress,
    })?;
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    say(format_args!(
        "{}: {} games, {} positions ({:.0} per hour), results {}-{}-{} (first player \
        wins-draws-losses), {:.1} s",
        out.display(),
        summary.games,
        summary.positions,
        summary.positions as f64 * 3600.0 / secs,
        summary.first,
        summary.draws,
        summary.second,
        secs
    ));
    Ok(())
}

/// Reads `i/n`.
fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    text.split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .filter(|&(i, n)| i >= 1 && i <= n)
        .ok_or_else(|| format!("selfplay: --shard '{text}': expected i/n with 1 <= i <= n"))
}

/// `selfplay` for the chosen game.
struct Selfplay<'a> {
    config: &'a Config,
    out: &'a Path,
    progress: bool,
}

impl GameVisitor for Selfplay<'_> {
    type Output = Result<Summary, String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let file = std::fs::File::create(self.out)
            .map_err(|e| format!("selfplay: {}: {e}", self.out.display()))?;
        let mut writer = BufWriter::new(file);
        let total = self.config.shard_games().len() as u64;
        let bar = if self.progress && std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = "{bar:30} {pos}/{len} games {elapsed} (eta {eta})";
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        let result = selfplay::run::<G>(self.config, &mut writer, &|done| bar.set_position(done));
        bar.finish_and_clear();
        result
    }
}

/// `selfplay merge`.
fn merge(out: &Path, files: &[PathBuf]) -> Result<(), String> {
    let mut read = Vec::with_capacity(files.len());
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("selfplay merge: {}: {e}", path.display()))?;
        read.push(
            DataFile::parse(&text)
                .map_err(|e| format!("selfplay merge: {}: {e}", path.display()))?,
        );
    }
    let merged = data::merge(&read)?;
    std::fs::write(out, merged.to_text())
        .map_err(|e| format!("selfplay merge: {}: {e}", out.display()))?;
    let s = merged.summary;
    say(format_args!(
        "{}: {} shards, {} games, {} positions, results {}-{}-{} (first player wins-draws-losses)",
        out.display(),
        files.len(),
        s.games,
        s.positions,
        s.first,
        s.draws,
        s.second
    ));
    Ok(())
}
