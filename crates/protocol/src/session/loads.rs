//! The `EvalFile` reads under way. Each accepted `EvalFile` line (its file's type and size
//! already checked, [`crate::eval_file::check`]) gets a ticket and a thread that reads,
//! decodes and loads the file, or prints why it is refused; the threads end in the order of
//! their tickets (each waits for the one before it). A refusal is printed before its read
//! counts as ended, so it comes before the output of a search that waited for the read, and
//! before the `readyok`s owed behind it. `readyok` promises that each `setoption` before it
//! has been checked, so an `isready` that comes while reads are under way is owed until
//! they have ended; a `go` starts its worker as it would have, which waits for them
//! ([`LoadWait`]) before it searches. The reading itself never waits.

use crate::eval_file::{self, EvalSource};
use crate::output::Output;
use crate::response::error;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// The ticket of a read that has ended (its weights loaded, or its refusal printed).
type Read = u64;

/// How far the reads have come, for workers and table work to wait on.
#[derive(Default)]
struct Progress {
    state: Mutex<Ended>,
    changed: Condvar,
}

/// The reads that have ended.
#[derive(Default)]
struct Ended {
    /// The last ticket whose read has ended (its weights loaded or refused).
    last: u64,
    /// Tickets whose weights were loaded, until their hash clearing has asked.
    loaded: Vec<u64>,
}

/// The `EvalFile` reads under way and the `readyok`s owed behind them.
pub(super) struct Loads {
    tx: Sender<Read>,
    rx: Receiver<Read>,
    /// The thread of the last read started (the next one waits for it).
    last: Option<JoinHandle<()>>,
    progress: Arc<Progress>,
    /// Tickets given out; 0 is none.
    issued: u64,
    /// The last ticket whose end was taken.
    done: u64,
    /// For each owed `readyok`, the last ticket given out when its `isready` came.
    ready: VecDeque<u64>,
}

impl Loads {
    /// No reads.
    pub(super) fn new() -> Self {
        let (tx, rx) = channel();
        Loads {
            tx,
            rx,
            last: None,
            progress: Arc::default(),
            issued: 0,
            done: 0,
            ready: VecDeque::new(),
        }
    }

    /// Whether a read has not ended yet (or its end has not been taken).
    pub(super) fn pending(&self) -> bool {
        self.done < self.issued
    }

    /// Starts reading `source` after the reads before it, printing its refusal (if any)
    /// to `out`; `notify` is called once it has ended. Returns its ticket.
    pub(super) fn start(
        &mut self,
        source: EvalSource,
        out: &Output,
        notify: &Arc<dyn Fn() + Send + Sync>,
    ) -> u64 {
        self.issued += 1;
        let ticket = self.issued;
        let before = self.last.take();
        let tx = self.tx.clone();
        let notify = Arc::clone(notify);
        let progress = Arc::clone(&self.progress);
        let out = out.clone();
        self.last = Some(thread::spawn(move || {
            if let Some(before) = before {
                let _ = before.join();
            }
            let outcome = eval_file::read(&source).map(eval_file::install);
            if let Err(why) = &outcome {
                out.line(&error(&format!("setoption: {why}")));
            }
            let mut ended = progress.state.lock().unwrap_or_else(|e| e.into_inner());
            ended.last = ticket;
            if outcome.is_ok() {
                ended.loaded.push(ticket);
            }
            drop(ended);
            progress.changed.notify_all();
            // The session may be gone (after `quit`); then nobody waits for the result.
            let _ = tx.send(ticket);
            notify();
        }));
        ticket
    }

    /// What a worker started now waits for: the reads started so far (none: nothing).
    pub(super) fn waited_by_worker(&self) -> Option<LoadWait> {
        self.pending().then(|| self.so_far())
    }

    /// The reads started so far, to wait for or to ask about.
    pub(super) fn so_far(&self) -> LoadWait {
        LoadWait {
            progress: Arc::clone(&self.progress),
            ticket: self.issued,
        }
    }

    /// An `isready` came: its `readyok` is owed until the reads started so far have ended.
    pub(super) fn owe_readyok(&mut self) {
        self.ready.push_back(self.issued);
    }

    /// Takes the end of every read that has ended, in order: the number of `readyok`s
    /// now due.
    pub(super) fn take_ended(&mut self) -> usize {
        let mut due = 0;
        while let Ok(ticket) = self.rx.try_recv() {
            due += self.end(ticket);
        }
        due
    }

    /// Waits for every read under way: the number of `readyok`s then due.
    pub(super) fn wait_all(&mut self) -> usize {
        let mut due = 0;
        while self.pending() {
            match self.rx.recv() {
                Ok(ticket) => due += self.end(ticket),
                // Cannot happen while this holds a sender; then nothing is under way.
                Err(_) => self.done = self.issued,
            }
        }
        due
    }

    /// The `readyok`s owed, all at once (at `quit`: nothing will wait for the reads).
    pub(super) fn owed_readyoks(&mut self) -> usize {
        let owed = self.ready.len();
        self.ready.clear();
        owed
    }

    /// One read has ended (its weights loaded or its refusal printed by its thread): the
    /// number of `readyok`s owed behind it, now due.
    fn end(&mut self, ticket: u64) -> usize {
        self.done = ticket;
        let mut due = 0;
        while self.ready.front().is_some_and(|&t| t <= self.done) {
            self.ready.pop_front();
            due += 1;
        }
        due
    }
}

/// `EvalFile` reads to wait for: those started before a `go` (its worker waits for them
/// before it searches), or the one a hash clearing asks about.
pub(super) struct LoadWait {
    progress: Arc<Progress>,
    ticket: u64,
}

impl LoadWait {
    /// Waits until the reads have ended, unless `stop` is set first (then the search ends
    /// at once anyway).
    pub(super) fn wait(self, stop: &AtomicBool) {
        let mut ended = self.lock();
        while ended.last < self.ticket && !stop.load(Ordering::Relaxed) {
            // The timeout lets a `stop` end the wait.
            ended = self
                .progress
                .changed
                .wait_timeout(ended, Duration::from_millis(5))
                .map_or_else(|e| e.into_inner().0, |(g, _)| g);
        }
    }

    /// Whether the read with `ticket` (one of these) loaded its weights, once it has
    /// ended; asked once for each ticket.
    pub(super) fn loaded(&self, ticket: u64) -> bool {
        let mut ended = self.lock();
        while ended.last < ticket {
            ended = self
                .progress
                .changed
                .wait(ended)
                .unwrap_or_else(|e| e.into_inner());
        }
        let at = ended.loaded.iter().position(|&t| t == ticket);
        at.map(|i| ended.loaded.remove(i)).is_some()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ended> {
        self.progress
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }
}
