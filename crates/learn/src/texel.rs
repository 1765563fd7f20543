//! Texel's tuning method: the static value `E` of each position, mapped to an expected
//! score by the logistic `σ(k·E)`, is fitted to the game's result by least squares
//! (`mean (r − σ(k·E))²`) over every weight. `k` is fitted first for the starting weights
//! and then held, so the weights keep the evaluation's scale.
//!
//! The evaluation is linear in its weights ([`quartet_core::eval::tunable`]), so each position
//! is stored as its sparse weight counts and the gradient is exact. The optimiser is Adam on
//! the full batch, a few lines here: no crate's optimiser would save code or time on a
//! problem this small and smooth.

use quartet_core::eval::tunable::Coefficients;

/// The positions of a fit: per position its weight counts, fixed part and target.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    weights: Vec<u32>,
    counts: Vec<f64>,
    rows: Vec<Row>,
}

#[derive(Clone, Copy, Debug)]
struct Row {
    start: usize,
    end: usize,
    offset: f64,
    target: f64,
}

impl Dataset {
    /// Adds a position with its coefficients and target score (in 0..=1).
    pub fn push(&mut self, coefficients: &Coefficients, target: f64) {
        let start = self.weights.len();
        for &(w, c) in &coefficients.counts {
            self.weights.push(w);
            self.counts.push(f64::from(c));
        }
        self.rows.push(Row {
            start,
            end: self.weights.len(),
            offset: f64::from(coefficients.offset),
            target,
        });
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The static value of position `i` with weights `w`.
    fn value(&self, row: &Row, w: &[f64]) -> f64 {
        let mut v = row.offset;
        for j in row.start..row.end {
            v += w[self.weights[j] as usize] * self.counts[j];
        }
        v
    }

    /// The mean squared error of `σ(k·E)` against the targets.
    pub fn loss(&self, w: &[f64], k: f64) -> f64 {
        if self.rows.is_empty() {
            return 0.0;
        }
        let total: f64 = self
            .rows
            .iter()
            .map(|r| {
                let e = r.target - sigmoid(k * self.value(r, w));
                e * e
            })
            .sum();
        total / self.rows.len() as f64
    }

    /// The `k` that minimises the loss for the weights `w` (golden-section search on
    /// `ln k`).
    pub fn fit_k(&self, w: &[f64]) -> f64 {
        let f = |lnk: f64| self.loss(w, lnk.exp());
        let (mut a, mut b) = ((1e-5f64).ln(), (1.0f64).ln());
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let mut c = b - phi * (b - a);
        let mut d = a + phi * (b - a);
        let (mut fc, mut fd) = (f(c), f(d));
        for _ in 0..80 {
            if fc < fd {
                b = d;
                d = c;
                fd = fc;
                c = b - phi * (b - a);
                fc = f(c);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + phi * (b - a);
                fd = f(d);
            }
        }
        ((a + b) / 2.0).exp()
    }

    /// The gradient of the loss at `w` (into `grad`).
    fn gradient(&self, w: &[f64], k: f64, grad: &mut [f64]) {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let n = self.rows.len().max(1) as f64;
        for r in &self.rows {
            let s = sigmoid(k * self.value(r, w));
            let factor = -2.0 * (r.target - s) * s * (1.0 - s) * k / n;
            for j in r.start..r.end {
                grad[self.weights[j] as usize] += factor * self.counts[j];
            }
        }
    }
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// How a fit runs.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Adam steps over the whole data.
    pub iterations: usize,
    /// Adam's step size, in evaluation units.
    pub learning_rate: f64,
    /// Ridge penalty per weight toward its starting value, `l2 · (w − w0)²` added to the
    /// loss (keeps rarely seen table entries near their start).
    pub l2: f64,
    /// Use this `k` instead of fitting it to the starting weights.
    pub k: Option<f64>,
    /// Weights held at their starting values.
    pub frozen: Vec<bool>,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iterations: 2000,
            learning_rate: 1.0,
            l2: 0.0,
            k: None,
            frozen: Vec::new(),
        }
    }
}

/// The outcome of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted weights.
    pub weights: Vec<f64>,
    /// The logistic scale used.
    pub k: f64,
    /// The loss at the starting weights.
    pub loss_before: f64,
    /// The loss at the fitted weights.
    pub loss_after: f64,
}

