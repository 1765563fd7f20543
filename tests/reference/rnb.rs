//! A slow, deliberately plain reference implementation of R&B, written straight from
//! `docs/rules/rnb.md` (rule numbers quoted as §1.x). It shares no code with the crate,
//! so its perft counts are an independent check of the fast move generator.
//!
//! Readings chosen where the rules leave room:
//! - The game is in the placement phase while any hand (§1.7 position field) is non-empty
//!   (§1.3(b): the 16 placement plies come first, "after placement" S moves, §1.4). In that
//!   phase the side to move may only place; if its own hand is empty while the other's is
//!   not (a position no game reaches), it has no legal move.
//! - §1.6-5's 100-ply draw is judged only in the movement phase (all hands empty), as the
//!   rule says; the counter cannot grow during placement anyway (§1.8).
//! - The joint setup of `Placement together` (§1.3(d), side field `sn`) is in
//!   `rnb_setup.rs`; here it only has no single moves and is not over.

use super::game::{ReferenceGame, board_field};

/// §1.1: 6×6 board.
const SIZE: i32 = 6;
/// §1.6-5: the game is drawn after this many consecutive movement plies without a capture.
const NO_CAPTURE_DRAW_PLIES: u32 = 100;
/// §1.6-1: this many consecutive own pieces in one rank lose.
const LINE_LENGTH: usize = 6;

/// South (`S`, first player) or North (`N`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    South,
    North,
}

impl Side {
    pub(super) fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }

    /// §1.1: South's base (sun) is d1, North's is c6.
    pub(super) fn base(self) -> Square {
        match self {
            Side::South => Square { x: 3, y: 0 },
            Side::North => Square { x: 2, y: 5 },
        }
    }

    /// §1.1: the setup zone is ranks 1–2 for S and ranks 5–6 for N.
    pub(super) fn zone_ranks(self) -> [i32; 2] {
        match self {
            Side::South => [0, 1],
            Side::North => [4, 5],
        }
    }
}

/// §1.2: the tribe of a soldier.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Colour {
    Red,
    Black,
}

impl Colour {
    fn index(self) -> usize {
        match self {
            Colour::Red => 0,
            Colour::Black => 1,
        }
    }

    /// §1.7: the colour letter of a placement token (upper case is canonical).
    pub(super) fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Black => 'B',
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    King,
    Soldier(Colour),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Piece {
    pub(super) side: Side,
    pub(super) kind: Kind,
}

impl Piece {
    /// §1.2: South's pieces are `R B K`, North's `r b k`.
    fn letter(self) -> char {
        let c = match self.kind {
            Kind::King => 'K',
            Kind::Soldier(colour) => colour.letter(),
        };
        match self.side {
            Side::South => c,
            Side::North => c.to_ascii_lowercase(),
        }
    }

    fn from_letter(c: char) -> Option<Piece> {
        let side = if c.is_ascii_uppercase() {
            Side::South
        } else {
            Side::North
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'R' => Kind::Soldier(Colour::Red),
            'B' => Kind::Soldier(Colour::Black),
            _ => return None,
        };
        Some(Piece { side, kind })
    }
}

/// A square: x = file (0 = a), y = rank (0 = rank 1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Square {
    pub(super) x: i32,
    pub(super) y: i32,
}

impl Square {
    fn on_board(self) -> bool {
        (0..SIZE).contains(&self.x) && (0..SIZE).contains(&self.y)
    }

    fn plus(self, (dx, dy): (i32, i32)) -> Square {
        Square {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    pub(super) fn name(self) -> String {
        format!("{}{}", (b'a' + self.x as u8) as char, self.y + 1)
    }
}

/// §1.4: a step goes in one of 8 directions.
const EIGHT_DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// §1.5: sandwiches are orthogonal only.
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// A placement (§1.3) or a one-square step (§1.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Move {
    Place(Colour, Square),
    Step(Square, Square),
}

/// A position as in §1.7: board, side to move, the four hands, plies since capture.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    /// `board[y][x]`, y = 0 is rank 1.
    pub(super) board: [[Option<Piece>; SIZE as usize]; SIZE as usize],
    pub(super) to_move: Side,
    /// `hand[side][colour]`: soldiers still to be placed.
    pub(super) hand: [[u32; 2]; 2],
    pub(super) plies_since_capture: u32,
    /// §1.7: the side field `sn`, the joint setup of `Placement together` (§1.3(d)).
    pub(super) setup: bool,
}

