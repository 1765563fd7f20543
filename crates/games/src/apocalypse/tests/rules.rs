//! One test per rule of docs/rules/apocalypse.md §1 beyond the worked examples (those are in
//! `examples`). Positions and expected results are derived by hand from the rules.

use super::examples::{BLACK_WINS, DRAW, GOES_ON, WHITE_WINS, check, parse, play};
use crate::apocalypse::{Apocalypse, Move, Piece};
use quartet_core::game::{Action, Game, Node, Player};
use quartet_core::notation::Notation;
use rand::{RngExt, SeedableRng};

/// Whether `token` is a legal declaration of `p` in `pos` (it parses to a non-void half).
fn legal(pos: &Apocalypse, p: Player, token: &str) -> bool {
    let joint = match p {
        Player::First => format!("{token}/0000"),
        Player::Second => format!("0000/{token}"),
    };
    match pos.parse_action(&joint) {
        Ok(Action::Joint(w, b)) => !(if p == Player::First { w } else { b }).is_void(),
        other => panic!("{joint}: {other:?}"),
    }
}

#[test]
fn knights_leap_to_empty_or_enemy_squares_never_onto_their_own() {
    let start = "n4/p4/1p3/P1P2/N4 00 0";
    let pos = parse(start, true);
    assert!(legal(&pos, Player::First, "a1b3")); // onto an enemy pawn
    assert!(!legal(&pos, Player::First, "a1c2")); // onto its own pawn
    assert!(!legal(&pos, Player::First, "a1a3")); // not a leap
    assert!(!legal(&pos, Player::Second, "a5b3")); // onto its own pawn
    assert!(legal(&pos, Player::Second, "a5c4"));
    check(start, &["a1b3/a5c4"], "5/p1n2/1N3/P1P2/5 00 0", GOES_ON);
    check(start, &["a1c2/a5c4"], "5/p1n2/1p3/P1P2/N4 10 0", GOES_ON);
}

#[test]
fn pawns_step_straight_to_empty_squares_and_capture_diagonally_only() {
    let pos = parse("n4/p4/1n3/P1P2/1P3 00 0", true);
    let white = |t| legal(&pos, Player::First, t);
    assert!(white("a2a3"));
    assert!(white("a2b3")); // diagonal onto an enemy
    assert!(!white("a2a4")); // double step onto an occupied square
    assert!(white("c2c3"));
    assert!(white("c2b3"));
    assert!(!white("c2d3")); // diagonal onto an empty square
    assert!(!white("c2c4")); // c2 is not a start square
    assert!(white("b1b2"));
    assert!(!white("b1b3")); // double step onto an occupied square
    assert!(!white("b1a2")); // diagonal onto its own pawn
    assert!(!white("a2b2")); // sideways
    assert!(!white("c2c1")); // backwards
    assert!(!white("c2b1")); // diagonally backwards onto its own pawn
    let black = |t| legal(&pos, Player::Second, t);
    assert!(black("a4a3"));
    assert!(!black("a4b3")); // diagonal onto its own knight
    assert!(!black("a4a2")); // double step onto an occupied square
    assert!(!black("a4a5")); // backwards
}

#[test]
fn double_step_needs_a_start_square_and_two_empty_squares() {
    let start = parse("npppn/p3p/5/P3P/NPPPN 00 0", true);
    assert!(legal(&start, Player::First, "c1c3"));
    assert!(!legal(&start, Player::First, "a2a4")); // a4 is occupied
    assert!(legal(&start, Player::Second, "d5d3"));
    assert!(!legal(&start, Player::Second, "e4e2")); // e2 is occupied
    let blocked = parse("p4/5/5/1n3/1P2N 00 0", true);
    assert!(!legal(&blocked, Player::First, "b1b3")); // b2, the square passed, is occupied
    let off = parse("npppn/p3p/5/P3P/NPPPN 00 0", false);
    assert!(!legal(&off, Player::First, "c1c3"));
    assert!(!legal(&off, Player::Second, "d5d3"));
}

