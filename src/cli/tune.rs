//! `quartet tune --game G --data FILES...`: fit a game's evaluation weights to self-play
//! data by Texel's method (see `quartet::learn::tune`) and write the generated weights file;
//! for a game whose evaluation declares a network (Ludo), or with `--network` for a game's
//! efficiently updatable network (R&B, Duell), train it instead (`super::tune_net`); its
//! command line is [`TuneArgs`].

use super::tune_args::TuneArgs;
use quartet_core::eval::Evaluate;
use quartet_core::eval::tunable::{TunableEval, render_weights};
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::GameVisitor;
use quartet_learn::data::DataFile;
use quartet_learn::texel::FitOptions;
use quartet_learn::tune::{TuneOptions, TuneReport, tune};
use quartet_protocol::output::say;

/// Texel's step size when `--learning-rate` is not given, in evaluation units.
const TEXEL_RATE: f64 = 1.0;

/// The command line that reproduces this fit (data files by their file names).
fn command(args: &TuneArgs) -> String {
    let names = args.data_names();
    let mut cmd = format!(
        "quartet tune --game {} --data {} --iterations {} --learning-rate {} --l2 {} \
         --lambda {} --score-cap {} --holdout-every {}",
        args.game.name(),
        names.join(" "),
        args.iterations,
        args.learning_rate.unwrap_or(TEXEL_RATE),
        args.l2,
        args.lambda,
        args.score_cap,
        args.holdout_every
    );
    if args.keep_noisy {
        cmd.push_str(" --keep-noisy");
    }
    if !args.freeze.is_empty() {
        cmd.push_str(&format!(" --freeze {}", args.freeze.join(" ")));
    }
    if let Some(out) = &args.out {
        cmd.push_str(&format!(" --out {}", out.display()));
    }
    cmd
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
        let command = format!("`{}`", command(args));
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
