//! `quartet tune`: reads self-play data of one game, keeps the quiet positions, fits the
//! game's evaluation weights by Texel's method ([`super::texel`]) and reports the loss
//! before and after, on the fitted games and on held-out ones.

use super::data::{DataFile, Sample};
use super::texel::{self, Dataset, FitOptions, sigmoid};
use quartet_core::eval::Evaluate;
use quartet_core::eval::tunable::{Coefficients, TunableEval};
use quartet_core::game::{Action, Node, RuleOptions};
use quartet_core::notation::Notation;

/// Which positions a fit uses and how it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// Positions whose search score is this large or larger (either sign) are left out:
    /// decided games teach the evaluation little.
    pub score_cap: i32,
    /// Keep positions whose chosen move was noisy too (for games whose search has no
    /// quiescence at the horizon, such as Apocalypse's simultaneous nodes).
    pub keep_noisy: bool,
    /// The target is `lambda · result + (1 − lambda) · σ(k · score)`.
    pub lambda: f64,
    /// Every game whose index is a multiple of this is held out for validation, judged by
    /// its results alone (0: none).
    pub holdout_every: u64,
    /// The optimiser's settings.
    pub fit: FitOptions,
}

/// A fit's outcome with its report figures.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneReport {
    /// Positions read, and those kept for fitting and for validation.
    pub read: usize,
    /// Positions fitted.
    pub fitted: usize,
    /// Positions held out.
    pub held_out: usize,
    /// The fit (its losses are on the fitted positions).
    pub fit: texel::Fit,
    /// The fitted weights, rounded.
    pub weights: Vec<i32>,
    /// The loss of the rounded weights on the fitted positions.
    pub loss_rounded: f64,
    /// The held-out loss at the start weights and at the fitted ones (rounded).
    pub holdout_before: f64,
    /// See `holdout_before`.
    pub holdout_after: f64,
    /// The held-out loss of the weights in use now (the last fit's).
    pub holdout_current: f64,
}

/// A kept position: its game, its evaluation's coefficients, the game's result (the first
/// player's score) and the search score.
struct Row {
    game: u64,
    coefficients: Coefficients,
    result: f64,
    score: i32,
}

/// Whether the move the search chose in `pos` is noisy (the position is then not quiet).
fn chose_noisy<G: Evaluate + Notation>(pos: &G, best: &str) -> Option<bool> {
    match pos.parse_action(best).ok()? {
        Action::Single(m) => Some(pos.is_noisy(m)),
        Action::Joint(a, b) => Some(pos.is_noisy(a) || pos.is_noisy(b)),
    }
}

/// The number of positions in `files` and the quiet, undecided ones. Fails on a position string or
/// move the game does not read.
fn load<G: Evaluate + Notation>(
    eval: &TunableEval<G>,
    files: &[DataFile],
    rules: &RuleOptions,
    options: &TuneOptions,
) -> Result<(usize, Vec<Row>), String> {
    let mut read = 0;
    let mut out = Vec::new();
    for (i, file) in files.iter().enumerate() {
        for s in &file.samples {
            read += 1;
            let Sample {
                position,
                result,
                score,
                game,
                best,
                ..
            } = s;
            let pos = G::parse_position(position, rules)
                .map_err(|e| format!("file {}: '{position}': {e}", i + 1))?;
            if !matches!(pos.node(), Node::Turn(_) | Node::Simultaneous)
                || score.abs() >= options.score_cap
            {
                continue;
            }
            match chose_noisy(&pos, best) {
                Some(false) => {}
                Some(true) if options.keep_noisy => {}
                Some(true) => continue,
                None => {
                    return Err(format!(
                        "file {}: '{position}': move '{best}' not legal",
                        i + 1
                    ));
                }
            }
            let mut c = Coefficients::default();
            (eval.record)(&pos, &mut c);
            out.push(Row {
                game: *game,
                coefficients: c.merged(),
                result: result.first_score(),
                score: *score,
            });
        }
    }
    Ok((read, out))
}

/// Fits the weights of `G`'s tunable evaluation `eval` to the data files (see the module
/// documentation).
pub fn tune<G: Evaluate + Notation>(
    eval: &TunableEval<G>,
    files: &[DataFile],
    rules: &RuleOptions,
    options: &TuneOptions,
) -> Result<TuneReport, String> {
    let (read, rows) = load(eval, files, rules, options)?;
    let start: Vec<f64> = (eval.start_weights)()
        .iter()
        .map(|&w| f64::from(w))
        .collect();
    // k of the starting weights on results alone, for the score part of the target.
    let mut plain = Dataset::default();
    for row in &rows {
        plain.push(&row.coefficients, row.result);
    }
    if plain.is_empty() {
        return Err("no quiet, undecided positions in the data".to_string());
    }
    let k0 = options.fit.k.unwrap_or_else(|| plain.fit_k(&start));
    let (mut train, mut holdout) = (Dataset::default(), Dataset::default());
    for row in &rows {
        let (c, r) = (&row.coefficients, &row.result);
        let target =
            options.lambda * r + (1.0 - options.lambda) * sigmoid(k0 * f64::from(row.score));
        if options.holdout_every > 0 && row.game % options.holdout_every == 0 {
            // Held-out positions are judged by the results alone, whatever the blend, so
            // that fits with different `lambda` compare.
            holdout.push(c, *r);
        } else {
            train.push(c, target);
        }
    }
    let fit_options = FitOptions {
        k: Some(k0),
        ..options.fit.clone()
    };
    let fit = texel::fit(&train, &start, &fit_options);
    let current: Vec<f64> = (eval.weights)().iter().map(|&w| f64::from(w)).collect();
    let weights: Vec<i32> = fit.weights.iter().map(|w| w.round() as i32).collect();
    let rounded: Vec<f64> = weights.iter().map(|&w| f64::from(w)).collect();
    Ok(TuneReport {
        read,
        fitted: train.len(),
        held_out: holdout.len(),
        loss_rounded: train.loss(&rounded, fit.k),
        holdout_before: holdout.loss(&start, fit.k),
        holdout_after: holdout.loss(&rounded, fit.k),
        holdout_current: holdout.loss(&current, fit.k),
        fit,
        weights,
    })
}
