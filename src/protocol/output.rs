//! The one output sink: whole lines, flushed at once, safe to share between the reading
//! thread and a search thread (the lock is taken per line, never inside the search).

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

    /// Writes `line` and a line break, and flushes. A closed pipe is not an error worth
    /// dying for: the line is dropped.
    pub fn line(&self, line: &str) {
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(sink, "{line}");
        let _ = sink.flush();
    }
}
