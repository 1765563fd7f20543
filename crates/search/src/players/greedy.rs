//! The `greedy` player: the action whose resulting position is best one ply deep by the
//! static evaluation (a finished game by [`Evaluate::terminal_value`], so wins come first).
//! It takes immediate wins but cannot see a threat one ply beyond.

use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, MoveList, Node, Player};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The greedy action at `pos`, with ties broken by a generator seeded with `seed`.
///
/// - At `Turn(p)`: the move maximising `p`'s one-ply value of the resulting position.
/// - At a `Simultaneous` node for `side`: the declaration maximising the mean, over the
///   opponent's legal declarations, of `side`'s one-ply value of the joint turn. When
///   there are more than [`MAX_JOINT`] joint turns (R&B's joint setup), the mean is over
///   a sample of the opponent's declarations drawn with `seed`, as many as keep the
///   evaluations within [`MAX_JOINT`].
/// - `None` at chance and terminal nodes, at a simultaneous node without a side, and when
///   the mover has no legal move.
///
/// The one-ply value of a position reached by the move is its terminal value, or the
/// weighted mean over its outcomes when it is a chance node (each outcome's position valued
/// the same way without going further), or its static evaluation.
pub fn choose<G: Evaluate>(pos: &G, side: Option<Player>, seed: u64) -> Option<Action<G::Move>> {
    let mut moves = MoveList::new();
    let mut outcomes = Vec::new();
    let (mover, values) = match (pos.node(), side) {
        (Node::Turn(p), _) => {
            pos.legal_moves(p, &mut moves);
            let values: Vec<f64> = moves
                .iter()
                .map(|&m| {
                    let mut child = pos.clone();
                    child.play(m);
                    after_move(&child, &mut outcomes)
                })
                .collect();
            (p, values)
        }
        (Node::Simultaneous, Some(p)) => {
            pos.legal_moves(p, &mut moves);
            let mut theirs = MoveList::new();
            pos.legal_moves(p.other(), &mut theirs);
            let budget = (MAX_JOINT / moves.len().max(1)).max(1);
            if theirs.len() > budget {
                let mut rng = ChaCha8Rng::seed_from_u64(seed ^ SAMPLE_STREAM);
                let sample = rand::seq::index::sample(&mut rng, theirs.len(), budget);
                theirs = sample.into_iter().map(|i| theirs[i]).collect();
            }
            let values = moves
                .iter()
                .map(|&mine| {
                    let sum: f64 = theirs
                        .iter()
                        .map(|&other| {
                            let mut child = pos.clone();
                            match p {
                                Player::First => child.play_joint(mine, other),
                                Player::Second => child.play_joint(other, mine),
                            }
                            after_move(&child, &mut outcomes)
                        })
                        .sum();
                    sum / theirs.len().max(1) as f64
                })
                .collect();
            (p, values)
        }
        _ => return None,
    };
    let sign = f64::from(mover.sign());
    let best = values
        .iter()
        .map(|v| v * sign)
        .fold(f64::NEG_INFINITY, f64::max);
    let ties: Vec<usize> = (0..values.len())
        .filter(|&i| values[i] * sign == best)
        .collect();
    if ties.is_empty() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Some(Action::Single(moves[ties[rng.random_range(0..ties.len())]]))
}

/// The most joint turns evaluated at a simultaneous node.
pub const MAX_JOINT: usize = 1_000_000;

/// What the sample of the opponent's declarations mixes into the seed, so that it is not
/// the draw that breaks ties.
const SAMPLE_STREAM: u64 = 0x6E65_6564_7953_4D50;

/// The one-ply value (first player's view) of `pos`, reached one ply below the root.
/// `outcomes` is a scratch buffer.
fn after_move<G: Evaluate>(pos: &G, outcomes: &mut Vec<(G::Move, u32)>) -> f64 {
    if pos.node() != Node::Chance {
        return leaf_value(pos, 1);
    }
    pos.chance_outcomes(outcomes);
    let mut total = 0.0;
    let mut sum = 0.0;
    for &(outcome, weight) in outcomes.iter() {
        let mut child = pos.clone();
        child.play(outcome);
        total += f64::from(weight);
        sum += f64::from(weight) * leaf_value(&child, 2);
    }
    if total > 0.0 { sum / total } else { 0.0 }
}

