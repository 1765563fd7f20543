//! Search knowledge for Ludo. Scores are win probabilities: P(Red wins) = p is the score
//! `round((2p - 1) * 10000)`, so a won game is exactly +10000 and a lost one -10000 (no mate
//! distance: in a dice game a win is a win) and the static evaluation is an estimate of p.
//!
//! The estimate is the learned network of [`super::net`]: P(the side to roll wins) from the
//! pieces of both sides, their pairs and the sixes rolled. It is fitted to the exact values of
//! the solved 1- and 2-piece games and to self-play of the real game (README, "Training the
//! evaluations"). At a decision node the pending die is ignored: the position is judged like
//! the chance node before the roll.

use super::board::{is_safe, other_frame};
use super::net::{Active, network};
use super::{GOAL, LAST_TRACK, Ludo, Move};
use quartet_core::eval::Evaluate;
use quartet_core::eval::network::NetworkTraining;
use quartet_core::game::{Outcome, Player};

/// The score of a certain win for Red (p = 1).
pub(super) const WIN_SCORE: i32 = 10_000;

impl Evaluate for Ludo {
    const NETWORK: Option<NetworkTraining<Self>> = Some(super::net::TRAINING);
    /// The softmax temperature at level 0 the levels of `SKILL_ELO` (mod.rs) were measured
    /// with: a fifth of a certain win (10000).
    const SKILL_UNIT: f64 = 2000.0;
    /// Codes: rolls 0..6, `b-0` 6, `pass` 7, steps `8 + 6 * from + (to - from - 1)`.
    const MOVE_CODES: usize = 8 + 6 * GOAL as usize;

    fn evaluate(&self) -> i32 {
        let p = self.red_win_estimate();
        let score = ((2.0 * p - 1.0) * WIN_SCORE as f64).round() as i32;
        score.clamp(1 - WIN_SCORE, WIN_SCORE - 1)
    }

    fn is_noisy(&self, m: Move) -> bool {
        self.captured_progress(m) > 0
    }

    /// Captures first (by the progress they undo), then by the progress reached.
    fn order_hint(&self, m: Move) -> i32 {
        let lost = self.captured_progress(m);
        match m {
            _ if lost > 0 => 1_000 + lost,
            Move::Step { to, .. } => i32::from(to),
            Move::Enter | Move::Roll(_) | Move::Pass => 0,
        }
    }

    fn move_code(m: Move) -> u32 {
        match m {
            Move::Roll(d) => u32::from(d) - 1,
            Move::Enter => 6,
            Move::Pass => 7,
            Move::Step { from, to } => 8 + 6 * u32::from(from) + u32::from(to - from - 1),
        }
    }

    /// Exactly +-10000: a win probability of 1 or 0, whatever the distance.
    fn terminal_value(&self, outcome: Outcome, _ply: u32) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) => p.sign() * WIN_SCORE,
        }
    }

    fn value_bounds() -> (i32, i32) {
        (-WIN_SCORE, WIN_SCORE)
    }

    /// The win probability `p = (value + 10000) / 20000` in per mille, no draws: `[w, 0, l]`
    /// with `w + l = 1000`.
    fn wdl(value: i32) -> Option<[u32; 3]> {
        let value = value.clamp(-WIN_SCORE, WIN_SCORE);
        let win = (f64::from(value + WIN_SCORE) * 500.0 / f64::from(WIN_SCORE)).round() as u32;
        Some([win, 0, 1000 - win])
    }
}

impl Ludo {
    /// The progress the mover's move `m` sends back to base: the sum of `q + 1` over the
    /// opponent's pieces at the captured square `q` (0 when `m` captures nothing).
    pub(super) fn captured_progress(&self, m: Move) -> i32 {
        let Move::Step { to, .. } = m else {
            return 0;
        };
        if to > LAST_TRACK || is_safe(to) {
            return 0;
        }
        let Some(q) = other_frame(to) else {
            return 0;
        };
        let hit = self
            .pieces(self.side_to_move().other())
            .iter()
            .filter(|&&v| v == q)
            .count();
        hit as i32 * (i32::from(q) + 1)
    }

