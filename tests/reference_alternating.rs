//! Proves the reference implementations of Duell and R&B (tests/reference/) against every
//! worked example of docs/rules/duell.md §4 and docs/rules/rnb.md §4, then checks that
//! the perft data files (crates/games/src/*/perft.data) still agree with the reference. The joint
//! setup of R&B's `Placement together` (rnb.md §4.1) is checked the same way, and its
//! arrangements against the engine's.

use crate::{common, reference};

use common::perft_data::{self, PerftBlock};
use reference::{Duell, ReferenceGame, Rnb};

/// The piece token (`W31`, `BK`, ...) on `square` of a DFEN string, read straight from the
/// string so that the test does not trust the reference's parser.
fn duell_piece_at(dfen: &str, square: &str) -> Option<String> {
    let file = (square.as_bytes()[0] - b'a') as usize;
    let rank = (square.as_bytes()[1] - b'0') as usize;
    let rank_text = dfen.split(' ').next()?.split('/').nth(8 - rank)?;
    let mut cells: Vec<Option<String>> = Vec::new();
    let chars: Vec<char> = rank_text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if let Some(n) = chars[i].to_digit(10) {
            cells.extend((0..n).map(|_| None));
            i += 1;
        } else {
            let len = if chars[i + 1] == 'K' { 2 } else { 3 };
            cells.push(Some(chars[i..i + len].iter().collect()));
            i += len;
        }
    }
    cells[file].clone()
}

/// The number of pieces in a DFEN string (each piece starts with `W` or `B`).
fn duell_piece_count(dfen: &str) -> usize {
    let board = dfen.split(' ').next().unwrap_or("");
    board.chars().filter(|&c| c == 'W' || c == 'B').count()
}

fn tokens_from(tokens: &[String], square: &str) -> Vec<String> {
    tokens
        .iter()
        .filter(|t| t.starts_with(square))
        .cloned()
        .collect()
}

