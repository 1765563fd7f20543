//! What the page asks of a session: each request dispatched (looking back and variations
//! are `viewing`'s, records `archive`'s, options `options`'), new games, moves and rolls at
//! the game's head, take-backs, resigning, limits.

use std::time::{Duration, Instant};

use serde_json::json;

use super::answers::error_of;
use super::decide::{HeadMove, head_move};
use super::fault::{Failure, FaultKind};
use super::flow::{self, Actor, Next, Purpose, Side};
use super::request::echo;
use super::request::{self, Request, Who};
use super::session::{Session, fresh_seed};

impl Session {
    pub(super) async fn on_request(&mut self, text: &str) -> Result<(), Failure> {
        let req = match request::parse_request(text) {
            Ok(r) => r,
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
        };
        let needs_engine = !matches!(
            req,
            Request::Restart
                | Request::Record
                | Request::Speed { .. }
                | Request::Limit(_)
                | Request::Pause { .. }
                | Request::Ping
        );
        if needs_engine && self.io.engine.is_none() {
            self.io.error("the engine is not running: restart it").await;
            return Ok(());
        }
        match req {
            Request::NewGame {
                game,
                p1,
                p2,
                fen,
                seed,
            } => self.new_game(game, [p1, p2], fen, seed).await,
            Request::Players { p1, p2 } => {
                if self.game.players != [p1, p2] {
                    self.game.names = [None, None];
                }
                self.game.players = [p1, p2];
                if self.game.search.as_ref().is_some_and(|s| {
                    matches!(s.purpose, Purpose::Analysis(_))
                        || s.purpose
                            .side()
                            .is_some_and(|x| self.game.players[x.index()] == Who::Human)
                }) {
                    self.stop_search().await?;
                }
                self.state_changed();
                Ok(())
            }
            Request::Move { token, void } => self.human_move(token, void).await,
            // At a position looked back at, a roll plays a variation.
            Request::Roll if self.game.lines.viewed().is_some() => {
                let Some((ply, _)) = self.game.lines.viewed() else {
                    return Ok(());
                };
                self.stop_analysis().await?;
                self.variation_roll(ply).await
            }
            Request::Roll => match self.game.next() {
                Next::HumanRoll(s) if self.game.fault.is_none() => {
                    self.stop_analysis().await?;
                    self.roll(s).await
                }
                _ => {
                    self.io.error("no roll is awaited from a person now").await;
                    Ok(())
                }
            },
            Request::Takeback => self.takeback().await,
            Request::Resign => self.resign().await,
            Request::View { ply, line } => self.view_line(line, ply).await,
            Request::Promote { line } => self.promote_line(line).await,
            Request::DeleteLine { line } => self.delete_line(line).await,
            Request::Review { nodes: 0, ms: 0 } => {
                self.cancel_review().await;
                Ok(())
            }
            Request::Review { nodes, ms } => {
                self.start_review(nodes, ms).await;
                Ok(())
            }
            Request::ReviewContinue => {
                self.continue_review().await;
                Ok(())
            }
            Request::Temperature { nodes, ms } => {
                self.start_temperature(nodes, ms).await;
                Ok(())
            }
            Request::Ping => {
                self.io.send(json!({"t": "pong"})).await;
                Ok(())
            }
            Request::Load { text } => self.load(&text).await,
            Request::SetOption { name, value } => self.set_option(&name, value.as_deref()).await,
            Request::Limit(limit) => {
                if let Err(e) = limit.check() {
                    self.io.error(e).await;
                    return Ok(());
                }
                self.game.limit = limit;
                self.game.reset_clocks();
                self.state_changed();
                Ok(())
            }
            Request::Speed { delay_ms } => {
                if delay_ms > 60_000 {
                    self.io.error("the pause is at most 60000 ms").await;
                    return Ok(());
                }
                self.game.delay = Duration::from_millis(delay_ms);
                self.state_changed();
                Ok(())
            }
            Request::Analyse { on } => {
                self.game.analyse = on;
                self.game.analysis_ended = None;
                if !on {
                    self.stop_analysis().await?;
                }
                self.state_changed();
                Ok(())
            }
            Request::Pause { on } => {
                self.game.paused = on;
                self.state_changed();
                Ok(())
            }
            Request::MoveNow => {
                if self
                    .game
                    .search
                    .as_ref()
                    .is_some_and(|s| s.purpose.side().is_some())
                {
                    self.io.send_engine("stop").await?;
                }
                Ok(())
            }
            Request::Restart => {
                self.game.fault = None;
                self.start_engine().await?;
                self.state_changed();
                Ok(())
            }
            Request::Record => {
                let text = self.game.record(&self.ident.name).to_text();
                let filename = format!("quartet-{}.pgn", self.game.name);
                self.io
                    .send(json!({"t": "record", "text": text, "filename": filename}))
                    .await;
                Ok(())
            }
        }
    }

    pub(super) async fn stop_analysis(&mut self) -> Result<(), Failure> {
        if self
            .game
            .search
            .as_ref()
            .is_some_and(|s| matches!(s.purpose, Purpose::Analysis(_)))
        {
            self.stop_search().await?;
        }
        Ok(())
    }

