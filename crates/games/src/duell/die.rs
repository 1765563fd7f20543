//! The die model of rules §1.2–§1.4: the 24 orientations of a right-handed die, stored as
//! an index 0..24, and the tables that roll it one or more squares in a direction.
//!
//! An orientation is the pair (T, N) = (top face, north face); the east face follows from
//! the rules' table. The index is `(T - 1) * 4 + j`, where `j` counts the valid north faces
//! of that top in increasing order, so `top = index / 4 + 1`.

/// The four directions of a step. North is towards rank 8, east towards file i.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Towards rank 8.
    North = 0,
    /// Towards rank 1.
    South = 1,
    /// Towards file i.
    East = 2,
    /// Towards file a.
    West = 3,
}

impl Dir {
    /// All four directions in index order (the order of move generation).
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

    /// The direction with this index (0..4; the index is taken modulo 4).
    pub const fn from_index(i: usize) -> Dir {
        match i & 3 {
            0 => Dir::North,
            1 => Dir::South,
            2 => Dir::East,
            _ => Dir::West,
        }
    }

    /// The two directions at a right angle to `self`, in index order.
    pub const fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::North | Dir::South => [Dir::East, Dir::West],
            Dir::East | Dir::West => [Dir::North, Dir::South],
        }
    }

    /// The notation letter of the direction (`n`, `s`, `e`, `w`).
    pub const fn letter(self) -> char {
        match self {
            Dir::North => 'n',
            Dir::South => 's',
            Dir::East => 'e',
            Dir::West => 'w',
        }
    }

    /// The direction named by a notation letter, if it is one of `n`, `s`, `e`, `w`.
    pub const fn from_letter(c: char) -> Option<Dir> {
        match c {
            'n' => Some(Dir::North),
            's' => Some(Dir::South),
            'e' => Some(Dir::East),
            'w' => Some(Dir::West),
            _ => None,
        }
    }
}

/// The number of orientations of an ordinary die.
pub const ORIENTATIONS: usize = 24;

/// The east face for each (top, north) pair, indexed `[T][N]` with faces 1..=6; 0 marks an
/// impossible pair (N = T or N = 7 − T). Copied from the table of rules §1.3.
const EAST_FACE: [[u8; 7]; 7] = [
    [0, 0, 0, 0, 0, 0, 0],
    [0, 0, 4, 2, 5, 3, 0],
    [0, 3, 0, 6, 1, 0, 4],
    [0, 5, 1, 0, 0, 6, 2],
    [0, 2, 6, 0, 0, 1, 5],
    [0, 4, 0, 1, 6, 0, 3],
    [0, 0, 3, 5, 2, 4, 0],
];

/// The east face of the orientation (T, N), or `None` if no die can show that pair.
pub const fn east_face(top: u8, north: u8) -> Option<u8> {
    if top < 1 || top > 6 || north < 1 || north > 6 {
        return None;
    }
    match EAST_FACE[top as usize][north as usize] {
        0 => None,
        e => Some(e),
    }
}

/// The orientation index of (T, N), or `None` if no die can show that pair.
pub const fn orientation(top: u8, north: u8) -> Option<u8> {
    if east_face(top, north).is_none() {
        return None;
    }
    // Count the valid north faces below `north` for this top.
    let mut j = 0;
    let mut f = 1;
    while f < north {
        if f != top && f != 7 - top {
            j += 1;
        }
        f += 1;
    }
    Some((top - 1) * 4 + j)
}

/// The top face (the die's value, 1..=6) of orientation `o` (< 24).
pub const fn top(o: u8) -> u8 {
    o / 4 + 1
}

/// The north face of orientation `o` (< 24).
pub const fn north(o: u8) -> u8 {
    let t = top(o);
    let mut j = o % 4;
    let mut f = 1;
    loop {
        if f != t && f != 7 - t {
            if j == 0 {
                return f;
            }
            j -= 1;
        }
        f += 1;
    }
}

/// The east face of orientation `o` (< 24).
pub const fn east(o: u8) -> u8 {
    EAST_FACE[top(o) as usize][north(o) as usize]
}

