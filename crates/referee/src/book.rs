//! Where the games start (`--openings`): the start position, random plies, or a book file,
//! read in an order the match seed decides.
//!
//! A book file is either one position string per line (blank lines and `#` comments
//! skipped), or a file of game records in the `--pgnout` format (its first non-blank line
//! is a tag), of which each record gives an opening: its `FEN` (or the start position) and
//! its first `plies` tokens. `order=random` (the default) plays the book in an order
//! shuffled with the match seed, `order=sequential` in the file's order; `start=N` begins
//! at the N-th opening of that order (as fastchess: shuffle, then rotate). Round `r` of a
//! match (its pair `r` in a two-engine match) uses the opening at position `r`, wrapping
//! around the book.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use quartet_core::game::{Node, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;

use super::dice::{DiceStream, pair_seed};
use super::provenance::sha256_hex;
use super::record::{self, START_FEN};

/// The beginning shared by the two games of a pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position string the games start from, or `None` for the start position (then
    /// engines get `position startpos moves ...`).
    pub fen: Option<String>,
    /// Tokens played from there before the engines take over.
    pub moves: Vec<String>,
}

/// The stream of [`pair_seed`] (with pair 0) that shuffles a book.
pub const BOOK_STREAM: u64 = 2;

/// The order a book is played in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookOrder {
    /// Shuffled with the match seed (the default).
    Random,
    /// The file's order.
    Sequential,
}

/// A book file and how to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookFile {
    /// The file, as given.
    pub path: PathBuf,
    /// The order.
    pub order: BookOrder,
    /// The opening of that order to begin with, from 1.
    pub start: u64,
    /// For a book of records: how many tokens of each record to play (all when `None`).
    pub plies: Option<u32>,
}

/// Where the games of each pair start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// Every game starts from the start position.
    StartPosition,
    /// `random:N`: N random plies from the start position (moves uniformly among the legal
    /// ones, chance outcomes by weight), seeded per round; redrawn if the game ends in them.
    Random(u32),
    /// `file:PATH [order=random|sequential] [start=N] [plies=N]`.
    File(BookFile),
}

impl OpeningSource {
    /// Parses the words of `--openings`: `random:N`, or `file:PATH` followed by any of
    /// `order=random|sequential`, `start=N` (N ≥ 1) and `plies=N`.
    pub fn parse(words: &[String]) -> Result<OpeningSource, String> {
        let (first, options) = words
            .split_first()
            .ok_or("openings: expected random:N or file:PATH")?;
        if let Some(n) = first.strip_prefix("random:") {
            if let Some(extra) = options.first() {
                return Err(format!(
                    "openings '{first}': '{extra}' applies to a book (file:PATH) only"
                ));
            }
            let n = n
                .parse()
                .map_err(|_| format!("openings '{first}': '{n}' is not a ply count"))?;
            return Ok(OpeningSource::Random(n));
        }
        let Some(path) = first.strip_prefix("file:") else {
            return Err(format!(
                "openings '{first}': expected random:N or file:PATH"
            ));
        };
        let mut book = BookFile {
            path: PathBuf::from(path),
            order: BookOrder::Random,
            start: 1,
            plies: None,
        };
        for word in options {
            let bad = |why: &str| format!("openings '{word}': {why}");
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| bad("expected order=, start= or plies="))?;
            match key {
                "order" => {
                    book.order = match value {
                        "random" => BookOrder::Random,
                        "sequential" => BookOrder::Sequential,
                        _ => return Err(bad("the order is random or sequential")),
                    }
                }
                "start" => {
                    book.start = value
                        .parse()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| bad("start= is a number from 1"))?;
                }
                "plies" => {
                    book.plies = Some(value.parse().map_err(|_| bad("plies= is a number"))?);
                }
                _ => return Err(bad("expected order=, start= or plies=")),
            }
        }
        Ok(OpeningSource::File(book))
    }
}

/// The `--openings` words that [`OpeningSource::parse`] reads, every option of a book
/// spelled out (`file:PATH order=random start=1`), or `startpos` for the start position.
impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::StartPosition => f.write_str("startpos"),
            OpeningSource::Random(plies) => write!(f, "random:{plies}"),
            OpeningSource::File(book) => {
                let order = match book.order {
                    BookOrder::Random => "random",
                    BookOrder::Sequential => "sequential",
                };
                write!(
                    f,
                    "file:{} order={order} start={}",
                    book.path.display(),
                    book.start
                )?;
                if let Some(plies) = book.plies {
                    write!(f, " plies={plies}")?;
                }
                Ok(())
            }
        }
    }
}

/// A book read from its file: its openings in the order they are played, and the sha256 of
/// the file's bytes.
#[derive(Clone, Debug)]
pub struct Book {
    /// The openings in play order: round `r` plays `openings[r % len]`.
    pub openings: Vec<Arc<Opening>>,
    /// The hex sha256 of the file.
    pub sha256: String,
}

