//! What one input line is, whatever the client's platform: lines end at LF, CR LF or a
//! bare CR; a byte-order mark is dropped; every Unicode white space (tab, no-break space,
//! ...) separates tokens as an ASCII space does; invalid UTF-8 is replaced, not fatal.

/// The longest input line read whole; a longer one is refused with an error.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// How much of the start of a refused over-long line is kept, so that the reply its
/// command awaits (`readyok`, `bestmove (none)`, ...) can still be given.
pub const KEPT_START_BYTES: usize = 64;

/// The line's text as the parser reads it: the byte-order mark (U+FEFF) removed and every
/// white-space character turned into an ASCII space. Other characters are kept as they
/// are (an error message shows them escaped).
pub fn normalise(line: &str) -> String {
    line.chars()
        .filter(|&c| c != '\u{feff}')
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect()
}

/// Gathers input bytes into lines. Feed it what was read; it hands out each line that is
/// complete.
#[derive(Debug, Default)]
pub struct LineSplitter {
    line: Vec<u8>,
    too_long: bool,
    /// The first bytes of a line found too long.
    start: Vec<u8>,
}

/// One line from the splitter.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece {
    /// A whole line without its line break (the session normalises it, see [`normalise`]).
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped whole but for its first
    /// [`KEPT_START_BYTES`] bytes (invalid UTF-8 replaced).
    TooLong(String),
}

impl LineSplitter {
    /// Takes `bytes` up to and including the first line break in it. Returns how many bytes
    /// were taken and the line they completed, if they did.
    pub fn take(&mut self, bytes: &[u8]) -> (usize, Option<Piece>) {
        match bytes.iter().position(|&b| b == b'\n' || b == b'\r') {
            Some(i) => {
                self.push(&bytes[..i]);
                (i + 1, Some(self.finish()))
            }
            None => {
                self.push(bytes);
                (bytes.len(), None)
            }
        }
    }

    /// The last line at the end of input, if it had no line break.
    pub fn end(&mut self) -> Option<Piece> {
        (!self.line.is_empty() || self.too_long).then(|| self.finish())
    }

    fn push(&mut self, bytes: &[u8]) {
        if self.too_long {
            return;
        }
        if self.line.len() + bytes.len() > MAX_LINE_BYTES {
            self.too_long = true;
            self.start = self
                .line
                .iter()
                .chain(bytes)
                .take(KEPT_START_BYTES)
                .copied()
                .collect();
            self.line = Vec::new();
        } else {
            self.line.extend_from_slice(bytes);
        }
    }

    fn finish(&mut self) -> Piece {
        let piece = if self.too_long {
            Piece::TooLong(String::from_utf8_lossy(&std::mem::take(&mut self.start)).into_owned())
        } else {
            Piece::Line(String::from_utf8_lossy(&self.line).into_owned())
        };
        self.line.clear();
        self.too_long = false;
        piece
    }
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
    }
}