/// Orientation `o` (< 24) as seen from the other side of the board: the board turned half a
/// turn about the vertical, so the top stays, the north face becomes the old south face
/// (7 − N) and the east face the old west face (a rotation: the die stays right-handed).
pub const fn half_turn(o: u8) -> u8 {
    match orientation(top(o), 7 - north(o)) {
        Some(x) => x,
        None => panic!("a half turn left the 24 orientations"),
    }
}

/// Rolls orientation `o` one square towards `d` (the formulas of rules §1.4).
const fn roll_once(o: u8, d: Dir) -> u8 {
    let (t, n, e) = (top(o), north(o), east(o));
    let (t2, n2) = match d {
        Dir::North => (7 - n, t),
        Dir::South => (n, 7 - t),
        Dir::East => (7 - e, n),
        Dir::West => (e, n),
    };
    match orientation(t2, n2) {
        Some(x) => x,
        None => panic!("a roll left the 24 orientations"),
    }
}

/// `ROLL_POW[d][c][o]`: orientation `o` after rolling `c` squares (0..4) towards `d`.
/// Four rolls in one direction are the identity, so any count reduces modulo 4.
pub const ROLL_POW: [[[u8; ORIENTATIONS]; 4]; 4] = build_roll_pow();

const fn build_roll_pow() -> [[[u8; ORIENTATIONS]; 4]; 4] {
    let mut t = [[[0u8; ORIENTATIONS]; 4]; 4];
    let mut d = 0;
    while d < 4 {
        let mut o = 0;
        while o < ORIENTATIONS {
            let mut cur = o as u8;
            let mut c = 0;
            while c < 4 {
                t[d][c][o] = cur;
                cur = roll_once(cur, Dir::from_index(d));
                c += 1;
            }
            o += 1;
        }
        d += 1;
    }
    t
}

