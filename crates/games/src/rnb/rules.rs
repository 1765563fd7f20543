//! `Game` for R&B: an alternating, deterministic game without chance, with one joint turn
//! (the setup) under `Placement together`.

use super::arrangement;
use super::moves::Move;
use super::position::Rnb;
use quartet_core::game::{EndReason, Game, MoveList, Node, Player};

impl Game for Rnb {
    type Move = Move;

    /// `Simultaneous` at the joint setup, `Terminal` when rule 1.6 ends the game
    /// (repetition excepted), else the side to move.
    fn node(&self) -> Node {
        if self.setup {
            return Node::Simultaneous;
        }
        match self.verdict() {
            Some(outcome) => Node::Terminal(outcome),
            None => Node::Turn(self.to_move),
        }
    }

    fn end_reason(&self) -> Option<EndReason> {
        if self.setup {
            return None;
        }
        self.verdict_why().map(|(_, why)| why)
    }

    /// At the joint setup, every arrangement of `p` (in the order of their ranks, see
    /// `arrangement::generate`). Otherwise placements (red first, then black, each by
    /// square) or steps (by origin, then destination) of `p`; empty unless `p` is to move
    /// in an unfinished game.
    fn legal_moves(&self, p: Player, out: &mut MoveList<Move>) {
        out.clear();
        if self.setup {
            arrangement::generate(p, |a| out.push(Move::Arrange(a)));
        } else if p == self.to_move && self.verdict().is_none() {
            self.generate(out);
        }
    }

    fn play(&mut self, m: Move) {
        self.play_move(m);
    }

    /// The joint setup: South's arrangement, then North's (anything else does nothing).
    fn play_joint(&mut self, first: Move, second: Move) {
        if let (Move::Arrange(south), Move::Arrange(north)) = (first, second) {
            self.play_setup(south, north);
        }
    }

    /// Covers the board, both hands, the side to move and the joint-setup flag; not the
    /// quiet-ply counter.
    fn hash(&self) -> u64 {
        self.hash
    }

    /// `Some(quiet plies)` in the movement phase (a capture or a placement is
    /// irreversible and restarts the history); `Some(0)` during placement, where no
    /// position can repeat.
    fn repetition_window(&self) -> Option<u32> {
        if self.in_placement() {
            Some(0)
        } else {
            Some(u32::from(self.quiet_plies))
        }
    }

    /// Bulk count: a product (placements, and the joint setup's pairs of arrangements) or
    /// a sum of popcounts (steps); 0 when finished.
    fn count_children(&self) -> u64 {
        self.children()
    }
}

#[cfg(test)]
mod tests {
    //! One test per rule of §1 not already covered by the worked examples (`examples.rs`)
    //! or the capture tests (`capture.rs`).
    use super::super::{Colour, Move, Rnb};
    use quartet_core::game::{Action, Game, Node, Outcome, Player, RuleOptions};
    use quartet_core::notation::{Notation, NotationError};

