//! What the engines say besides their moves. With `--log DIR` every game has a file
//! `DIR/game-<number>.log` with each engine's input (`<`), output (`>`) and stderr (`!`),
//! one line each, stamped with the seconds since the match began. Without it, the engines'
//! stderr still goes to one file for the match (beside the `--results` file, else in the
//! temporary directory), and the last lines of a crashed engine's stderr are quoted in
//! its game's `Reason`.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Locks a mutex, taking over a poisoned one (a log line is never worth a panic).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A file of timestamped lines shared by threads.
#[derive(Clone)]
pub struct LogFile {
    file: Arc<Mutex<BufWriter<File>>>,
    epoch: Instant,
}

impl LogFile {
    /// Creates (replaces) `path`; `epoch` is the time stamps' zero.
    pub fn create(path: &Path, epoch: Instant) -> Result<LogFile, String> {
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(LogFile {
            file: Arc::new(Mutex::new(BufWriter::new(file))),
            epoch,
        })
    }

    /// Writes `<seconds> <who> <mark> <text>`.
    pub fn line(&self, who: &str, mark: char, text: &str) {
        let at = self.epoch.elapsed().as_secs_f64();
        let mut f = lock(&self.file);
        let _ = writeln!(f, "{at:10.3} {who} {mark} {text}");
    }

    /// Writes out what is buffered.
    pub fn flush(&self) {
        let _ = lock(&self.file).flush();
    }
}

/// The match's logs: the per-game directory (`--log`) and the stderr file.
pub struct Logs {
    dir: Option<PathBuf>,
    stderr_path: PathBuf,
    stderr: Mutex<Option<LogFile>>,
    epoch: Instant,
}

impl Logs {
    /// The logs of a match with `--log dir` (if any) and `--results results` (if any).
    pub fn new(dir: Option<&Path>, results: Option<&Path>) -> Logs {
        let stderr_path = match results {
            Some(r) => {
                let mut p = r.as_os_str().to_owned();
                p.push(".stderr");
                PathBuf::from(p)
            }
            None => std::env::temp_dir()
                .join(format!("quartet-match-{}-stderr.log", std::process::id())),
        };
        Logs {
            dir: dir.map(Path::to_path_buf),
            stderr_path,
            stderr: Mutex::new(None),
            epoch: Instant::now(),
        }
    }

    /// The log of game `index` (from 0), if `--log` asks for one.
    pub fn game(&self, index: u64) -> Result<Option<LogFile>, String> {
        let Some(dir) = &self.dir else {
            return Ok(None);
        };
        LogFile::create(&dir.join(format!("game-{}.log", index + 1)), self.epoch).map(Some)
    }

    /// The stderr file, once an engine wrote to it.
    pub fn stderr_file(&self) -> Option<PathBuf> {
        lock(&self.stderr)
            .is_some()
            .then(|| self.stderr_path.clone())
    }

    /// Writes an engine's stderr line to the stderr file (created at the first line).
    fn stderr_line(&self, who: &str, text: &str) {
        let mut file = lock(&self.stderr);
        if file.is_none() {
            *file = LogFile::create(&self.stderr_path, self.epoch).ok();
        }
        if let Some(f) = file.as_ref() {
            f.line(who, '!', text);
            f.flush();
        }
    }
}

/// How many of an engine's last stderr lines are kept for a crash's reason.
const TAIL: usize = 3;

/// Where one engine process's lines go: its game's log (while it plays one), the match's
/// stderr file, and the last stderr lines.
pub struct EngineSink {
    name: String,
    logs: Arc<Logs>,
    game: Mutex<Option<LogFile>>,
    tail: Mutex<VecDeque<String>>,
    stderr_done: AtomicBool,
}

impl EngineSink {
    /// The sink of engine `name`.
    pub fn new(name: &str, logs: Arc<Logs>) -> EngineSink {
        EngineSink {
            name: name.to_string(),
            logs,
            game: Mutex::new(None),
            tail: Mutex::new(VecDeque::with_capacity(TAIL)),
            stderr_done: AtomicBool::new(false),
        }
    }

    /// The game log the engine's lines go to from now on (`None`: none; the previous one
    /// is flushed).
    pub fn set_game(&self, log: Option<LogFile>) {
        let mut game = lock(&self.game);
        if let Some(old) = game.as_ref() {
            old.flush();
        }
        *game = log;
    }

    fn game_line(&self, mark: char, text: &str) -> bool {
        match lock(&self.game).as_ref() {
            Some(log) => {
                log.line(&self.name, mark, text);
                true
            }
            None => false,
        }
    }

    /// A line the referee sent.
    pub fn input(&self, text: &str) {
        self.game_line('<', text);
    }

    /// A line the engine wrote to stdout.
    pub fn output(&self, text: &str) {
        self.game_line('>', text);
    }

    /// A line the engine wrote to stderr.
    pub fn stderr(&self, text: &str) {
        {
            let mut tail = lock(&self.tail);
            if tail.len() == TAIL {
                tail.pop_front();
            }
            tail.push_back(text.to_string());
        }
        if !self.game_line('!', text) {
            self.logs.stderr_line(&self.name, text);
        }
    }

    /// The engine closed its stderr.
    pub fn stderr_closed(&self) {
        self.stderr_done.store(true, Ordering::Release);
    }

    /// Waits up to `wait` for the engine to close its stderr (its last lines read).
    pub fn wait_closed(&self, wait: Duration) {
        let until = Instant::now() + wait;
        while !self.stderr_done.load(Ordering::Acquire) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The engine's last stderr lines, quoted for a reason (`'a' | 'b'`), after waiting up
    /// to `wait` for the engine to close its stderr; empty when it wrote none.
    pub fn last_words(&self, wait: Duration) -> String {
        self.wait_closed(wait);
        lock(&self.tail)
            .iter()
            .map(|l| format!("'{}'", super::adjudicate::quote(l)))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_go_to_the_game_log_or_the_stderr_file() {
        let dir = std::env::temp_dir().join(format!("quartet-logs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let results = dir.join("r.json");
        let logs = Arc::new(Logs::new(Some(&dir), Some(&results)));
        let sink = EngineSink::new("A", Arc::clone(&logs));
        sink.stderr("before any game");
        assert_eq!(logs.stderr_file(), Some(dir.join("r.json.stderr")));
        sink.set_game(logs.game(4).unwrap());
        sink.input("go nodes 1");
        sink.output("bestmove t1");
        for n in 1..=4 {
            sink.stderr(&format!("line {n}"));
        }
        sink.set_game(None);
        let game = std::fs::read_to_string(dir.join("game-5.log")).unwrap();
        let marks: Vec<&str> = game
            .lines()
            .map(|l| l.split_whitespace().nth(2).unwrap())
            .collect();
        assert_eq!(marks, ["<", ">", "!", "!", "!", "!"]);
        assert!(
            game.lines()
                .all(|l| l.split_whitespace().nth(1) == Some("A"))
        );
        let stderr = std::fs::read_to_string(dir.join("r.json.stderr")).unwrap();
        assert!(stderr.ends_with("A ! before any game\n"), "{stderr}");
        sink.stderr_closed();
        assert_eq!(
            sink.last_words(Duration::ZERO),
            "'line 2' | 'line 3' | 'line 4'"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
