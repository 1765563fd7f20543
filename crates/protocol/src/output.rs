//! The one way Quartet writes to standard output: whole lines, flushed at once, with one
//! rule for a closed pipe, shared by the protocol and the subcommands. The line sink is
//! safe to share between the reading thread and a search thread (the lock is taken per
//! line, never inside the search).
//!
//! The rule: when the reader of our output has gone (a broken pipe, as with
//! `quartet bench | head -1` or a GUI that died), the program ends quietly with success,
//! as command-line tools do; any other write error ends it with the error on stderr and
//! a failure status.

use std::fmt::Display;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared line writer.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Lines go to `sink`.
    pub fn new(sink: Box<dyn Write + Send>) -> Self {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    /// Lines go to standard output.
    pub fn stdout() -> Self {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes `line` and a line break, and flushes (see the module documentation for a
    /// failed write).
    pub fn line(&self, line: &str) {
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Err(e) = writeln!(sink, "{line}").and_then(|()| sink.flush()) {
            failed(&e);
        }
    }
}

/// Writes one line to standard output for a subcommand, under the same rule as
/// [`Output::line`].
pub fn say(line: impl Display) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        failed(&e);
    }
}

/// Ends the program after a failed write to stdout (see the module documentation).
fn failed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("quartet: writing output: {e}");
    std::process::exit(1);
}
