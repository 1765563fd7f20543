//! Engine processes: spawning, the line protocol, timeouts.
//!
//! Each engine runs as a child process with piped stdin/stdout (stderr is discarded). A
//! reader thread stamps every output line with the instant it arrived and passes it over a
//! channel, so the referee can wait with a deadline and measure an engine's time without
//! counting its own delays. An engine is never trusted: every wait has a deadline.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use super::info::SearchInfo;
use super::logs::EngineSink;

/// The option through which the referee makes engines' random choices reproducible per game.
pub const SEED: &str = "Seed";

/// How to start one engine and what to tell it, from `--engine cmd=... name=...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name used in records and reports.
    pub name: String,
    /// The program to run.
    pub cmd: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Its working directory (the referee's when `None`).
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent after the handshake, in order (after the `Game` option and the
    /// rule options).
    pub options: Vec<(String, String)>,
}

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The process could not be started.
    #[error("cannot start '{cmd}': {why}")]
    Spawn {
        /// The program.
        cmd: String,
        /// The operating system's reason.
        why: String,
    },
    /// The process closed its output or its input (it exited or crashed).
    #[error("the engine exited or closed its pipes")]
    Closed,
    /// No expected answer arrived in time.
    #[error("no '{expected}' within {} ms", .waited.as_millis())]
    Timeout {
        /// The answer waited for.
        expected: String,
        /// How long the referee waited.
        waited: Duration,
    },
}

/// The answer to a `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `bestmove <token>` arrived within the wait limit, `elapsed` after the `go`.
    InTime {
        /// The move token (empty if the line had none).
        token: String,
        /// Time from writing `go` to the arrival of `bestmove`.
        elapsed: Duration,
    },
    /// `bestmove` arrived only after the referee sent `stop` at the wait limit.
    Late {
        /// The move token.
        token: String,
        /// Time from writing `go` to the arrival of `bestmove`.
        elapsed: Duration,
    },
    /// Nothing arrived, not even after `stop` and the grace period: the engine hangs.
    Silent,
    /// The engine exited or closed its pipes.
    Closed,
    /// The referee stopped waiting because the game is abandoned (a signal, a decided
    /// test); the engine may still be searching.
    Abandoned,
}

/// How often a wait for `bestmove` looks whether its game was abandoned.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// A running engine process.
pub struct Engine {
    name: String,
    /// Where its lines are logged.
    sink: Arc<EngineSink>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<(Instant, String)>,
    go_sent: Instant,
    /// What the engine said about its current (or last) search.
    info: SearchInfo,
    /// Whether the referee sets the engine's `Seed` before each game: the engine declares
    /// the option and the user did not fix it with `option.Seed=`.
    seeded: bool,
}

/// The option that asks an engine for `wdl` on its `info` lines.
const SHOW_WDL: &str = "UCI_ShowWDL";