    pub(super) async fn human_move(&mut self, token: String, void: bool) -> Result<(), Failure> {
        if self.game.fault.is_some() {
            self.io
                .error("the engine had a fault: restart it to go on")
                .await;
            return Ok(());
        }
        // At a position looked back at, a move plays a variation.
        if let Some((ply, _)) = self.game.lines.viewed() {
            return self.variation_move(ply, token).await;
        }
        let Some(snap) = self.game.snap.as_ref() else {
            return Ok(());
        };
        let accepted = head_move(
            self.game.next(),
            &snap.legal,
            &snap.legal_side,
            &token,
            void,
        );
        match accepted {
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
            Ok(HeadMove::Move(s)) => {
                self.stop_analysis().await?;
                let in_time = self.game.charge(s, Instant::now());
                self.play(token, Actor::Move(s)).await?;
                if !in_time {
                    self.game.flagged = Some(s);
                }
            }
            Ok(HeadMove::Declare(s)) => {
                self.stop_analysis().await?;
                if !self.game.charge(s, Instant::now()) {
                    self.game.flagged = Some(s);
                }
                self.game.declared[s.index()] = Some(token);
            }
        }
        self.game.wake = None;
        self.state_changed();
        Ok(())
    }

    /// Sets the engine to `game` from `fen` with `moves`; on refusal everything stays as
    /// it was and the inner error says why.
    pub(super) async fn set_game(
        &mut self,
        game: String,
        fen: Option<String>,
        moves: Vec<String>,
    ) -> Result<Result<(), String>, Failure> {
        self.stop_search().await?;
        let old = (
            self.game.name.clone(),
            self.game.lines.start_fen.clone(),
            std::mem::take(&mut self.game.lines.moves),
        );
        let switch = |g: &str| {
            vec![
                format!("setoption name Game value {g}"),
                "ucinewgame".to_string(),
            ]
        };
        if !self.games.is_empty() {
            let groups = self.io.exchange(&switch(&game)).await?;
            if let Some(e) = groups.iter().find_map(|g| error_of(g)) {
                self.game.lines.moves = old.2;
                return Ok(Err(e));
            }
        }
        let n = moves.len();
        self.game.name = game;
        self.game.lines.start_fen = fen;
        self.game.lines.moves = moves;
        self.game.lines.positions.clear();
        match self.refresh().await? {
            Ok(()) => {
                self.game.start_afresh(n);
                if n == 0 {
                    self.game.start_text = self.game.fen_now();
                }
                Ok(Ok(()))
            }
            Err(e) => {
                (
                    self.game.name,
                    self.game.lines.start_fen,
                    self.game.lines.moves,
                ) = old;
                if !self.games.is_empty() {
                    let g = self.game.name.clone();
                    self.io.exchange(&switch(&g)).await?;
                }
                if let Err(e2) = self.refresh().await? {
                    return Err(Failure::new(FaultKind::Protocol, e2));
                }
                Ok(Err(e))
            }
        }
    }

    pub(super) async fn new_game(
        &mut self,
        game: String,
        players: [Who; 2],
        fen: Option<String>,
        seed: Option<u64>,
    ) -> Result<(), Failure> {
        if !self.games.is_empty() && !self.games.contains(&game) {
            self.io
                .error(format!("unknown game '{}'", echo(&game)))
                .await;
            return Ok(());
        }
        let fen = fen.filter(|f| !f.trim().is_empty());
        if fen.as_deref().is_some_and(|f| !request::is_fen_safe(f)) {
            self.io
                .error("a position string is letters, digits, '/', ',', '-' and spaces")
                .await;
            return Ok(());
        }
        let fen = fen.map(|f| f.split_whitespace().collect::<Vec<_>>().join(" "));
        match self.set_game(game, fen, Vec::new()).await? {
            Ok(()) => {
                self.game.players = players;
                self.game.fault = None;
                self.game.seed = seed.or(self.config.seed).unwrap_or_else(fresh_seed);
                self.state_changed();
            }
            Err(e) => {
                self.io
                    .error(format!("the engine refused the position: {e}"))
                    .await
            }
        }
        Ok(())
    }

    /// The person to act (or the only person playing) resigns: the game ends, lost by
    /// that side, and is recorded as adjudicated with the reason.
    pub(super) async fn resign(&mut self) -> Result<(), Failure> {
        let humans: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| self.game.players[s.index()] == Who::Human)
            .collect();
        let side = match self.game.next() {
            Next::HumanMove(s) | Next::HumanRoll(s) | Next::HumanDeclare(s) => Some(s),
            Next::Nothing => None,
            _ if humans.len() == 1 => Some(humans[0]),
            _ => None,
        };
        let Some(side) = side else {
            self.io.error("no person can resign now").await;
            return Ok(());
        };
        self.stop_search().await?;
        self.game.halt_clocks(Instant::now());
        self.game.resigned = Some(side);
        self.state_changed();
        Ok(())
    }

    pub(super) async fn takeback(&mut self) -> Result<(), Failure> {
        self.stop_search().await?;
        let n = flow::takeback_len(&self.game.lines.actors, self.game.players);
        if n == 0 {
            self.io.error("nothing to take back").await;
            return Ok(());
        }
        let keep = self.game.lines.moves.len() - n;
        self.game.lines.moves.truncate(keep);
        self.game.lines.actors.truncate(keep);
        self.game.lines.reconcile();
        self.game.after_line_change(keep, Instant::now());
        self.send_review_log().await;
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        self.state_changed();
        Ok(())
    }
}
