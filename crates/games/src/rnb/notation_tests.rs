//! Tests of `notation.rs`: round trips, the rejections of impossible positions, and the
//! two stages of move-token errors.

use super::super::{Colour, Move, Rnb};
use quartet_core::game::{Action, Game, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

fn parse(text: &str) -> Result<Rnb, NotationError> {
    Rnb::parse_position(text, &RuleOptions::default())
}

/// Asserts that `text` is refused with a reason containing `needle`.
fn refused(text: &str, needle: &str) {
    match parse(text) {
        Err(NotationError::Position { text: t, why }) => {
            assert_eq!(t, text);
            assert!(why.contains(needle), "{text}: '{why}' lacks '{needle}'");
        }
        other => panic!("{text}: expected a position error, got {other:?}"),
    }
}

/// Asserts that `token` is malformed, with a reason containing `needle`.
fn malformed(pos: &Rnb, token: &str, needle: &str) {
    match pos.parse_action(token) {
        Err(NotationError::Syntax { token: t, why }) => {
            assert_eq!(t, token);
            assert!(why.contains(needle), "{token}: '{why}' lacks '{needle}'");
        }
        other => panic!("{token}: expected a syntax error, got {other:?}"),
    }
}

/// Asserts that `token` is well formed but illegal, with a reason containing `needle`.
fn illegal(pos: &Rnb, token: &str, needle: &str) {
    match pos.parse_action(token) {
        Err(NotationError::Illegal { token: t, why }) => {
            assert_eq!(t, token);
            assert!(why.contains(needle), "{token}: '{why}' lacks '{needle}'");
        }
        other => panic!("{token}: expected an illegal-move error, got {other:?}"),
    }
}

#[test]
fn position_strings_round_trip() {
    for text in [
        "2k3/6/6/6/6/3K2 s 4444 0",
        "2k3/rbrb2/6/6/6/RBRKB1 s 2222 0",
        "2k3/rbrb2/6/6/6/RBRKBR n 1222 0",
        "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0",
        "6/6/6/R1R3/6/3K2 n 0000 0",
        "5k/2K3/6/6/6/6 s 0000 100",
    ] {
        let pos = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(pos.format_position(), text);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
    }
}

#[test]
fn malformed_position_strings_are_refused_naming_the_field() {
    refused("2k3/6/6/6/6/3K2 s 4444", "4 fields");
    refused("2k3/6/6/6/6/3K2  s 4444 0", "4 fields");
    refused(" 2k3/6/6/6/6/3K2 s 4444 0", "4 fields");
    refused("2k3/6/6/6/6/3K2 s 4444 0 ", "4 fields");
    refused("", "4 fields");
    refused("2k3/6/6/6/3K2 s 4444 0", "6 ranks");
    refused("2k3/6/6/6/6/6/3K2 s 4444 0", "6 ranks");
    refused("2k4/6/6/6/6/3K2 s 4444 0", "rank 6 has more than 6");
    refused("2k2/6/6/6/6/3K2 s 4444 0", "rank 6 has 5 squares");
    refused(
        "2k3/6/6/6/33/3K2 s 4444 0",
        "rank 2: two counts of empty squares in a row",
    );
    refused(
        "2k3/6/6/6/15/3K2 s 4444 0",
        "rank 2: two counts of empty squares in a row",
    );
    refused("2k3/6/6/6/06/3K2 s 4444 0", "rank 2: '0' is not a count");
    refused("2k3/6/6/6/6/3K02 s 4444 0", "rank 1: '0' is not a count");
    refused("2k3/6/6/6/6/3X2 s 4444 0", "unexpected 'X'");
    refused("2k3/6/6/6/6/3é2 s 4444 0", "unexpected 'é'");
    refused("2k3/6/6/6/6/3K2 w 4444 0", "field 2");
    refused("2k3/6/6/6/6/3K2 S 4444 0", "field 2");
    refused("2k3/6/6/6/6/3K2 s 444 0", "field 3");
    refused("2k3/6/6/6/6/3K2 s 44444 0", "field 3");
    refused("2k3/6/6/6/6/3K2 s 5444 0", "field 3");
    refused("2k3/6/6/6/6/3K2 s a444 0", "field 3");
    for counter in ["01", "101", "-1", "+1", "x", "99999999999999999999"] {
        refused(&format!("2k3/6/6/6/6/3K2 s 0000 {counter}"), "field 4");
    }
}

#[test]
fn rule_1_8_counts_are_enforced() {
    refused("2k3/6/6/6/K5/3K2 s 0000 0", "South has 2 kings");
    refused("2kk2/6/6/6/6/3K2 s 0000 0", "North has 2 kings");
    refused("2k3/6/6/RRRRR1/6/3K2 s 0000 0", "5 red soldiers");
    refused("2k3/bbbbb1/6/6/6/3K2 s 0000 0", "5 black soldiers");
    refused(
        "2k3/6/6/6/RRR3/3K2 n 2444 0",
        "5 red soldiers (3 on the board, 2 in hand)",
    );
}

#[test]
fn impossible_movement_positions_are_refused() {
    refused("2k3/6/6/6/6/RBRKBR s 0000 0", "lost when it made them");
    refused("2K3/6/6/6/6/k5 s 0000 0", "has already won");
    refused("6/6/6/6/6/3K2 s 0000 0", "North has no king");
    refused("6/6/6/6/6/6 n 0000 0", "South has no king");
}

#[test]
fn impossible_placement_positions_are_refused() {
    refused("2k3/6/6/6/6/3K2 n 4444 0", "South is to place");
    refused("2k3/6/6/6/R5/3K2 s 3444 0", "North is to place");
    refused("2k3/6/6/6/RR4/3K2 s 2444 0", "differ by at most one");
    refused("2k3/r5/6/6/6/3K2 n 4434 0", "differ by at most one");
    refused("2k3/6/6/6/6/3K2 s 4444 3", "0 during placement");
    refused("2k3/6/6/6/R5/3K2 s 2444 0", "exactly 4");
    refused("2k3/6/6/R5/6/3K2 n 3444 0", "not on a3");
    refused("2k3/6/6/6/R5/3K2 n 3434 0", "exactly 4");
    refused(
        "3k2/6/6/6/R5/3K2 n 3444 0",
        "North's king stands on its base c6",
    );
    refused(
        "6/6/6/6/R5/3K2 n 3444 0",
        "North's king stands on its base c6",
    );
}

#[test]
fn move_tokens_are_refused_for_their_form_first() {
    let start = Rnb::start(&RuleOptions::default());
    malformed(&start, "", "expected a placement");
    malformed(&start, "R@", "expected a square");
    malformed(&start, "X@a2", "colour R or B");
    malformed(&start, "RR@a2", "colour R or B");
    malformed(&start, "@a2", "colour R or B");
    malformed(&start, "R@a7", "expected a square");
    malformed(&start, "R@g1", "expected a square");
    malformed(&start, "R@a0", "expected a square");
    malformed(&start, "R@a01", "expected a square");
    malformed(&start, "R@A2", "lower case");
    malformed(&start, "R@a2x", "unexpected 'x'");
    malformed(&start, "R@a2@b2", "unexpected '@b2'");
    malformed(&start, "d1", "two squares");
    malformed(&start, "d1d", "expected a square");
    malformed(&start, "d1d2d3", "unexpected 'd3'");
    malformed(&start, "D1D2", "lower case");
    malformed(&start, "é1d2", "expected a square");
    malformed(&start, "d1é2", "expected a square");
    malformed(&start, "d1 d2", "expected a square");
}

#[test]
fn placement_tokens_are_resolved_with_precise_reasons() {
    let start = Rnb::start(&RuleOptions::default());
    illegal(&start, "R@a5", "a5 is outside South's zone (ranks 1-2)");
    illegal(&start, "R@d1", "d1 is occupied");
    illegal(&start, "d1d2", "South must place a soldier");
    let mut pos = start.clone();
    let action = pos.parse_action("B@c2").unwrap();
    pos.apply(action);
    illegal(&pos, "r@a2", "a2 is outside North's zone (ranks 5-6)");
    let out = parse("2k3/rrrr2/6/6/6/3K2 s 0404 0").unwrap_err();
    assert!(
        matches!(out, NotationError::Position { .. }),
        "hands must match"
    );
    let no_red = parse("2k3/rrrr2/6/6/RRRR2/3K2 s 0404 0").unwrap();
    illegal(&no_red, "R@f2", "South has no red soldier in hand");
}

#[test]
fn step_tokens_are_resolved_with_precise_reasons() {
    let pos = parse("2k3/6/6/6/1R4/3K2 s 0000 0").unwrap();
    illegal(&pos, "R@a2", "every soldier is placed");
    illegal(&pos, "a1a2", "a1 is empty");
    illegal(&pos, "c6c5", "c6 holds a North piece and South is to move");
    illegal(&pos, "d1d3", "d1 to d3 is not a one-square step");
    illegal(&pos, "d1d1", "d1 to d1 is not a one-square step");
    illegal(&pos, "d1f6", "not a one-square step");
    illegal(&pos, "c1b2", "c1 is empty");
    let crowded = parse("2k3/6/6/6/2R3/3K2 s 0000 0").unwrap();
    illegal(&crowded, "d1c2", "c2 is occupied");
    let over = parse("6/6/6/R1R3/6/3K2 n 0000 0").unwrap();
    illegal(&over, "a3a4", "the game is over: South has won");
}

#[test]
fn the_placement_colour_is_read_in_either_case_and_written_upper_case() {
    let start = Rnb::start(&RuleOptions::default());
    let lower = start.parse_action("r@a2").unwrap();
    assert_eq!(lower, start.parse_action("R@a2").unwrap());
    let Action::Single(m) = lower else {
        panic!("a placement is a single action")
    };
    assert!(matches!(
        m,
        Move::Place {
            colour: Colour::Red,
            ..
        }
    ));
    assert_eq!(start.format_move(m), "R@a2");
    let black = start.parse_action("b@f1").unwrap();
    assert_eq!(start.format_action(black), "B@f1");
    let moving = parse("2k3/6/6/6/6/3K2 s 0000 0").unwrap();
    let step = moving.parse_action("d1e2").unwrap();
    assert_eq!(moving.format_action(step), "d1e2");
}

#[test]
fn the_diagram_shows_board_hands_and_turn() {
    let start = Rnb::start(&RuleOptions::default());
    let expected = "    a b c d e f
 6  . . k . . .
 5  . . . . . .
 4  . . . . . .
 3  . . . . . .
 2  . . . . . .
 1  . . . K . .
In hand: South R4 B4, North r4 b4; plies since capture 0
South to place";
    assert_eq!(start.diagram(), expected);
    let over = parse("6/6/6/R1R3/6/3K2 n 0000 0").unwrap();
    assert!(over.diagram().ends_with("Game over: South wins"));
}

#[test]
fn garbage_never_panics() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
    let alphabet: Vec<char> = "0123456789/ snkKbBrR@abcdefgé\t-+".chars().collect();
    let seeds = [
        "2k3/6/6/6/6/3K2 s 4444 0",
        "2k3/rbrb2/6/6/6/RBRKB1 s 2222 0",
        "1bk1r1/rb1b2/2r1b1/1B2R1/R1B1R1/B2KB1 s 0000 0",
    ];
    let start = Rnb::start(&RuleOptions::default());
    let moving = parse(seeds[2]).unwrap();
    for round in 0..20_000 {
        let mut text: Vec<char> = seeds[round % seeds.len()].chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..=text.len());
            let ch = alphabet[rng.random_range(0..alphabet.len())];
            match rng.random_range(0..3) {
                0 => text.insert(at, ch),
                1 if at < text.len() => text[at] = ch,
                _ if at < text.len() => {
                    text.remove(at);
                }
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        if let Ok(pos) = parse(&text) {
            // Whatever is accepted is a consistent position.
            assert_eq!(parse(&pos.format_position()).as_ref(), Ok(&pos));
            assert_eq!(pos.hash(), pos.hash_from_scratch());
        }
        let token: String = (0..rng.random_range(0..7))
            .map(|_| alphabet[rng.random_range(0..alphabet.len())])
            .collect();
        for pos in [&start, &moving] {
            if let Ok(action) = pos.parse_action(&token) {
                assert!(pos.is_legal(action), "{token}");
            }
        }
    }
}
