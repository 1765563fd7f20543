//! Training a game's network (the shape of [`quartet_core::eval::network`], declared by the game as
//! its `Evaluate::NETWORK`, Ludo's, or its `Evaluate::NNUE`, R&B's and Duell's): minibatch
//! Adam on the cross-entropy between the network's P(us wins) and a target probability, over
//! examples that are positions with their targets.
//!
//! The examples come from two sources:
//! - the exact solutions of small versions of the game ([`exact_examples`]; Ludo's 1- and
//!   2-piece games): every chance node with its exact value, so the network learns from
//!   perfect targets;
//! - self-play of the real game ([`selfplay_examples`]): the position after the searched
//!   move, with a blend of the game's result and the search's score as the target.
//!
//! The gradient is exact and a few lines (one hidden layer, of one or two perspectives), and
//! the first layer's update touches only the rows of the inputs a minibatch set, so no
//! training crate would save code; the whole fit is one thread and a seeded shuffle, so the
//! same data and options give the same weights bit for bit.

use super::data::DataFile;
/// The trainer's start, beside the network it starts.
pub use quartet_core::eval::network::initial_network;
use quartet_core::eval::network::{ExactNodes, HIDDEN, Network, NetworkTraining};
use quartet_core::game::{Action, Node, Player, RuleOptions};
use quartet_core::notation::Notation;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position's inputs with its target P(us wins) and its weight in the loss.
#[derive(Clone, Debug)]
pub struct Example {
    /// The network's set inputs (the side to act is "us").
    pub active: Vec<u16>,
    /// The inputs set from the other side's view, for a network of two perspectives; empty
    /// (and unused) for a network of one.
    pub others: Vec<u16>,
    /// The target probability that the side to roll wins.
    pub target: f32,
    /// The example's weight in the loss.
    pub weight: f32,
}

/// Every unfinished chance node of the solved `exact`, weighted `weight`.
pub fn exact_examples(exact: ExactNodes, weight: f32) -> Vec<Example> {
    exact
        .nodes
        .into_iter()
        .map(|(active, target)| Example {
            active,
            others: Vec::new(),
            target,
            weight,
        })
        .collect()
}

/// Self-play examples split into those fitted and those held out.
#[derive(Clone, Debug)]
pub struct SelfplaySplit<G> {
    /// Examples to fit: the target blends result and score.
    pub train: Vec<Example>,
    /// Examples of held-out games: the target is the game's result alone.
    pub holdout: Vec<Example>,
    /// The positions of `holdout`, in the same order.
    pub holdout_positions: Vec<G>,
}

/// The rules a data file of `G` was played with: the header's value of each rule option
/// the game declares (under its flag, as `quartet selfplay` writes it), its default where
/// the header has none.
fn rules_of<G: Notation>(file: &DataFile) -> Result<RuleOptions, String> {
    let mut rules = RuleOptions::default();
    for option in G::DECLARATION.rule_options {
        if let Some(text) = file.header.get(&option.flag()) {
            let value = option
                .parse_value(text)
                .map_err(|e| format!("in the header: {e}"))?;
            rules = rules.with(option, value)?;
        }
    }
    Ok(rules)
}