fn sorted(words: &str) -> Vec<String> {
    let mut v: Vec<String> = words.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

#[test]
fn duell_w1_start_has_exactly_the_37_listed_moves() {
    let expected = sorted(
        "a1a6 a1b5n a1c4n a1d3n a1e2n b1b2 c1b2n c1c3 c1d2n d1a4n d1b5n d1c6n d1d7 d1e6n \
         d1f5n d1g4n d1h3n d1i2n e1e2 f1a2n f1b3n f1c4n f1d5n f1e6n f1f7 f1g6n f1h5n f1i4n \
         g1f2n g1g3 g1h2n h1h2 i1e2n i1f3n i1g4n i1h5n i1i6",
    );
    assert_eq!(expected.len(), 37);
    assert_eq!(Duell::legal_tokens(Duell::START), expected);
    assert_eq!(Duell::perft(Duell::START, 1), 37);
}

#[test]
fn duell_w1_depth_two_is_1293_with_8_captures() {
    assert_eq!(Duell::perft(Duell::START, 2), 1293);
    let mut captures = 0;
    for first in Duell::legal_tokens(Duell::START) {
        let after = Duell::play(Duell::START, &first);
        for second in Duell::legal_tokens(&after) {
            let leaf = Duell::play(&after, &second);
            if duell_piece_count(&leaf) < duell_piece_count(&after) {
                captures += 1;
            }
        }
    }
    assert_eq!(captures, 8);
}

#[test]
fn duell_w2_orientation_after_single_moves_from_the_start() {
    for (token, target, piece) in [
        ("b1b2", "b2", "W31"),
        ("c1c3", "c3", "W53"),
        ("d1d7", "d7", "W13"),
        ("a1e2n", "e2", "W35"),
        ("i1e2n", "e2", "W35"),
        ("d1i2n", "i2", "W56"),
        ("d1a4n", "a4", "W51"),
        ("e1e2", "e2", "WK"),
    ] {
        let after = Duell::play(Duell::START, token);
        assert_eq!(
            duell_piece_at(&after, target).as_deref(),
            Some(piece),
            "{token}"
        );
    }
}

#[test]
fn duell_w3_the_two_l_paths_differ() {
    let pos = "4BK4/9/9/9/3W325/9/9/4WK4 w 0 1";
    assert_eq!(tokens_from(&Duell::legal_tokens(pos), "d4").len(), 20);
    let north_first = Duell::play(pos, "d4e6n");
    let east_first = Duell::play(pos, "d4e6e");
    assert_eq!(duell_piece_at(&north_first, "e6").as_deref(), Some("W65"));
    assert_eq!(duell_piece_at(&east_first, "e6").as_deref(), Some("W15"));
}

#[test]
fn duell_w4_two_moves_one_resulting_position() {
    let pos = "4BK4/9/9/9/3W425/9/9/4WK4 w 0 1";
    let tokens = Duell::legal_tokens(pos);
    assert_eq!(tokens_from(&tokens, "d4").len(), 24);
    for (a, b) in [
        ("d4f6n", "d4f6e"),
        ("d4b6n", "d4b6w"),
        ("d4f2s", "d4f2e"),
        ("d4b2s", "d4b2w"),
    ] {
        assert!(tokens.contains(&a.to_string()) && tokens.contains(&b.to_string()));
        assert_eq!(Duell::play(pos, a), Duell::play(pos, b), "{a} vs {b}");
    }
    let after = Duell::play(pos, "d4f6n");
    assert_eq!(duell_piece_at(&after, "f6").as_deref(), Some("W45"));
}

#[test]
fn duell_w5_blocked_paths() {
    let pos = "4BK4/9/9/3W145/3W32B13B133/9/9/4WK4 w 0 1";
    assert_eq!(
        tokens_from(&Duell::legal_tokens(pos), "d4"),
        sorted("d4f3s d4b3s d4e2s d4c2s d4d1 d4c6w d4c2w d4b5w d4b3w d4a4")
    );
}

#[test]
fn duell_w6_the_key_captures() {
    let pos = "3W13BK4/9/9/9/9/9/9/4WK4 b 0 1";
    assert_eq!(Duell::legal_tokens(pos), sorted("e8e7 e8f8 e8d8"));
    let after = Duell::play(pos, "e8d8");
    assert_eq!(duell_piece_at(&after, "d8").as_deref(), Some("BK"));
    assert_eq!(duell_piece_count(&after), 2);
}

#[test]
fn duell_w7_key_square_wins() {
    let pos = "4BK4/4WK4/9/9/9/9/9/9 w 0 1";
    assert_eq!(Duell::outcome(pos), None);
    assert_eq!(Duell::outcome(&Duell::play(pos, "e7e8")), Some("first"));

    let pos = "BK2WKB134/9/9/9/9/9/9/9 w 0 1";
    let won = Duell::play(pos, "d8e8");
    assert_eq!(duell_piece_at(&won, "e8").as_deref(), Some("WK"));
    assert_eq!(Duell::outcome(&won), Some("first"));
    assert!(Duell::legal_tokens(&won).is_empty());
    for token in ["d8d7", "d8c8"] {
        assert_eq!(Duell::outcome(&Duell::play(pos, token)), None, "{token}");
    }
}

#[test]
fn duell_w8_a_die_captures_the_key() {
    let pos = "4BK4/9/9/4W314/9/9/9/4WK4 w 0 1";
    assert_eq!(tokens_from(&Duell::legal_tokens(pos), "e5").len(), 20);
    let after = Duell::play(pos, "e5e8");
    assert_eq!(duell_piece_at(&after, "e8").as_deref(), Some("W14"));
    assert_eq!(Duell::outcome(&after), Some("first"));
}

#[test]
fn duell_w9_a_die_on_the_key_square_does_not_win() {
    let pos = "9/4W124/9/9/9/9/BK8/4WK4 w 0 1";
    let after = Duell::play(pos, "e7e8");
    assert_eq!(duell_piece_at(&after, "e8").as_deref(), Some("W51"));
    assert_eq!(Duell::outcome(&after), None);
    assert!(!Duell::legal_tokens(&after).is_empty());
}

#[test]
fn duell_w10_no_legal_move_loses() {
    let pos = "4BK4/9/9/9/9/B138/W62B137/WKW62B136 w 0 1";
    assert!(Duell::legal_tokens(pos).is_empty());
    assert_eq!(Duell::outcome(pos), Some("second"));
    assert_eq!(Duell::perft(pos, 1), 0);
}

#[test]
fn duell_counters_follow_1_15() {
    // The move number goes up after Black's move only; the counter counts quiet plies.
    let after_white = Duell::play(Duell::START, "e1e2");
    assert!(after_white.ends_with(" b 1 1"), "{after_white}");
    let after_black = Duell::play(&after_white, "e8e7");
    assert!(after_black.ends_with(" w 2 2"), "{after_black}");
    // A capture (here W6's key capture, by Black) resets the counter and ends move 7.
    let capture = Duell::play("3W13BK4/9/9/9/9/9/9/4WK4 b 57 7", "e8d8");
    assert!(capture.ends_with(" w 0 8"), "{capture}");
    // The 200th quiet ply draws; a capture on that ply does not.
    let quiet = Duell::play("3W13BK4/9/9/9/9/9/9/4WK4 b 199 7", "e8e7");
    assert_eq!(Duell::outcome(&quiet), Some("draw"));
    let capture = Duell::play("3W13BK4/9/9/9/9/9/9/4WK4 b 199 7", "e8d8");
    assert_eq!(Duell::outcome(&capture), None);
}

#[test]
fn duell_a_win_beats_the_200_ply_draw() {
    // §1.15: the win is checked first, so the key-square win on ply 200 is still a win.
    let won = Duell::play("4BK4/4WK4/9/9/9/9/9/9 w 199 80", "e7e8");
    assert_eq!(Duell::outcome(&won), Some("first"));
    let won = Duell::play("BK2WK5/9/9/9/9/9/9/9 w 199 80", "d8e8");
    assert_eq!(Duell::outcome(&won), Some("first"));
}

#[test]
fn rnb_start_has_22_placements() {
    let mut expected = Vec::new();
    for rank in 1..=2 {
        for file in 'a'..='f' {
            if (file, rank) != ('d', 1) {
                expected.push(format!("R@{file}{rank}"));
                expected.push(format!("B@{file}{rank}"));
            }
        }
    }
    expected.sort();
    assert_eq!(expected.len(), 22);
    assert_eq!(Rnb::legal_tokens(Rnb::START), expected);
    assert_eq!(Rnb::perft(Rnb::START, 1), 22);
}

/// One row of rnb.md §4's table.
struct RnbExample {
    number: u32,
    pos: &'static str,
    token: &'static str,
    /// The resulting position string, where the table gives one.
    result: Option<&'static str>,
    /// The outcome after the move ("first", "second", "draw"), `None` if play goes on.
    outcome: Option<&'static str>,
}

const fn ex(
    number: u32,
    pos: &'static str,
    token: &'static str,
    result: Option<&'static str>,
    outcome: Option<&'static str>,
) -> RnbExample {
    RnbExample {
        number,
        pos,
        token,
        result,
        outcome,
    }
}

/// rnb.md §4, every example with a move (16 is checked separately: it has none).
#[rustfmt::skip]
const RNB_EXAMPLES: [RnbExample; 16] = [
    ex(1, "2k3/6/3R2/Rrb3/6/3K2 s 0000 0", "d4d3", Some("2k3/6/6/R2R2/6/3K2 n 0000 0"), None),
    ex(2, "2k3/6/3R2/RrB3/6/3K2 s 0000 0", "d4d3", Some("2k3/6/6/RrBR2/6/3K2 n 0000 1"), None),
    ex(3, "2k3/6/2R3/Br4/6/3K2 s 0000 0", "c4c3", Some("2k3/6/6/BrR3/6/3K2 n 0000 1"), None),
    ex(4, "2k3/6/2R3/rb4/6/3K2 s 0000 0", "c4c3", Some("2k3/6/6/r1R3/6/3K2 n 0000 0"), None),
    ex(5, "2k3/6/3R2/rbb3/6/3K2 s 0000 0", "d4d3", Some("2k3/6/6/rbbR2/6/3K2 n 0000 1"), None),
    ex(6, "2k3/6/2R3/rr4/6/3K2 s 0000 0", "c4c3", Some("2k3/6/6/rrR3/6/3K2 n 0000 1"), None),
    ex(7, "6/6/2R3/rk4/6/3K2 s 0000 0", "c4c3", None, Some("first")),
    ex(8, "2k3/6/3B2/Krb3/6/6 s 0000 0", "d4d3", Some("2k3/6/6/K2B2/6/6 n 0000 0"), None),
    ex(9, "2k3/6/2K3/rb4/6/6 s 0000 0", "c4c3", Some("2k3/6/6/rbK3/6/6 n 0000 1"), None),
    ex(10, "2k3/6/2B3/1r1r2/6/3K2 s 0000 0", "c4c3", Some("2k3/6/6/1rBr2/6/3K2 n 0000 1"), None),
    ex(11, "2k3/4R1/6/2b3/1R4/3K2 s 0000 0", "e5d4", Some("2k3/6/3R2/2b3/1R4/3K2 n 0000 1"), None),
    ex(12, "2k3/3R2/6/2b3/2R3/3K2 s 0000 0", "d5c4", Some("2k3/6/2R3/6/2R3/3K2 n 0000 0"), None),
    ex(13, "2k3/6/6/3R2/RBR1BR/3K2 s 0000 0", "d3d2", None, Some("second")),
    ex(14, "6/3R2/3k2/RBR1BB/3R2/3K2 s 0000 0", "d2d3", None, Some("second")),
    ex(15, "5k/2K3/6/6/6/6 s 0000 0", "c5c6", None, Some("first")),
    ex(17, "2k3/rbrb2/6/6/6/RBRKB1 s 2222 0", "R@f1", None, Some("second")),
];

#[test]
fn rnb_worked_examples_give_the_stated_results() {
    for RnbExample {
        number,
        pos,
        token,
        result,
        outcome,
    } in RNB_EXAMPLES
    {
        assert_eq!(
            Rnb::outcome(pos),
            None,
            "example {number} starts unfinished"
        );
        assert!(
            Rnb::legal_tokens(pos).contains(&token.to_string()),
            "example {number}: {token} legal"
        );
        let after = Rnb::play(pos, token);
        if let Some(result) = result {
            assert_eq!(after, result, "example {number}");
        }
        assert_eq!(Rnb::outcome(&after), outcome, "example {number}");
        assert_eq!(
            Rnb::legal_tokens(&after).is_empty(),
            outcome.is_some(),
            "example {number}: a finished position has no moves"
        );
    }
}

#[test]
fn rnb_example_14_the_line_rule_beats_the_king_capture() {
    // Without the line rule d2d3 would capture the king on d4 (d3 R, d4 k, d5 R).
    let after = Rnb::play("6/3R2/3k2/RBR1BB/3R2/3K2 s 0000 0", "d2d3");
    assert!(
        !after.starts_with("6/3R2/3k2"),
        "the king was taken: {after}"
    );
    assert_eq!(Rnb::outcome(&after), Some("second"));
}

#[test]
fn rnb_example_16_no_legal_move_loses() {
    let pos = "kR4/RB4/6/6/6/3K2 n 0000 0";
    assert!(Rnb::legal_tokens(pos).is_empty());
    assert_eq!(Rnb::outcome(pos), Some("first"));
}

#[test]
fn rnb_example_17_the_other_placement_is_safe() {
    let pos = "2k3/rbrb2/6/6/6/RBRKB1 s 2222 0";
    let safe = Rnb::play(pos, "R@f2");
    assert_eq!(safe, "2k3/rbrb2/6/6/5R/RBRKB1 n 1222 0");
    assert_eq!(Rnb::outcome(&safe), None);
}

#[test]
fn rnb_counter_counts_movement_plies_only() {
    // §1.8: a placement leaves the counter unchanged.
    let placed = Rnb::play("2k3/6/6/6/6/3K2 s 4444 7", "B@a1");
    assert_eq!(placed, "2k3/6/6/6/6/B2K2 n 4344 7");
    // §1.6-5: the 100th quiet movement ply draws.
    let quiet = Rnb::play("2k3/6/6/6/6/3K2 s 0000 99", "d1d2");
    assert_eq!(quiet, "2k3/6/6/6/3K2/6 n 0000 100");
    assert_eq!(Rnb::outcome(&quiet), Some("draw"));
    assert!(Rnb::legal_tokens(&quiet).is_empty());
}

/// Checks the rows of `cases` marked slow (`slow`) or not against `perft`; returns the leaf
/// count they total.
fn check_rows(cases: &[PerftBlock], perft: fn(&str, u32) -> u64, slow: bool) -> u64 {
    let mut leaves = 0;
    for case in cases {
        for row in case.rows.iter().filter(|row| row.slow == slow) {
            leaves += row.count;
            assert_eq!(
                perft(&case.pos, row.depth),
                row.count,
                "{} d{}",
                case.id,
                row.depth
            );
        }
    }
    leaves
}

fn check_cheap_rows(cases: &[PerftBlock], perft: fn(&str, u32) -> u64) {
    let budget = check_rows(cases, perft, false);
    assert!(
        budget <= 120_000,
        "cheap rows total {budget} leaves: mark some `# slow`"
    );
}

/// Every `# from <id> by <tokens>` block really is what those tokens give, and ids are unique.
fn check_derivations(cases: &[PerftBlock], play: fn(&str, &str) -> String) {
    for (i, case) in cases.iter().enumerate() {
        assert!(
            cases[..i].iter().all(|other| other.id != case.id),
            "duplicate id {}",
            case.id
        );
        if let Some((base, tokens)) = &case.derivation {
            let base = cases[..i]
                .iter()
                .find(|other| &other.id == base)
                .unwrap_or_else(|| panic!("{}: unknown base {base}", case.id));
            let reached = tokens
                .iter()
                .fold(base.pos.clone(), |pos, token| play(&pos, token));
            assert_eq!(reached, case.pos, "{}", case.id);
        }
    }
}

fn duell_cases() -> Vec<PerftBlock> {
    perft_data::load("duell")
}

fn rnb_cases() -> Vec<PerftBlock> {
    perft_data::load("rnb")
}

#[test]
fn duell_data_positions_are_reached_as_documented() {
    check_derivations(&duell_cases(), Duell::play);
}

#[test]
fn rnb_data_positions_are_reached_as_documented() {
    check_derivations(&rnb_cases(), Rnb::play);
}

#[test]
fn duell_data_cheap_rows_match_the_reference() {
    check_cheap_rows(&duell_cases(), Duell::perft);
}

#[test]
fn rnb_data_cheap_rows_match_the_reference() {
    check_cheap_rows(&rnb_cases(), Rnb::perft);
}

#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn duell_data_slow_rows_match_the_reference() {
    check_rows(&duell_cases(), Duell::perft, true);
}

