//! The protocol session: the engine's state between commands and the carrying out of each
//! command (Stockfish's UCIEngine). The reading thread owns the session; `go` starts one
//! worker thread, and `stop`, `position`, `setoption`, `ucinewgame`, another `go`, `quit`
//! stop and join it first (the end of input lets a bounded search finish). A rejected
//! command changes nothing.

use super::command::{Command, GoParams, Query, Side};
use super::options::{self, Effect, EngineOptions};
use super::parse::parse_command;
use super::response::{bestmove, error, info_string, response};
use crate::engine::{self, AnyGame, SearchRequest, outcome_text};
use crate::game::{EndReason, Node, Player};
use crate::games::GameKind;
use crate::notation::player_token;
use crate::output::Output;
use crate::players::PlayerKind;
use crate::search::time::{Clock, clock_budget, movetime_budget};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, MAX_DEPTH, Settings};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The program's name and version, as `id name` and the banner give it.
pub const ENGINE_NAME: &str = concat!("Quartet ", env!("CARGO_PKG_VERSION"));
/// The `id author` line's value.
pub const ENGINE_AUTHOR: &str = "the Quartet developers";

/// Whether the reading loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit` was received: the search has been stopped; end the program.
    Quit,
}

/// How long the end of input waits for a bounded `go` before stopping it.
pub const END_OF_INPUT_WAIT: Duration = Duration::from_secs(60);

/// A running `go`.
struct Worker {
    /// Set to end the search or perft.
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// It ends by itself (a depth, node or time limit, or a perft), so the end of input
    /// may wait for it.
    bounded: bool,
}