/// Fits the weights to `data` from `start` (see the module documentation).
pub fn fit(data: &Dataset, start: &[f64], options: &FitOptions) -> Fit {
    let k = options.k.unwrap_or_else(|| data.fit_k(start));
    let mut w = start.to_vec();
    let (mut m, mut v, mut grad) = (vec![0.0; w.len()], vec![0.0; w.len()], vec![0.0; w.len()]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-12);
    for t in 1..=options.iterations {
        data.gradient(&w, k, &mut grad);
        // The last fifth of the steps at a tenth of the rate, to settle.
        let rate = if t * 5 > options.iterations * 4 {
            options.learning_rate / 10.0
        } else {
            options.learning_rate
        };
        for i in 0..w.len() {
            if options.frozen.get(i).copied().unwrap_or(false) {
                continue;
            }
            let g = grad[i] + 2.0 * options.l2 * (w[i] - start[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let mh = m[i] / (1.0 - beta1.powi(t as i32));
            let vh = v[i] / (1.0 - beta2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
    }
    Fit {
        loss_before: data.loss(start, k),
        loss_after: data.loss(&w, k),
        weights: w,
        k,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A toy evaluation `E = w0·material + w1·tempo` and results drawn from the logistic
    /// of the true `E`: positions with material −3..=3 and tempo ±1.
    fn toy_data(true_w: [f64; 2], k: f64, n: usize, seed: u64) -> Dataset {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut data = Dataset::default();
        for _ in 0..n {
            let material = rng.random_range(-3..=3);
            let tempo = if rng.random_bool(0.5) { 1 } else { -1 };
            let e = true_w[0] * f64::from(material) + true_w[1] * f64::from(tempo);
            let result = if rng.random_bool(sigmoid(k * e)) {
                1.0
            } else {
                0.0
            };
            let mut c = Coefficients::default();
            use quartet_core::eval::tunable::Terms;
            c.add(0, material);
            c.add(1, tempo);
            data.push(&c.merged(), result);
        }
        data
    }

    #[test]
    fn a_known_weight_is_recovered_from_generated_data() {
        let k = 0.01;
        let data = toy_data([100.0, 30.0], k, 40_000, 1);
        let options = FitOptions {
            iterations: 1500,
            learning_rate: 2.0,
            k: Some(k),
            ..FitOptions::default()
        };
        let fit = fit(&data, &[50.0, 0.0], &options);
        assert!(fit.loss_after < fit.loss_before);
        // Sampling noise with 40 000 results: a few units (the tolerance is ~4 standard
        // errors of these weights).
        assert!((fit.weights[0] - 100.0).abs() < 6.0, "{:?}", fit.weights);
        assert!((fit.weights[1] - 30.0).abs() < 6.0, "{:?}", fit.weights);
    }

    #[test]
    fn with_k_fitted_the_ratio_of_the_weights_is_recovered() {
        // Held at 100, the material weight fixes the scale: k and the tempo are fitted.
        let data = toy_data([100.0, 30.0], 0.01, 40_000, 2);
        let options = FitOptions {
            iterations: 1500,
            learning_rate: 2.0,
            frozen: vec![true, false],
            ..FitOptions::default()
        };
        let fit = fit(&data, &[100.0, 0.0], &options);
        assert!((fit.k - 0.01).abs() < 0.001, "k {}", fit.k);
        assert_eq!(fit.weights[0], 100.0, "frozen");
        assert!((fit.weights[1] - 30.0).abs() < 6.0, "{:?}", fit.weights);
    }

    #[test]
    fn k_minimises_the_loss() {
        let data = toy_data([100.0, 30.0], 0.02, 10_000, 3);
        let w = [100.0, 30.0];
        let k = data.fit_k(&w);
        assert!(data.loss(&w, k) <= data.loss(&w, k * 1.1));
        assert!(data.loss(&w, k) <= data.loss(&w, k / 1.1));
        assert!((k - 0.02).abs() < 0.003, "{k}");
    }

    #[test]
    fn the_ridge_penalty_keeps_an_unseen_weight_at_its_start() {
        let data = toy_data([100.0, 30.0], 0.01, 2_000, 4);
        let options = FitOptions {
            iterations: 300,
            k: Some(0.01),
            l2: 1e-3,
            ..FitOptions::default()
        };
        // Weight 2 is in no position: only the penalty acts on it.
        let fit = fit(&data, &[100.0, 30.0, 17.0], &options);
        assert_eq!(fit.weights[2], 17.0);
        assert!(!data.is_empty() && data.len() == 2_000);
    }
}