impl Position {
    pub(super) fn at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.y as usize][sq.x as usize]
    }

    pub(super) fn set(&mut self, sq: Square, p: Option<Piece>) {
        self.board[sq.y as usize][sq.x as usize] = p;
    }

    fn squares(&self) -> Vec<Square> {
        let mut v = Vec::new();
        for y in 0..SIZE {
            for x in 0..SIZE {
                v.push(Square { x, y });
            }
        }
        v
    }

    fn count(&self, piece: Piece) -> usize {
        self.squares()
            .into_iter()
            .filter(|&sq| self.at(sq) == Some(piece))
            .count()
    }

    fn king_of(&self, side: Side) -> Option<Square> {
        let king = Piece {
            side,
            kind: Kind::King,
        };
        self.squares()
            .into_iter()
            .find(|&sq| self.at(sq) == Some(king))
    }

    /// §1.3: placement lasts while any soldier is still in hand.
    fn placement_phase(&self) -> bool {
        self.hand.iter().flatten().any(|&n| n > 0)
    }
}

/// §1.5 rules 1 and 3: do the mover and the own piece at the run's end form a pair?
fn pair_captures(mover: Kind, end: Kind) -> bool {
    match (mover, end) {
        // Rule 1: both own soldiers of the same colour.
        (Kind::Soldier(a), Kind::Soldier(b)) => a == b,
        // Rule 3: the own king with an own soldier of either colour.
        (Kind::King, Kind::Soldier(_)) | (Kind::Soldier(_), Kind::King) => true,
        (Kind::King, Kind::King) => false,
    }
}

/// §1.5: the squares captured by the piece that just arrived on `to`.
fn captures(pos: &Position, to: Square) -> Vec<Square> {
    let mover = pos.at(to).expect("the moved piece");
    let mut taken = Vec::new();
    for d in ORTHOGONAL {
        // Run test (rules 1 and 3): enemy pieces of any kind from T+d, then an own piece at E.
        let mut run = Vec::new();
        let mut sq = to.plus(d);
        while sq.on_board() && pos.at(sq).is_some_and(|p| p.side != mover.side) {
            run.push(sq);
            sq = sq.plus(d);
        }
        if !run.is_empty()
            && sq.on_board()
            && let Some(end) = pos.at(sq)
            && end.side == mover.side
            && pair_captures(mover.kind, end.kind)
        {
            taken.extend(run.iter().copied());
        }
        // Dual test (rule 2): only a soldier mover of colour X; one enemy piece that is not
        // an X soldier at T+d, and an enemy X soldier at T+2d.
        if let Kind::Soldier(x) = mover.kind {
            let (near, far) = (to.plus(d), to.plus(d).plus(d));
            if far.on_board() {
                let enemy_x = Piece {
                    side: mover.side.other(),
                    kind: Kind::Soldier(x),
                };
                let middle_ok = pos
                    .at(near)
                    .is_some_and(|p| p.side != mover.side && p != enemy_x);
                if middle_ok && pos.at(far) == Some(enemy_x) {
                    taken.push(near);
                }
            }
        }
    }
    taken
}

/// §1.6-1: does `side` have ≥6 consecutive own pieces in one rank?
pub(super) fn has_line(pos: &Position, side: Side) -> bool {
    for y in 0..SIZE {
        let mut run = 0;
        for x in 0..SIZE {
            if pos.at(Square { x, y }).map(|p| p.side) == Some(side) {
                run += 1;
                if run >= LINE_LENGTH {
                    return true;
                }
            } else {
                run = 0;
            }
        }
    }
    false
}

