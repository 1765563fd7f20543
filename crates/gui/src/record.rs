//! Game records in the text form `quartet match --pgnout` writes and `quartet replay` reads
//! (`[Name "value"]` tags with `\"` and `\\` escaped, a blank line, every token of the game
//! in order, the result last, lines of at most 79 characters). The GUI keeps its own small
//! writer and reader of that form because it may not use the referee's code (it speaks to
//! engines only through the protocol); `tests/gui_record.rs` checks that the referee reads
//! what this writes. A token's clock readings are a comment after it, `{[%clk 0:04:59.5]}`
//! (as lichess and the referee write them; two halves `{[%clk a] / [%clk b]}` after a joint
//! turn), which the reader keeps (`Record::clocks`) and `quartet replay` skips.

use std::fmt::Write as _;

/// One game as text: tags, tokens and the result (`1-0`, `0-1`, `1/2-1/2`, or `*` for a
/// game that has not ended).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Every token of the game.
    pub moves: Vec<String>,
    /// The clock readings after each token, in milliseconds left (the mover's; the first
    /// player's then the second's after a joint turn), in the order of the `[%clk ...]`
    /// of the comment after it; empty for a token without one. It may be shorter than
    /// `moves`.
    pub clocks: Vec<Vec<u64>>,
    /// The result text.
    pub result: String,
}

