//! The protocol session: the engine's state between commands and the carrying out of each
//! command (Stockfish's UCIEngine). The reading thread feeds it lines; `go` starts one
//! worker thread (`worker`). A rejected command changes nothing.
//!
//! **Lines that arrive during a search** (protocol.md §4). Every line is parsed and
//! checked when it arrives, against the state the next `go` will use, and a refused line
//! is refused at once. `isready`, `stop`, `quit`, `ponderhit`, `query`, `d`, `uci` and
//! `help` act at once, whatever waits; so do `position` and `setoption`, which change the
//! state the next `go` will use without touching the running search. Only what needs the
//! search's own resources waits for it to end by itself, in the order the lines came
//! (`Deferred`): a `go` (with the state of its moment), and the clearing or resizing of
//! the hash table (`ucinewgame`, `Clear Hash`, `Hash`, a new game, rules or evaluation).
//! `stop` ends the running search, and the waiting work then runs in order. A `go` waiting
//! behind a search without a limit (`go infinite`, `go ponder`, `go` alone) stops it
//! first: a GUI that forgets `stop` gets that search's move, never a hang. At the end of
//! input a search with a limit runs to it, one without is stopped, the waiting work is
//! carried out, and then the program ends.
//!
//! **Nothing slow runs on the reading thread.** The hash table's work (zeroing 16 GiB takes
//! seconds) runs on a thread of its own (`table`), in turn with the searches, and an
//! `EvalFile` is read on another (`loads`) once its metadata has shown a regular file of
//! a network's size. A `go` starts its worker when it would have, and the worker waits for
//! both before it searches, so that `stop` and `ponderhit` act on it as before; the reading
//! never waits. `readyok` waits (without holding the reading) only for `EvalFile` reads,
//! since it promises that every line before it has been checked; a search or the table's
//! work may still run.

mod go;
mod loads;
mod queries;
mod table;
mod worker;

use super::command::Command;
use super::line::normalise;
use super::options::{Effect, EngineOptions};
use super::parse::{CommandError, IGNORE_WORDS_AFTER, parse_command};
use super::response::{bestmove, error, response};
use crate::output::Output;
use loads::Loads;
use quartet_engine::GameKind;
use quartet_engine::{self as engine, AnyGame};
use quartet_search::players::PlayerKind;
use quartet_search::tt::TranspositionTable;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;
use table::{Ended, TableJob, TableWait, TableWork};
use worker::{Start, Worker};

/// The program's name and version, as `id name` and the banner give it.
pub const ENGINE_NAME: &str = concat!("Quartet ", env!("CARGO_PKG_VERSION"));
/// The `id author` line's value.
pub const ENGINE_AUTHOR: &str = "the Quartet developers";

/// Whether the reading loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was carried out: the search has been stopped; end the program.
    Quit,
}

/// Work that waits for the running search to end, in the order its lines arrived.
enum Deferred {
    /// A `go` checked against the state of its moment, started in its turn.
    Go(Box<Start>),
    /// A refused `go`'s `bestmove (none)` (its error was printed when it arrived): the
    /// running search's `bestmove` comes first.
    NoMove,
    /// Work on the hash table, on its own thread: clearing it (`ucinewgame`, `Clear
    /// Hash`, a new game, rules or evaluation, a loaded `EvalFile`) or a new size (`Hash`).
    Table(TableWork),
}

/// The engine between commands.
pub struct Session {
    out: Output,
    /// The options the next `go` will use.
    options: EngineOptions,
    /// The options the session started with (the `default` of each `option` line).
    defaults: EngineOptions,
    /// The position the next `go` will search (a running search has its own copy).
    game: Box<dyn AnyGame>,
    tt: Arc<TranspositionTable>,
    /// The size of `tt` in MiB.
    tt_mb: usize,
    worker: Option<Worker>,
    /// Work on the hash table under way, in order, each on the table the one before
    /// leaves (until the session has taken its end).
    table_jobs: VecDeque<TableJob>,
    /// `EvalFile` reads under way, and the `readyok`s owed behind them.
    loads: Loads,
    waiting: VecDeque<Deferred>,
    /// Called by a worker once it has printed its last line (the reader's wake-up).
    on_done: Arc<dyn Fn() + Send + Sync>,
}

impl Session {
    /// A session playing `game` at its start position with `player` choosing the moves,
    /// writing to `out`.
    pub fn new(out: Output, game: GameKind, player: PlayerKind) -> Result<Self, String> {
        let options = EngineOptions {
            player,
            ..EngineOptions::new(game)
        };
        Ok(Session {
            out,
            game: engine::new_game(game, options.rules),
            tt: Arc::new(TranspositionTable::new(options.hash_mb)?),
            tt_mb: options.hash_mb,
            options,
            defaults: options,
            worker: None,
            table_jobs: VecDeque::new(),
            loads: Loads::new(),
            waiting: VecDeque::new(),
            on_done: Arc::new(|| {}),
        })
    }