/// The examples of `G`'s self-play `files` (each played with the rule options its header
/// names), for the network `net` (of two perspectives when `others` gives the inputs seen
/// from the other side): at each recorded decision node, the position after the searched
/// move (Ludo: a chance node; skipped when that move ends the game or leaves nobody to
/// act); at a simultaneous node (Apocalypse), whose search score is the position's own
/// value (its matrix game's), the position itself, seen from the first player's view (whose
/// values they are). The target, for the side seen as "us", is `lambda * result + (1 -
/// lambda) * score` with the search's score as a probability; games whose index is a
/// multiple of `holdout_every` (0: none) are held out with their results alone as targets.
/// A fitted simultaneous node of a two-perspective network is fitted from the second
/// player's view too (the halves swapped, the target `1 - t`): the example its
/// colour-flipped position would give, so that both halves learn from every position.
pub fn selfplay_examples<G: Notation>(
    net: &NetworkTraining<G>,
    others: Option<fn(&G) -> Vec<u16>>,
    files: &[DataFile],
    lambda: f32,
    holdout_every: u64,
    weight: f32,
) -> Result<SelfplaySplit<G>, String> {
    let mut split = SelfplaySplit {
        train: Vec::new(),
        holdout: Vec::new(),
        holdout_positions: Vec::new(),
    };
    for (i, file) in files.iter().enumerate() {
        let rules = rules_of::<G>(file).map_err(|e| format!("file {}: {e}", i + 1))?;
        for s in &file.samples {
            let context = || format!("file {}: '{}'", i + 1, s.position);
            let mut pos = G::parse_position(&s.position, &rules)
                .map_err(|e| format!("{}: {e}", context()))?;
            let first_score = (net.first_win_probability)(s.score);
            let (acting, simultaneous) = match pos.parse_action(&s.best) {
                Ok(Action::Single(m)) => {
                    pos.play(m);
                    match (pos.acting_player(), is_terminal(&pos)) {
                        (Some(acting), false) => (acting, false),
                        _ => continue,
                    }
                }
                Ok(Action::Joint(..)) => (Player::First, true),
                Err(_) => return Err(format!("{}: move '{}' not legal", context(), s.best)),
            };
            let first_result = s.result.first_score() as f32;
            let (result, score) = if acting == Player::First {
                (first_result, first_score)
            } else {
                (1.0 - first_result, 1.0 - first_score)
            };
            let held = holdout_every > 0 && s.game % holdout_every == 0;
            let target = if held {
                result
            } else {
                lambda * result + (1.0 - lambda) * score
            };
            let example = Example {
                active: (net.features)(&pos),
                others: others.map_or_else(Vec::new, |f| f(&pos)),
                target,
                weight,
            };
            if held {
                split.holdout.push(example);
                split.holdout_positions.push(pos);
            } else {
                let mirrored = (simultaneous && others.is_some()).then(|| Example {
                    active: example.others.clone(),
                    others: example.active.clone(),
                    target: 1.0 - target,
                    weight,
                });
                split.train.push(example);
                split.train.extend(mirrored);
            }
        }
    }
    Ok(split)
}

/// Whether the game is over at `pos`.
fn is_terminal<G: Notation>(pos: &G) -> bool {
    matches!(pos.node(), Node::Terminal(_))
}

/// How a fit runs.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the examples.
    pub epochs: usize,
    /// Examples per Adam step.
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth over the epochs.
    pub learning_rate: f32,
    /// Seeds the initial weights and the shuffles.
    pub seed: u64,
}

/// The logistic function.
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of the prediction `p` against the target probability `t`, less the
/// target's own entropy (the Kullback–Leibler divergence): 0 exactly when `p == t`.
pub fn excess_cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-7, 1.0 - 1e-7);
    // t ln(t / p) + (1 - t) ln((1 - t) / (1 - p)), with 0 ln 0 = 0.
    let part = |t: f64, q: f64| if t > 0.0 { t * (t / q).ln() } else { 0.0 };
    part(t, p) + part(1.0 - t, 1.0 - p)
}

/// The weighted mean [`excess_cross_entropy`] of `net`'s predictions on `examples`.
pub fn loss(net: &Network, examples: &[Example]) -> f64 {
    weighted_loss(
        examples
            .iter()
            .map(|e| (f64::from(sigmoid(net.logit_of(&e.active, &e.others))), e)),
    )
}

/// The weighted mean [`excess_cross_entropy`] of each prediction against its example's
/// target, over `(prediction, example)` pairs.
pub fn weighted_loss<'a>(predicted: impl Iterator<Item = (f64, &'a Example)>) -> f64 {
    let (mut total, mut weight) = (0.0f64, 0.0f64);
    for (p, e) in predicted {
        let w = f64::from(e.weight);
        total += w * excess_cross_entropy(p, f64::from(e.target));
        weight += w;
    }
    if weight > 0.0 { total / weight } else { 0.0 }
}

/// The mean |P(us wins) - target| of `net` on `examples` (unweighted).
pub fn mean_abs_error(net: &Network, examples: &[Example]) -> f64 {
    if examples.is_empty() {
        return 0.0;
    }
    let total: f64 = examples
        .iter()
        .map(|e| f64::from((sigmoid(net.logit_of(&e.active, &e.others)) - e.target).abs()))
        .sum();
    total / examples.len() as f64
}

