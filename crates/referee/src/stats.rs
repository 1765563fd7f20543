//! Match statistics: W/D/L, pentanomial pair counts, Elo with a 95% interval, LOS.
//!
//! The formulas are fastchess's (`app/src/matchmaking/elo/elo_wdl.cpp` and
//! `elo_pentanomial.cpp`): the score's standard error comes from the empirical distribution
//! of game scores (trinomial) or pair scores (pentanomial), the interval is the score ± 1.96
//! standard errors mapped to logistic Elo, normalized Elo is `(score − ½) / σ · 800 / ln 10`
//! (σ the per-game standard deviation; √2 × the per-pair one for pairs) and LOS is
//! `Φ((score − ½) / standard error)`. The tests use fastchess's own test values
//! (`app/tests/elo_test.cpp`).

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Pair counts by the first engine's points out of 2: `ll` 0, `ld` ½, `wl` and `dd` 1 (one
/// win and one loss, or two draws), `wd` 1½, `ww` 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Two losses.
    pub ll: u32,
    /// A loss and a draw.
    pub ld: u32,
    /// A win and a loss.
    pub wl: u32,
    /// Two draws.
    pub dd: u32,
    /// A win and a draw.
    pub wd: u32,
    /// Two wins.
    pub ww: u32,
}

impl Pentanomial {
    /// The number of complete pairs.
    pub fn pairs(&self) -> u32 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// fastchess's PairsRatio: pairs won (`wd` + `ww`) per pair lost (`ll` + `ld`);
    /// infinite when no pair was lost, NaN without decided pairs.
    pub fn pairs_ratio(&self) -> f64 {
        f64::from(self.wd + self.ww) / f64::from(self.ll + self.ld)
    }

    /// Counts in score order (0, ¼, ½, ¾, 1 per game), `wl` and `dd` together.
    pub fn by_score(&self) -> [u32; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }
}

/// The result of one game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameScore {
    /// The first engine won.
    Win,
    /// A draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl GameScore {
    /// Points in half points: 2, 1 or 0.
    pub fn half_points(self) -> u32 {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }
}

/// The running totals of a match from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Complete pairs by points.
    pub penta: Pentanomial,
}

