//! The review's arithmetic: one value per position, and each ply's change of value given to
//! exactly one of three places — the dice (luck), the first player's decisions or the
//! second player's (losses) — so that for every finished game
//!
//! `start_value + Σ luck − Σ first's losses + Σ second's losses = result`
//!
//! exactly (up to rounding): the sum telescopes, and the last value is the result itself.
//!
//! The value of each position (the first player's expected score):
//! - a finished game: its result; the last position of a game that ended outside the rules
//!   (adjudication, resignation, time) is followed by an `end` ply whose value is the result;
//! - a side's turn with a choice: the engine's search of it; with a single legal move: the
//!   value of the position after that move (a forced move is no decision);
//! - a chance node: the weighted mean of the values after each outcome (the outcome played
//!   has the next position's value, the others the engine's search of theirs), so that a
//!   roll's luck is gnubg's: the value after it less the expectation over the outcomes;
//! - a joint turn: the value of the matrix game, the first player's side searched.
//!
//! A decision's loss is its mover's drop of value; at a joint turn each side's loss is the
//! equilibrium value less its declaration's value against the other's equilibrium mix (the
//! EV loss), and what the two losses leave of the change is the luck of the meeting of the
//! two mixed strategies (zero on average under equilibrium play, as a die's luck is).

use super::facts::{Declaration, Facts, Side, Value};
use super::judge::{self, Decision};
use super::report::{
    GameReview, JointSide, Mark, Mover, NodeKind, OutcomeValue, Ply, SideSummary, Sides,
};

/// A game as played, with what the engine said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played<'a> {
    /// Every token played.
    pub tokens: &'a [String],
    /// What the engine said about the position before each token (one per token).
    pub facts: &'a [Facts],
    /// The value of the last position (its result when the rules ended the game).
    pub last: Value,
    /// Whether the rules ended the game at the last position.
    pub over: bool,
    /// The game's result for the first player (1, 0.5, 0), `None` while unfinished.
    pub result: Option<f64>,
}

/// The values of every position, start first (the last is [`Played::last`]). Error: the
/// facts do not fit the tokens.
pub fn values(game: &Played) -> Result<Vec<Value>, String> {
    if game.facts.len() != game.tokens.len() {
        return Err(format!(
            "{} facts for {} tokens",
            game.facts.len(),
            game.tokens.len()
        ));
    }
    let mut values = vec![game.last; game.tokens.len() + 1];
    for k in (0..game.tokens.len()).rev() {
        let next = values[k + 1];
        values[k] = match &game.facts[k] {
            Facts::Turn { searched: None, .. } => next,
            Facts::Turn {
                searched: Some(s), ..
            } => s.value,
            Facts::Chance { outcomes, .. } => {
                let mut sum = 0.0;
                let mut weights = 0.0;
                let (mut certain, mut exact) = (true, true);
                let mut played = false;
                for outcome in outcomes {
                    let value = if outcome.token == game.tokens[k] {
                        played = true;
                        next
                    } else {
                        outcome.value.ok_or_else(|| {
                            format!("ply {}: no value after '{}'", k + 1, outcome.token)
                        })?
                    };
                    sum += f64::from(outcome.weight) * value.p;
                    weights += f64::from(outcome.weight);
                    certain &= value.certain;
                    exact &= value.exact;
                }
                if !played || weights <= 0.0 {
                    return Err(format!(
                        "ply {}: '{}' is not an outcome of the chance node",
                        k + 1,
                        game.tokens[k]
                    ));
                }
                let p = sum / weights;
                Value {
                    p,
                    certain: certain && (p == 0.0 || p == 1.0),
                    exact,
                }
            }
            Facts::Joint { value, .. } => *value,
        };
    }
    Ok(values)
}

