//! The reader: every record of a text, with the line of what it cannot read.

use super::{Record, clock_readings};

/// Why a text is not in the record format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong, said for people.
    pub why: String,
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for SyntaxError {}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str, n: usize) -> Result<(String, String), SyntaxError> {
    let bad = |why: &str| SyntaxError {
        line: n,
        why: why.to_string(),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| bad("a tag must be [Name \"value\"]"))?;
    let (name, rest) = inner
        .split_once(' ')
        .ok_or_else(|| bad("a tag needs a name and a value"))?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad("a tag name is letters, digits and _"));
    }
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| bad("a tag value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err(bad("only \\\\ and \\\" may be escaped")),
            },
            '"' => return Err(bad("unescaped quote in a tag value")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

/// Whether `word` is a move number as other programs write them (`12.` or `12...`): no
/// game's token ends with a dot.
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    digits.len() < word.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The move annotations an annotated record (a game review's export, another program's
/// PGN) may write after a token: no game's token ends with `!` or `?`.
pub const MOVE_SUFFIXES: [&str; 6] = ["!!", "!?", "?!", "??", "!", "?"];

/// `word` as the reader keeps it: a token without its annotation suffix
/// ([`MOVE_SUFFIXES`], `d1d7?!` is `d1d7`), or `None` for a word that is only an
/// annotation (a suffix standing apart, or a numeric annotation glyph such as `$2`). Any
/// other word is kept as it is, so that a token with a suffix not of the list (`d1d7???`)
/// reaches the rules and is refused there with its text.
pub fn without_annotation(word: &str) -> Option<&str> {
    if word
        .strip_prefix('$')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let token = word.trim_end_matches(['!', '?']);
    if !MOVE_SUFFIXES.contains(&&word[token.len()..]) {
        return Some(word);
    }
    (!token.is_empty()).then_some(token)
}

/// The record being read: its tags, its words so far (the result last), and the clock
/// readings after each word.
#[derive(Default)]
struct Partial {
    tags: Vec<(String, String)>,
    words: Vec<String>,
    clocks: Vec<Vec<u64>>,
}

impl Partial {
    /// Keeps the readings of a comment that followed the first `after` words (none before
    /// the first word).
    fn comment(&mut self, after: usize, comment: &str) {
        let readings = clock_readings(comment);
        if after > 0 && !readings.is_empty() {
            self.clocks.resize(after.max(self.clocks.len()), Vec::new());
            self.clocks[after - 1].extend(readings);
        }
    }

    /// The record read, if there is one (`line`: where it ended, for its error).
    fn finish(&mut self, line: usize) -> Result<Option<Record>, SyntaxError> {
        let Partial {
            tags,
            mut words,
            mut clocks,
        } = std::mem::take(self);
        if tags.is_empty() && words.is_empty() {
            return Ok(None);
        }
        let result = words.pop().ok_or(SyntaxError {
            line,
            why: "a record has no move list (not even a result)".to_string(),
        })?;
        // A comment after the last word (the result) is no token's.
        clocks.truncate(words.len());
        while clocks.last().is_some_and(Vec::is_empty) {
            clocks.pop();
        }
        Ok(Some(Record {
            tags,
            moves: words,
            comments: Vec::new(),
            clocks,
            result,
        }))
    }
}

/// Reads every record of `text`. Error: the first thing it cannot read, with its line (a
/// tag not of the form, a `{` comment never closed, tags with no move list).
pub fn parse_records(text: &str) -> Result<Vec<Record>, SyntaxError> {
    let mut records = Vec::new();
    let mut partial = Partial::default();
    let mut in_comment = false;
    // The comment being read, and the number of words before it (its token's).
    let mut comment = String::new();
    let mut comment_after = 0;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        last_line = n;
        let line = raw.trim();
        if !in_comment && line.starts_with('[') {
            if !partial.words.is_empty() {
                records.extend(partial.finish(n)?);
            }
            partial.tags.push(parse_tag(line, n)?);
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(end) => {
                        in_comment = false;
                        comment.push_str(&rest[..end]);
                        partial.comment(comment_after, &comment);
                        rest = &rest[end + 1..];
                    }
                    None => {
                        comment.push_str(rest);
                        comment.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            let cut = rest.find(['{', ';']).unwrap_or(rest.len());
            partial.words.extend(
                rest[..cut]
                    .split_whitespace()
                    .filter(|w| !is_move_number(w))
                    .filter_map(without_annotation)
                    .map(String::from),
            );
            match rest[cut..].chars().next() {
                Some('{') => {
                    in_comment = true;
                    comment.clear();
                    comment_after = partial.words.len();
                    rest = &rest[cut + 1..];
                }
                _ => rest = "",
            }
        }
    }
    if in_comment {
        return Err(SyntaxError {
            line: last_line,
            why: "unterminated { comment".to_string(),
        });
    }
    records.extend(partial.finish(last_line)?);
    Ok(records)
}
