//! The self-play data format: a text file of header lines, one line per sampled position,
//! and a summary line, so that shards can be checked and merged.
//!
//! ```text
//! # quartet-selfplay 1 game=duell seed=1 games=1000 limit=nodes:5000 random-plies=8 ...
//! <position>\t<result>\t<score>\t<ply>\t<game>\t<move>
//! ...
//! # summary games=250 positions=2990 first=120 draws=12 second=118
//! ```
//!
//! Each position line has six tab-separated fields:
//! 1. `position`: the game's position string (as `position fen` takes it);
//! 2. `result`: how the game ended, `1-0` (the first player won), `0-1` or `1/2-1/2`;
//! 3. `score`: the search's score of the position from the first player's view, in the
//!    engine's units (centipawns; win probability scaled to ±10000 in Ludo);
//! 4. `ply`: the position's ply in its game (every token one ply, as in move lists);
//! 5. `game`: the index of the game in the whole run (0-based; shards play disjoint sets);
//! 6. `move`: the move the search chose there (for Apocalypse the first player's
//!    declaration followed by `/` and the second's).
//!
//! Lines starting with `#` are comments; the first one is the header naming the settings,
//! the last one the summary of the games played (not only of the positions kept).

use std::fmt;
use std::str::FromStr;

/// The first word of the header line, with the format's version.
pub const MAGIC: &str = "# quartet-selfplay 1";

/// How a game ended, seen from the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The first player won (`1-0`).
    FirstWins,
    /// A draw (`1/2-1/2`).
    Draw,
    /// The second player won (`0-1`).
    SecondWins,
}

impl GameResult {
    /// The first player's score: 1, 0.5 or 0.
    pub fn first_score(self) -> f64 {
        match self {
            GameResult::FirstWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::SecondWins => 0.0,
        }
    }

    /// The PGN form `1-0`, `1/2-1/2` or `0-1`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::SecondWins => "0-1",
        }
    }
}

impl FromStr for GameResult {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "1-0" => Ok(GameResult::FirstWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "0-1" => Ok(GameResult::SecondWins),
            _ => Err(format!("result '{s}': expected 1-0, 0-1 or 1/2-1/2")),
        }
    }
}

/// One sampled position with what the game and the search said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position string.
    pub position: String,
    /// The game's final result.
    pub result: GameResult,
    /// The search score from the first player's view.
    pub score: i32,
    /// The position's ply in its game.
    pub ply: u32,
    /// The game's index in the run.
    pub game: u64,
    /// The move the search chose (a move token; `a/b` for a joint turn).
    pub best: String,
}

impl fmt::Display for Sample {
    /// The sample as one line of the format, without the line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\t{}\t{}\t{}\t{}\t{}",
            self.position,
            self.result.as_str(),
            self.score,
            self.ply,
            self.game,
            self.best
        )
    }
}

impl FromStr for Sample {
    type Err = String;
    /// Reads a position line (see the module documentation).
    fn from_str(line: &str) -> Result<Self, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [position, result, score, ply, game, best] = fields[..] else {
            return Err(format!(
                "expected 6 tab-separated fields, found {}",
                fields.len()
            ));
        };
        if position.trim().is_empty() || best.trim().is_empty() {
            return Err("empty position or move field".to_string());
        }
        let number = |name: &str, text: &str| format!("{name} '{text}' is not a number");
        Ok(Sample {
            position: position.to_string(),
            result: result.parse()?,
            score: score.parse().map_err(|_| number("score", score))?,
            ply: ply.parse().map_err(|_| number("ply", ply))?,
            game: game.parse().map_err(|_| number("game", game))?,
            best: best.to_string(),
        })
    }
}

/// The games a run (or shard) played and how they ended, whether or not any of their
/// positions were kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Games the first player won.
    pub first: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the second player won.
    pub second: u64,
}