impl Record {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The record as text, ending with a blank line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{value}\"]");
        }
        out.push('\n');
        let mut words = Vec::with_capacity(self.moves.len() + 1);
        for (i, token) in self.moves.iter().enumerate() {
            words.push(token.clone());
            let readings = self.clocks.get(i).map_or(&[][..], Vec::as_slice);
            if !readings.is_empty() {
                let clk: Vec<String> = readings
                    .iter()
                    .map(|&ms| format!("[%clk {}]", clock_text(ms)))
                    .collect();
                words.push(format!("{{{}}}", clk.join(" / ")));
            }
        }
        words.push(self.result.clone());
        let mut line_len = 0;
        for word in &words {
            if line_len > 0 && line_len + 1 + word.len() > 79 {
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

    /// Reads the first record of `text`: tags, then words up to the next tag or the end,
    /// skipping `{...}` and `;` comments and move annotations (an annotated record, such as
    /// the page's review export, loads as its plain game: [`without_annotation`]); the last
    /// word is the result. Error: said for people, with the line number.
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut tags = Vec::new();
        let mut words: Vec<String> = Vec::new();
        let mut clocks: Vec<Vec<u64>> = Vec::new();
        let mut in_comment = false;
        // The comment being read, and the number of words before it (its token's).
        let mut comment = String::new();
        let mut comment_after = 0;
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim();
            if !in_comment && line.starts_with('[') {
                if !words.is_empty() {
                    break;
                }
                tags.push(parse_tag(line).map_err(|e| format!("line {n}: {e}"))?);
                continue;
            }
            let mut rest = line;
            while !rest.is_empty() {
                if in_comment {
                    match rest.find('}') {
                        Some(end) => {
                            in_comment = false;
                            comment.push_str(&rest[..end]);
                            let readings = clock_readings(&comment);
                            if comment_after > 0 && !readings.is_empty() {
                                clocks.resize(comment_after.max(clocks.len()), Vec::new());
                                clocks[comment_after - 1].extend(readings);
                            }
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
                words.extend(
                    rest[..cut]
                        .split_whitespace()
                        .filter_map(without_annotation)
                        .map(String::from),
                );
                match rest[cut..].chars().next() {
                    Some('{') => {
                        in_comment = true;
                        comment.clear();
                        comment_after = words.len();
                        rest = &rest[cut + 1..];
                    }
                    _ => rest = "",
                }
            }
        }
        if in_comment {
            return Err("unterminated { comment".to_string());
        }
        let result = words
            .pop()
            .ok_or_else(|| "the record has no move list (not even a result)".to_string())?;
        if !matches!(result.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            return Err(format!("'{result}' is not a result (1-0, 0-1, 1/2-1/2, *)"));
        }
        // A comment after the last word (the result) is no token's.
        clocks.truncate(words.len());
        while clocks.last().is_some_and(Vec::is_empty) {
            clocks.pop();
        }
        Ok(Record {
            tags,
            moves: words,
            clocks,
            result,
        })
    }
}

/// `word` as the reader keeps it, as `quartet replay` reads it (the referee's reader, which
/// the GUI may not use): a token without its annotation suffix (`!!`, `!?`, `?!`, `??`, `!`,
/// `?`: no game's token ends with `!` or `?`), or `None` for a word that is only an
/// annotation (a suffix standing apart, or a numeric glyph such as `$2`). Any other word is
/// kept as it is, for the engine to refuse with its text.
pub fn without_annotation(word: &str) -> Option<&str> {
    if word
        .strip_prefix('$')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let token = word.trim_end_matches(['!', '?']);
    if !["!!", "!?", "?!", "??", "!", "?"].contains(&&word[token.len()..]) {
        return Some(word);
    }
    (!token.is_empty()).then_some(token)
}

/// A clock reading as `[%clk ...]` writes it: `h:mm:ss`, with tenths when not whole.
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let whole = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    match ms % 1000 / 100 {
        0 => whole,
        tenths => format!("{whole}.{tenths}"),
    }
}

/// The `[%clk h:mm:ss(.f)]` readings of a comment's text, in milliseconds, in order
/// (readings that do not parse are left out).
pub fn clock_readings(comment: &str) -> Vec<u64> {
    comment
        .split("[%clk")
        .skip(1)
        .filter_map(|rest| {
            let (time, _) = rest.split_once(']')?;
            let mut parts = time.trim().split(':');
            let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() {
                return None;
            }
            let (h, m): (u64, u64) = (h.parse().ok()?, m.parse().ok()?);
            let s: f64 = s.parse().ok().filter(|s: &f64| (0.0..60.0).contains(s))?;
            let ms = (h.checked_mul(3600)?.checked_add(m * 60)? as f64 + s) * 1000.0;
            (m < 60 && ms < 1e15).then(|| ms.round() as u64)
        })
        .collect()
}

/// Reads `[Name "value"]`.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("a tag must be [Name \"value\"]")?;
    let (name, rest) = inner
        .split_once(' ')
        .ok_or("a tag needs a name and a value")?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err("a tag name is letters, digits and _".to_string());
    }
    let quoted = rest
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or("a tag value must be in double quotes")?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err("only \\\\ and \\\" may be escaped".to_string()),
            },
            '"' => return Err("unescaped quote in a tag value".to_string()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(moves: &str, result: &str) -> Record {
        Record {
            tags: vec![
                ("Game".into(), "ludo".into()),
                ("White".into(), "a \"q\" \\ b".into()),
            ],
            moves: moves.split_whitespace().map(String::from).collect(),
            clocks: Vec::new(),
            result: result.into(),
        }
    }

    #[test]
    fn clock_readings_are_written_after_their_tokens_and_read_back() {
        let mut r = rec("d1d7 e8e7 a1b2/c3d4 r6", "*");
        r.clocks = vec![vec![299_500], vec![3_600_000], vec![59_000, 61_250]];
        let text = r.to_text();
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains(concat!(
                "d1d7 {[%clk 0:04:59.5]} e8e7 {[%clk 1:00:00]} ",
                "a1b2/c3d4 {[%clk 0:00:59] / [%clk 0:01:01.2]} r6"
            )),
            "{text}"
        );
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!(
            back.clocks,
            [vec![299_500], vec![3_600_000], vec![59_000, 61_200]]
        );
        // The referee's comments: a score, a time and the clock, over lines; a bad reading
        // and a comment before the first token or after the result are no token's.
        let referee = "[Game \"duell\"]\n\n{start} d1d7 {+0.35/12 0.520s\n[%clk 0:00:09]} e8e7 \
                       {[%clk x]} e7e6 {[%clk 0:61:00]} 1-0 {[%clk 0:00:01]}\n";
        let r = Record::parse(referee).unwrap();
        assert_eq!(r.clocks, [vec![9_000]]);
        assert_eq!(
            clock_readings("[%clk 0:00:09.25] [%clk 1:2:3]"),
            [9_250, 3_723_000]
        );
        assert_eq!(clock_text(9_250), "0:00:09.2");
    }

    #[test]
    fn round_trip_with_escapes_and_long_lists() {
        let long = vec!["r6 b-0 r3 0-3"; 20].join(" ");
        let r = rec(&long, "0-1");
        let text = r.to_text();
        assert!(text.lines().all(|l| l.len() <= 79));
        assert!(text.starts_with("[Game \"ludo\"]\n[White \"a \\\"q\\\" \\\\ b\"]\n\nr6 b-0"));
        assert_eq!(Record::parse(&text).unwrap(), r);
        assert_eq!(r.tag("Game"), Some("ludo"));
        assert_eq!(r.tag("Black"), None);
    }

    #[test]
    fn a_move_that_looks_like_a_result_is_a_move() {
        // Ludo's move 0-1 before the result 1-0.
        let r = Record::parse("[Game \"ludo\"]\n\nr1 0-1 1-0\n").unwrap();
        assert_eq!(r.moves, ["r1", "0-1"]);
        assert_eq!(r.result, "1-0");
    }

    #[test]
    fn an_annotated_record_loads_as_its_game() {
        let text = "[Game \"duell\"]\n\n{start} d1d7?! {White 40 %; best e1e3} e8e7 $1\n\
                    a1e2n?? e7e6 !? e6e5! 0-1\n";
        let r = Record::parse(text).unwrap();
        assert_eq!(r.moves, ["d1d7", "e8e7", "a1e2n", "e7e6", "e6e5"]);
        assert_eq!(r.result, "0-1");
        assert_eq!(without_annotation("d1d7???"), Some("d1d7???"));
        assert_eq!(without_annotation("?"), None);
        assert_eq!(without_annotation("$12"), None);
        assert_eq!(without_annotation("r6"), Some("r6"));
    }

    #[test]
    fn comments_unfinished_games_and_errors() {
        let r = Record::parse("[Game \"duell\"]\n\nd1d7 {a note\nover lines} e8e7 ; rest\n*\n")
            .unwrap();
        assert_eq!(r.moves, ["d1d7", "e8e7"]);
        assert_eq!(r.result, "*");
        // Only the first record is read.
        let two = rec("a b", "1-0").to_text() + &rec("c", "0-1").to_text();
        assert_eq!(Record::parse(&two).unwrap().moves, ["a", "b"]);
        assert!(
            Record::parse("[Game duell]\n")
                .unwrap_err()
                .starts_with("line 1")
        );
        assert!(Record::parse("[Game \"x\"]\n\nd1 {open\n").is_err());
        assert!(Record::parse("[Game \"x\"]\n").is_err());
        assert!(Record::parse("[Game \"x\"]\n\nd1d7 d8d2\n").is_err());
        assert!(Record::parse("[Ga me \"x\"]\n").is_err());
        assert!(Record::parse("[Game \"a\\n\"]\n\n*").is_err());
    }
}
