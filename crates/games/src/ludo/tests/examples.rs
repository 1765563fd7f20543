//! The worked examples 1 to 15 of `docs/rules/ludo.md` §4, each as a test: the position, the
//! roll, the exact list of legal moves and the position after the move chosen.

use crate::ludo::Ludo;
use quartet_core::game::{Game, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;

fn pos(text: &str) -> Ludo {
    Ludo::parse_position(text, &RuleOptions::default()).expect(text)
}

fn play(p: &mut Ludo, token: &str) {
    let action = p.parse_action(token).expect(token);
    p.apply(action);
}

fn legal(p: &Ludo) -> Vec<String> {
    p.actions()
        .into_iter()
        .map(|a| p.format_action(a))
        .collect()
}

/// From `start`, rolls `roll`, checks the legal moves are exactly `moves`, plays `choice`
/// and checks the result is `after`.
fn check(start: &str, roll: &str, moves: &[&str], choice: &str, after: &str) {
    let mut p = pos(start);
    play(&mut p, roll);
    assert_eq!(legal(&p), moves, "{start} after {roll}");
    play(&mut p, choice);
    assert_eq!(p.format_position(), after, "{start} {roll} {choice}");
}

#[test]
fn example_01_no_six_at_the_start_passes() {
    check(
        "b,b,b,b/b,b,b,b r - 0",
        "r3",
        &["pass"],
        "pass",
        "b,b,b,b/b,b,b,b y - 0",
    );
}

#[test]
fn example_02_a_six_enters_and_rolls_again() {
    let start = Ludo::start(&RuleOptions::default()).format_position();
    check(&start, "r6", &["b-0"], "b-0", "b,b,b,0/b,b,b,b r - 1");
}

#[test]
fn example_03_the_third_six_is_void_but_earlier_moves_stand() {
    check(
        "b,b,b,0/b,b,b,b r - 1",
        "r6",
        &["b-0", "0-6"],
        "0-6",
        "b,b,b,6/b,b,b,b r - 2",
    );
    let mut p = pos("b,b,b,6/b,b,b,b r - 2");
    play(&mut p, "r6");
    assert_eq!(p.format_position(), "b,b,b,6/b,b,b,b r 6 3");
    assert_eq!(legal(&p), ["pass"]);
    play(&mut p, "pass");
    assert_eq!(p.format_position(), "b,b,b,6/b,b,b,b y - 0");
}

#[test]
fn example_04_capture_sends_the_piece_home_and_rolls_again() {
    check(
        "b,b,b,27/b,b,b,4 r - 0",
        "r3",
        &["27-30"],
        "27-30",
        "b,b,b,30/b,b,b,b r - 0",
    );
}

#[test]
fn example_05_a_star_is_safe() {
    check(
        "b,b,b,5/b,b,b,34 r - 0",
        "r3",
        &["5-8"],
        "5-8",
        "b,b,b,8/b,b,b,34 y - 0",
    );
}

#[test]
fn example_06_a_start_square_is_safe() {
    check(
        "b,b,b,b/b,b,b,26 r - 0",
        "r6",
        &["b-0"],
        "b-0",
        "b,b,b,0/b,b,b,26 r - 1",
    );
}

#[test]
fn example_07_double_capture_one_bonus() {
    check(
        "b,b,b,30/b,b,10,10 r - 0",
        "r6",
        &["b-0", "30-36"],
        "30-36",
        "b,b,b,36/b,b,b,b r - 1",
    );
}

#[test]
fn example_08_the_goal_needs_an_exact_roll() {
    let mut p = pos("b,b,b,53/b,b,b,b r - 0");
    play(&mut p, "r4");
    assert_eq!(legal(&p), ["pass"]);
    check(
        "b,b,b,53/b,b,b,b r - 0",
        "r3",
        &["53-56"],
        "53-56",
        "b,b,b,56/b,b,b,b r - 0",
    );
}

#[test]
fn example_09_no_blockade() {
    check(
        "b,b,b,10/b,b,38,38 r - 0",
        "r5",
        &["10-15"],
        "10-15",
        "b,b,b,15/b,b,38,38 y - 0",
    );
}

#[test]
fn example_10_a_six_with_no_move_passes() {
    check(
        "53,56,56,56/b,b,b,b r - 0",
        "r6",
        &["pass"],
        "pass",
        "53,56,56,56/b,b,b,b y - 0",
    );
}

#[test]
fn example_11_the_last_piece_home_wins_at_once() {
    check(
        "53,56,56,56/b,b,b,b r - 0",
        "r3",
        &["53-56"],
        "53-56",
        "56,56,56,56/b,b,b,b r - 0",
    );
    let p = pos("56,56,56,56/b,b,b,b r - 0");
    assert_eq!(p.node(), Node::Terminal(Outcome::Win(Player::First)));
    assert!(legal(&p).is_empty(), "a finished game has no legal tokens");
}

#[test]
fn example_12_home_column_entry() {
    let mut p = pos("b,b,48,50/b,b,b,b r - 0");
    play(&mut p, "r6");
    assert_eq!(legal(&p), ["b-0", "48-54", "50-56"]);
    let mut p = pos("b,b,48,50/b,b,b,b r - 0");
    play(&mut p, "r1");
    assert_eq!(legal(&p), ["48-49", "50-51"]);
}

#[test]
fn example_13_yellow_captures() {
    check(
        "b,b,b,30/b,b,b,0 y - 0",
        "r4",
        &["0-4"],
        "0-4",
        "b,b,b,b/b,b,b,4 y - 0",
    );
}

#[test]
fn example_14_the_third_six_counts_after_a_capture_roll() {
    let mut p = pos("b,b,b,27/b,b,b,4 r - 0");
    let script = [
        ("r3", "b,b,b,27/b,b,b,4 r 3 0"),
        ("27-30", "b,b,b,30/b,b,b,b r - 0"),
        ("r6", "b,b,b,30/b,b,b,b r 6 1"),
        ("30-36", "b,b,b,36/b,b,b,b r - 1"),
        ("r6", "b,b,b,36/b,b,b,b r 6 2"),
        ("36-42", "b,b,b,42/b,b,b,b r - 2"),
        ("r6", "b,b,b,42/b,b,b,b r 6 3"),
    ];
    for (token, want) in script {
        play(&mut p, token);
        assert_eq!(p.format_position(), want, "after {token}");
    }
    assert_eq!(legal(&p), ["pass"]);
    play(&mut p, "pass");
    assert_eq!(p.format_position(), "b,b,b,42/b,b,b,b y - 0");
    // §1.10: `b-0` is also legal at those sixes.
    for (start, moves) in [
        ("b,b,b,30/b,b,b,b r - 0", ["b-0", "30-36"]),
        ("b,b,b,36/b,b,b,b r - 1", ["b-0", "36-42"]),
    ] {
        let mut q = pos(start);
        play(&mut q, "r6");
        assert_eq!(legal(&q), moves);
    }
}

#[test]
fn example_15_stacking_and_move_dedup() {
    let start = "b,b,0,6/b,b,b,b r - 0";
    let moves = ["b-0", "0-6", "6-12"];
    check(start, "r6", &moves, "b-0", "b,0,0,6/b,b,b,b r - 1");
    check(start, "r6", &moves, "0-6", "b,b,6,6/b,b,b,b r - 1");
    check(
        "b,b,6,6/b,b,b,b r - 0",
        "r2",
        &["6-8"],
        "6-8",
        "b,b,6,8/b,b,b,b y - 0",
    );
}
