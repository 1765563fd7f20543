//! One Elo per engine from every game of a tournament: the maximum-likelihood fit of the
//! logistic (Bradley–Terry) model, a draw counting as half a win and half a loss, as Ordo
//! does. Engine `i` scores `s` of `n` games against `j` with likelihood
//! `p^s (1 − p)^(n − s)`, `p = 1 / (1 + 10^((r_j − r_i) / 400))`; the ratings maximise the
//! product over all pairings, with mean 0.
//!
//! The fit is Newton's method on the log-likelihood (concave), each step the solution of
//! the information matrix `I` (a weighted graph Laplacian, singular along the all-ones
//! vector) made regular by adding `11ᵀ/n`, which leaves steps of sum 0 unchanged. The 95 %
//! interval of each rating is `1.96 √(I⁺)ᵢᵢ`, the asymptotic covariance `I⁺ = (I +
//! 11ᵀ/n)⁻¹ − 11ᵀ/n` of ratings of mean 0.
//!
//! A maximum exists only when the results graph (an edge `i → j` where `i` scored against
//! `j`) is strongly connected: an engine that won every game has no finite maximum. Then,
//! as BayesElo's prior does, every pairing with games gets one virtual draw, and the
//! result says so.

/// The two-sided 95 % quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The results of one pairing: games and points of `a` against `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairingScore {
    /// The first engine.
    pub a: usize,
    /// The second engine.
    pub b: usize,
    /// Games played.
    pub games: f64,
    /// `a`'s points (a win 1, a draw ½).
    pub points: f64,
}

/// The fitted ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct EloFit {
    /// Each engine's Elo, mean 0.
    pub elo: Vec<f64>,
    /// Half the width of each rating's 95 % interval.
    pub error: Vec<f64>,
    /// Whether one virtual draw per pairing was added (a perfect score somewhere).
    pub prior: bool,
}

/// Fits `engines` ratings to `results`; `None` when some engine has no games or the
/// engines fall into groups that never met.
pub fn fit(engines: usize, results: &[PairingScore]) -> Option<EloFit> {
    let played: Vec<&PairingScore> = results.iter().filter(|r| r.games > 0.0).collect();
    if engines < 2 || !connected(engines, &played) {
        return None;
    }
    let prior = !strongly_connected(engines, &played);
    let data: Vec<PairingScore> = played
        .iter()
        .map(|r| {
            let mut r = **r;
            if prior {
                r.games += 1.0;
                r.points += 0.5;
            }
            r
        })
        .collect();
    let mut elo = vec![0.0; engines];
    for _ in 0..100 {
        let (gradient, information) = derivatives(engines, &data, &elo);
        let step = solve(&regular(&information), &gradient)?;
        // Steps of more than 400 Elo are cut, so an early step cannot overshoot.
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        let scale = if largest > 400.0 {
            400.0 / largest
        } else {
            1.0
        };
        for (r, s) in elo.iter_mut().zip(&step) {
            *r += scale * s;
        }
        if largest < 1e-9 {
            break;
        }
    }
    let (_, information) = derivatives(engines, &data, &elo);
    let covariance = invert(&regular(&information))?;
    let n = engines as f64;
    let error = (0..engines)
        .map(|i| Z95 * (covariance[i][i] - 1.0 / n).max(0.0).sqrt())
        .collect();
    Some(EloFit { elo, error, prior })
}

/// `ln 10 / 400`: the slope of the logistic in Elo.
const SLOPE: f64 = std::f64::consts::LN_10 / 400.0;

/// The gradient of the log-likelihood and the information matrix (its negated Hessian).
fn derivatives(engines: usize, data: &[PairingScore], elo: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut gradient = vec![0.0; engines];
    let mut info = vec![vec![0.0; engines]; engines];
    for r in data {
        let p = 1.0 / (1.0 + (-SLOPE * (elo[r.a] - elo[r.b])).exp());
        let g = SLOPE * (r.points - r.games * p);
        gradient[r.a] += g;
        gradient[r.b] -= g;
        let w = SLOPE * SLOPE * r.games * p * (1.0 - p);
        info[r.a][r.a] += w;
        info[r.b][r.b] += w;
        info[r.a][r.b] -= w;
        info[r.b][r.a] -= w;
    }
    (gradient, info)
}

/// `m + 11ᵀ/n`.
fn regular(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = m.len() as f64;
    m.iter()
        .map(|row| row.iter().map(|x| x + 1.0 / n).collect())
        .collect()
}