/// Adam's moments for one block of weights.
#[derive(Clone)]
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(len: usize) -> Moments {
        Moments {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// One Adam update of `w[i]` with gradient `g` at step size `rate` (bias-corrected).
    fn step(&mut self, i: usize, w: &mut f32, g: f32, rate: f32, corrections: (f32, f32)) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
        self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
        let m = self.m[i] / corrections.0;
        let v = self.v[i] / corrections.1;
        *w -= rate * m / (v.sqrt() + 1e-8);
    }
}

/// The gradient of one minibatch; the first layer's rows are kept with the list of rows the
/// minibatch touched.
struct Gradient {
    w1: Vec<[f32; HIDDEN]>,
    touched: Vec<u16>,
    marked: Vec<bool>,
    b1: [f32; HIDDEN],
    w2: [f32; HIDDEN],
    w2_other: [f32; HIDDEN],
    b2: f32,
}

impl Gradient {
    fn new(inputs: usize) -> Gradient {
        Gradient {
            w1: vec![[0.0; HIDDEN]; inputs],
            touched: Vec::new(),
            marked: vec![false; inputs],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            w2_other: [0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// Adds the gradient of `e`'s loss, scaled by `scale`.
    fn add(&mut self, net: &Network, e: &Example, scale: f32) {
        let h = net.hidden(&e.active);
        let other = match net.w2_other {
            Some(_) => net.hidden(&e.others),
            None => [0.0; HIDDEN],
        };
        let g = (sigmoid(net.output(&h, &other)) - e.target) * e.weight * scale;
        self.b2 += g;
        let mut dh = [0.0f32; HIDDEN];
        for j in 0..HIDDEN {
            if h[j] > 0.0 {
                self.w2[j] += g * net.activation.apply(h[j]);
            }
            if net.activation.passes(h[j]) {
                dh[j] = g * net.w2[j];
            }
        }
        for (b, d) in self.b1.iter_mut().zip(&dh) {
            *b += d;
        }
        self.add_rows(&e.active, &dh);
        if let Some(w2) = &net.w2_other {
            let mut dh = [0.0f32; HIDDEN];
            for j in 0..HIDDEN {
                if other[j] > 0.0 {
                    self.w2_other[j] += g * net.activation.apply(other[j]);
                }
                if net.activation.passes(other[j]) {
                    dh[j] = g * w2[j];
                }
            }
            for (b, d) in self.b1.iter_mut().zip(&dh) {
                *b += d;
            }
            self.add_rows(&e.others, &dh);
        }
    }

    /// Adds `dh` to the first layer's rows of the inputs `active`, marking them touched.
    fn add_rows(&mut self, active: &[u16], dh: &[f32; HIDDEN]) {
        for &i in active {
            let i = usize::from(i);
            if !self.marked[i] {
                self.marked[i] = true;
                self.touched.push(i as u16);
            }
            for (w, d) in self.w1[i].iter_mut().zip(dh) {
                *w += d;
            }
        }
    }

    fn clear(&mut self) {
        for &i in &self.touched {
            self.w1[usize::from(i)] = [0.0; HIDDEN];
            self.marked[usize::from(i)] = false;
        }
        self.touched.clear();
        self.b1 = [0.0; HIDDEN];
        self.w2 = [0.0; HIDDEN];
        self.w2_other = [0.0; HIDDEN];
        self.b2 = 0.0;
    }
}

/// Fits `net` to `examples` (see [`TrainOptions`]); calls `epoch_done(epoch, net)` after each
/// pass, e.g. to report losses.
pub fn train(
    net: &mut Network,
    examples: &[Example],
    options: &TrainOptions,
    mut epoch_done: impl FnMut(usize, &Network),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(options.seed ^ 0x5eed);
    let mut order: Vec<u32> = (0..examples.len() as u32).collect();
    let mut w1_moments = Moments::new(net.inputs() * HIDDEN);
    let mut b1_moments = Moments::new(HIDDEN);
    let mut w2_moments = Moments::new(HIDDEN);
    let mut w2_other_moments = Moments::new(HIDDEN);
    let mut b2_moments = Moments::new(1);
    let mut gradient = Gradient::new(net.inputs());
    let batch = options.batch.max(1);
    let steps_total = (options.epochs * examples.len().div_ceil(batch)).max(1);
    let mut step = 0usize;
    for epoch in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        for chunk in order.chunks(batch) {
            let scale = 1.0 / chunk.len() as f32;
            for &k in chunk {
                gradient.add(net, &examples[k as usize], scale);
            }
            step += 1;
            let progress = step as f32 / steps_total as f32;
            let rate = options.learning_rate * (1.0 - 0.9 * progress);
            let corrections = (
                1.0 - 0.9f32.powi(step.min(10_000) as i32),
                1.0 - 0.999f32.powi(step.min(100_000) as i32),
            );
            for &i in &gradient.touched {
                let i = usize::from(i);
                for j in 0..HIDDEN {
                    let g = gradient.w1[i][j];
                    w1_moments.step(i * HIDDEN + j, &mut net.w1[i][j], g, rate, corrections);
                }
            }
            for j in 0..HIDDEN {
                b1_moments.step(j, &mut net.b1[j], gradient.b1[j], rate, corrections);
                w2_moments.step(j, &mut net.w2[j], gradient.w2[j], rate, corrections);
            }
            if let Some(w2) = &mut net.w2_other {
                for (j, w) in w2.iter_mut().enumerate() {
                    let g = gradient.w2_other[j];
                    w2_other_moments.step(j, w, g, rate, corrections);
                }
            }
            b2_moments.step(0, &mut net.b2, gradient.b2, rate, corrections);
            gradient.clear();
        }
        epoch_done(epoch, net);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inputs of the examples below: 0..40 one-hot, and input 21 for a "piece at 20".
    const INPUTS: usize = 64;

    #[test]
    fn a_known_weight_is_recovered_from_generated_data() {
        // Targets generated by a network whose only nonzero weights make P(us wins) the
        // logistic of 1.5 per count of input 21 (through one unit), so a fit from random
        // weights must find that logit again.
        let mut truth = Network::zeroed(INPUTS);
        truth.w1[21][0] = 1.0;
        truth.w2[0] = 1.5;
        let mut examples = Vec::new();
        for ours in 0..=2usize {
            for others in [30u16, 35, 60] {
                let mut active = vec![0; 2 - ours];
                active.extend(std::iter::repeat_n(21, ours));
                active.push(others);
                let target = sigmoid(truth.logit(&active));
                examples.push(Example {
                    active,
                    others: Vec::new(),
                    target,
                    weight: 1.0,
                });
            }
        }
        let mut net = initial_network(Network::zeroed(INPUTS), 3);
        let options = TrainOptions {
            epochs: 3000,
            batch: 4,
            learning_rate: 0.01,
            seed: 1,
        };
        train(&mut net, &examples, &options, |_, _| {});
        assert!(loss(&net, &examples) < 1e-5, "{}", loss(&net, &examples));
        // The logit of input 21 twice against input 35 is 3.0.
        let two = [21, 21, 35];
        assert!((net.logit(&two) - 3.0).abs() < 0.05, "{}", net.logit(&two));
    }

    #[test]
    fn the_same_seed_gives_the_same_weights() {
        let examples: Vec<Example> = (0..40u16)
            .map(|v| Example {
                active: vec![v, 63 - v],
                others: Vec::new(),
                target: f32::from(v) / 40.0,
                weight: 1.0,
            })
            .collect();
        let options = TrainOptions {
            epochs: 3,
            batch: 8,
            learning_rate: 0.01,
            seed: 9,
        };
        let fit = || {
            let mut net = initial_network(Network::zeroed(INPUTS), options.seed);
            train(&mut net, &examples, &options, |_, _| {});
            net
        };
        assert_eq!(fit(), fit());
    }

    #[test]
    fn the_loss_is_zero_exactly_at_the_targets() {
        let net = Network::zeroed(INPUTS);
        let at_half = [Example {
            active: vec![3, 4],
            others: Vec::new(),
            target: 0.5,
            weight: 2.0,
        }];
        assert!(loss(&net, &at_half).abs() < 1e-12);
        let off = [Example {
            target: 1.0,
            ..at_half[0].clone()
        }];
        // KL(1 || 1/2) = ln 2.
        assert!((loss(&net, &off) - std::f64::consts::LN_2).abs() < 1e-9);
    }
}
