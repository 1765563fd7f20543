//! Tests of every rule of docs/rules/duell.md §1 and of the worked examples W1–W10.
//! Expected values come from the rules file or are derived by hand in the comments.

use crate::duell::board::square;
use crate::duell::notation::piece_token;
use crate::duell::*;
use quartet_core::game::{Action, Game, MoveList, Node, Outcome, RuleOptions};
use quartet_core::notation::Notation;

/// Parses a DFEN that a test knows to be valid.
pub(super) fn pos(text: &str) -> Duell {
    Duell::parse_position(text, &RuleOptions::default())
        .unwrap_or_else(|e| panic!("test position {text}: {e}"))
}

/// The legal moves of the side to move as sorted tokens.
pub(super) fn tokens(p: &Duell) -> Vec<String> {
    let mut moves = MoveList::new();
    p.legal_moves(p.side, &mut moves);
    let mut out: Vec<String> = moves.iter().map(|&m| p.format_move(m)).collect();
    out.sort();
    out
}

/// The legal moves leaving square `from` (a name like "d4"), as sorted tokens.
pub(super) fn tokens_from(p: &Duell, from: &str) -> Vec<String> {
    tokens(p)
        .into_iter()
        .filter(|t| t.starts_with(from))
        .collect()
}

/// Sorted copies of the space-separated tokens of `list`.
pub(super) fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// `p` after the move `token` (which must parse and be legal).
pub(super) fn after(p: &Duell, token: &str) -> Duell {
    let action = p
        .parse_action(token)
        .unwrap_or_else(|e| panic!("{token} in {}: {e}", p.format_position()));
    assert!(p.is_legal(action), "{token} parsed but is not legal");
    let mut q = p.clone();
    q.apply(action);
    q
}

/// The DFEN token on a square named like "e6" ("" when empty).
pub(super) fn at(p: &Duell, name: &str) -> String {
    let b = name.as_bytes();
    let s = square(b[0] - b'a', b[1] - b'1');
    match p.board[s as usize] {
        EMPTY => String::new(),
        q => piece_token(q),
    }
}

// ---- §1.5, §1.6: the start position -------------------------------------------------

#[test]
fn start_position_matches_section_1_5() {
    let start = Duell::start(&RuleOptions::default());
    assert_eq!(start.format_position(), START_DFEN);
    assert_eq!(start, pos(START_DFEN));
    let rank1 = ["W54", "W14", "W24", "W64", "WK", "W64", "W24", "W14", "W54"];
    let rank8 = ["B53", "B13", "B23", "B63", "BK", "B63", "B23", "B13", "B53"];
    for (file, (w, b)) in rank1.iter().zip(rank8).enumerate() {
        let f = (b'a' + file as u8) as char;
        assert_eq!(at(&start, &format!("{f}1")), *w);
        assert_eq!(at(&start, &format!("{f}8")), b);
    }
    // East faces: rank 1 gives 6 5 1 2 - 2 1 5 6, rank 8 gives 1 2 6 5 - 5 6 2 1.
    let east = |s: u8| die::east(piece::kind(start.board[s as usize]));
    let east1: Vec<u8> = [0, 1, 2, 3, 5, 6, 7, 8]
        .iter()
        .map(|&f| east(square(f, 0)))
        .collect();
    let east8: Vec<u8> = [0, 1, 2, 3, 5, 6, 7, 8]
        .iter()
        .map(|&f| east(square(f, 7)))
        .collect();
    assert_eq!(east1, [6, 5, 1, 2, 2, 1, 5, 6]);
    assert_eq!(east8, [1, 2, 6, 5, 5, 6, 2, 1]);
    // §1.6: White moves first.
    assert_eq!(start.node(), Node::Turn(Player::First));
}

