//! The engine's answers read generically: `info` lines (score, MultiPV index, first move of
//! the line, nodes), `info string policy`, `info string error`, `response` and `bestmove`.
//! Nothing here knows a game.

/// A score as the protocol prints it, from the view of the player to act.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// `score cp N`: the game's own unit (protocol.md §6).
    Cp(i64),
    /// `score mate N`: a forced win in N own moves (negative: a forced loss).
    Mate(i64),
}

/// One `info` line of a search that carries a score (its nodes: [`nodes`]).
#[derive(Clone, Debug, PartialEq)]
pub struct InfoScore {
    /// The MultiPV index (1 when the line has none).
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// The first token of the line's `pv`, if any.
    pub first: Option<String>,
}

/// Reads an `info` line with a `score`; `None` for any other line (an `info string`, an
/// `info` without a score, a line that is not `info`, a malformed number).
pub fn parse_info(line: &str) -> Option<InfoScore> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    if words.first() == Some(&"string") {
        return None;
    }
    let mut multipv = 1;
    let mut score = None;
    let mut first = None;
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "multipv" => multipv = words.get(i + 1)?.parse().ok()?,
            "score" => {
                let value: i64 = words.get(i + 2)?.parse().ok()?;
                score = Some(match *words.get(i + 1)? {
                    "cp" => Score::Cp(value),
                    "mate" => Score::Mate(value),
                    _ => return None,
                });
                i += 1;
            }
            "pv" => {
                first = words.get(i + 1).map(|w| w.to_string());
                break;
            }
            _ => {}
        }
        i += 1;
    }
    Some(InfoScore {
        multipv,
        score: score?,
        first,
    })
}

/// The `nodes` of any `info` line that has them (with a score or without: the last line
/// of a search counts its nodes even when no iteration was completed).
pub fn nodes(line: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.take_while(|w| *w != "pv" && *w != "string").collect();
    let at = words.iter().position(|w| *w == "nodes")?;
    words.get(at + 1)?.parse().ok()
}

/// The `info string policy tok=p ...` line's entries (protocol.md §3.2); `None` for any
/// other line. An entry that is not `token=probability` makes the whole line `None`.
pub fn parse_policy(line: &str) -> Option<Vec<(String, f64)>> {
    let rest = line.strip_prefix("info string policy")?;
    rest.split_whitespace()
        .map(|entry| {
            let (token, p) = entry.rsplit_once('=')?;
            let p: f64 = p.parse().ok()?;
            (p.is_finite() && !token.is_empty()).then(|| (token.to_string(), p))
        })
        .collect()
}

/// The text of an `info string error: ...` line, or `None`.
pub fn error_text(line: &str) -> Option<&str> {
    line.strip_prefix("info string error:").map(str::trim)
}

/// The answer of a `response ...` line (empty for `response` alone), or `None`.
pub fn response(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("response")?;
    (rest.is_empty() || rest.starts_with(' ')).then(|| rest.trim())
}

/// The token of a `bestmove` line (`None` for `bestmove (none)`), or the outer `None` for
/// a line that is not `bestmove`.
pub fn bestmove(line: &str) -> Option<Option<String>> {
    let mut words = line.split_whitespace();
    if words.next() != Some("bestmove") {
        return None;
    }
    Some(words.next().filter(|t| *t != "(none)").map(str::to_string))
}

/// The move number a refused `position` names (`position: move 3: ...`): the 1-based
/// index of the token after `moves`.
pub fn refused_move(error: &str) -> Option<usize> {
    let rest = error.strip_prefix("position: move ")?;
    rest.split(':').next()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_index_first_move_and_nodes() {
        let line = "info depth 4 seldepth 7 multipv 2 score cp -2233 wdl 612 0 388 nodes 792 \
                    nps 792000 hashfull 2 time 0 pv 0-6 r3 b-0";
        assert_eq!(
            parse_info(line),
            Some(InfoScore {
                multipv: 2,
                score: Score::Cp(-2233),
                first: Some("0-6".into()),
            })
        );
        let mate = parse_info("info depth 9 score mate -3 nodes 5 pv").expect("a score");
        assert_eq!(
            (mate.score, mate.first, mate.multipv),
            (Score::Mate(-3), None, 1)
        );
        assert_eq!(parse_info("info depth 1 nodes 1 time 0"), None);
        assert_eq!(
            nodes("info depth 0 seldepth 0 multipv 1 nodes 200 time 0 pv a1d3n"),
            Some(200)
        );
        assert_eq!(nodes("info string nodes 5"), None);
        assert_eq!(nodes("info depth 1 pv nodes 5"), None);
        assert_eq!(parse_info("info string score cp 3"), None);
        assert_eq!(parse_info("info depth 1 score cp x"), None);
        assert_eq!(parse_info("bestmove a1a2"), None);
    }

    #[test]
    fn policy_error_response_and_bestmove_lines() {
        assert_eq!(
            parse_policy("info string policy b3a5=0.556401 e1d3=0.443599 c1c3=0.000000"),
            Some(vec![
                ("b3a5".into(), 0.556401),
                ("e1d3".into(), 0.443599),
                ("c1c3".into(), 0.0)
            ])
        );
        assert_eq!(parse_policy("info string policy b3a5"), None);
        assert_eq!(parse_policy("info string chance node"), None);
        assert_eq!(error_text("info string error: go: bad"), Some("go: bad"));
        assert_eq!(error_text("info string x"), None);
        assert_eq!(response("response turn p1"), Some("turn p1"));
        assert_eq!(response("response"), Some(""));
        assert_eq!(response("responses"), None);
        assert_eq!(
            bestmove("bestmove e1d3 ponder x"),
            Some(Some("e1d3".into()))
        );
        assert_eq!(bestmove("bestmove (none)"), Some(None));
        assert_eq!(bestmove("info bestmove"), None);
        assert_eq!(
            refused_move("position: move 3: illegal move 'b1b4': no such path"),
            Some(3)
        );
        assert_eq!(refused_move("position: 'x' is not a position"), None);
    }
}
