//! `quartet tune` for a game whose evaluation declares a network (`Evaluate::NETWORK`; Ludo):
//! trains it (`quartet::learn::network`) on self-play data and the exact values of the
//! game's solved small versions, reports its losses against the evaluation in use, and
//! writes the weights file.

use super::tune::TuneArgs;
use crate::eval::Evaluate;
use crate::eval::network::NetworkTraining;
use crate::game::Player;
use crate::learn::data::DataFile;
use crate::learn::network::{
    Example, TrainOptions, exact_examples, initial_network, loss, mean_abs_error,
    selfplay_examples, train, weighted_loss,
};
use crate::notation::Notation;
use crate::output::say;

/// The step size when `--learning-rate` is not given.
const DEFAULT_RATE: f64 = 0.002;

/// The command line that reproduces this fit (data files by their file names).
fn command(args: &TuneArgs) -> String {
    let mut cmd = format!(
        "quartet tune --game {} --data {} --lambda {} --holdout-every {} --epochs {} --batch {} --learning-rate {} --seed {}",
        args.game.name(),
        args.data_names().join(" "),
        args.lambda,
        args.holdout_every,
        args.epochs,
        args.batch,
        args.learning_rate.unwrap_or(DEFAULT_RATE),
        args.seed
    );
    if !args.exact.is_empty() {
        let pieces: Vec<String> = args.exact.iter().map(u8::to_string).collect();
        cmd.push_str(&format!(
            " --exact {} --exact-weight {}",
            pieces.join(" "),
            args.exact_weight
        ));
    }
    if let Some(out) = &args.out {
        cmd.push_str(&format!(" --out {}", out.display()));
    }
    cmd
}

/// The held-out loss of the evaluation in use (`Evaluate::evaluate`) on `examples`, whose
/// positions are `positions` (in the same order).
fn in_use_loss<G: Evaluate>(
    net: &NetworkTraining<G>,
    positions: &[G],
    examples: &[Example],
) -> f64 {
    weighted_loss(positions.iter().zip(examples).map(|(pos, e)| {
        let first = f64::from((net.first_win_probability)(pos.evaluate()));
        let us = if pos.acting_player() == Some(Player::First) {
            first
        } else {
            1.0 - first
        };
        (us, e)
    }))
}

/// Runs `quartet tune` on the parsed data `files` of `G`, whose network is `net`.
pub fn run<G: Evaluate + Notation>(
    net: &NetworkTraining<G>,
    args: &TuneArgs,
    files: &[DataFile],
) -> Result<(), String> {
    let split = selfplay_examples(net, files, args.lambda as f32, args.holdout_every, 1.0)
        .map_err(|e| format!("tune: {e}"))?;
    say(format_args!(
        "self-play: {} chance nodes fitted, {} held out",
        split.train.len(),
        split.holdout.len()
    ));
    let mut examples = split.train;
    // The exact games' examples follow the self-play ones: their piece counts and ranges.
    let mut exact: Vec<(u8, std::ops::Range<usize>)> = Vec::new();
    for &pieces in &args.exact {
        let solve = net.exact.ok_or_else(|| {
            format!(
                "tune: {} has no exact solutions for --exact",
                G::DECLARATION.name
            )
        })?;
        let solution = solve(pieces).map_err(|e| format!("tune: --exact {pieces}: {e}"))?;
        let seconds = solution.seconds;
        let start = examples.len();
        examples.extend(exact_examples(solution, args.exact_weight as f32));
        say(format_args!(
            "exact {pieces}-piece game: {} chance nodes (solved in {seconds:.1} s)",
            examples.len() - start,
        ));
        exact.push((pieces, start..examples.len()));
    }
    if examples.is_empty() {
        return Err("tune: no examples".to_string());
    }
    say(format_args!(
        "held-out loss of the evaluation in use: {:.6}",
        in_use_loss(net, &split.holdout_positions, &split.holdout)
    ));
    let options = TrainOptions {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate.unwrap_or(DEFAULT_RATE) as f32,
        seed: args.seed,
    };
    let training = net;
    let mut net = initial_network(training.inputs, args.seed);
    train(&mut net, &examples, &options, |epoch, net| {
        let mut line = format!(
            "epoch {}: held-out loss {:.6}",
            epoch + 1,
            loss(net, &split.holdout)
        );
        for (pieces, range) in &exact {
            line.push_str(&format!(
                ", exact {pieces}-piece mean |error| {:.5}",
                mean_abs_error(net, &examples[range.clone()])
            ));
        }
        say(line);
    });
    if let Some(out) = &args.out {
        std::fs::write(out, net.to_bytes(training.magic))
            .map_err(|e| format!("tune: {}: {e}", out.display()))?;
        say(format_args!("wrote {}", out.display()));
    }
    say(format_args!("command: {}", command(args)));
    Ok(())
}