#[test]
fn sides_alternate_and_the_move_number_counts_black_moves() {
    let p = Duell::start(&RuleOptions::default());
    let p = after(&p, "e1e2");
    assert_eq!((p.node(), p.move_number()), (Node::Turn(Player::Second), 1));
    assert!(p.format_position().ends_with(" b 1 1"));
    let p = after(&p, "e8e7");
    assert_eq!((p.node(), p.move_number()), (Node::Turn(Player::First), 2));
    assert!(p.format_position().ends_with(" w 2 2"));
    let p = after(&p, "e2e3");
    assert!(p.format_position().ends_with(" b 3 2"));
}

// ---- W1, W2 -------------------------------------------------------------------------

#[test]
fn w1_the_start_position_has_exactly_the_37_listed_moves() {
    let listed = "a1a6 a1b5n a1c4n a1d3n a1e2n b1b2 c1b2n c1c3 c1d2n d1a4n d1b5n d1c6n d1d7 \
                  d1e6n d1f5n d1g4n d1h3n d1i2n e1e2 f1a2n f1b3n f1c4n f1d5n f1e6n f1f7 f1g6n \
                  f1h5n f1i4n g1f2n g1g3 g1h2n h1h2 i1e2n i1f3n i1g4n i1h5n i1i6";
    let start = Duell::start(&RuleOptions::default());
    assert_eq!(sorted(listed).len(), 37);
    assert_eq!(tokens(&start), sorted(listed));
    assert_eq!(start.count_children(), 37);
}

#[test]
fn w2_orientations_after_single_moves_from_the_start() {
    let start = Duell::start(&RuleOptions::default());
    let cases = [
        ("b1b2", "W31"),
        ("c1c3", "W53"),
        ("d1d7", "W13"),
        ("a1e2n", "W35"),
        ("i1e2n", "W35"),
        ("d1i2n", "W56"),
        ("d1a4n", "W51"),
        ("e1e2", "WK"),
    ];
    for (token, left) in cases {
        let p = after(&start, token);
        assert_eq!(at(&p, &token[2..4]), left, "{token}");
        assert_eq!(at(&p, &token[0..2]), "", "{token} leaves its square");
    }
}

// ---- §1.7, §1.8: paths, L moves, blocking --------------------------------------------

#[test]
fn w3_the_two_l_paths_to_one_square_leave_different_orientations() {
    let p = pos("4BK4/9/9/9/3W325/9/9/4WK4 w 0 1");
    assert_eq!(tokens_from(&p, "d4").len(), 20);
    assert_eq!(at(&after(&p, "d4e6n"), "e6"), "W65");
    assert_eq!(at(&after(&p, "d4e6e"), "e6"), "W15");
}

#[test]
fn w4_two_paths_can_give_one_position_and_are_still_two_moves() {
    let p = pos("4BK4/9/9/9/3W425/9/9/4WK4 w 0 1");
    assert_eq!(tokens_from(&p, "d4").len(), 24);
    for (a, b, target) in [
        ("d4f6n", "d4f6e", "f6"),
        ("d4b6n", "d4b6w", "b6"),
        ("d4f2s", "d4f2e", "f2"),
        ("d4b2s", "d4b2w", "b2"),
    ] {
        let (pa, pb) = (after(&p, a), after(&p, b));
        assert_eq!(at(&pa, target), "W45", "{a}");
        assert_eq!(pa, pb, "{a} and {b} give one position");
        assert_eq!(pa.hash(), pb.hash());
        assert!(tokens(&p).contains(&a.to_string()) && tokens(&p).contains(&b.to_string()));
    }
}

#[test]
fn w5_every_square_before_the_last_must_be_empty() {
    let p = pos("4BK4/9/9/3W145/3W32B13B133/9/9/4WK4 w 0 1");
    let listed = "d4f3s d4b3s d4e2s d4c2s d4d1 d4c6w d4c2w d4b5w d4b3w d4a4";
    assert_eq!(tokens_from(&p, "d4"), sorted(listed));
    // A first step north (own d5) or east (enemy e4) is refused with the blocking square.
    for (token, at) in [
        ("d4d7", "d5"),
        ("d4e6n", "d5"),
        ("d4g4", "e4"),
        ("d4f5e", "e4"),
    ] {
        match p.parse_action(token) {
            Err(quartet_core::notation::NotationError::Illegal { why, .. }) => {
                assert_eq!(why, format!("path blocked at {at}"), "{token}")
            }
            other => panic!("{token}: {other:?}"),
        }
    }
}

