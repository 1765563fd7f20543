//! Tests of the Duell evaluation: each term by hand-derived values and by direction (more
//! of a good thing scores higher), colour symmetry of every term (the position turned 180°
//! with the colours swapped scores the negation), and the move-ordering knowledge.

use super::*;
use crate::duell::die::{self, Dir};
use quartet_core::eval::tunable::Coefficients;
use quartet_core::game::{Game, MoveList, Node, RuleOptions};
use quartet_core::notation::Notation;
use rand::{RngExt, SeedableRng};

/// The base value of a die in the evaluation's units (for directional checks).
const DIE: i32 = 100;

/// `side`'s own terms (counted +1), merged.
fn side_counts(p: &Duell, side: Player) -> Coefficients {
    let dice = (p.occ[0] | p.occ[1]).count_ones() as i32 - 2;
    let mut c = Coefficients::default();
    p.side_terms(side, 1, (16 - dice).max(0), &mut c);
    c.merged()
}

/// How often weight `w` counts in `c`.
fn count(c: &Coefficients, w: usize) -> i32 {
    c.counts
        .iter()
        .find(|&&(i, _)| i as usize == w)
        .map_or(0, |&(_, n)| n)
}

/// Paths of a value-`n` piece on `s` on an empty board.
fn potential(s: usize, n: usize) -> u8 {
    DIR_PATHS[s][n].iter().sum()
}

/// The sum of `side`'s piece-square-top entries.
fn material(p: &Duell, side: Player) -> i32 {
    side_counts(p, side)
        .counts
        .iter()
        .filter(|&&(i, _)| i as usize >= PST)
        .map(|&(i, n)| WEIGHTS[i as usize] * n)
        .sum()
}

fn pos(text: &str) -> Duell {
    Duell::parse_position(text, &RuleOptions::default())
        .unwrap_or_else(|e| panic!("test position {text}: {e}"))
}

/// The position turned 180° with the colours swapped: the same game for the other side.
/// A die turned 180° keeps its top and shows its old south face to the north.
fn rotated(p: &Duell) -> Duell {
    let mut out = Duell::empty();
    for s in 0..SQUARES as u8 {
        let q = p.board[s as usize];
        if q == EMPTY {
            continue;
        }
        let side = piece::owner(q).other();
        let r = (SQUARES as u8 - 1) - s;
        let moved = if piece::is_key(q) {
            piece::key(side)
        } else {
            let o = piece::kind(q);
            let o2 = die::orientation(die::top(o), 7 - die::north(o)).expect("valid die");
            piece::die(side, o2)
        };
        out.put(r, moved);
    }
    out.set_side(p.side.other());
    out
}

/// Colour symmetry: every term of each side equals the other side's term in the rotated
/// position, the attackers likewise, and the evaluation is negated.
fn assert_symmetric(p: &Duell) {
    let r = rotated(p);
    for side in [Player::First, Player::Second] {
        assert_eq!(
            side_counts(p, side),
            side_counts(&r, side.other()),
            "{side:?} in {}",
            p.format_position()
        );
        let key = p.keys[side.index()];
        let rkey = r.keys[side.other().index()];
        if key != NO_SQUARE {
            assert_eq!(
                p.attackers(side.other(), key),
                r.attackers(side, rkey),
                "{}",
                p.format_position()
            );
        }
    }
    assert_eq!(r.evaluate(), -p.evaluate(), "{}", p.format_position());
}

#[test]
fn potential_counts_paths_on_an_empty_board() {
    // A key in the corner has 2 moves, on a edge 3, inside 4.
    assert_eq!(potential(0, 1), 2);
    assert_eq!(potential(4, 1), 3);
    assert_eq!(potential(13, 1), 4);
    // A 3 on e4 (4 squares to the west and east, 3 south, 4 north): all 4 + 8·2 paths.
    assert_eq!(potential(3 * 9 + 4, 3), 20);
}

#[test]
fn square_classes_fold_the_files_and_count_ranks_from_the_own_side() {
    // a1 and i1 for White, a8 and i8 for Black: class 0. e4 for White = e5 for Black.
    for (side, s) in [(0, 0), (0, 8), (1, 63), (1, 71)] {
        assert_eq!(square_class(side, s), 0, "{side} {s}");
    }
    assert_eq!(square_class(0, 3 * 9 + 4), 3 * 5 + 4);
    assert_eq!(square_class(1, 4 * 9 + 4), 3 * 5 + 4);
    assert_eq!(square_class(0, 9 + 6), 5 + 2, "g2 folds onto c2");
    assert_eq!(Duell::weight_names().len(), WEIGHT_COUNT);
    assert_eq!(WEIGHTS.len(), WEIGHT_COUNT);
}