/// The terminal value of a finished game `ply` plies below the root, else the static
/// evaluation; first player's view.
fn leaf_value<G: Evaluate>(pos: &G, ply: u32) -> f64 {
    match pos.node() {
        Node::Terminal(outcome) => f64::from(pos.terminal_value(outcome, ply)),
        _ => f64::from(pos.evaluate()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::eval::for_player;
    use quartet_core::game::Game;
    use quartet_testkit::toys::{DiceRace, TicTacToe};
    use quartet_testkit::toys::{GAMBLE, Gamble, Goofspiel, SAFE, dominant, matching_pennies};
    use std::collections::HashSet;

    fn ttt(moves: &[u8]) -> TicTacToe {
        let mut pos = TicTacToe::new();
        for &m in moves {
            pos.play(m);
        }
        pos
    }

    #[test]
    fn takes_an_immediate_win_for_either_side() {
        // X: 0 1 . / O: 3 4 . -> X wins with 2.
        let x_to_win = ttt(&[0, 3, 1, 4]);
        // X: 0 1 8, O: 3 4 -> O wins with 5 (X threatens 2 as well).
        let o_to_win = ttt(&[0, 3, 1, 4, 8]);
        for seed in 0..20 {
            assert_eq!(choose(&x_to_win, None, seed), Some(Action::Single(2)));
            assert_eq!(choose(&o_to_win, None, seed), Some(Action::Single(5)));
        }
    }

    #[test]
    fn without_a_win_plays_the_best_static_value_for_the_mover() {
        for pos in [ttt(&[]), ttt(&[4]), ttt(&[4, 0, 8])] {
            let Node::Turn(p) = pos.node() else {
                panic!("a turn node")
            };
            let value = |m: u8| {
                let mut c = pos.clone();
                c.play(m);
                for_player(c.evaluate(), p)
            };
            let mut legal = Vec::new();
            pos.legal_moves(p, &mut legal);
            let best = legal.iter().map(|&m| value(m)).max().expect("moves");
            let Some(Action::Single(m)) = choose(&pos, None, 7) else {
                panic!("a single move")
            };
            assert_eq!(value(m), best, "{pos:?}");
        }
    }

    #[test]
    fn breaks_ties_with_the_seed() {
        // Both declarations of matching pennies average to 0 for either side.
        let pos = matching_pennies();
        for side in [Player::First, Player::Second] {
            let seen: HashSet<_> = (0..40).map(|seed| choose(&pos, Some(side), seed)).collect();
            assert_eq!(
                seen,
                [Some(Action::Single(0)), Some(Action::Single(1))].into()
            );
        }
    }

    #[test]
    fn at_a_simultaneous_node_plays_the_best_average_declaration() {
        let pos = dominant();
        for side in [Player::First, Player::Second] {
            assert_eq!(choose(&pos, Some(side), 1), Some(Action::Single(2)));
        }
        assert_eq!(choose(&pos, None, 1), None);
        // Goofspiel with 3 cards, prize 3 first; the static value is 100 per point ahead.
        // Against each of the opponent's cards 1, 2, 3: card 3 scores +3, +3, 0 (mean +2),
        // card 2 scores +3, 0, -3 (mean 0), card 1 scores 0, -3, -3 (mean -2).
        let goof = Goofspiel::new(3);
        assert_eq!(
            choose(&goof, Some(Player::First), 0),
            Some(Action::Single(2))
        );
        assert_eq!(
            choose(&goof, Some(Player::Second), 0),
            Some(Action::Single(2))
        );
    }

    #[test]
    fn looks_past_the_die_by_weight() {
        // After the gamble: a win with weight 1 against a loss with weight 3 is worse than
        // the safe +15 on average, although the static value of the gamble is +500.
        assert_eq!(
            choose(&Gamble::new(1, 3), None, 0),
            Some(Action::Single(SAFE))
        );
        assert_eq!(
            choose(&Gamble::new(3, 1), None, 0),
            Some(Action::Single(GAMBLE))
        );
        assert_eq!(
            choose(&Gamble::new(1, 1), None, 0),
            Some(Action::Single(SAFE))
        );
    }

    #[test]
    fn plays_only_at_decision_nodes() {
        assert_eq!(choose(&DiceRace::new(), Some(Player::First), 0), None);
        assert_eq!(choose(&ttt(&[0, 3, 1, 4, 2]), None, 0), None);
    }
}
