//! The protocol session: the engine's state between commands and the carrying out of each
//! command (Stockfish's UCIEngine). The reading thread feeds it lines; `go` starts one
//! worker thread ([`go`]). A rejected command changes nothing.
//!
//! **Lines that arrive during a search** (protocol.md §4). During a search with a limit
//! (depth, nodes, mate, time, a perft), a line that would change the state or start work
//! (`position`, `go`, `setoption`, `ucinewgame`) waits until the search has ended and
//! printed its `bestmove`; so does every line after it, in order. `isready`, `stop`,
//! `quit`, `ponderhit`, `query`, `d`, `uci` and `help` act at once unless lines are
//! waiting (then they take their turn, so `readyok` still means "everything before me is
//! done"; `quit` also waits for a perft). During a
//! search without a limit (`go infinite`, `go ponder`, `go` alone), a waiting kind of line
//! stops that search first (its `bestmove` is printed), then acts: a GUI that forgets
//! `stop` gets the search's move, never a hang. At the end of input a search with a limit
//! runs to it, one without is stopped, the waiting lines are carried out, and then the
//! program ends.

mod go;
mod queries;

use super::command::Command;
use super::line::normalise;
use super::options::{Effect, EngineOptions};
use super::parse::{CommandError, parse_command};
use super::response::{bestmove, error, response};
use crate::engine::{self, AnyGame};
use crate::games::GameKind;
use crate::output::Output;
use crate::players::PlayerKind;
use crate::search::tt::TranspositionTable;
use go::Worker;
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

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

/// A line that waits for the running search to end.
struct Waiting {
    line: String,
    /// The line parsed once, as it arrived; `None` for a blank line or a comment.
    parsed: Option<Result<Command, CommandError>>,
    received: Instant,
    timing: Timing,
}

/// How a line is treated while a search runs (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timing {
    /// Acts at once, whatever is waiting (`debug`, comments, blank lines).
    Always,
    /// Acts at once unless lines are waiting.
    Prompt,
    /// Waits for a bounded search; stops an unbounded one.
    AfterSearch,
    /// `quit`: at once, but after a perft (which it must not cut short).
    Quit,
}