#[test]
fn a_piece_moves_exactly_its_value_and_never_lands_on_its_own_side() {
    // A lone 2 on e4 with nothing near: 4 + 8 = 12 paths, all ending 2 steps away.
    let p = pos("4BK4/9/9/9/4W214/9/9/4WK4 w 0 1");
    let moves = tokens_from(&p, "e4");
    assert_eq!(moves.len(), 12);
    // An own piece on a target removes exactly the paths that end there: g4 (straight)
    // and nothing else; an enemy piece there is captured instead.
    let own = pos("4BK4/9/9/9/4W211W322/9/9/4WK4 w 0 1");
    assert_eq!(tokens_from(&own, "e4").len(), 11);
    assert!(!tokens_from(&own, "e4").contains(&"e4g4".to_string()));
    let enemy = pos("4BK4/9/9/9/4W211B322/9/9/4WK4 w 0 1");
    assert_eq!(tokens_from(&enemy, "e4").len(), 12);
    let q = after(&enemy, "e4g4");
    // (2,1,E=3) east twice: (4,1,2) then (5,1,4): W51 on g4, the Black die is gone.
    assert_eq!(at(&q, "g4"), "W51");
    assert_eq!(q.occ[1].count_ones(), 1);
}

#[test]
fn the_key_moves_one_square_and_cannot_turn() {
    let p = pos("4BK4/9/9/9/4WK4/9/9/9 b 0 1");
    let q = after(&p, "e8d8");
    assert_eq!(tokens(&q), sorted("e4d4 e4e3 e4e5 e4f4"));
    assert_eq!(at(&after(&q, "e4e5"), "e5"), "WK");
}

// ---- §1.9, §1.10: captures and wins ----------------------------------------------------

#[test]
fn w6_the_key_captures_by_landing() {
    let p = pos("3W13BK4/9/9/9/9/9/9/4WK4 b 0 1");
    assert_eq!(tokens(&p), sorted("e8e7 e8f8 e8d8"));
    let q = after(&p, "e8d8");
    assert_eq!(at(&q, "d8"), "BK");
    assert_eq!(q.occ[0].count_ones(), 1, "the White die is captured");
    assert_eq!(q.node(), Node::Turn(Player::First));
}

#[test]
fn w7_key_captures_key_and_key_lands_on_the_key_square() {
    let p = pos("4BK4/4WK4/9/9/9/9/9/9 w 0 1");
    let q = after(&p, "e7e8");
    assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::First)));
    assert_eq!(
        q.plies_since_capture(),
        0,
        "a key capture resets the counter"
    );

    let p = pos("BK2WKB134/9/9/9/9/9/9/9 w 0 1");
    let q = after(&p, "d8e8");
    assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::First)));
    for quiet in ["d8d7", "d8c8"] {
        assert_eq!(
            after(&p, quiet).node(),
            Node::Turn(Player::Second),
            "{quiet}"
        );
    }
}

#[test]
fn a_key_wins_by_stepping_onto_the_empty_enemy_key_square() {
    // Black's key reaches e1 (empty, White's key has left it): Black wins.
    let p = pos("9/9/9/9/9/4WK4/9/3BK5 b 5 9");
    let q = after(&p, "d1e1");
    assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::Second)));
    assert_eq!(q.plies_since_capture(), 6);
    // White's key reaches the empty e8.
    let p = pos("9/4WK4/9/9/9/9/9/BK8 w 0 3");
    assert_eq!(
        after(&p, "e7e8").node(),
        Node::Terminal(Outcome::Win(Player::First))
    );
}

