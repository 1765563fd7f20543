//! A session's game as a record and back: the record to download (`quartet match
//! --pgnout`'s format, with the rule options and the dice seed), and loading one (its
//! rules, its start, its tokens and who acted for each).

use super::fault::{Failure, FaultKind};
use super::flow::{Actor, Node};
use super::record::Record;
use super::recording::{self, End, Facts};
use super::request::{self, Who};
use super::session::{Fault, Session};

impl Session {
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

    /// Loads a record's game: its rules, start position and tokens, who acted for each,
    /// and its dice seed. Error to the page (nothing changes): not a record, another
    /// engine's game, a token that cannot be sent, rules or tokens the engine refuses.
    pub(super) async fn load(&mut self, text: &str) -> Result<(), Failure> {
        let record = match Record::parse(text) {
            Ok(r) => r,
            Err(e) => {
                self.io.error(format!("not a game record: {e}")).await;
                return Ok(());
            }
        };
        let game = record.tag("Game").unwrap_or(&self.game).to_string();
        if !self.games.is_empty() && !self.games.contains(&game) {
            self.io
                .error(format!(
                    "the record's game '{game}' is not one of this engine's"
                ))
                .await;
            return Ok(());
        }
        let fen = record.tag("FEN").map(str::to_string);
        if fen.as_deref().is_some_and(|f| !request::is_fen_safe(f))
            || !record.moves.iter().all(|m| request::is_token_safe(m))
        {
            self.io
                .error("the record has a position string or token that cannot be sent")
                .await;
            return Ok(());
        }
        if let Err(e) = self.set_rules(&game, &record).await? {
            self.io.error(format!("the record's rules: {e}")).await;
            return Ok(());
        }
        let n = record.moves.len();
        let seed = record.tag("DiceSeed").and_then(|s| s.parse().ok());
        if let Err(e) = self.set_game(game, fen.clone(), record.moves).await? {
            self.io
                .error(format!("the record does not replay: {e}"))
                .await;
            return Ok(());
        }
        self.start_text = match fen {
            Some(f) => f,
            None => self.io.fen_at("position startpos".to_string()).await?,
        };
        // Who acted for each token: the engine's node kind before it.
        self.lines.actors = self.io.actors(self.lines.commands_from(0)).await?;
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        // The position before the last token, for the page to mark what it captured.
        self.before(None, n).await?;
        self.fault = None;
        // The rolls go on as the record's game would have: they depend on the seed and ply.
        if let Some(seed) = seed {
            self.seed = seed;
        }
        self.io
            .note(format!("loaded a {} game of {n} tokens", self.game))
            .await;
        self.state_changed();
        Ok(())
    }
}