impl Book {
    /// Reads `book`'s file and orders it with `seed`. Errors name the file and the line or
    /// record at fault.
    pub fn load<G: Notation>(
        book: &BookFile,
        seed: u64,
        rules: &RuleOptions,
    ) -> Result<Book, String> {
        let name = book.path.display();
        let bytes =
            std::fs::read(&book.path).map_err(|e| format!("cannot read openings '{name}': {e}"))?;
        let text = String::from_utf8(bytes.clone())
            .map_err(|_| format!("openings '{name}': the file is not UTF-8 text"))?;
        let is_records = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('['));
        let openings = if is_records {
            read_record_openings::<G>(&text, book.plies, rules)
        } else if book.plies.is_some() {
            Err("plies= applies to a book of records, not of position strings".to_string())
        } else {
            read_positions::<G>(&text, rules).map(|lines| {
                lines
                    .into_iter()
                    .map(|fen| Opening {
                        fen: Some(fen),
                        moves: Vec::new(),
                    })
                    .collect()
            })
        }
        .map_err(|e| format!("openings '{name}': {e}"))?;
        let mut order: Vec<usize> = (0..openings.len()).collect();
        if book.order == BookOrder::Random {
            shuffle(&mut order, pair_seed(seed, 0, BOOK_STREAM));
        }
        let skip = ((book.start - 1) % openings.len() as u64) as usize;
        order.rotate_left(skip);
        let openings: Vec<Arc<Opening>> = openings.into_iter().map(Arc::new).collect();
        Ok(Book {
            openings: order.iter().map(|&i| Arc::clone(&openings[i])).collect(),
            sha256: sha256_hex(&bytes),
        })
    }

    /// The opening of round `round`.
    pub fn opening(&self, round: u64) -> Arc<Opening> {
        Arc::clone(&self.openings[(round % self.openings.len() as u64) as usize])
    }
}

/// Fisher–Yates with a stream seeded by `seed`.
fn shuffle(items: &mut [usize], seed: u64) {
    let mut rng = DiceStream::new(seed);
    for i in (1..items.len()).rev() {
        items.swap(i, rng.index(i + 1));
    }
}

/// The position strings of an opening file: one per line, blank lines and lines starting
/// with `#` skipped. Each must parse and must not be a finished game; errors name the line.
pub fn read_positions<G: Notation>(text: &str, rules: &RuleOptions) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = G::parse_position(line, rules).map_err(|e| format!("line {}: {e}", n + 1))?;
        if matches!(pos.node(), Node::Terminal(_)) {
            return Err(format!(
                "line {}: the game is already over in '{line}'",
                n + 1
            ));
        }
        out.push(line.to_string());
    }
    if out.is_empty() {
        return Err("no positions".to_string());
    }
    Ok(out)
}

