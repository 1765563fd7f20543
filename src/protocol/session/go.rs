//! `go`: the search limits from its parameters, the worker thread that searches (or counts
//! perft) and prints the answer, pondering and `ponderhit`.

use super::Session;
use super::queries::player_of;
use crate::engine::{AnyGame, SearchRequest, SearchSummary};
use crate::game::Player;
use crate::output::Output;
use crate::players::PlayerKind;
use crate::protocol::command::GoParams;
use crate::protocol::response::{bestmove, error, info_string};
use crate::search::time::{Clock, TimeBudget, clock_budget, movetime_budget};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, MAX_DEPTH, Settings};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What a running `go` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A search that ends by itself (a depth, node, mate or time limit, or a baseline).
    Bounded,
    /// A search that runs until `stop` (`go infinite`, `go` without limits).
    Unbounded,
    /// `go ponder`: runs until `ponderhit` (then under its limits) or `stop`.
    Ponder,
    /// `go perft N`.
    Perft,
}

/// The state a pondering search shares with the session.
struct Ponder {
    /// Set by `ponderhit`: the search now counts, and its `bestmove` may be printed.
    hit: AtomicBool,
    /// The time limits of the `go ponder` line, which apply from `ponderhit`.
    budget: Mutex<Option<TimeBudget>>,
}

/// How a worker says it has printed its last line.
struct Finish {
    /// Set first, so that the session sees the worker as finished when it is woken.
    finished: Arc<AtomicBool>,
    /// Wakes the reading loop (the session's notifier).
    notify: Arc<dyn Fn() + Send + Sync>,
}

impl Finish {
    fn new(notify: &Arc<dyn Fn() + Send + Sync>) -> Finish {
        Finish {
            finished: Arc::new(AtomicBool::new(false)),
            notify: Arc::clone(notify),
        }
    }

    /// Marks the worker finished, then wakes the loop.
    fn signal(&self) {
        self.finished.store(true, Ordering::Release);
        (self.notify)();
    }
}

/// A running `go`.
pub(super) struct Worker {
    /// Set to end the search or perft.
    stop: Arc<AtomicBool>,
    /// Set once its last line is printed.
    finished: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    kind: Kind,
    ponder: Option<Arc<Ponder>>,
}

impl Worker {
    /// Whether it ends by itself (so the end of input and waiting lines wait for it).
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

impl Session {
    /// Carries out `go` (its line arrived at `received`, where its clock starts).
    pub(super) fn go(&mut self, params: GoParams, received: Instant) {
        if let Some(depth) = params.perft {
            return self.perft(depth);
        }
        if let Err(why) = self.game.check_searchmoves(&params.searchmoves) {
            self.out.line(&error(&format!("go: searchmoves: {why}")));
            return self.out.line(&bestmove(None));
        }
        let side = params.side.map(player_of);
        let mut limits = self.limits(&params, side);
        let kind = if params.ponder {
            Kind::Ponder
        } else if limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.time.is_some()
            || limits.mate.is_some()
            || self.options.player != PlayerKind::Search
        {
            Kind::Bounded
        } else {
            Kind::Unbounded
        };
        if params.infinite {
            // `infinite` wins over the other limits, as UCI says.
            limits = Limits::default();
        }
        let kind = if params.infinite {
            Kind::Unbounded
        } else {
            kind
        };
        let ponder = (kind == Kind::Ponder).then(|| {
            Arc::new(Ponder {
                hit: AtomicBool::new(false),
                budget: Mutex::new(limits.time.take()),
            })
        });
        let request = SearchRequest {
            limits,
            settings: Settings {
                multipv: self.options.multipv,
                threads: self.options.threads,
                side,
                seed: self.options.seed,
                ..Settings::default()
            },
            player: self.options.player,
            searchmoves: params.searchmoves,
            engine_rolls: self.options.engine_rolls,
            ponder: self.options.ponder,
            strength: self.options.strength,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            game: self.game.clone_box(),
            tt: Arc::clone(&self.tt),
            out: self.out.clone(),
            stop: Arc::clone(&stop),
            ponder: ponder.clone(),
            holds_bestmove: kind != Kind::Bounded,
            received,
            finish: Finish::new(&self.on_done),
        };
        let finished = Arc::clone(&job.finish.finished);
        let handle = thread::spawn(move || job.run(request));
        self.worker = Some(Worker {
            stop,
            finished,
            handle,
            kind,
            ponder,
        });
    }

