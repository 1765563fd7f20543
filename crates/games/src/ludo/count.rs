//! Counting moves without listing them (perft's last two plies): how many moves a pending
//! die allows, and how many the six rolls of a chance node allow together, from one pass
//! over the pieces. Each die value is a byte lane of a `u64`, so one addition per distinct
//! piece value counts it for all six rolls at once.

use super::rules::{SIX, VOID_SIXES};
use super::{BASE, GOAL, LAST_TRACK, Ludo, NO_VALUE, order_key};

/// The lanes of the six die values: byte `d − 1` stands for a roll of `d`.
const LANES: u64 = 0x0000_0101_0101_0101;

/// The lane of a roll of 6.
const SIX_LANE: u32 = 8 * (SIX as u32 - 1);

/// `REACH[order_key(v)]`: 1 in lane `d − 1` when a roll of `d` moves a piece at `v`: a six
/// from the base, any roll on the track, a roll that does not overshoot the goal in the
/// home column, none at the goal (nor at any other byte, so that an index needs no test).
static REACH: [u64; 256] = {
    let mut t = [0u64; 256];
    t[order_key(BASE) as usize] = 1 << SIX_LANE;
    let mut v = 0;
    while v <= GOAL {
        let rolls = if v <= LAST_TRACK { SIX } else { GOAL - v };
        t[order_key(v) as usize] = LANES & ((1u64 << (8 * rolls as u32)) - 1);
        v += 1;
    }
    t
};

/// The sum of a value's lanes (each below 128).
fn lane_sum(lanes: u64) -> u64 {
    lanes.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

impl Ludo {
    /// For each roll, the number of distinct piece values of the side to move that it moves
    /// (ignoring the void third six), one lane per roll.
    fn lanes(&self) -> u64 {
        let mut lanes = 0;
        let mut previous = NO_VALUE;
        for &v in self.pieces(self.side) {
            if previous != v {
                lanes += REACH[order_key(v) as usize];
            }
            previous = v;
        }
        lanes
    }

    /// The number of legal moves at a decision node: one per distinct piece value the
    /// pending die moves, or 1 (`pass`) when it moves none or is a void third six.
    pub(super) fn move_count(&self) -> u64 {
        if self.die == SIX && self.sixes >= VOID_SIXES {
            return 1;
        }
        ((self.lanes() >> (8 * (u32::from(self.die) - 1))) & 0xff).max(1)
    }

    /// The moves of the six rolls of a chance node together: each roll's
    /// [`Ludo::move_count`], the six void when it would be the third.
    pub(super) fn roll_move_count(&self) -> u64 {
        let mut lanes = self.lanes();
        if self.sixes + 1 >= VOID_SIXES {
            lanes = lanes & !(0xff << SIX_LANE) | 1 << SIX_LANE;
        }
        // A lane of 0 is a roll with only `pass`: one move.
        let moving = ((lanes + 0x7f * LANES) & (0x80 * LANES)) >> 7;
        lane_sum(lanes) + 6 - lane_sum(moving)
    }

    /// Whether the pending die lets the side to move win at once: its last piece off the
    /// goal is on the track or in the home column exactly `die` short of it (then that
    /// piece's move is the only legal one, since pieces at the goal never move).
    pub(super) fn wins_now(&self) -> bool {
        let pieces = self.pieces(self.side);
        let last_out = pieces.len() == 1 || pieces[1] == GOAL;
        let void = self.die == SIX && self.sixes >= VOID_SIXES;
        last_out && !void && pieces[0] != BASE && pieces[0] + self.die == GOAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ludo::Move;
    use quartet_core::game::{Game, MoveList, Node, Outcome, RuleOptions};
    use quartet_core::notation::Notation;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn reach_lanes_follow_the_rules() {
        assert_eq!(
            REACH[order_key(BASE) as usize],
            1 << 40,
            "only a six enters"
        );
        assert_eq!(REACH[order_key(0) as usize], LANES);
        assert_eq!(REACH[order_key(50) as usize], LANES);
        assert_eq!(REACH[order_key(51) as usize], 0x01_0101_0101, "1 to 5");
        assert_eq!(REACH[order_key(55) as usize], 0x01, "only 1");
        assert_eq!(REACH[order_key(GOAL) as usize], 0);
    }

    #[test]
    fn counts_equal_the_listed_moves_along_random_games() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut moves = MoveList::new();
        let mut out = Vec::new();
        let mut checked = 0;
        for pieces in 1..=4i64 {
            let rules = RuleOptions::default()
                .with(&crate::ludo::PIECES, pieces)
                .expect("a piece count in range");
            for _ in 0..40 {
                let mut p = Ludo::start(&rules);
                loop {
                    match p.node() {
                        Node::Terminal(_) => break,
                        Node::Chance => {
                            let mut want = 0;
                            for d in 1..=SIX {
                                let mut q = p.clone();
                                q.play(Move::Roll(d));
                                q.legal_moves(p.side_to_move(), &mut moves);
                                want += moves.len() as u64;
                            }
                            assert_eq!(p.roll_move_count(), want, "{}", p.format_position());
                            p.chance_outcomes(&mut out);
                            p.play(out[rng.random_range(0..out.len())].0);
                        }
                        Node::Turn(side) => {
                            p.legal_moves(side, &mut moves);
                            assert_eq!(p.move_count(), moves.len() as u64);
                            let wins = moves.iter().any(|&m| {
                                let mut q = p.clone();
                                q.play(m);
                                q.node() == Node::Terminal(Outcome::Win(side))
                            });
                            assert_eq!(p.wins_now(), wins, "{}", p.format_position());
                            p.play(moves[rng.random_range(0..moves.len())]);
                            checked += 1;
                        }
                        Node::Simultaneous => unreachable!("Ludo has no simultaneous node"),
                    }
                }
                assert!(p.winner().is_some());
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