/// The openings of a book of records: per record its start (`FEN`, or the start position)
/// and its first `plies` tokens (all of them when `None`), each checked with the rules. A
/// record must be of this game (`Game` tag) and these rules (its rule tags), and must leave
/// the game running; errors name the record.
pub fn read_record_openings<G: Notation>(
    text: &str,
    plies: Option<u32>,
    rules: &RuleOptions,
) -> Result<Vec<Opening>, String> {
    let records = quartet_records::parse_records(text).map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(records.len());
    for (i, rec) in records.iter().enumerate() {
        let bad = |why: String| format!("record {}: {why}", i + 1);
        if let Some(game) = rec.tag("Game")
            && game != G::DECLARATION.name
        {
            return Err(bad(format!("a {game} game, not {}", G::DECLARATION.name)));
        }
        let own = record::record_rules::<G>(rec, rules).map_err(bad)?;
        if own != *rules {
            return Err(bad(
                "its rule tags differ from the match's rule options".to_string()
            ));
        }
        let fen = rec.tag("FEN").filter(|f| *f != START_FEN);
        let start = match fen {
            Some(f) => G::parse_position(f, rules).map_err(|e| bad(e.to_string()))?,
            None => G::start(rules),
        };
        let take = plies.map_or(rec.moves.len(), |p| (p as usize).min(rec.moves.len()));
        let mut game = GameHistory::new(start);
        for (n, token) in rec.moves[..take].iter().enumerate() {
            let action = game
                .current()
                .parse_action(token)
                .map_err(|e| bad(format!("ply {}: {e}", n + 1)))?;
            game.try_play(action)
                .map_err(|_| bad(format!("ply {}: '{token}' cannot be played here", n + 1)))?;
        }
        if matches!(game.node(), Node::Terminal(_)) {
            return Err(bad(format!(
                "the game is over after its first {take} plies (give plies=N to play fewer)"
            )));
        }
        out.push(Opening {
            fen: fen.map(String::from),
            moves: rec.moves[..take].to_vec(),
        });
    }
    if out.is_empty() {
        return Err("no records".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_testkit::toys::Nim;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn openings_parse_and_print_every_option() {
        assert_eq!(
            OpeningSource::parse(&words("random:8")),
            Ok(OpeningSource::Random(8))
        );
        let book = OpeningSource::parse(&words("file:a.txt")).unwrap();
        assert_eq!(book.to_string(), "file:a.txt order=random start=1");
        let book =
            OpeningSource::parse(&words("file:g.pgn plies=6 start=3 order=sequential")).unwrap();
        assert_eq!(
            book.to_string(),
            "file:g.pgn order=sequential start=3 plies=6"
        );
        assert_eq!(OpeningSource::parse(&words(&book.to_string())), Ok(book));
        assert_eq!(OpeningSource::StartPosition.to_string(), "startpos");
        for bad in [
            "random:x",
            "book.pgn",
            "random:2 order=random",
            "file:a order=shuffled",
            "file:a start=0",
            "file:a plies=x",
            "file:a depth=3",
            "file:a sequential",
        ] {
            assert!(OpeningSource::parse(&words(bad)).is_err(), "{bad}");
        }
        assert!(OpeningSource::parse(&[]).is_err());
    }

    #[test]
    fn opening_file_lines_are_checked() {
        let rules = RuleOptions::default();
        let ok = read_positions::<Nim>("# comment\n\n9 s 0\n 4 f 1 \n", &rules).unwrap();
        assert_eq!(ok, ["9 s 0", "4 f 1"]);
        let err = read_positions::<Nim>("9 s 0\n9 x 0\n", &rules).unwrap_err();
        assert!(err.starts_with("line 2:"), "{err}");
        let err = read_positions::<Nim>("0 f 0\n", &rules).unwrap_err();
        assert!(err.contains("already over"), "{err}");
        assert!(read_positions::<Nim>("#\n", &rules).is_err());
    }

    #[test]
    fn records_give_their_first_plies() {
        let rules = RuleOptions::default();
        let text =
            "[Game \"nim\"]\n[FEN \"9 s 0\"]\n\nt1 t2 t3 1-0\n\n[Game \"nim\"]\n\nt3 p 0-1\n";
        let all = read_record_openings::<Nim>(text, None, &rules).unwrap();
        assert_eq!(all[0].fen.as_deref(), Some("9 s 0"));
        assert_eq!(all[0].moves, ["t1", "t2", "t3"]);
        assert_eq!((all[1].fen.as_deref(), all[1].moves.len()), (None, 2));
        let two = read_record_openings::<Nim>(text, Some(2), &rules).unwrap();
        assert_eq!(two[0].moves, ["t1", "t2"]);
        // 9 stones: t3 t3 t3 empties the heap, a finished game.
        let over = "[FEN \"9 s 0\"]\n\nt3 t3 t3 0-1\n";
        let err = read_record_openings::<Nim>(over, None, &rules).unwrap_err();
        assert!(err.contains("record 1") && err.contains("plies=N"), "{err}");
        assert!(read_record_openings::<Nim>(over, Some(2), &rules).is_ok());
        let illegal = "[Game \"nim\"]\n\nt4 1-0\n";
        let err = read_record_openings::<Nim>(illegal, None, &rules).unwrap_err();
        assert!(err.starts_with("record 1: ply 1"), "{err}");
        let other = "[Game \"dice\"]\n\nr1 1-0\n";
        assert!(read_record_openings::<Nim>(other, None, &rules).is_err());
    }

    #[test]
    fn the_seed_orders_a_book_and_start_rotates_it() {
        let dir = std::env::temp_dir().join(format!("quartet-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("nim.txt");
        let lines: Vec<String> = (1..=12).map(|n| format!("{n} f 0")).collect();
        std::fs::write(&path, lines.join("\n")).unwrap();
        let rules = RuleOptions::default();
        let load = |order, start, seed| {
            let book = BookFile {
                path: path.clone(),
                order,
                start,
                plies: None,
            };
            let b = Book::load::<Nim>(&book, seed, &rules).unwrap();
            (0..12)
                .map(|r| b.opening(r).fen.clone().unwrap())
                .collect::<Vec<_>>()
        };
        let sequential = load(BookOrder::Sequential, 1, 1);
        assert_eq!(sequential, lines);
        assert_eq!(load(BookOrder::Sequential, 3, 1)[0], "3 f 0");
        assert_eq!(load(BookOrder::Sequential, 14, 1)[0], "2 f 0");
        let (one, two) = (load(BookOrder::Random, 1, 1), load(BookOrder::Random, 1, 2));
        assert_ne!(one, two, "two seeds, two orders");
        assert_eq!(one, load(BookOrder::Random, 1, 1), "one seed, one order");
        let mut sorted = one.clone();
        sorted.sort_by_key(|l| l.split(' ').next().unwrap().parse::<u32>().unwrap());
        assert_eq!(sorted, lines, "a permutation of the book");
        assert_eq!(load(BookOrder::Random, 2, 1)[0], one[1]);
        let b = Book::load::<Nim>(
            &BookFile {
                path: path.clone(),
                order: BookOrder::Random,
                start: 1,
                plies: None,
            },
            1,
            &rules,
        )
        .unwrap();
        // sha256 of the bytes, as `sha256sum` prints it.
        assert_eq!(b.sha256.len(), 64);
        assert_eq!(b.opening(12), b.opening(0));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
