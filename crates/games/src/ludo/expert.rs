//! A rule-based "expert" Ludo player of the kind the Ludo literature uses as a baseline (a
//! fixed priority of aggressive, defensive and fast heuristics, no search).
//!
//! At a decision node it plays the legal move of the highest tier, breaking ties within a
//! tier as stated (ties are then impossible: two moves of one roll have different
//! destinations):
//! 1. **Capture**: the move that sends the most opponent progress back to base (the sum of
//!    `q + 1` over the captured pieces at progress `q`), then the larger destination.
//! 2. **Enter** a piece (`b-0`) on a 6.
//! 3. **Reach safety**: a destination that no opponent piece can hit with its next roll:
//!    a safe square, the home column, the goal, or a track square with no opponent piece
//!    1 to 6 squares behind it on the shared track and not 1 to 6 past the opponent's start
//!    square while the opponent has a piece in base (it could enter on a 6 and hit). Ties:
//!    first a piece that is in such danger where it stands, then the larger destination.
//! 4. **Progress**: the larger destination (the piece closest to the goal moves).
//!
//! When only `pass` is legal (or at a node that is not a decision node) it returns `pass`.

use super::board::threat;
use super::{Ludo, Move};
use quartet_core::game::{Game, MoveList};

/// The expert's move at the decision node `pos` (see the module documentation for the
/// exact priority); [`Move::Pass`] when that is the only move or `pos` is not a decision node.
pub fn expert_move(pos: &Ludo) -> Move {
    let mut moves = MoveList::new();
    pos.legal_moves(pos.side_to_move(), &mut moves);
    moves
        .into_iter()
        .max_by_key(|&m| rank(pos, m))
        .unwrap_or(Move::Pass)
}

/// Tiers of the priority, higher first.
const CAPTURE: u8 = 3;
const ENTER: u8 = 2;
const SAFETY: u8 = 1;
const PROGRESS: u8 = 0;

/// Whether an opponent piece could hit a piece of the mover at `p` with one roll (or with
/// the roll after entering on a 6).
fn in_danger(pos: &Ludo, p: u8) -> bool {
    let t = threat(p, pos.pieces(pos.side_to_move().other()));
    t.near > 0 || t.entering
}

