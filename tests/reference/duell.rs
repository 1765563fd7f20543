//! A slow, deliberately plain reference implementation of Duell, written straight from
//! `docs/rules/duell.md` (rule numbers quoted as §1.x). It shares no code with the crate,
//! so its perft counts are an independent check of the fast move generator.
//!
//! Readings chosen where the rules leave room (see also the module tests):
//! - A bare position string is judged with the side *not* to move as the player who just
//!   moved (as R&B's §1.8 says explicitly); only that player's wins (§1.10) are looked for.
//! - A position string may lack a key piece (the position after a key capture), but may not
//!   hold two keys of one side.

use super::game::{ReferenceGame, board_field};

/// Files a–i (§1.1).
const FILES: i32 = 9;
/// Ranks 1–8 (§1.1).
const RANKS: i32 = 8;
/// §1.12(b): the game is drawn after this many consecutive plies without a capture.
const NO_CAPTURE_DRAW_PLIES: u32 = 200;

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    White,
    Black,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// §1.1: White's key square is e1, Black's is e8.
    fn key_square(self) -> Square {
        match self {
            Side::White => Square { x: 4, y: 0 },
            Side::Black => Square { x: 4, y: 7 },
        }
    }

    fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
}

/// §1.3: an ordinary die's top, north and east faces. Bottom, south and west are 7 minus these.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Faces {
    top: u8,
    north: u8,
    east: u8,
}

/// §1.2: a piece is a key (value 1 on every face) or an ordinary die.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Key,
    Die(Faces),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    side: Side,
    kind: Kind,
}

/// A square: x = file (0 = a), y = rank (0 = rank 1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Square {
    x: i32,
    y: i32,
}

impl Square {
    fn on_board(self) -> bool {
        (0..FILES).contains(&self.x) && (0..RANKS).contains(&self.y)
    }

    fn step(self, d: Dir) -> Square {
        let (dx, dy) = d.delta();
        Square {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// §1.13: a square is a letter and one digit.
    fn name(self) -> String {
        format!("{}{}", (b'a' + self.x as u8) as char, self.y + 1)
    }
}

/// The four orthogonal directions of §1.4 and §1.7.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Dir {
    North,
    South,
    East,
    West,
}

const ALL_DIRS: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];

impl Dir {
    fn delta(self) -> (i32, i32) {
        match self {
            Dir::North => (0, 1),
            Dir::South => (0, -1),
            Dir::East => (1, 0),
            Dir::West => (-1, 0),
        }
    }

    /// §1.7: the second leg of an L is perpendicular to the first.
    fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::North | Dir::South => [Dir::East, Dir::West],
            Dir::East | Dir::West => [Dir::North, Dir::South],
        }
    }

    /// §1.13: the suffix naming the first leg of an L move.
    fn letter(self) -> char {
        match self {
            Dir::North => 'n',
            Dir::South => 's',
            Dir::East => 'e',
            Dir::West => 'w',
        }
    }
}

/// §1.3: the east face of a die with top `t` and north `n`, read from the rules' table.
/// `None` for the 12 impossible pairs (n = t or n = 7 − t) and for values outside 1..=6.
fn east_face(t: u8, n: u8) -> Option<u8> {
    // Rows T = 1..6, columns N = 1..6; 0 marks "–".
    const TABLE: [[u8; 6]; 6] = [
        [0, 4, 2, 5, 3, 0],
        [3, 0, 6, 1, 0, 4],
        [5, 1, 0, 0, 6, 2],
        [2, 6, 0, 0, 1, 5],
        [4, 0, 1, 6, 0, 3],
        [0, 3, 5, 2, 4, 0],
    ];
    if !(1..=6).contains(&t) || !(1..=6).contains(&n) {
        return None;
    }
    match TABLE[(t - 1) as usize][(n - 1) as usize] {
        0 => None,
        e => Some(e),
    }
}

/// §1.4: the die tips over the edge it moves towards.
fn roll(f: Faces, d: Dir) -> Faces {
    let Faces {
        top: t,
        north: n,
        east: e,
    } = f;
    let (top, north, east) = match d {
        Dir::North => (7 - n, t, e),
        Dir::South => (n, 7 - t, e),
        Dir::East => (7 - e, n, t),
        Dir::West => (e, n, 7 - t),
    };
    Faces { top, north, east }
}

/// One move: the piece on `from` takes the single steps of `path` (§1.7).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Move {
    from: Square,
    path: Vec<Dir>,
}

impl Move {
    fn to(&self) -> Square {
        self.path.iter().fold(self.from, |sq, &d| sq.step(d))
    }

    /// An L move turns once; a straight move keeps one direction.
    fn is_l(&self) -> bool {
        self.path.iter().any(|&d| d != self.path[0])
    }
}