/// The inverse of `m` by Gauss–Jordan elimination with partial pivoting; `None` when `m`
/// is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        let d = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= d);
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    let pivot_row = a[col].clone();
                    a[row]
                        .iter_mut()
                        .zip(&pivot_row)
                        .for_each(|(x, p)| *x -= f * p);
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// `m⁻¹ v`.
fn solve(m: &[Vec<f64>], v: &[f64]) -> Option<Vec<f64>> {
    let inv = invert(m)?;
    Some(
        inv.iter()
            .map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum())
            .collect(),
    )
}

/// Whether every engine can be reached from engine 0 along pairings with games.
fn connected(engines: usize, played: &[&PairingScore]) -> bool {
    reach(engines, 0, |i, j| {
        played
            .iter()
            .any(|r| (r.a == i && r.b == j) || (r.a == j && r.b == i))
    })
    .iter()
    .all(|&r| r)
}

/// Whether every engine reaches every other along "scored against" edges.
fn strongly_connected(engines: usize, played: &[&PairingScore]) -> bool {
    let scored = |i: usize, j: usize| {
        played.iter().any(|r| {
            (r.a == i && r.b == j && r.points > 0.0) || (r.b == i && r.a == j && r.points < r.games)
        })
    };
    let forward = reach(engines, 0, scored);
    let backward = reach(engines, 0, |i, j| scored(j, i));
    forward.iter().chain(&backward).all(|&r| r)
}

/// The engines reachable from `from` along `edge`.
fn reach(engines: usize, from: usize, edge: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut seen = vec![false; engines];
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(i) = stack.pop() {
        for (j, seen) in seen.iter_mut().enumerate() {
            if !*seen && edge(i, j) {
                *seen = true;
                stack.push(j);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(a: usize, b: usize, games: f64, points: f64) -> PairingScore {
        PairingScore {
            a,
            b,
            games,
            points,
        }
    }

    #[test]
    fn two_engines_get_the_elo_of_their_score() {
        // 75 % over 100 games: the maximum of p^75 (1-p)^25 is p = 0.75, a difference of
        // 400 log10(3) = 190.85, shared ±95.42 around the mean.
        let f = fit(2, &[score(0, 1, 100.0, 75.0)]).unwrap();
        assert!((f.elo[0] - 95.424).abs() < 1e-3, "{:?}", f.elo);
        assert!((f.elo[0] + f.elo[1]).abs() < 1e-9);
        // The difference's variance is 1 / (n p (1-p) c^2): sd = 1/(c sqrt(18.75)) =
        // 400 / (ln 10 · 4.3301) = 40.117; each rating carries half: 1.96 · 20.06 = 39.31.
        assert!((f.error[0] - 39.31).abs() < 0.01, "{:?}", f.error);
        assert!(!f.prior);
    }

    #[test]
    fn a_transitive_round_robin_is_fitted_consistently() {
        // Three engines 100 Elo apart, expected scores as data: the fit recovers them.
        let p = |d: f64| 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let data = [
            score(0, 1, 1000.0, 1000.0 * p(100.0)),
            score(0, 2, 1000.0, 1000.0 * p(200.0)),
            score(1, 2, 1000.0, 1000.0 * p(100.0)),
        ];
        let f = fit(3, &data).unwrap();
        for (got, want) in f.elo.iter().zip([100.0, 0.0, -100.0]) {
            assert!((got - want).abs() < 1e-6, "{:?}", f.elo);
        }
        assert!(
            f.error.iter().all(|e| *e > 0.0 && *e < 30.0),
            "{:?}",
            f.error
        );
    }

    #[test]
    fn perfect_scores_get_a_prior_and_strangers_no_fit() {
        let f = fit(2, &[score(0, 1, 10.0, 10.0)]).unwrap();
        assert!(f.prior);
        // 10.5 of 11: p = 21/22, 400 log10(21) = 528.9 apart.
        assert!((f.elo[0] - f.elo[1] - 528.88).abs() < 0.01, "{:?}", f.elo);
        assert_eq!(fit(3, &[score(0, 1, 4.0, 2.0)]), None);
        assert_eq!(fit(2, &[score(0, 1, 0.0, 0.0)]), None);
    }

    #[test]
    fn inversion_by_hand() {
        let inv = invert(&[vec![4.0, 7.0], vec![2.0, 6.0]]).unwrap();
        let want = [[0.6, -0.7], [-0.2, 0.4]];
        for (row, w) in inv.iter().zip(want) {
            for (x, y) in row.iter().zip(w) {
                assert!((x - y).abs() < 1e-12);
            }
        }
        assert_eq!(invert(&[vec![1.0, 2.0], vec![2.0, 4.0]]), None);
    }
}
