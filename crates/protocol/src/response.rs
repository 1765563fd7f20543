//! The text of the engine's answers (protocol.md gives every form).

use quartet_engine::{InfoLine, Score};

/// `cp V` or `mate N`.
fn score(score: &Score) -> String {
    match score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// `info depth D seldepth S multipv K score cp|mate V [wdl W D L] nodes N nps R hashfull H
/// time T pv ...`
pub fn info_line(info: &InfoLine) -> String {
    let ms = info.time.as_millis();
    let nps = (u128::from(info.nodes) * 1000) / ms.max(1);
    let mut line = format!(
        "info depth {} seldepth {} multipv {}",
        info.depth, info.seldepth, info.multipv
    );
    if let Some(s) = &info.score {
        line.push_str(&format!(" score {}", score(s)));
    }
    if let Some([w, d, l]) = info.wdl {
        line.push_str(&format!(" wdl {w} {d} {l}"));
    }
    line.push_str(&format!(
        " nodes {} nps {} hashfull {} time {}",
        info.nodes, nps, info.hashfull, ms
    ));
    if !info.pv.is_empty() {
        line.push_str(&format!(" pv {}", info.pv.join(" ")));
    }
    line
}

/// `info string <text>`.
pub fn info_string(text: &str) -> String {
    format!("info string {text}")
}

/// The most characters of an error's text that are echoed; the rest is cut off with `...`
/// (a 10 MiB refused value must not make a 10 MiB answer).
pub const MAX_ERROR_CHARS: usize = 400;

/// `info string error: <text>`, with control, format and default-ignorable characters
/// escaped (`\n`, `\u{200b}`) so that echoed input cannot break the line-based output or
/// hide in it, and at most [`MAX_ERROR_CHARS`] characters of `text` (then `...`).
pub fn error(text: &str) -> String {
    let mut line = String::from("info string error: ");
    for (i, c) in text.chars().enumerate() {
        if i == MAX_ERROR_CHARS {
            line.push_str("...");
            break;
        }
        if c.is_control() {
            line.extend(c.escape_default());
        } else if is_invisible(c) {
            line.extend(c.escape_unicode());
        } else {
            line.push(c);
        }
    }
    line
}

/// Whether `c` draws nothing or changes how its neighbours draw: a format character
/// (General_Category Cf: zero-width spaces and joiners, bidirectional marks, tags) or a
/// default-ignorable code point (variation selectors, fillers), by Unicode's own tables.
fn is_invisible(c: char) -> bool {
    use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory};
    use icu_properties::{CodePointMapData, CodePointSetData};
    CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::Format
}

/// `bestmove <token>` or `bestmove (none)`.
pub fn bestmove(token: Option<&str>) -> String {
    format!("bestmove {}", token.unwrap_or("(none)"))
}

/// `response <text>` (UGI `query` answers).
pub fn response(text: &str) -> String {
    if text.is_empty() {
        "response".to_string()
    } else {
        format!("response {text}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn info_line_form() {
        let line = InfoLine {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: Some(Score::Cp(-31)),
            nodes: 12_000,
            time: Duration::from_millis(40),
            hashfull: 3,
            pv: vec!["d1d7".into(), "e8e7".into()],
            wdl: None,
        };
        assert_eq!(
            info_line(&line),
            "info depth 5 seldepth 9 multipv 1 score cp -31 nodes 12000 nps 300000 hashfull 3 time \
            40 pv d1d7 e8e7"
        );
        let with_wdl = InfoLine {
            wdl: Some([620, 0, 380]),
            pv: vec![],
            ..line.clone()
        };
        assert_eq!(
            info_line(&with_wdl),
            "info depth 5 seldepth 9 multipv 1 score cp -31 wdl 620 0 380 nodes 12000 nps 300000 \
            hashfull 3 time 40"
        );
        let mate = InfoLine {
            score: Some(Score::Mate(-2)),
            pv: vec![],
            time: Duration::ZERO,
            ..line
        };
        assert_eq!(
            info_line(&mate),
            "info depth 5 seldepth 9 multipv 1 score mate -2 nodes 12000 nps 12000000 hashfull 3 \
            time 0"
        );
        let unscored = InfoLine {
            depth: 0,
            score: None,
            ..mate
        };
        assert_eq!(
            info_line(&unscored),
            "info depth 0 seldepth 9 multipv 1 nodes 12000 nps 12000000 hashfull 3 time 0"
        );
    }

    #[test]
    fn mate_scores_count_own_moves() {
        use quartet_core::eval::MATE;
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_value(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_value(-(MATE - 4)), Score::Mate(-2));
        // A move that loses by itself (R&B's own line) is a loss on the first own move, not
        // `mate 0`; on the second own move, mate -2.
        assert_eq!(Score::from_value(-(MATE - 1)), Score::Mate(-1));
        assert_eq!(Score::from_value(-(MATE - 3)), Score::Mate(-2));
        assert_eq!(Score::from_value(123), Score::Cp(123));
    }

    #[test]
    fn other_lines() {
        assert_eq!(bestmove(None), "bestmove (none)");
        assert_eq!(bestmove(Some("a1e2n")), "bestmove a1e2n");
        assert_eq!(response(""), "response");
        assert_eq!(response("true"), "response true");
        assert_eq!(error("x"), "info string error: x");
        assert_eq!(error("a\u{0}b\nc"), "info string error: a\\u{0}b\\nc");
        assert_eq!(
            error("go\u{200b}x \u{feff}é"),
            "info string error: go\\u{200b}x \\u{feff}é"
        );
        // Format and default-ignorable characters the old hand-kept ranges missed.
        for c in [
            '\u{061c}',
            '\u{180e}',
            '\u{e0001}',
            '\u{1d173}',
            '\u{fe0f}',
            '\u{034f}',
            '\u{3164}',
            '\u{ad}',
            '\u{2066}',
        ] {
            assert_eq!(
                error(&format!("a{c}b")),
                format!("info string error: a{}b", c.escape_unicode()),
                "U+{:04X}",
                u32::from(c)
            );
        }
        // Visible letters of other scripts stay as they are.
        assert_eq!(error("ß Ω 東 ﷺ"), "info string error: ß Ω 東 ﷺ");
    }

    #[test]
    fn long_errors_are_cut() {
        let prefix = "info string error: ";
        let exact = "é".repeat(MAX_ERROR_CHARS);
        assert_eq!(error(&exact), format!("{prefix}{exact}"));
        let long = "é".repeat(MAX_ERROR_CHARS + 1);
        assert_eq!(error(&long), format!("{prefix}{exact}..."));
    }
}