    fn parse(text: &str) -> Rnb {
        Rnb::parse_position(text, &RuleOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    fn play(pos: &mut Rnb, tokens: &str) {
        for token in tokens.split_whitespace() {
            let action = pos.parse_action(token).unwrap_or_else(|e| panic!("{e}"));
            pos.try_apply(action).unwrap();
        }
    }

    fn moves(pos: &Rnb) -> Vec<Move> {
        let mut out = Vec::new();
        pos.legal_moves(pos.side_to_move(), &mut out);
        out
    }

    #[test]
    fn placements_alternate_south_first_and_draw_the_colour_from_the_hand() {
        let mut pos = Rnb::start(&RuleOptions::default());
        assert_eq!(pos.node(), Node::Turn(Player::First));
        play(&mut pos, "R@a2");
        assert_eq!(pos.node(), Node::Turn(Player::Second));
        assert_eq!(pos.hand(Player::First, Colour::Red), 3);
        play(&mut pos, "r@a5 R@b2 r@b5 R@c2 r@c5 R@e2");
        assert_eq!(pos.format_position(), "2k3/rrr3/6/6/RRR1R1/3K2 n 0414 0");
        play(&mut pos, "r@e5");
        // South's reds are all placed: 7 empty zone squares, black only.
        let left = moves(&pos);
        assert_eq!(left.len(), 7);
        assert!(left.iter().all(|m| matches!(
            m,
            Move::Place {
                colour: Colour::Black,
                ..
            }
        )));
        assert!(matches!(
            pos.parse_action("R@f2"),
            Err(NotationError::Illegal { .. })
        ));
    }

    #[test]
    fn sixteen_placements_lead_to_the_movement_phase_with_south_to_move() {
        let mut pos = Rnb::start(&RuleOptions::default());
        play(
            &mut pos,
            "R@a2 r@a5 R@b2 r@b5 R@e2 r@e5 R@f2 r@f5 B@a1 b@a6 B@b1 b@b6 B@e1 b@e6 B@f1 b@f6",
        );
        assert_eq!(
            pos.format_position(),
            "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0"
        );
        assert!(!pos.in_placement());
        assert_eq!(pos.node(), Node::Turn(Player::First));
        // Steps by hand: b1 2, d1 3, e1 1, a2 2, b2 5, e2 4, f2 2; a1 and f1 are boxed in.
        let steps = moves(&pos);
        assert_eq!(steps.len(), 19);
        assert!(steps.iter().all(|m| matches!(m, Move::Step { .. })));
        assert_eq!(pos.count_children(), 19);
    }

    #[test]
    fn a_step_goes_one_square_in_eight_directions_onto_empty_squares_only() {
        let pos = parse("2k3/6/6/2K3/6/6 s 0000 0");
        assert_eq!(moves(&pos).len(), 8);
        // K c3 next to its own R d3 and an enemy r b4: both squares are closed to it.
        let pos = parse("2k3/6/1r4/2KR2/6/6 s 0000 0");
        assert_eq!(moves(&pos).len(), 6 + 7);
        for token in ["c3d3", "c3b4", "c3c5", "c3c3"] {
            assert!(pos.parse_action(token).is_err(), "{token}");
        }
    }

    #[test]
    fn the_line_rule_comes_before_entering_the_enemy_base() {
        let mut pos = parse("RB1RBR/2K3/6/6/6/k5 s 0000 0");
        play(&mut pos, "c5c6");
        assert_eq!(pos.node(), Node::Terminal(Outcome::Win(Player::Second)));
    }

    #[test]
    fn an_occupied_enemy_base_cannot_be_entered_and_a_soldier_on_it_wins_nothing() {
        let pos = parse("2k3/2K3/6/6/6/6 s 0000 0");
        assert!(matches!(
            pos.parse_action("c5c6"),
            Err(NotationError::Illegal { .. })
        ));
        let mut pos = parse("5k/2R3/6/6/6/3K2 s 0000 0");
        play(&mut pos, "c5c6");
        assert_eq!(pos.node(), Node::Turn(Player::Second));
    }

    #[test]
    fn no_legal_move_comes_before_the_quiet_ply_draw() {
        // R c5→b6 boxes the k on a6 in, without a capture, on the 100th quiet ply.
        let mut pos = parse("k5/RBR3/6/6/6/3K2 s 0000 99");
        play(&mut pos, "c5b6");
        assert_eq!(pos.format_position(), "kR4/RB4/6/6/6/3K2 n 0000 100");
        assert_eq!(pos.node(), Node::Terminal(Outcome::Win(Player::First)));
    }

    #[test]
    fn a_hundred_quiet_movement_plies_draw_unless_the_last_one_wins() {
        let mut pos = parse("2k3/6/6/6/6/3K2 s 0000 99");
        assert_eq!(pos.node(), Node::Turn(Player::First));
        play(&mut pos, "d1d2");
        assert_eq!(pos.node(), Node::Terminal(Outcome::Draw));
        assert_eq!(pos.actions(), vec![]);
        let mut pos = parse("5k/2K3/6/6/6/6 s 0000 99");
        play(&mut pos, "c5c6");
        assert_eq!(pos.node(), Node::Terminal(Outcome::Win(Player::First)));
    }

    #[test]
    fn the_counter_counts_quiet_movement_plies_and_a_capture_resets_it() {
        let mut pos = parse("2k3/6/3R2/Rrb3/6/3K2 s 0000 57");
        play(&mut pos, "d1e1");
        assert_eq!(pos.quiet_plies(), 58);
        play(&mut pos, "c6c5 d4d3");
        assert_eq!(pos.format_position(), "6/2k3/6/R2R2/6/4K1 n 0000 0");
        let mut pos = Rnb::start(&RuleOptions::default());
        play(&mut pos, "R@a2 b@f6");
        assert_eq!(pos.quiet_plies(), 0, "placements leave the counter alone");
    }

    #[test]
    fn a_bare_position_is_judged_with_the_side_not_to_move_as_the_last_actor() {
        let king_taken = parse("6/6/6/R1R3/6/3K2 n 0000 0");
        assert_eq!(
            king_taken.node(),
            Node::Terminal(Outcome::Win(Player::First))
        );
        let own_line = parse("2k3/6/6/6/6/RBRKBR n 0000 0");
        assert_eq!(
            own_line.node(),
            Node::Terminal(Outcome::Win(Player::Second))
        );
        let on_base = parse("2K3/6/6/6/6/k5 n 0000 3");
        assert_eq!(on_base.node(), Node::Terminal(Outcome::Win(Player::First)));
        let boxed = parse("kR4/RB4/6/6/6/3K2 n 0000 0");
        assert_eq!(boxed.node(), Node::Terminal(Outcome::Win(Player::First)));
        let quiet = parse("2k3/6/6/6/6/3K2 n 0000 100");
        assert_eq!(quiet.node(), Node::Terminal(Outcome::Draw));
    }

    #[test]
    fn a_finished_position_has_no_moves_and_only_the_side_to_move_has_moves() {
        let over = parse("6/6/6/R1R3/6/3K2 n 0000 0");
        let mut out = vec![Move::Step {
            from: super::super::geometry::base(Player::First),
            to: super::super::geometry::base(Player::Second),
        }];
        over.legal_moves(Player::Second, &mut out);
        assert!(out.is_empty());
        assert_eq!(over.count_children(), 0);
        let start = Rnb::start(&RuleOptions::default());
        start.legal_moves(Player::Second, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn repetition_window_restarts_at_placements_and_captures() {
        let mut pos = Rnb::start(&RuleOptions::default());
        assert_eq!(pos.repetition_window(), Some(0));
        play(&mut pos, "R@a2");
        assert_eq!(pos.repetition_window(), Some(0));
        let mut pos = parse("2k3/6/3R2/Rrb3/6/3K2 s 0000 7");
        assert_eq!(pos.repetition_window(), Some(7));
        let before = pos.hash();
        play(&mut pos, "d1d2 c6c5 d2d1 c5c6");
        assert_eq!(pos.repetition_window(), Some(11));
        assert_eq!(pos.hash(), before, "the same board and side: the same hash");
        play(&mut pos, "d4d3");
        assert_eq!(pos.repetition_window(), Some(0));
    }

    #[test]
    fn the_hash_covers_board_hands_and_side_but_not_the_counter() {
        let a = parse("2k3/6/6/6/6/3K2 s 0000 0");
        assert_eq!(a.hash(), parse("2k3/6/6/6/6/3K2 s 0000 42").hash());
        assert_ne!(a.hash(), parse("2k3/6/6/6/6/3K2 n 0000 0").hash());
        assert_ne!(a.hash(), parse("2k3/6/6/6/6/2K3 s 0000 0").hash());
        let red = parse("2k3/6/6/6/R5/3K2 n 3444 0");
        let black = parse("2k3/6/6/6/B5/3K2 n 4344 0");
        assert_ne!(red.hash(), black.hash());
    }

    #[test]
    fn positions_and_moves_stay_small_for_copy_make() {
        assert!(std::mem::size_of::<Rnb>() <= 48);
        // An arrangement (side and two 12-square masks) is the largest move.
        assert!(std::mem::size_of::<Move>() <= 6);
    }

    #[test]
    fn play_joint_and_chance_outcomes_are_inert_for_a_turn_game() {
        let start = Rnb::start(&RuleOptions::default());
        let mut outcomes = vec![];
        start.chance_outcomes(&mut outcomes);
        assert!(outcomes.is_empty());
        assert!(!start.is_legal(Action::Joint(
            Move::Place {
                colour: Colour::Red,
                to: super::super::geometry::base(Player::First)
            },
            Move::Place {
                colour: Colour::Red,
                to: super::super::geometry::base(Player::First)
            }
        )));
    }
}
