//! The writer: a [`Record`] as text.

use std::fmt::Write as _;

use super::Record;

/// The longest line the writer writes (a word longer than it has a line of its own).
const LINE: usize = 79;

impl Record {
    /// The record as text, ending with a blank line (so records can be concatenated): the
    /// tags with `\` and `"` escaped, a blank line, then the tokens, each followed by its
    /// comment in braces, and the result, as words in lines of at most 79 characters (a
    /// comment may go over lines). The clock readings of `clocks` are not written.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{value}\"]");
        }
        out.push('\n');
        let mut words: Vec<String> = Vec::with_capacity(self.moves.len() + 1);
        for (i, token) in self.moves.iter().enumerate() {
            words.push(token.clone());
            if let Some(Some(comment)) = self.comments.get(i) {
                words.extend(format!("{{{comment}}}").split(' ').map(String::from));
            }
        }
        words.push(self.result.clone());
        let mut line_len = 0;
        for word in &words {
            if line_len > 0 && line_len + 1 + word.len() > LINE {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(word);
            line_len += word.len();
        }
        out.push_str("\n\n");
        out
    }
}
