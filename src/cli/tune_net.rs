//! `quartet tune` for a game whose evaluation declares a network (`Evaluate::NETWORK`, Ludo;
//! or, with `--network`, `Evaluate::NNUE`, R&B and Duell): trains it
//! (`quartet::learn::network`) on self-play data and the exact values of the game's solved
//! small versions, reports its losses against the evaluation in use, and writes the weights
//! file (an efficiently updatable network's in integers, with the command in its header).

use super::tune_args::TuneArgs;
use quartet_core::eval::Evaluate;
use quartet_core::eval::network::{HIDDEN, Network, NetworkTraining};
use quartet_core::eval::nnue::{Accumulator, Choice, NnueSpec, QA, QB, Quantized};
use quartet_core::game::Player;
use quartet_core::notation::Notation;
use quartet_learn::data::DataFile;
use quartet_learn::network::{
    Example, TrainOptions, exact_examples, initial_network, loss, mean_abs_error,
    selfplay_examples, train, weighted_loss,
};
use quartet_protocol::output::say;

/// The step size when `--learning-rate` is not given.
const DEFAULT_RATE: f64 = 0.002;

/// The command line that reproduces this fit (data files by their file names).
fn command(args: &TuneArgs) -> String {
    let mut cmd = format!(
        "quartet tune --game {} --data {} --lambda {} --holdout-every {} --epochs {} --batch {} \
         --learning-rate {} --seed {}",
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
    if args.network {
        cmd.push_str(" --network");
    }
    if let Some(out) = &args.out {
        cmd.push_str(&format!(" --out {}", out.display()));
    }
    cmd
}

/// The held-out loss of the integer network `q` on `examples` (its inference as the engine
/// runs it).
fn quantized_loss(q: &Quantized, examples: &[Example]) -> f64 {
    weighted_loss(examples.iter().map(|e| {
        let mut acc = Accumulator {
            halves: [[0; HIDDEN]; 2],
        };
        q.refresh(&mut acc.halves[0], e.active.iter().copied());
        q.refresh(&mut acc.halves[1], e.others.iter().copied());
        let logit = f64::from(q.output(&acc.halves[0], &acc.halves[1])) / f64::from(QA * QB);
        (1.0 / (1.0 + (-logit).exp()), e)
    }))
}

/// The held-out loss of the evaluation in use (`Evaluate::evaluate`) on `examples`, whose
/// positions are `positions` (in the same order), each seen from its acting player's view
/// (the first player's at a node without one, as its examples are).
fn in_use_loss<G: Evaluate>(
    net: &NetworkTraining<G>,
    positions: &[G],
    examples: &[Example],
) -> f64 {
    weighted_loss(positions.iter().zip(examples).map(|(pos, e)| {
        let first = f64::from((net.first_win_probability)(pos.evaluate()));
        let us = if pos.acting_player() == Some(Player::Second) {
            1.0 - first
        } else {
            first
        };
        (us, e)
    }))
}

/// The held-out loss of `G`'s evaluation under `choice` (the integer network `q` as the
/// engine evaluates with it under [`Choice::Network`]: its scores, and at a node without a
/// side to move both sides' views, `quartet_core::eval::nnue::value`), on `examples` of
/// `positions`; the process's choice of evaluation and weights is restored afterwards.
fn loss_under<G: Evaluate>(
    spec: &NnueSpec<G>,
    choice: Choice,
    q: Option<&Quantized>,
    positions: &[G],
    examples: &[Example],
) -> f64 {
    let (was, loaded) = (spec.in_use.choice(), spec.in_use.loaded());
    if let Some(q) = q {
        spec.in_use.load(Some(q.clone()));
    }
    spec.in_use.choose(choice);
    let loss = in_use_loss(&spec.training, positions, examples);
    spec.in_use.choose(was);
    if q.is_some() {
        spec.in_use.load(loaded.map(|weights| (*weights).clone()));
    }
    loss
}

/// Runs `quartet tune` on the parsed data `files` of `G`, whose network is `net` (of two
/// perspectives and written in integers when it is `nnue`'s).
pub fn run<G: Evaluate + Notation>(
    net: &NetworkTraining<G>,
    nnue: Option<&NnueSpec<G>>,
    args: &TuneArgs,
    files: &[DataFile],
) -> Result<(), String> {
    let others = nnue.map(|n| n.other_features);
    let split = selfplay_examples(
        net,
        others,
        files,
        args.lambda as f32,
        args.holdout_every,
        1.0,
    )
    .map_err(|e| format!("tune: {e}"))?;
    say(format_args!(
        "self-play: {} examples fitted (a simultaneous node from both sides' views), {} held \
         out",
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
    let (positions, holdout) = (&split.holdout_positions, &split.holdout);
    match nnue {
        Some(spec) => say(format_args!(
            "held-out loss of the classical evaluation: {:.6}",
            loss_under(spec, Choice::Classical, None, positions, holdout)
        )),
        None => say(format_args!(
            "held-out loss of the evaluation in use: {:.6}",
            in_use_loss(net, positions, holdout)
        )),
    }
    let options = TrainOptions {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate.unwrap_or(DEFAULT_RATE) as f32,
        seed: args.seed,
    };
    let training = net;
    let shape = match nnue {
        Some(_) => Network::zeroed_two_sided(training.inputs),
        None => Network::zeroed(training.inputs),
    };
    let mut net = initial_network(shape, args.seed);
    say(format_args!(
        "held-out loss before training: {:.6} (fitted {:.6})",
        loss(&net, &split.holdout),
        loss(&net, &examples)
    ));
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
    say(format_args!(
        "held-out loss after training: {:.6} (fitted {:.6})",
        loss(&net, &split.holdout),
        loss(&net, &examples)
    ));
    let bytes = match nnue {
        Some(spec) => {
            let q = Quantized::from_float(&net, &command(args), spec.max_active)
                .map_err(|e| format!("tune: the trained network: {e}"))?;
            say(format_args!(
                "held-out loss in integers: {:.6}",
                quantized_loss(&q, &split.holdout)
            ));
            let (positions, holdout) = (&split.holdout_positions, &split.holdout);
            say(format_args!(
                "held-out loss of the network as the engine evaluates: {:.6}",
                loss_under(spec, Choice::Network, Some(&q), positions, holdout)
            ));
            q.to_bytes(training.magic)
        }
        None => net.to_bytes(training.magic),
    };
    if let Some(out) = &args.out {
        std::fs::write(out, bytes).map_err(|e| format!("tune: {}: {e}", out.display()))?;
        say(format_args!("wrote {}", out.display()));
    }
    say(format_args!("command: {}", command(args)));
    Ok(())
}