impl Summary {
    /// Counts one finished game that contributed `positions` lines.
    pub fn add_game(&mut self, result: GameResult, positions: u64) {
        self.games += 1;
        self.positions += positions;
        match result {
            GameResult::FirstWins => self.first += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::SecondWins => self.second += 1,
        }
    }

    /// Adds another summary's counts.
    pub fn merge(&mut self, other: &Summary) {
        self.games += other.games;
        self.positions += other.positions;
        self.first += other.first;
        self.draws += other.draws;
        self.second += other.second;
    }
}

impl fmt::Display for Summary {
    /// The summary line, without the line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "# summary games={} positions={} first={} draws={} second={}",
            self.games, self.positions, self.first, self.draws, self.second
        )
    }
}

impl FromStr for Summary {
    type Err = String;
    /// Reads a summary line.
    fn from_str(line: &str) -> Result<Self, String> {
        let rest = line
            .strip_prefix("# summary ")
            .ok_or_else(|| format!("not a summary line: '{line}'"))?;
        let fields = key_values(rest)?;
        let get = |key: &str| -> Result<u64, String> {
            let text = fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| format!("summary line lacks {key}="))?;
            text.parse()
                .map_err(|_| format!("summary {key}='{text}' is not a number"))
        };
        Ok(Summary {
            games: get("games")?,
            positions: get("positions")?,
            first: get("first")?,
            draws: get("draws")?,
            second: get("second")?,
        })
    }
}

/// The settings line of a data file: `key=value` words after [`MAGIC`]. Shards of one run
/// have equal headers but for `shard`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The settings in their order, `shard` included.
    pub fields: Vec<(String, String)>,
}

impl Header {
    /// The value of `key`, if the header has it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The header with `key` set to `value` (added at the end if missing).
    pub fn with(&self, key: &str, value: &str) -> Header {
        let mut fields = self.fields.clone();
        match fields.iter_mut().find(|(k, _)| k == key) {
            Some(field) => field.1 = value.to_string(),
            None => fields.push((key.to_string(), value.to_string())),
        }
        Header { fields }
    }
}

impl fmt::Display for Header {
    /// The header line, without the line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(MAGIC)?;
        for (k, v) in &self.fields {
            write!(f, " {k}={v}")?;
        }
        Ok(())
    }
}

impl FromStr for Header {
    type Err = String;
    /// Reads a header line.
    fn from_str(line: &str) -> Result<Self, String> {
        let rest = line
            .strip_prefix(MAGIC)
            .ok_or_else(|| format!("not a quartet-selfplay 1 header: '{line}'"))?;
        Ok(Header {
            fields: key_values(rest)?,
        })
    }
}

/// Splits `a=1 b=2` into pairs.
fn key_values(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split_whitespace()
        .map(|word| {
            word.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .ok_or_else(|| format!("'{word}' is not key=value"))
        })
        .collect()
}

/// A whole data file read into memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// The settings.
    pub header: Header,
    /// The positions, in file order.
    pub samples: Vec<Sample>,
    /// The games played.
    pub summary: Summary,
}

impl DataFile {
    /// Parses a whole file; errors name the line.
    pub fn parse(text: &str) -> Result<DataFile, String> {
        let mut lines = text.lines().enumerate();
        let header = match lines.next() {
            Some((_, line)) => line.parse::<Header>().map_err(|e| format!("line 1: {e}"))?,
            None => return Err("empty file (no header line)".to_string()),
        };
        let mut samples = Vec::new();
        let mut summary = None;
        for (n, line) in lines {
            if summary.is_some() {
                return Err(format!("line {}: text after the summary line", n + 1));
            }
            if line.starts_with("# summary") {
                summary = Some(line.parse().map_err(|e| format!("line {}: {e}", n + 1))?);
            } else if line.starts_with('#') || line.is_empty() {
                continue;
            } else {
                samples.push(line.parse().map_err(|e| format!("line {}: {e}", n + 1))?);
            }
        }
        let summary: Summary =
            summary.ok_or("no summary line: the run did not finish (or the file is cut)")?;
        if summary.positions != samples.len() as u64 {
            return Err(format!(
                "the summary counts {} positions, the file has {}",
                summary.positions,
                samples.len()
            ));
        }
        Ok(DataFile {
            header,
            samples,
            summary,
        })
    }