#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn rnb_data_slow_rows_match_the_reference() {
    check_rows(&rnb_cases(), Rnb::perft, true);
}

const TOGETHER_START: &str = "2k3/6/6/6/6/3K2 sn 4444 0";

/// rnb.md §4.1, examples 18 to 21: the joint token, the position it gives and the outcome.
#[test]
fn rnb_together_worked_examples_give_the_stated_results() {
    let south_safe = "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1";
    let south_line = "R@a1,R@b1,R@c1,R@e1,B@f1,B@a2,B@b2,B@c2";
    let north_safe = "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6";
    let north_line = "R@a5,R@b5,R@c5,R@d5,B@e5,B@f5,B@a6,B@b6";
    for (south, north, after, outcome) in [
        (
            south_safe,
            north_safe,
            "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0",
            None,
        ),
        (
            south_line,
            north_safe,
            "bbk1bb/rr2rr/6/6/BBB3/RRRKRB s 0000 0",
            Some("second"),
        ),
        (
            south_line,
            north_line,
            "bbk3/rrrrbb/6/6/BBB3/RRRKRB s 0000 0",
            Some("draw"),
        ),
        (
            south_safe,
            north_line,
            "bbk3/rrrrbb/6/6/RR2RR/BB1KBB s 0000 0",
            Some("first"),
        ),
    ] {
        let reached = Rnb::play(TOGETHER_START, &format!("{south}/{north}"));
        assert_eq!(reached, after, "{south}/{north}");
        assert_eq!(Rnb::outcome(&reached), outcome, "{after}");
    }
    assert_eq!(Rnb::outcome(TOGETHER_START), None);
    assert!(
        Rnb::legal_tokens(TOGETHER_START).is_empty(),
        "no single moves"
    );
    // Example 18: South's 19 steps, listed by hand in the rules.
    assert_eq!(Rnb::perft("bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0", 1), 19);
}

