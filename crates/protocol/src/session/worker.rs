//! The worker thread of one `go`: it searches (or counts perft), holds its `bestmove` while
//! it must (`go infinite`, `go ponder`), prints the answer and wakes the reading loop.

use super::loads::LoadWait;
use super::table::TableWait;
use crate::output::Output;
use crate::response::{bestmove, info_line, info_string};
use quartet_engine::{AnyGame, SearchRequest, SearchSummary};
use quartet_search::time::TimeBudget;
use quartet_search::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What a running `go` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A search that ends by itself (a depth, node, mate or time limit, or a baseline).
    Bounded,
    /// A search that runs until `stop` (`go infinite`, `go` without limits).
    Unbounded,
    /// `go ponder`: runs until `ponderhit` (then under its limits) or `stop`.
    Ponder,
    /// `go perft N`.
    Perft,
}

/// A `go` checked and ready to start: the position of its moment and what to do there.
pub(super) struct Start {
    /// A copy of the position when the `go` came.
    pub(super) game: Box<dyn AnyGame>,
    /// When its line arrived (its clock runs from there).
    pub(super) received: Instant,
    /// A search, or a perft to this depth.
    pub(super) work: Work,
}

/// What a worker does.
pub(super) enum Work {
    /// Search under these limits; `kind` is not [`Kind::Perft`]. For a ponder search the
    /// time limit waits in `ponder_budget` until `ponderhit`.
    Search {
        request: Box<SearchRequest>,
        kind: Kind,
        ponder_budget: Option<TimeBudget>,
    },
    /// `go perft N`.
    Perft(u32),
}

/// The state a pondering search shares with the session.
pub(super) struct Ponder {
    /// Set by `ponderhit`: the search now counts, and its `bestmove` may be printed.
    pub(super) hit: AtomicBool,
    /// The time limits of the `go ponder` line, which apply from `ponderhit`, counted from
    /// the `go` (as Stockfish counts them).
    pub(super) budget: Mutex<Option<TimeBudget>>,
}

/// A running `go`.
pub(super) struct Worker {
    /// Set to end the search or perft.
    pub(super) stop: Arc<AtomicBool>,
    /// Set once its last line is printed.
    finished: Arc<AtomicBool>,
    pub(super) handle: JoinHandle<()>,
    kind: Kind,
    /// When its `go` line arrived.
    pub(super) received: Instant,
    pub(super) ponder: Option<Arc<Ponder>>,
}

impl Worker {
    /// Whether it ends by itself (so the end of input and waiting work wait for it).
    pub(super) fn is_bounded(&self) -> bool {
        matches!(self.kind, Kind::Bounded | Kind::Perft)
    }

    /// Whether it is a perft.
    pub(super) fn is_perft(&self) -> bool {
        self.kind == Kind::Perft
    }

    /// Whether it has printed its last line (its thread is ending: joining it is quick).
    pub(super) fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// Waits for the thread to end.
    pub(super) fn join(self) {
        let _ = self.handle.join();
    }

    /// Stops the search (or perft) and waits for its last line.
    pub(super) fn stop_and_join(self) {
        self.stop.store(true, Ordering::Relaxed);
        // A worker holding its bestmove waits parked for this.
        self.handle.thread().unpark();
        self.join();
    }
}

/// How a worker says it is printing its last line.
struct Finish {
    /// Set just before the last line is printed, so that a line read after that one sees
    /// the worker as finished (joining it then waits at most for that line).
    finished: Arc<AtomicBool>,
    /// Wakes the reading loop (the session's notifier), once the last line is out.
    notify: Arc<dyn Fn() + Send + Sync>,
}

impl Finish {
    /// Marks the worker finished, prints its last `line`, then wakes the loop.
    fn last_line(&self, out: &Output, line: &str) {
        self.finished.store(true, Ordering::Release);
        out.line(line);
        (self.notify)();
    }
}

