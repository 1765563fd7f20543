//! The engine child process: started with piped standard streams, fed whole lines, read
//! line by line (lines over [`MAX_LINE`] bytes are cut), and ended with `quit` or a kill.
//! The process is killed when its handle is dropped, so a closed tab leaves no orphan.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// Longest engine output line passed on; the rest of such a line is dropped.
pub const MAX_LINE: usize = 1 << 20;

/// A program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

impl EngineCommand {
    /// Splits `cmd` on whitespace: the first word is the program. Error: no word.
    pub fn parse(cmd: &str) -> Result<EngineCommand, String> {
        let mut words = cmd.split_whitespace().map(String::from);
        let program = words
            .next()
            .ok_or_else(|| "gui: --engine needs a command".to_string())?;
        Ok(EngineCommand {
            program: PathBuf::from(program),
            args: words.collect(),
        })
    }

    /// This executable, without arguments (the protocol loop).
    pub fn this_executable() -> Result<EngineCommand, String> {
        let program = std::env::current_exe()
            .map_err(|e| format!("gui: cannot find this executable to run as the engine: {e}"))?;
        Ok(EngineCommand {
            program,
            args: Vec::new(),
        })
    }

    /// The command as one line, for people.
    pub fn display(&self) -> String {
        std::iter::once(self.program.display().to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Something the engine process did, tagged with the process's generation so that a late
/// line of a replaced process is recognised.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A line on standard output (without its line end).
    Out(String),
    /// A line on standard error.
    Err(String),
    /// Standard output closed: the process ended or closed its pipe.
    Closed,
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// Distinguishes this process's events from those of earlier ones.
    pub generation: u64,
    /// The operating system's process id.
    pub pid: Option<u32>,
}

impl Engine {
    /// Starts `cmd`; its output lines are sent to `events` as `(generation, Event)`.
    /// Error: the program cannot be started.
    pub fn spawn(
        cmd: &EngineCommand,
        generation: u64,
        events: mpsc::Sender<(u64, Event)>,
    ) -> Result<Engine, String> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", cmd.display()))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err("engine started without its pipes".to_string());
        };
        let pid = child.id();
        tokio::spawn(read_lines(
            stdout,
            generation,
            events.clone(),
            Event::Out,
            true,
        ));
        tokio::spawn(read_lines(stderr, generation, events, Event::Err, false));
        Ok(Engine {
            child,
            stdin,
            generation,
            pid,
        })
    }

    /// Writes `line` and a line end. Error: the pipe is closed.
    pub async fn send(&mut self, line: &str) -> Result<(), String> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .await
            .and(self.stdin.flush().await)
            .map_err(|e| format!("writing to the engine: {e}"))
    }

    /// How the process ended, waiting up to `wait` for it to end.
    pub async fn wait_exit(&mut self, wait: Duration) -> Option<String> {
        match tokio::time::timeout(wait, self.child.wait()).await {
            Ok(Ok(status)) => Some(status.to_string()),
            _ => None,
        }
    }

    /// Ends the process: `quit`, up to `grace` for it to exit, then a kill; waits for it
    /// in every case so that no zombie is left.
    pub async fn shutdown(mut self, grace: Duration) {
        let _ = self.send("quit").await;
        let Engine {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        if tokio::time::timeout(grace, child.wait()).await.is_err() {
            let _ = child.kill().await;
        }
    }
}

/// Sends each line of `pipe` as `wrap(line)`; at the end sends [`Event::Closed`] when
/// `report_close`.
async fn read_lines<R: AsyncRead + Unpin>(
    pipe: R,
    generation: u64,
    events: mpsc::Sender<(u64, Event)>,
    wrap: fn(String) -> Event,
    report_close: bool,
) {
    let mut reader = BufReader::new(pipe);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buf)
            .await
            .unwrap_or_default();
        if n == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') && n == MAX_LINE {
            // Too long: drop the rest of the line.
            let mut rest = Vec::new();
            let _ = reader.read_until(b'\n', &mut rest).await;
        }
        let text = String::from_utf8_lossy(&buf);
        let line = text.trim_end_matches(['\n', '\r']).to_string();
        if events.send((generation, wrap(line))).await.is_err() {
            return;
        }
    }
    if report_close {
        let _ = events.send((generation, Event::Closed)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_words() {
        let c = EngineCommand::parse("  python3  engine.py --fast ").unwrap();
        assert_eq!(c.program, PathBuf::from("python3"));
        assert_eq!(c.args, ["engine.py", "--fast"]);
        assert_eq!(c.display(), "python3 engine.py --fast");
        assert!(EngineCommand::parse("   ").is_err());
    }

    #[tokio::test]
    async fn lines_in_order_then_closed_and_long_lines_cut() {
        let (tx, mut rx) = mpsc::channel(16);
        let long = "x".repeat(MAX_LINE + 10);
        let input = format!("one\r\ntwo\n{long}\nthree");
        read_lines(input.as_bytes(), 7, tx, Event::Out, true).await;
        let mut got = Vec::new();
        while let Some(e) = rx.recv().await {
            got.push(e);
        }
        assert_eq!(got[0], (7, Event::Out("one".into())));
        assert_eq!(got[1], (7, Event::Out("two".into())));
        match &got[2] {
            (7, Event::Out(l)) => assert_eq!(l.len(), MAX_LINE),
            other => panic!("{other:?}"),
        }
        assert_eq!(got[3], (7, Event::Out("three".into())));
        assert_eq!(got[4], (7, Event::Closed));
        assert_eq!(got.len(), 5);
    }

    #[tokio::test]
    async fn a_process_runs_and_is_shut_down() {
        let (tx, mut rx) = mpsc::channel(16);
        let cmd = EngineCommand::parse("cat").unwrap();
        let mut e = Engine::spawn(&cmd, 1, tx).unwrap();
        e.send("hello").await.unwrap();
        assert_eq!(rx.recv().await, Some((1, Event::Out("hello".into()))));
        e.shutdown(Duration::from_millis(500)).await;
        // cat echoes "quit" and ends at the end of its input; its output closes.
        loop {
            match rx.recv().await {
                Some((1, Event::Closed)) => break,
                Some(_) => {}
                None => panic!("no close event"),
            }
        }
    }
}