/// A position as in §1.14: the board, the side to move and the two counters.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    /// `board[y][x]`, y = 0 is rank 1.
    board: [[Option<Piece>; FILES as usize]; RANKS as usize],
    to_move: Side,
    plies_since_capture: u32,
    move_number: u32,
}

impl Position {
    fn at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.y as usize][sq.x as usize]
    }

    fn set(&mut self, sq: Square, p: Option<Piece>) {
        self.board[sq.y as usize][sq.x as usize] = p;
    }

    fn key_of(&self, side: Side) -> Option<Square> {
        self.squares().into_iter().find(|&sq| {
            self.at(sq)
                == Some(Piece {
                    side,
                    kind: Kind::Key,
                })
        })
    }

    fn squares(&self) -> Vec<Square> {
        let mut v = Vec::new();
        for y in 0..RANKS {
            for x in 0..FILES {
                v.push(Square { x, y });
            }
        }
        v
    }
}

/// §1.7: keeps the path if every step stays on the board, every square before the last is
/// empty, and the last square is empty or holds an enemy piece.
fn consider(pos: &Position, from: Square, path: Vec<Dir>, moves: &mut Vec<Move>) {
    let mover = pos.at(from).expect("a piece on the start square").side;
    let mut sq = from;
    for (i, &d) in path.iter().enumerate() {
        sq = sq.step(d);
        if !sq.on_board() {
            return;
        }
        let last = i + 1 == path.len();
        match pos.at(sq) {
            None => {}
            Some(p) if last && p.side != mover => {}
            Some(_) => return,
        }
    }
    moves.push(Move { from, path });
}

/// The Duell reference: its rules are the functions of this impl, and it is driven by
/// position strings and tokens through [`ReferenceGame`]'s provided functions.
pub struct Duell;

impl ReferenceGame for Duell {
    type Position = Position;
    type Move = Move;

    /// The start position of §1.14.
    const START: &'static str =
        "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1";

