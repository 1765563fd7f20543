//! Skill levels for human play (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`): how a
//! level weakens the choice of the move, and each game's calibrated Elo per level.
//!
//! Level 20 is the engine at full strength: no change at all. Below it:
//! - at a side's turn in a game without chance nodes (R&B, Duell), Stockfish's method:
//!   search to depth `1 + level` with at least 4 MultiPV candidates (more at low levels,
//!   a share `(20 − level) / 20` of the legal moves), then [`Skill::pick_best`] adds level-scaled noise to the
//!   candidates' scores and plays the best of the noisy scores;
//! - at a decision of a game with chance nodes (Ludo) and at a side's declaration of a
//!   simultaneous turn (Apocalypse, every declaration valued against the opponent's
//!   equilibrium strategy): [`Skill::softmax`] over every root value with a temperature
//!   that halves every two levels.
//!
//! The Elo scale is Quartet's own, per game: the random player is 0, and the levels were
//! calibrated by `scripts/skill_ladder.py` (matches between neighbouring levels, chained).
//! `UCI_Elo` picks the level, interpolated between the calibrated ones, whose Elo in the
//! current game is the one asked.

use rand::{Rng, RngExt};

/// The full-strength level (the default of `Skill Level`).
pub const MAX_LEVEL: u8 = 20;

/// The strength options as the client set them (resolved per game by [`Skill::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `Skill Level`, 0..=[`MAX_LEVEL`].
    pub level: u8,
    /// `UCI_LimitStrength`: play at `UCI_Elo` instead of `Skill Level`.
    pub limit: bool,
    /// `UCI_Elo`, within [`ELO_MIN`]..=[`ELO_MAX`].
    pub elo: i32,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            level: MAX_LEVEL,
            limit: false,
            elo: ELO_MIN,
        }
    }
}

/// One game's calibration: the noise unit of its levels and the measured Elo of some
/// levels (ascending in level and in Elo; the levels between are interpolated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// The game's name, as its declaration spells it.
    pub game: &'static str,
    /// Stockfish's `PawnValue` for [`Skill::pick_best`] (the cap of the noise), or the
    /// softmax temperature at level 0, in the game's score unit.
    pub unit: f64,
    /// `(level, Elo)` of the calibrated levels, level 0 and level 20 among them.
    pub elo: &'static [(u8, i32)],
}

/// The calibrations of every game, measured by `scripts/skill_ladder.py --games 80
/// --anchor-games 400 --nodes 2000 --levels 0,4,8,12,16,19,20` (README.md, "Skill levels",
/// has the table with its ± and the exact command). Levels between are interpolated; where
/// the measured chain was not ascending (Ludo above level 12, whose neighbouring levels
/// differ by less than the matches can tell) the script pooled the levels to their mean and
/// made them ascend by at least 1.
pub const CALIBRATIONS: &[Calibration] = &[
    Calibration {
        game: "rnb",
        unit: 100.0,
        elo: &[
            (0, 700),
            (4, 908),
            (8, 1099),
            (12, 1241),
            (16, 1475),
            (19, 1628),
            (20, 2224),
        ],
    },
    Calibration {
        game: "duell",
        unit: 100.0,
        elo: &[
            (0, 798),
            (4, 915),
            (8, 1033),
            (12, 1273),
            (16, 1501),
            (19, 1735),
            (20, 2036),
        ],
    },
    Calibration {
        game: "apocalypse",
        unit: 300.0,
        elo: &[
            (0, 161),
            (4, 278),
            (8, 331),
            (12, 438),
            (16, 508),
            (19, 552),
            (20, 591),
        ],
    },
    Calibration {
        game: "ludo",
        unit: 2000.0,
        elo: &[
            (0, 151),
            (4, 320),
            (8, 499),
            (12, 517),
            (16, 525),
            (19, 526),
            (20, 527),
        ],
    },
];