    /// The network's estimate of P(Red wins), strictly inside (0, 1).
    pub(super) fn red_win_estimate(&self) -> f64 {
        let logit = f64::from(network().logit(Active::of(self).inputs()));
        let us = 1.0 / (1.0 + (-logit).exp());
        if self.side_to_move() == Player::First {
            us
        } else {
            1.0 - us
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::BASE;
    use quartet_core::game::{Game, Node, RuleOptions};
    use quartet_core::notation::Notation;

    fn pos(text: &str) -> Ludo {
        Ludo::parse_position(text, &RuleOptions::default()).expect(text)
    }

    #[test]
    fn wdl_is_the_win_probability_in_per_mille() {
        assert_eq!(Ludo::wdl(0), Some([500, 0, 500]));
        assert_eq!(Ludo::wdl(WIN_SCORE), Some([1000, 0, 0]));
        assert_eq!(Ludo::wdl(-WIN_SCORE), Some([0, 0, 1000]));
        // cp 2400 is p = 0.62.
        assert_eq!(Ludo::wdl(2_400), Some([620, 0, 380]));
        assert_eq!(Ludo::wdl(-2_420), Some([379, 0, 621]));
    }

    #[test]
    fn terminal_values_are_exact_win_probabilities() {
        let p = pos("56,56,56,56/b,b,b,b r - 0");
        assert_eq!(p.node(), Node::Terminal(Outcome::Win(Player::First)));
        assert_eq!(p.terminal_value(Outcome::Win(Player::First), 7), 10_000);
        assert_eq!(p.terminal_value(Outcome::Win(Player::Second), 0), -10_000);
        assert_eq!(Ludo::value_bounds(), (-10_000, 10_000));
    }

    #[test]
    fn evaluation_stays_strictly_inside_the_bounds() {
        for text in [
            "55,56,56,56/b,b,b,b r - 0",
            "b,b,b,b/55,56,56,56 r - 0",
            "b,b,b,b/b,b,b,b r - 0",
        ] {
            let e = pos(text).evaluate();
            assert!(e.abs() < 10_000, "{text}: {e}");
        }
        assert!(pos("55,56,56,56/b,b,b,b r - 0").evaluate() > 9_000);
        assert!(pos("b,b,b,b/55,56,56,56 r - 0").evaluate() < -9_000);
    }

    #[test]
    fn the_start_favours_the_side_to_roll_a_little() {
        let red = pos("b,b,b,b/b,b,b,b r - 0").evaluate();
        let yellow = pos("b,b,b,b/b,b,b,b y - 0").evaluate();
        assert!(red > 0 && red < 2_000, "{red}");
        assert_eq!(red, -yellow, "colour symmetry");
    }

    #[test]
    fn progress_a_piece_out_and_safety_are_worth_something() {
        let e = |t: &str| pos(t).evaluate();
        assert!(e("b,b,b,20/b,b,b,10 y - 0") > e("b,b,b,10/b,b,b,10 y - 0"));
        assert!(e("b,b,b,0/b,b,b,b y - 0") > e("b,b,b,b/b,b,b,b y - 0"));
        // Safety beats a pip: Red 22 (Yellow 48) can be hit by Yellow 42 with a 6; 21 is a star.
        assert!(e("b,b,b,21/b,b,b,42 y - 0") > e("b,b,b,22/b,b,b,42 y - 0"));
        // Entering the home column gains more when the square left is under fire
        // (Yellow 20 = A46 is 4 behind Red 50; Yellow 30 = A4 is not behind it).
        let gain = |yellow: &str| {
            e(&format!("b,b,b,51/b,b,b,{yellow} y - 0"))
                - e(&format!("b,b,b,50/b,b,b,{yellow} y - 0"))
        };
        assert!(gain("20") > gain("30"));
    }

    #[test]
    fn noisy_moves_are_exactly_the_captures() {
        let p = pos("b,b,b,27/b,b,b,4 r 3 0");
        assert!(p.is_noisy(Move::Step { from: 27, to: 30 }));
        let q = pos("b,b,b,5/b,b,b,34 r 3 0");
        assert!(!q.is_noisy(Move::Step { from: 5, to: 8 }), "A8 is safe");
        let r = pos("b,b,0,6/b,b,b,b r 6 1");
        assert!(!r.is_noisy(Move::Enter));
        assert!(!r.is_noisy(Move::Step { from: 6, to: 12 }));
    }

    #[test]
    fn order_hint_puts_captures_before_progress() {
        let p = pos("b,b,10,27/b,b,b,4 r 3 0");
        let capture = p.order_hint(Move::Step { from: 27, to: 30 });
        let other = p.order_hint(Move::Step { from: 10, to: 13 });
        assert!(capture > other);
        let q = pos("b,b,10,40/b,b,b,b r 3 0");
        assert!(
            q.order_hint(Move::Step { from: 40, to: 43 })
                > q.order_hint(Move::Step { from: 10, to: 13 })
        );
    }

    #[test]
    fn move_codes_are_distinct_and_in_range() {
        let mut moves: Vec<Move> = (1..=6).map(Move::Roll).collect();
        moves.extend([Move::Enter, Move::Pass]);
        for from in 0..GOAL {
            for to in from + 1..=(from + 6).min(GOAL) {
                moves.push(Move::Step { from, to });
            }
        }
        let mut codes: Vec<u32> = moves.iter().map(|&m| Ludo::move_code(m)).collect();
        assert!(codes.iter().all(|&c| (c as usize) < Ludo::MOVE_CODES));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), moves.len());
    }

    /// Mean |estimate - exact| of P(Red wins) over every chance node of the solved game.
    fn mean_abs_error(solution: &crate::ludo::LudoSolution, pieces: u8) -> f64 {
        let values: Vec<u8> = std::iter::once(BASE).chain(0..=GOAL).collect();
        let mut sets: Vec<Vec<u8>> = Vec::new();
        for (i, &a) in values.iter().enumerate() {
            if pieces == 1 {
                sets.push(vec![a]);
            } else {
                sets.extend(values[i..].iter().map(|&b| vec![a, b]));
            }
        }
        let (mut total, mut count) = (0.0, 0u32);
        for red in &sets {
            for yellow in &sets {
                for side in [Player::First, Player::Second] {
                    for sixes in 0..3 {
                        let p = Ludo::from_parts(red, yellow, side, 0, sixes);
                        if p.node() == Node::Chance {
                            total += (p.red_win_estimate() - solution.value(&p)).abs();
                            count += 1;
                        }
                    }
                }
            }
        }
        total / f64::from(count)
    }

    #[test]
    fn the_estimate_is_close_to_the_exact_one_piece_values() {
        let solution = crate::ludo::LudoSolution::solve(1);
        let error = mean_abs_error(&solution, 1);
        // A regression pin on the fit, not a derived number: the network measured 0.015
        // (the race model it replaced 0.043), so a limit of 0.03 fails if the weights lose
        // much of their fit.
        assert!(error < 0.03, "{error}");
    }

    #[test]
    #[ignore = "solves the 2-piece game (half a minute in release)"]
    fn the_estimate_is_close_to_the_exact_two_piece_values() {
        let solution = crate::ludo::LudoSolution::solve(2);
        let error = mean_abs_error(&solution, 2);
        // A regression pin on the fit, as above: the network measured 0.0056 (the race
        // model 0.0380).
        assert!(error < 0.015, "{error}");
    }
}