    /// `ponderhit`: the pondered move was played. The search goes on under the time limits
    /// of its `go ponder` line, counted from now; one that has already ended prints its
    /// `bestmove` now.
    pub(super) fn ponderhit(&mut self) {
        let Some(worker) = &self.worker else {
            return self.out.line(&error("ponderhit: not pondering"));
        };
        let Some(ponder) = &worker.ponder else {
            return self
                .out
                .line(&error("ponderhit: the search is not a ponder search"));
        };
        let budget = ponder.budget.lock().map(|mut b| b.take()).unwrap_or(None);
        ponder.hit.store(true, Ordering::Relaxed);
        worker.handle.thread().unpark();
        if let Some(budget) = budget {
            // The search started without a clock: end it when the budget is spent.
            let stop = Arc::clone(&worker.stop);
            let wait = budget.target();
            thread::spawn(move || {
                thread::sleep(wait);
                stop.store(true, Ordering::Relaxed);
            });
        }
    }

    /// The search limits of `go`, with the clock of the acting player (or of `side`).
    fn limits(&self, p: &GoParams, side: Option<Player>) -> Limits {
        let mut limits = Limits {
            depth: p.depth.map(|d| d.clamp(1, u64::from(MAX_DEPTH)) as u32),
            nodes: p.nodes.map(|n| n.max(1)),
            time: None,
            mate: p.mate.map(|m| m.clamp(1, u64::from(MAX_DEPTH)) as u32),
        };
        let overhead = self.options.move_overhead_ms;
        let player = self.game.acting_player().or(side).unwrap_or(Player::First);
        let (time, inc) = match player {
            Player::First => (p.p1time, p.p1inc),
            Player::Second => (p.p2time, p.p2inc),
        };
        // A clock of either side, or an increment, means a timed game: the mover's clock
        // is 0 when not given (never an unbounded search).
        let timed = [p.p1time, p.p2time, p.p1inc, p.p2inc]
            .iter()
            .any(Option::is_some);
        limits.time = match p.movetime {
            Some(ms) => Some(movetime_budget(ms, overhead)),
            None if timed => Some(clock_budget(
                Clock {
                    time_ms: time.unwrap_or(0),
                    inc_ms: inc.unwrap_or(0),
                    moves_to_go: p.movestogo.map(|m| m.min(u64::from(u32::MAX)) as u32),
                },
                overhead,
            )),
            None => None,
        };
        limits
    }

    fn perft(&mut self, depth: u64) {
        let depth = depth.min(u64::from(MAX_DEPTH)) as u32;
        let (game, out) = (self.game.clone_box(), self.out.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let finish = Finish::new(&self.on_done);
        let finished = Arc::clone(&finish.finished);
        let handle = thread::spawn(move || {
            let mut total = 0;
            let done = game.divide(depth, &flag, &mut |token, count| {
                out.line(&format!("{token}: {count}"));
                total += count;
            });
            if done {
                if depth == 0 {
                    total = 1;
                }
                out.line("");
                out.line(&format!("Nodes searched: {total}"));
            } else {
                out.line(&info_string(
                    "perft stopped: the rows above are complete, the rest were not counted",
                ));
            }
            finish.signal();
        });
        self.worker = Some(Worker {
            stop,
            finished,
            handle,
            kind: Kind::Perft,
            ponder: None,
        });
    }
}

/// What a worker thread needs.
struct Job {
    game: Box<dyn AnyGame>,
    tt: Arc<TranspositionTable>,
    out: Output,
    stop: Arc<AtomicBool>,
    ponder: Option<Arc<Ponder>>,
    /// The `bestmove` waits for `stop` (or `ponderhit`) even when the search ends first.
    holds_bestmove: bool,
    received: Instant,
    finish: Finish,
}

impl Job {
    /// Searches, waits if the answer must wait, and prints the answer.
    fn run(self, mut request: SearchRequest) {
        // The clock runs from the line's arrival, not from when the worker gets going.
        request.limits.time = request
            .limits
            .time
            .map(|b| b.after(self.received.elapsed()));
        let summary = self
            .game
            .search(&request, &self.tt, &self.stop, &mut |info| {
                self.out.line(&info.to_string())
            });
        while self.holds_bestmove && !self.released() {
            // Woken by `stop` or `ponderhit` (the timeout only guards a missed wake-up).
            thread::park_timeout(Duration::from_millis(50));
        }
        self.answer(&summary);
        self.finish.signal();
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
            self.out.line(&line.to_string());
        }
        let line = match (&summary.best, &summary.ponder) {
            (Some(best), Some(reply)) => format!("{} ponder {reply}", bestmove(Some(best))),
            (best, _) => bestmove(best.as_deref()),
        };
        self.out.line(&line);
    }
}
