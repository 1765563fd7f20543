//! Duell's text forms (rules §1.13–§1.14): DFEN position strings, move tokens such as
//! `d1d7` and `a1e2n`, and the board diagram.

use super::board::{E1, E8, FILES, RANKS, Square, bit, file_of, rank_of, square, square_name};
use super::die::{self, Dir};
use super::piece::{self, EMPTY, Piece, VALUE};
use super::{Duell, Move, NO_CAPTURE_DRAW_PLIES};
use crate::kit::fields::fields;
use crate::kit::node::refuse_if_over;
use crate::kit::ranks;
use quartet_core::declaration::GameDeclaration;
use quartet_core::game::{Action, Game, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Description, Notation, NotationError};

/// The start position (rules §1.14).
pub const START_DFEN: &str =
    "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1";

/// Inputs longer than this are shown shortened in error messages.
const SHOWN_LEN: usize = 120;

/// `text`, cut to a readable length for an error message.
fn shown(text: &str) -> String {
    if text.len() <= SHOWN_LEN {
        return text.to_string();
    }
    let mut cut = SHOWN_LEN;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}... ({} bytes)", &text[..cut], text.len())
}

fn position_error(text: &str, why: impl Into<String>) -> NotationError {
    NotationError::position(&shown(text), why)
}

/// The colour name of a side (its declared name).
fn colour(p: Player) -> &'static str {
    super::DECLARATION.sides[p.index()]
}

/// The DFEN token of a non-empty piece, e.g. `W53` or `BK`.
pub(super) fn piece_token(p: Piece) -> String {
    let c = match piece::owner(p) {
        Player::First => 'W',
        Player::Second => 'B',
    };
    if piece::is_key(p) {
        format!("{c}K")
    } else {
        let o = piece::kind(p);
        format!("{c}{}{}", die::top(o), die::north(o))
    }
}

/// Reads the rest of a piece after its colour letter: `K` or two digits T N.
fn parse_piece(side: Player, chars: &mut std::str::Chars) -> Result<Piece, String> {
    let letter = colour(side).chars().next().unwrap_or('?');
    let face = |c: Option<char>| {
        c.and_then(|c| c.to_digit(10))
            .filter(|d| (1..=6).contains(d))
    };
    match chars.next() {
        Some('K') => Ok(piece::key(side)),
        first => {
            let Some(t) = face(first) else {
                return Err(format!(
                    "'{letter}' must be followed by K or two faces 1-6 (top, north)"
                ));
            };
            let Some(n) = face(chars.next()) else {
                return Err(format!(
                    "the die '{letter}{t}' needs a north face 1-6 after its top"
                ));
            };
            match die::orientation(t as u8, n as u8) {
                Some(o) => Ok(piece::die(side, o)),
                None => Err(format!(
                    "the die '{letter}{t}{n}' is impossible: the north face cannot be the top \
                     or the bottom ({})",
                    7 - t
                )),
            }
        }
    }
}

/// Reads a counter written the way the formatter writes it: decimal, no sign, no leading
/// zero.
fn parse_counter(field: &str, what: &str) -> Result<u32, String> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{what} '{}' is not a number", shown(field)));
    }
    if field.len() > 1 && field.starts_with('0') {
        return Err(format!("{what} '{field}' has a leading zero"));
    }
    field
        .parse()
        .map_err(|_| format!("{what} '{}' is too large", shown(field)))
}

/// Checks what the placement and side imply: piece counts and a consistent game end.
fn check_consistency(pos: &Duell) -> Result<(), String> {
    for side in [Player::First, Player::Second] {
        let mut keys = 0;
        let mut dice = 0;
        let mut rest = pos.occ[side.index()];
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if piece::is_key(pos.board[s]) {
                keys += 1;
            } else {
                dice += 1;
            }
        }
        if keys > 1 {
            return Err(format!("{} has {keys} keys", colour(side)));
        }
        if dice > 8 {
            return Err(format!("{} has {dice} dice, at most 8", colour(side)));
        }
    }
    let [white, black] = pos.keys;
    let white_won = black == super::NO_SQUARE || white == E8;
    let black_won = white == super::NO_SQUARE || black == E1;
    if white_won && black_won {
        return Err("both sides have won (look at the keys)".to_string());
    }
    for (won, winner) in [(white_won, Player::First), (black_won, Player::Second)] {
        if won && pos.side == winner {
            return Err(format!(
                "{} has won, so its move ended the game and {} must be to move",
                colour(winner),
                colour(winner.other())
            ));
        }
    }
    Ok(())
}

