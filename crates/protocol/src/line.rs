//! What one input line is, whatever the client's platform: lines end at LF, CR LF or a
//! bare CR; a byte-order mark is dropped; every Unicode white space (tab, no-break space,
//! ...) separates tokens as an ASCII space does; invalid UTF-8 is replaced, not fatal.

use std::borrow::Cow;

/// The longest input line read whole; a longer one is refused with an error.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// How much of the start of a refused over-long line is kept, so that the reply its
/// command awaits (`readyok`, `bestmove (none)`, ...) can still be given.
pub const KEPT_START_BYTES: usize = 64;

/// The line's text as the parser reads it: the byte-order mark (U+FEFF) removed and every
/// white-space character turned into an ASCII space. Other characters are kept as they
/// are (an error message shows them escaped). A line of printable ASCII and spaces, the
/// usual one, is returned as it is, after one pass over its bytes.
pub fn normalise(line: &str) -> Cow<'_, str> {
    if plain(line) {
        return Cow::Borrowed(line);
    }
    Cow::Owned(
        line.chars()
            .filter(|&c| c != '\u{feff}')
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect(),
    )
}

/// Whether `line` is ASCII without white space other than the space: its own normal form.
/// Each block of bytes is folded without an early exit, which the compiler turns into
/// vector instructions (16 MiB in half a millisecond).
fn plain(line: &str) -> bool {
    line.as_bytes().chunks(4096).all(|block| {
        block.iter().fold(true, |ok, &b| {
            ok & b.is_ascii() & (b.wrapping_sub(b'\t') > b'\r' - b'\t')
        })
    })
}

/// Gathers input bytes into lines. Feed it what was read; it hands out each line that is
/// complete, and a line too long as soon as it is found too long (its command, `quit` or
/// `isready` say, is not held up by the rest, which may never end); the rest of that line
/// is then dropped up to its line break.
#[derive(Debug, Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    /// In a line handed out as too long: its bytes are dropped up to its line break.
    too_long: bool,
}

/// One line from the splitter.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    /// A whole line without its line break (the session normalises it, see [`normalise`]).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped whole but for its first
    /// [`KEPT_START_BYTES`] bytes (invalid UTF-8 replaced); handed out when its length
    /// passes the limit, before its end has come.
    TooLong(String),
}

impl LineSplitter {
    /// Takes `bytes` up to and including the first line break in it. Returns how many bytes
    /// were taken and the line they completed or found too long, if they did.
    pub fn take(&mut self, bytes: &[u8]) -> (usize, Option<Piece>) {
        let end = bytes.iter().position(|&b| b == b'\n' || b == b'\r');
        let (used, part) = match end {
            Some(i) => (i + 1, &bytes[..i]),
            None => (bytes.len(), bytes),
        };
        let too_long = self.push(part);
        if end.is_none() {
            return (used, too_long);
        }
        if self.too_long {
            // The line has ended; it was handed out (now or before) as too long.
            self.too_long = false;
            return (used, too_long);
        }
        (used, Some(self.finish()))
    }

    /// The last line at the end of input, if it had no line break (and was not handed out
    /// as too long).
    pub fn end(&mut self) -> Option<Piece> {
        if std::mem::take(&mut self.too_long) {
            return None;
        }
        (!self.line.is_empty()).then(|| self.finish())
    }

    /// Adds `bytes` to the line; the line as too long if they make it so.
    fn push(&mut self, bytes: &[u8]) -> Option<Piece> {
        if self.too_long {
            return None;
        }
        if self.line.len() + bytes.len() <= MAX_LINE_BYTES {
            self.line.extend_from_slice(bytes);
            return None;
        }
        self.too_long = true;
        let start: Vec<u8> = self
            .line
            .iter()
            .chain(bytes)
            .take(KEPT_START_BYTES)
            .copied()
            .collect();
        // The 16 MiB read so far are not kept.
        self.line = Vec::new();
        Some(Piece::TooLong(String::from_utf8_lossy(&start).into_owned()))
    }

    fn finish(&mut self) -> Piece {
        // Valid UTF-8 (the usual case) becomes the line without a copy.
        let bytes = std::mem::take(&mut self.line);
        Piece::Line(
            String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        )
    }
}

/// The words of a text separated by white space, as `str::split_whitespace` gives them, but
/// deciding ASCII byte by byte and decoding only the other characters: a 16 MiB list is
/// read at the speed of its bytes.
#[derive(Clone, Debug)]
pub struct Words<'a>(pub &'a str);

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let text = skip_space(self.0);
        let len = word_len(text);
        let (word, rest) = text.split_at(len);
        self.0 = rest;
        (!word.is_empty()).then_some(word)
    }
}

/// `text` without the white space at its start.
pub fn skip_space(mut text: &str) -> &str {
    while let Some(n) = space_len(text) {
        text = &text[n..];
    }
    text
}

