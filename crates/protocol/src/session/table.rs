//! Work on the hash table, each piece on a thread of its own: allocating a table of a new
//! size (`Hash`) or emptying the one in use (`ucinewgame`, `Clear Hash`, a new game, rules
//! or evaluation, a loaded `EvalFile`). A 16 GiB table takes seconds to zero, and no line
//! may wait for that. The pieces form a chain, each acting on the table the one before it
//! leaves ([`TableWait`]); a piece starts when the search before it has ended, as it did
//! on the reading thread, and a `go` after it starts its worker as it would have, which
//! waits for the chain before it searches. So `stop` and `ponderhit` act on that `go` as
//! on any running search, and the reading goes on.

use super::loads::LoadWait;
use crate::output::Output;
use crate::response::error;
use quartet_search::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Duration;

/// What is done to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TableWork {
    /// A new table of this many MiB, to replace the one in use.
    Resize(usize),
    /// Empty the table in use.
    Clear,
    /// Empty the table in use if the `EvalFile` read with this ticket loaded its weights.
    ClearIfLoaded(u64),
}

/// The table a piece of work leaves, and whether it refused a new size.
#[derive(Clone)]
pub(super) struct Ended {
    /// The table in use after the work.
    pub(super) table: Arc<TranspositionTable>,
    /// A new table could not be had (the one before stays).
    pub(super) refused: bool,
}

/// The end of a piece of work, once it has come.
#[derive(Default)]
struct Outcome {
    ended: Mutex<Option<Ended>>,
    changed: Condvar,
}

/// A piece of table work under way (or ended, until the session takes its end).
pub(super) struct TableJob {
    /// The size asked for, for a resize.
    pub(super) mb: Option<usize>,
    outcome: Arc<Outcome>,
}

impl TableJob {
    /// Starts `work` on the table `after` leaves (the one in use, or the previous piece's);
    /// `loads` gives the `EvalFile` reads a `ClearIfLoaded` asks about. A table that
    /// cannot be had is refused on `out` before any worker waiting for it goes on;
    /// `notify` is called once the work has ended.
    pub(super) fn start(
        work: TableWork,
        after: TableWait,
        loads: LoadWait,
        out: &Output,
        notify: &Arc<dyn Fn() + Send + Sync>,
    ) -> TableJob {
        let outcome = Arc::new(Outcome::default());
        let shared = Arc::clone(&outcome);
        let out = out.clone();
        let notify = Arc::clone(notify);
        thread::spawn(move || {
            let tt = after.table(&AtomicBool::new(false));
            let ended = match work {
                TableWork::Resize(mb) => match TranspositionTable::new(mb) {
                    Ok(new) => Ended {
                        table: Arc::new(new),
                        refused: false,
                    },
                    Err(why) => {
                        out.line(&error(&format!(
                            "setoption: Hash: {why}; the table in use stays"
                        )));
                        Ended {
                            table: tt,
                            refused: true,
                        }
                    }
                },
                TableWork::Clear => {
                    tt.clear();
                    Ended {
                        table: tt,
                        refused: false,
                    }
                }
                TableWork::ClearIfLoaded(ticket) => {
                    if loads.loaded(ticket) {
                        tt.clear();
                    }
                    Ended {
                        table: tt,
                        refused: false,
                    }
                }
            };
            *shared.ended.lock().unwrap_or_else(|e| e.into_inner()) = Some(ended);
            shared.changed.notify_all();
            // The session may be gone (after `quit`); then nobody needs waking.
            notify();
        });
        TableJob {
            mb: match work {
                TableWork::Resize(mb) => Some(mb),
                _ => None,
            },
            outcome,
        }
    }

    /// The end if the work has ended, without waiting.
    pub(super) fn try_end(&self) -> Option<Ended> {
        self.outcome
            .ended
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Waits for the end.
    pub(super) fn wait(&self) -> Ended {
        let mut ended = self.outcome.ended.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(end) = ended.as_ref() {
                return end.clone();
            }
            ended = self
                .outcome
                .changed
                .wait(ended)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The table this work leaves, for the next piece or a worker (`in_use` if `stop`
    /// ends the wait first).
    pub(super) fn then(&self, in_use: &Arc<TranspositionTable>) -> TableWait {
        TableWait {
            in_use: Arc::clone(in_use),
            pending: Some(Arc::clone(&self.outcome)),
        }
    }
}

/// The table to search with (or to work on): the one in use, or the one a piece of table
/// work under way leaves, once it has ended.
pub(super) struct TableWait {
    in_use: Arc<TranspositionTable>,
    pending: Option<Arc<Outcome>>,
}

impl TableWait {
    /// The table in use, with no work to wait for.
    pub(super) fn ready(tt: &Arc<TranspositionTable>) -> TableWait {
        TableWait {
            in_use: Arc::clone(tt),
            pending: None,
        }
    }

    /// Waits for the work, unless `stop` is set first (then a search ends at once, and
    /// the table in use does), and returns the table it leaves.
    pub(super) fn table(self, stop: &AtomicBool) -> Arc<TranspositionTable> {
        let Some(outcome) = self.pending else {
            return self.in_use;
        };
        let mut ended = outcome.ended.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(end) = ended.as_ref() {
                return Arc::clone(&end.table);
            }
            if stop.load(Ordering::Relaxed) {
                return self.in_use;
            }
            // The timeout lets a `stop` end the wait.
            ended = outcome
                .changed
                .wait_timeout(ended, Duration::from_millis(5))
                .map_or_else(|e| e.into_inner().0, |(g, _)| g);
        }
    }
}