    /// The file as text, ending with a line end.
    pub fn to_text(&self) -> String {
        let mut text = format!("{}\n", self.header);
        for s in &self.samples {
            text.push_str(&format!("{s}\n"));
        }
        text.push_str(&format!("{}\n", self.summary));
        text
    }
}

/// Joins the files of the shards `1/n` .. `n/n` of one run into the file the unsharded
/// run writes, byte for byte: the same header (with `shard=1/1`), the positions ordered by
/// game (each game's positions in their order), the summaries added. Fails unless every shard is
/// there exactly once and the headers agree but for `shard`.
pub fn merge(files: &[DataFile]) -> Result<DataFile, String> {
    let first = files.first().ok_or("merge: no files")?;
    let strip = |h: &Header| Header {
        fields: h
            .fields
            .iter()
            .filter(|(k, _)| k != "shard")
            .cloned()
            .collect(),
    };
    let header = strip(&first.header);
    let mut seen = Vec::new();
    let mut count = None;
    for (i, f) in files.iter().enumerate() {
        if strip(&f.header) != header {
            return Err(format!(
                "merge: file {} was made with other settings ({} vs {})",
                i + 1,
                f.header,
                first.header
            ));
        }
        let shard = f.header.get("shard").unwrap_or("1/1");
        let (k, n) = shard
            .split_once('/')
            .and_then(|(k, n)| Some((k.parse::<u64>().ok()?, n.parse::<u64>().ok()?)))
            .ok_or_else(|| format!("merge: file {}: bad shard '{shard}'", i + 1))?;
        if *count.get_or_insert(n) != n {
            return Err(format!(
                "merge: file {} is a shard of {n}, not of {}",
                i + 1,
                count.unwrap_or(n)
            ));
        }
        if seen.contains(&k) {
            return Err(format!("merge: shard {k}/{n} is given twice"));
        }
        seen.push(k);
    }
    let n = count.unwrap_or(1);
    if seen.len() as u64 != n {
        let missing: Vec<String> = (1..=n)
            .filter(|k| !seen.contains(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        return Err(format!("merge: shards missing: {}", missing.join(" ")));
    }
    let mut samples: Vec<Sample> = files
        .iter()
        .flat_map(|f| f.samples.iter().cloned())
        .collect();
    // Stable: a game's positions keep their order.
    samples.sort_by_key(|s| s.game);
    let mut summary = Summary::default();
    for f in files {
        summary.merge(&f.summary);
    }
    Ok(DataFile {
        // The unsharded run's header: `shard` in its place, as that run writes it.
        header: first.header.with("shard", "1/1"),
        samples,
        summary,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(game: u64, ply: u32, result: GameResult) -> Sample {
        Sample {
            position: "2k3/6/6/6/6/3K2 s 4444 0".to_string(),
            result,
            score: -37,
            ply,
            game,
            best: "R@a2".to_string(),
        }
    }

    fn file(shard: &str, samples: Vec<Sample>, summary: Summary) -> DataFile {
        DataFile {
            header: Header {
                fields: vec![
                    ("game".into(), "rnb".into()),
                    ("seed".into(), "3".into()),
                    ("shard".into(), shard.into()),
                ],
            },
            samples,
            summary,
        }
    }

    #[test]
    fn a_sample_line_has_the_documented_fields() {
        let s = sample(4, 9, GameResult::SecondWins);
        assert_eq!(
            s.to_string(),
            "2k3/6/6/6/6/3K2 s 4444 0\t0-1\t-37\t9\t4\tR@a2"
        );
        assert_eq!(s.to_string().parse::<Sample>(), Ok(s));
    }

    #[test]
    fn results_are_the_first_players_score() {
        assert_eq!("1-0".parse::<GameResult>().unwrap().first_score(), 1.0);
        assert_eq!("1/2-1/2".parse::<GameResult>().unwrap().first_score(), 0.5);
        assert_eq!("0-1".parse::<GameResult>().unwrap().first_score(), 0.0);
        assert!("1-1".parse::<GameResult>().is_err());
    }

    #[test]
    fn bad_lines_are_refused_with_a_reason() {
        for (line, why) in [
            ("a\t1-0\t3\t4\t5", "6 tab-separated"),
            ("a\t2-0\t3\t4\t5\tm", "result"),
            ("a\t1-0\tx\t4\t5\tm", "score"),
            ("a\t1-0\t3\t-4\t5\tm", "ply"),
            ("a\t1-0\t3\t4\t5\t ", "empty"),
        ] {
            let err = line.parse::<Sample>().unwrap_err();
            assert!(err.contains(why), "{line}: {err}");
        }
    }

    #[test]
    fn a_file_round_trips_and_checks_its_summary() {
        let mut summary = Summary::default();
        summary.add_game(GameResult::FirstWins, 2);
        summary.add_game(GameResult::Draw, 0);
        let f = file(
            "1/1",
            vec![
                sample(0, 3, GameResult::FirstWins),
                sample(0, 7, GameResult::FirstWins),
            ],
            summary,
        );
        let text = f.to_text();
        assert!(text.starts_with("# quartet-selfplay 1 game=rnb seed=3 shard=1/1\n"));
        assert!(text.ends_with("# summary games=2 positions=2 first=1 draws=1 second=0\n"));
        assert_eq!(DataFile::parse(&text), Ok(f));
        // A cut file (no summary) and a wrong count are refused.
        let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        assert!(DataFile::parse(&cut).unwrap_err().contains("no summary"));
        let wrong = text.replace("positions=2", "positions=3");
        assert!(DataFile::parse(&wrong).unwrap_err().contains("counts 3"));
        assert!(DataFile::parse("").is_err());
        assert!(DataFile::parse("# other\n").unwrap_err().contains("line 1"));
    }

    #[test]
    fn merging_orders_by_game_and_adds_the_summaries() {
        let mut s1 = Summary::default();
        s1.add_game(GameResult::FirstWins, 2);
        s1.add_game(GameResult::SecondWins, 1);
        let mut s2 = Summary::default();
        s2.add_game(GameResult::Draw, 1);
        let a = file(
            "1/2",
            vec![
                sample(0, 3, GameResult::FirstWins),
                sample(0, 5, GameResult::FirstWins),
                sample(2, 4, GameResult::SecondWins),
            ],
            s1,
        );
        let b = file("2/2", vec![sample(1, 6, GameResult::Draw)], s2);
        let merged = merge(&[b.clone(), a.clone()]).unwrap();
        assert_eq!(merged.header.get("shard"), Some("1/1"));
        assert_eq!(merged.header.fields.len(), b.header.fields.len());
        let order: Vec<(u64, u32)> = merged.samples.iter().map(|s| (s.game, s.ply)).collect();
        assert_eq!(order, vec![(0, 3), (0, 5), (1, 6), (2, 4)]);
        assert_eq!(
            merged.summary,
            Summary {
                games: 3,
                positions: 4,
                first: 1,
                draws: 1,
                second: 1
            }
        );
        assert!(
            merge(std::slice::from_ref(&a))
                .unwrap_err()
                .contains("missing: 2/2")
        );
        assert!(
            merge(&[a.clone(), a.clone()])
                .unwrap_err()
                .contains("twice")
        );
        let mut other = b.clone();
        other.header.fields[1].1 = "4".into();
        assert!(merge(&[a, other]).unwrap_err().contains("other settings"));
    }
}
