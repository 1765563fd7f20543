//! The `EvalFile` reads under way. Each accepted `EvalFile` line (its file's type and size
//! already checked, [`crate::eval_file::check`]) gets a ticket and a thread that
//! reads and decodes the file; the threads end in the order of their tickets (each waits
//! for the one before it), and the reading loop loads their weights, or prints why not, in
//! that order. `readyok` promises that each `setoption` before it has been checked, so an
//! `isready` that comes while reads are under way is owed until they have ended; the
//! reading itself never waits.

use crate::eval_file::{self, EvalSource, Weights};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{self, JoinHandle};

/// One read's outcome, with its ticket.
type Read = (u64, Result<Option<Weights>, String>);

/// The `EvalFile` reads under way and the `readyok`s owed behind them.
pub(super) struct Loads {
    tx: Sender<Read>,
    rx: Receiver<Read>,
    /// The thread of the last read started (the next one waits for it).
    last: Option<JoinHandle<()>>,
    /// Tickets given out; 0 is none.
    issued: u64,
    /// The last ticket whose outcome was taken.
    done: u64,
    /// Tickets whose weights were loaded, until their hash clearing has run.
    loaded: Vec<u64>,
    /// For each owed `readyok`, the last ticket given out when its `isready` came.
    ready: VecDeque<u64>,
}

/// What the reading loop answers when reads have ended, in the order of the lines.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Reply {
    /// Why the file of an `EvalFile` line was refused.
    Refused(String),
    /// An owed `readyok`.
    ReadyOk,
}

impl Loads {
    /// No reads.
    pub(super) fn new() -> Self {
        let (tx, rx) = channel();
        Loads {
            tx,
            rx,
            last: None,
            issued: 0,
            done: 0,
            loaded: Vec::new(),
            ready: VecDeque::new(),
        }
    }

    /// Whether a read has not ended yet (or its end has not been taken).
    pub(super) fn pending(&self) -> bool {
        self.done < self.issued
    }

    /// Starts reading `source` after the reads before it; `notify` is called once it has
    /// ended. Returns its ticket.
    pub(super) fn start(
        &mut self,
        source: EvalSource,
        notify: &Arc<dyn Fn() + Send + Sync>,
    ) -> u64 {
        self.issued += 1;
        let ticket = self.issued;
        let before = self.last.take();
        let tx = self.tx.clone();
        let notify = Arc::clone(notify);
        self.last = Some(thread::spawn(move || {
            if let Some(before) = before {
                let _ = before.join();
            }
            // The session may be gone (after `quit`); then nobody waits for the result.
            let _ = tx.send((ticket, eval_file::read(&source)));
            notify();
        }));
        ticket
    }

    /// An `isready` came: its `readyok` is owed until the reads started so far have ended.
    pub(super) fn owe_readyok(&mut self) {
        self.ready.push_back(self.issued);
    }

    /// Takes the outcome of every read that has ended, in order, loading the weights of
    /// each accepted file; the answers now due.
    pub(super) fn take_ended(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        while let Ok((ticket, outcome)) = self.rx.try_recv() {
            self.end(ticket, outcome, &mut replies);
        }
        replies
    }

    /// Waits for every read under way, loading and refusing as [`Loads::take_ended`] does.
    pub(super) fn wait_all(&mut self) -> Vec<Reply> {
        let mut replies = Vec::new();
        while self.pending() {
            match self.rx.recv() {
                Ok((ticket, outcome)) => self.end(ticket, outcome, &mut replies),
                // Cannot happen while this holds a sender; then nothing is under way.
                Err(_) => self.done = self.issued,
            }
        }
        replies
    }

    /// The `readyok`s owed, all at once (at `quit`: nothing will wait for the reads).
    pub(super) fn owed_readyoks(&mut self) -> usize {
        let owed = self.ready.len();
        self.ready.clear();
        owed
    }

    /// Whether the read with this ticket loaded its weights (asked once, by its hash
    /// clearing, after it has ended).
    pub(super) fn take_loaded(&mut self, ticket: u64) -> bool {
        let was = self.loaded.contains(&ticket);
        self.loaded.retain(|&t| t != ticket);
        was
    }

    /// One read has ended: its weights are loaded or its refusal answered, then the
    /// `readyok`s owed behind it.
    fn end(
        &mut self,
        ticket: u64,
        outcome: Result<Option<Weights>, String>,
        replies: &mut Vec<Reply>,
    ) {
        self.done = ticket;
        match outcome {
            Ok(weights) => {
                eval_file::install(weights);
                self.loaded.push(ticket);
            }
            Err(why) => replies.push(Reply::Refused(why)),
        }
        while self.ready.front().is_some_and(|&t| t <= self.done) {
            self.ready.pop_front();
            replies.push(Reply::ReadyOk);
        }
    }
}
