//! Continuing a match that was stopped (`--resume`): by a signal, by SIGKILL, by a Slurm
//! requeue, or at an engine failure.
//!
//! A game is finished when the results file counts it. After every game the referee
//! appends its record (`--pgnout`) and its line (`--jsonl`), then rewrites the results file
//! atomically with the games finished, the pairs half played and the length of each output
//! file after the last finished game ([`super::resume_state::ResumeState`]). A resume
//! reads that file, refuses a command that differs from the one that started the match
//! (naming the difference),
//! checks that the output files hold what the results file counts, cuts them back to the
//! last finished game (a record cut mid-line by SIGKILL, or a game the results file never
//! counted), and appends. Every check comes before any file is touched: a refused resume
//! changes nothing.

use std::fs::{File, OpenOptions};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use quartet_records::Record;

use super::MatchError;
use super::distinct::{Counter, fingerprint};
use super::results::{GameLine, ResultsFile};
use super::resume_state::OutputMark;

/// An output file being appended to, with its length.
pub struct Output {
    /// The writer.
    pub file: BufWriter<File>,
    /// The path as given.
    pub path: PathBuf,
    /// Its length so far.
    pub bytes: u64,
}

impl Output {
    /// Its mark for the results file.
    pub fn mark(&self) -> OutputMark {
        OutputMark {
            path: self.path.display().to_string(),
            bytes: self.bytes,
        }
    }
}

fn file_error(path: &Path, why: impl Into<String>) -> MatchError {
    MatchError::File {
        path: path.to_path_buf(),
        why: why.into(),
    }
}

/// Opens `path` afresh (replacing it).
pub fn create(path: &Option<PathBuf>) -> Result<Option<Output>, MatchError> {
    path.as_ref()
        .map(|p| {
            File::create(p)
                .map(|f| Output {
                    file: BufWriter::new(f),
                    path: p.clone(),
                    bytes: 0,
                })
                .map_err(|e| file_error(p, e.to_string()))
        })
        .transpose()
}

/// The first `bytes` of the output file `path` that the results file's `mark` describes,
/// after checking that this run writes it too (`given`) and that it is as long.
fn marked_prefix(
    given: &Option<PathBuf>,
    mark: &Option<OutputMark>,
    flag: &str,
) -> Result<Option<(PathBuf, Vec<u8>)>, MatchError> {
    let as_given = given.as_ref().map(|p| p.display().to_string());
    let recorded = mark.as_ref().map(|m| m.path.clone());
    if as_given != recorded {
        let say = |p: Option<String>| p.map_or("none".to_string(), |p| format!("'{p}'"));
        return Err(MatchError::Usage(format!(
            "cannot resume: {flag} is {} in this command and {} in the results file",
            say(as_given),
            say(recorded)
        )));
    }
    let (Some(path), Some(mark)) = (given, mark) else {
        return Ok(None);
    };
    let bytes = std::fs::read(path).map_err(|e| file_error(path, format!("cannot resume: {e}")))?;
    if (bytes.len() as u64) < mark.bytes {
        return Err(file_error(
            path,
            format!(
                "cannot resume: the file has {} bytes, but the results file counts {} bytes \
                of finished games (damaged or replaced); nothing was changed",
                bytes.len(),
                mark.bytes
            ),
        ));
    }
    Ok(Some((path.clone(), bytes[..mark.bytes as usize].to_vec())))
}

/// What a resume found in the output files: the distinct openings and games of the
/// finished games, when a file kept them.
pub struct Restored {
    /// The openings, if a file gave them.
    pub openings: Option<Counter>,
    /// The games, if a file gave them.
    pub games: Option<Counter>,
}

/// Checks the output files against `previous`'s resume state, then cuts them back to their
/// marks and opens them for appending. `pgnout` and `jsonl` are this run's paths. Nothing
/// is changed unless every check passes.
pub fn reopen(
    previous: &ResultsFile,
    pgnout: &Option<PathBuf>,
    jsonl: &Option<PathBuf>,
) -> Result<(Option<Output>, Option<Output>, Restored), MatchError> {
    let state = previous.resume.clone().unwrap_or_default();
    let finished = state.done_count();
    let pgn = marked_prefix(pgnout, &state.pgnout, "--pgnout")?;
    let lines = marked_prefix(jsonl, &state.jsonl, "--jsonl")?;
    let mut restored = Restored {
        openings: None,
        games: None,
    };
    if let Some((path, bytes)) = &lines {
        let text = String::from_utf8_lossy(bytes);
        let mut openings = Counter::default();
        let mut games = Counter::default();
        let mut count = 0;
        for (n, line) in text.lines().enumerate() {
            let line: GameLine = serde_json::from_str(line)
                .map_err(|e| file_error(path, format!("cannot resume: line {}: {e}", n + 1)))?;
            count += 1;
            if let (Some(o), Some(g)) = (&line.opening_id, &line.game_id) {
                openings.add(u64::from_str_radix(o, 16).unwrap_or_default());
                games.add(u64::from_str_radix(g, 16).unwrap_or_default());
            }
        }
        check_count(path, count, finished, "lines")?;
        if games.count() > 0 || finished == 0 {
            restored = Restored {
                openings: Some(openings),
                games: Some(games),
            };
        }
    }
    if let Some((path, bytes)) = &pgn {
        let text = String::from_utf8_lossy(bytes);
        let records = quartet_records::parse_records(&text)
            .map_err(|e| file_error(path, format!("cannot resume: {e}")))?;
        check_count(path, records.len() as u64, finished, "records")?;
        for r in &records {
            let round: Option<u64> = r.tag("Round").and_then(|n| n.parse().ok());
            if !round.is_some_and(|n| n >= 1 && state.is_done(n - 1)) {
                return Err(file_error(
                    path,
                    format!(
                        "cannot resume: a record of round {} that the results file does not \
                        count: not this match's records; nothing was changed",
                        r.tag("Round").unwrap_or("?")
                    ),
                ));
            }
        }
        if restored.games.is_none() {
            let (openings, games) = fingerprints(&records);
            restored = Restored {
                openings: Some(openings),
                games: Some(games),
            };
        }
    }
    let reopen = |cut: Option<(PathBuf, Vec<u8>)>| -> Result<Option<Output>, MatchError> {
        let Some((path, bytes)) = cut else {
            return Ok(None);
        };
        let file = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| file_error(&path, e.to_string()))?;
        file.set_len(bytes.len() as u64)
            .map_err(|e| file_error(&path, e.to_string()))?;
        drop(file);
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| file_error(&path, e.to_string()))?;
        Ok(Some(Output {
            file: BufWriter::new(file),
            path,
            bytes: bytes.len() as u64,
        }))
    };
    Ok((reopen(pgn)?, reopen(lines)?, restored))
}

fn check_count(path: &Path, found: u64, finished: u64, what: &str) -> Result<(), MatchError> {
    if found == finished {
        return Ok(());
    }
    Err(file_error(
        path,
        format!(
            "cannot resume: {found} {what} where the results file counts {finished} finished \
            games: not this match's file; nothing was changed"
        ),
    ))
}

/// The distinct openings and games of records (their `FEN`, `OpeningPlies` and tokens).
fn fingerprints(records: &[Record]) -> (Counter, Counter) {
    let mut openings = Counter::default();
    let mut games = Counter::default();
    for r in records {
        let fen = r.tag("FEN");
        let plies: usize = r
            .tag("OpeningPlies")
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
            .min(r.moves.len());
        openings.add(fingerprint(fen, &r.moves[..plies]));
        games.add(fingerprint(fen, &r.moves));
    }
    (openings, games)
}
