//! The engine options a person sets on the page, and the rule options a record names;
//! each is kept for a restarted engine.

use quartet_records::Record;

use super::answers::{answer, error_of};
use super::fault::{Failure, FaultKind};
use super::limits::{check_file, names_a_file};
use super::request::echo;
use super::session::Session;
use super::uci::OptionKind;

impl Session {
    /// Sets the rule options of `game` as a record's tags name them: the engine says which
    /// options are the game's rules (`query position`'s `rules`); each is set to its tag,
    /// or to its declared default when the record has none (as `quartet replay` reads it),
    /// and kept for a restarted engine. Error: a value the declaration or the engine
    /// refuses; the options set before it stay.
    pub(super) async fn set_rules(
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
        let groups = self.io.exchange(&ask).await?;
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
            let groups = self.io.exchange(std::slice::from_ref(&cmd)).await?;
            if let Some(e) = error_of(&groups[0]) {
                return Ok(Err(e));
            }
            let prefix = format!("setoption name {} value", decl.name);
            self.set_options.retain(|c| !c.starts_with(&prefix));
            self.set_options.push(cmd);
        }
        Ok(Ok(()))
    }

    /// Sets engine option `name` to `value` (a button: pressed). A rule option that
    /// changes the position's form starts a new game. Error to the page: no such option
    /// (the game is chosen by a new game), a value the declaration or the engine refuses.
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
            self.io
                .error(format!(
                    "the engine has no option '{}' to set here",
                    echo(name)
                ))
                .await;
            return Ok(());
        };
        let checked = decl.setoption(value).and_then(|cmd| {
            if names_a_file(&decl) {
                check_file(value.unwrap_or_default())
                    .map_err(|e| format!("option {}: {e}", decl.name))?;
            }
            Ok(cmd)
        });
        let cmd = match checked {
            Ok(c) => c,
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
        };
        self.stop_search().await?;
        let groups = self.io.exchange(std::slice::from_ref(&cmd)).await?;
        if let Some(e) = error_of(&groups[0]) {
            self.io.error(format!("the engine refused it: {e}")).await;
            return Ok(());
        }
        // A rule option may change what every earlier position looks like, and what the
        // review found.
        self.game.lines.positions.clear();
        let rule = self
            .rules
            .get(&self.game.name)
            .and_then(|r| r.as_array())
            .is_some_and(|r| r.iter().any(|n| n == decl.name.as_str()));
        if rule {
            self.game.review = None;
        }
        if decl.kind != OptionKind::Button {
            let prefix = format!("setoption name {} value", decl.name);
            self.set_options.retain(|c| !c.starts_with(&prefix));
            self.set_options.push(cmd);
        }
        if self.refresh().await?.is_err() {
            // A rule option changed the position's form: a new game.
            self.game.lines.moves.clear();
            self.game.lines.actors.clear();
            self.game.lines.start_fen = None;
            if let Err(e) = self.refresh().await? {
                return Err(Failure::new(FaultKind::Protocol, e));
            }
            self.game.start_text = self.game.fen_now();
            self.game.lines.clear_variations();
            self.io
                .note("the option changes the rules: a new game")
                .await;
        } else if self.game.lines.start_fen.is_none() {
            // The start position may differ under the option (Ludo's Pieces): the record's
            // FEN tag is the start position as the engine now writes it.
            self.game.start_text = self.io.fen_at("position startpos".to_string()).await?;
        }
        self.state_changed();
        Ok(())
    }
}
