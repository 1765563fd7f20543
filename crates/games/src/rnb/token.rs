//! The syntax of one R&B move token (rule 1.7): a placement `R@a2` (the colour in either
//! case) or a step `d1d2`, read before the position judges it.

use super::geometry::{HEIGHT, Square, WIDTH};
use super::moves::Move;
use super::pieces::Colour;
use quartet_core::notation::NotationError;

/// Reads a move token's syntax: `R@a2` / `b@a2` (colour in either case) or `d1d2`.
pub(super) fn parse_move(token: &str) -> Result<Move, NotationError> {
    let fail = |why: String| NotationError::syntax(token, why);
    if let Some((colour, square)) = token.split_once('@') {
        let colour = match colour {
            "R" | "r" => Colour::Red,
            "B" | "b" => Colour::Black,
            other => {
                return Err(fail(format!(
                    "a placement starts with the colour R or B, found '{other}'"
                )));
            }
        };
        return match parse_square(square).map_err(&fail)? {
            (to, "") => Ok(Move::Place { colour, to }),
            (_, rest) => Err(fail(format!("unexpected '{rest}' after the square"))),
        };
    }
    if token.is_empty() {
        return Err(fail(
            "expected a placement like R@a2 or a step like d1d2".into(),
        ));
    }
    let (from, rest) = parse_square(token).map_err(&fail)?;
    if rest.is_empty() {
        return Err(fail("a step names two squares, like d1d2".into()));
    }
    let (to, rest) = parse_square(rest).map_err(&fail)?;
    if !rest.is_empty() {
        return Err(fail(format!("unexpected '{rest}' after the two squares")));
    }
    Ok(Move::Step { from, to })
}

/// Reads one square (`a1`…) at the start of `text`; returns it and the rest of `text`.
fn parse_square(text: &str) -> Result<(Square, &str), String> {
    let bad = || {
        format!(
            "expected a square (file a-{}, rank 1-{HEIGHT}) at '{text}'",
            (b'a' + WIDTH - 1) as char
        )
    };
    let Some(&letter) = text.as_bytes().first() else {
        return Err(bad());
    };
    if letter.is_ascii_uppercase() {
        return Err(format!("squares are written in lower case, found '{text}'"));
    }
    if !letter.is_ascii_lowercase() {
        return Err(bad());
    }
    // The first byte is ASCII, so the rest starts on a character boundary.
    let after = &text[1..];
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || after.starts_with('0') {
        return Err(bad());
    }
    let (number, rest) = after.split_at(digits);
    let rank = number.parse::<u8>().ok().filter(|&r| r >= 1);
    match rank.and_then(|r| Square::new(letter - b'a', r - 1)) {
        Some(sq) => Ok((sq, rest)),
        None => Err(bad()),
    }
}
