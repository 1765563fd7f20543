//! `quartet tune --game G --data FILES...`: fit a game's evaluation weights to self-play
//! data by Texel's method (see `quartet::learn::tune`) and write the generated weights file;
//! for a game whose evaluation declares a network (Ludo), or with `--network` for a game's
//! efficiently updatable network (R&B, Duell), train it instead (`super::tune_net`).

use clap::Args;
use quartet_core::eval::Evaluate;
use quartet_core::eval::tunable::{TunableEval, render_weights};
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_learn::data::DataFile;
use quartet_learn::texel::FitOptions;
use quartet_learn::tune::{TuneOptions, TuneReport, tune};
use quartet_protocol::output::say;
use std::path::PathBuf;

/// Texel's step size when `--learning-rate` is not given, in evaluation units.
const TEXEL_RATE: f64 = 1.0;

/// `quartet tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game (`quartet games --names` lists them).
    #[arg(long, value_parser = GameKind::parse)]
    pub game: GameKind,
    /// Data files written by `quartet selfplay` (or `selfplay merge`).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Write the generated weights file here (e.g. crates/games/src/duell/weights.rs, or
    /// crates/games/src/ludo/net.bin); without it only the report is printed.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Texel: Adam steps.
    #[arg(long, default_value_t = 2000)]
    pub iterations: usize,
    /// Adam's step size: in evaluation units for a weighted sum (default 1), per weight
    /// for a network (default 0.002).
    #[arg(long)]
    pub learning_rate: Option<f64>,
    /// Texel: ridge penalty toward the starting weights, per weight.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Target = lambda * result + (1 - lambda) * logistic(search score).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Texel: leave out positions whose search score is at least this large (decided games).
    #[arg(long, default_value_t = 2000)]
    pub score_cap: i32,
    /// Texel: keep the positions whose move played was noisy too (Apocalypse: its simultaneous
    /// nodes have no quiescence search, the static value stands at every leaf).
    #[arg(long)]
    pub keep_noisy: bool,
    /// Hold out every game whose index is a multiple of this for validation (0: none).
    #[arg(long, default_value_t = 10)]
    pub holdout_every: u64,
    /// Texel: weights (by name prefix, e.g. `tempo` or `pst`) held at their values.
    #[arg(long, num_args = 0..)]
    pub freeze: Vec<String>,
    /// Network: also fit every chance node of the exactly solved games with this many pieces
    /// per side (Ludo: 1, 2), with their exact values as targets.
    #[arg(long, num_args = 0.., value_parser = clap::value_parser!(u8).range(1..=2))]
    pub exact: Vec<u8>,
    /// Network: the weight of an exact chance node in the loss (a self-play position weighs 1).
    #[arg(long, default_value_t = 1.0)]
    pub exact_weight: f64,
    /// Network: passes over the examples.
    #[arg(long, default_value_t = 6)]
    pub epochs: usize,
    /// Network: examples per Adam step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Network: seeds the network's initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Train the game's efficiently updatable network (R&B, Duell; see `Eval`) instead of
    /// fitting its weighted sum, and write it in integers (e.g. to
    /// crates/games/src/duell/nnue.bin).
    #[arg(long)]
    pub network: bool,
}

impl TuneArgs {
    /// The data files by their file names (as the reproducing command names them).
    pub(super) fn data_names(&self) -> Vec<String> {
        self.data
            .iter()
            .map(|p| {
                p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            })
            .collect()
    }

    /// The command line that reproduces this fit (data files by their file names).
    fn command(&self) -> String {
        let names = self.data_names();
        let mut cmd = format!(
            "quartet tune --game {} --data {} --iterations {} --learning-rate {} --l2 {} \
             --lambda {} --score-cap {} --holdout-every {}",
            self.game.name(),
            names.join(" "),
            self.iterations,
            self.learning_rate.unwrap_or(TEXEL_RATE),
            self.l2,
            self.lambda,
            self.score_cap,
            self.holdout_every
        );
        if self.keep_noisy {
            cmd.push_str(" --keep-noisy");
        }
        if !self.freeze.is_empty() {
            cmd.push_str(&format!(" --freeze {}", self.freeze.join(" ")));
        }
        if let Some(out) = &self.out {
            cmd.push_str(&format!(" --out {}", out.display()));
        }
        cmd
    }
}