#[test]
fn w8_a_die_captures_the_key() {
    let p = pos("4BK4/9/9/4W314/9/9/9/4WK4 w 0 1");
    assert_eq!(tokens_from(&p, "e5").len(), 20);
    let q = after(&p, "e5e8");
    assert_eq!(at(&q, "e8"), "W14");
    assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::First)));
    // A Black die taking White's key wins for Black.
    let p = pos("4BK4/9/9/9/9/9/4B124/4WK4 b 0 1");
    assert_eq!(
        after(&p, "e2e1").node(),
        Node::Terminal(Outcome::Win(Player::Second))
    );
}

#[test]
fn w9_an_ordinary_die_on_the_enemy_key_square_does_not_win() {
    let p = pos("9/4W124/9/9/9/9/BK8/4WK4 w 0 1");
    let q = after(&p, "e7e8");
    assert_eq!(at(&q, "e8"), "W51");
    assert_eq!(q.node(), Node::Turn(Player::Second));
}

#[test]
fn a_finished_game_has_no_moves_for_anyone() {
    let won = after(&pos("4BK4/4WK4/9/9/9/9/9/9 w 0 1"), "e7e8");
    let drawn = pos("4BK4/9/9/9/9/9/9/4WK4 w 200 101");
    for p in [won, drawn] {
        let mut moves = MoveList::new();
        for side in [Player::First, Player::Second] {
            p.legal_moves(side, &mut moves);
            assert!(moves.is_empty());
        }
        assert_eq!(p.count_children(), 0);
        assert!(p.actions().is_empty());
        assert!(matches!(p.node(), Node::Terminal(_)));
    }
}

// ---- §1.11, §1.12, §1.15: no move, draws, end-check order ----------------------------

#[test]
fn w10_the_side_with_no_legal_move_loses() {
    let p = pos("4BK4/9/9/9/9/B138/W62B137/WKW62B136 w 0 1");
    assert!(tokens(&p).is_empty());
    assert_eq!(p.count_children(), 0);
    assert_eq!(p.node(), Node::Terminal(Outcome::Win(Player::Second)));
}

#[test]
fn legal_moves_of_the_side_not_to_move_are_empty() {
    let p = Duell::start(&RuleOptions::default());
    let mut moves = MoveList::new();
    p.legal_moves(Player::Second, &mut moves);
    assert!(moves.is_empty());
}

#[test]
fn two_hundred_plies_without_capture_draw() {
    // 199 plies and a quiet move: drawn.
    let p = pos("4BK4/9/9/9/9/9/9/4WK4 w 199 120");
    assert_eq!(p.node(), Node::Turn(Player::First));
    let q = after(&p, "e1e2");
    assert_eq!(q.plies_since_capture(), 200);
    assert_eq!(q.node(), Node::Terminal(Outcome::Draw));
    // 199 plies and a capture: the counter resets and play goes on.
    let p = pos("4BK4/9/9/9/9/9/4B124/4WK4 w 199 120");
    let q = after(&p, "e1e2");
    assert_eq!(q.plies_since_capture(), 0);
    assert_eq!(q.node(), Node::Turn(Player::Second));
    assert!(q.format_position().ends_with(" b 0 120"));
}

#[test]
fn a_win_comes_before_the_200_ply_draw() {
    // The key steps onto the empty e8 as the 200th quiet ply: a win, not a draw.
    let p = pos("9/4WK4/9/9/9/9/9/BK8 w 199 150");
    let q = after(&p, "e7e8");
    assert_eq!(q.plies_since_capture(), 200);
    assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::First)));
}

#[test]
fn the_200_ply_draw_comes_before_the_no_move_loss() {
    // W10 with Black to move at 199: a quiet Black move leaves White without moves at 200.
    let p = pos("4BK4/9/9/9/9/B138/W62B137/WKW62B136 b 199 150");
    let q = after(&p, "e8e7");
    assert!(tokens(&q).is_empty());
    assert_eq!(q.node(), Node::Terminal(Outcome::Draw));
    // One ply earlier the same position is a loss for White.
    let p = pos("4BK4/9/9/9/9/B138/W62B137/WKW62B136 b 198 150");
    let q = after(&p, "e8e7");
    assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::Second)));
}