impl Start {
    /// Starts the worker thread, searching with the table `table` leaves once the
    /// `EvalFile` reads of `loads` have ended (it waits for both, or for `stop`), and
    /// printing to `out`; it calls `notify` once it has printed its last line.
    pub(super) fn spawn(
        self,
        table: TableWait,
        loads: Option<LoadWait>,
        out: &Output,
        notify: &Arc<dyn Fn() + Send + Sync>,
    ) -> Worker {
        let stop = Arc::new(AtomicBool::new(false));
        let finish = Finish {
            finished: Arc::new(AtomicBool::new(false)),
            notify: Arc::clone(notify),
        };
        let finished = Arc::clone(&finish.finished);
        let (kind, ponder, handle) = match self.work {
            Work::Perft(depth) => {
                let job = Perft {
                    game: self.game,
                    out: out.clone(),
                    stop: Arc::clone(&stop),
                    finish,
                };
                (Kind::Perft, None, thread::spawn(move || job.run(depth)))
            }
            Work::Search {
                request,
                kind,
                ponder_budget,
            } => {
                let ponder = (kind == Kind::Ponder).then(|| {
                    Arc::new(Ponder {
                        hit: AtomicBool::new(false),
                        budget: Mutex::new(ponder_budget),
                    })
                });
                let job = Job {
                    game: self.game,
                    out: out.clone(),
                    stop: Arc::clone(&stop),
                    ponder: ponder.clone(),
                    holds_bestmove: kind != Kind::Bounded,
                    received: self.received,
                    finish,
                };
                let handle = thread::spawn(move || {
                    if let Some(loads) = loads {
                        loads.wait(&job.stop);
                    }
                    let tt = table.table(&job.stop);
                    job.run(*request, &tt);
                });
                (kind, ponder, handle)
            }
        };
        Worker {
            stop,
            finished,
            handle,
            kind,
            received: self.received,
            ponder,
        }
    }
}

/// What a perft thread needs.
struct Perft {
    game: Box<dyn AnyGame>,
    out: Output,
    stop: Arc<AtomicBool>,
    finish: Finish,
}

impl Perft {
    /// Prints a row per root token, then the total and an empty line (Fairy-Stockfish's
    /// form), or, when stopped, a note instead of the total.
    fn run(self, depth: u32) {
        let mut total = 0;
        let done = self.game.divide(depth, &self.stop, &mut |token, count| {
            self.out.line(&format!("{token}: {count}"));
            total += count;
        });
        if done {
            if depth == 0 {
                total = 1;
            }
            self.out.line("");
            // The total and the empty line after it in one write, so that no answer of
            // the reading thread (a `readyok`) comes between them.
            self.finish
                .last_line(&self.out, &format!("Nodes searched: {total}\n"));
        } else {
            self.finish.last_line(
                &self.out,
                &info_string(
                    "perft stopped: the rows above are complete, the rest were not counted",
                ),
            );
        }
    }
}

/// What a search thread needs.
struct Job {
    game: Box<dyn AnyGame>,
    out: Output,
    stop: Arc<AtomicBool>,
    ponder: Option<Arc<Ponder>>,
    /// The `bestmove` waits for `stop` (or `ponderhit`) even when the search ends first.
    holds_bestmove: bool,
    received: Instant,
    finish: Finish,
}

impl Job {
    /// Searches with `tt`, waits if the answer must wait, and prints the answer.
    fn run(self, mut request: SearchRequest, tt: &TranspositionTable) {
        // The clock runs from the line's arrival, not from when the worker gets going.
        request.limits.time = request
            .limits
            .time
            .map(|b| b.after(self.received.elapsed()));
        let summary = self.game.search(&request, tt, &self.stop, &mut |info| {
            self.out.line(&info_line(info))
        });
        while self.holds_bestmove && !self.released() {
            // Woken by `stop` or `ponderhit` (the timeout only guards a missed wake-up).
            thread::park_timeout(Duration::from_millis(50));
        }
        self.answer(&summary);
    }

    /// Whether the answer may be printed: after `stop`, or after `ponderhit` once pondering.
    fn released(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self
                .ponder
                .as_ref()
                .is_some_and(|p| p.hit.load(Ordering::Relaxed))
    }

    fn answer(&self, summary: &SearchSummary) {
        if let Some(note) = &summary.note {
            self.out.line(&info_string(note));
        }
        if let Some(policy) = &summary.policy {
            self.out.line(&info_string(&format!("policy {policy}")));
        }
        if let Some(line) = &summary.last_info {
            self.out.line(&info_line(line));
        }
        let line = match (&summary.best, &summary.ponder) {
            (Some(best), Some(reply)) => format!("{} ponder {reply}", bestmove(Some(best))),
            (best, _) => bestmove(best.as_deref()),
        };
        self.finish.last_line(&self.out, &line);
    }
}