fn parse_dfen(text: &str) -> Result<Duell, String> {
    let [placement, side, plies, number] = fields(
        text,
        ["placement", "side", "plies-since-capture", "move number"],
    )?;
    let mut pos = Duell::empty();
    ranks::parse(placement, FILES, RANKS, |file, rank, c, rest| {
        let side = match c {
            'W' => Player::First,
            'B' => Player::Second,
            _ => {
                return Err(format!(
                    "unexpected character '{c}' (expected a digit 1-9, W or B)"
                ));
            }
        };
        pos.put(square(file, rank), parse_piece(side, rest)?);
        Ok(())
    })?;
    pos.set_side(match side {
        "w" => Player::First,
        "b" => Player::Second,
        _ => return Err(format!("side to move '{}' is not 'w' or 'b'", shown(side))),
    });
    let plies = parse_counter(plies, "plies-since-capture")?;
    if plies > NO_CAPTURE_DRAW_PLIES as u32 {
        return Err(format!(
            "plies-since-capture {plies} is above {NO_CAPTURE_DRAW_PLIES} (the game ends there)"
        ));
    }
    pos.plies_since_capture = plies as u16;
    pos.move_number = parse_counter(number, "move number")?;
    if pos.move_number == 0 {
        return Err("move number 0: moves are numbered from 1".to_string());
    }
    check_consistency(&pos)?;
    Ok(pos)
}

/// A parsed square from two characters, or why not.
fn parse_square(file: char, rank: char) -> Result<Square, String> {
    let f = match file {
        'a'..='i' => file as u8 - b'a',
        _ => return Err(format!("'{file}' is not a file a-i")),
    };
    let r = match rank {
        '1'..='8' => rank as u8 - b'1',
        _ => return Err(format!("'{rank}' is not a rank 1-8")),
    };
    Ok(square(f, r))
}

/// The move a token names by its shape alone (no position), or why no position has it.
fn parse_shape(token: &str) -> Result<Move, String> {
    let chars: Vec<char> = token.chars().take(6).collect();
    if chars.len() < 4 || chars.len() > 5 {
        return Err(
            "expected <from><to> plus an optional first-leg direction, like d1d7 or a1e2n"
                .to_string(),
        );
    }
    let from = parse_square(chars[0], chars[1])?;
    let to = parse_square(chars[2], chars[3])?;
    let suffix = match chars.get(4) {
        None => None,
        Some(&c) => Some(
            Dir::from_letter(c).ok_or(format!("suffix '{c}' is not a direction n, s, e or w"))?,
        ),
    };
    let dx = file_of(to) as i32 - file_of(from) as i32;
    let dy = rank_of(to) as i32 - rank_of(from) as i32;
    let n = dx.unsigned_abs() + dy.unsigned_abs();
    if n == 0 {
        return Err("the from and to squares are the same".to_string());
    }
    if n > 6 {
        return Err(format!("a move has at most 6 steps, this one needs {n}"));
    }
    let vertical = if dy > 0 { Dir::North } else { Dir::South };
    let horizontal = if dx > 0 { Dir::East } else { Dir::West };
    let (v, h) = (dy.unsigned_abs() as u8, dx.unsigned_abs() as u8);
    if dx == 0 || dy == 0 {
        let d = if dx == 0 { vertical } else { horizontal };
        if suffix.is_some_and(|s| s != d) {
            return Err(format!(
                "a straight move towards '{}' cannot have the suffix '{}'",
                d.letter(),
                chars[4]
            ));
        }
        return Ok(Move::straight(from, to, d, n as u8));
    }
    match suffix {
        None => Err(format!(
            "an L move needs the direction of its first leg: '{}' or '{}'",
            vertical.letter(),
            horizontal.letter()
        )),
        Some(d) if d == vertical => Ok(Move::l_shaped(from, to, vertical, v, horizontal, h)),
        Some(d) if d == horizontal => Ok(Move::l_shaped(from, to, horizontal, h, vertical, v)),
        Some(d) => Err(format!(
            "suffix '{}' is neither leg's direction ('{}' or '{}')",
            d.letter(),
            vertical.letter(),
            horizontal.letter()
        )),
    }
}