    /// Has every worker call `notify` once it has finished (after its `bestmove`), and so
    /// the threads of the hash table's work and of `EvalFile` reads, so that the reading
    /// loop can carry out the work waiting for them without polling.
    pub fn set_done_notifier(&mut self, notify: impl Fn() + Send + Sync + 'static) {
        self.on_done = Arc::new(notify);
    }

    /// Takes one input line (without its line break; normalised as
    /// [`normalise`] says), as received now.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.handle_line_at(line, Instant::now())
    }

    /// Takes one input line received at `received` (a `go`'s clock runs from there).
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Flow {
        let line = normalise(line);
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return Flow::Continue;
        }
        // A search that has printed its bestmove is over for the client: the next waiting
        // `go` is the one this line (a `stop`, say) is about.
        self.search_done();
        let flow = match parse_command(text) {
            Ok(command) => self.execute(command, received),
            Err(e) => {
                self.refuse(text, &e);
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            return Flow::Quit;
        }
        self.search_done()
    }

    /// Takes a line that was over the length limit, of which `start` is the beginning: it
    /// is refused, and the reply its command awaits still comes. A command that ignores
    /// the words after it (`uci`, `isready`, `stop`, `quit`, ...) is carried out after the
    /// error, since those words would have been ignored anyway.
    pub fn handle_too_long(&mut self, start: &str) -> Flow {
        let start = normalise(start);
        let mut words = start.split_whitespace();
        let first = words.next().unwrap_or("");
        let refused = CommandError::TooLong {
            command: first.chars().take(20).collect(),
        };
        if IGNORE_WORDS_AFTER.contains(&first) {
            self.out.line(&error(&refused.to_string()));
            return self.handle_line(first);
        }
        self.refuse(&start, &refused);
        self.search_done()
    }

    /// Takes what has ended (a worker that printed its last line, the hash table's work,
    /// `EvalFile` reads), then starts the waiting work, in order, until a search or the
    /// table's work runs again (see the module documentation). Called when one of them
    /// has ended, and after every line.
    pub fn search_done(&mut self) -> Flow {
        self.take_ended();
        if let Some(worker) = &self.worker
            && !worker.is_bounded()
            && self.waiting.iter().any(|d| matches!(d, Deferred::Go(_)))
        {
            // A `go` waits behind a search that would never end by itself.
            self.stop_search();
        }
        // What waits, waits for the search only: a `go`'s worker, and table work, wait
        // themselves for the table work and `EvalFile` reads before them.
        while self.worker.is_none() {
            let Some(next) = self.waiting.pop_front() else {
                break;
            };
            self.run(next);
        }
        Flow::Continue
    }

    /// The end of input: a search with a limit runs to it, one without is stopped, the
    /// table's work and `EvalFile` reads are waited for; then the waiting work is carried
    /// out (and the searches it starts, likewise).
    pub fn finish(&mut self) {
        loop {
            match self.worker.take() {
                Some(worker) if worker.is_bounded() => worker.join(),
                Some(worker) => worker.stop_and_join(),
                None => {}
            }
            let due = self.loads.wait_all();
            self.ready_ok(due);
            while let Some(job) = self.table_jobs.pop_front() {
                let end = job.wait();
                self.table_ended(job.mb, &end);
            }
            self.search_done();
            let running = self.worker.is_some() || !self.table_jobs.is_empty();
            if !running && !self.loads.pending() && self.waiting.is_empty() {
                break;
            }
        }
    }

    /// Joins a worker that has printed its last line, takes the end of the table's work
    /// and of `EvalFile` reads.
    fn take_ended(&mut self) {
        if self.worker.as_ref().is_some_and(Worker::is_finished)
            && let Some(worker) = self.worker.take()
        {
            worker.join();
        }
        while let Some(end) = self.table_jobs.front().and_then(TableJob::try_end) {
            let mb = self.table_jobs.pop_front().and_then(|job| job.mb);
            self.table_ended(mb, &end);
        }
        let due = self.loads.take_ended();
        self.ready_ok(due);
    }

    /// A piece of the table's work has ended: its table is the one in use; if a new size
    /// could not be had (its thread said so), `Hash` says the size in use again.
    fn table_ended(&mut self, mb: Option<usize>, end: &Ended) {
        self.tt = Arc::clone(&end.table);
        match mb {
            Some(mb) if !end.refused => self.tt_mb = mb,
            Some(mb) if mb == self.options.hash_mb => self.options.hash_mb = self.tt_mb,
            _ => {}
        }
    }

    /// The `readyok`s due now that `EvalFile` reads have ended, `count` of them.
    fn ready_ok(&self, count: usize) {
        for _ in 0..count {
            self.out.line("readyok");
        }
    }

    /// The table the next search or piece of table work uses: the one the last piece
    /// under way leaves, or the one in use.
    fn table_after_work(&self) -> TableWait {
        match self.table_jobs.back() {
            Some(job) => job.then(&self.tt),
            None => TableWait::ready(&self.tt),
        }
    }

    /// Stops and joins a running search (its `bestmove` is printed by then).
    fn stop_search(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.stop_and_join();
        }
    }

    /// Carries out `work` now if it may run and nothing waits, or queues it in turn.
    /// Table work just like the last waiting one replaces it (a burst of `Hash` lines
    /// allocates one table, not each).
    fn defer(&mut self, work: Deferred) {
        if self.waiting.is_empty() && self.worker.is_none() {
            return self.run(work);
        }
        if let (Deferred::Table(new), Some(Deferred::Table(last))) =
            (&work, self.waiting.back_mut())
            && matches!(
                (new, &last),
                (TableWork::Resize(_), TableWork::Resize(_)) | (TableWork::Clear, TableWork::Clear)
            )
        {
            *last = *new;
            return;
        }
        self.waiting.push_back(work);
    }

    /// Carries out one piece of waiting work now (nothing runs).
    fn run(&mut self, work: Deferred) {
        match work {
            Deferred::Go(start) => {
                let table = self.table_after_work();
                let loads = self.loads.waited_by_worker();
                self.worker = Some(start.spawn(table, loads, &self.out, &self.on_done));
            }
            Deferred::NoMove => self.out.line(&bestmove(None)),
            Deferred::Table(work) => {
                let after = self.table_after_work();
                let job =
                    TableJob::start(work, after, self.loads.so_far(), &self.out, &self.on_done);
                self.table_jobs.push_back(job);
            }
        }
    }

    /// Answers a line that could not be parsed: the error, then the reply a client waits
    /// for (a `go`'s `bestmove` after the running search's).
    fn refuse(&mut self, text: &str, e: &CommandError) {
        self.out.line(&error(&e.to_string()));
        let mut words = text.split_whitespace();
        match (words.next(), words.next()) {
            (Some("go"), _) => self.defer(Deferred::NoMove),
            (Some("query"), Some("islegal")) => self.out.line(&response("false")),
            (Some("query"), _) => self.out.line(&response("")),
            _ => {}
        }
    }

    fn execute(&mut self, command: Command<'_>, received: Instant) -> Flow {
        match command {
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            // Owed while `EvalFile` reads are under way: the lines before are then checked.
            Command::IsReady if self.loads.pending() => self.loads.owe_readyok(),
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(_) | Command::Register => {}
            Command::NewGame => self.defer(Deferred::Table(TableWork::Clear)),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => {
                if let Err(e) = self
                    .game
                    .set_position_from(fen.as_deref(), &mut moves.iter())
                {
                    self.out.line(&error(&format!("position: {e}")));
                }
            }
            Command::Go(params) => match self.prepare_go(params, received) {
                Ok(start) => self.defer(Deferred::Go(Box::new(start))),
                Err(why) => {
                    self.out.line(&error(&format!("go: {why}")));
                    self.defer(Deferred::NoMove);
                }
            },
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Query(q) => self.query(q),
            Command::Help => self.help(),
        }
        Flow::Continue
    }

    /// `quit`: stops a running search (a perft is let finish: Fairy-Stockfish's perft
    /// blocks its loop), whose `bestmove` is printed; then every reply still owed for a
    /// line already answered otherwise: a refused `go`'s `bestmove (none)` and an
    /// `isready`'s `readyok`. Waiting `go` lines are dropped.
    fn quit(&mut self) {
        match self.worker.take() {
            Some(worker) if worker.is_perft() => worker.join(),
            Some(worker) => worker.stop_and_join(),
            None => {}
        }
        for work in std::mem::take(&mut self.waiting) {
            if let Deferred::NoMove = work {
                self.run(work);
            }
        }
        let owed = self.loads.owed_readyoks();
        self.ready_ok(owed);
    }

    /// `setoption`: the new value applies at once to the state the next `go` will use;
    /// what it does to the hash table waits for a running search, an `EvalFile` is read
    /// off the reading thread.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut options = self.options;
        let effect = match options.set(name, value) {
            Ok(e) => e,
            Err(e) => return self.out.line(&error(&format!("setoption: {e}"))),
        };
        self.options = options;
        match effect {
            Effect::None => {}
            Effect::NewGame | Effect::NewRules => {
                self.game = engine::new_game(options.game, options.rules);
                self.defer(Deferred::Table(TableWork::Clear));
            }
            Effect::ResizeHash => self.defer(Deferred::Table(TableWork::Resize(options.hash_mb))),
            Effect::ClearHash => self.defer(Deferred::Table(TableWork::Clear)),
            Effect::LoadEvalFile(source) => {
                let ticket = self.loads.start(source, &self.out, &self.on_done);
                self.defer(Deferred::Table(TableWork::ClearIfLoaded(ticket)));
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}
