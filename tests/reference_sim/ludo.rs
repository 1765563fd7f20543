//! Slow, independent reference referee for Ludo, written straight from
//! docs/rules/ludo.md (rule numbers such as §1.5 refer to that file).
//!
//! It shares no code with the crate and uses std only. The rule option Pieces (1–4 pieces per
//! side) is inferred from the position string: each side lists exactly that many values, and a
//! side wins when all of its pieces are at 56. The string-level API panics with a message naming
//! the problem when given a malformed position or an illegal token; it is test code, and a
//! panic is a test failure with a clear reason.
//!
//! Readings chosen where the rules leave room (each is also in the report):
//! - Both sides must list the same number of pieces (the option is one number for the game).
//! - Legal moves are listed in the order of the rules' examples: `b-0` first, then by
//!   ascending from-value; a chance node lists `r1`..`r6`.
//! - A position where both sides have every piece at 56 is rejected (it cannot arise).

/// The two players (§1.1). Red moves first (§1.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    Red,
    Yellow,
}

/// §1.2: a piece's progress in its own colour's frame; `None` is the base, `Some(0..=56)` is
/// track (0..=50), home column (51..=55) or goal (56). `None` sorts before every number, as
/// the position string wants.
type Progress = Option<u32>;

/// §1.2: the goal.
const GOAL: u32 = 56;
/// §1.2: the last track value; 51..=55 is the home column.
const LAST_TRACK: u32 = 50;
/// §1.3: the safe squares as absolute track indices (the four starts and the four stars).
const SAFE_SQUARES: [u32; 8] = [0, 8, 13, 21, 26, 34, 39, 47];

/// A position (§1.8): pieces per side, side to act, pending die, consecutive sixes.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Position {
    red: Vec<Progress>,
    yellow: Vec<Progress>,
    side: Side,
    /// `None` at a chance node (`-`), `Some(1..=6)` when a rolled value waits for a move.
    die: Option<u32>,
    sixes: u32,
}

/// A token (§1.9): a roll at a chance node, or a move at a decision node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Token {
    Roll(u32),
    Enter,
    Step { from: u32, to: u32 },
    Pass,
}

fn other(side: Side) -> Side {
    match side {
        Side::Red => Side::Yellow,
        Side::Yellow => Side::Red,
    }
}

fn pieces(pos: &Position, side: Side) -> &Vec<Progress> {
    match side {
        Side::Red => &pos.red,
        Side::Yellow => &pos.yellow,
    }
}

fn pieces_mut(pos: &mut Position, side: Side) -> &mut Vec<Progress> {
    match side {
        Side::Red => &mut pos.red,
        Side::Yellow => &mut pos.yellow,
    }
}

/// §1.1: start squares Red A0, Yellow A26.
fn start_square(side: Side) -> u32 {
    match side {
        Side::Red => 0,
        Side::Yellow => 26,
    }
}

/// §1.2: the absolute track square of a piece at track value p (0..=50) of `side`.
fn absolute_square(side: Side, p: u32) -> u32 {
    (start_square(side) + p) % 52
}

// ---------------------------------------------------------------------------------------------
// Parsing and formatting (§1.8, §1.10 strict parsing).

fn parse_side_pieces(text: &str, who: &str) -> Result<Vec<Progress>, String> {
    let mut out = Vec::new();
    for value in text.split(',') {
        if value == "b" {
            out.push(None);
            continue;
        }
        let digits_ok = !value.is_empty()
            && value.chars().all(|c| c.is_ascii_digit())
            && (value == "0" || !value.starts_with('0'));
        match value.parse::<u32>() {
            Ok(p) if digits_ok && p <= GOAL => out.push(Some(p)),
            _ => return Err(format!("{who} piece {value:?} is not b or 0..=56")),
        }
    }
    if out.is_empty() || out.len() > 4 {
        return Err(format!("{who} has {} pieces, expected 1 to 4", out.len()));
    }
    let mut sorted = out.clone();
    sorted.sort();
    if sorted != out {
        return Err(format!(
            "{who} pieces {text:?} are not sorted (b first, then ascending)"
        ));
    }
    Ok(out)
}

