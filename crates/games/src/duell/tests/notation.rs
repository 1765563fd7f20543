//! Tests of DFEN and move tokens (rules §1.13–§1.14): round trips and precise errors.

use super::rules::{after, pos};
use crate::duell::*;
use quartet_core::game::{Action, Game, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

/// The reason of a position error for `text` (panics if it parses).
fn position_why(text: &str) -> String {
    match Duell::parse_position(text, &RuleOptions::default()) {
        Err(NotationError::Position { why, .. }) => why,
        other => panic!("{text:?} gave {other:?}"),
    }
}

/// The error of move token `token` in `p`.
fn move_error(p: &Duell, token: &str) -> NotationError {
    match p.parse_action(token) {
        Err(e) => e,
        Ok(a) => panic!("{token} parsed to {a:?}"),
    }
}

fn is_syntax(e: &NotationError, needle: &str) -> bool {
    matches!(e, NotationError::Syntax { why, .. } if why.contains(needle))
}

fn is_illegal(e: &NotationError, needle: &str) -> bool {
    matches!(e, NotationError::Illegal { why, .. } if why.contains(needle))
}

#[test]
fn position_strings_round_trip() {
    for text in [
        START_DFEN,
        "4BK4/9/9/9/3W325/9/9/4WK4 w 0 1",
        "4BK4/9/9/3W145/3W32B13B133/9/9/4WK4 w 0 1",
        "3W13BK4/9/9/9/9/9/9/4WK4 b 0 1",
        "9/4W124/9/9/9/9/BK8/4WK4 w 0 1",
        "4BK4/9/9/9/9/B138/W62B137/WKW62B136 w 0 1",
        "W65W15W45W51W14W31W53W56BK/9/9/9/9/9/9/B65B15B45B51B14B31B53B56WK w 200 4294967295",
        // Finished games are positions too: White's key on e8, Black to move.
        "4WK4/9/9/9/9/9/9/BK8 b 3 20",
    ] {
        let p = pos(text);
        assert_eq!(p.format_position(), text);
        assert_eq!(pos(&p.format_position()), p);
    }
}

#[test]
fn truncated_or_misshapen_fields_are_named() {
    let full = START_DFEN;
    for cut in 0..full.len() {
        // Every proper prefix is refused without a panic.
        assert!(Duell::parse_position(&full[..cut], &RuleOptions::default()).is_err());
    }
    assert!(position_why("B53B13").contains("expected 4 fields"));
    assert!(position_why(&format!("{full} ")).contains("expected 4 fields"));
    assert!(position_why(&full.replace(" w ", "  w ")).contains("expected 4 fields"));
    assert!(position_why(&full.replace(" w ", "\tw ")).contains("expected 4 fields"));
    assert_eq!(
        position_why("9/9/9/9/9/9/9 w 0 1"),
        "board: expected 8 ranks separated by '/', found 7"
    );
    assert_eq!(
        position_why("9/9/9/9/9/9/9/9/9 w 0 1"),
        "board: expected 8 ranks separated by '/', found 9"
    );
}

#[test]
fn rank_errors_name_the_rank() {
    let with_rank3 = |r: &str| format!("4BK4/9/9/9/9/{r}/9/4WK4 w 0 1");
    assert_eq!(
        position_why(&with_rank3("8")),
        "rank 3 has 8 squares, expected 9"
    );
    assert_eq!(
        position_why(&with_rank3("W537")),
        "rank 3 has 8 squares, expected 9"
    );
    assert_eq!(
        position_why(&with_rank3("5W354")),
        "rank 3 has more than 9 squares"
    );
    assert_eq!(
        position_why(&with_rank3("9W35")),
        "rank 3 has more than 9 squares"
    );
    assert_eq!(
        position_why(&with_rank3("45")),
        "rank 3: two counts of empty squares in a row (write their sum)"
    );
    assert!(
        position_why(&with_rank3("09")).starts_with("rank 3: '0' is not a count of empty squares")
    );
    assert!(
        position_why(&with_rank3("4x4")).starts_with("rank 3, file e: unexpected character 'x'")
    );
    assert!(
        position_why(&with_rank3("4w354")).starts_with("rank 3, file e: unexpected character 'w'")
    );
    assert!(position_why(&with_rank3("4W734")).starts_with("rank 3, file e: 'W' must be"));
    assert!(position_why(&with_rank3("4W3")).starts_with("rank 3, file e: the die 'W3' needs"));
    assert!(position_why(&with_rank3("4W3x4")).contains("needs a north face"));
    assert!(position_why(&with_rank3("4W344")).contains("the die 'W34' is impossible"));
    assert!(position_why(&with_rank3("4B334")).contains("the die 'B33' is impossible"));
    assert!(position_why(&with_rank3("4Bk4")).starts_with("rank 3, file e: 'B' must be"));
    assert!(
        position_why(&with_rank3("4é4")).starts_with("rank 3, file e: unexpected character 'é'")
    );
    // Rank 8 is the first field.
    assert!(position_why("4BK5/9/9/9/9/9/9/4WK4 w 0 1").starts_with("rank 8 has more than 9"));
}

#[test]
fn counter_and_side_errors_name_the_field() {
    let with = |tail: &str| format!("4BK4/9/9/9/9/9/9/4WK4 {tail}");
    assert!(position_why(&with("W 0 1")).starts_with("side to move 'W'"));
    assert!(position_why(&with("x 0 1")).starts_with("side to move 'x'"));
    assert!(position_why(&with("w -1 1")).starts_with("plies-since-capture '-1' is not"));
    assert!(position_why(&with("w 01 1")).contains("leading zero"));
    assert!(position_why(&with("w 201 1")).contains("above 200"));
    assert!(position_why(&with("w 99999999999999999999 1")).contains("too large"));
    assert!(position_why(&with("w 0 0")).starts_with("move number 0"));
    assert!(position_why(&with("w 0 +1")).starts_with("move number '+1' is not"));
    assert!(position_why(&with("w 0 4294967296")).starts_with("move number"));
    assert!(position_why(&with("w 0 x")).starts_with("move number 'x'"));
}

#[test]
fn impossible_positions_are_refused() {
    assert_eq!(
        position_why("4BK4/9/9/9/9/9/WK8/4WK4 w 0 1"),
        "White has 2 keys"
    );
    assert_eq!(
        position_why("4BK4/9/9/9/9/9/W53W53W53W53W53W53W53W53W53/4WK4 w 0 1"),
        "White has 9 dice, at most 8"
    );
    // Both keys gone, or each key on the other's square: both would have won.
    assert!(position_why("9/9/9/9/9/9/9/9 w 0 1").starts_with("both sides have won"));
    assert!(position_why("4WK4/9/9/9/9/9/9/4BK4 b 0 1").starts_with("both sides have won"));
    // The winner cannot be to move: its move ended the game.
    assert!(position_why("9/9/9/9/9/9/9/4WK4 w 0 1").starts_with("White has won"));
    assert!(position_why("4BK4/9/9/9/9/9/9/9 b 0 1").starts_with("Black has won"));
    assert!(position_why("4WK4/9/9/9/9/9/9/BK8 w 0 1").starts_with("White has won"));
}

#[test]
fn garbage_never_panics_and_errors_stay_short() {
    let garbage: String = (0..10_000_000u32)
        .map(|i| char::from(b"/ 9WBK12x"[(i.wrapping_mul(2_654_435_761) >> 28) as usize % 9]))
        .collect();
    let err = Duell::parse_position(&garbage, &RuleOptions::default()).unwrap_err();
    assert!(
        err.to_string().len() < 1_000,
        "error of {} bytes",
        err.to_string().len()
    );
    let spaces = " ".repeat(10_000_000);
    assert!(Duell::parse_position(&spaces, &RuleOptions::default()).is_err());
    for text in [
        "",
        " ",
        "ä",
        "🎲🎲🎲",
        "\u{0}",
        "w 0 1",
        "9/9/9/9/9/9/9/9",
        "////////",
    ] {
        assert!(
            Duell::parse_position(text, &RuleOptions::default()).is_err(),
            "{text:?}"
        );
    }
    let start = Duell::start(&RuleOptions::default());
    let long = "d1".repeat(5_000_000);
    assert!(move_error(&start, &long).to_string().len() < 1_000);
}

#[test]
fn move_tokens_round_trip_and_straight_suffixes_are_redundant() {
    let start = Duell::start(&RuleOptions::default());
    for action in start.actions() {
        let token = start.format_action(action);
        assert_eq!(token, token.to_lowercase());
        assert_eq!(start.parse_action(&token), Ok(action));
    }
    assert_eq!(start.parse_action("d1d7n"), start.parse_action("d1d7"));
    assert_eq!(start.parse_action("e1e2n"), start.parse_action("e1e2"));
    let Ok(Action::Single(m)) = start.parse_action("d1d7n") else {
        panic!("d1d7n refused")
    };
    assert_eq!(start.format_move(m), "d1d7");
    // d4d6 sideways-first on the W3 board: straight east with a matching suffix.
    let p = pos("4BK4/9/9/9/3W325/9/9/4WK4 w 0 1");
    assert_eq!(p.parse_action("d4g4e"), p.parse_action("d4g4"));
}

#[test]
fn malformed_move_tokens_are_syntax_errors() {
    let start = Duell::start(&RuleOptions::default());
    let cases = [
        ("", "expected <from><to>"),
        ("d1", "expected <from><to>"),
        ("d1d", "expected <from><to>"),
        ("d1d7nn", "expected <from><to>"),
        ("j1j2", "'j' is not a file"),
        ("D1D7", "'D' is not a file"),
        ("d9d7", "'9' is not a rank"),
        ("d0d7", "'0' is not a rank"),
        ("d1d7x", "suffix 'x' is not a direction"),
        ("d1d7N", "suffix 'N' is not a direction"),
        ("d1d1", "the same"),
        ("a1i8", "at most 6 steps"),
        ("a1e2", "needs the direction of its first leg"),
        ("a1e2s", "neither leg's direction"),
        ("d1d7s", "cannot have the suffix 's'"),
        ("d1d7e", "cannot have the suffix 'e'"),
        ("d1dé", "is not a rank"),
        ("é1d7", "is not a file"),
    ];
    for (token, needle) in cases {
        let e = move_error(&start, token);
        assert!(is_syntax(&e, needle), "{token:?}: {e}");
    }
}

#[test]
fn unplayable_move_tokens_say_why() {
    let start = Duell::start(&RuleOptions::default());
    let cases = [
        (
            "d2d4",
            "no piece of the side to move on d2 (the square is empty)",
        ),
        (
            "d8d2",
            "no piece of the side to move on d8 (B63 stands there)",
        ),
        (
            "d1d5",
            "no such path: W64 on d1 moves 6 steps, this path has 4",
        ),
        (
            "e1e3",
            "no such path: WK on e1 moves 1 step, this path has 2",
        ),
        ("e1d1", "d1 holds a piece of the side to move"),
        ("d1e6e", "path blocked at e1"),
        ("a1b5e", "path blocked at b1"),
        ("b1c2n", "no such path"),
    ];
    for (token, why) in cases {
        let e = move_error(&start, token);
        assert!(is_illegal(&e, why), "{token}: {e}");
    }
    // A finished game refuses every move.
    let won = after(&pos("4BK4/4WK4/9/9/9/9/9/9 w 0 1"), "e7e8");
    assert!(is_illegal(
        &move_error(&won, "e8d8"),
        "the game is over: White has won"
    ));
    let drawn = pos("4BK4/9/9/9/9/9/9/4WK4 w 200 101");
    assert!(is_illegal(
        &move_error(&drawn, "e1e2"),
        "the game is over: it is drawn"
    ));
}

#[test]
fn the_diagram_shows_every_piece() {
    let start = Duell::start(&RuleOptions::default());
    let d = start.diagram();
    assert!(!d.ends_with('\n'));
    assert!(
        d.contains("  8  B53 B13 B23 B63 BK  B63 B23 B13 B53  8"),
        "{d}"
    );
    assert!(
        d.contains("  1  W54 W14 W24 W64 WK  W64 W24 W14 W54  1"),
        "{d}"
    );
    assert!(d.contains("White to move; move 1, 0 plies since the last capture"));
    let won = after(&pos("4BK4/4WK4/9/9/9/9/9/9 w 0 1"), "e7e8");
    assert!(won.diagram().contains("game over: White wins"));
    assert!(
        won.diagram().contains("(.)"),
        "the empty e1 is marked as a key square"
    );
}