/// The smallest `UCI_Elo`: the lowest calibrated Elo of any game (level 0's).
pub const ELO_MIN: i32 = extreme(true);
/// The largest `UCI_Elo`: the highest calibrated Elo of any game (level 20's).
pub const ELO_MAX: i32 = extreme(false);

const fn extreme(lowest: bool) -> i32 {
    let mut best = if lowest { i32::MAX } else { i32::MIN };
    let mut g = 0;
    while g < CALIBRATIONS.len() {
        let table = CALIBRATIONS[g].elo;
        let mut i = 0;
        while i < table.len() {
            let e = table[i].1;
            if (lowest && e < best) || (!lowest && e > best) {
                best = e;
            }
            i += 1;
        }
        g += 1;
    }
    best
}

/// The calibration of `game`, if it has one.
pub fn calibration(game: &str) -> Option<&'static Calibration> {
    CALIBRATIONS.iter().find(|c| c.game == game)
}

/// How a weakened level chooses among the searched root moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Stockfish's `Skill::pick_best` over MultiPV candidates (turn games).
    PickBest,
    /// A softmax over every root value (decisions between chance nodes, declarations).
    Softmax,
}

/// A level below full strength in one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The level, 0.0 up to (not including) 20.0; fractional from `UCI_Elo`.
    pub level: f64,
    /// The game's [`Calibration::unit`].
    pub unit: f64,
    /// How the move is chosen.
    pub method: Method,
}

impl Skill {
    /// The weakened level `strength` asks for in `game`, choosing by `method`; `None` at
    /// full strength (level 20, or a `UCI_Elo` at or above the game's level-20 Elo) and
    /// for a game without a calibration.
    pub fn new(game: &str, strength: Strength, method: Method) -> Option<Skill> {
        let cal = calibration(game)?;
        let level = if strength.limit {
            level_for_elo(cal.elo, strength.elo)
        } else {
            f64::from(strength.level.min(MAX_LEVEL))
        };
        (level < f64::from(MAX_LEVEL)).then_some(Skill {
            level,
            unit: cal.unit,
            method,
        })
    }

    /// The deepest iteration at this level ([`Method::PickBest`]): `1 + level`, as
    /// Stockfish picks at that depth.
    pub fn depth(&self) -> u32 {
        1 + self.level as u32
    }

    /// How many MultiPV lines to search when the root has `moves` legal moves: every move
    /// for [`Method::Softmax`]; for [`Method::PickBest`] at least 4, and a share of the
    /// moves that falls from all of them at level 0 to none at level 20 (`(20 − level) /
    /// 20`), so that the lowest levels play nearly at random (measurable against the
    /// random player) and each level has more rivals to its best move than the next.
    pub fn candidates(&self, moves: usize) -> usize {
        match self.method {
            Method::Softmax => moves,
            Method::PickBest => {
                let share = ((f64::from(MAX_LEVEL) - self.level) / f64::from(MAX_LEVEL)).max(0.0);
                ((moves as f64 * share).ceil() as usize).max(4)
            }
        }
    }

    /// Above level 19 the weakened choice is made only with probability `20 − level`;
    /// otherwise the full-strength move is played. This joins level 19 to level 20 without
    /// a jump (below 20 the noise of [`Skill::pick_best`] never vanishes), so that every
    /// `UCI_Elo` in the calibrated range has a level that plays it. `u` is uniform in
    /// `0..1`.
    pub fn keeps_full_strength(&self, u: f64) -> bool {
        u < self.level - f64::from(MAX_LEVEL - 1)
    }

