//! Ludo's learned evaluation: a small network that estimates the probability that the side
//! to roll wins, inferred by this code on the search's hot path.
//!
//! **Inputs** (all sparse, each 0 or a count), seen from the side to roll ("us") against the
//! other ("them"), every piece in its owner's frame:
//! - one input per (us, value) and per (them, value), value `b` or `0..=55`, counting the
//!   pieces there ([`SINGLES`] each);
//! - one input per (us value, them value) pair, counting the pairs of pieces ([`PAIRS`]): how
//!   far apart two pieces are decides who can hit whom, and the pair also sees the race;
//! - one input each for one and two sixes already rolled this turn.
//!
//! Pieces at the goal have no input: they take no further part, so a 4-piece position with
//! two pieces of each side home has exactly the inputs of the 2-piece position of the other
//! two. Colours do not appear: the frames make the rules colour-symmetric.
//!
//! **Layers:** the shared shape of `quartet_core::eval::network`: the inputs' columns of the first
//! layer (at most 4 + 4 + 16 + 1) are summed into its hidden units, each unit goes through
//! a ReLU, and a weighted sum of the units is the logit of P(us wins).
//!
//! The weights are checked-in data (`net.bin`, written by `quartet tune --game ludo`; the
//! README's "Training the evaluations" gives the command), read once, at the first
//! evaluation. [`TRAINING`] declares the network to the trainer.

use super::{BASE, GOAL, Ludo, LudoSolution, MAX_PIECES};
use quartet_core::eval::network::{ExactNodes, Network, NetworkTraining};
use std::sync::LazyLock;

/// Piece values with an input: `b` and `0..=55` (the goal has none).
pub const VALUES: usize = GOAL as usize + 1;

/// Inputs per side for single pieces.
pub const SINGLES: usize = VALUES;

/// Inputs for pairs of pieces (one of us, one of them).
pub const PAIRS: usize = VALUES * VALUES;

/// The first input for pairs.
const PAIR_BASE: usize = 2 * SINGLES;

/// The inputs for one and for two sixes already rolled.
const SIXES_BASE: usize = PAIR_BASE + PAIRS;

/// All inputs.
pub const INPUTS: usize = SIXES_BASE + 2;

/// The most inputs one position sets (4 + 4 singles, 16 pairs, a sixes count).
pub const MAX_ACTIVE: usize = 25;

/// The first bytes of a weights file, with the format's version.
const MAGIC: &[u8; 8] = b"QLUDONN1";

/// The input index of a piece value (`b` is 0, progress `p` is `p + 1`).
fn slot(value: u8) -> usize {
    if value == BASE {
        0
    } else {
        usize::from(value) + 1
    }
}

/// The inputs a position sets, each listed once per count (a stack of two pieces lists its
/// input twice).
#[derive(Clone, Debug, Default)]
pub struct Active {
    inputs: [u16; MAX_ACTIVE],
    len: usize,
}

impl Active {
    /// The inputs of `pos` seen from its side to move (the side to roll at a chance node;
    /// a pending die is ignored).
    pub fn of(pos: &Ludo) -> Active {
        let us = pos.side_to_move();
        Active::from_pieces(pos.pieces(us), pos.pieces(us.other()), pos.sixes())
    }

    /// The inputs for our pieces `us`, theirs `them` (each in its own frame) and `sixes`
    /// already rolled (a count of 3 counts as 2).
    pub fn from_pieces(us: &[u8], them: &[u8], sixes: u8) -> Active {
        let mut a = Active::default();
        let mut theirs = [0usize; MAX_PIECES];
        let mut n = 0;
        for &t in them.iter().filter(|&&v| v != GOAL) {
            theirs[n] = slot(t);
            a.inputs[a.len] = (SINGLES + theirs[n]) as u16;
            a.len += 1;
            n += 1;
        }
        for &u in us.iter().filter(|&&v| v != GOAL) {
            let u = slot(u);
            a.inputs[a.len] = u as u16;
            a.len += 1;
            for &t in &theirs[..n] {
                a.inputs[a.len] = (PAIR_BASE + u * VALUES + t) as u16;
                a.len += 1;
            }
        }
        if sixes > 0 {
            a.inputs[a.len] = (SIXES_BASE + usize::from(sixes.min(2)) - 1) as u16;
            a.len += 1;
        }
        a
    }