/// The engine between commands.
pub struct Session {
    out: Output,
    options: EngineOptions,
    game: Box<dyn AnyGame>,
    tt: Arc<TranspositionTable>,
    worker: Option<Worker>,
    /// When the line being carried out was received: a `go`'s clock runs from here.
    received: Instant,
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
            worker: None,
            received: Instant::now(),
        })
    }

    /// Carries out one input line. Blank lines are ignored.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.received = Instant::now();
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        match parse_command(line) {
            Ok(command) => self.execute(command),
            Err(e) => {
                self.out.line(&error(&e.to_string()));
                if line.split_whitespace().next() == Some("go") {
                    // Every go gets exactly one bestmove, even a malformed one.
                    self.stop_search();
                    self.out.line(&bestmove(None));
                }
                Flow::Continue
            }
        }
    }

    /// The end of input: a `go` that ends by itself (depth, nodes, time or perft) is let
    /// finish, for at most [`END_OF_INPUT_WAIT`], so that `printf 'position startpos\ngo
    /// depth 8\n' | quartet` prints the depth-8 result; one without limits (`go infinite`)
    /// is stopped at once, and so is one still running after the wait (a GUI that died
    /// leaves no engine burning a core for long).
    pub fn finish(&mut self) {
        if let Some(worker) = self.worker.take() {
            if worker.bounded {
                let started = Instant::now();
                while !worker.handle.is_finished() && started.elapsed() < END_OF_INPUT_WAIT {
                    thread::sleep(Duration::from_millis(2));
                }
            }
            worker.stop.store(true, Ordering::Relaxed);
            let _ = worker.handle.join();
        }
    }

    /// Stops and joins a running search (its `bestmove` is printed by then).
    pub fn stop_search(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.stop.store(true, Ordering::Relaxed);
            let _ = worker.handle.join();
        }
    }

    fn execute(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => self.identify("uciok"),
            Command::Ugi => self.identify("ugiok"),
            Command::IsReady => self.out.line("readyok"),
            Command::NewGame => {
                self.stop_search();
                self.tt.clear();
            }
            Command::SetOption { name, value } => {
                self.stop_search();
                self.set_option(&name, value.as_deref());
            }
            Command::Position { fen, moves } => {
                self.stop_search();
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.game.set_position(fen.as_deref(), &moves) {
                    self.out.line(&error(&format!("position: {e}")));
                }
            }
            Command::Go(params) => {
                self.stop_search();
                self.go(params);
            }
            Command::Stop => self.stop_search(),
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

    fn identify(&self, ok: &str) {
        self.out.line(&format!("id name {ENGINE_NAME}"));
        self.out.line(&format!("id author {ENGINE_AUTHOR}"));
        for line in options::declarations() {
            self.out.line(&line);
        }
        self.out.line(ok);
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

    fn go(&mut self, params: GoParams) {
        // The clock runs from the line's arrival, not from when the worker gets going
        // (stopping the previous search and starting the thread take time too).
        let arrived = self.received;
        if let Some(depth) = params.perft {
            return self.perft(depth);
        }
        let side = params.side.map(player_of);
        let mut request = SearchRequest {
            limits: self.limits(&params, side),
            settings: Settings {
                multipv: self.options.multipv,
                threads: self.options.threads,
                side,
                seed: self.options.seed,
                ..Settings::default()
            },
            player: self.options.player,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (game, tt, out, flag) = (
            self.game.clone_box(),
            Arc::clone(&self.tt),
            self.out.clone(),
            Arc::clone(&stop),
        );
        let infinite = params.infinite;
        let limits = &request.limits;
        let bounded = !infinite
            && (limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.time.is_some()
                || self.options.player != PlayerKind::Search);
        let handle = thread::spawn(move || {
            request.limits.time = request.limits.time.map(|b| b.after(arrived.elapsed()));
            let summary = game.search(&request, &tt, &flag, &mut |info| {
                out.line(&info.to_string())
            });
            while infinite && !flag.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(1));
            }
            if let Some(note) = &summary.note {
                out.line(&info_string(note));
            }
            if let Some(policy) = &summary.policy {
                out.line(&info_string(&format!("policy {policy}")));
            }
            out.line(&bestmove(summary.best.as_deref()));
        });
        self.worker = Some(Worker {
            stop,
            handle,
            bounded,
        });
    }

    /// The search limits of `go`, with the clock of the acting player (or of `side`).
    fn limits(&self, p: &GoParams, side: Option<Player>) -> Limits {
        let mut limits = Limits {
            depth: p.depth.map(|d| d.clamp(1, u64::from(MAX_DEPTH)) as u32),
            nodes: p.nodes.map(|n| n.max(1)),
            time: None,
        };
        if p.infinite {
            return limits;
        }
        let overhead = self.options.move_overhead_ms;
        let player = self.game.acting_player().or(side).unwrap_or(Player::First);
        let (time, inc) = match player {
            Player::First => (p.p1time, p.p1inc),
            Player::Second => (p.p2time, p.p2inc),
        };
        limits.time = match (p.movetime, time) {
            (Some(ms), _) => Some(movetime_budget(ms, overhead)),
            (None, Some(time_ms)) => Some(clock_budget(
                Clock {
                    time_ms,
                    inc_ms: inc.unwrap_or(0),
                    moves_to_go: p.movestogo.map(|m| m.min(u64::from(u32::MAX)) as u32),
                },
                overhead,
            )),
            (None, None) => None,
        };
        limits
    }

    fn perft(&mut self, depth: u64) {
        let depth = depth.min(u64::from(MAX_DEPTH)) as u32;
        let (game, out) = (self.game.clone_box(), self.out.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = thread::spawn(move || {
            let mut total = 0;
            let done = game.divide(depth, &flag, &mut |token, count| {
                out.line(&format!("{token}: {count}"));
                total += count;
            });
            if !done {
                out.line(&info_string(
                    "perft stopped: the rows above are complete, the rest were not counted",
                ));
                return;
            }
            if depth == 0 {
                total = 1;
            }
            out.line("");
            out.line(&format!("Nodes searched: {total}"));
        });
        self.worker = Some(Worker {
            stop,
            handle,
            bounded: true,
        });
    }

    fn display(&self) {
        for line in self.game.diagram().lines() {
            self.out.line(line);
        }
        self.out.line(&format!("Fen: {}", self.game.fen()));
        self.out.line(&format!("Key: {:016X}", self.game.hash()));
    }

    fn query(&self, q: Query) {
        let node = self.game.node();
        let text = match q {
            Query::GameOver => matches!(node, Node::Terminal(_)).to_string(),
            Query::P1Turn => (node == Node::Simultaneous
                || self.game.acting_player() == Some(Player::First))
            .to_string(),
            Query::Result => match node {
                Node::Terminal(o) => outcome_text(o).to_string(),
                _ => "none".to_string(),
            },
            Query::Fen => self.game.fen(),
            Query::Node => node_text(node, self.game.acting_player()),
            Query::Reason => self
                .game
                .end_reason()
                .map_or("none", EndReason::token)
                .to_string(),
            Query::Position => self.game.describe(),
            Query::IsLegal(token, None) => self.game.is_legal(&token).to_string(),
            Query::IsLegal(token, Some(side)) => match self.side_refused(side) {
                Some(why) => {
                    self.out.line(&error(&format!("query islegal: {why}")));
                    "false".to_string()
                }
                None => self
                    .game
                    .is_legal_declaration(&token, player_of(side))
                    .to_string(),
            },
            Query::LegalMoves(Some(side)) => match self.side_refused(side) {
                Some(why) => {
                    self.out.line(&error(&format!("query legalmoves: {why}")));
                    String::new()
                }
                None => self.game.legal_tokens(Some(player_of(side))).join(" "),
            },
            Query::LegalMoves(None) => self.game.legal_tokens(None).join(" "),
        };
        self.out.line(&response(&text));
    }

    /// Why a side may not be named in a query of this game (only simultaneous games have
    /// one side's declarations).
    fn side_refused(&self, side: Side) -> Option<String> {
        (!self.game.declaration().nodes.simultaneous).then(|| {
            let letter = match side {
                Side::White => 'w',
                Side::Black => 'b',
            };
            format!(
                "'{letter}': {} has no simultaneous turns, so no side's declarations (leave the side out)",
                self.game.name()
            )
        })
    }

    fn help(&self) {
        for line in HELP.lines() {
            self.out.line(line);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// `query node`'s answer: `turn p1`, `chance p2`, `simultaneous` or `over`.
fn node_text(node: Node, acting: Option<Player>) -> String {
    let who = acting.map_or("", player_token);
    match node {
        Node::Turn(_) => format!("turn {who}"),
        Node::Chance => format!("chance {who}"),
        Node::Simultaneous => "simultaneous".to_string(),
        Node::Terminal(_) => "over".to_string(),
    }
}

fn player_of(side: Side) -> Player {
    match side {
        Side::White => Player::First,
        Side::Black => Player::Second,
    }
}

const HELP: &str = "\
Commands (protocol.md has the exact forms):
  uci | ugi                      identify and list the options
  isready                        answered with readyok
  setoption name <N> [value <V>] e.g. setoption name Game value rnb
  ucinewgame                     forget earlier games
  position startpos|fen <F> [moves <m1> <m2> ...]
  go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS] [infinite] [side w|b]
  go perft N                     count the leaves N plies deep
  stop | quit
  d                              show the board
  query gameover|p1turn|result|fen|node|reason|position|islegal <m> [w|b]|legalmoves [w|b]";