#[test]
fn material_is_one_table_entry_per_die() {
    // A die showing 2 on a1: the entry of class a1, top 2, once; nothing else of the table.
    let p = pos("4BK4/9/9/9/9/9/9/W233WK4 w 0 1");
    let c = side_counts(&p, Player::First);
    assert_eq!(count(&c, PST + 1), 1);
    assert_eq!(
        c.counts.iter().filter(|&&(i, _)| i as usize >= PST).count(),
        1
    );
    // The same die on e4 reads the e4 entry (whether the centre is worth more is the
    // fit's business); more dice are worth more.
    let centre = pos("4BK4/9/9/9/4W234/9/9/4WK4 w 0 1");
    assert_eq!(
        count(
            &side_counts(&centre, Player::First),
            PST + 6 * (3 * 5 + 4) + 1
        ),
        1
    );
    let two = pos("4BK4/9/9/9/9/9/9/W23W232WK4 w 0 1");
    assert!(material(&two, Player::First) > material(&p, Player::First) + DIE / 2);
    assert!(two.evaluate() > p.evaluate() + DIE / 2);
    // Black has no dice: no material.
    assert_eq!(material(&p, Player::Second), 0);
    for q in [&p, &centre, &two] {
        assert_symmetric(q);
    }
}

#[test]
fn mobility_counts_paths_with_an_open_first_step() {
    // A 2 on a1: first step north (a3; a2 then b2) and east (c1; b1 then b2): 4 paths.
    let free = pos("4BK4/9/9/9/9/9/9/W233WK4 w 0 1");
    assert_eq!(count(&side_counts(&free, Player::First), MOBILITY), 4);
    // An enemy die on a2 closes the two northern paths (only the last square may hold an
    // enemy): 2 left.
    let enemy = pos("4BK4/9/9/9/9/9/B238/W233WK4 w 0 1");
    assert_eq!(count(&side_counts(&enemy, Player::First), MOBILITY), 2);
    // An own 2 on a2 closes them too, and adds its own: north a4 and a3→b3 (2), east c2,
    // b2→b3 and b2→b1 (3); south is a1, west the edge. 2 + 5.
    let own = pos("4BK4/9/9/9/9/9/W238/W233WK4 w 0 1");
    assert_eq!(count(&side_counts(&own, Player::First), MOBILITY), 7);
    // A die showing 1 on a1 captures on a2: the step stays open.
    let one_enemy = pos("4BK4/9/9/9/9/9/B238/W123WK4 w 0 1");
    assert_eq!(count(&side_counts(&one_enemy, Player::First), MOBILITY), 2);
    // A 1 on a1 beside an own 3 on b1: a1 has north only (1). b1 first north: b2 then d2
    // (1), b3 then a3 or c3 (2), b4 (1); first east: c1 then c3 (1), d1 then d2 (1), e1
    // (1); west is a1, south the edge. 1 + 4 + 3.
    let one_own = pos("4BK4/9/9/9/9/9/9/W12W322WK4 w 0 1");
    assert_eq!(count(&side_counts(&one_own, Player::First), MOBILITY), 8);
    // Direction: the blocked position scores lower for White.
    assert!(enemy.evaluate() < free.evaluate() + DIE);
    for q in [&free, &own, &enemy, &one_enemy, &one_own] {
        assert_symmetric(q);
    }
}

#[test]
fn pressure_grows_as_dice_near_the_enemy_key() {
    // White die on e5 is 3 from the Black key on e8, on e2 6 away, on a1 11 away (no
    // pressure).
    let near = pos("4BK4/9/9/4W214/9/9/9/WK8 w 0 1");
    let far = pos("4BK4/9/9/9/9/9/4W214/WK8 w 0 1");
    let corner = pos("4BK4/9/9/9/9/9/9/W21WK7 w 0 1");
    let at = |p: &Duell, d: usize| count(&side_counts(p, Player::First), PRESSURE + d - 1);
    assert_eq!(at(&near, 3), 1);
    assert_eq!(at(&far, 6), 1);
    assert!((1..=6).all(|d| at(&corner, d) == 0));
    assert!((1..=6).filter(|&d| d != 3).all(|d| at(&near, d) == 0));
    for q in [&near, &far, &corner] {
        assert_symmetric(q);
    }
}

#[test]
fn shield_counts_own_dice_beside_the_own_key() {
    // White key e1 with own dice on d1, f1 and e2 (and a Black die on e3, not beside): 3.
    let p = pos("4BK4/9/9/9/9/4B214/4W214/3W21WKW213 w 0 1");
    assert_eq!(count(&side_counts(&p, Player::First), SHIELD), 3);
    assert_eq!(count(&side_counts(&p, Player::Second), SHIELD), 0);
    // A Black die beside the White key is no shield.
    let q = pos("4BK4/9/9/9/9/9/4B214/3W21WKW213 w 0 1");
    assert_eq!(count(&side_counts(&q, Player::First), SHIELD), 2);
    for r in [&p, &q] {
        assert_symmetric(r);
    }
}

