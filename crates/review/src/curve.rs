//! From an engine's score to the first player's expected score (0..1): the
//! winning-chance curve, as lichess keeps one for Stockfish's centipawns. Each game's
//! scores have their own unit (protocol.md §6), so each game declares its curve and the
//! engine tells it (`query winchance`: `probability <full>` or `logistic <k>`); the
//! review names no game. An engine that does not answer gets lichess's chess curve.
//!
//! A `mate` score is a certain result: 1 for a win, 0 for a loss.

use super::uci::Score;

/// lichess's constant of the winning-chance curve for Stockfish's centipawns (scalachess,
/// `WinPercent.winningChances`: `2 / (1 + exp(-0.00368208 * cp)) - 1`): the curve of an
/// engine that does not answer `query winchance`.
pub const LICHESS_K: f64 = 0.003_682_08;

/// How one game's `score cp` reads as an expected score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Curve {
    /// A probability: `P = (1 + cp / full) / 2`, clamped to 0..1; `cp = ±full` is certain.
    Linear {
        /// The score of a certain win.
        full: f64,
    },
    /// lichess's curve: `P = 1 / (1 + exp(-k * cp))`.
    Logistic {
        /// Per unit of `cp`.
        k: f64,
    },
}

impl Curve {
    /// The curve `query winchance` answered (`probability 10000`, `logistic 0.0074`);
    /// `None` for any other answer.
    pub fn from_answer(answer: &str) -> Option<Curve> {
        let mut words = answer.split_whitespace();
        let curve = match (words.next()?, words.next()?.parse::<f64>().ok()?) {
            ("probability", full) if full > 0.0 => Curve::Linear { full },
            ("logistic", k) if k > 0.0 && k.is_finite() => Curve::Logistic { k },
            _ => return None,
        };
        words.next().is_none().then_some(curve)
    }

    /// The expected score of the player the score is from (0..1), and whether it is a
    /// certain result (a `mate` score, or a probability of exactly 0 or 1).
    pub fn expected(self, score: Score) -> (f64, bool) {
        match (self, score) {
            (_, Score::Mate(n)) => (if n > 0 { 1.0 } else { 0.0 }, true),
            (Curve::Linear { full }, Score::Cp(cp)) => {
                let p = ((1.0 + cp as f64 / full) / 2.0).clamp(0.0, 1.0);
                (p, p == 0.0 || p == 1.0)
            }
            (Curve::Logistic { k }, Score::Cp(cp)) => (logistic(k * cp as f64), false),
        }
    }
}

/// `1 / (1 + exp(-x))`.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The fit of [`fit_logistic`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The fitted constant per unit of score.
    pub k: f64,
    /// The mean cross-entropy of the results at `k` (nats a position).
    pub loss: f64,
    /// The samples used.
    pub samples: usize,
}

/// The mean cross-entropy of results `y` (1, 0.5 or 0) given `P = logistic(k * score)`.
pub fn cross_entropy(samples: &[(f64, f64)], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|&(s, y)| {
            // ln P and ln(1 - P) without overflow: -softplus(-x) and -softplus(x).
            let x = k * s;
            let softplus = |t: f64| t.max(0.0) + (-t.abs()).exp().ln_1p();
            y * softplus(-x) + (1.0 - y) * softplus(x)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// Fits `k` of `P(first player scores) = logistic(k * score)` to `(score, result)` pairs
/// (the score from the first player's view, the result 1, 0.5 or 0) by maximum
/// likelihood (Newton's method on the convex cross-entropy, from lichess's constant).
/// `None` without a sample that has a non-zero score.
pub fn fit_logistic(samples: &[(f64, f64)]) -> Option<Fit> {
    if !samples.iter().any(|&(s, _)| s != 0.0) {
        return None;
    }
    let mut k = LICHESS_K;
    for _ in 0..100 {
        let (mut gradient, mut curvature) = (0.0, 0.0);
        for &(s, y) in samples {
            let p = logistic(k * s);
            gradient += (p - y) * s;
            curvature += p * (1.0 - p) * s * s;
        }
        if curvature <= 0.0 {
            break;
        }
        let step = gradient / curvature;
        // Newton's step, kept from overshooting far from the optimum.
        let step = step.clamp(-k.abs().max(1e-6), k.abs().max(1e-6));
        k -= step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    Some(Fit {
        k,
        loss: cross_entropy(samples, k),
        samples: samples.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_scale_reads_as_its_documentation_says() {
        let ludo = Curve::from_answer("probability 10000").expect("an answer");
        // cp = (2p - 1) * 10000: 2000 is p = 0.6, -10000 a certain loss.
        assert_eq!(ludo.expected(Score::Cp(2000)), (0.6, false));
        assert_eq!(ludo.expected(Score::Cp(-10_000)), (0.0, true));
        assert_eq!(ludo.expected(Score::Cp(10_000)), (1.0, true));
        // A logistic of cp / 110: 110 is one logit, e / (1 + e).
        let apocalypse = Curve::from_answer("logistic 0.00909090909090909").expect("an answer");
        let (p, certain) = apocalypse.expected(Score::Cp(110));
        assert!((p - std::f64::consts::E / (1.0 + std::f64::consts::E)).abs() < 1e-15);
        assert!(!certain);
        assert_eq!(apocalypse.expected(Score::Cp(9_990)).0, 1.0);
        // lichess: winningChances(cp) = 2P - 1; at cp 100 it is 0.18296 (0.003682 * 100
        // halved is 0.1841 through tanh).
        let (p, _) = Curve::Logistic { k: LICHESS_K }.expected(Score::Cp(100));
        assert!((2.0 * p - 1.0 - (0.184_104_f64).tanh()).abs() < 1e-6);
        // A mate is certain on every curve.
        for curve in [ludo, apocalypse] {
            assert_eq!(curve.expected(Score::Mate(3)), (1.0, true));
            assert_eq!(curve.expected(Score::Mate(-1)), (0.0, true));
        }
    }

    #[test]
    fn answers_that_are_not_a_curve_are_refused() {
        for answer in [
            "",
            "logistic",
            "logistic -1",
            "logistic inf",
            "logistic 0.01 more",
            "probability 0",
            "normal 3",
        ] {
            assert_eq!(Curve::from_answer(answer), None, "{answer:?}");
        }
    }

    #[test]
    fn the_fit_recovers_the_constant_results_were_drawn_with() {
        // Results drawn from logistic(0.005 * s) by a fixed sequence: the fit finds 0.005.
        let mut state = 12345u64;
        let mut uniform = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let samples: Vec<(f64, f64)> = (0..40_000)
            .map(|i| {
                let s = f64::from(i % 801) - 400.0;
                let y = if uniform() < logistic(0.005 * s) {
                    1.0
                } else {
                    0.0
                };
                (s, y)
            })
            .collect();
        let fit = fit_logistic(&samples).expect("a fit");
        assert!((fit.k - 0.005).abs() < 0.0003, "{fit:?}");
        // It is the minimum: a step either way costs.
        assert!(cross_entropy(&samples, fit.k * 1.05) > fit.loss);
        assert!(cross_entropy(&samples, fit.k * 0.95) > fit.loss);
        assert_eq!(fit_logistic(&[(0.0, 1.0)]), None);
        // Draws count a half: all draws give k = 0 (any score says 50 %).
        let draws: Vec<(f64, f64)> = (1..100).map(|s| (f64::from(s), 0.5)).collect();
        assert!(fit_logistic(&draws).expect("a fit").k.abs() < 1e-9);
    }
}