    /// The input indices, with repeats.
    pub fn inputs(&self) -> &[u16] {
        &self.inputs[..self.len]
    }
}

/// Red's win probability `p` of a Ludo score, which is `round((2p - 1) * 10000)` (a search
/// score in a data file, or the static evaluation).
pub fn red_win_probability(score: i32) -> f32 {
    (score as f32 / 10_000.0 + 1.0) / 2.0
}

/// The chance nodes of the exactly solved `pieces`-piece game (1 or 2), for training.
pub fn exact_nodes(pieces: u8) -> Result<ExactNodes, String> {
    if !(1..=2).contains(&pieces) {
        return Err(format!(
            "only the 1- and 2-piece games are solved, not {pieces}"
        ));
    }
    let solution = LudoSolution::solve(pieces);
    let mut nodes = Vec::new();
    solution.for_each_chance_node(|mover, opponent, sixes, value| {
        let active = Active::from_pieces(mover, opponent, sixes);
        nodes.push((active.inputs().to_vec(), value as f32));
    });
    Ok(ExactNodes {
        nodes,
        seconds: solution.elapsed.as_secs_f64(),
    })
}

/// Ludo's network as `quartet tune` trains it (its `Evaluate::NETWORK`).
pub const TRAINING: NetworkTraining<Ludo> = NetworkTraining {
    magic: MAGIC,
    inputs: INPUTS,
    features: |pos| Active::of(pos).inputs().to_vec(),
    first_win_probability: red_win_probability,
    exact: Some(exact_nodes),
};

/// The weights in use, read from `net.bin` at the first evaluation.
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(include_bytes!("net.bin"), MAGIC, INPUTS)
        .expect("the checked-in net.bin is readable")
});

/// The network in use (the checked-in weights).
pub fn network() -> &'static Network {
    &NETWORK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_count_pieces_and_pairs_and_skip_the_goal() {
        // Us: b, 10, 10, 56; them: 3, 56, 56, 56; one six rolled.
        let a = Active::from_pieces(&[BASE, 10, 10, GOAL], &[3, GOAL, GOAL, GOAL], 1);
        let mut got = a.inputs().to_vec();
        got.sort_unstable();
        let pair = |u: usize, t: usize| (PAIR_BASE + u * VALUES + t) as u16;
        let mut want = vec![
            0,
            11,
            11,
            (SINGLES + 4) as u16,
            pair(0, 4),
            pair(11, 4),
            pair(11, 4),
            SIXES_BASE as u16,
        ];
        want.sort_unstable();
        assert_eq!(got, want);
    }

    #[test]
    fn two_pieces_home_each_leave_the_inputs_of_the_two_piece_game() {
        let four = Active::from_pieces(&[5, 20, GOAL, GOAL], &[BASE, 40, GOAL, GOAL], 0);
        let two = Active::from_pieces(&[5, 20], &[BASE, 40], 0);
        assert_eq!(four.inputs(), two.inputs());
    }

    #[test]
    fn a_score_is_read_as_reds_win_probability() {
        // score = round((2p - 1) * 10000): a certain win, an even game, a certain loss.
        assert_eq!(red_win_probability(10_000), 1.0);
        assert_eq!(red_win_probability(0), 0.5);
        assert_eq!(red_win_probability(-10_000), 0.0);
        assert_eq!(red_win_probability(5_000), 0.75);
    }

    #[test]
    fn only_the_small_games_are_solved_for_training() {
        assert!(exact_nodes(3).is_err());
        let one = exact_nodes(1).expect("the 1-piece game");
        assert!(!one.nodes.is_empty());
        assert!(one.nodes.iter().all(|(_, v)| (0.0..=1.0).contains(v)));
    }

    #[test]
    fn the_checked_in_weights_are_read() {
        assert_eq!(network().inputs(), INPUTS);
    }
}