#[test]
fn race_rewards_a_key_near_the_enemy_key_square() {
    // Keys only. White's key on e1 is 7 steps from e8: 15 − 7 = 8; on e2: 9.
    let home = pos("4BK4/9/9/9/9/9/9/4WK4 w 0 1");
    let up = pos("4BK4/9/9/9/9/9/4WK4/9 w 0 1");
    assert_eq!(count(&side_counts(&home, Player::First), RACE), 8);
    assert_eq!(count(&side_counts(&up, Player::First), RACE), 9);
    assert_eq!(count(&side_counts(&home, Player::Second), RACE), 8);
    // With no dice left (16 missing) a step is worth RACE + 16 RACE_PER_MISSING; nothing
    // else differs.
    assert_eq!(
        count(&side_counts(&up, Player::First), RACE_PER_MISSING),
        9 * 16
    );
    assert_eq!(
        up.evaluate() - home.evaluate(),
        WEIGHTS[RACE] + 16 * WEIGHTS[RACE_PER_MISSING]
    );
    for q in [&home, &up] {
        assert_symmetric(q);
    }
}

#[test]
fn attackers_of_a_key_are_counted_and_cost_the_side_to_move() {
    // Black to move; White's die on e5 (top 3) reaches e8 straight, the one on c8 (top 2)
    // reaches it through d8: two attackers. A Black die on d8 blocks the second.
    let two = pos("2W211BK4/9/9/4W314/9/9/9/4WK4 b 0 1");
    assert_eq!(two.attackers(Player::First, E8), 2);
    let blocked = pos("2W21B21BK4/9/9/4W314/9/9/9/4WK4 b 0 1");
    assert_eq!(blocked.attackers(Player::First, E8), 1);
    // The same attacking dice moved out of reach (e4, a8) cost Black nothing.
    let none = pos("W213BK4/9/9/9/4W314/9/9/4WK4 b 0 1");
    assert_eq!(none.attackers(Player::First, E8), 0);
    // Black, to move, is worse off (White's view higher) with the key attacked.
    assert!(two.evaluate() > none.evaluate() + WEIGHTS[KEY_ATTACKER]);
    for q in [&two, &blocked, &none] {
        assert_symmetric(q);
    }
}

#[test]
fn a_win_next_move_is_seen() {
    // White to move can take the Black key with the die on e5 (north 3): decisive.
    let p = pos("4BK4/9/9/4W314/9/9/9/4WK4 w 0 1");
    assert_eq!(p.evaluate(), WIN_NEXT_MOVE);
    // The same with Black to move: Black is threatened but may flee.
    let q = pos("4BK4/9/9/4W314/9/9/9/4WK4 b 0 1");
    assert!(q.evaluate() > WEIGHTS[KEY_ATTACKER] / 2);
    // A White key beside e8 with e8 free wins next move too; an own die on e8 stops it.
    let r = pos("BK8/4WK4/9/9/9/9/9/9 w 0 1");
    assert_eq!(r.evaluate(), WIN_NEXT_MOVE);
    let s = pos("BK3W214/4WK4/9/9/9/9/9/9 w 0 1");
    assert!(s.evaluate() < WIN_NEXT_MOVE);
    for x in [&p, &q, &r, &s] {
        assert_symmetric(x);
    }
}

#[test]
fn the_start_position_is_balanced_up_to_the_tempo() {
    let start = Duell::start(&RuleOptions::default());
    assert_eq!(start.evaluate(), WEIGHTS[TEMPO]);
    assert_eq!(rotated(&start), {
        let mut b = start.clone();
        b.set_side(Player::Second);
        b
    });
    assert_eq!(
        side_counts(&start, Player::First),
        side_counts(&start, Player::Second)
    );
}