#[test]
fn the_hash_covers_placement_orientation_and_side_but_not_the_counters() {
    let a = pos("4BK4/9/9/9/3W325/9/9/4WK4 w 0 1");
    assert_eq!(a.hash(), pos("4BK4/9/9/9/3W325/9/9/4WK4 w 37 60").hash());
    assert_ne!(a.hash(), pos("4BK4/9/9/9/3W325/9/9/4WK4 b 0 1").hash());
    assert_ne!(a.hash(), pos("4BK4/9/9/9/3W355/9/9/4WK4 w 0 1").hash());
    assert_ne!(a.hash(), pos("4BK4/9/9/9/3B325/9/9/4WK4 w 0 1").hash());
    assert_ne!(a.hash(), pos("4BK4/9/9/9/4W324/9/9/4WK4 w 0 1").hash());
}

#[test]
fn key_shuffles_repeat_the_start_within_the_repetition_window() {
    let start = Duell::start(&RuleOptions::default());
    let mut p = start.clone();
    for token in ["e1e2", "e8e7", "e2e1", "e7e8"] {
        p = after(&p, token);
    }
    assert_eq!(p.hash(), start.hash());
    assert_eq!(p.repetition_window(), Some(4));
    assert!(p.format_position().ends_with(" w 4 3"));
    // A capture closes the window.
    let q = after(&pos("3W13BK4/9/9/9/9/9/9/4WK4 b 7 1"), "e8d8");
    assert_eq!(q.repetition_window(), Some(0));
}

#[test]
fn play_keeps_the_incremental_hash_equal_to_a_fresh_one() {
    let mut p = Duell::start(&RuleOptions::default());
    // Straight and L moves of both sides, then a capture: f8f2 rolls B63 south 6 times,
    // (6,3,5) -> (3,1,5) -> (1,4,5) (twice round is a full turn), a 1 that takes e2.
    for token in ["d1d7", "f8f2", "d7d6", "c8c6", "a1e2n", "f2e2"] {
        p = after(&p, token);
        assert_eq!(p.hash(), pos(&p.format_position()).hash(), "after {token}");
    }
    // West from (1,4,5): (E, N, 7 - T) = (5,4,6).
    assert_eq!(at(&p, "e2"), "B54");
    assert_eq!(p.plies_since_capture(), 0);
}

#[test]
fn w1_eight_captures_at_depth_two() {
    let start = Duell::start(&RuleOptions::default());
    let mut replies = MoveList::new();
    let mut captures = 0;
    for action in start.actions() {
        let mut child = start.clone();
        child.apply(action);
        child.legal_moves(Player::Second, &mut replies);
        captures += replies
            .iter()
            .filter(|m| child.board[m.to() as usize] != EMPTY)
            .count();
    }
    assert_eq!(captures, 8);
}

#[test]
fn random_games_end_in_every_way() {
    // Along seeded random games from the start, count how games end: key captures and
    // key-square wins happen; a drawn or no-move end is not required but may occur.
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut wins = [0; 2];
    let mut moves = MoveList::new();
    for _ in 0..200 {
        let mut p = Duell::start(&RuleOptions::default());
        while let Node::Turn(side) = p.node() {
            p.legal_moves(side, &mut moves);
            let m = moves[rng.random_range(0..moves.len())];
            assert!(p.is_legal(Action::Single(m)));
            p.play(m);
        }
        if let Node::Terminal(Outcome::Win(w)) = p.node() {
            wins[w.index()] += 1;
        }
    }
    assert!(wins[0] > 0 && wins[1] > 0, "{wins:?}");
}

#[test]
fn positions_and_moves_stay_small_for_copy_make() {
    assert!(
        std::mem::size_of::<Duell>() <= 128,
        "{}",
        std::mem::size_of::<Duell>()
    );
    assert_eq!(std::mem::size_of::<Move>(), 4);
}