/// Runs `quartet tune`.
pub fn run(args: &TuneArgs) -> Result<(), String> {
    let game = args.game;
    let mut files = Vec::with_capacity(args.data.len());
    for path in &args.data {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("tune: {}: {e}", path.display()))?;
        let file = DataFile::parse(&text).map_err(|e| format!("tune: {}: {e}", path.display()))?;
        if file.header.get("game") != Some(game.name()) {
            return Err(format!(
                "tune: {} holds {} data, not {}",
                path.display(),
                file.header.get("game").unwrap_or("unknown"),
                game.name()
            ));
        }
        files.push(file);
    }
    game.visit(Fit {
        args,
        files: &files,
    })
}

/// The fit of the chosen game.
struct Fit<'a> {
    args: &'a TuneArgs,
    files: &'a [DataFile],
}

impl GameVisitor for Fit<'_> {
    type Output = Result<(), String>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        if self.args.network {
            let nnue = G::NNUE.as_ref().ok_or_else(|| {
                format!(
                    "tune: {} has no efficiently updatable network (--network)",
                    G::DECLARATION.name
                )
            })?;
            return super::tune_net::run(&nnue.training, Some(nnue), self.args, self.files);
        }
        if let Some(net) = &G::NETWORK {
            return super::tune_net::run(net, None, self.args, self.files);
        }
        let eval = G::TUNABLE.ok_or_else(|| {
            format!(
                "tune: {}'s evaluation is not a weighted sum of terms",
                G::DECLARATION.name
            )
        })?;
        fit(&eval, self.args, self.files)
    }
}

fn fit<G: Evaluate + Notation>(
    eval: &TunableEval<G>,
    args: &TuneArgs,
    files: &[DataFile],
) -> Result<(), String> {
    let names = (eval.weight_names)();
    let frozen: Vec<bool> = names
        .iter()
        .map(|n| args.freeze.iter().any(|f| n.starts_with(f.as_str())))
        .collect();
    let options = TuneOptions {
        score_cap: args.score_cap,
        lambda: args.lambda,
        keep_noisy: args.keep_noisy,
        holdout_every: args.holdout_every,
        fit: FitOptions {
            iterations: args.iterations,
            learning_rate: args.learning_rate.unwrap_or(TEXEL_RATE),
            l2: args.l2,
            k: None,
            frozen,
        },
    };
    let report: TuneReport = tune(eval, files, &RuleOptions::default(), &options)?;
    say(format_args!(
        "positions: {} read, {} fitted, {} held out (quiet and |score| < {})",
        report.read, report.fitted, report.held_out, args.score_cap
    ));
    say(format_args!(
        "k = {:.6} (logistic scale per evaluation unit)",
        report.fit.k
    ));
    say(format_args!(
        "loss (fitted positions): {:.6} before, {:.6} after ({:.6} with rounded weights)",
        report.fit.loss_before, report.fit.loss_after, report.loss_rounded
    ));
    say(format_args!(
        "loss (held-out positions): {:.6} before, {:.6} after ({:.6} with the weights in use)",
        report.holdout_before, report.holdout_after, report.holdout_current
    ));
    for ((name, &old), &new) in names.iter().zip((eval.weights)()).zip(&report.weights) {
        if old != new {
            say(format_args!("  {name}: {old} -> {new}"));
        }
    }
    if let Some(out) = &args.out {
        let command = format!("`{}`", args.command());
        let origin = [
            "Evaluation weights fitted by Texel's method (generated; do not edit by hand).",
            "Regenerate from the self-play data (see README.md, \"Training the evaluations\"):",
            command.as_str(),
        ];
        let text = render_weights(&names, &report.weights, &origin);
        std::fs::write(out, text).map_err(|e| format!("tune: {}: {e}", out.display()))?;
        say(format_args!("wrote {}", out.display()));
    }
    Ok(())
}