/// The sort key of a legal move: (tier, first tie-break, destination).
fn rank(pos: &Ludo, m: Move) -> (u8, i32, u8) {
    match m {
        Move::Enter => (ENTER, 0, 0),
        Move::Step { from, to } => {
            let lost = pos.captured_progress(m);
            if lost > 0 {
                (CAPTURE, lost, to)
            } else if !in_danger(pos, to) {
                (SAFETY, i32::from(in_danger(pos, from)), to)
            } else {
                (PROGRESS, 0, to)
            }
        }
        Move::Pass | Move::Roll(_) => (PROGRESS, 0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::{Node, Player, RuleOptions};
    use quartet_core::notation::Notation;
    use rand::{RngExt, SeedableRng};

    fn expert(text: &str) -> String {
        let p = Ludo::parse_position(text, &RuleOptions::default()).expect(text);
        p.format_move(expert_move(&p))
    }

    #[test]
    fn a_capture_comes_first() {
        // 24-30 captures Yellow 4 (A30); b-0 and 10-16 are also legal.
        assert_eq!(expert("b,b,10,24/b,b,b,4 r 6 1"), "24-30");
        // 27-30 captures; 10-13 would reach a safe square.
        assert_eq!(expert("b,b,10,27/b,b,b,4 r 3 0"), "27-30");
    }

    #[test]
    fn the_capture_that_undoes_the_most_progress_wins() {
        // 27-30 hits Yellow 4 (5 pips); 40-43 hits Yellow 17 (18 pips).
        assert_eq!(expert("b,b,27,40/b,b,4,17 r 3 0"), "40-43");
        // 2-5 hits a pair at Yellow 31 (2 * 32); 40-43 hits Yellow 17 once (18).
        assert_eq!(expert("b,b,2,40/b,17,31,31 r 3 0"), "2-5");
    }

    #[test]
    fn entering_comes_before_safety_and_progress() {
        // 2-8 would reach a star.
        assert_eq!(expert("b,b,b,2/b,b,b,b r 6 1"), "b-0");
    }

    #[test]
    fn a_safe_square_or_the_home_column_comes_before_progress() {
        // 5-8 reaches a star; 30-33 (Yellow 7) could be hit by Yellow 3.
        assert_eq!(expert("b,b,5,30/b,b,b,3 r 3 0"), "5-8");
        // 48-51 enters the home column, rescuing Red 48 (Yellow 22, hit by Yellow 20); 5-8
        // also ends safe. Were the home column not safe, 5-8 would win on its tier.
        assert_eq!(expert("b,b,5,48/b,b,b,20 r 3 0"), "48-51");
    }

    #[test]
    fn a_square_out_of_reach_comes_before_progress() {
        // 20-22 (Yellow 48) has no Yellow piece behind it; 35-37 (Yellow 11) has Yellow 7.
        assert_eq!(expert("20,35,56,56/7,56,56,56 r 2 0"), "20-22");
    }

    #[test]
    fn the_enter_on_six_threat_counts_as_reach() {
        // 26-30 ends on Yellow 4, 4 past Yellow's start, with a Yellow piece in base: in reach.
        assert_eq!(expert("b,b,10,26/b,56,56,56 r 4 0"), "10-14");
        // With no Yellow piece in base both are safe, and the more advanced piece moves.
        assert_eq!(expert("b,b,10,26/55,56,56,56 r 4 0"), "26-30");
    }

    #[test]
    fn among_safe_moves_a_piece_in_danger_is_rescued_first() {
        // Red 5 (Yellow 31) can be hit by Yellow 28; 5-8 and 30-33 both end safe.
        assert_eq!(expert("b,b,5,30/28,56,56,56 r 3 0"), "5-8");
        // Without the threat the more advanced piece moves.
        assert_eq!(expert("b,b,5,30/35,56,56,56 r 3 0"), "30-33");
    }

    #[test]
    fn otherwise_the_most_advanced_piece_moves() {
        // 10-12 (Yellow 38) and 20-22 (Yellow 48) are both in reach (Yellow 35 and 44).
        assert_eq!(expert("b,b,10,20/35,44,56,56 r 2 0"), "20-22");
    }

    #[test]
    fn pass_when_nothing_else_is_legal_or_at_a_chance_node() {
        assert_eq!(expert("b,b,b,b/b,b,b,b r 3 0"), "pass");
        assert_eq!(expert("b,b,0,6/b,b,b,b r 6 3"), "pass");
        assert_eq!(expert("b,b,0,6/b,b,b,b r - 0"), "pass");
    }

    /// Plays one game; `expert_side` uses the expert, the other side a uniform random move.
    fn game_against_random(expert_side: Player, rng: &mut rand_chacha::ChaCha8Rng) -> bool {
        let mut p = Ludo::start(&RuleOptions::default());
        loop {
            let m = match p.node() {
                Node::Chance => Move::Roll(rng.random_range(1..=6)),
                Node::Turn(side) if side == expert_side => expert_move(&p),
                Node::Turn(side) => {
                    let mut moves = MoveList::new();
                    p.legal_moves(side, &mut moves);
                    moves[rng.random_range(0..moves.len())]
                }
                _ => return p.winner() == Some(expert_side),
            };
            p.play(m);
        }
    }

    #[test]
    fn the_expert_beats_a_random_player() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let games = 200;
        let wins = (0..games)
            .filter(|i| {
                let side = if i % 2 == 0 {
                    Player::First
                } else {
                    Player::Second
                };
                game_against_random(side, &mut rng)
            })
            .count();
        // A coin would win 100 +- 7; the expert wins about 90% (measured over 2000 games).
        assert!(wins > 140, "expert won {wins} of {games}");
    }
}
