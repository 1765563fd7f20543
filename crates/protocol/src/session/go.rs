//! `go`: the checks of a `go` line against the state of its moment, the search limits from
//! its parameters, and `ponderhit`.

use super::Session;
use super::queries::player_of;
use super::worker::{Kind, Start, Work};
use crate::command::{GoParams, Side};
use crate::response::error;
use quartet_core::game::{Node, Player};
use quartet_core::notation::player_token;
use quartet_engine::SearchRequest;
use quartet_search::players::PlayerKind;
use quartet_search::time::{Clock, clock_budget, movetime_budget};
use quartet_search::{Limits, MAX_DEPTH, Settings};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Instant;

impl Session {
    /// Checks `go` (its line arrived at `received`, where its clock starts) against the
    /// current position and options, and prepares its worker; the error says why it is
    /// refused.
    pub(super) fn prepare_go(
        &self,
        params: GoParams<'_>,
        received: Instant,
    ) -> Result<Start, String> {
        let game = self.game.clone_box();
        if let Some(depth) = params.perft {
            let depth = depth.min(u64::from(MAX_DEPTH)) as u32;
            return Ok(Start {
                game,
                received,
                work: Work::Perft(depth),
            });
        }
        if let Some(side) = params.side
            && let Some(why) = self
                .side_refused(side)
                .or_else(|| self.side_not_declaring(side))
        {
            return Err(why);
        }
        if params.mate.is_some() {
            self.check_mate()?;
        }
        let searchmoves = self
            .game
            .check_searchmoves(&mut params.searchmoves.iter())
            .map_err(|why| format!("searchmoves: {why}"))?;
        let side = params.side.map(player_of);
        let mut limits = self.limits(&params, side);
        let kind = if params.infinite {
            // `infinite` wins over the other limits, as UCI says.
            limits = Limits::default();
            Kind::Unbounded
        } else if params.ponder {
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
        let ponder_budget = if kind == Kind::Ponder {
            limits.time.take()
        } else {
            None
        };
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
            searchmoves,
            engine_rolls: self.options.engine_rolls,
            ponder: self.options.ponder,
            strength: self.options.strength,
            show_wdl: self.options.show_wdl,
        };
        Ok(Start {
            game,
            received,
            work: Work::Search {
                request: Box::new(request),
                kind,
                ponder_budget,
            },
        })
    }

    /// Why `go ... side` cannot be answered at this node of a game that has simultaneous
    /// turns: `side` names the declaring side of a simultaneous turn, and here one side
    /// moves (or rolls), so the answer would be that side's move whatever `side` says. A
    /// finished game is not refused here: its search says it is over.
    fn side_not_declaring(&self, side: Side) -> Option<String> {
        let letter = match side {
            Side::White => 'w',
            Side::Black => 'b',
        };
        let node = self.game.node();
        let acting = self.game.acting_player().map_or("", player_token);
        matches!(node, Node::Turn(_) | Node::Chance).then(|| {
            format!(
                "'{letter}': side names who declares at a simultaneous turn, and this is \
                {acting}'s turn to {}, not a simultaneous one (leave the side out)",
                if node == Node::Chance { "roll" } else { "move" }
            )
        })
    }

    /// Why `go mate` cannot be met here: a forced win is searched for at a side's turn in
    /// a game without chance, not at a simultaneous turn or with a die.
    fn check_mate(&self) -> Result<(), String> {
        let declaration = self.game.declaration();
        if declaration.nodes.chance.is_some() {
            return Err(format!(
                "mate: {} has chance nodes, so no win is forced (use depth, nodes or movetime)",
                declaration.name
            ));
        }
        if self.game.node() == Node::Simultaneous {
            return Err(
                "mate: a simultaneous turn has no forced win to search for (use depth, nodes or \
                movetime)"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// `ponderhit`: the pondered move was played. The search goes on under the time limits
    /// of its `go ponder` line, counted from that `go` (as in Stockfish: a budget already
    /// spent ends the search now); one that has already ended prints its `bestmove` now.
    pub(super) fn ponderhit(&mut self) {
        // A search that has printed its bestmove is over, even before it is joined.
        let Some(worker) = self.worker.as_ref().filter(|w| !w.is_finished()) else {
            return self.out.line(&error("ponderhit: not pondering"));
        };
        let Some(ponder) = &worker.ponder else {
            return self
                .out
                .line(&error("ponderhit: the search is not a ponder search"));
        };
        if ponder.hit.swap(true, Ordering::Relaxed) {
            return self.out.line(&error(
                "ponderhit: this search has had its ponderhit already",
            ));
        }
        let budget = ponder.budget.lock().map(|mut b| b.take()).unwrap_or(None);
        if let Some(budget) = budget {
            match budget.target().checked_sub(worker.received.elapsed()) {
                Some(wait) if !wait.is_zero() => {
                    // The search started without a clock: end it when the budget is spent.
                    let stop = Arc::clone(&worker.stop);
                    thread::spawn(move || {
                        thread::sleep(wait);
                        stop.store(true, Ordering::Relaxed);
                    });
                }
                _ => worker.stop.store(true, Ordering::Relaxed),
            }
        }
        worker.handle.thread().unpark();
    }

    /// The search limits of `go`, with the clock of the acting player (or of `side`). A
    /// `mate` alone is searched to `2 mate + 1` plies at most, so that it ends.
    fn limits(&self, p: &GoParams<'_>, side: Option<Player>) -> Limits {
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
        if let Some(mate) = limits.mate
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.time.is_none()
        {
            limits.depth = Some((2 * mate + 1).min(MAX_DEPTH));
        }
        limits
    }
}
