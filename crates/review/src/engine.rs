//! The one way the review reaches an engine: lines of the text protocol. [`Engine`] is what
//! the review needs (send a line, read the next one by a deadline), so that any driver can
//! run it: [`ChildEngine`] here (a child process, as `quartet review` uses), or a GUI's own
//! connection to its engine. Every wait has a deadline: an engine is never trusted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// An engine that speaks the protocol, line by line.
pub trait Engine {
    /// Writes one command line (the driver adds the line end). Error: the engine cannot
    /// be written to (it exited), said for people.
    fn send(&mut self, line: &str) -> Result<(), String>;

    /// The next line the engine wrote, without its line end, waiting at most until
    /// `deadline`. Error: nothing came by then, or the engine closed its output.
    fn read_line(&mut self, deadline: Instant) -> Result<String, String>;
}

/// An engine run as a child process, its standard input and output piped (its standard
/// error is dropped). Dropping it ends the process.
pub struct ChildEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    command: String,
}

impl ChildEngine {
    /// Starts `program` with `args`. Error: it cannot be started.
    pub fn start(program: &str, args: &[String]) -> Result<ChildEngine, String> {
        let command = std::iter::once(program.to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the engine '{command}': {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot start the engine '{command}': no pipes"));
        };
        let (sender, lines) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::with_capacity(256);
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(ChildEngine {
            child,
            stdin,
            lines,
            command,
        })
    }
}

impl Engine for ChildEngine {
    fn send(&mut self, line: &str) -> Result<(), String> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .and_then(|()| self.stdin.flush())
            .map_err(|_| format!("the engine '{}' exited", self.command))
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "the engine '{}' did not answer within {} ms",
                self.command,
                wait.as_millis()
            )),
            Err(RecvTimeoutError::Disconnected) => {
                Err(format!("the engine '{}' exited", self.command))
            }
        }
    }
}

impl Drop for ChildEngine {
    /// Asks the engine to quit, gives it a moment, then kills it; the process is reaped.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_answers_and_a_silent_one_times_out() {
        let script = "while read -r c rest; do case \"$c\" in isready) echo readyok ;; \
                      quit) exit 0 ;; esac; done";
        let mut e = ChildEngine::start("sh", &["-c".into(), script.into()]).expect("sh");
        e.send("isready").expect("send");
        let soon = Instant::now() + Duration::from_secs(10);
        assert_eq!(e.read_line(soon).as_deref(), Ok("readyok"));
        let err = e
            .read_line(Instant::now() + Duration::from_millis(20))
            .expect_err("nothing more");
        assert!(err.contains("did not answer"), "{err}");
        assert!(ChildEngine::start("/nonexistent/engine", &[]).is_err());
    }
}
