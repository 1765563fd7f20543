//! The rank-string codec of board placements, as in FEN: the ranks from the top (the last
//! rank) down to rank 1, separated by `/`, each from file `a` to the right, a run of empty
//! squares written as its count (1 to 9). A game supplies how one piece is written and read.

use std::fmt::{Display, Write};
use std::str::Chars;

/// Writes the placement of a `width` × `height` board to `out`: `piece(file, rank)` (both
/// from 0, rank 0 at the bottom) is the text of the piece on that square, `None` when it
/// is empty. `width` is at most 9, so every run of empties is one digit.
pub fn format<T: Display>(
    out: &mut String,
    width: u8,
    height: u8,
    mut piece: impl FnMut(u8, u8) -> Option<T>,
) {
    for rank in (0..height).rev() {
        let mut empty = 0;
        for file in 0..width {
            let Some(text) = piece(file, rank) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                let _ = write!(out, "{empty}");
                empty = 0;
            }
            let _ = write!(out, "{text}");
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Reads the placement `field` of a `width` × `height` board. For every piece,
/// `piece(file, rank, first, rest)` gets its square (both from 0, rank 0 at the bottom),
/// its first character and the characters after it; it reads the rest of the piece from
/// `rest` and places it, or says why not (an unknown `first` included: it is the one that
/// knows the piece letters). Any error names the rank (as its number from 1) and, for a
/// piece, the file; a count is a digit 1-9, never two in a row, and every rank covers
/// exactly `width` squares (a count past the edge is refused at once).
pub fn parse(
    field: &str,
    width: u8,
    height: u8,
    mut piece: impl FnMut(u8, u8, char, &mut Chars<'_>) -> Result<(), String>,
) -> Result<(), String> {
    let count = field.split('/').count();
    if count != usize::from(height) {
        return Err(format!(
            "board: expected {height} ranks separated by '/', found {count}"
        ));
    }
    for (rank, text) in (0..height).rev().zip(field.split('/')) {
        let name = rank + 1;
        let mut chars = text.chars();
        let mut file = 0u8;
        let mut after_count = false;
        while let Some(c) = chars.next() {
            if file >= width {
                return Err(format!("rank {name} has more than {width} squares"));
            }
            if let Some(n) = c.to_digit(10) {
                if n == 0 {
                    return Err(format!(
                        "rank {name}: '0' is not a count of empty squares (1-9)"
                    ));
                }
                if after_count {
                    return Err(format!(
                        "rank {name}: two counts of empty squares in a row (write their sum)"
                    ));
                }
                file = file.saturating_add(n as u8);
                if file > width {
                    return Err(format!("rank {name} has more than {width} squares"));
                }
                after_count = true;
                continue;
            }
            after_count = false;
            piece(file, rank, c, &mut chars)
                .map_err(|why| format!("rank {name}, file {}: {why}", char::from(b'a' + file)))?;
            file += 1;
        }
        if file != width {
            return Err(format!("rank {name} has {file} squares, expected {width}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{format, parse};

    /// A 3 × 2 board of one-letter pieces, row 0 at the bottom.
    fn read(field: &str) -> Result<Vec<(u8, u8, char)>, String> {
        let mut pieces = Vec::new();
        parse(field, 3, 2, |file, rank, c, _| match c {
            'x' | 'Y' => {
                pieces.push((file, rank, c));
                Ok(())
            }
            _ => Err(format!("unexpected '{c}'")),
        })?;
        Ok(pieces)
    }

    #[test]
    fn ranks_read_from_the_top_with_counts_of_empties() {
        assert_eq!(
            read("x2/1Yx"),
            Ok(vec![(0, 1, 'x'), (1, 0, 'Y'), (2, 0, 'x')])
        );
        assert_eq!(read("3/3"), Ok(vec![]));
    }

    #[test]
    fn malformed_placements_name_the_rank_and_file() {
        let cases = [
            ("3", "board: expected 2 ranks separated by '/', found 1"),
            ("3/3/3", "board: expected 2 ranks separated by '/', found 3"),
            ("x3/3", "rank 2 has more than 3 squares"),
            ("xxxx/3", "rank 2 has more than 3 squares"),
            ("2/3", "rank 2 has 2 squares, expected 3"),
            (
                "3/11x",
                "rank 1: two counts of empty squares in a row (write their sum)",
            ),
            (
                "3/x0xx",
                "rank 1: '0' is not a count of empty squares (1-9)",
            ),
            ("3/1q1", "rank 1, file b: unexpected 'q'"),
        ];
        for (field, why) in cases {
            assert_eq!(read(field), Err(why.to_string()), "{field}");
        }
    }

    #[test]
    fn a_written_placement_reads_back() {
        let board = [[None, Some('x'), None], [Some('Y'), None, None]];
        let mut text = String::new();
        format(&mut text, 3, 2, |file, rank| {
            board[rank as usize][file as usize]
        });
        assert_eq!(text, "Y2/1x1");
        assert_eq!(read(&text), Ok(vec![(0, 1, 'Y'), (1, 0, 'x')]));
    }
}