    /// Stockfish's `Skill::pick_best`: `scores` are the candidates' values (the mover's
    /// view, best first); each gets `push = (weakness · (top − score) + delta · r) / 128`
    /// with `weakness = 120 − 2 · level`, `delta = min(top − bottom, unit)` and `r`
    /// uniform in `0..weakness`, and the index with the largest `score + push` wins (the
    /// later on a tie). `None` for no candidates.
    pub fn pick_best(&self, scores: &[i32], rng: &mut impl Rng) -> Option<usize> {
        let top = f64::from(*scores.first()?);
        let bottom = f64::from(*scores.last()?);
        let weakness = 120.0 - 2.0 * self.level;
        let delta = (top - bottom).min(self.unit);
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &s) in scores.iter().enumerate() {
            let s = f64::from(s);
            let r = rng.random_range(0.0..weakness).floor();
            let push = (weakness * (top - s) + delta * r) / 128.0;
            if s + push >= best.1 {
                best = (i, s + push);
            }
        }
        Some(best.0)
    }

    /// The softmax temperature at this level: the unit at level 0, halved every two levels.
    pub fn temperature(&self) -> f64 {
        self.unit * (-self.level / 2.0).exp2()
    }

    /// The probabilities of a softmax over `scores` (the chooser's view) at
    /// [`Skill::temperature`]: `exp((score − max) / T)`, normalised.
    pub fn softmax(&self, scores: &[i32]) -> Vec<f64> {
        let t = self.temperature();
        let max = scores.iter().copied().max().unwrap_or(0);
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| ((f64::from(s) - f64::from(max)) / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }
}

/// The level whose Elo is `elo` by linear interpolation in `table` (ascending): 0 below
/// the table, 20 at or above its top.
pub fn level_for_elo(table: &[(u8, i32)], elo: i32) -> f64 {
    let Some(&(first_level, first_elo)) = table.first() else {
        return f64::from(MAX_LEVEL);
    };
    if elo <= first_elo {
        return f64::from(first_level);
    }
    for pair in table.windows(2) {
        let [(l0, e0), (l1, e1)] = [pair[0], pair[1]];
        if elo < e1 {
            let t = f64::from(elo - e0) / f64::from(e1 - e0);
            return f64::from(l0) + t * f64::from(l1 - l0);
        }
    }
    f64::from(MAX_LEVEL)
}