fn parse_position(text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 4 {
        return Err(format!(
            "expected 4 fields (pieces side die sixes), got {}",
            fields.len()
        ));
    }
    let Some((red_text, yellow_text)) = fields[0].split_once('/') else {
        return Err(format!("pieces field {:?} lacks '/'", fields[0]));
    };
    let red = parse_side_pieces(red_text, "red")?;
    let yellow = parse_side_pieces(yellow_text, "yellow")?;
    if red.len() != yellow.len() {
        return Err(format!(
            "red has {} pieces but yellow has {}",
            red.len(),
            yellow.len()
        ));
    }
    let side = match fields[1] {
        "r" => Side::Red,
        "y" => Side::Yellow,
        other => return Err(format!("side {other:?} is not r or y")),
    };
    let die = match fields[2] {
        "-" => None,
        "1" | "2" | "3" | "4" | "5" | "6" => fields[2].parse::<u32>().ok(),
        other => return Err(format!("die {other:?} is not - or 1..6")),
    };
    let sixes = match fields[3] {
        "0" | "1" | "2" | "3" => fields[3].parse::<u32>().unwrap_or(0),
        other => return Err(format!("sixes {other:?} is not 0..3")),
    };
    // §1.8 / §1.10: sixes is 0–2 at a chance node, 0 with a pending 1..5, 1–3 with a pending 6.
    let consistent = match die {
        None => sixes <= 2,
        Some(6) => (1..=3).contains(&sixes),
        Some(_) => sixes == 0,
    };
    if !consistent {
        return Err(format!(
            "die {} with sixes {sixes} is impossible",
            fields[2]
        ));
    }
    let pos = Position {
        red,
        yellow,
        side,
        die,
        sixes,
    };
    if all_home(&pos, Side::Red) && all_home(&pos, Side::Yellow) {
        return Err("both sides have every piece at 56".to_string());
    }
    Ok(pos)
}

fn format_side_pieces(pieces: &[Progress]) -> String {
    let values: Vec<String> = pieces
        .iter()
        .map(|p| match p {
            None => "b".to_string(),
            Some(v) => v.to_string(),
        })
        .collect();
    values.join(",")
}

fn format_position(pos: &Position) -> String {
    let side = match pos.side {
        Side::Red => "r",
        Side::Yellow => "y",
    };
    let die = match pos.die {
        None => "-".to_string(),
        Some(d) => d.to_string(),
    };
    format!(
        "{}/{} {side} {die} {}",
        format_side_pieces(&pos.red),
        format_side_pieces(&pos.yellow),
        pos.sixes
    )
}

fn token_text(token: Token) -> String {
    match token {
        Token::Roll(d) => format!("r{d}"),
        Token::Enter => "b-0".to_string(),
        Token::Step { from, to } => format!("{from}-{to}"),
        Token::Pass => "pass".to_string(),
    }
}