#[test]
fn a_double_step_is_played_or_void_by_the_rule_option() {
    let on = play("npppn/p3p/5/P3P/NPPPN 00 0", &["c1c3/c5c3"], true);
    assert_eq!(on.format_position(), "np1pn/p3p/5/P3P/NP1PN 00 0"); // collision on c3
    let off = play("npppn/p3p/5/P3P/NPPPN 00 0", &["c1c3/c5c3"], false);
    assert_eq!(off.format_position(), "npppn/p3p/5/P3P/NPPPN 11 0"); // both void
}

#[test]
fn only_the_double_step_destination_can_collide() {
    // The knight lands on c2, the square the pawn passes: nothing happens to either.
    let pos = play("2p2/5/5/P4/2P1n 00 0", &["c1c3/e1c2"], true);
    assert_eq!(pos.format_position(), "2p2/5/2P2/P1n2/5 00 1");
    // The knight lands on c3, where the pawn arrives: the knight wins.
    let pos = play("2p2/5/5/P3n/2P2 00 0", &["c1c3/e2c3"], true);
    assert_eq!(pos.format_position(), "2p2/5/2n2/P4/5 00 0");
}

#[test]
fn a_redeployed_pawn_on_a_start_square_may_double_step() {
    let start = "4n/1p1P1/5/5/N3N 00 0";
    let redeployed = "4n/5/1p3/5/N1P1N 00 1";
    assert_eq!(
        play(start, &["d4d5@c1/b4b3"], true).format_position(),
        redeployed
    );
    check(redeployed, &["c1c2/b3b2"], "4n/5/5/1pP2/N3N 00 2", GOES_ON);
    let on = play(start, &["d4d5@c1/b4b3", "c1c3/b3b2"], true);
    assert_eq!(on.format_position(), "4n/5/2P2/1p3/N3N 00 2");
    let off = play(start, &["d4d5@c1/b4b3", "c1c3/b3b2"], false);
    assert_eq!(off.format_position(), "4n/5/5/1p3/N1P1N 10 0");
}

#[test]
fn promotion_needs_at_most_one_knight_and_no_suffix() {
    // No knight: the pawn promotes.
    check(
        "4n/1p1P1/5/P4/5 00 0",
        &["d4d5/b4b3"],
        "3Nn/5/1p3/P4/5 00 0",
        GOES_ON,
    );
    // One knight: a redeploy suffix is not allowed.
    check(
        "4n/1p1P1/5/P4/N4 00 0",
        &["d4d5@b2/b4b3"],
        "4n/3P1/1p3/P4/N4 10 0",
        GOES_ON,
    );
    // Two knights: a bare promotion is not allowed.
    check(
        "4n/1p1P1/5/P4/N3N 00 0",
        &["d4d5/b4b3"],
        "4n/3P1/1p3/P4/N3N 10 0",
        GOES_ON,
    );
}

#[test]
fn black_promotes_on_rank_1_even_by_capture() {
    check(
        "n3p/5/5/1p2P/N4 00 0",
        &["e2e3/b2a1"],
        "n3p/5/4P/5/n4 00 0",
        GOES_ON,
    );
}

#[test]
fn redeploy_square_must_be_empty_or_the_origin_and_off_the_last_rank() {
    let pos = parse("4n/1p1P1/5/P4/N3N 00 0", true);
    let white = |t| legal(&pos, Player::First, t);
    assert!(white("d4d5@b2"));
    assert!(white("d4d5@d4")); // the origin
    assert!(white("d4e5@c3")); // capturing on the last rank, then redeploying
    assert!(!white("d4d5@a2")); // its own pawn
    assert!(!white("d4d5@b4")); // an enemy pawn (judged on S, even if it leaves)
    assert!(!white("d4d5@c5")); // the last rank
    assert!(!white("d4d5@d5")); // the landing square, on the last rank
    assert!(!white("a2a3@b2")); // a suffix on a move that does not reach the last rank
    // Knights a1 and e1: 2 + 2; pawn a2: a3 and (DoubleStep) a4; pawn d4: 16 redeploy squares
    // (20 squares off rank 5, less the 5 occupied, plus the origin) for each of d5 and e5.
    assert_eq!(pos.count_legal(Player::First), 38);
    assert_eq!(
        parse("4n/1p1P1/5/P4/N3N 00 0", false).count_legal(Player::First),
        37
    );
    // Black: knight e5 to d3 and c4; pawn b4 to b3 (b4 is not a start square).
    assert_eq!(pos.count_legal(Player::Second), 3);
}

