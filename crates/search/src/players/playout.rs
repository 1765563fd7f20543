//! Uniformly random playouts for MCTS, and the rewards they score: 1 / 0.5 / 0 for a win,
//! draw or loss of the first player, or the static evaluation mapped into [0, 1] when a
//! playout reaches its ply cap.

use quartet_core::eval::Evaluate;
use quartet_core::game::{MoveList, Node, Outcome, Player};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A playout that has not ended after this many plies (chance outcomes count) is scored
/// by the static evaluation of the position it reached.
pub(crate) const PLAYOUT_CAP: u32 = 4_000;

/// The evaluation difference at which [`eval_reward`] gives the first player 10 to 1
/// odds (the Elo logistic curve; a game's static evaluation counts ~100 per pawn).
const EVAL_ODDS_SCALE: f64 = 400.0;

/// The reward of a finished game for the first player.
pub(crate) fn outcome_reward(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win(Player::First) => 1.0,
        Outcome::Win(Player::Second) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// A static evaluation (first player's view) as an expected reward in (0, 1):
/// `1 / (1 + 10^(-e / 400))`, so 0 maps to 0.5 and the map is increasing.
pub(crate) fn eval_reward(evaluation: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-f64::from(evaluation) / EVAL_ODDS_SCALE))
}

/// Reusable buffers for playouts, so a playout does not allocate once they have grown.
pub(crate) struct Playout<G: Evaluate> {
    moves: MoveList<G::Move>,
    other: MoveList<G::Move>,
    outcomes: Vec<(G::Move, u32)>,
}

impl<G: Evaluate> Playout<G> {
    /// Empty buffers.
    pub(crate) fn new() -> Self {
        Playout {
            moves: MoveList::new(),
            other: MoveList::new(),
            outcomes: Vec::new(),
        }
    }

    /// Plays uniformly random legal actions from `pos` (chance outcomes by weight) to the
    /// end of the game or [`PLAYOUT_CAP`] plies, and returns the first player's reward.
    /// A decision node without legal moves (which a correct game never has) scores a draw.
    pub(crate) fn run(&mut self, pos: &mut G, rng: &mut ChaCha8Rng) -> f64 {
        for _ in 0..PLAYOUT_CAP {
            match pos.node() {
                Node::Terminal(outcome) => return outcome_reward(outcome),
                Node::Turn(p) => {
                    pos.legal_moves(p, &mut self.moves);
                    let Some(&m) = pick(&self.moves, rng) else {
                        return 0.5;
                    };
                    pos.play(m);
                }
                Node::Chance => {
                    pos.chance_outcomes(&mut self.outcomes);
                    let weights = self.outcomes.iter().map(|&(_, w)| w);
                    let Some(i) = weighted_index(weights, rng) else {
                        return 0.5;
                    };
                    pos.play(self.outcomes[i].0);
                }
                Node::Simultaneous => {
                    pos.legal_moves(Player::First, &mut self.moves);
                    pos.legal_moves(Player::Second, &mut self.other);
                    let (Some(&a), Some(&b)) = (pick(&self.moves, rng), pick(&self.other, rng))
                    else {
                        return 0.5;
                    };
                    pos.play_joint(a, b);
                }
            }
        }
        match pos.node() {
            Node::Terminal(outcome) => outcome_reward(outcome),
            _ => eval_reward(pos.evaluate()),
        }
    }
}

/// A uniformly random member of `moves`, `None` if it is empty.
fn pick<'a, M>(moves: &'a [M], rng: &mut ChaCha8Rng) -> Option<&'a M> {
    if moves.is_empty() {
        None
    } else {
        moves.get(rng.random_range(0..moves.len()))
    }
}

/// The index of a weight drawn with probability proportional to it; `None` when the
/// weights sum to zero.
pub(crate) fn weighted_index(
    weights: impl Iterator<Item = u32> + Clone,
    rng: &mut ChaCha8Rng,
) -> Option<usize> {
    let total: u64 = weights.clone().map(u64::from).sum();
    if total == 0 {
        return None;
    }
    let mut r = rng.random_range(0..total);
    for (i, w) in weights.enumerate() {
        if r < u64::from(w) {
            return Some(i);
        }
        r -= u64::from(w);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::Game;
    use quartet_testkit::toys::Endless;
    use quartet_testkit::toys::{DiceRace, TicTacToe};
    use rand::SeedableRng;

    #[test]
    fn eval_reward_is_an_increasing_map_onto_the_unit_interval() {
        assert_eq!(eval_reward(0), 0.5);
        assert!((eval_reward(400) - 10.0 / 11.0).abs() < 1e-12);
        assert!((eval_reward(-400) - 1.0 / 11.0).abs() < 1e-12);
        let mut last = 0.0;
        for e in (-20_000..=20_000).step_by(250) {
            let r = eval_reward(e);
            assert!((0.0..=1.0).contains(&r) && r >= last, "{e}: {r}");
            last = r;
        }
    }

    #[test]
    fn sampling_follows_the_weights() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let weights = [1, 2, 0, 1];
        let mut counts = [0u32; 4];
        for _ in 0..40_000 {
            let i = weighted_index(weights.into_iter(), &mut rng).expect("positive total");
            counts[i] += 1;
        }
        assert_eq!(counts[2], 0);
        for (i, expect) in [(0, 10_000.0), (1, 20_000.0), (3, 10_000.0)] {
            let got = f64::from(counts[i]);
            assert!((got - expect).abs() < 600.0, "{counts:?}");
        }
        assert_eq!(weighted_index([0].into_iter(), &mut rng), None);
        assert_eq!(weighted_index([].into_iter(), &mut rng), None);
    }

    #[test]
    fn playouts_end_games_with_their_outcome() {
        let mut playout = Playout::new();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let mut seen = [0u32; 3];
        for _ in 0..300 {
            let mut pos = TicTacToe::new();
            let r = playout.run(&mut pos, &mut rng);
            let Node::Terminal(outcome) = pos.node() else {
                panic!("tic-tac-toe ends within the cap")
            };
            assert_eq!(r, outcome_reward(outcome));
            seen[(r * 2.0) as usize] += 1;
        }
        assert!(
            seen.iter().all(|&n| n > 0),
            "wins, draws and losses: {seen:?}"
        );
        let mut playout = Playout::new();
        for _ in 0..100 {
            let mut pos = DiceRace::new();
            let r = playout.run(&mut pos, &mut rng);
            assert!(matches!(pos.node(), Node::Terminal(_)) && (r == 0.0 || r == 1.0));
        }
    }

    #[test]
    fn a_capped_playout_scores_the_static_evaluation() {
        let mut pos = Endless { plies: 0 };
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let r = Playout::new().run(&mut pos, &mut rng);
        assert_eq!(pos.plies, PLAYOUT_CAP);
        assert_eq!(r, eval_reward(Endless::EVAL));
    }
}