/// The R&B reference: its rules are the functions of this impl, and it is driven by
/// position strings and tokens through [`ReferenceGame`]'s provided functions.
pub struct Rnb;

impl ReferenceGame for Rnb {
    type Position = Position;
    type Move = Move;

    /// The start position of §1.7.
    const START: &'static str = "2k3/6/6/6/6/3K2 s 4444 0";

    /// §1.7: parses a position string. Panics on anything the formatter would not write.
    fn parse(s: &str) -> Position {
        let fields: Vec<&str> = s.split(' ').collect();
        assert_eq!(fields.len(), 4, "position needs 4 fields: {s:?}");
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), SIZE as usize, "position needs 6 ranks: {s:?}");
        let hand_digits: Vec<u32> = fields[2].chars().filter_map(|c| c.to_digit(10)).collect();
        assert_eq!(hand_digits.len(), 4, "hands need 4 digits: {s:?}");
        let mut pos = Position {
            board: [[None; SIZE as usize]; SIZE as usize],
            to_move: match fields[1] {
                "s" | "sn" => Side::South,
                "n" => Side::North,
                other => panic!("bad side {other:?} in {s:?}"),
            },
            hand: [
                [hand_digits[0], hand_digits[1]],
                [hand_digits[2], hand_digits[3]],
            ],
            plies_since_capture: fields[3].parse().expect("plies since capture"),
            setup: fields[1] == "sn",
        };
        for (i, rank_text) in ranks.iter().enumerate() {
            let y = SIZE - 1 - i as i32;
            let mut x = 0;
            for c in rank_text.chars() {
                if let Some(empty) = c.to_digit(10) {
                    x += empty as i32;
                } else {
                    let piece =
                        Piece::from_letter(c).unwrap_or_else(|| panic!("bad {c:?} in {s:?}"));
                    assert!(x < SIZE, "rank too long in {s:?}");
                    pos.set(Square { x, y }, Some(piece));
                    x += 1;
                }
            }
            assert_eq!(x, SIZE, "rank {} has {x} files in {s:?}", y + 1);
        }
        // §1.8: at most one king per side and 4 soldiers of a colour per side (board + hand).
        for side in [Side::South, Side::North] {
            let king = Piece {
                side,
                kind: Kind::King,
            };
            assert!(pos.count(king) <= 1, "two kings in {s:?}");
            for colour in [Colour::Red, Colour::Black] {
                let soldier = Piece {
                    side,
                    kind: Kind::Soldier(colour),
                };
                let total = pos.count(soldier) as u32 + pos.hand[side.index()][colour.index()];
                assert!(total <= 4, "too many soldiers in {s:?}");
            }
        }
        assert_eq!(Self::format(&pos), s, "not in canonical form");
        pos
    }

    /// §1.7: writes a position string.
    fn format(pos: &Position) -> String {
        let board = board_field(SIZE, SIZE, |x, y| {
            pos.at(Square { x, y })
                .map(|piece| piece.letter().to_string())
        });
        let side = match (pos.setup, pos.to_move) {
            (true, _) => "sn",
            (false, Side::South) => "s",
            (false, Side::North) => "n",
        };
        let hands: String = pos.hand.iter().flatten().map(|n| n.to_string()).collect();
        format!("{board} {side} {hands} {}", pos.plies_since_capture)
    }

    /// §1.3(b) and §1.4: every move of the side to move, whether or not the game is over.
    /// The joint setup has none (its turns are pairs of arrangements, `rnb_setup.rs`).
    fn candidate_moves(pos: &Position) -> Vec<Move> {
        let me = pos.to_move;
        let mut moves = Vec::new();
        if pos.setup {
            return moves;
        }
        if pos.placement_phase() {
            // §1.3(b): one soldier from the hand onto any empty square of the own zone.
            for colour in [Colour::Red, Colour::Black] {
                if pos.hand[me.index()][colour.index()] == 0 {
                    continue;
                }
                for y in me.zone_ranks() {
                    for x in 0..SIZE {
                        let sq = Square { x, y };
                        if pos.at(sq).is_none() {
                            moves.push(Move::Place(colour, sq));
                        }
                    }
                }
            }
        } else {
            // §1.4: one own piece one step in any of 8 directions onto an empty square.
            for from in pos.squares() {
                if pos.at(from).map(|p| p.side) != Some(me) {
                    continue;
                }
                for d in EIGHT_DIRECTIONS {
                    let to = from.plus(d);
                    if to.on_board() && pos.at(to).is_none() {
                        moves.push(Move::Step(from, to));
                    }
                }
            }
        }
        moves
    }

    /// Plays a candidate move: placement (§1.3) or step with its captures (§1.5).
    fn apply(pos: &Position, m: &Move) -> Position {
        let me = pos.to_move;
        let mut next = pos.clone();
        match *m {
            Move::Place(colour, sq) => {
                // §1.3(c): a placement never captures; §1.8: the counter is unchanged.
                next.set(
                    sq,
                    Some(Piece {
                        side: me,
                        kind: Kind::Soldier(colour),
                    }),
                );
                next.hand[me.index()][colour.index()] -= 1;
            }
            Move::Step(from, to) => {
                next.set(to, pos.at(from));
                next.set(from, None);
                // §1.5: all captures are removed at once; they are mandatory.
                let taken = captures(&next, to);
                for &sq in &taken {
                    next.set(sq, None);
                }
                // §1.8: a capture resets the counter; every other movement ply adds one.
                next.plies_since_capture = if taken.is_empty() {
                    pos.plies_since_capture + 1
                } else {
                    0
                };
            }
        }
        next.to_move = me.other();
        next
    }

    /// §1.6 in order, with the side not to move as the player who just acted (§1.8). The
    /// joint setup (§1.3(d)) is never over.
    fn judge(pos: &Position) -> Option<&'static str> {
        if pos.setup {
            return None;
        }
        let mover = pos.to_move.other();
        let win = |side: Side| match side {
            Side::South => "first",
            Side::North => "second",
        };
        // 1. The line rule: the mover loses; §1.8: a line of the side to move (after the
        // joint setup, where both acted) loses too, and two lines draw.
        match (has_line(pos, mover), has_line(pos, pos.to_move)) {
            (true, true) => return Some("draw"),
            (true, false) => return Some(win(pos.to_move)),
            (false, true) => return Some(win(mover)),
            (false, false) => {}
        }
        // 2. The enemy king was captured.
        if pos.king_of(pos.to_move).is_none() {
            return Some(win(mover));
        }
        // 3. The mover's king stands on the enemy base.
        if pos.king_of(mover) == Some(pos.to_move.base()) {
            return Some(win(mover));
        }
        // 4. (CHOICE) The side to move has no legal move and loses.
        if Self::candidate_moves(pos).is_empty() {
            return Some(win(mover));
        }
        // 5. (CHOICE) 100 movement plies without capture (repetition needs history).
        if !pos.placement_phase() && pos.plies_since_capture >= NO_CAPTURE_DRAW_PLIES {
            return Some("draw");
        }
        None
    }

    /// §1.7: `R@a2`, `B@a2` or `d1d2`.
    fn token(m: &Move) -> String {
        match *m {
            Move::Place(colour, sq) => format!("{}@{}", colour.letter(), sq.name()),
            Move::Step(from, to) => format!("{}{}", from.name(), to.name()),
        }
    }

    /// The provided `play`, and at the joint setup the joint token of `rnb_setup.rs`.
    fn play(pos: &str, token: &str) -> String {
        let p = Self::parse(pos);
        if p.setup {
            return Self::format(&super::rnb_setup::play_setup(&p, token));
        }
        let m = Self::legal_moves(&p)
            .into_iter()
            .find(|m| Self::token(m) == token)
            .unwrap_or_else(|| panic!("{token} is not legal in {pos}"));
        Self::format(&Self::apply(&p, &m))
    }

    /// The provided `perft`, and at the joint setup the count of `rnb_setup.rs`.
    fn perft(pos: &str, depth: u32) -> u64 {
        let p = Self::parse(pos);
        if p.setup && depth > 0 {
            return super::rnb_setup::perft_setup(&p, depth);
        }
        super::game::perft_of::<Self>(&p, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_king_in_the_corner_has_three_steps_and_a_soldier_in_the_middle_eight() {
        assert_eq!(
            Rnb::legal_tokens("k5/6/6/6/6/5K s 0000 0"),
            ["f1e1", "f1e2", "f1f2"]
        );
        let tokens = Rnb::legal_tokens("k5/6/6/2R3/6/5K s 0000 0");
        assert_eq!(tokens.iter().filter(|t| t.starts_with("c3")).count(), 8);
    }

    #[test]
    fn two_lone_kings_by_hand() {
        // d1 and c6 have 5 neighbours each. After one step South's king stands on c1 or
        // e1 (5 steps) or on c2, d2, e2 (8 steps): 34 two-step paths; North's mirror too.
        let pos = "2k3/6/6/6/6/3K2 s 0000 0";
        assert_eq!(Rnb::perft(pos, 1), 5);
        assert_eq!(Rnb::perft(pos, 2), 5 * 5);
        assert_eq!(Rnb::perft(pos, 3), 34 * 5);
        assert_eq!(Rnb::perft(pos, 4), 34 * 34);
    }

    #[test]
    fn north_places_only_in_ranks_5_and_6() {
        let after = Rnb::play(Rnb::START, "R@a1");
        let tokens = Rnb::legal_tokens(&after);
        assert_eq!(tokens.len(), 22);
        assert!(tokens.iter().all(|t| t.ends_with('5') || t.ends_with('6')));
    }

    #[test]
    fn the_last_placement_starts_the_movement_phase() {
        let pos = "bbkb2/rrrr2/6/6/RRRR2/BBBK1B n 0001 0";
        assert_eq!(Rnb::legal_tokens(pos), ["B@e5", "B@e6", "B@f5", "B@f6"]);
        let after = Rnb::play(pos, "B@f6");
        assert_eq!(after, "bbkb1b/rrrr2/6/6/RRRR2/BBBK1B s 0000 0");
        assert!(Rnb::legal_tokens(&after).iter().all(|t| !t.contains('@')));
    }

    #[test]
    fn king_pair_takes_a_run_of_three_including_the_king() {
        // B steps e4→e3: westwards d3 k, c3 b, b3 r are enemies and a3 is the own king.
        let after = Rnb::play("6/6/4B1/Krbk2/6/6 s 0000 0", "e4e3");
        assert_eq!(after, "6/6/6/K3B1/6/6 n 0000 0");
        assert_eq!(Rnb::outcome(&after), Some("first"));
    }

    #[test]
    fn captures_in_two_directions_are_taken_together() {
        // R c2→c3: west b3 r then own R a3; north c4 b then own R c5.
        let after = Rnb::play("2k3/2R3/2b3/Rr4/2R3/3K2 s 0000 0", "c2c3");
        assert_eq!(after, "2k3/2R3/6/R1R3/6/3K2 n 0000 0");
    }

    #[test]
    fn the_edge_is_no_partner() {
        // R b2→a2 with an enemy r on a1 below it and the board edge below that.
        let after = Rnb::play("2k3/6/6/6/1R4/r2K2 s 0000 0", "b2a2");
        assert_eq!(after, "2k3/6/6/6/R5/r2K2 n 0000 1");
    }

    #[test]
    fn parsing_is_strict() {
        for bad in [
            "2k3/6/6/6/6/3K11 s 4444 0",
            "2k3/6/6/6/6/3K2 s 444 0",
            "2k3/6/6/6/6/3K2 x 4444 0",
            "2k3/6/6/6/6/3KK1 s 4444 0",
            "2k3/6/6/6/6/R2K2 s 4444 0",
            "2k3/6/6/6/6/3K2 s 4444 01",
        ] {
            assert!(
                std::panic::catch_unwind(|| Rnb::parse(bad)).is_err(),
                "{bad}"
            );
        }
    }
}