#[test]
fn a_redeploying_pawn_captures_on_its_last_rank_first() {
    check(
        "4n/1p1P1/5/P4/N3N 00 0",
        &["d4e5@c3/b4b3"],
        "5/5/1pP2/P4/N3N 00 0",
        GOES_ON,
    );
}

#[test]
fn a_redeploy_is_not_a_promotion_so_a_last_pawn_may_redeploy() {
    let pos = parse("4n/1p1P1/5/5/N3N 00 0", true);
    assert!(legal(&pos, Player::First, "d4d5@c3"));
}

#[test]
fn two_redeploys_to_one_square_remove_both_pawns() {
    check(
        "n3n/3Pp/5/Pp3/N3N 00 0",
        &["d4d5@c3/b2b1@c3"],
        "n3n/4p/5/P4/N3N 00 0",
        GOES_ON,
    );
}

#[test]
fn a_redeploy_onto_an_arriving_enemy_pawn_removes_both() {
    check(
        "5/2pP1/5/P4/N3N 00 0",
        &["d4d5@c3/c4c3"],
        "5/5/5/P4/N3N 00 0",
        WHITE_WINS,
    );
}

#[test]
fn a_redeploy_onto_a_knight_promoted_in_the_same_turn_loses_the_pawn() {
    check(
        "5/3P1/5/P1p1p/N3N 00 0",
        &["d4d5@c1/c2c1"],
        "5/5/5/P3p/N1n1N 00 0",
        GOES_ON,
    );
}

#[test]
fn a_white_knight_beats_a_black_pawn_on_a_common_square() {
    check(
        "5/2p1p/5/P4/1N3 00 0",
        &["b1c3/c4c3"],
        "5/4p/2N2/P4/5 00 0",
        GOES_ON,
    );
}

#[test]
fn knights_attacking_each_other_swap() {
    check(
        "2n2/p4/1N3/P4/5 00 0",
        &["b3c5/c5b3"],
        "2N2/p4/1n3/P4/5 00 1",
        GOES_ON,
    );
}

#[test]
fn a_knight_captures_a_knight_that_stays() {
    check(
        "2n2/4p/1N3/P4/5 00 0",
        &["b3c5/e4e3"],
        "2N2/5/4p/P4/5 00 0",
        GOES_ON,
    );
}

#[test]
fn a_pawn_capture_whose_target_left_is_a_diagonal_step() {
    check(
        "4p/5/2n2/1P3/5 00 0",
        &["b2c3/c3a4"],
        "4p/n4/2P2/5/5 00 1",
        GOES_ON,
    );
}

#[test]
fn no_progress_counter_resets_only_on_removal_promotion_or_penalty() {
    let cases = [
        // (start, turn, counter after): quiet, swap and redeploy count up ...
        ("npppn/p3p/5/P3P/NPPPN 00 7", "c1c2/c5c4", 8),
        ("2n2/p4/1N3/P4/5 00 7", "b3c5/c5b3", 8),
        ("4n/1p1P1/5/P4/N3N 00 7", "d4d5@b2/b4b3", 8),
        // ... collisions, captures, promotions and penalties reset it.
        ("npppn/p3p/5/P3P/NPPPN 00 7", "a1b3/a5b3", 0),
        ("2p2/4p/1N3/P4/5 00 7", "b3c5/e4e3", 0),
        ("4n/1p1P1/5/P4/N4 00 7", "d4d5/b4b3", 0),
        ("npppn/p3p/5/P3P/NPPPN 00 7", "c1c2/0000", 0),
        ("n3n/3Pp/5/Pp3/N3N 00 7", "d4d5@c3/b2b1@c3", 0),
    ];
    for (start, turn, counter) in cases {
        for double_step in [true, false] {
            let pos = play(start, &[turn], double_step);
            assert_eq!(pos.no_progress(), counter, "{start} {turn}");
        }
    }
}

