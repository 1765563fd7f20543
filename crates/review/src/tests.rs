//! The review's arithmetic on hand-made facts, and lichess's judgements against values
//! computed by hand from lichess's formulas (not from this code's output).

use super::decompose::{self, Played};
use super::facts::{Declaration, Facts, Outcome, Searched, Side, Value};
use super::judge::{self, Decision};
use super::report::{Mark, NodeKind};

fn searched(p: f64) -> Value {
    Value {
        p,
        certain: false,
        exact: false,
    }
}

fn outcomes(values: [Option<f64>; 6]) -> Vec<Outcome> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| Outcome {
            token: format!("r{}", i + 1),
            weight: 1,
            value: v.map(searched),
        })
        .collect()
}

fn tokens(words: &str) -> Vec<String> {
    words.split_whitespace().map(str::to_string).collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn dice_decisions_and_a_forced_move_add_up_to_the_result() {
    // Red rolls 3, moves b (the engine preferred a), Yellow passes (its only move), Yellow
    // rolls 2 and Red has won.
    let tokens = tokens("r3 b pass r2");
    let facts = vec![
        Facts::Chance {
            roller: Side::First,
            outcomes: outcomes([Some(0.2), Some(0.4), None, Some(0.6), Some(0.5), Some(0.3)]),
        },
        Facts::Turn {
            mover: Side::First,
            searched: Some(Searched {
                value: searched(0.55),
                best: Some("a".into()),
            }),
        },
        Facts::Turn {
            mover: Side::Second,
            searched: None,
        },
        Facts::Chance {
            roller: Side::Second,
            outcomes: outcomes([
                Some(0.9),
                None,
                Some(0.8),
                Some(0.7),
                Some(0.75),
                Some(0.85),
            ]),
        },
    ];
    let game = Played {
        tokens: &tokens,
        facts: &facts,
        last: Value::result(1.0),
        over: true,
        result: Some(1.0),
    };
    let review = decompose::review(&game, 3, 300).expect("a review");
    // By hand: V4 = 1; V3 = (0.9 + 1 + 0.8 + 0.7 + 0.75 + 0.85) / 6 = 5 / 6; V2 = V3 (a
    // forced move); V1 = 0.55 (the search); V0 = (0.2 + 0.4 + 0.55 + 0.6 + 0.5 + 0.3) / 6
    // = 2.55 / 6 = 0.425.
    assert!(close(review.start_value, 0.425));
    let p = &review.plies;
    assert_eq!(p.len(), 4);
    assert_eq!(p[0].node, NodeKind::Chance);
    assert!(close(p[0].luck.expect("luck"), 0.55 - 0.425));
    let map: Vec<f64> = p[0]
        .outcomes
        .as_ref()
        .expect("a map")
        .iter()
        .map(|o| o.value)
        .collect();
    assert_eq!(map, [0.2, 0.4, 0.55, 0.6, 0.5, 0.3]);
    // Red's move gained: the position after it is worth more than the search said.
    assert!(close(p[1].loss.expect("a loss"), 0.55 - 5.0 / 6.0));
    assert_eq!((p[1].mark, p[1].best.as_deref()), (None, Some("a")));
    assert!(p[2].forced && p[2].loss.is_none());
    assert!(close(p[2].value, 5.0 / 6.0));
    assert!(close(p[3].luck.expect("luck"), 1.0 - 5.0 / 6.0));
    assert!(p[3].exact && review.result == Some(1.0));
    // The identity: 0.425 + 0.125 + 1/6 - (0.55 - 5/6) + 0 = 1.
    let first = &review.sides.first;
    let second = &review.sides.second;
    let sum = review.start_value + review.luck - first.loss + second.loss;
    assert!(close(sum, 1.0), "{sum}");
    assert_eq!((first.decisions, second.decisions), (1, 0));
    // Each side's rolls, from its own view; the luck-adjusted result takes all luck away.
    assert!(close(first.luck, 0.125));
    assert!(close(second.luck, -(1.0 - 5.0 / 6.0)));
    let total = 0.125 + 1.0 / 6.0;
    assert!(close(
        first.luck_adjusted_result.expect("finished"),
        1.0 - total
    ));
    assert!(close(second.luck_adjusted_result.expect("finished"), total));
    assert_eq!(second.accuracy, None);
}

fn declaration(token: &str, probability: f64, value: f64) -> Declaration {
    Declaration {
        token: token.into(),
        probability,
        value: Some(value),
    }
}

#[test]
fn a_joint_turn_splits_into_two_ev_losses_and_the_mixing_luck() {
    let tokens = tokens("d/z");
    let facts = vec![Facts::Joint {
        value: searched(0.5),
        first: vec![
            declaration("a", 0.6, 0.5),
            declaration("c", 0.4, 0.5),
            declaration("d", 0.0, 0.3),
        ],
        second: vec![
            declaration("x", 0.5, 0.5),
            declaration("y", 0.5, 0.5),
            declaration("z", 0.0, 0.8),
        ],
        played: [0.3, 0.8],
    }];
    let game = Played {
        tokens: &tokens,
        facts: &facts,
        last: searched(0.45),
        over: false,
        result: None,
    };
    let review = decompose::review(&game, 2, 0).expect("a review");
    let ply = &review.plies[0];
    let (first, second) = (
        ply.first.as_ref().expect("first"),
        ply.second.as_ref().expect("second"),
    );
    // EV losses: 0.5 - 0.3 for the first player, 0.8 - 0.5 for the second (who minimises
    // the first player's score); the rest of the change 0.45 - 0.5 is the meeting's luck.
    assert!(close(first.loss, 0.2) && close(second.loss, 0.3));
    assert!(close(ply.luck.expect("luck"), -0.05 + 0.2 - 0.3));
    // Winning chances fell by 0.4 and 0.6: blunders both.
    assert_eq!(
        (first.mark, second.mark, ply.mark),
        (
            Some(Mark::Blunder),
            Some(Mark::Blunder),
            Some(Mark::Blunder)
        )
    );
    assert_eq!(ply.best.as_deref(), Some("a/x"));
    let sum = review.start_value + review.luck - review.sides.first.loss + review.sides.second.loss;
    assert!(
        close(sum, 0.45),
        "an unfinished game adds up to its last value: {sum}"
    );
    assert_eq!(review.result, None);
    assert_eq!(review.sides.first.luck_adjusted_result, None);
    // A declaration of the equilibrium's support is never marked, whatever its loss.
    let facts = vec![Facts::Joint {
        value: searched(0.5),
        first: vec![declaration("a", 1.0, 0.5)],
        second: vec![declaration("x", 1.0, 0.5)],
        played: [0.2, 0.5],
    }];
    let tokens = super::tests::tokens("a/x");
    let game = Played {
        tokens: &tokens,
        facts: &facts,
        last: searched(0.5),
        over: false,
        result: None,
    };
    let review = decompose::review(&game, 2, 0).expect("a review");
    assert_eq!(review.plies[0].mark, None);
}

#[test]
fn a_game_ended_outside_the_rules_ends_with_the_loser_s_step_to_the_result() {
    let tokens = tokens("m");
    let facts = vec![Facts::Turn {
        mover: Side::First,
        searched: Some(Searched {
            value: searched(0.7),
            best: Some("m".into()),
        }),
    }];
    // After m the first player stands at 80 % and resigns (0-1).
    let game = Played {
        tokens: &tokens,
        facts: &facts,
        last: searched(0.8),
        over: false,
        result: Some(0.0),
    };
    let review = decompose::review(&game, 1, 0).expect("a review");
    let end = &review.plies[1];
    assert_eq!((end.node, end.token.as_str()), (NodeKind::End, "(end)"));
    assert!(close(end.loss.expect("a loss"), 0.8));
    assert_eq!(end.mark, Some(Mark::Blunder));
    assert!(close(review.plies[0].loss.expect("a loss"), -0.1));
    assert_eq!(review.plies[0].mark, None, "the engine's choice");
    let sum = review.start_value + review.luck - review.sides.first.loss + review.sides.second.loss;
    assert!(close(sum, 0.0), "{sum}");
    assert_eq!(review.sides.first.decisions, 2);
}

#[test]
fn facts_that_do_not_fit_the_tokens_are_an_error() {
    let tokens = tokens("r9");
    let facts = vec![Facts::Chance {
        roller: Side::First,
        outcomes: outcomes([Some(0.5); 6]),
    }];
    let game = Played {
        tokens: &tokens,
        facts: &facts,
        last: searched(0.5),
        over: false,
        result: None,
    };
    assert!(decompose::review(&game, 0, 0).is_err());
    let game = Played { facts: &[], ..game };
    assert!(decompose::review(&game, 0, 0).is_err());
}

#[test]
fn marks_follow_lichess_s_thresholds_on_winning_chances() {
    // A loss of expected score is twice that on the -1..+1 winning chances.
    assert_eq!(judge::mark_of_loss(0.049), None);
    assert_eq!(judge::mark_of_loss(0.05), Some(Mark::Inaccuracy));
    assert_eq!(judge::mark_of_loss(0.099), Some(Mark::Inaccuracy));
    assert_eq!(judge::mark_of_loss(0.1), Some(Mark::Mistake));
    assert_eq!(judge::mark_of_loss(0.15), Some(Mark::Blunder));
    assert_eq!(judge::mark_of_loss(-0.3), None);
    let (before, after) = (searched(0.9), searched(0.2));
    assert_eq!(
        judge::mark(Side::First, before, after, 0.7, true),
        None,
        "the engine's choice"
    );
    assert_eq!(
        judge::mark(Side::First, before, after, 0.7, false),
        Some(Mark::Blunder)
    );
    // Into a forced loss from a position not lost by force: a blunder, however small.
    let lost = Value::result(0.0);
    assert_eq!(
        judge::mark(Side::First, searched(0.02), lost, 0.02, false),
        Some(Mark::Blunder)
    );
    assert_eq!(
        judge::mark(
            Side::Second,
            searched(0.98),
            Value::result(1.0),
            0.02,
            false
        ),
        Some(Mark::Blunder)
    );
    // From a forced loss to a forced loss: nothing was lost.
    assert_eq!(judge::mark(Side::First, lost, lost, 0.0, false), None);
}

#[test]
fn move_accuracy_is_lichess_s_formula() {
    // 103.1668100711649 e^(-0.04354415386753951 * 20) - 3.166924740191411 + 1, by hand:
    // e^-0.870883 = 0.418593, so 43.18495 - 2.16692 = 41.0180 (41.016818741 exactly).
    assert!((judge::move_accuracy(60.0, 40.0) - 41.016_818_741_417_126).abs() < 1e-9);
    // A drop of 10: e^-0.435442 = 0.647010, 66.7494 - 2.1669 = 64.5798.
    assert!((judge::move_accuracy(50.0, 40.0) - 64.579_828_453_720_67).abs() < 1e-9);
    assert!((judge::move_accuracy(55.0, 54.0) - 96.603_976_510_089_62).abs() < 1e-9);
    assert_eq!(judge::move_accuracy(50.0, 50.0), 100.0);
    assert_eq!(judge::move_accuracy(50.0, 70.0), 100.0);
    assert_eq!(judge::move_accuracy(100.0, 0.0), 0.0, "clamped at 0");
}

/// Decisions alternating first, second, ... over every ply of `curve`.
fn alternating(curve: &[f64]) -> Vec<Decision> {
    (0..curve.len() - 1)
        .map(|ply| {
            let side = if ply % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let view = |x: f64| if side == Side::First { x } else { 100.0 - x };
            Decision {
                ply,
                side,
                before: view(curve[ply]),
                after: view(curve[ply + 1]),
            }
        })
        .collect()
}

#[test]
fn game_accuracy_is_lila_s_weighted_and_harmonic_mean() {
    // Four plies, windows of 2 positions: weights 5, 10, 15 -> 12, 0 -> 0.5.
    // First: 50 -> 40 (64.5798, weight 5) and 60 -> 30 (25.7720, weight 12);
    // second (its view): 60 -> 40 (41.0168, weight 10) and 70 -> 70 (100, weight 0.5).
    let curve = [50.0, 40.0, 60.0, 30.0, 30.0];
    let decisions = alternating(&curve);
    let (a1, a2, a3): (f64, f64, f64) = (
        64.579_828_453_720_67,
        41.016_818_741_417_126,
        25.772_047_746_869_696,
    );
    let first = ((a1 * 5.0 + a3 * 12.0) / 17.0 + 2.0 / (1.0 / a1 + 1.0 / a3)) / 2.0;
    let second = ((a2 * 10.0 + 100.0 * 0.5) / 10.5 + 2.0 / (1.0 / a2 + 1.0 / 100.0)) / 2.0;
    // The same numbers, worked out: 37.01386 and 50.99924.
    assert!((first - 37.013_856_881_464_15).abs() < 1e-9);
    assert!((second - 50.999_243_710_633_365).abs() < 1e-9);
    let got = |side| judge::game_accuracy(&curve, &decisions, side).expect("decisions");
    assert!((got(Side::First) - first).abs() < 1e-9);
    assert!((got(Side::Second) - second).abs() < 1e-9);
    assert_eq!(judge::game_accuracy(&curve, &[], Side::First), None);
}

#[test]
fn game_accuracy_shares_the_first_window_as_lila_does() {
    // 34 plies: windows of 3 positions, the first shared by the first two moves. The
    // expected values were worked out with lila's gameAccuracy written out line by line
    // (AccuracyPercent.scala, Maths.scala) on this curve.
    let curve = [
        50.0, 55.266441, 60.196845, 62.639179, 61.107834, 46.128622, 40.715082, 39.282316,
        45.209453, 58.323422, 64.024811, 75.087586, 75.551884, 64.566253, 47.671742, 24.332119,
        22.827957, 35.455887, 57.001711, 77.536796, 77.917685, 74.704225, 61.644255, 47.073274,
        39.052948, 31.233432, 41.661299, 54.75536, 64.829873, 68.956551, 57.762027, 54.2078,
        51.500034, 51.461042, 54.081746,
    ];
    let decisions = alternating(&curve);
    let got = |side| judge::game_accuracy(&curve, &decisions, side).expect("decisions");
    assert!((got(Side::First) - 78.600_029_178_001_45).abs() < 1e-9);
    assert!((got(Side::Second) - 84.131_988_763_030_56).abs() < 1e-9);
}
