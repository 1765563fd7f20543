//! The three capture rules of 1.5: the run test (same-tribe pair, king pair) and the
//! Dual test, along the four orthogonal lines through the moved piece's new square.

use super::geometry::{Bitboard, ORTHOGONAL, Square};
use super::pieces::Piece;
use super::position::Rnb;
use quartet_core::game::Player;

impl Rnb {
    /// The enemy pieces that `mover` (a piece of `side`) captures by arriving on `to`.
    ///
    /// Valid before or after the move is made on the board: the square the mover left is
    /// adjacent to `to`, so it is never the far end of a run (at least two squares away)
    /// nor the Dual partner (two squares away), and a run or Dual victim is an enemy piece.
    #[inline]
    pub(super) fn captures(&self, side: Player, mover: Piece, to: Square) -> Bitboard {
        let own = self.sides[side.index()];
        let enemy = self.sides[side.other().index()];
        // Own pieces that close a run with this mover (rules 1 and 3), and for a soldier
        // of colour X the Dual shape: enemy non-X piece next to `to`, enemy X soldier beyond.
        let (partners, dual_victims, dual_partners) = match mover {
            Piece::King => (own & !self.kings, 0, 0),
            Piece::Soldier(colour) => {
                let same = self.colour(colour);
                (
                    own & (same | self.kings),
                    enemy & !same,
                    enemy & self.colour(colour),
                )
            }
        };
        let mut taken = 0;
        for dir in ORTHOGONAL {
            let next = dir.shift(to.bit());
            let mut run = 0;
            let mut end = next;
            while end & enemy != 0 {
                run |= end;
                end = dir.shift(end);
            }
            if end & partners != 0 {
                taken |= run;
            }
            if next & dual_victims != 0 && dir.shift(next) & dual_partners != 0 {
                taken |= next;
            }
        }
        taken
    }

    /// The pieces that step `m` = (`from`, `to`) of the side to move would capture.
    pub(super) fn step_captures(&self, from: Square, to: Square) -> Bitboard {
        self.captures(self.to_move, self.kind_at(from), to)
    }
}

#[cfg(test)]
mod tests {
    //! Capture rules beyond the worked examples (those are in `examples.rs`).
    use super::super::Rnb;
    use super::super::geometry::Square;
    use quartet_core::game::{Game, Node, Outcome, Player, RuleOptions};
    use quartet_core::notation::Notation;

    /// Plays `token` from `before` and checks the resulting position string.
    fn after(before: &str, token: &str, expected: &str) {
        let mut pos = Rnb::parse_position(before, &RuleOptions::default()).unwrap();
        let action = pos.parse_action(token).unwrap();
        pos.try_apply(action).unwrap();
        assert_eq!(pos.format_position(), expected, "{before} {token}");
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }

    #[test]
    fn same_tribe_pair_takes_a_long_run_of_mixed_pieces() {
        // R a3, then r b b on b3–d3; R arrives on e3 and takes all three.
        after(
            "2k3/6/4R1/Rrbb2/6/3K2 s 0000 7",
            "e4e3",
            "2k3/6/6/R3R1/6/3K2 n 0000 0",
        );
    }

    #[test]
    fn a_run_with_a_gap_or_reaching_the_edge_takes_nothing() {
        // b3 r, c3 empty, d3 b: R arrives e3 with a run of one (d3) ended by the empty c3.
        after(
            "2k3/6/4R1/Rr1b2/6/3K2 s 0000 7",
            "e4e3",
            "2k3/6/6/Rr1bR1/6/3K2 n 0000 8",
        );
        // Run d3 e3 f3 reaches the edge: no partner.
        after(
            "2k3/6/2R3/3rbr/6/3K2 s 0000 7",
            "c4c3",
            "2k3/6/6/2Rrbr/6/3K2 n 0000 8",
        );
    }

    #[test]
    fn black_pair_and_black_dual_work_like_red() {
        after(
            "2k3/6/3B2/Brr3/6/3K2 s 0000 0",
            "d4d3",
            "2k3/6/6/B2B2/6/3K2 n 0000 0",
        );
        // B arrives c3; b3 enemy r (not black) between it and enemy b on a3: Dual.
        after(
            "2k3/6/2B3/br4/6/3K2 s 0000 0",
            "c4c3",
            "2k3/6/6/b1B3/6/3K2 n 0000 0",
        );
    }

    #[test]
    fn the_king_as_mover_pairs_with_an_own_soldier() {
        // K arrives on c3; r and b on d3–e3, own R on f3.
        after(
            "2k3/6/6/3rbR/2K3/6 s 0000 3",
            "c2c3",
            "2k3/6/6/2K2R/6/6 n 0000 0",
        );
    }

    #[test]
    fn red_and_black_never_pair() {
        // Own R arrives c3, own B on f3: red+black around d3 e3 takes nothing.
        after(
            "2k3/6/2R3/3rrB/6/3K2 s 0000 0",
            "c4c3",
            "2k3/6/6/2RrrB/6/3K2 n 0000 1",
        );
    }

    #[test]
    fn captures_in_several_directions_are_taken_together() {
        // R arrives c3: west b3 r + a3 R (pair), north c4 b + c5 R (pair), east d3 b + e3 r (Dual).
        after(
            "2k3/2R3/2b3/Rr1br1/2R3/3K2 s 0000 9",
            "c2c3",
            "2k3/2R3/6/R1R1r1/6/3K2 n 0000 0",
        );
    }

    #[test]
    fn standing_sandwiches_never_capture_and_only_the_moved_piece_captures() {
        // b3 already stands between R a3 and R c3; S moves its king elsewhere: nothing happens.
        after(
            "2k3/6/6/RbR3/6/3K2 s 0000 4",
            "d1e1",
            "2k3/6/6/RbR3/6/4K1 n 0000 5",
        );
        // N moves r next to S pieces: the mover is N, so N captures, never S.
        after(
            "2k3/6/6/R1R3/1r4/3K2 n 0000 4",
            "b2b3",
            "2k3/6/6/RrR3/6/3K2 s 0000 5",
        );
    }

    #[test]
    fn a_king_can_be_taken_by_a_run_and_the_mover_then_wins() {
        let mut pos =
            Rnb::parse_position("6/6/6/Rk1R2/6/3K2 s 0000 0", &RuleOptions::default()).unwrap();
        let action = pos.parse_action("d3c3").unwrap();
        pos.try_apply(action).unwrap();
        assert_eq!(pos.node(), Node::Terminal(Outcome::Win(Player::First)));
        assert_eq!(pos.format_position(), "6/6/6/R1R3/6/3K2 n 0000 0");
    }

    #[test]
    fn a_placement_never_captures() {
        // Only possible with an enemy soldier inside the zone, which no legal game (and no
        // accepted position string) has, so the position is built directly: N's r on b2
        // next to S's R on a2, and S places R on c2.
        let start = Rnb::start(&RuleOptions::default());
        let a2 = Square::new(0, 1).unwrap();
        let b2 = Square::new(1, 1).unwrap();
        let mut pos = Rnb::from_parts(
            [a2.bit() | start.sides[0], b2.bit() | start.sides[1]],
            a2.bit() | b2.bit(),
            start.kings,
            [[3, 4], [3, 4]],
            Player::First,
            0,
            false,
        );
        let action = pos.parse_action("R@c2").unwrap();
        pos.try_apply(action).unwrap();
        assert!(pos.piece_at(b2).is_some(), "b2 survived the placement");
        assert_eq!(pos.format_position(), "2k3/6/6/6/RrR3/3K2 n 2434 0");
    }
}
