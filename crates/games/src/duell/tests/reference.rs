//! An independent, deliberately naive move generator written straight from rules §1.4,
//! §1.7 and §1.10 (a 2-D grid, (T, N, E) triples rolled by the formulas, every step
//! sequence tried), compared with the engine along seeded random games: the same tokens,
//! the same resulting boards, the same wins.

use super::rules::at;
use crate::duell::*;
use quartet_core::game::{Game, MoveList, Node, Outcome, RuleOptions};
use quartet_core::notation::Notation;
use rand::{RngExt, SeedableRng};

/// A square's contents: colour ('W'/'B') and faces (T, N, E), or `None` faces for a key.
type Cell = Option<(char, Option<(u8, u8, u8)>)>;

/// `grid[y][x]`, y = 0 is rank 1.
type Grid = [[Cell; 9]; 8];

/// Reads the engine's position into a grid, taking E from the rules' table by hand.
fn grid_of(p: &Duell) -> Grid {
    let mut g: Grid = [[None; 9]; 8];
    for (y, row) in g.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            let token = at(p, &name);
            let b = token.as_bytes();
            *cell = match b {
                [] => None,
                [c, b'K'] => Some((*c as char, None)),
                [c, t, n] => {
                    let (t, n) = (t - b'0', n - b'0');
                    Some((*c as char, Some((t, n, east_by_hand(t, n)))))
                }
                _ => panic!("odd token {token}"),
            };
        }
    }
    g
}

/// The rules' table of §1.3, typed again row by row.
fn east_by_hand(t: u8, n: u8) -> u8 {
    let rows: [&[(u8, u8)]; 6] = [
        &[(2, 4), (3, 2), (4, 5), (5, 3)],
        &[(1, 3), (3, 6), (4, 1), (6, 4)],
        &[(1, 5), (2, 1), (5, 6), (6, 2)],
        &[(1, 2), (2, 6), (5, 1), (6, 5)],
        &[(1, 4), (3, 1), (4, 6), (6, 3)],
        &[(2, 3), (3, 5), (4, 2), (5, 4)],
    ];
    rows[t as usize - 1]
        .iter()
        .find(|&&(north, _)| north == n)
        .map(|&(_, e)| e)
        .unwrap_or_else(|| panic!("no die shows T{t} N{n}"))
}

/// One roll by the formulas of §1.4.
fn roll_by_formula((t, n, e): (u8, u8, u8), d: char) -> (u8, u8, u8) {
    match d {
        'n' => (7 - n, t, e),
        's' => (n, 7 - t, e),
        'e' => (7 - e, n, t),
        _ => (e, n, 7 - t),
    }
}

fn vector(d: char) -> (i32, i32) {
    match d {
        'n' => (0, 1),
        's' => (0, -1),
        'e' => (1, 0),
        _ => (-1, 0),
    }
}

fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// Every legal move of `mover` as (token, grid after it, whether it wins).
fn reference_moves(g: &Grid, mover: char) -> Vec<(String, Grid, bool)> {
    let mut out = Vec::new();
    for y in 0..8i32 {
        for x in 0..9i32 {
            let Some((c, faces)) = g[y as usize][x as usize] else {
                continue;
            };
            if c != mover {
                continue;
            }
            let n = faces.map_or(1, |f| f.0) as i32;
            for d1 in ['n', 's', 'e', 'w'] {
                for k in 1..=n {
                    let seconds: &[char] = match (k == n, d1) {
                        (true, _) => &[' '],
                        (false, 'n' | 's') => &['e', 'w'],
                        (false, _) => &['n', 's'],
                    };
                    for &d2 in seconds {
                        let steps: Vec<char> =
                            (0..n).map(|i| if i < k { d1 } else { d2 }).collect();
                        if let Some(result) = try_path(g, x, y, &steps) {
                            let (tx, ty, after, wins) = result;
                            let mut token = format!("{}{}", name(x, y), name(tx, ty));
                            if d2 != ' ' {
                                token.push(d1);
                            }
                            out.push((token, after, wins));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Walks `steps` from (x, y): the end square, the grid after, whether the mover wins.
fn try_path(g: &Grid, x: i32, y: i32, steps: &[char]) -> Option<(i32, i32, Grid, bool)> {
    let (colour, mut faces) = g[y as usize][x as usize]?;
    let (mut cx, mut cy) = (x, y);
    for (i, &d) in steps.iter().enumerate() {
        let (dx, dy) = vector(d);
        cx += dx;
        cy += dy;
        if !(0..9).contains(&cx) || !(0..8).contains(&cy) {
            return None;
        }
        let here = g[cy as usize][cx as usize];
        let last = i + 1 == steps.len();
        match here {
            Some((c, _)) if !last || c == colour => return None,
            _ => {}
        }
        faces = faces.map(|f| roll_by_formula(f, d));
    }
    let victim = g[cy as usize][cx as usize];
    let mut after = *g;
    after[y as usize][x as usize] = None;
    after[cy as usize][cx as usize] = Some((colour, faces));
    let took_key = matches!(victim, Some((_, None)));
    let enemy_key_square = if colour == 'W' { (4, 7) } else { (4, 0) };
    let key_home = faces.is_none() && (cx, cy) == enemy_key_square;
    Some((cx, cy, after, took_key || key_home))
}

#[test]
fn the_engine_agrees_with_a_naive_generator_along_random_games() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut moves = MoveList::new();
    let mut compared = 0;
    for _ in 0..30 {
        let mut p = Duell::start(&RuleOptions::default());
        while let Node::Turn(side) = p.node() {
            let mover = if side == Player::First { 'W' } else { 'B' };
            let grid = grid_of(&p);
            let mut want = reference_moves(&grid, mover);
            want.sort_by(|a, b| a.0.cmp(&b.0));
            p.legal_moves(side, &mut moves);
            let mut got: Vec<(String, Grid, bool)> = moves
                .iter()
                .map(|&m| {
                    let mut q = p.clone();
                    q.play(m);
                    let wins = q.node() == Node::Terminal(Outcome::Win(side));
                    (p.format_move(m), grid_of(&q), wins)
                })
                .collect();
            got.sort_by(|a, b| a.0.cmp(&b.0));
            assert_eq!(got, want, "in {}", p.format_position());
            compared += got.len();
            p.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(compared > 5_000, "only {compared} moves compared");
}