#[test]
fn evaluation_is_symmetric_and_bounded_along_random_games() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut moves = MoveList::new();
    for _ in 0..40 {
        let mut p = Duell::start(&RuleOptions::default());
        for _ in 0..120 {
            let Node::Turn(side) = p.node() else {
                break;
            };
            let v = p.evaluate();
            assert!(v.abs() < EVAL_LIMIT);
            assert_symmetric(&p);
            p.legal_moves(side, &mut moves);
            for &m in &moves {
                assert!((Duell::move_code(m) as usize) < Duell::MOVE_CODES);
                assert_eq!(p.is_noisy(m), p.order_hint(m) > 0);
            }
            let codes: std::collections::HashSet<u32> =
                moves.iter().map(|&m| Duell::move_code(m)).collect();
            assert_eq!(codes.len(), moves.len());
            p.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}

#[test]
fn a_missing_die_costs_about_a_die() {
    let full = pos("4BK4/9/9/4B314/4W324/9/9/4WK4 w 0 1");
    let less = pos("4BK4/9/9/9/4W324/9/9/4WK4 w 0 1");
    assert!(less.evaluate() - full.evaluate() > DIE / 2);
}

#[test]
fn noisy_moves_are_captures_and_key_square_wins() {
    let p = pos("BK2WKB134/9/9/9/9/9/9/9 w 0 1");
    let mut moves = MoveList::new();
    p.legal_moves(Player::First, &mut moves);
    let noisy: Vec<String> = moves
        .iter()
        .filter(|&&m| p.is_noisy(m))
        .map(|&m| m.token())
        .collect();
    assert_eq!(noisy, vec!["d8e8"]);
    let q = pos("4BK4/9/9/9/9/9/3WK5/9 w 0 1");
    q.legal_moves(Player::First, &mut moves);
    assert!(moves.iter().all(|&m| !q.is_noisy(m)));
    // The key steps onto the empty e8: noisy (it wins), and ordered first.
    let t = pos("BK8/4WK4/9/9/9/9/9/9 w 0 1");
    t.legal_moves(Player::First, &mut moves);
    let win = moves.iter().find(|m| m.to() == E8).expect("e7e8");
    assert!(t.is_noisy(*win));
    assert_eq!(t.order_hint(*win), 10_000);
}

#[test]
fn captures_order_the_most_valuable_victim_first() {
    // White's die on e4 (top 2) can take a 6 on e6 or a 1 on g4; the 6 comes first.
    let p = pos("4BK4/9/4B634/9/4W211B122/9/9/4WK4 w 0 1");
    let mut moves = MoveList::new();
    p.legal_moves(Player::First, &mut moves);
    let hint = |token: &str| {
        let m = moves.iter().find(|m| m.token() == token).expect(token);
        p.order_hint(*m)
    };
    assert!(hint("e4e6") > hint("e4g4"));
    assert_eq!(hint("e4c4"), 0);
}

#[test]
fn move_codes_differ_for_the_two_paths_to_one_square() {
    let a = Move::l_shaped(30, 49, Dir::North, 2, Dir::East, 1);
    let b = Move::l_shaped(30, 49, Dir::East, 1, Dir::North, 2);
    assert_ne!(Duell::move_code(a), Duell::move_code(b));
    assert_eq!(
        Duell::move_code(Move::straight(71, 70, Dir::West, 1)) as usize,
        71 * 360 + 70 * 5
    );
}

#[test]
fn a_null_move_passes_the_turn_only_with_three_dice() {
    // The start: White passes, Black moves, one ply without a capture, still move 1.
    let start = Duell::start(&RuleOptions::default());
    let passed = start.null_move().expect("eight dice may pass");
    assert_eq!(
        passed,
        pos("B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 b 1 1")
    );
    assert_ne!(passed.hash(), start.hash());
    // White has its key and two dice: no pass. Black, with three, passes (move 2 follows).
    let white = pos("B31B31B311BK4/9/9/9/9/9/9/W31W312WK4 w 5 9");
    assert_eq!(white.null_move(), None);
    let black = pos("B31B31B311BK4/9/9/9/9/9/9/W31W312WK4 b 5 9");
    assert_eq!(
        black.null_move(),
        Some(pos("B31B31B311BK4/9/9/9/9/9/9/W31W312WK4 w 6 10"))
    );
    // A finished game (Black's key is gone) passes no turn, though Black has four dice.
    assert_eq!(
        pos("B31B31B31B315/9/9/9/9/9/9/W31W31W31WK5 b 0 1").null_move(),
        None
    );
}

#[test]
fn a_side_is_in_danger_when_the_enemy_could_win_at_once() {
    // A Black die showing 1 on e2 can take White's key on e1: White, to move, is in
    // danger; Black is not (White's key could take the die, which wins nothing).
    let key_attacked = "4BK4/9/9/9/9/9/4B124/4WK4";
    assert!(pos(&format!("{key_attacked} w 0 1")).in_danger());
    assert!(!pos(&format!("{key_attacked} b 0 1")).in_danger());
    // Black's key on e2 can step onto e1, White's key square (rules 1.10(b)), empty or
    // by taking a White die there; a Black die there closes it.
    assert!(pos("9/9/9/9/9/9/4BK4/WK8 w 0 1").in_danger());
    assert!(pos("9/9/9/9/9/9/4BK4/WK3W144 w 0 1").in_danger());
    assert!(!pos("9/9/9/9/9/9/4BK4/WK3B544 w 0 1").in_danger());
    assert!(!Duell::start(&RuleOptions::default()).in_danger());
}