/// The name of an `option name <name> type ...` line of the `uci` answer.
fn declared_option(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("option name ")?;
    let end = rest.find(" type ").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

impl Engine {
    /// Starts the engine and performs the handshake within `timeout`: `uci` → `uciok` (noting
    /// whether the engine declares a `Seed` option), then one `setoption` per entry of
    /// `setup` (name, value) followed by the spec's own options, then `isready` → `readyok`.
    pub fn start(
        spec: &EngineSpec,
        setup: &[(String, String)],
        timeout: Duration,
        sink: Arc<EngineSink>,
    ) -> Result<Engine, EngineError> {
        let mut command = Command::new(&spec.cmd);
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // Its own process group: a Ctrl-C at the terminal reaches the referee alone, which
        // stops the engines itself rather than seeing them die as if they crashed.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let spawn_error = |why: String| EngineError::Spawn {
            cmd: spec.cmd.display().to_string(),
            why,
        };
        let mut child = command.spawn().map_err(|e| spawn_error(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error("no pipes".to_string()));
        };
        let (sender, lines) = channel();
        let out_sink = Arc::clone(&sink);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::with_capacity(256);
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        out_sink.output(&line);
                        if sender.send((at, line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        match child.stderr.take() {
            Some(stderr) => {
                let err_sink = Arc::clone(&sink);
                thread::spawn(move || {
                    let mut reader = BufReader::new(stderr);
                    let mut buf = Vec::with_capacity(256);
                    while let Ok(n) = reader.read_until(b'\n', &mut buf)
                        && n > 0
                    {
                        err_sink.stderr(String::from_utf8_lossy(&buf).trim_end());
                        buf.clear();
                    }
                    err_sink.stderr_closed();
                });
            }
            None => sink.stderr_closed(),
        }
        let mut engine = Engine {
            sink,
            name: spec.name.clone(),
            child,
            stdin,
            lines,
            go_sent: Instant::now(),
            info: SearchInfo::default(),
            seeded: false,
        };
        let deadline = Instant::now() + timeout;
        engine.send("uci")?;
        let mut declares_seed = false;
        let mut declares_wdl = false;
        loop {
            let (_, line) = engine.wait_for_line(deadline, "uciok")?;
            if line.split_whitespace().next() == Some("uciok") {
                break;
            }
            let name = declared_option(&line);
            declares_seed |= name.is_some_and(|n| n.eq_ignore_ascii_case(SEED));
            declares_wdl |= name.is_some_and(|n| n.eq_ignore_ascii_case(SHOW_WDL));
        }
        // The adjudication of a game without draws reads `wdl`, which an engine gives only
        // when asked (Stockfish's `UCI_ShowWDL`); the engine's own options come after.
        if declares_wdl {
            engine.send(&format!("setoption name {SHOW_WDL} value true"))?;
        }
        let user_seed = spec
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(SEED));
        engine.seeded = declares_seed && !user_seed;
        for (name, value) in setup.iter().chain(&spec.options) {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.sync(deadline)?;
        Ok(engine)
    }

    /// Where the engine's lines are logged.
    pub fn sink(&self) -> &EngineSink {
        &self.sink
    }

    /// The sink, to keep after the engine is gone (its reader threads still write to it).
    pub fn sink_handle(&self) -> Arc<EngineSink> {
        Arc::clone(&self.sink)
    }

    /// Writes one line (a newline is added) and flushes it.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.name);
        self.sink.input(line);
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Closed)
    }

    /// The next output line and its arrival time, by `deadline`; a timeout names
    /// `expected`, the answer being waited for.
    fn wait_for_line(
        &mut self,
        deadline: Instant,
        expected: &str,
    ) -> Result<(Instant, String), EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok((at, line)) => {
                log::trace!("{} > {line}", self.name);
                Ok((at, line))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                expected: expected.to_string(),
                waited: wait,
            }),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Closed),
        }
    }

    /// Discards output until a line whose first word is `word` arrives (taking in the
    /// `info` lines on the way, see [`Engine::info`]); returns that line and its arrival
    /// time.
    pub fn wait_for(
        &mut self,
        word: &str,
        deadline: Instant,
    ) -> Result<(Instant, String), EngineError> {
        let start = Instant::now();
        loop {
            match self.wait_for_line(deadline, word) {
                Ok((at, line)) if line.split_whitespace().next() == Some(word) => {
                    return Ok((at, line));
                }
                Ok((_, line)) => self.info.read(&line),
                Err(EngineError::Timeout { expected, .. }) => {
                    return Err(EngineError::Timeout {
                        expected,
                        waited: start.elapsed(),
                    });
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `isready` → `readyok` by `deadline`; drops any stale output before `readyok`.
    pub fn sync(&mut self, deadline: Instant) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", deadline).map(|_| ())
    }

    /// Starts a new game: `setoption name Seed value <seed>` (only if the engine declares a
    /// `Seed` option and the user did not set one), `ucinewgame`, then [`Engine::sync`].
    pub fn new_game(&mut self, seed: u32, timeout: Duration) -> Result<(), EngineError> {
        if self.seeded {
            self.send(&format!("setoption name {SEED} value {seed}"))?;
        }
        self.send("ucinewgame")?;
        self.sync(Instant::now() + timeout)
    }

    /// Sends `position` and `go <limits>` and notes the instant of the `go`; the answer is
    /// collected by [`Engine::await_move`]. Splitting the two lets the referee ask both
    /// players of a simultaneous turn before reading either answer.
    pub fn start_search(&mut self, position: &str, go: &str) -> Result<(), EngineError> {
        self.send(position)?;
        self.send(go)?;
        self.go_sent = Instant::now();
        self.info = SearchInfo::default();
        Ok(())
    }

    /// What the engine said about its last search (its `info` lines up to `bestmove`).
    pub fn info(&self) -> &SearchInfo {
        &self.info
    }

    /// Waits for `bestmove` until `limit` after the last `go`. At the limit it sends `stop`
    /// and waits `grace` more; see [`Reply`]. Gives up with [`Reply::Abandoned`] soon
    /// after `cancel` is set.
    pub fn await_move(&mut self, limit: Duration, grace: Duration, cancel: &AtomicBool) -> Reply {
        let sent = self.go_sent;
        let deadline = sent + limit;
        let token = |line: &str| line.split_whitespace().nth(1).unwrap_or("").to_string();
        loop {
            let slice = deadline.min(Instant::now() + CANCEL_POLL);
            match self.wait_for("bestmove", slice) {
                Ok((at, line)) => {
                    return Reply::InTime {
                        token: token(&line),
                        elapsed: at.saturating_duration_since(sent),
                    };
                }
                Err(EngineError::Timeout { .. }) => {
                    if cancel.load(Ordering::Relaxed) {
                        return Reply::Abandoned;
                    }
                    if Instant::now() >= deadline {
                        break;
                    }
                }
                Err(_) => return Reply::Closed,
            }
        }
        if self.send("stop").is_err() {
            return Reply::Closed;
        }
        match self.wait_for("bestmove", Instant::now() + grace) {
            Ok((at, line)) => Reply::Late {
                token: token(&line),
                elapsed: at.saturating_duration_since(sent),
            },
            Err(EngineError::Timeout { .. }) => Reply::Silent,
            Err(_) => Reply::Closed,
        }
    }

    /// Ends the process: `quit`, up to `patience` for it to exit, then a kill.
    pub fn shutdown(mut self, patience: Duration) {
        let _ = self.send("quit");
        let deadline = Instant::now() + patience;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
        // Drop kills it.
    }
}

impl Drop for Engine {
    /// Kills the process if it still runs and reaps it, so no zombie or orphan remains.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::logs::Logs;

    /// A sink that logs nowhere but the stderr file.
    fn sink() -> Arc<EngineSink> {
        Arc::new(EngineSink::new("sh", Arc::new(Logs::new(None, None))))
    }

    fn sh(script: &str) -> EngineSpec {
        EngineSpec {
            name: "sh".to_string(),
            cmd: PathBuf::from("sh"),
            args: vec!["-c".to_string(), script.to_string()],
            dir: None,
            options: vec![("Hash".to_string(), "16".to_string())],
        }
    }

    /// A shell engine that answers the handshake, then replies to each `go` as scripted.
    const ECHO: &str = r#"while read -r cmd rest; do
        case "$cmd" in
          uci) echo "id name shell"; echo uciok ;;
          isready) echo readyok ;;
          setoption) echo "info string got $rest" ;;
          go) echo "info depth 1"; echo "bestmove x1 ponder y" ;;
          quit) exit 0 ;;
        esac
      done"#;

    #[test]
    fn handshake_and_a_move() {
        let setup = [("Game".to_string(), "nim".to_string())];
        let mut e = Engine::start(&sh(ECHO), &setup, Duration::from_secs(10), sink()).unwrap();
        e.new_game(7, Duration::from_secs(10)).unwrap();
        e.start_search("position startpos", "go nodes 1").unwrap();
        match e.await_move(
            Duration::from_secs(10),
            Duration::from_millis(10),
            &AtomicBool::new(false),
        ) {
            Reply::InTime { token, .. } => assert_eq!(token, "x1"),
            other => panic!("{other:?}"),
        }
        e.shutdown(Duration::from_secs(1));
    }

    /// A shell engine that answers `go` with `bestmove s<its Seed option>`; it declares the
    /// `Seed` option when `declare` holds.
    fn seed_echo(declare: bool) -> String {
        let option = if declare {
            r#"echo "option name Seed type spin default 0 min 0 max 4294967295";"#
        } else {
            ""
        };
        format!(
            r#"seed=none
            while read -r cmd a b c d; do
              case "$cmd" in
                uci) {option} echo "option name Clear Hash type button"; echo uciok ;;
                isready) echo readyok ;;
                setoption) case "$b" in [Ss]eed) seed=$d ;; esac ;;
                go) echo "bestmove s$seed" ;;
                quit) exit 0 ;;
              esac
            done"#
        )
    }

    /// The token of one search after a new game with seed 7.
    fn token_after_new_game(spec: &EngineSpec) -> String {
        let mut e = Engine::start(spec, &[], Duration::from_secs(10), sink()).unwrap();
        e.new_game(7, Duration::from_secs(10)).unwrap();
        e.start_search("position startpos", "go nodes 1").unwrap();
        match e.await_move(
            Duration::from_secs(10),
            Duration::ZERO,
            &AtomicBool::new(false),
        ) {
            Reply::InTime { token, .. } => token,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_game_seed_goes_only_to_engines_that_declare_it_and_are_not_fixed() {
        assert_eq!(token_after_new_game(&sh(&seed_echo(true))), "s7");
        assert_eq!(token_after_new_game(&sh(&seed_echo(false))), "snone");
        let mut fixed = sh(&seed_echo(true));
        fixed.options.push(("seed".to_string(), "3".to_string()));
        assert_eq!(token_after_new_game(&fixed), "s3");
    }

    #[test]
    fn declared_option_names() {
        assert_eq!(
            declared_option("option name Move Overhead type spin default 10"),
            Some("Move Overhead")
        );
        assert_eq!(declared_option("option name Seed type spin"), Some("Seed"));
        assert_eq!(declared_option("option name Odd"), Some("Odd"));
        assert_eq!(declared_option("id name Seed type x"), None);
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        let mut spec = sh("");
        spec.cmd = PathBuf::from("/nonexistent/engine");
        let err = Engine::start(&spec, &[], Duration::from_secs(1), sink())
            .err()
            .unwrap();
        assert!(matches!(err, EngineError::Spawn { .. }), "{err}");
    }

    #[test]
    fn silent_handshake_times_out() {
        let spec = sh("while read -r line; do :; done");
        let err = Engine::start(&spec, &[], Duration::from_millis(100), sink())
            .err()
            .unwrap();
        assert!(matches!(err, EngineError::Timeout { ref expected, .. } if expected == "uciok"));
    }

    #[test]
    fn a_cancelled_wait_gives_up_at_once() {
        let never = r#"while read -r cmd rest; do
            case "$cmd" in uci) echo uciok ;; isready) echo readyok ;; esac
          done"#;
        let mut e = Engine::start(&sh(never), &[], Duration::from_secs(10), sink()).unwrap();
        e.start_search("position startpos", "go nodes 1").unwrap();
        let started = Instant::now();
        let reply = e.await_move(
            Duration::from_secs(60),
            Duration::ZERO,
            &AtomicBool::new(true),
        );
        assert_eq!(reply, Reply::Abandoned);
        assert!(started.elapsed() < Duration::from_secs(30));
    }

    #[test]
    fn exit_during_search_is_closed() {
        let script = r#"while read -r cmd rest; do
            case "$cmd" in uci) echo uciok ;; isready) echo readyok ;; go) exit 1 ;; esac
          done"#;
        let mut e = Engine::start(&sh(script), &[], Duration::from_secs(10), sink()).unwrap();
        e.start_search("position startpos", "go depth 1").unwrap();
        assert_eq!(
            e.await_move(
                Duration::from_secs(10),
                Duration::ZERO,
                &AtomicBool::new(false)
            ),
            Reply::Closed
        );
    }

    #[test]
    fn hung_search_is_silent_and_slow_one_is_late() {
        // Answers `go` only when told `stop`.
        let stop_only = r#"while read -r cmd rest; do
            case "$cmd" in uci) echo uciok ;; isready) echo readyok ;; stop) echo "bestmove z" ;; \
            esac
          done"#;
        let mut e = Engine::start(&sh(stop_only), &[], Duration::from_secs(10), sink()).unwrap();
        e.start_search("position startpos", "go movetime 10")
            .unwrap();
        match e.await_move(
            Duration::from_millis(30),
            Duration::from_secs(10),
            &AtomicBool::new(false),
        ) {
            Reply::Late { token, elapsed } => {
                assert_eq!(token, "z");
                assert!(elapsed >= Duration::from_millis(30));
            }
            other => panic!("{other:?}"),
        }
        let never = r#"while read -r cmd rest; do
            case "$cmd" in uci) echo uciok ;; isready) echo readyok ;; esac
          done"#;
        let mut e = Engine::start(&sh(never), &[], Duration::from_secs(10), sink()).unwrap();
        e.start_search("position startpos", "go movetime 10")
            .unwrap();
        let reply = e.await_move(
            Duration::from_millis(20),
            Duration::from_millis(20),
            &AtomicBool::new(false),
        );
        assert_eq!(reply, Reply::Silent);
    }
}