/// Orientation `o` after `count` rolls towards `d`.
#[inline]
pub fn roll(o: u8, d: Dir, count: u32) -> u8 {
    ROLL_POW[d as usize][(count & 3) as usize][o as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (T, N, E) of an orientation.
    fn faces(o: u8) -> (u8, u8, u8) {
        (top(o), north(o), east(o))
    }

    #[test]
    fn there_are_24_distinct_orientations_with_consistent_faces() {
        let mut seen = std::collections::HashSet::new();
        for t in 1..=6u8 {
            for n in 1..=6u8 {
                let valid = n != t && n != 7 - t;
                assert_eq!(orientation(t, n).is_some(), valid, "T{t} N{n}");
                if let Some(o) = orientation(t, n) {
                    assert!((o as usize) < ORIENTATIONS);
                    assert_eq!((top(o), north(o)), (t, n));
                    let e = east(o);
                    assert!(
                        e != t && e != 7 - t && e != n && e != 7 - n,
                        "T{t} N{n} E{e}"
                    );
                    seen.insert(o);
                }
            }
        }
        assert_eq!(seen.len(), 24);
    }

    #[test]
    fn the_table_is_right_handed() {
        // With 1 on top and 2 facing you (south), 3 is on your right (east): N = 5, E = 3.
        assert_eq!(east_face(1, 5), Some(3));
        // Right-handedness is a rotation invariant: at 1, 2, 3 around their shared corner
        // the cross product of the face normals is positive. Check it for every orientation
        // via the vectors of the faces showing 1, 2 and 3.
        for o in 0..24u8 {
            let (t, n, e) = faces(o);
            let normal = |face: u8| -> [i32; 3] {
                // x = east, y = north, z = up.
                if face == t {
                    [0, 0, 1]
                } else if face == 7 - t {
                    [0, 0, -1]
                } else if face == n {
                    [0, 1, 0]
                } else if face == 7 - n {
                    [0, -1, 0]
                } else if face == e {
                    [1, 0, 0]
                } else {
                    [-1, 0, 0]
                }
            };
            let (a, b, c) = (normal(1), normal(2), normal(3));
            let cross = [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ];
            // 1, 2, 3 counter-clockwise seen from outside the corner means (1 x 2) . 3 > 0.
            let dot = cross[0] * c[0] + cross[1] * c[1] + cross[2] * c[2];
            assert_eq!(dot, 1, "orientation {o} {:?}", faces(o));
        }
    }

    #[test]
    fn all_96_rolls_follow_the_formulas_of_section_1_4() {
        for o in 0..24u8 {
            let (t, n, e) = faces(o);
            let expected = [
                (Dir::North, (7 - n, t, e)),
                (Dir::South, (n, 7 - t, e)),
                (Dir::East, (7 - e, n, t)),
                (Dir::West, (e, n, 7 - t)),
            ];
            for (d, want) in expected {
                let got = roll(o, d, 1);
                // The full triple, east face included, must match: this checks the east
                // table against the formulas too.
                assert_eq!(faces(got), want, "roll {d:?} from {:?}", faces(o));
            }
        }
    }

    #[test]
    fn four_rolls_in_one_direction_return_to_the_start() {
        for o in 0..24u8 {
            for d in Dir::ALL {
                let mut cur = o;
                for step in 1..=4 {
                    cur = roll(cur, d, 1);
                    assert_eq!(cur == o, step == 4, "{d:?} x{step} from {o}");
                }
                assert_eq!(roll(o, d, 4), o);
                assert_eq!(roll(o, d, 2), roll(roll(o, d, 1), d, 1));
                assert_eq!(roll(o, d, 3), roll(roll(o, d, 2), d, 1));
            }
        }
    }

    #[test]
    fn the_two_l_orders_agree_exactly_for_legs_2_2_1_4_and_2_4() {
        // Rules §1.8: the vertical-first and horizontal-first paths with the same legs
        // give the same orientation exactly when the legs are {2,2}, {1,4} or {2,4}.
        for v in 1..=5u32 {
            for h in 1..=(6 - v) {
                let mut legs = [v, h];
                legs.sort();
                let same_expected = matches!(legs, [2, 2] | [1, 4] | [2, 4]);
                for (vd, hd) in [(Dir::North, Dir::East), (Dir::South, Dir::West)] {
                    let same = (0..24u8)
                        .all(|o| roll(roll(o, vd, v), hd, h) == roll(roll(o, hd, h), vd, v));
                    assert_eq!(same, same_expected, "legs {v} {vd:?} and {h} {hd:?}");
                }
            }
        }
    }

    #[test]
    fn worked_example_w2_hand_rolls() {
        // c1 (2,4,1) -> n (3,2,1) -> n (5,3,1).
        let c1 = orientation(2, 4).unwrap();
        assert_eq!(faces(c1), (2, 4, 1));
        assert_eq!(faces(roll(c1, Dir::North, 1)), (3, 2, 1));
        assert_eq!(faces(roll(c1, Dir::North, 2)), (5, 3, 1));
    }

    #[test]
    fn a_half_turn_keeps_the_top_and_swaps_north_with_south_and_east_with_west() {
        for o in 0..24u8 {
            let (t, n, e) = faces(half_turn(o));
            assert_eq!((t, n, e), (top(o), 7 - north(o), 7 - east(o)), "{o}");
            assert_eq!(half_turn(half_turn(o)), o);
        }
        // White's a1 die (5, 4) seen from Black is Black's i8 die (5, 3) seen from White.
        let (white, black) = (orientation(5, 4).unwrap(), orientation(5, 3).unwrap());
        assert_eq!(half_turn(black), white);
    }

    #[test]
    fn letters_round_trip() {
        for d in Dir::ALL {
            assert_eq!(Dir::from_letter(d.letter()), Some(d));
            assert_eq!(Dir::from_index(d as usize), d);
            for p in d.perpendicular() {
                assert_ne!(p, d);
                assert!(!p.perpendicular().contains(&p));
                assert!(p.perpendicular().contains(&d));
            }
        }
        assert_eq!(Dir::from_letter('x'), None);
    }
}