/// An index drawn from `probabilities` (summing to 1) with `rng`.
pub fn sample_index(probabilities: &[f64], rng: &mut impl Rng) -> usize {
    let mut x = rng.random::<f64>() * probabilities.iter().sum::<f64>();
    for (i, &p) in probabilities.iter().enumerate() {
        if x < p {
            return i;
        }
        x -= p;
    }
    probabilities.iter().rposition(|&p| p > 0.0).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameKind;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn skill(level: f64, method: Method) -> Skill {
        Skill {
            level,
            unit: 100.0,
            method,
        }
    }

    #[test]
    fn every_game_has_an_ascending_calibration_from_level_0_to_20() {
        for g in GameKind::ALL {
            let cal = calibration(g.name()).expect("a calibration");
            assert_eq!(cal.elo.first().map(|e| e.0), Some(0), "{}", cal.game);
            assert_eq!(cal.elo.last().map(|e| e.0), Some(MAX_LEVEL), "{}", cal.game);
            for w in cal.elo.windows(2) {
                assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{}: {w:?}", cal.game);
            }
        }
        const { assert!(ELO_MIN < ELO_MAX) };
    }

    #[test]
    fn level_20_is_full_strength_and_lower_levels_are_not() {
        let at = |level, limit, elo| {
            Skill::new("duell", Strength { level, limit, elo }, Method::PickBest)
        };
        assert_eq!(at(20, false, ELO_MIN), None);
        assert_eq!(at(19, false, ELO_MIN).map(|s| s.level), Some(19.0));
        assert_eq!(at(0, false, ELO_MIN).map(|s| s.level), Some(0.0));
        assert_eq!(at(20, true, ELO_MAX), None, "the top Elo is full strength");
        assert_eq!(at(20, true, ELO_MIN).map(|s| s.level), Some(0.0));
        assert_eq!(
            Skill::new("chess", Strength::default(), Method::PickBest),
            None
        );
    }

    #[test]
    fn elo_interpolates_between_calibrated_levels() {
        // Hand-made table: 100 Elo at level 0, 300 at 10, 500 at 20.
        let table = [(0, 100), (10, 300), (20, 500)];
        assert_eq!(level_for_elo(&table, 0), 0.0);
        assert_eq!(level_for_elo(&table, 100), 0.0);
        assert_eq!(level_for_elo(&table, 200), 5.0);
        assert_eq!(level_for_elo(&table, 300), 10.0);
        assert_eq!(level_for_elo(&table, 450), 17.5);
        assert_eq!(level_for_elo(&table, 500), 20.0);
        assert_eq!(level_for_elo(&table, 9999), 20.0);
    }

    #[test]
    fn depth_and_candidates_follow_the_level() {
        let s = skill(0.0, Method::PickBest);
        assert_eq!((s.depth(), s.candidates(37)), (1, 37));
        let s = skill(5.5, Method::PickBest);
        // 72.5 % of 20 moves is 14.5.
        assert_eq!((s.depth(), s.candidates(20)), (6, 15));
        let s = skill(12.0, Method::PickBest);
        // 40 % of 37 moves is 14.8.
        assert_eq!((s.depth(), s.candidates(37)), (13, 15));
        let s = skill(19.0, Method::PickBest);
        assert_eq!((s.depth(), s.candidates(37)), (20, 4));
        assert_eq!(skill(19.0, Method::Softmax).candidates(3), 3);
    }

    #[test]
    fn pick_best_without_noise_is_the_best_and_with_it_varies() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // One candidate: it is the pick.
        assert_eq!(
            skill(0.0, Method::PickBest).pick_best(&[5], &mut rng),
            Some(0)
        );
        assert_eq!(skill(0.0, Method::PickBest).pick_best(&[], &mut rng), None);
        // A mate against a pawn: push is at most (weakness * gap + 100 * weakness) / 128,
        // so with gap 29000 the worse move's score + push stays far below the top.
        let scores = [29_000, 0];
        for _ in 0..100 {
            assert_eq!(
                skill(0.0, Method::PickBest).pick_best(&scores, &mut rng),
                Some(0)
            );
        }
        // Equal scores at level 0: delta = 0, so every push is 0 and the later wins.
        assert_eq!(
            skill(0.0, Method::PickBest).pick_best(&[7, 7, 7], &mut rng),
            Some(2)
        );
        // 10 cp apart at level 0: each candidate wins sometimes.
        let mut wins = [0; 2];
        for _ in 0..1000 {
            let i = skill(0.0, Method::PickBest)
                .pick_best(&[10, 0], &mut rng)
                .expect("a pick");
            wins[i] += 1;
        }
        assert!(wins[0] > 100 && wins[1] > 100, "{wins:?}");
    }

    #[test]
    fn only_levels_above_19_keep_full_strength_sometimes() {
        assert!(!skill(19.0, Method::PickBest).keeps_full_strength(0.0));
        assert!(!skill(12.0, Method::Softmax).keeps_full_strength(0.0));
        let s = skill(19.25, Method::PickBest);
        assert!(s.keeps_full_strength(0.2) && !s.keeps_full_strength(0.3));
    }

    #[test]
    fn softmax_follows_the_temperature() {
        let s = skill(0.0, Method::Softmax);
        assert_eq!(s.temperature(), 100.0);
        assert_eq!(skill(4.0, Method::Softmax).temperature(), 25.0);
        let p = s.softmax(&[100, 0]);
        // exp(0) : exp(-1).
        let e = (-1.0f64).exp();
        assert!((p[0] - 1.0 / (1.0 + e)).abs() < 1e-12);
        assert!((p[0] + p[1] - 1.0).abs() < 1e-12);
        let sharp = skill(19.0, Method::Softmax).softmax(&[100, 0]);
        assert!(sharp[0] > 0.999_999);
    }

    #[test]
    fn sampling_follows_the_probabilities() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut counts = [0; 3];
        for _ in 0..10_000 {
            counts[sample_index(&[0.2, 0.0, 0.8], &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!((1_800..2_200).contains(&counts[0]), "{counts:?}");
    }
}