/// The engine between commands.
pub struct Session {
    out: Output,
    options: EngineOptions,
    /// The options the session started with (the `default` of each `option` line).
    defaults: EngineOptions,
    game: Box<dyn AnyGame>,
    tt: Arc<TranspositionTable>,
    worker: Option<Worker>,
    waiting: VecDeque<Waiting>,
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
    /// the reading loop can carry out the lines waiting for it without polling.
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
        let parsed = (!text.is_empty() && !text.starts_with('#')).then(|| parse_command(text));
        let waiting = Waiting {
            timing: timing(&line, parsed.as_ref()),
            line,
            parsed,
            received,
        };
        if waiting.timing == Timing::Always {
            return self.run(waiting);
        }
        self.waiting.push_back(waiting);
        self.search_done()
    }

    /// Joins the worker if it has finished, then carries out the waiting lines, in order,
    /// as far as the running search lets them (see the module documentation). Called when
    /// a worker has finished, and after every line.
    pub fn search_done(&mut self) -> Flow {
        if self.worker.as_ref().is_some_and(Worker::is_finished)
            && let Some(worker) = self.worker.take()
        {
            worker.join();
        }
        while let Some(front) = self.waiting.front() {
            let timing = front.timing;
            if let Some(worker) = &self.worker {
                let now = match timing {
                    Timing::Always | Timing::Prompt => true,
                    Timing::Quit => !worker.is_perft(),
                    Timing::AfterSearch => !worker.is_bounded(),
                };
                if !now {
                    break;
                }
                if timing == Timing::AfterSearch && !self.refuses(front) {
                    // An unbounded search: the line stops it first (a line that will be
                    // refused leaves it running, except a `go`, whose answer must follow
                    // the running search's).
                    self.stop_search();
                }
            }
            let Some(next) = self.waiting.pop_front() else {
                break;
            };
            if self.run(next) == Flow::Quit {
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    /// The end of input: a search with a limit runs to it, one without is stopped; then
    /// the waiting lines are carried out (and the searches they start, likewise).
    pub fn finish(&mut self) {
        loop {
            match self.worker.take() {
                Some(worker) if worker.is_bounded() => worker.join(),
                Some(worker) => worker.stop_and_join(),
                None => {}
            }
            let flow = self.search_done();
            if flow == Flow::Quit || (self.worker.is_none() && self.waiting.is_empty()) {
                break;
            }
        }
        self.stop_search();
    }

    /// Stops and joins a running search (its `bestmove` is printed by then).
    pub fn stop_search(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.stop_and_join();
        }
    }

    /// Whether carrying out `line` now would refuse it without an answer that must come
    /// in order (a dry run on copies: nothing changes). A refused `go` still answers
    /// `bestmove (none)`, so it counts as carried out.
    fn refuses(&self, waiting: &Waiting) -> bool {
        match &waiting.parsed {
            None => false,
            Some(Err(_)) => !is_go(&waiting.line),
            Some(Ok(Command::Position { fen, moves })) => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                self.game
                    .clone_box()
                    .set_position(fen.as_deref(), &moves)
                    .is_err()
            }
            Some(Ok(Command::SetOption { name, value })) => {
                let mut options = self.options;
                options.set(name, value.as_deref()).is_err()
            }
            Some(Ok(_)) => false,
        }
    }

    /// Carries out one line now.
    fn run(&mut self, waiting: Waiting) -> Flow {
        match waiting.parsed {
            None => Flow::Continue,
            Some(Ok(command)) => self.execute(command, waiting.received),
            Some(Err(e)) => {
                self.out.line(&error(&e.to_string()));
                // Every awaited reply comes, even after a refusal.
                match waiting.line.split_whitespace().next() {
                    Some("go") => self.out.line(&bestmove(None)),
                    Some("query") => self.out.line(&response("")),
                    _ => {}
                }
                Flow::Continue
            }
        }
    }

    fn execute(&mut self, command: Command, received: Instant) -> Flow {
        match command {
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::Debug(_) | Command::Register => {}
            Command::NewGame => self.tt.clear(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.game.set_position(fen.as_deref(), &moves) {
                    self.out.line(&error(&format!("position: {e}")));
                }
            }
            Command::Go(params) => self.go(params, received),
            Command::Stop => self.stop_search(),
            Command::PonderHit => self.ponderhit(),
            Command::Quit => {
                self.stop_search();
                return Flow::Quit;
            }
            Command::Display => self.display(),
            Command::Query(q) => self.query(q),
            Command::Help => self.help(),
        }
        Flow::Continue
    }

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
                self.tt.clear();
            }
            Effect::ResizeHash => match TranspositionTable::new(options.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => return self.out.line(&error(&format!("setoption: {e}"))),
            },
            Effect::ClearHash => self.tt.clear(),
        }
        self.options = options;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// Whether `line` is a `go` (whose one `bestmove`, even `(none)` after a refusal, must come
/// after the answer of the search before it).
fn is_go(line: &str) -> bool {
    line.split_whitespace().next() == Some("go")
}

/// How `line` (parsed as `parsed`) is treated while a search runs. A line that cannot be
/// parsed is refused in its turn without waiting for (or stopping) a search, except `go`.
fn timing(line: &str, parsed: Option<&Result<Command, CommandError>>) -> Timing {
    let command = match parsed {
        None => return Timing::Always,
        Some(Err(_)) if is_go(line) => return Timing::AfterSearch,
        Some(Err(_)) => return Timing::Prompt,
        Some(Ok(command)) => command,
    };
    match command {
        Command::Debug(_) => Timing::Always,
        Command::Quit => Timing::Quit,
        Command::IsReady
        | Command::Stop
        | Command::PonderHit
        | Command::Query(_)
        | Command::Display
        | Command::Help
        | Command::Uci
        | Command::Ugi
        | Command::Register => Timing::Prompt,
        Command::NewGame
        | Command::SetOption { .. }
        | Command::Position { .. }
        | Command::Go(_) => Timing::AfterSearch,
    }
}