#[test]
fn counter_reaching_50_is_a_draw() {
    check(
        "n4/p4/5/P4/N4 00 48",
        &["a1c2/a5c4"],
        "5/p1n2/5/P1N2/5 00 49",
        GOES_ON,
    );
    check(
        "n4/p4/5/P4/N4 00 49",
        &["a1c2/a5c4"],
        "5/p1n2/5/P1N2/5 00 50",
        DRAW,
    );
    assert_eq!(parse("n4/p4/5/P4/N4 00 50", true).node(), DRAW);
}

#[test]
fn pawns_are_checked_before_penalties_and_penalties_before_no_legal_move() {
    assert_eq!(parse("4n/5/5/P4/N4 22 0", true).node(), WHITE_WINS); // Black has no pawn
    assert_eq!(parse("4n/5/5/5/N4 22 0", true).node(), DRAW); // nobody has a pawn
    assert_eq!(parse("4n/p4/5/P4/N4 20 0", true).node(), BLACK_WINS);
    assert_eq!(parse("4n/p4/5/P4/N4 02 50", true).node(), WHITE_WINS);
    // White's second penalty and White left without a legal move in one turn: Black wins.
    check(
        "n4/p4/5/P4/5 10 0",
        &["0000/a4a3"],
        "n4/5/p4/P4/5 20 0",
        BLACK_WINS,
    );
    check(
        "n4/p4/5/P4/5 00 0",
        &["0000/a4a3"],
        "n4/5/p4/P4/5 10 0",
        DRAW,
    );
}

#[test]
fn black_without_a_legal_move_is_a_draw() {
    assert_eq!(parse("5/5/p4/P4/N4 00 0", true).node(), DRAW);
}

#[test]
fn finished_games_have_no_moves_and_ignore_turns() {
    let mut pos = parse("4n/2p2/5/5/N4 00 0", true); // Black has won
    let before = pos.clone();
    let mut moves = vec![Move::VOID];
    pos.legal_moves(Player::Second, &mut moves);
    assert!(moves.is_empty());
    assert_eq!(pos.count_children(), 0);
    let c4c3 = Move::new(17, 12, None).unwrap();
    assert!(!pos.is_legal(Action::Joint(Move::VOID, c4c3)));
    pos.play_joint(Move::VOID, c4c3);
    assert_eq!(pos, before);
}

#[test]
fn joint_actions_are_legal_with_void_halves_and_singles_never() {
    let pos = parse("npppn/p3p/5/P3P/NPPPN 00 0", true);
    let c1c2 = Move::new(2, 7, None).unwrap();
    let c5c4 = Move::new(22, 17, None).unwrap();
    let a2b3 = Move::new(5, 11, None).unwrap(); // well formed, illegal here
    assert!(pos.is_legal(Action::Joint(c1c2, c5c4)));
    assert!(pos.is_legal(Action::Joint(Move::VOID, c5c4)));
    assert!(pos.is_legal(Action::Joint(c1c2, Move::VOID)));
    assert!(pos.is_legal(Action::Joint(Move::VOID, Move::VOID)));
    assert!(!pos.is_legal(Action::Joint(a2b3, c5c4)));
    assert!(!pos.is_legal(Action::Joint(c5c4, c1c2))); // halves swapped
    assert!(!pos.is_legal(Action::Single(c1c2)));
    // Played unchecked, an illegal declaration counts as void.
    let mut unchecked = pos.clone();
    unchecked.play_joint(a2b3, c5c4);
    let mut checked = pos.clone();
    checked.play_joint(Move::VOID, c5c4);
    assert_eq!(unchecked, checked);
    assert_eq!(checked.penalties(Player::First), 1);
}

