//! A session's engine process from start to end: starting it (the `uci` handshake, the
//! options the person set, the game) and stopping the game when it fails.

use std::time::{Duration, Instant};

use serde_json::json;

use super::answers::answer;
use super::engine::Engine;
use super::fault::{Failure, FaultKind};
use super::game::Fault;
use super::limits::{cap_hash, hash_over_cap};
use super::session::{Ident, Session};
use super::uci::{self, OptionDecl, OptionKind};

/// How long an engine may take to answer `uci`.
const HANDSHAKE_WAIT: Duration = Duration::from_secs(10);

impl Session {
    /// Starts a new engine process, reads its `id` and `option` lines, sends again the
    /// options the person set, and sets it to the game.
    pub(super) async fn start_engine(&mut self) -> Result<(), Failure> {
        if let Some(e) = self.io.engine.take() {
            e.shutdown(Duration::from_millis(300)).await;
        }
        self.io.generation += 1;
        let engine = Engine::spawn(
            &self.config.engine,
            self.io.generation,
            self.io.events_tx.clone(),
        )
        .map_err(|e| Failure::new(FaultKind::Crash, e))?;
        self.io.console(
            '#',
            &format!(
                "started {} (pid {})",
                self.config.engine.display(),
                engine.pid.map_or("?".to_string(), |p| p.to_string())
            ),
        );
        self.io.engine = Some(engine);
        self.game.search = None;
        self.io.send_engine("uci").await?;
        let mut ident = Ident::default();
        let mut lower = Vec::new();
        loop {
            let line = self.io.next_line(HANDSHAKE_WAIT).await?;
            if line == "uciok" {
                break;
            }
            if let Some(n) = line.strip_prefix("id name ") {
                ident.name = n.trim().to_string();
            } else if let Some(a) = line.strip_prefix("id author ") {
                ident.author = a.trim().to_string();
            } else if let Some(o) = uci::parse_option(&line) {
                lower.extend(hash_over_cap(&o, self.config.hash_cap));
                ident.options.push(cap_hash(o, self.config.hash_cap));
            }
        }
        self.games = match ident.options.iter().find(|o| o.name == "Game") {
            Some(OptionDecl {
                kind: OptionKind::Combo { vars, default },
                ..
            }) => {
                if self.game.name.is_empty() {
                    self.game.name = default.clone();
                }
                vars.clone()
            }
            _ => Vec::new(),
        };
        if ident.name.is_empty() {
            ident.name = "engine".to_string();
        }
        self.ident = ident;
        self.rules = self.game_rules().await?;
        // The page learns the engine's name and options before the first position, so that
        // an engine that cannot give one is named in the message about it.
        self.send_hello().await;
        let mut cmds = lower;
        // The winning chances drawn come from `wdl`, which an engine gives only when asked
        // (`UCI_ShowWDL`, as in Stockfish); a person's own setting comes after this.
        if self.ident.options.iter().any(|o| o.name == "UCI_ShowWDL") {
            cmds.push("setoption name UCI_ShowWDL value true".to_string());
        }
        cmds.extend(self.set_options.iter().cloned());
        if !self.games.is_empty() {
            cmds.push(format!("setoption name Game value {}", self.game.name));
        }
        cmds.push("ucinewgame".to_string());
        self.io.exchange(&cmds).await?;
        let first = self.refresh().await.map_err(|mut f| {
            f.detail = format!(
                "{}. quartet gui needs an engine that answers uci, isready, setoption, \
                 position, go and stop, and the queries 'query position', 'query \
                 legalmoves' and, in a game with chance nodes, 'query chance' (protocol.md, \
                 'query'; README, 'The engine a GUI needs')",
                f.detail
            );
            f
        })?;
        if let Err(e) = first {
            self.io
                .note(format!(
                    "the game could not be set up again ({e}): a new game"
                ))
                .await;
            self.game.lines.moves.clear();
            self.game.lines.actors.clear();
            self.game.lines.start_fen = None;
            if let Err(e) = self.refresh().await? {
                return Err(Failure::new(FaultKind::Protocol, e));
            }
        }
        if self.game.lines.moves.is_empty() {
            self.game.start_text = self.game.fen_now();
        }
        Ok(())
    }

    /// Stops the game on an engine failure: the game so far stays, the page is told, and a
    /// crashed or hanging engine is ended (a restart starts a new one).
    pub(super) async fn fail(&mut self, mut f: Failure) {
        if f.side.is_none() {
            f.side = self.game.search.as_ref().and_then(|s| s.purpose.side());
        }
        self.game.search = None;
        if f.kind != FaultKind::Illegal
            && let Some(e) = self.io.engine.take()
        {
            e.shutdown(Duration::from_millis(200)).await;
        }
        self.game.halt_clocks(Instant::now());
        self.io
            .console('#', &format!("engine fault ({:?}): {}", f.kind, f.detail));
        self.io.send(json!({"t": "fault", "fault": f})).await;
        self.game.fault = Some(Fault { failure: f });
        self.state_changed();
    }

    /// Each of the engine's games' rule options: the keys of `rules` in `query position` of
    /// its start (the page shows a game's own rules only, issue 39 §2). Unknown (empty)
    /// for an engine that gives none.
    async fn game_rules(&mut self) -> Result<serde_json::Map<String, serde_json::Value>, Failure> {
        let games = if self.games.is_empty() {
            vec![String::new()]
        } else {
            self.games.clone()
        };
        let mut cmds = Vec::new();
        let mut queries = Vec::new();
        for g in &games {
            if !g.is_empty() {
                cmds.push(format!("setoption name Game value {g}"));
            }
            cmds.push("position startpos".to_string());
            queries.push(cmds.len());
            cmds.push("query position".to_string());
        }
        let groups = self.io.exchange(&cmds).await?;
        let mut rules = serde_json::Map::new();
        for (g, &at) in games.iter().zip(&queries) {
            let names: Vec<String> = answer(&groups[at])
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|p| p["rules"].as_object().map(|r| r.keys().cloned().collect()))
                .unwrap_or_default();
            rules.insert(g.clone(), json!(names));
        }
        Ok(rules)
    }
}