/// The review of `game`: its plies, luck, losses, marks and accuracies. `searches` and
/// `nodes` are copied into it. Error: the facts do not fit the tokens.
pub fn review(game: &Played, searches: u64, nodes: u64) -> Result<GameReview, String> {
    let values = values(game)?;
    let mut plies = Vec::with_capacity(game.tokens.len() + 1);
    let mut decisions = Vec::new();
    let mut sides = Sides::default();
    for (k, (token, facts)) in game.tokens.iter().zip(game.facts).enumerate() {
        let (before, after) = (values[k], values[k + 1]);
        let mut ply = Ply {
            ply: k + 1,
            token: token.clone(),
            node: NodeKind::Turn,
            mover: Mover::Both,
            value: after.p,
            exact: after.exact,
            best: None,
            forced: false,
            loss: None,
            luck: None,
            mark: None,
            outcomes: None,
            first: None,
            second: None,
        };
        match facts {
            Facts::Turn { mover, searched } => {
                ply.mover = (*mover).into();
                match searched {
                    None => {
                        ply.forced = true;
                        ply.best = Some(token.clone());
                    }
                    Some(s) => {
                        let loss = mover.view(before.p) - mover.view(after.p);
                        let best = s.best.as_deref() == Some(token.as_str());
                        ply.best = s.best.clone();
                        ply.loss = Some(loss);
                        ply.mark = judge::mark(*mover, before, after, loss, best);
                        decide(
                            &mut sides,
                            &mut decisions,
                            k,
                            *mover,
                            before.p,
                            loss,
                            ply.mark,
                        );
                    }
                }
            }
            Facts::Chance { roller, outcomes } => {
                let luck = after.p - before.p;
                ply.node = NodeKind::Chance;
                ply.mover = (*roller).into();
                ply.luck = Some(luck);
                side_mut(&mut sides, *roller).luck += roller.signed(luck);
                ply.outcomes = Some(
                    outcomes
                        .iter()
                        .map(|o| OutcomeValue {
                            token: o.token.clone(),
                            weight: o.weight,
                            value: if o.token == *token {
                                after.p
                            } else {
                                o.value.map_or(after.p, |v| v.p)
                            },
                        })
                        .collect(),
                );
            }
            Facts::Joint {
                value,
                first,
                second,
                played,
            } => {
                let (first_token, second_token) = token.split_once('/').unwrap_or((token, ""));
                let loss_first = value.p - played[0];
                let loss_second = played[1] - value.p;
                let luck = after.p - value.p + loss_first - loss_second;
                ply.node = NodeKind::Joint;
                ply.luck = Some(luck);
                ply.best = Some(format!("{}/{}", top(first), top(second)));
                let mut part = |side: Side, played: &str, loss: f64, policy: &[Declaration]| {
                    let in_support = policy
                        .iter()
                        .any(|d| d.token == played && d.probability > 0.0);
                    let mark = if in_support {
                        None
                    } else {
                        judge::mark_of_loss(loss)
                    };
                    decide(&mut sides, &mut decisions, k, side, value.p, loss, mark);
                    JointSide {
                        declaration: played.to_string(),
                        loss,
                        mark,
                        policy: policy.to_vec(),
                    }
                };
                let a = part(Side::First, first_token, loss_first, first);
                let b = part(Side::Second, second_token, loss_second, second);
                ply.mark = a.mark.max(b.mark);
                ply.first = Some(a);
                ply.second = Some(b);
            }
        }
        plies.push(ply);
    }
    let last = values[game.tokens.len()];
    let mut curve: Vec<f64> = values.iter().map(|v| 100.0 * v.p).collect();
    if let (Some(result), false) = (game.result, game.over) {
        // The end outside the rules: the side whose expected score fell gave it up.
        let mover = if result < last.p {
            Side::First
        } else {
            Side::Second
        };
        let loss = mover.view(last.p) - mover.view(result);
        // A resignation or an adjudication is judged by its size alone: it always ends
        // in a certain result, which is no forced loss found on the board.
        let mark = judge::mark_of_loss(loss);
        let k = game.tokens.len();
        decide(&mut sides, &mut decisions, k, mover, last.p, loss, mark);
        curve.push(100.0 * result);
        plies.push(Ply {
            ply: k + 1,
            token: "(end)".to_string(),
            node: NodeKind::End,
            mover: mover.into(),
            value: result,
            exact: true,
            best: None,
            forced: false,
            loss: Some(loss),
            luck: None,
            mark,
            outcomes: None,
            first: None,
            second: None,
        });
    }
    // `+ 0.0`: a sum of no luck is 0, not Rust's -0 of an empty f64 sum.
    let luck: f64 = plies.iter().filter_map(|p| p.luck).sum::<f64>() + 0.0;
    for side in [Side::First, Side::Second] {
        let summary = side_mut(&mut sides, side);
        summary.accuracy = judge::game_accuracy(&curve, &decisions, side);
        if summary.decisions > 0 {
            summary.average_loss = Some(summary.loss / summary.decisions as f64);
        }
        summary.luck_adjusted_result = game.result.map(|r| side.view(r) - side.signed(luck));
    }
    Ok(GameReview {
        start_value: values[0].p,
        start_exact: values[0].exact,
        result: game.result,
        luck,
        plies,
        sides,
        exact_positions: values.iter().filter(|v| v.exact).count(),
        searches,
        nodes,
    })
}

/// The most probable declaration of a policy (the first listed of the most probable).
fn top(policy: &[Declaration]) -> &str {
    policy
        .iter()
        .fold(None, |best: Option<&Declaration>, d| match best {
            Some(b) if b.probability >= d.probability => Some(b),
            _ => Some(d),
        })
        .map_or("", |d| d.token.as_str())
}

/// The summary of `side`.
fn side_mut(sides: &mut Sides, side: Side) -> &mut SideSummary {
    match side {
        Side::First => &mut sides.first,
        Side::Second => &mut sides.second,
    }
}

/// Counts one decision of `side` at ply index `k`: its loss, its mark and its accuracy's
/// entry (`before`: the first player's expected score before it).
fn decide(
    sides: &mut Sides,
    decisions: &mut Vec<Decision>,
    k: usize,
    side: Side,
    before: f64,
    loss: f64,
    mark: Option<Mark>,
) {
    let summary = side_mut(sides, side);
    summary.loss += loss;
    summary.decisions += 1;
    match mark {
        Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
        Some(Mark::Mistake) => summary.mistakes += 1,
        Some(Mark::Blunder) => summary.blunders += 1,
        None => {}
    }
    let before = 100.0 * side.view(before);
    decisions.push(Decision {
        ply: k,
        side,
        before,
        after: before - 100.0 * loss,
    });
}
