//! A driver for the built `quartet` binary: send lines, read replies with timeouts.
#![allow(dead_code)] // each test crate uses a different part of the driver

pub mod markdown;
pub mod perft_data;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long a reply may take before a test fails (generous: CI machines are slow).
pub const PATIENCE: Duration = Duration::from_secs(20);

/// Starts the binary with `args`, its stdin and stdout piped, its stderr dropped.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start quartet")
}

/// Runs the binary with `args` and `input` piped in (then closed); returns its output
/// lines, the banner first.
pub fn piped(args: &[&str], input: &str) -> Vec<String> {
    let mut child = spawn(args);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("output");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Runs the binary with `args` in the directory `dir`; its standard output, or a panic
/// with its error output if it fails.
pub fn succeeds_in(dir: &std::path::Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run quartet");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A running engine process.
pub struct Engine {
    /// The first line the engine printed.
    pub banner: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts `quartet` with `args` and reads its banner line into `banner`.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = spawn(args);
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let banner = rx.recv_timeout(PATIENCE).expect("a banner line");
        Engine {
            banner,
            child,
            stdin,
            lines: rx,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (no line break added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes; false if the engine no longer reads (it has exited).
    pub fn try_send_bytes(&mut self, bytes: &[u8]) -> bool {
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        stdin.write_all(bytes).and_then(|()| stdin.flush()).is_ok()
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line, if one comes within `timeout`.
    pub fn recv(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first that satisfies `done`; panics after `PATIENCE`.
    pub fn until(&self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => panic!("no matching line in time; got {got:#?}"),
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.until(|l| l == "readyok");
        got.pop();
        got
    }

    /// Sends `line`, then `isready`, and returns every line before `readyok`.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut got = self.until(|l| l == "readyok");
        got.pop();
        got
    }

    /// The single `response ...` line of a `query`, without the `response` word.
    pub fn query(&mut self, q: &str) -> String {
        let lines = self.ask(&format!("query {q}"));
        assert_eq!(lines.len(), 1, "{q}: {lines:?}");
        lines[0]
            .strip_prefix("response")
            .unwrap_or_else(|| panic!("not a response: {}", lines[0]))
            .trim()
            .to_string()
    }

    /// The `Fen:` line of `d`.
    pub fn fen(&mut self) -> String {
        self.ask("d")
            .into_iter()
            .find_map(|l| l.strip_prefix("Fen: ").map(str::to_string))
            .expect("d prints Fen:")
    }

    /// Waits for the process to end; true if it exited with success in time.
    pub fn wait_exit(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
