//! The worked examples of docs/rules/apocalypse.md §4 and §1.9, each one test, under both
//! `DoubleStep` settings (none of them involves a double step). Expected strings are the
//! rules file's.

use crate::apocalypse::Apocalypse;
use quartet_core::game::{Game, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;

const START: &str = "npppn/p3p/5/P3P/NPPPN 00 0";

pub(super) fn parse(text: &str, double_step: bool) -> Apocalypse {
    let rules = RuleOptions::default()
        .with(&crate::apocalypse::DOUBLE_STEP, i64::from(double_step))
        .expect("a check value");
    Apocalypse::parse_position(text, &rules).unwrap()
}

/// Plays the joint tokens from `start` through the checked path and returns the position.
pub(super) fn play(start: &str, turns: &[&str], double_step: bool) -> Apocalypse {
    let mut pos = parse(start, double_step);
    for token in turns {
        let action = pos.parse_action(token).unwrap();
        pos.try_apply(action).unwrap();
    }
    pos
}

/// Checks that `turns` from `start` give `expected` and `node`, under both settings.
pub(super) fn check(start: &str, turns: &[&str], expected: &str, node: Node) {
    for double_step in [true, false] {
        let pos = play(start, turns, double_step);
        assert_eq!(
            pos.format_position(),
            expected,
            "{start} {turns:?} DoubleStep={double_step}"
        );
        assert_eq!(
            pos.node(),
            node,
            "{start} {turns:?} DoubleStep={double_step}"
        );
        assert_eq!(pos.hash(), parse(expected, double_step).hash());
    }
}

pub(super) const GOES_ON: Node = Node::Simultaneous;
pub(super) const DRAW: Node = Node::Terminal(Outcome::Draw);
pub(super) const WHITE_WINS: Node = Node::Terminal(Outcome::Win(Player::First));
pub(super) const BLACK_WINS: Node = Node::Terminal(Outcome::Win(Player::Second));

#[test]
fn start_has_12_declarations_per_side_with_double_step_and_9_without() {
    for (double_step, count) in [(true, 12), (false, 9)] {
        let pos = parse(START, double_step);
        for p in [Player::First, Player::Second] {
            let mut moves = Vec::new();
            pos.legal_moves(p, &mut moves);
            assert_eq!(moves.len(), count, "{p:?} DoubleStep={double_step}");
        }
        assert_eq!(pos.count_children(), (count * count) as u64);
    }
    let pos = parse(START, true);
    let mut moves = Vec::new();
    pos.legal_moves(Player::First, &mut moves);
    let mut tokens: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    tokens.sort();
    let expected = [
        "a1b3", "a1c2", "a2a3", "b1b2", "b1b3", "c1c2", "c1c3", "d1d2", "d1d3", "e1c2", "e1d3",
        "e2e3",
    ];
    assert_eq!(tokens, expected);
}

#[test]
fn example_01_quiet_turn() {
    check(
        START,
        &["c1c2/c5c4"],
        "np1pn/p1p1p/5/P1P1P/NP1PN 00 1",
        GOES_ON,
    );
}

#[test]
fn example_02_knight_knight_collision() {
    check(START, &["a1b3/a5b3"], "1pppn/p3p/5/P3P/1PPPN 00 0", GOES_ON);
}

#[test]
fn example_03_pawn_pawn_collision() {
    let after_1 = "np1pn/p1p1p/5/P1P1P/NP1PN 00 1";
    check(
        after_1,
        &["c2c3/c4c3"],
        "np1pn/p3p/5/P3P/NP1PN 00 0",
        GOES_ON,
    );
}

#[test]
fn example_04_knight_beats_pawn() {
    check(
        "1n3/4p/5/P1P2/5 00 0",
        &["c2c3/b5c3"],
        "5/4p/2n2/P4/5 00 0",
        GOES_ON,
    );
}

#[test]
fn example_05_swap() {
    check(
        START,
        &["d1d2/e4e3", "d2e3/e3d2"],
        "npppn/p4/4P/P2pP/NPP1N 00 2",
        GOES_ON,
    );
}

#[test]
fn example_06_capture_of_a_piece_that_stayed() {
    check(
        "2p2/4p/1N3/P4/5 00 0",
        &["b3c5/e4e3"],
        "2N2/5/4p/P4/5 00 0",
        GOES_ON,
    );
}

#[test]
fn example_07_dodge() {
    check(
        "2p2/4p/1N3/P4/5 00 0",
        &["b3c5/c5c4"],
        "2N2/2p1p/5/P4/5 00 1",
        GOES_ON,
    );
}

#[test]
fn example_08_void_declaration() {
    check(
        START,
        &["a2b3/a5b3"],
        "1pppn/p3p/1n3/P3P/NPPPN 10 0",
        GOES_ON,
    );
}

#[test]
fn example_09_second_penalty_loses() {
    check(
        "npppn/p3p/5/P3P/NPPPN 10 0",
        &["a2b3/a5b3"],
        "1pppn/p3p/1n3/P3P/NPPPN 20 0",
        BLACK_WINS,
    );
}

#[test]
fn example_09b_both_second_penalties_draw() {
    check(
        "npppn/p3p/5/P3P/NPPPN 11 0",
        &["a2b3/e4d3"],
        "npppn/p3p/5/P3P/NPPPN 22 0",
        DRAW,
    );
}

#[test]
fn example_10_push_into_an_occupied_square_is_void() {
    check(
        "5/2n1p/2P2/P4/N4 00 0",
        &["c3c4/c4b2"],
        "5/4p/2P2/Pn3/N4 10 0",
        GOES_ON,
    );
}

#[test]
fn example_11_promotion() {
    check(
        "4n/1p1P1/5/P4/N4 00 0",
        &["d4d5/b4b3"],
        "3Nn/5/1p3/P4/N4 00 0",
        GOES_ON,
    );
}

#[test]
fn example_12_redeploy() {
    check(
        "4n/1p1P1/5/P4/N3N 00 0",
        &["d4d5@b2/b4b3"],
        "4n/5/1p3/PP3/N3N 00 1",
        GOES_ON,
    );
}

#[test]
fn example_13_collision_before_redeploy() {
    check(
        "5/1p1P1/4n/P4/N3N 00 0",
        &["d4d5@b2/e3d5"],
        "3n1/1p3/5/P4/N3N 00 0",
        GOES_ON,
    );
}

#[test]
fn example_14_redeploy_onto_an_arriving_knight() {
    check(
        "5/1p1Pn/5/P4/N3N 00 0",
        &["d4d5@c3/e4c3"],
        "5/1p3/2n2/P4/N3N 00 0",
        GOES_ON,
    );
}

#[test]
fn example_15_last_pawn_may_not_promote() {
    check(
        "4n/1p1P1/5/5/N4 00 0",
        &["d4d5/b4b3"],
        "4n/3P1/1p3/5/N4 10 0",
        GOES_ON,
    );
}

#[test]
fn example_16_both_last_pawns_collide() {
    check(
        "4n/2p2/5/2P2/N4 00 0",
        &["c2c3/c4c3"],
        "4n/5/5/5/N4 00 0",
        DRAW,
    );
}

#[test]
fn example_17_no_legal_move_is_a_draw() {
    for double_step in [true, false] {
        let pos = parse("4n/p4/P4/5/5 00 0", double_step);
        assert_eq!(pos.node(), DRAW);
        assert_eq!(pos.count_legal(Player::First), 0);
        assert!(pos.count_legal(Player::Second) > 0);
        assert_eq!(pos.count_children(), 0);
        assert!(pos.actions().is_empty());
    }
}

#[test]
fn example_18_redeploy_back_to_the_origin() {
    check(
        "4n/1p1P1/5/P4/N3N 00 0",
        &["d4d5@d4/b4b3"],
        "4n/3P1/1p3/P4/N3N 00 1",
        GOES_ON,
    );
}

#[test]
fn end_order_pawns_before_no_legal_move() {
    check(
        "2n2/5/p4/1P3/5 00 0",
        &["b2a3/c5a4"],
        "5/n4/P4/5/5 00 0",
        WHITE_WINS,
    );
}
