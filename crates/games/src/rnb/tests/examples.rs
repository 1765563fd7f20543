//! The worked examples of `docs/rules/rnb.md` §4, each as its own test, with the result
//! position strings and outcomes exactly as the rules file gives them.

use crate::rnb::Rnb;
use crate::rnb::geometry::Square;
use quartet_core::game::{Game, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;

const SOUTH_WINS: Node = Node::Terminal(Outcome::Win(Player::First));
const NORTH_WINS: Node = Node::Terminal(Outcome::Win(Player::Second));

/// Plays `token` from `position` through the checked path and returns the result.
fn play(position: &str, token: &str) -> Rnb {
    let mut pos =
        Rnb::parse_position(position, &RuleOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        pos.node(),
        Node::Turn(pos.side_to_move()),
        "{position} is live"
    );
    let action = pos.parse_action(token).unwrap_or_else(|e| panic!("{e}"));
    pos.try_apply(action).unwrap();
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "incremental hash");
    pos
}

/// Checks an example whose result is a live position given as a string.
fn example(position: &str, token: &str, result: &str) {
    let pos = play(position, token);
    assert_eq!(pos.format_position(), result, "{position} {token}");
    assert_eq!(pos.node(), Node::Turn(Player::Second));
}

fn square(name: &str) -> Square {
    let b = name.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'1').unwrap()
}

#[test]
fn example_01_same_tribe_pair_takes_two() {
    example(
        "2k3/6/3R2/Rrb3/6/3K2 s 0000 0",
        "d4d3",
        "2k3/6/6/R2R2/6/3K2 n 0000 0",
    );
}

#[test]
fn example_02_an_own_piece_between_blocks() {
    example(
        "2k3/6/3R2/RrB3/6/3K2 s 0000 0",
        "d4d3",
        "2k3/6/6/RrBR2/6/3K2 n 0000 1",
    );
}

#[test]
fn example_03_red_and_black_do_not_pair() {
    example(
        "2k3/6/2R3/Br4/6/3K2 s 0000 0",
        "c4c3",
        "2k3/6/6/BrR3/6/3K2 n 0000 1",
    );
}

#[test]
fn example_04_dual_takes_the_other_colour() {
    example(
        "2k3/6/2R3/rb4/6/3K2 s 0000 0",
        "c4c3",
        "2k3/6/6/r1R3/6/3K2 n 0000 0",
    );
}

#[test]
fn example_05_dual_takes_nothing_with_two_between() {
    example(
        "2k3/6/3R2/rbb3/6/3K2 s 0000 0",
        "d4d3",
        "2k3/6/6/rbbR2/6/3K2 n 0000 1",
    );
}

#[test]
fn example_06_dual_needs_the_other_colour_between() {
    example(
        "2k3/6/2R3/rr4/6/3K2 s 0000 0",
        "c4c3",
        "2k3/6/6/rrR3/6/3K2 n 0000 1",
    );
}

#[test]
fn example_07_dual_takes_the_king() {
    let pos = play("6/6/2R3/rk4/6/3K2 s 0000 0", "c4c3");
    assert_eq!(pos.piece_at(square("b3")), None, "the king on b3 is taken");
    assert_eq!(pos.node(), SOUTH_WINS);
}

#[test]
fn example_08_king_pair_takes_two() {
    example(
        "2k3/6/3B2/Krb3/6/6 s 0000 0",
        "d4d3",
        "2k3/6/6/K2B2/6/6 n 0000 0",
    );
}

#[test]
fn example_09_a_king_never_pairs_with_an_enemy() {
    example(
        "2k3/6/2K3/rb4/6/6 s 0000 0",
        "c4c3",
        "2k3/6/6/rbK3/6/6 n 0000 1",
    );
}

#[test]
fn example_10_stepping_between_two_enemies_is_safe() {
    example(
        "2k3/6/2B3/1r1r2/6/3K2 s 0000 0",
        "c4c3",
        "2k3/6/6/1rBr2/6/3K2 n 0000 1",
    );
}

#[test]
fn example_11_diagonals_never_capture() {
    example(
        "2k3/4R1/6/2b3/1R4/3K2 s 0000 0",
        "e5d4",
        "2k3/6/3R2/2b3/1R4/3K2 n 0000 1",
    );
}

#[test]
fn example_12_vertical_same_tribe_pair() {
    example(
        "2k3/3R2/6/2b3/2R3/3K2 s 0000 0",
        "d5c4",
        "2k3/6/2R3/6/2R3/3K2 n 0000 0",
    );
}

#[test]
fn example_13_a_full_rank_loses() {
    let pos = play("2k3/6/6/3R2/RBR1BR/3K2 s 0000 0", "d3d2");
    assert_eq!(pos.node(), NORTH_WINS);
}

#[test]
fn example_14_the_line_rule_comes_before_the_king_capture() {
    let pos = play("6/3R2/3k2/RBR1BB/3R2/3K2 s 0000 0", "d2d3");
    assert_eq!(
        pos.piece_at(square("d4")),
        None,
        "the king on d4 is taken too"
    );
    assert_eq!(pos.node(), NORTH_WINS);
}

#[test]
fn example_15_the_king_enters_the_empty_enemy_base() {
    let pos = play("5k/2K3/6/6/6/6 s 0000 0", "c5c6");
    assert_eq!(pos.node(), SOUTH_WINS);
}

#[test]
fn example_16_no_legal_move_loses() {
    let pos = Rnb::parse_position("kR4/RB4/6/6/6/3K2 n 0000 0", &RuleOptions::default()).unwrap();
    assert_eq!(pos.node(), SOUTH_WINS);
    assert_eq!(pos.actions(), vec![]);
}

#[test]
fn example_17_a_placement_that_fills_a_rank_loses() {
    let pos = play("2k3/rbrb2/6/6/6/RBRKB1 s 2222 0", "R@f1");
    assert_eq!(pos.node(), NORTH_WINS);
    let safe = play("2k3/rbrb2/6/6/6/RBRKB1 s 2222 0", "R@f2");
    assert_eq!(safe.node(), Node::Turn(Player::Second));
}

#[test]
fn twenty_two_placements_at_the_start() {
    let start = Rnb::start(&RuleOptions::default());
    assert_eq!(start.format_position(), "2k3/6/6/6/6/3K2 s 4444 0");
    assert_eq!(start.actions().len(), 22);
    assert_eq!(start.count_children(), 22);
}