/// rnb.md §4.1: 165 square sets of which 30 fill a rank, 70 colourings each: 2,100
/// arrangements of each side lose.
#[test]
fn rnb_together_counts_of_arrangements_are_those_derived_by_hand() {
    use reference::rnb::Side;
    use reference::rnb_setup::{arrangements, place};
    let start = <Rnb as ReferenceGame>::parse(TOGETHER_START);
    let (south, north) = (arrangements(Side::South), arrangements(Side::North));
    assert_eq!((south.len(), north.len()), (11_550, 11_550));
    // Example 18's arrangements keep the line rule.
    let find = |all: &[reference::rnb_setup::Arrangement], token: &str| {
        all.iter()
            .find(|a| a.token() == token)
            .cloned()
            .expect("listed")
    };
    let south_safe = &find(&south, "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1");
    let north_safe = &find(&north, "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6");
    let losing_south = south
        .iter()
        .filter(|a| Rnb::judge(&place(&start, a, north_safe)) == Some("second"))
        .count();
    let losing_north = north
        .iter()
        .filter(|a| Rnb::judge(&place(&start, south_safe, a)) == Some("first"))
        .count();
    assert_eq!((losing_south, losing_north), (2_100, 2_100));
    assert_eq!(Rnb::perft(TOGETHER_START, 1), 133_402_500);
}

/// The engine's declarations at the joint setup are the reference's, token for token and
/// in the same (rank) order up to sorting.
#[test]
fn rnb_together_declarations_match_the_engine() {
    use reference::rnb_setup::{Arrangement, arrangements};
    let placement = quartet_games::rule_option("Placement").expect("R&B declares it");
    let rules = quartet_core::game::RuleOptions::default()
        .with(
            placement,
            placement.parse_value("together").expect("a value"),
        )
        .expect("in range");
    let game = quartet_engine::new_game(quartet_games::GameKind::Rnb, rules);
    assert_eq!(game.fen(), TOGETHER_START);
    for (side, player) in [
        (
            reference::rnb::Side::South,
            quartet_core::game::Player::First,
        ),
        (
            reference::rnb::Side::North,
            quartet_core::game::Player::Second,
        ),
    ] {
        let mut engine = game.legal_tokens(Some(player));
        let mut reference: Vec<String> =
            arrangements(side).iter().map(Arrangement::token).collect();
        engine.sort();
        reference.sort();
        assert_eq!(engine, reference, "{side:?}");
    }
}
