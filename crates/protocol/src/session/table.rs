//! Work on the hash table, on a thread of its own: allocating a table of a new size
//! (`Hash`) or emptying the one in use (`ucinewgame`, `Clear Hash`, a new game, rules or
//! evaluation). A 16 GiB table takes seconds to zero, and no line may wait for that: the
//! reading goes on, and the next `go` starts once the work is done, in turn with the
//! searches (the session's waiting work).

use quartet_search::tt::TranspositionTable;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::thread;

/// What is done to the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TableWork {
    /// A new table of this many MiB, to replace the one in use.
    Resize(usize),
    /// Empty the table in use.
    Clear,
}

/// How the work ended: a new table to use, nothing to change, or why the new table could
/// not be had (the one in use stays).
pub(super) type TableResult = Result<Option<TranspositionTable>, String>;

/// Table work under way.
pub(super) struct TableJob {
    /// The size asked for, for a resize.
    pub(super) mb: Option<usize>,
    done: Receiver<TableResult>,
}

impl TableJob {
    /// Starts `work` on `tt` (the table in use; nothing else uses it until the job has
    /// ended); `notify` is called once it has.
    pub(super) fn start(
        work: TableWork,
        tt: &Arc<TranspositionTable>,
        notify: &Arc<dyn Fn() + Send + Sync>,
    ) -> TableJob {
        let (tx, done) = channel();
        let notify = Arc::clone(notify);
        let tt = Arc::clone(tt);
        thread::spawn(move || {
            let result = match work {
                TableWork::Resize(mb) => TranspositionTable::new(mb).map(Some),
                TableWork::Clear => {
                    tt.clear();
                    Ok(None)
                }
            };
            // The session holds the only handle once the job has ended.
            drop(tt);
            // The session may be gone (after `quit`); then nobody waits for the result.
            let _ = tx.send(result);
            notify();
        });
        TableJob {
            mb: match work {
                TableWork::Resize(mb) => Some(mb),
                TableWork::Clear => None,
            },
            done,
        }
    }

    /// The result if the work has ended, without waiting.
    pub(super) fn try_result(&self) -> Option<TableResult> {
        match self.done.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(lost())),
        }
    }

    /// Waits for the result.
    pub(super) fn wait(self) -> TableResult {
        self.done.recv().unwrap_or_else(|_| Err(lost()))
    }
}

/// The result of a thread that ended without giving one (it panicked).
fn lost() -> String {
    "the hash table's thread ended without a result; the table in use stays".to_string()
}
