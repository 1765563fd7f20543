//! What the page asks of a session: new games, moves, rolls, take-backs, loading a record,
//! engine options and limits, and the game record to download.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::clock::Clocks;
use super::flow::{self, Actor, Next, Node, Side};
use super::record::Record;
use super::recording::{self, End, Facts};
use super::request::{self, Limit, Request, Who};
use super::session::{Fault, Purpose, Session, fresh_seed};
use super::talk::{Failure, FaultKind, answer, error_of};
use super::uci::OptionKind;
use super::variations::ViewMoves;

impl Session {
    pub(super) async fn on_request(&mut self, text: &str) -> Result<(), Failure> {
        let req = match request::parse_request(text) {
            Ok(r) => r,
            Err(e) => {
                self.error(e).await;
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
        );
        if needs_engine && self.io.engine.is_none() {
            self.error("the engine is not running: restart it").await;
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
                self.players = [p1, p2];
                if self.search.as_ref().is_some_and(|s| {
                    matches!(s.purpose, Purpose::Analysis(_))
                        || s.purpose
                            .side()
                            .is_some_and(|x| self.players[x.index()] == Who::Human)
                }) {
                    self.stop_search().await?;
                }
                self.state_changed();
                Ok(())
            }
            Request::Move { token, void } => self.human_move(token, void).await,
            // At a position looked back at, a roll plays a variation.
            Request::Roll if self.lines.viewed().is_some() => {
                let Some((ply, position)) = self.lines.viewed().map(|(p, v)| (p, v.clone())) else {
                    return Ok(());
                };
                self.stop_analysis().await?;
                self.variation_roll(ply, &position).await
            }
            Request::Roll => match self.next() {
                Next::HumanRoll(s) if self.fault.is_none() => {
                    self.stop_analysis().await?;
                    self.roll(s).await
                }
                _ => {
                    self.error("no roll is awaited from a person now").await;
                    Ok(())
                }
            },
            Request::Takeback => self.takeback().await,
            Request::Resign => self.resign().await,
            Request::View { ply, line } => self.view_line(line, ply).await,
            Request::Promote { line } => self.promote_line(line).await,
            Request::DeleteLine { line } => self.delete_line(line).await,
            Request::Review { nodes: 0 } => self.cancel_review().await,
            Request::Review { nodes } => self.start_review(nodes).await,
            Request::Load { text } => self.load(&text).await,
            Request::SetOption { name, value } => self.set_option(&name, value.as_deref()).await,
            Request::Limit(limit) => {
                if let Err(e) = limit.check() {
                    self.error(e).await;
                    return Ok(());
                }
                self.limit = limit;
                self.clocks = match limit {
                    Limit::Clock { base_ms, inc_ms } => Some(Clocks::new(base_ms, inc_ms)),
                    _ => None,
                };
                self.state_changed();
                Ok(())
            }
            Request::Speed { delay_ms } => {
                if delay_ms > 60_000 {
                    self.error("the pause is at most 60000 ms").await;
                    return Ok(());
                }
                self.delay = Duration::from_millis(delay_ms);
                self.state_changed();
                Ok(())
            }
            Request::Analyse { on } => {
                self.analyse = on;
                if !on {
                    self.stop_analysis().await?;
                }
                self.state_changed();
                Ok(())
            }
            Request::Pause { on } => {
                self.paused = on;
                self.state_changed();
                Ok(())
            }
            Request::MoveNow => {
                if self
                    .search
                    .as_ref()
                    .is_some_and(|s| s.purpose.side().is_some())
                {
                    self.send_engine("stop").await?;
                }
                Ok(())
            }
            Request::Restart => {
                self.fault = None;
                self.start_engine().await?;
                self.state_changed();
                Ok(())
            }
            Request::Record => {
                let text = self.record().to_text();
                let filename = format!("quartet-{}.pgn", self.game);
                self.send(json!({"t": "record", "text": text, "filename": filename}))
                    .await;
                Ok(())
            }
        }
    }

    pub(super) async fn stop_analysis(&mut self) -> Result<(), Failure> {
        if self
            .search
            .as_ref()
            .is_some_and(|s| matches!(s.purpose, Purpose::Analysis(_)))
        {
            self.stop_search().await?;
        }
        Ok(())
    }

