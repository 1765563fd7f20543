//! Skill levels for human play (`Skill Level`, `UCI_LimitStrength`, `UCI_Elo`): how a
//! level weakens the choice of the move, and each game's calibrated Elo per level.
//!
//! Level 20 is the engine at full strength: no change at all. Below it:
//! - at a side's turn in a game without chance nodes (R&B, Duell), Stockfish's method:
//!   search to depth `1 + level` with at least 4 MultiPV candidates (more at low levels,
//!   a share `(20 − level) / 20` of the legal moves), then [`Skill::pick_best`] adds
//!   level-scaled noise to the candidates' scores and plays the best of the noisy scores;
//! - at a decision of a game with chance nodes (Ludo) and at a side's declaration of a
//!   simultaneous turn (Apocalypse, every declaration valued against the opponent's
//!   equilibrium strategy): [`Skill::softmax`] over every root value with a temperature
//!   that halves every two levels.
//!
//! The Elo scale is Quartet's own, per game: the random player is 0, and each game declares
//! the Elo of its levels as `scripts/skill_ladder.py` measured them (matches between
//! neighbouring levels, chained; `GameDeclaration::skill_elo`), a game not measured yet
//! follows [`PROVISIONAL_ELO`]. `UCI_Elo` picks the level, interpolated between the
//! calibrated ones, whose Elo in the current game is the one asked. The noise of a level is
//! scaled by the game's evaluation (`Evaluate::SKILL_UNIT`).

use quartet_games::GameKind;
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

/// The smallest `UCI_Elo`: the lowest calibrated Elo of any game (level 0's).
pub const ELO_MIN: i32 = extreme(true);
/// The largest `UCI_Elo`: the highest calibrated Elo of any game (level 20's).
pub const ELO_MAX: i32 = extreme(false);

/// The scale of a game whose declaration has no measured Elo (`skill_elo: None`): level 0
/// at [`ELO_MIN`], level 20 at [`ELO_MAX`], linear between. Provisional: the levels weaken
/// the play as in every game, and `scripts/skill_ladder.py` then measures their Elo for
/// the declaration.
pub const PROVISIONAL_ELO: &[(u8, i32)] = &[(0, ELO_MIN), (MAX_LEVEL, ELO_MAX)];

/// The lowest (or highest) Elo of every calibrated game of the registry; 0 (or 1000)
/// when none is calibrated.
const fn extreme(lowest: bool) -> i32 {
    let mut best = if lowest { i32::MAX } else { i32::MIN };
    let games = GameKind::ALL;
    let mut g = 0;
    while g < games.len() {
        if let Some(table) = games[g].declaration().skill_elo {
            let mut i = 0;
            while i < table.len() {
                let e = table[i].1;
                if (lowest && e < best) || (!lowest && e > best) {
                    best = e;
                }
                i += 1;
            }
        }
        g += 1;
    }
    match (best, lowest) {
        (i32::MAX, true) => 0,
        (i32::MIN, false) => 1000,
        _ => best,
    }
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
    /// The game's noise scale (`Evaluate::SKILL_UNIT`).
    pub unit: f64,
    /// How the move is chosen.
    pub method: Method,
}

impl Skill {
    /// The weakened level `strength` asks for in a game whose declared Elo table is
    /// `skill_elo` ([`PROVISIONAL_ELO`] when it has none) and noise scale is `unit`,
    /// choosing by `method`; `None` at full strength (level 20, or a `UCI_Elo` at or above
    /// the table's level-20 Elo).
    pub fn new(
        skill_elo: Option<&[(u8, i32)]>,
        unit: f64,
        strength: Strength,
        method: Method,
    ) -> Option<Skill> {
        let level = if strength.limit {
            level_for_elo(skill_elo.unwrap_or(PROVISIONAL_ELO), strength.elo)
        } else {
            f64::from(strength.level.min(MAX_LEVEL))
        };
        (level < f64::from(MAX_LEVEL)).then_some(Skill {
            level,
            unit,
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
    use quartet_games::GameKind;
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
    fn every_declared_calibration_ascends_from_level_0_to_20() {
        let tables = GameKind::ALL.iter().filter_map(|g| {
            let d = g.declaration();
            d.skill_elo.map(|t| (d.name, t))
        });
        for (name, table) in tables.chain([("provisional", PROVISIONAL_ELO)]) {
            assert_eq!(table.first().map(|e| e.0), Some(0), "{name}");
            assert_eq!(table.last().map(|e| e.0), Some(MAX_LEVEL), "{name}");
            for w in table.windows(2) {
                assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{name}: {w:?}");
            }
        }
        const { assert!(ELO_MIN < ELO_MAX) };
    }

    #[test]
    fn level_20_is_full_strength_and_lower_levels_are_not() {
        let duell = GameKind::Duell.declaration().skill_elo;
        let at = |level, limit, elo| {
            Skill::new(
                duell,
                100.0,
                Strength { level, limit, elo },
                Method::PickBest,
            )
        };
        assert_eq!(at(20, false, ELO_MIN), None);
        assert_eq!(at(19, false, ELO_MIN).map(|s| s.level), Some(19.0));
        assert_eq!(at(0, false, ELO_MIN).map(|s| s.level), Some(0.0));
        assert_eq!(at(20, true, ELO_MAX), None, "the top Elo is full strength");
        assert_eq!(at(20, true, ELO_MIN).map(|s| s.level), Some(0.0));
    }

    #[test]
    fn a_game_without_a_calibration_weakens_on_the_provisional_scale() {
        let at = |level, limit, elo| {
            Skill::new(
                None,
                100.0,
                Strength { level, limit, elo },
                Method::PickBest,
            )
        };
        assert_eq!(at(20, false, ELO_MIN), None);
        assert_eq!(at(7, false, ELO_MIN).map(|s| s.level), Some(7.0));
        // UCI_Elo: the bottom of the range is level 0, the middle level 10, the top 20.
        assert_eq!(at(20, true, ELO_MIN).map(|s| s.level), Some(0.0));
        let middle = at(20, true, (ELO_MIN + ELO_MAX) / 2).map(|s| s.level);
        assert!(
            middle.is_some_and(|l| (l - 10.0).abs() < 0.01),
            "{middle:?}"
        );
        assert_eq!(at(20, true, ELO_MAX), None);
        // And the level plays weaker: level 0 picks a move 10 below the best at times.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let weak = at(0, false, ELO_MIN).expect("a weakened level");
        let worse = (0..200)
            .filter(|_| weak.pick_best(&[10, 0], &mut rng) == Some(1))
            .count();
        assert!(worse > 20, "{worse} of 200");
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
