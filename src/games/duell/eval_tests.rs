//! Tests of the Duell evaluation: each term by hand-derived values and by direction (more
//! of a good thing scores higher), colour symmetry of every term (the position turned 180°
//! with the colours swapped scores the negation), and the move-ordering knowledge.

use super::*;
use crate::game::{Game, MoveList, Node, RuleOptions};
use crate::games::duell::die::{self, Dir};
use crate::notation::Notation;
use rand::{RngExt, SeedableRng};

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
            p.side_terms(side),
            r.side_terms(side.other()),
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
    assert_eq!(POTENTIAL[0][1], 2);
    assert_eq!(POTENTIAL[4][1], 3);
    assert_eq!(POTENTIAL[13][1], 4);
    // A 3 on e4 (4 squares to the west and east, 3 south, 4 north): all 4 + 8·2 paths.
    assert_eq!(POTENTIAL[3 * 9 + 4][3], 20);
}

#[test]
fn material_is_a_die_plus_its_potential() {
    // A die showing 2 on a1. From the corner the squares at distance n are the n + 1
    // squares (x, n − x): two straight paths and 2 L paths to each of the n − 1 others,
    // 2n paths. Top 2: 4. Mean over tops 1..6: (2 + 4 + … + 12) / 6 = 7. So 100 + (4 + 7) / 2.
    let p = pos("4BK4/9/9/9/9/9/9/W233WK4 w 0 1");
    assert_eq!(p.side_terms(Player::First).material, 105);
    assert_eq!(MATERIAL[0][2], 105);
    // The same die in the centre is worth more; more dice are worth more.
    let centre = pos("4BK4/9/9/9/4W234/9/9/4WK4 w 0 1");
    assert!(centre.side_terms(Player::First).material > 105);
    let two = pos("4BK4/9/9/9/9/9/9/W23W232WK4 w 0 1");
    assert!(two.side_terms(Player::First).material > 105 + DIE);
    assert!(two.evaluate() > p.evaluate() + DIE / 2);
    // Black has no dice: no material.
    assert_eq!(p.side_terms(Player::Second).material, 0);
    for q in [&p, &centre, &two] {
        assert_symmetric(q);
    }
}

#[test]
fn mobility_counts_paths_with_an_open_first_step() {
    // A 2 on a1: first step north (a3; a2 then b2) and east (c1; b1 then b2): 4 paths.
    let free = pos("4BK4/9/9/9/9/9/9/W233WK4 w 0 1");
    assert_eq!(free.side_terms(Player::First).mobility, 4);
    // An enemy die on a2 closes the two northern paths (only the last square may hold an
    // enemy): 2 left.
    let enemy = pos("4BK4/9/9/9/9/9/B238/W233WK4 w 0 1");
    assert_eq!(enemy.side_terms(Player::First).mobility, 2);
    // An own 2 on a2 closes them too, and adds its own: north a4 and a3→b3 (2), east c2,
    // b2→b3 and b2→b1 (3); south is a1, west the edge. 2 + 5.
    let own = pos("4BK4/9/9/9/9/9/W238/W233WK4 w 0 1");
    assert_eq!(own.side_terms(Player::First).mobility, 7);
    // A die showing 1 on a1 captures on a2: the step stays open.
    let one_enemy = pos("4BK4/9/9/9/9/9/B238/W123WK4 w 0 1");
    assert_eq!(one_enemy.side_terms(Player::First).mobility, 2);
    // A 1 on a1 beside an own 3 on b1: a1 has north only (1). b1 first north: b2 then d2
    // (1), b3 then a3 or c3 (2), b4 (1); first east: c1 then c3 (1), d1 then d2 (1), e1
    // (1); west is a1, south the edge. 1 + 4 + 3.
    let one_own = pos("4BK4/9/9/9/9/9/9/W12W322WK4 w 0 1");
    assert_eq!(one_own.side_terms(Player::First).mobility, 8);
    // Direction: the blocked position scores lower for White.
    assert!(enemy.evaluate() < free.evaluate() + DIE);
    for q in [&free, &own, &enemy, &one_enemy, &one_own] {
        assert_symmetric(q);
    }
}

#[test]
fn pressure_grows_as_dice_near_the_enemy_key() {
    // White die on e5 is 3 from the Black key on e8: 7 − 3 = 4. On e2: 6 away: 1. On a1:
    // 11 away: 0.
    let near = pos("4BK4/9/9/4W214/9/9/9/WK8 w 0 1");
    let far = pos("4BK4/9/9/9/9/9/4W214/WK8 w 0 1");
    let corner = pos("4BK4/9/9/9/9/9/9/W21WK7 w 0 1");
    assert_eq!(near.side_terms(Player::First).pressure, 4);
    assert_eq!(far.side_terms(Player::First).pressure, 1);
    assert_eq!(corner.side_terms(Player::First).pressure, 0);
    for q in [&near, &far, &corner] {
        assert_symmetric(q);
    }
}

#[test]
fn shield_counts_own_dice_beside_the_own_key() {
    // White key e1 with own dice on d1, f1 and e2 (and a Black die on e3, not beside): 3.
    let p = pos("4BK4/9/9/9/9/4B214/4W214/3W21WKW213 w 0 1");
    assert_eq!(p.side_terms(Player::First).shield, 3);
    assert_eq!(p.side_terms(Player::Second).shield, 0);
    // A Black die beside the White key is no shield.
    let q = pos("4BK4/9/9/9/9/9/4B214/3W21WKW213 w 0 1");
    assert_eq!(q.side_terms(Player::First).shield, 2);
    for r in [&p, &q] {
        assert_symmetric(r);
    }
}

#[test]
fn race_rewards_a_key_near_the_enemy_key_square() {
    // Keys only. White's key on e1 is 7 steps from e8: 15 − 7 = 8; on e2: 9.
    let home = pos("4BK4/9/9/9/9/9/9/4WK4 w 0 1");
    let up = pos("4BK4/9/9/9/9/9/4WK4/9 w 0 1");
    assert_eq!(home.side_terms(Player::First).race, 8);
    assert_eq!(up.side_terms(Player::First).race, 9);
    assert_eq!(home.side_terms(Player::Second).race, 8);
    // With no dice left a step is worth KEY_RACE_BASE + 16; nothing else differs.
    assert_eq!(up.evaluate() - home.evaluate(), KEY_RACE_BASE + 16);
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
    assert!(two.evaluate() > none.evaluate() + KEY_ATTACKER);
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
    assert!(q.evaluate() > KEY_ATTACKER / 2);
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
    assert_eq!(start.evaluate(), TEMPO);
    assert_eq!(rotated(&start), {
        let mut b = start.clone();
        b.set_side(Player::Second);
        b
    });
    assert_eq!(
        start.side_terms(Player::First),
        start.side_terms(Player::Second)
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