/// The length in bytes of the word at the start of `text`: up to its first white space.
pub fn word_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii() {
            if is_ascii_space(bytes[i]) {
                return i;
            }
            i += 1;
        } else {
            match space_len(&text[i..]) {
                Some(_) => return i,
                None => i += text[i..].chars().next().map_or(1, char::len_utf8),
            }
        }
    }
    i
}

/// The length of the white-space character at the start of `text`, if one is there (as
/// `char::is_whitespace` decides).
fn space_len(text: &str) -> Option<usize> {
    let &first = text.as_bytes().first()?;
    if first.is_ascii() {
        return is_ascii_space(first).then_some(1);
    }
    let c = text.chars().next()?;
    c.is_whitespace().then(|| c.len_utf8())
}

/// Whether an ASCII byte is white space (`char::is_whitespace`: tab to carriage return,
/// and the space).
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Piece> {
        let mut splitter = LineSplitter::default();
        let mut rest = input;
        let mut out = Vec::new();
        while !rest.is_empty() {
            let (used, piece) = splitter.take(rest);
            out.extend(piece);
            rest = &rest[used..];
        }
        out.extend(splitter.end());
        out
    }

    fn line(s: &str) -> Piece {
        Piece::Line(s.to_string())
    }

    #[test]
    fn lf_crlf_and_bare_cr_all_end_a_line() {
        assert_eq!(
            lines(b"uci\nisready\r\nquit\rgo"),
            vec![
                line("uci"),
                line("isready"),
                line(""),
                line("quit"),
                line("go")
            ]
        );
    }

    #[test]
    fn bom_and_unicode_spaces_are_normalised() {
        assert_eq!(
            normalise("\u{feff}go\tdepth\u{a0}3\u{2003}\u{b}\u{c}x"),
            "go depth 3   x"
        );
    }

    #[test]
    fn a_line_of_ascii_and_spaces_is_its_own_normal_form() {
        assert!(matches!(
            normalise("go depth 3"),
            Cow::Borrowed("go depth 3")
        ));
        for line in ["go\tdepth", "go\rx", "\u{feff}go", "go\u{a0}depth"] {
            assert!(matches!(normalise(line), Cow::Owned(_)), "{line:?}");
        }
        // U+001C..U+001F are not white space in Rust (nor in Unicode): kept.
        assert_eq!(normalise("a\u{1c}b"), "a\u{1c}b");
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(lines(b"\xffgo\n"), vec![line("\u{fffd}go")]);
    }

    #[test]
    fn an_over_long_line_is_dropped_whole_and_the_next_is_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 1];
        input.extend_from_slice(b"\nisready\n");
        assert_eq!(
            lines(&input),
            vec![
                Piece::TooLong("x".repeat(KEPT_START_BYTES)),
                line("isready")
            ]
        );
        let mut go = b"go ".to_vec();
        go.extend(vec![b'1'; MAX_LINE_BYTES]);
        go.extend_from_slice(b"\n");
        assert!(matches!(&lines(&go)[0], Piece::TooLong(s) if s.starts_with("go 111")));
        let exact = vec![b'y'; MAX_LINE_BYTES];
        assert_eq!(lines(&exact).len(), 1);
        assert!(matches!(&lines(&exact)[0], Piece::Line(l) if l.len() == MAX_LINE_BYTES));
        // Too long at the end of input, without a line break: handed out once.
        let mut unended = b"quit ".to_vec();
        unended.extend(vec![b'x'; MAX_LINE_BYTES]);
        assert_eq!(lines(&unended).len(), 1);
    }

    #[test]
    fn a_line_is_handed_out_as_too_long_as_soon_as_it_is() {
        let mut splitter = LineSplitter::default();
        let (used, piece) = splitter.take(b"quit ");
        assert_eq!((used, piece), (5, None));
        let more = vec![b'x'; MAX_LINE_BYTES];
        let (used, piece) = splitter.take(&more);
        assert_eq!(used, MAX_LINE_BYTES);
        assert!(matches!(piece, Some(Piece::TooLong(s)) if s.starts_with("quit xxx")));
        // The rest of the line, however long, is dropped, and the next line is read.
        assert_eq!(splitter.take(&more), (MAX_LINE_BYTES, None));
        assert_eq!(splitter.take(b"xx\nisready\n"), (3, None));
        assert_eq!(
            splitter.take(b"isready\n"),
            (8, Some(Piece::Line("isready".to_string())))
        );
    }

    #[test]
    fn words_are_split_as_split_whitespace_splits_them() {
        for text in [
            "",
            "  ",
            "a",
            " a1a6  b1b2\tc\u{a0}d\u{2003}e\u{85}f\u{b}g ",
            "\u{e9}t\u{e9} \u{200b}x",
            "x\u{1c}y",
        ] {
            assert_eq!(
                Words(text).collect::<Vec<_>>(),
                text.split_whitespace().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }
}