impl Duell {
    /// Whether move shape `m` can be played here, or why not (rules §1.7).
    fn check_move(&self, m: Move) -> Result<(), String> {
        refuse_if_over(self.node(), colour)?;
        let (from, to) = (m.from(), m.to());
        let mover = self.board[from as usize];
        if mover == EMPTY || piece::owner(mover) != self.side {
            let there = if mover == EMPTY {
                "the square is empty".to_string()
            } else {
                format!("{} stands there", piece_token(mover))
            };
            return Err(format!(
                "no piece of the side to move on {} ({there})",
                square_name(from)
            ));
        }
        let n = VALUE[mover as usize];
        let steps = m.first_len() + m.second_len();
        if n != steps {
            return Err(format!(
                "no such path: {} on {} moves {n} step{}, this path has {steps}",
                piece_token(mover),
                square_name(from),
                if n == 1 { "" } else { "s" }
            ));
        }
        let occ = self.occ[0] | self.occ[1];
        // Walk the path in order so the first blocking square is the one reported.
        let mut s = from;
        for i in 1..n {
            let d = if i <= m.first_len() {
                m.first_dir()
            } else {
                m.second_dir()
            };
            s = super::board::step(s, d, 1);
            if occ & bit(s) != 0 {
                return Err(format!("path blocked at {}", square_name(s)));
            }
        }
        if self.occ[self.side.index()] & bit(to) != 0 {
            return Err(format!(
                "{} holds a piece of the side to move",
                square_name(to)
            ));
        }
        Ok(())
    }
}

impl Notation for Duell {
    const DECLARATION: GameDeclaration = super::DECLARATION;

    fn start(_rules: &RuleOptions) -> Self {
        // Tops from White's left; White's dice show 4 north (3 towards White), Black's 3.
        let tops = [
            Some(5),
            Some(1),
            Some(2),
            Some(6),
            None,
            Some(6),
            Some(2),
            Some(1),
            Some(5),
        ];
        let mut pos = Duell::empty();
        for (file, top) in tops.into_iter().enumerate() {
            let file = file as u8;
            let faces = top.and_then(|t| die::orientation(t, 4).zip(die::orientation(t, 3)));
            let (white, black) = match faces {
                Some((w, b)) => (piece::die(Player::First, w), piece::die(Player::Second, b)),
                None => (piece::key(Player::First), piece::key(Player::Second)),
            };
            pos.put(square(file, 0), white);
            pos.put(square(file, RANKS - 1), black);
        }
        pos
    }

    fn parse_position(text: &str, _rules: &RuleOptions) -> Result<Self, NotationError> {
        parse_dfen(text).map_err(|why| position_error(text, why))
    }

    fn format_position(&self) -> String {
        let mut out = String::with_capacity(96);
        ranks::format(&mut out, FILES, RANKS, |file, rank| {
            let p = self.board[square(file, rank) as usize];
            (p != EMPTY).then(|| piece_token(p))
        });
        let side = if self.side == Player::First { 'w' } else { 'b' };
        out.push_str(&format!(
            " {side} {} {}",
            self.plies_since_capture, self.move_number
        ));
        out
    }

    fn parse_action(&self, token: &str) -> Result<Action<Move>, NotationError> {
        let m = parse_shape(token).map_err(|why| NotationError::syntax(&shown(token), why))?;
        self.check_move(m)
            .map_err(|why| NotationError::illegal(&shown(token), why))?;
        Ok(Action::Single(m))
    }

    fn format_move(&self, m: Move) -> String {
        m.token()
    }

    fn describe(&self) -> Description {
        self.description()
    }

    fn diagram(&self) -> String {
        let mut out = String::from("      a   b   c   d   e   f   g   h   i\n");
        for rank in (0..RANKS).rev() {
            out.push_str(&format!("  {} ", rank + 1));
            for file in 0..FILES {
                let s = square(file, rank);
                let p = self.board[s as usize];
                let cell = if p != EMPTY {
                    piece_token(p)
                } else if s == E1 || s == E8 {
                    "(.)".to_string()
                } else {
                    ".".to_string()
                };
                out.push_str(&format!(" {cell:^3}"));
            }
            out.push_str(&format!("  {}\n", rank + 1));
        }
        out.push_str("      a   b   c   d   e   f   g   h   i\n");
        out.push_str("  Dice read colour, top, north (W53: top 5, north 3); (.) = key square\n");
        let state = match self.node() {
            Node::Terminal(Outcome::Win(p)) => format!("game over: {} wins", colour(p)),
            Node::Terminal(Outcome::Draw) => "game over: draw".to_string(),
            _ => format!("{} to move", colour(self.side)),
        };
        out.push_str(&format!(
            "  {state}; move {}, {} plies since the last capture",
            self.move_number, self.plies_since_capture
        ));
        out
    }
}
