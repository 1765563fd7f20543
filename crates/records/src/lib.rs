//! Game records in the text form `quartet match --pgnout` writes and `quartet replay` and
//! `quartet gui` read, written and read here once for the referee and the GUI (which knows
//! no rules, so this crate knows none either).
//!
//! A record is a tag section (`[Name "value"]` lines, `\"` and `\\` escaped), a blank
//! line, then the move list: every token of the game in order (opening plies, chance
//! outcomes such as `r6`, joint turns `<first>/<second>` recorded verbatim), a `{...}`
//! comment after a token where there is one, then the result (`1-0`, `0-1`, `1/2-1/2`, or
//! `*` for a game still under way), in lines of at most 79 characters. Quartet writes no
//! move numbers (a token list is exactly what `position ... moves` takes); the reader skips
//! them (`12.`, `12...`, as other programs write them, cutegames among them), `{...}`
//! comments (over lines too) and `;` comments (to the end of the line), and the
//! annotations of an annotated record (the GUI's review export, PGN editors): a suffix
//! ([`MOVE_SUFFIXES`]) after a token or standing apart, and numeric glyphs such as `$2`
//! ([`without_annotation`]). The last word of a move list is always the result, so a move
//! that looks like a result (Ludo's `0-1`) is still read as a move. Of a comment the reader
//! keeps the clock readings (`[%clk h:mm:ss(.f)]`, as lichess writes them: [`clocks`]).
//!
//! Whether a record agrees with the rules is the referee's question (`quartet replay`).

#![deny(missing_docs)]

pub mod clocks;
mod read;
mod write;

pub use clocks::{clock_comment, clock_readings, clock_text};
pub use read::{MOVE_SUFFIXES, SyntaxError, parse_records, without_annotation};

/// One game as text: tags, tokens, the comment after each token, and the result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Every token of the game.
    pub moves: Vec<String>,
    /// The comment written after each token, without its braces (`None`: none; may be
    /// shorter than `moves`). The reader keeps only the comments' clock readings
    /// ([`Record::clocks`]), so a record read back has none.
    pub comments: Vec<Option<String>>,
    /// What the reader found of the comments after each token: its clock readings in
    /// milliseconds left ([`clock_readings`]: the mover's; the first player's then the
    /// second's after a joint turn), empty for a token without any; it may be shorter than
    /// `moves`, and it ends with a token that has readings. The writer does not write it
    /// (a writer puts readings in `comments`: [`clock_comment`]).
    pub clocks: Vec<Vec<u64>>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game still under way (the reader takes the
    /// last word of the move list as it is).
    pub result: String,
}

impl Record {
    /// The value of tag `name`, if present (the first such tag).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests;