/// Positions met along seeded random playouts (random joint turns, voids included).
pub(in crate::apocalypse) fn random_positions(
    double_step: bool,
    games: usize,
    seed: u64,
) -> Vec<Apocalypse> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut seen = Vec::new();
    for _ in 0..games {
        let mut pos = parse("npppn/p3p/5/P3P/NPPPN 00 0", double_step);
        while pos.node() == Node::Simultaneous && seen.len() < 100_000 {
            seen.push(pos.clone());
            let mut pick = |p| {
                let mut moves = Vec::new();
                pos.legal_moves(p, &mut moves);
                // One time in 50 a side declares void.
                if rng.random_range(0..50) == 0 {
                    Move::VOID
                } else {
                    moves[rng.random_range(0..moves.len())]
                }
            };
            let (w, b) = (pick(Player::First), pick(Player::Second));
            pos.play_joint(w, b);
        }
    }
    seen
}

#[test]
fn generated_declarations_are_exactly_the_legal_ones() {
    for double_step in [true, false] {
        for pos in random_positions(double_step, 6, 11).iter().step_by(7) {
            for p in [Player::First, Player::Second] {
                let mut moves = Vec::new();
                pos.legal_moves(p, &mut moves);
                let mut codes: Vec<u32> = moves.iter().map(|m| m.code()).collect();
                codes.sort_unstable();
                codes.dedup();
                assert_eq!(codes.len(), moves.len(), "duplicates");
                for from in 0..25 {
                    for to in 0..25 {
                        for r in (0..25).map(Some).chain([None]) {
                            let m = Move::new(from, to, r).unwrap();
                            assert_eq!(
                                pos.is_legal_declaration(p, m),
                                moves.contains(&m),
                                "{} {p:?} {}",
                                pos.format_position(),
                                pos.format_move(m)
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Boards of a few random pieces (no pawn on its own last rank, at most two knights a
/// side), where sides are often left without a legal move.
fn random_sparse_boards(count: usize, seed: u64) -> Vec<Apocalypse> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut boards = Vec::new();
    while boards.len() < count {
        let mut board = [None; 25];
        for p in [Player::First, Player::Second] {
            let last = if p == Player::First { 4 } else { 0 };
            for (piece, most) in [(Piece::Pawn, 3), (Piece::Knight, 2)] {
                for _ in 0..rng.random_range(0..=most) {
                    let sq: u8 = rng.random_range(0..25);
                    if board[usize::from(sq)].is_none() && !(piece == Piece::Pawn && sq / 5 == last)
                    {
                        board[usize::from(sq)] = Some((p, piece));
                    }
                }
            }
        }
        boards.push(Apocalypse::from_parts(
            board,
            [0, 0],
            0,
            rng.random_bool(0.5),
        ));
    }
    boards
}

#[test]
fn a_side_has_a_legal_declaration_iff_one_is_generated() {
    let (mut with, mut without) = (0, 0);
    let positions = random_positions(true, 10, 7);
    for pos in positions.iter().chain(&random_sparse_boards(20_000, 3)) {
        for p in [Player::First, Player::Second] {
            let generated = pos.count_legal(p) > 0;
            assert_eq!(
                pos.has_legal(p),
                generated,
                "{} {p:?}",
                pos.format_position()
            );
            if generated {
                with += 1;
            } else {
                without += 1;
            }
        }
    }
    // Both answers are met often.
    assert!(with > 1000 && without > 1000, "{with} {without}");
}

#[test]
fn legal_joint_turns_play_as_the_judged_ones() {
    for double_step in [true, false] {
        for pos in random_positions(double_step, 6, 13).iter().step_by(3) {
            let (mut white, mut black) = (Vec::new(), Vec::new());
            pos.legal_moves(Player::First, &mut white);
            pos.legal_moves(Player::Second, &mut black);
            for &w in &white {
                for &b in &black {
                    let (mut judged, mut trusted) = (pos.clone(), pos.clone());
                    judged.play_joint(w, b);
                    trusted.play_legal_joint(w, b);
                    assert_eq!(trusted, judged, "{}", pos.format_position());
                }
            }
        }
    }
}

#[test]
fn incremental_hash_equals_a_fresh_computation() {
    for double_step in [true, false] {
        for pos in random_positions(double_step, 20, 5) {
            assert_eq!(pos.hash(), pos.fresh_hash(), "{}", pos.format_position());
        }
    }
}