    pub(super) async fn human_move(&mut self, token: String, void: bool) -> Result<(), Failure> {
        if self.fault.is_some() {
            self.error("the engine had a fault: restart it to go on")
                .await;
            return Ok(());
        }
        // At a position looked back at, a move plays a variation.
        if let Some((ply, _)) = self.lines.viewed() {
            return self.variation_move(ply, token).await;
        }
        let Some(snap) = self.snap.as_ref() else {
            return Ok(());
        };
        match self.next() {
            Next::HumanMove(s) => {
                if !snap.legal.contains(&token) {
                    self.error(format!("'{token}' is not a legal move here"))
                        .await;
                    return Ok(());
                }
                self.stop_analysis().await?;
                let in_time = self.charge(s);
                self.play(token, Actor::Move(s)).await?;
                if !in_time {
                    self.flagged = Some(s);
                }
                self.wake = None;
                self.state_changed();
            }
            Next::HumanDeclare(s) => {
                let legal = snap.legal_side[s.index()].contains(&token);
                // A void declaration is one side's token: a '/' would join another.
                let voidable = void && request::is_token_safe(&token) && !token.contains('/');
                if !(legal || voidable) {
                    self.error(format!("'{token}' is not a legal declaration here"))
                        .await;
                    return Ok(());
                }
                self.stop_analysis().await?;
                if !self.charge(s) {
                    self.flagged = Some(s);
                }
                self.declared[s.index()] = Some(token);
                self.wake = None;
                self.state_changed();
            }
            Next::HumanRoll(_) => self.error("roll the die first").await,
            _ => self.error("no move is awaited from a person now").await,
        }
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
            self.game.clone(),
            self.lines.start_fen.clone(),
            std::mem::take(&mut self.lines.moves),
        );
        let switch = |g: &str| {
            vec![
                format!("setoption name Game value {g}"),
                "ucinewgame".to_string(),
            ]
        };
        if !self.games.is_empty() {
            let groups = self.exchange(&switch(&game)).await?;
            if let Some(e) = groups.iter().find_map(|g| error_of(g)) {
                self.lines.moves = old.2;
                return Ok(Err(e));
            }
        }
        let n = moves.len();
        self.game = game;
        self.lines.start_fen = fen;
        self.lines.moves = moves;
        self.lines.positions.clear();
        match self.refresh().await? {
            Ok(()) => {
                self.lines.clear_variations();
                self.lines.actors = vec![Actor::Unknown; n];
                self.declared = [None, None];
                self.reveal = None;
                self.flagged = None;
                self.resigned = None;
                self.wake = None;
                self.reply_ms = None;
                self.clocks = match self.limit {
                    Limit::Clock { base_ms, inc_ms } => Some(Clocks::new(base_ms, inc_ms)),
                    _ => None,
                };
                if n == 0 {
                    self.start_text = self.fen_now();
                }
                Ok(Ok(()))
            }
            Err(e) => {
                (self.game, self.lines.start_fen, self.lines.moves) = old;
                if !self.games.is_empty() {
                    let g = self.game.clone();
                    self.exchange(&switch(&g)).await?;
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
            self.error(format!("unknown game '{game}'")).await;
            return Ok(());
        }
        let fen = fen.filter(|f| !f.trim().is_empty());
        if fen.as_deref().is_some_and(|f| !request::is_fen_safe(f)) {
            self.error("a position string is letters, digits, '/', ',', '-' and spaces")
                .await;
            return Ok(());
        }
        let fen = fen.map(|f| f.split_whitespace().collect::<Vec<_>>().join(" "));
        match self.set_game(game, fen, Vec::new()).await? {
            Ok(()) => {
                self.players = players;
                self.fault = None;
                self.seed = seed.or(self.config.seed).unwrap_or_else(fresh_seed);
                self.state_changed();
            }
            Err(e) => {
                self.error(format!("the engine refused the position: {e}"))
                    .await
            }
        }
        Ok(())
    }

    /// Sends the page the position after `ply` tokens of the main line, with its legal
    /// moves at a side's move (a person's move there starts a variation): from what the
    /// game has seen, else asked of the engine (not while it searches for a move: its
    /// answer would be mixed with the search's lines, and the position is shown without
    /// legal moves; nor during a review; analysis is stopped and starts again by itself).
    pub(super) async fn view(&mut self, ply: usize) -> Result<(), Failure> {
        if ply > self.lines.moves.len() {
            self.error(format!(
                "the game has {} tokens, not {ply}",
                self.lines.moves.len()
            ))
            .await;
            return Ok(());
        }
        // Analysis follows the view: stopped here, it starts again where the page looks.
        self.stop_analysis().await?;
        self.lines.line = None;
        if ply == self.lines.moves.len() {
            self.lines.viewing = None;
            self.lines.view_legal = ViewMoves::default();
            self.state_changed();
            return Ok(());
        }
        let searching = self.engine_busy();
        let cached = self
            .lines
            .positions
            .get(ply)
            .filter(|p| !p.is_null())
            .cloned();
        let (position, moves) = match cached {
            // Its legal moves cannot be asked during the engine's search: no variation yet.
            Some(p) if searching => (p, ViewMoves::default()),
            None if searching => {
                self.error(
                    "this position can be shown once the engine has moved or the review is done",
                )
                .await;
                return Ok(());
            }
            _ => self.ask_position(self.lines.position_command(ply)).await?,
        };
        if self.lines.positions.len() <= ply {
            self.lines.positions.resize(ply + 1, Value::Null);
        }
        self.lines.positions[ply] = position.clone();
        self.lines.viewing = Some(ply);
        let (legal, legal_side) = moves.json();
        self.lines.view_legal = moves;
        self.state_changed();
        self.send(
            json!({"t": "view", "ply": ply, "line": null, "position": position,
            "legal": legal, "legal_side": legal_side}),
        )
        .await;
        Ok(())
    }

    /// The person to act (or the only person playing) resigns: the game ends, lost by
    /// that side, and is recorded as adjudicated with the reason.
    pub(super) async fn resign(&mut self) -> Result<(), Failure> {
        let humans: Vec<Side> = Side::BOTH
            .into_iter()
            .filter(|s| self.players[s.index()] == Who::Human)
            .collect();
        let side = match self.next() {
            Next::HumanMove(s) | Next::HumanRoll(s) | Next::HumanDeclare(s) => Some(s),
            Next::Nothing => None,
            _ if humans.len() == 1 => Some(humans[0]),
            _ => None,
        };
        let Some(side) = side else {
            self.error("no person can resign now").await;
            return Ok(());
        };
        self.stop_search().await?;
        if let Some(c) = self.clocks.as_mut() {
            let now = Instant::now();
            c.halt(0, now);
            c.halt(1, now);
        }
        self.resigned = Some(side);
        self.state_changed();
        Ok(())
    }

    pub(super) async fn takeback(&mut self) -> Result<(), Failure> {
        self.stop_search().await?;
        let n = flow::takeback_len(&self.lines.actors, self.players);
        if n == 0 {
            self.error("nothing to take back").await;
            return Ok(());
        }
        let keep = self.lines.moves.len() - n;
        self.lines.moves.truncate(keep);
        self.lines.actors.truncate(keep);
        self.lines.reconcile();
        self.after_line_change();
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        self.state_changed();
        Ok(())
    }

    pub(super) async fn load(&mut self, text: &str) -> Result<(), Failure> {
        let record = match Record::parse(text) {
            Ok(r) => r,
            Err(e) => {
                self.error(format!("not a game record: {e}")).await;
                return Ok(());
            }
        };
        let game = record.tag("Game").unwrap_or(&self.game).to_string();
        if !self.games.is_empty() && !self.games.contains(&game) {
            self.error(format!(
                "the record's game '{game}' is not one of this engine's"
            ))
            .await;
            return Ok(());
        }
        let fen = record.tag("FEN").map(str::to_string);
        if fen.as_deref().is_some_and(|f| !request::is_fen_safe(f))
            || !record.moves.iter().all(|m| request::is_token_safe(m))
        {
            self.error("the record has a position string or token that cannot be sent")
                .await;
            return Ok(());
        }
        if let Err(e) = self.set_rules(&game, &record).await? {
            self.error(format!("the record's rules: {e}")).await;
            return Ok(());
        }
        let n = record.moves.len();
        let seed = record.tag("DiceSeed").and_then(|s| s.parse().ok());
        if let Err(e) = self.set_game(game, fen.clone(), record.moves).await? {
            self.error(format!("the record does not replay: {e}")).await;
            return Ok(());
        }
        self.start_text = match fen {
            Some(f) => f,
            None => self.startpos_text().await?,
        };
        // Who acted for each token: the engine's node kind before it.
        self.lines.actors = self.actors_from(0).await?;
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        self.fault = None;
        // The rolls go on as the record's game would have: they depend on the seed and ply.
        if let Some(seed) = seed {
            self.seed = seed;
        }
        self.note(format!("loaded a {} game of {n} tokens", self.game))
            .await;
        self.state_changed();
        Ok(())
    }

    /// The start position's string as the engine writes it under the options set now (the
    /// engine is left at the start position: a `refresh` sets the game's position again).
    async fn startpos_text(&mut self) -> Result<String, Failure> {
        let cmds = ["position startpos".to_string(), "query fen".to_string()];
        let groups = self.exchange(&cmds).await?;
        Ok(answer(&groups[1]).unwrap_or_default())
    }

    /// Sets the rule options of `game` as a record's tags name them: the engine says which
    /// options are the game's rules (`query position`'s `rules`); each is set to its tag,
    /// or to its declared default when the record has none (as `quartet replay` reads it),
    /// and kept for a restarted engine. Error: a value the declaration or the engine
    /// refuses; the options set before it stay.
    async fn set_rules(
        &mut self,
        game: &str,
        record: &Record,
    ) -> Result<Result<(), String>, Failure> {
        let mut ask = Vec::new();
        if !self.games.is_empty() {
            ask.push(format!("setoption name Game value {game}"));
        }
        ask.extend([
            "position startpos".to_string(),
            "query position".to_string(),
        ]);
        let groups = self.exchange(&ask).await?;
        let position = answer(&groups[groups.len() - 1]).unwrap_or_default();
        let rules = serde_json::from_str::<serde_json::Value>(&position)
            .ok()
            .and_then(|p| p["rules"].as_object().cloned())
            .unwrap_or_default();
        for name in rules.keys() {
            let Some(decl) = self.ident.options.iter().find(|o| o.name == *name).cloned() else {
                continue;
            };
            let value = record.tag(name).map(str::to_string).or(decl.default_text());
            let cmd = match decl.setoption(value.as_deref()) {
                Ok(c) => c,
                Err(e) => return Ok(Err(e)),
            };
            let groups = self.exchange(std::slice::from_ref(&cmd)).await?;
            if let Some(e) = error_of(&groups[0]) {
                return Ok(Err(e));
            }
            let prefix = format!("setoption name {} value", decl.name);
            self.set_options.retain(|c| !c.starts_with(&prefix));
            self.set_options.push(cmd);
        }
        Ok(Ok(()))
    }

    pub(super) async fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), Failure> {
        let decl = self
            .ident
            .options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name) && !o.name.eq_ignore_ascii_case("Game"))
            .cloned();
        let Some(decl) = decl else {
            self.error(format!("the engine has no option '{name}' to set here"))
                .await;
            return Ok(());
        };
        let cmd = match decl.setoption(value) {
            Ok(c) => c,
            Err(e) => {
                self.error(e).await;
                return Ok(());
            }
        };
        self.stop_search().await?;
        let groups = self.exchange(std::slice::from_ref(&cmd)).await?;
        if let Some(e) = error_of(&groups[0]) {
            self.error(format!("the engine refused it: {e}")).await;
            return Ok(());
        }
        // A rule option may change what every earlier position looks like.
        self.lines.positions.clear();
        if decl.kind != OptionKind::Button {
            let prefix = format!("setoption name {} value", decl.name);
            self.set_options.retain(|c| !c.starts_with(&prefix));
            self.set_options.push(cmd);
        }
        if self.refresh().await?.is_err() {
            // A rule option changed the position's form: a new game.
            self.lines.moves.clear();
            self.lines.actors.clear();
            self.lines.start_fen = None;
            if let Err(e) = self.refresh().await? {
                return Err(Failure::new(FaultKind::Protocol, e));
            }
            self.start_text = self.fen_now();
            self.lines.clear_variations();
            self.note("the option changes the rules: a new game").await;
        } else if self.lines.start_fen.is_none() {
            // The start position may differ under the option (Ludo's Pieces): the record's
            // FEN tag is the start position as the engine now writes it.
            self.start_text = self.startpos_text().await?;
        }
        self.state_changed();
        Ok(())
    }

    // ---- the record ----------------------------------------------------------------

    /// The game as a record in the `quartet match --pgnout` format: a finished game with
    /// its result (`Termination` normal or repetition, `Reason` the engine's words for the
    /// rule), a game stopped by an engine fault or a clock as lost by that side (crash,
    /// stall, illegal move, time forfeit), and a game under way as `*` (`Termination`
    /// unterminated).
    pub(super) fn record(&self) -> Record {
        let name = |w: Who| match w {
            Who::Human => "Human".to_string(),
            Who::Engine => self.ident.name.clone(),
        };
        let position = self.snap.as_ref().map(|s| &s.position);
        let end = match (&self.snap, self.flagged, self.resigned, &self.fault) {
            (Some(s), ..) if s.node == Node::Over => End::Rules {
                result: s.position["result"].as_str(),
                reason: s.position["reason"].as_str(),
                words: s.position["reason_words"].as_str(),
            },
            (_, Some(side), ..) => End::Flagged(side),
            (_, _, Some(side), _) => End::Resigned(side),
            (.., Some(Fault { failure })) => match failure.side {
                Some(side) => End::Fault(side, failure),
                None => End::Unfinished,
            },
            _ => End::Unfinished,
        };
        // Every rule option as the engine reports it (`query position`'s `rules`), as the
        // referee writes them: `quartet replay` and a later load set them again.
        let rules = position
            .and_then(|p| p["rules"].as_object())
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
            .collect();
        let rolled = self
            .lines
            .actors
            .iter()
            .any(|a| matches!(a, Actor::Roll(_)));
        recording::record(&Facts {
            names: [name(self.players[0]), name(self.players[1])],
            game: &self.game,
            end,
            limit: &self.limit,
            start_text: &self.start_text,
            rules,
            moves: &self.lines.moves,
            dice_seed: rolled.then_some(self.seed),
        })
    }
}
