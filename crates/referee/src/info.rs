//! What an engine said about its move: the last `info` line with a score before its
//! `bestmove` (score, depth, winning chances) and, for a simultaneous declaration, its
//! `info string policy` line. The adjudication rules read the scores, and the records
//! carry them as `{score/depth time}` comments.

use std::fmt;

/// A search score from the engine's side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// `score cp N`.
    Cp(i32),
    /// `score mate N`: a forced win in N moves (negative: a forced loss).
    Mate(i32),
}

impl fmt::Display for Score {
    /// As a record writes it: pawns with two decimals and a sign (`+0.35`), or `+M3` /
    /// `-M2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Score::Mate(n) if n < 0 => write!(f, "-M{}", n.unsigned_abs()),
            Score::Mate(n) => write!(f, "+M{n}"),
        }
    }
}

/// What the engine reported for one move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The last score.
    pub score: Option<Score>,
    /// The depth of the line that gave it.
    pub depth: Option<u32>,
    /// Its winning, drawing and losing chances in per mille, when given (`wdl W D L`).
    pub wdl: Option<[u32; 3]>,
    /// The last `info string policy` line's declarations and probabilities.
    pub policy: Option<String>,
}

impl SearchInfo {
    /// Takes in one line of engine output (other lines than `info` are ignored).
    pub fn read(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return;
        }
        let words: Vec<&str> = words.collect();
        if words.first() == Some(&"string") {
            if words.get(1) == Some(&"policy") {
                self.policy = Some(words[2..].join(" "));
            }
            return;
        }
        let value = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
        };
        let score = words.iter().position(|w| *w == "score").and_then(|i| {
            let n: i32 = words.get(i + 2)?.parse().ok()?;
            match *words.get(i + 1)? {
                "cp" => Some(Score::Cp(n)),
                "mate" => Some(Score::Mate(n)),
                _ => None,
            }
        });
        let Some(score) = score else {
            return;
        };
        self.score = Some(score);
        self.depth = value("depth").and_then(|d| d.parse().ok());
        self.wdl = words.iter().position(|w| *w == "wdl").and_then(|i| {
            let n = |k: usize| words.get(i + k)?.parse().ok();
            Some([n(1)?, n(2)?, n(3)?])
        });
    }

    /// The probability the policy gave `token` (`None` without a policy line naming it).
    pub fn probability(&self, token: &str) -> Option<f64> {
        self.policy.as_ref()?.split_whitespace().find_map(|entry| {
            let (t, p) = entry.split_once('=')?;
            (t == token).then(|| p.parse().ok()).flatten()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_scored_line_counts() {
        let mut info = SearchInfo::default();
        for line in [
            "info depth 1 seldepth 3 multipv 1 score cp 78 nodes 57 pv h1h2",
            "info string searching",
            "info depth 5 seldepth 13 multipv 1 score cp -40 nodes 7205 pv f1e6n a8e7s",
            "info nodes 9000 nps 1000",
            "bestmove f1e6n",
        ] {
            info.read(line);
        }
        assert_eq!(
            (info.score, info.depth, info.wdl),
            (Some(Score::Cp(-40)), Some(5), None)
        );
        info.read("info depth 3 seldepth 5 multipv 1 score cp 1843 wdl 592 0 408 nodes 53 pv 0-3");
        assert_eq!(info.wdl, Some([592, 0, 408]));
        info.read("info depth 9 score mate -3 pv a1a2");
        assert_eq!(info.score, Some(Score::Mate(-3)));
        info.read("info string policy b3a5=0.666254 e1d3=0.274464 e1c2=0.059282");
        assert_eq!(info.probability("e1d3"), Some(0.274464));
        assert_eq!(info.probability("c1c3"), None);
    }

    #[test]
    fn scores_are_written_in_pawns() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-1205).to_string(), "-12.05");
        assert_eq!(Score::Cp(0).to_string(), "+0.00");
        assert_eq!(Score::Cp(-7).to_string(), "-0.07");
        assert_eq!(Score::Mate(3).to_string(), "+M3");
        assert_eq!(Score::Mate(-2).to_string(), "-M2");
    }
}