impl Tally {
    /// Counts one game.
    pub fn add_game(&mut self, s: GameScore) {
        match s {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Counts one complete pair (the two games' results, in either order).
    pub fn add_pair(&mut self, a: GameScore, b: GameScore) {
        let p = &mut self.penta;
        match a.half_points() + b.half_points() {
            0 => p.ll += 1,
            1 => p.ld += 1,
            2 if a == GameScore::Draw => p.dd += 1,
            2 => p.wl += 1,
            3 => p.wd += 1,
            _ => p.ww += 1,
        }
    }

    /// Adds another tally (another shard's).
    pub fn merge(&mut self, o: &Tally) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        let (p, q) = (&mut self.penta, &o.penta);
        p.ll += q.ll;
        p.ld += q.ld;
        p.wl += q.wl;
        p.dd += q.dd;
        p.wd += q.wd;
        p.ww += q.ww;
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's points.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// The share of draws, 0 to 1 (0 without games).
    pub fn draw_ratio(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            f64::from(self.draws) / f64::from(self.games())
        }
    }
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The mean score per game, 0 to 1.
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half the width of its 95% interval.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half the width of its 95% interval.
    pub nelo_error: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
}

/// The one-sided confidence level of [`perfect_score_bound`].
pub const PERFECT_BOUND_LEVEL: f64 = 0.95;

/// The Elo bound that a perfect score over `games` games supports: with every game won,
/// the win probability is at least `(1 − level)^(1/games)` with one-sided confidence
/// `level` = [`PERFECT_BOUND_LEVEL`] (the exact Clopper–Pearson bound), and the Elo
/// difference at least that score's Elo. The normal interval says nothing there (zero
/// variance), and a perfect score is common between engines of very different strength.
/// `None` without games.
pub fn perfect_score_bound(games: u32) -> Option<f64> {
    (games > 0).then(|| score_to_elo((1.0 - PERFECT_BOUND_LEVEL).powf(1.0 / f64::from(games))))
}

/// The logistic Elo difference of a mean score.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The error function, from the Chebyshev fit of erfc in Numerical Recipes (§6.2; error
/// below 1.2e-7 everywhere), as std has none.
fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Builds the estimate from the mean score, the variance of one sample (a game or a pair's
/// mean), the number of samples and the factor from that variance to a game's (1 for games,
/// 2 for pairs).
fn estimate(score: f64, variance: f64, samples: f64, nelo_factor: f64) -> EloEstimate {
    let per_sample = variance / samples;
    let (lo, hi) = (
        score - Z95 * per_sample.sqrt(),
        score + Z95 * per_sample.sqrt(),
    );
    // An interval reaching a 0 % or 100 % score has an unbounded Elo end.
    let elo_error = if lo <= 0.0 || hi >= 1.0 {
        f64::INFINITY
    } else {
        (score_to_elo(hi) - score_to_elo(lo)) / 2.0
    };
    let nelo = |s: f64| (s - 0.5) / (nelo_factor * variance).sqrt() * (800.0 / 10f64.ln());
    EloEstimate {
        score,
        elo: score_to_elo(score),
        elo_error,
        nelo: nelo(score),
        nelo_error: (nelo(hi) - nelo(lo)) / 2.0,
        los: (1.0 - erf(-(score - 0.5) / (2.0 * per_sample).sqrt())) / 2.0,
    }
}

/// The trinomial estimate from W/D/L; `None` without games. Degenerate tallies give
/// infinite fields (all games won or lost: see [`perfect_score_bound`]) or NaN ones (no
/// variance at an even score: all draws).
pub fn elo_wdl(t: &Tally) -> Option<EloEstimate> {
    let n = f64::from(t.games());
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (
        f64::from(t.wins) / n,
        f64::from(t.draws) / n,
        f64::from(t.losses) / n,
    );
    let score = w + 0.5 * d;
    let variance = w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2);
    Some(estimate(score, variance, n, 1.0))
}

/// The pentanomial estimate from the pair counts; `None` without complete pairs.
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    let n = f64::from(p.pairs());
    if n == 0.0 {
        return None;
    }
    let values = [0.0, 0.25, 0.5, 0.75, 1.0];
    let probs = p.by_score().map(|c| f64::from(c) / n);
    let score: f64 = values.iter().zip(&probs).map(|(v, q)| v * q).sum();
    let variance: f64 = values
        .iter()
        .zip(&probs)
        .map(|(v, q)| q * (v - score).powi(2))
        .sum();
    Some(estimate(score, variance, n, 2.0))
}

/// Helpers shared by the statistics tests (here and in `sprt`).
#[cfg(test)]
pub(super) mod test_support {
    use super::Pentanomial;

    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` order.
    pub fn penta(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    /// Within 1% like doctest's `Approx(..).epsilon(0.01)`, which fastchess's tests use.
    pub fn approx(got: f64, want: f64) {
        assert!(
            (got - want).abs() <= 0.01 * want.abs().max(1.0),
            "got {got}, want {want}"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::{approx, penta};
    use super::*;

    fn wdl(wins: u32, losses: u32, draws: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
            ..Tally::default()
        }
    }

    #[test]
    fn erf_known_values() {
        approx(erf(0.0), 0.0);
        assert!((erf(1.0) - 0.842_700_79).abs() < 1e-6);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 1e-6);
        assert!((erf(3.0) - 0.999_977_91).abs() < 1e-6);
    }

    #[test]
    fn elo_by_hand() {
        // 3 wins, 1 draw, 0 losses: score 3.5/4 = 0.875, Elo = -400 log10(1/0.875 - 1)
        // = 400 log10(7) = 338.04.
        let e = elo_wdl(&wdl(3, 0, 1)).unwrap();
        approx(e.score, 0.875);
        assert!((e.elo - 338.039).abs() < 0.01);
        // Even score: Elo 0, LOS 1/2 (up to erf's approximation error).
        let e = elo_wdl(&wdl(5, 5, 2)).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!((e.los - 0.5).abs() < 1e-6);
        assert!(elo_wdl(&Tally::default()).is_none());
        assert!(elo_pentanomial(&Pentanomial::default()).is_none());
    }

    // fastchess app/tests/elo_test.cpp, "EloWDL 1..3": Stats(wins, losses, draws).
    #[test]
    fn elo_wdl_matches_fastchess() {
        let e = elo_wdl(&wdl(76, 89, 123)).unwrap();
        approx(e.nelo, -20.76);
        approx(e.nelo_error, 40.13);
        assert_eq!(format!("{:.2}", e.los * 100.0), "15.53");
        let e = elo_wdl(&wdl(136, 96, 111)).unwrap();
        approx(e.nelo, 49.77);
        approx(e.nelo_error, 36.77);
        approx(e.elo, 40.70);
        approx(e.elo_error, 30.43);
        assert_eq!(format!("{:.2}", e.los * 100.0), "99.60");
        let e = elo_wdl(&wdl(34, 356, 0)).unwrap();
        approx(e.nelo, -508.44);
        approx(e.nelo_error, 34.48);
    }

    // fastchess app/tests/elo_test.cpp, "EloPentanomial 1..3": Stats(ll, ld, wl, dd, wd, ww).
    #[test]
    fn elo_pentanomial_matches_fastchess() {
        let e = elo_pentanomial(&penta(34, 54, 31, 32, 64, 75)).unwrap();
        approx(e.nelo, 57.94);
        approx(e.nelo_error, 28.28);
        approx(e.elo, 55.58);
        approx(e.elo_error, 27.65);
        assert_eq!(format!("{:.2}", e.los * 100.0), "100.00");
        let e = elo_pentanomial(&penta(332, 433, 457, 41, 333, 334)).unwrap();
        approx(e.nelo, -9.17);
        approx(e.nelo_error, 10.96);
        approx(e.elo, -8.64);
        approx(e.elo_error, 10.33);
        assert_eq!(format!("{:.2}", e.los * 100.0), "5.05");
        let e = elo_pentanomial(&penta(7895, 8757, 5485, 200, 568, 9999)).unwrap();
        approx(e.nelo, -19.01);
        approx(e.nelo_error, 2.65);
        approx(e.elo, -21.04);
        approx(e.elo_error, 2.95);
    }

    #[test]
    fn perfect_scores_have_an_unbounded_interval_and_a_one_sided_bound() {
        let e = elo_wdl(&wdl(20, 0, 0)).unwrap();
        assert_eq!((e.elo, e.elo_error), (f64::INFINITY, f64::INFINITY));
        let e = elo_wdl(&wdl(0, 3, 0)).unwrap();
        assert_eq!((e.elo, e.elo_error), (f64::NEG_INFINITY, f64::INFINITY));
        // 19 wins and a loss: score 0.95, standard error sqrt(0.95 · 0.05 / 20) = 0.0487,
        // so the interval reaches 0.95 + 1.96 · 0.0487 > 1.
        assert_eq!(elo_wdl(&wdl(19, 1, 0)).unwrap().elo_error, f64::INFINITY);
        // 20 wins: p >= 0.05^(1/20) = exp(ln 0.05 / 20) = 0.860891, whose Elo is
        // -400 log10(1 / 0.860891 - 1) = -400 log10(0.161586) = 316.64.
        let bound = perfect_score_bound(20).unwrap();
        assert!((bound - 316.64).abs() < 0.01, "{bound}");
        // One game won: p >= 0.05, Elo >= -400 log10(19) = -511.5.
        assert!((perfect_score_bound(1).unwrap() + 511.51).abs() < 0.01);
        assert_eq!(perfect_score_bound(0), None);
    }

    #[test]
    fn pairs_ratio_counts_won_per_lost_pairs() {
        // Won pairs wd + ww = 3, lost ll + ld = 2; wl and dd do not count.
        assert_eq!(penta(1, 1, 5, 5, 1, 2).pairs_ratio(), 1.5);
        assert_eq!(penta(0, 0, 1, 0, 0, 1).pairs_ratio(), f64::INFINITY);
    }

    #[test]
    fn pairs_are_classified_by_points() {
        use GameScore::*;
        let mut t = Tally::default();
        for (a, b) in [
            (Loss, Loss),
            (Draw, Loss),
            (Loss, Win),
            (Draw, Draw),
            (Win, Draw),
            (Win, Win),
            (Win, Loss),
        ] {
            t.add_pair(a, b);
        }
        assert_eq!(t.penta, penta(1, 1, 2, 1, 1, 1));
        assert_eq!(t.penta.by_score(), [1, 1, 3, 1, 1]);
        let mut u = Tally::default();
        u.add_game(Win);
        u.add_game(Draw);
        u.merge(&t);
        assert_eq!((u.wins, u.draws, u.losses, u.penta.pairs()), (1, 1, 0, 7));
        approx(u.points(), 1.5);
        approx(u.draw_ratio(), 0.5);
    }
}