    /// §1.14: parses a DFEN string. Panics on anything the formatter would not write.
    fn parse(s: &str) -> Position {
        let fields: Vec<&str> = s.split(' ').collect();
        assert_eq!(fields.len(), 4, "DFEN needs 4 fields: {s:?}");
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), RANKS as usize, "DFEN needs 8 ranks: {s:?}");
        let mut pos = Position {
            board: [[None; FILES as usize]; RANKS as usize],
            to_move: match fields[1] {
                "w" => Side::White,
                "b" => Side::Black,
                other => panic!("bad side {other:?} in {s:?}"),
            },
            plies_since_capture: fields[2].parse().expect("plies-since-capture"),
            move_number: fields[3].parse().expect("move number"),
        };
        assert!(pos.move_number >= 1, "move number starts at 1: {s:?}");
        for (i, rank_text) in ranks.iter().enumerate() {
            let y = RANKS - 1 - i as i32;
            let chars: Vec<char> = rank_text.chars().collect();
            let (mut x, mut i) = (0, 0);
            while i < chars.len() {
                let c = chars[i];
                if let Some(empty) = c.to_digit(10) {
                    assert!((1..=9).contains(&empty), "bad empty count in {s:?}");
                    x += empty as i32;
                    i += 1;
                    continue;
                }
                let side = match c {
                    'W' => Side::White,
                    'B' => Side::Black,
                    _ => panic!("bad piece letter {c:?} in {s:?}"),
                };
                let kind = if chars.get(i + 1) == Some(&'K') {
                    i += 2;
                    Kind::Key
                } else {
                    let t = chars.get(i + 1).and_then(|c| c.to_digit(10)).expect("top");
                    let n = chars
                        .get(i + 2)
                        .and_then(|c| c.to_digit(10))
                        .expect("north");
                    let (t, n) = (t as u8, n as u8);
                    let east = east_face(t, n).unwrap_or_else(|| panic!("bad die {t}{n} in {s:?}"));
                    i += 3;
                    Kind::Die(Faces {
                        top: t,
                        north: n,
                        east,
                    })
                };
                assert!(x < FILES, "rank too long in {s:?}");
                pos.set(Square { x, y }, Some(Piece { side, kind }));
                x += 1;
            }
            assert_eq!(x, FILES, "rank {} has {} files in {s:?}", y + 1, x);
        }
        for side in [Side::White, Side::Black] {
            let keys = pos
                .squares()
                .into_iter()
                .filter(
                    |&sq| matches!(pos.at(sq), Some(Piece { side: s, kind: Kind::Key }) if s == side),
                )
                .count();
            assert!(keys <= 1, "two keys of one side in {s:?}");
        }
        // §1.15: only the exact form the formatter writes (no "45" for 9, no leading zeros).
        assert_eq!(Self::format(&pos), s, "not in canonical DFEN form");
        pos
    }

    /// §1.14: writes a DFEN string.
    fn format(pos: &Position) -> String {
        let board = board_field(FILES, RANKS, |x, y| {
            pos.at(Square { x, y }).map(|piece| {
                let faces = match piece.kind {
                    Kind::Key => "K".to_string(),
                    Kind::Die(f) => format!("{}{}", f.top, f.north),
                };
                format!("{}{faces}", piece.side.letter())
            })
        });
        let side = match pos.to_move {
            Side::White => "w",
            Side::Black => "b",
        };
        let (plies, number) = (pos.plies_since_capture, pos.move_number);
        format!("{board} {side} {plies} {number}")
    }

    /// §1.7: every path of every piece of the side to move, whether or not the game is over.
    fn candidate_moves(pos: &Position) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in pos.squares() {
            let Some(piece) = pos.at(from) else { continue };
            if piece.side != pos.to_move {
                continue;
            }
            // §1.7: n = T, or n = 1 for the key.
            let n = match piece.kind {
                Kind::Key => 1,
                Kind::Die(f) => f.top as usize,
            };
            for d1 in ALL_DIRS {
                // Straight: all n steps in direction d1.
                consider(pos, from, vec![d1; n], &mut moves);
                // L: k steps in d1, then n − k steps in a perpendicular d2, 1 ≤ k ≤ n − 1.
                for k in 1..n {
                    for d2 in d1.perpendicular() {
                        let mut path = vec![d1; k];
                        path.extend(vec![d2; n - k]);
                        consider(pos, from, path, &mut moves);
                    }
                }
            }
        }
        moves
    }

    /// §1.4, §1.9, §1.15: plays a move known to be a candidate move.
    fn apply(pos: &Position, m: &Move) -> Position {
        let mut next = pos.clone();
        let mut piece = pos.at(m.from).expect("a piece to move");
        if let Kind::Die(mut f) = piece.kind {
            for &d in &m.path {
                f = roll(f, d);
                // §1.3 and §1.4 must agree: the tracked east face equals the table's.
                assert_eq!(Some(f.east), east_face(f.top, f.north), "table vs rolls");
            }
            piece.kind = Kind::Die(f);
        }
        let to = m.to();
        let captured = pos.at(to).is_some();
        next.set(m.from, None);
        next.set(to, Some(piece));
        // §1.15: the counter resets on every capture, a key capture included.
        next.plies_since_capture = if captured {
            0
        } else {
            pos.plies_since_capture + 1
        };
        // §1.15: the move number goes up after each Black move.
        if pos.to_move == Side::Black {
            next.move_number += 1;
        }
        next.to_move = pos.to_move.other();
        next
    }

    /// The result of a finished game, from the first player's (White's) view.
    fn judge(pos: &Position) -> Option<&'static str> {
        let mover = pos.to_move.other();
        let win = |side: Side| match side {
            Side::White => "first",
            Side::Black => "second",
        };
        // §1.10(a): the enemy key was captured.
        if pos.key_of(pos.to_move).is_none() {
            return Some(win(mover));
        }
        // §1.10(b): the mover's key stands on the enemy key square.
        if pos.key_of(mover) == Some(pos.to_move.key_square()) {
            return Some(win(mover));
        }
        // §1.12(b), checked after the wins (§1.15).
        if pos.plies_since_capture >= NO_CAPTURE_DRAW_PLIES {
            return Some("draw");
        }
        // §1.11: no legal move loses (checked last, §1.15).
        if Self::candidate_moves(pos).is_empty() {
            return Some(win(pos.to_move.other()));
        }
        None
    }

    /// §1.13: `<from><to>`, plus the first leg's direction for an L move.
    fn token(m: &Move) -> String {
        let mut s = format!("{}{}", m.from.name(), m.to().name());
        if m.is_l() {
            s.push(m.path[0].letter());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_rolls_agree_for_all_24_orientations() {
        let mut valid = 0;
        for t in 1..=6 {
            for n in 1..=6 {
                let Some(east) = east_face(t, n) else {
                    assert!(
                        n == t || n == 7 - t,
                        "only opposite or equal faces are missing"
                    );
                    continue;
                };
                valid += 1;
                let start = Faces {
                    top: t,
                    north: n,
                    east,
                };
                for d in ALL_DIRS {
                    let rolled = roll(start, d);
                    assert_eq!(Some(rolled.east), east_face(rolled.top, rolled.north));
                    // §1.4: four rolls in one direction bring the die back.
                    let back = (0..3).fold(rolled, |f, _| roll(f, d));
                    assert_eq!(back, start);
                }
            }
        }
        assert_eq!(valid, 24);
    }

    #[test]
    fn table_matches_the_stated_chirality() {
        // §1.2/§1.3: 1 up, 2 towards White (south, so north = 5), 3 on White's right (east).
        assert_eq!(east_face(1, 5), Some(3));
    }

    #[test]
    fn start_east_faces_match_1_5() {
        let pos = Duell::parse(Duell::START);
        let east_faces = |y| -> Vec<u8> {
            (0..FILES)
                .filter_map(|x| match pos.at(Square { x, y }) {
                    Some(Piece {
                        kind: Kind::Die(f), ..
                    }) => Some(f.east),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(east_faces(0), [6, 5, 1, 2, 2, 1, 5, 6]);
        assert_eq!(east_faces(7), [1, 2, 6, 5, 5, 6, 2, 1]);
    }

    #[test]
    fn two_lone_keys_by_hand() {
        // White's key e1 has d1, f1, e2; Black's e8 has d8, f8, e7. From d1 or f1 the key
        // has 3 steps, from e2 it has 4: d3 = (3 + 3 + 4) × 3.
        let pos = "4BK4/9/9/9/9/9/9/4WK4 w 0 1";
        assert_eq!(Duell::perft(pos, 1), 3);
        assert_eq!(Duell::perft(pos, 2), 9);
        assert_eq!(Duell::perft(pos, 3), 30);
    }

    #[test]
    fn a_three_in_the_corner_has_six_paths() {
        // Hand count: from a1 only north and east stay on the board; 2 straight moves and
        // the L's N1E2, N2E1, E1N2, E2N1. The key on i1 adds i1h1 and i1i2.
        let pos = "4BK4/9/9/9/9/9/9/W327WK w 0 1";
        let mut expected = vec![
            "a1a4", "a1b3e", "a1b3n", "a1c2e", "a1c2n", "a1d1", "i1h1", "i1i2",
        ];
        expected.sort();
        assert_eq!(Duell::legal_tokens(pos), expected);
        // (3,2,1) rolled north thrice: (5,3,1), (4,5,1), (2,4,1); east thrice:
        // (6,2,3), (4,2,6), (1,2,4).
        assert!(Duell::play(pos, "a1a4").starts_with("4BK4/9/9/9/W248/"));
        assert!(Duell::play(pos, "a1d1").ends_with("/3W124WK b 1 1"));
    }

    #[test]
    fn a_six_in_the_corner_has_twelve_paths() {
        // 2 straight moves plus N k then E (6 − k) and E k then N (6 − k), k = 1..5.
        let pos = "8WK/8BK/9/9/9/9/9/W628 w 0 1";
        assert_eq!(from(pos, "a1").len(), 12);
    }

    #[test]
    fn a_four_in_the_middle_has_27_paths() {
        // From e4 (x 4, y 3): straight south leaves the board (3 straight); every L's
        // corner and end stay on it (4 first directions × 3 turns × 2 = 24).
        let pos = "8BK/9/9/9/4W414/9/9/WK8 w 0 1";
        let tokens = Duell::legal_tokens(pos);
        assert_eq!(tokens.iter().filter(|t| t.starts_with("e4")).count(), 27);
        assert_eq!(tokens.len(), 27 + 2);
    }

    #[test]
    fn own_pieces_block_and_enemy_pieces_are_captured_only_on_the_last_square() {
        // A one-die on e4 (straight single steps only): own e5 blocks, enemy f4 is taken.
        let pos = "8BK/9/9/4W124/4W12B133/9/9/WK8 w 0 1";
        assert_eq!(from(pos, "e4"), ["e4d4", "e4e3", "e4f4"]);
        // A two-die on e4: own e5 blocks every north first leg, enemy d4 every west one,
        // own g4 the end of e4g4; the enemy on f5 may be taken at the end of e4f5e.
        let pos = "8BK/9/9/4W12B133/3B13W231W122/9/9/WK8 w 0 1";
        assert_eq!(
            from(pos, "e4"),
            ["e4d3s", "e4e2", "e4f3e", "e4f3s", "e4f5e"]
        );
    }

    fn from(pos: &str, square: &str) -> Vec<String> {
        Duell::legal_tokens(pos)
            .into_iter()
            .filter(|t| t.starts_with(square))
            .collect()
    }

    #[test]
    fn parsing_is_strict() {
        for bad in [
            "4BK4/9/9/9/9/9/9/4WK22 w 0 1",
            "4BK4/9/9/9/9/9/9/4WK4 w 0 0",
            "4BK4/9/9/9/9/9/9/4WK4 w 00 1",
            "4BK4/9/9/9/9/9/9/4W114 w 0 1",
            "4BK4/9/9/9/9/9/9/4WK3 w 0 1",
            "4BK4/9/9/9/9/9/9/3WKWK3 w 0 1",
        ] {
            assert!(
                std::panic::catch_unwind(|| Duell::parse(bad)).is_err(),
                "{bad}"
            );
        }
    }
}