fn parse_or_panic(text: &str) -> Position {
    match parse_position(text) {
        Ok(pos) => pos,
        Err(e) => panic!("reference ludo: invalid position {text:?}: {e}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Rules.

/// §1.7 (with the Pieces option): a side has won when all its pieces are at 56.
fn all_home(pos: &Position, side: Side) -> bool {
    pieces(pos, side).iter().all(|&p| p == Some(GOAL))
}

fn winner_of(pos: &Position) -> Option<Side> {
    [Side::Red, Side::Yellow]
        .into_iter()
        .find(|&side| all_home(pos, side))
}

/// §1.10: a chance node offers r1..r6.
fn roll_tokens() -> Vec<Token> {
    (1..=6).map(Token::Roll).collect()
}

/// §1.5: the legal moves for the pending roll `d`.
fn move_tokens(pos: &Position, d: u32) -> Vec<Token> {
    // §1.5: the third 6 in a row is void; the only move is pass.
    if d == 6 && pos.sixes == 3 {
        return vec![Token::Pass];
    }
    let mut out = Vec::new();
    // Pieces at the same value are interchangeable: one move per distinct from-value.
    let mut distinct: Vec<Progress> = pieces(pos, pos.side).clone();
    distinct.dedup(); // the list is sorted, so equal values are adjacent
    for p in distinct {
        match p {
            // A piece in base enters (to p = 0) iff d = 6.
            None if d == 6 => out.push(Token::Enter),
            None => {}
            // A piece at 0..=55 moves to p + d iff p + d ≤ 56 (exact count, no bounce-back);
            // a piece at 56 cannot move.
            Some(from) if from < GOAL && from + d <= GOAL => {
                out.push(Token::Step { from, to: from + d })
            }
            Some(_) => {}
        }
    }
    // §1.5: if no piece move exists, the only move is pass.
    if out.is_empty() {
        out.push(Token::Pass);
    }
    out
}

fn legal(pos: &Position) -> Vec<Token> {
    if winner_of(pos).is_some() {
        return Vec::new();
    }
    match pos.die {
        None => roll_tokens(),
        Some(d) => move_tokens(pos, d),
    }
}

/// §1.9: a roll sets the pending die; §1.4: a 6 adds one to `sixes`, any other value resets it.
fn apply_roll(pos: &mut Position, d: u32) {
    pos.die = Some(d);
    pos.sixes = if d == 6 { pos.sixes + 1 } else { 0 };
}

/// §1.6: ends the turn: the other side is to roll, with sixes = 0.
fn end_turn(pos: &mut Position) {
    pos.side = other(pos.side);
    pos.die = None;
    pos.sixes = 0;
}

/// §1.6 capture: a mover ending on a track square that is not safe sends every opponent piece
/// on that square back to base. Returns whether anything was captured.
fn capture_at(pos: &mut Position, mover: Side, to: u32) -> bool {
    if to > LAST_TRACK {
        return false; // home column and goal are never shared
    }
    let square = absolute_square(mover, to);
    if SAFE_SQUARES.contains(&square) {
        return false; // both colours simply share a safe square
    }
    let victims = pieces_mut(pos, other(mover));
    let mut captured = false;
    for piece in victims.iter_mut() {
        if let Some(p) = *piece
            && p <= LAST_TRACK
            && absolute_square(other(mover), p) == square
        {
            *piece = None;
            captured = true;
        }
    }
    victims.sort();
    captured
}

/// §1.6: moves one piece from `from` (None = base) to `to`, captures, and decides on the extra
/// roll (d = 6, a capture, or reaching 56; several reasons still give one roll).
fn apply_piece_move(pos: &mut Position, d: u32, from: Progress, to: u32) {
    let mover = pos.side;
    let own = pieces_mut(pos, mover);
    let index = own
        .iter()
        .position(|&p| p == from)
        .expect("a legal move starts from an own piece");
    own[index] = Some(to);
    own.sort();
    let captured = capture_at(pos, mover, to);
    let extra_roll = d == 6 || captured || to == GOAL;
    if extra_roll {
        pos.die = None; // same side rolls again; sixes is kept
    } else {
        end_turn(pos);
    }
}

fn apply(pos: &mut Position, token: Token) {
    match (token, pos.die) {
        (Token::Roll(d), None) => apply_roll(pos, d),
        (Token::Enter, Some(d)) => apply_piece_move(pos, d, None, 0),
        (Token::Step { from, to }, Some(d)) => apply_piece_move(pos, d, Some(from), to),
        // §1.6: pass always ends the turn, even after a 6.
        (Token::Pass, Some(_)) => end_turn(pos),
        _ => panic!("token {token:?} does not fit the node kind"),
    }
}

fn perft_position(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let tokens = legal(pos);
    if depth == 1 {
        return tokens.len() as u64;
    }
    let mut nodes = 0;
    for token in tokens {
        let mut child = pos.clone();
        apply(&mut child, token);
        nodes += perft_position(&child, depth - 1);
    }
    nodes
}

// ---------------------------------------------------------------------------------------------
// String-level API.

/// Checks a position string (§1.8 format, §1.10 strictness, 1–4 pieces per side).
pub fn check_position(pos: &str) -> Result<(), String> {
    parse_position(pos).map(|_| ())
}

/// The legal tokens: `r1`..`r6` at a chance node (die `-`), the legal moves (`b-0`, `27-30`,
/// `pass`; `b-0` first, then by from-value) at a decision node, none once a side has won.
/// Panics on a malformed position.
pub fn legal_tokens(pos: &str) -> Vec<String> {
    legal(&parse_or_panic(pos))
        .into_iter()
        .map(token_text)
        .collect()
}

/// Plays one token (a roll or a move) and returns the new position string. Panics on a
/// malformed position or a token that is not legal there.
pub fn play(pos: &str, token: &str) -> String {
    let mut position = parse_or_panic(pos);
    let Some(found) = legal(&position)
        .into_iter()
        .find(|&t| token_text(t) == token)
    else {
        panic!("reference ludo: {token:?} is not legal in {pos:?}");
    };
    apply(&mut position, found);
    format_position(&position)
}

/// The winner ("red" or "yellow") once all of a side's pieces are at 56, else `None`. Panics
/// on a malformed position.
pub fn winner(pos: &str) -> Option<&'static str> {
    winner_of(&parse_or_panic(pos)).map(|side| match side {
        Side::Red => "red",
        Side::Yellow => "yellow",
    })
}

/// Perft: every token (roll or move) is one ply; a finished position has no children.
/// Panics on a malformed position.
pub fn perft(pos: &str, depth: u32) -> u64 {
    perft_position(&parse_or_panic(pos), depth)
}
