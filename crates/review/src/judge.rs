//! lichess's judgements, on the first player's expected score P (0..1), whose winning
//! chances on lichess's −1..+1 scale are `2P − 1` and whose WinPercent is `100 P`:
//!
//! - marks (lila `Advice.scala`, `winningChanceJudgements`): a decision that lowers its
//!   mover's winning chances by 0.3, 0.2 or 0.1 is a blunder `??`, a mistake `?` or an
//!   inaccuracy `?!` (the first row whose threshold the drop reaches); a move into a forced
//!   loss from a position that was not lost by force is a blunder (`MateAdvice`); the
//!   engine's own choice is never marked;
//! - a move's accuracy (lila `AccuracyPercent.fromWinPercents`): 100 when the mover's
//!   WinPercent did not fall, else `103.1668100711649 e^(−0.04354415386753951 Δ) −
//!   3.166924740191411 + 1` clamped to 0..100;
//! - a side's game accuracy (lila `AccuracyPercent.gameAccuracy`): the mean of the
//!   volatility-weighted mean and the harmonic mean of its moves' accuracies, each move
//!   weighted by the population standard deviation of a window of the game's WinPercents
//!   (window size: the plies over 10, within 2..8; the first moves share the first window),
//!   clamped to 0.5..12.

use super::facts::{Side, Value};
use super::report::Mark;

/// lichess's thresholds on the drop of winning chances (−1..+1), most severe first.
pub const THRESHOLDS: [(f64, Mark); 3] = [
    (0.3, Mark::Blunder),
    (0.2, Mark::Mistake),
    (0.1, Mark::Inaccuracy),
];

/// The mark of a decision by `mover` whose loss (in expected score, its view) is `loss`,
/// from `before` to `after`; `None` when the move played is the engine's choice (`best`).
pub fn mark(mover: Side, before: Value, after: Value, loss: f64, best: bool) -> Option<Mark> {
    if best {
        return None;
    }
    if after.lost_for(mover) && !before.lost_for(mover) {
        return Some(Mark::Blunder);
    }
    mark_of_loss(loss)
}

/// The mark of a loss in expected score: its drop in winning chances is twice it.
pub fn mark_of_loss(loss: f64) -> Option<Mark> {
    let drop = 2.0 * loss;
    THRESHOLDS
        .iter()
        .find(|(threshold, _)| *threshold <= drop)
        .map(|&(_, mark)| mark)
}

/// lichess's accuracy of one move from the mover's WinPercent before and after it (0..100).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// One decision for the game accuracy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The index of its ply (0-based) in the game's curve: the curve's entry `ply` is the
    /// position before it, `ply + 1` the one after.
    pub ply: usize,
    /// Who decided.
    pub side: Side,
    /// The mover's WinPercent before the decision (0..100).
    pub before: f64,
    /// And after it (0..100).
    pub after: f64,
}

/// lila's game accuracy of `side` (0..100) over `decisions`, with the game's curve of
/// WinPercents (the first player's, one per position, start first); `None` without a
/// decision of the side.
pub fn game_accuracy(curve: &[f64], decisions: &[Decision], side: Side) -> Option<f64> {
    let plies = curve.len().saturating_sub(1);
    let size = (plies / 10).clamp(2, 8).min(curve.len());
    let weight = |ply: usize| {
        let start = (ply + 2).saturating_sub(size).min(curve.len() - size);
        standard_deviation(&curve[start..start + size]).clamp(0.5, 12.0)
    };
    let mine: Vec<(f64, f64)> = decisions
        .iter()
        .filter(|d| d.side == side)
        .map(|d| (move_accuracy(d.before, d.after), weight(d.ply)))
        .collect();
    if mine.is_empty() {
        return None;
    }
    let total_weight: f64 = mine.iter().map(|&(_, w)| w).sum();
    let weighted = mine.iter().map(|&(a, w)| a * w).sum::<f64>() / total_weight;
    let harmonic = mine.len() as f64 / mine.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// The population standard deviation (lila `Maths.standardDeviation`).
fn standard_deviation(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}
