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
//! the hash table (`ucinewgame`, `Clear Hash`, `Hash`, a new game or rules). `stop` ends
//! the running search, and the waiting work then runs in order. A `go` waiting behind a
//! search without a limit (`go infinite`, `go ponder`, `go` alone) stops it first: a GUI
//! that forgets `stop` gets that search's move, never a hang. At the end of input a search
//! with a limit runs to it, one without is stopped, the waiting work is carried out, and
//! then the program ends.

mod go;
mod queries;
mod worker;

use super::command::Command;
use super::line::normalise;
use super::options::{Effect, EngineOptions};
use super::parse::{CommandError, parse_command};
use super::response::{bestmove, error, response};
use crate::output::Output;
use quartet_engine::GameKind;
use quartet_engine::{self as engine, AnyGame};
use quartet_search::players::PlayerKind;
use quartet_search::tt::TranspositionTable;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;
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
    /// `ucinewgame`, `Clear Hash`, or a new game or rules: clear the hash table.
    ClearHash,
    /// `Hash`: this table (allocated when the line came) replaces the current one.
    UseTable(Arc<TranspositionTable>),
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
    worker: Option<Worker>,
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
            options,
            defaults: options,
            worker: None,
            waiting: VecDeque::new(),
            on_done: Arc::new(|| {}),
        })
    }

    /// Has every worker call `notify` once it has finished (after its `bestmove`), so that
    /// the reading loop can carry out the work waiting for it without polling.
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
    /// is refused, and the reply its command awaits still comes (`uci`, `ugi` and
    /// `isready` are carried out, as the words after them are ignored anyway).
    pub fn handle_too_long(&mut self, start: &str) -> Flow {
        let start = normalise(start);
        let mut words = start.split_whitespace();
        let first = words.next().unwrap_or("");
        let refused = CommandError::TooLong {
            command: first.chars().take(20).collect(),
        };
        match first {
            "uci" | "ugi" | "isready" => {
                self.out.line(&error(&refused.to_string()));
                self.handle_line(first)
            }
            _ => {
                self.refuse(&start, &refused);
                self.search_done()
            }
        }
    }

    /// Joins the worker if it has finished, then starts the waiting work, in order, until
    /// a search runs again (see the module documentation). Called when a worker has
    /// finished, and after every line.
    pub fn search_done(&mut self) -> Flow {
        if self.worker.as_ref().is_some_and(Worker::is_finished)
            && let Some(worker) = self.worker.take()
        {
            worker.join();
        }
        if let Some(worker) = &self.worker
            && !worker.is_bounded()
            && self.waiting.iter().any(|d| matches!(d, Deferred::Go(_)))
        {
            // A `go` waits behind a search that would never end by itself.
            self.stop_search();
        }
        while self.worker.is_none() {
            let Some(next) = self.waiting.pop_front() else {
                break;
            };
            self.run(next);
        }
        Flow::Continue
    }

    /// The end of input: a search with a limit runs to it, one without is stopped; then
    /// the waiting work is carried out (and the searches it starts, likewise).
    pub fn finish(&mut self) {
        loop {
            match self.worker.take() {
                Some(worker) if worker.is_bounded() => worker.join(),
                Some(worker) => worker.stop_and_join(),
                None => {}
            }
            self.search_done();
            if self.worker.is_none() && self.waiting.is_empty() {
                break;
            }
        }
    }

    /// Stops and joins a running search (its `bestmove` is printed by then).
    fn stop_search(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.stop_and_join();
        }
    }

    /// Whether a search (or perft) runs or work waits for one: then what touches the hash
    /// table, and a `go`, wait their turn.
    fn busy(&self) -> bool {
        self.worker.is_some() || !self.waiting.is_empty()
    }

    /// Carries out `work` now if nothing runs, or queues it behind the running search.
    fn defer(&mut self, work: Deferred) {
        if self.busy() {
            self.waiting.push_back(work);
        } else {
            self.run(work);
        }
    }

    /// Carries out one piece of waiting work now (nothing runs).
    fn run(&mut self, work: Deferred) {
        match work {
            Deferred::Go(start) => {
                self.worker = Some(start.spawn(&self.tt, &self.out, &self.on_done));
            }
            Deferred::NoMove => self.out.line(&bestmove(None)),
            Deferred::ClearHash => self.tt.clear(),
            Deferred::UseTable(tt) => self.tt = tt,
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

    fn execute(&mut self, command: Command, received: Instant) -> Flow {
        match command {
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(_) | Command::Register => {}
            Command::NewGame => self.defer(Deferred::ClearHash),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.game.set_position(fen.as_deref(), &moves) {
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
                match self.worker.take() {
                    // A perft is let finish (Fairy-Stockfish's perft blocks its loop).
                    Some(worker) if worker.is_perft() => worker.join(),
                    Some(worker) => worker.stop_and_join(),
                    None => {}
                }
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Query(q) => self.query(q),
            Command::Help => self.help(),
        }
        Flow::Continue
    }

    /// `setoption`: the new value applies at once to the state the next `go` will use;
    /// what it does to the hash table waits for a running search.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut options = self.options;
        let effect = match options.set(name, value) {
            Ok(e) => e,
            Err(e) => return self.out.line(&error(&format!("setoption: {e}"))),
        };
        match effect {
            Effect::None => {}
            Effect::NewGame | Effect::NewRules => {
                self.game = engine::new_game(options.game, options.rules);
                self.defer(Deferred::ClearHash);
            }
            Effect::ResizeHash => match TranspositionTable::new(options.hash_mb) {
                Ok(tt) => self.defer(Deferred::UseTable(Arc::new(tt))),
                Err(e) => return self.out.line(&error(&format!("setoption: {e}"))),
            },
            Effect::ClearHash => self.defer(Deferred::ClearHash),
        }
        self.options = options;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}
