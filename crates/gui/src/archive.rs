//! Loading a record into a session (its rules, its start, its tokens and who acted for
//! each, its dice seed and its players' names); the record to download is the core's
//! (`Game::record`).

use quartet_records::{Record, parse_records};

use super::clock_log::ClockLog;
use super::fault::{Failure, FaultKind};
use super::request::{self, echo};
use super::session::Session;

impl Session {
    /// Loads a record's game: its rules, start position and tokens, who acted for each,
    /// and its dice seed. Error to the page (nothing changes): not a record, another
    /// engine's game, a token that cannot be sent, rules or tokens the engine refuses.
    pub(super) async fn load(&mut self, text: &str) -> Result<(), Failure> {
        let record = match first_record(text) {
            Ok(r) => r,
            Err(e) => {
                self.io.error(format!("not a game record: {e}")).await;
                return Ok(());
            }
        };
        let game = record.tag("Game").unwrap_or(&self.game.name).to_string();
        if !self.games.is_empty() && !self.games.contains(&game) {
            self.io
                .error(format!(
                    "the record's game '{}' is not one of this engine's",
                    echo(&game)
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
        let names = [record.tag("White"), record.tag("Black")]
            .map(|n| n.filter(|n| !n.is_empty()).map(echo));
        let seed = record.tag("DiceSeed").and_then(|s| s.parse().ok());
        let clock_log = ClockLog::loaded(record.clocks.clone(), record.tag("TimeControl"));
        if let Err(e) = self.set_game(game, fen.clone(), record.moves).await? {
            self.io
                .error(format!("the record does not replay: {e}"))
                .await;
            return Ok(());
        }
        self.game.start_text = match fen {
            Some(f) => f,
            None => self.io.fen_at("position startpos".to_string()).await?,
        };
        // Who acted for each token: the engine's node kind before it.
        self.game.lines.actors = self.io.actors(self.game.lines.commands_from(0)).await?;
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        // The position before the last token, for the page to mark what it captured.
        self.before(None, n).await?;
        self.game.fault = None;
        // The rolls go on as the record's game would have: they depend on the seed and ply.
        if let Some(seed) = seed {
            self.game.seed = seed;
        }
        // Its clock readings too, for the move-time chart and the records saved.
        self.game.clock_log = clock_log;
        // Its players' names stay with it (a person's side is "Human" anyway).
        self.game.names = names;
        self.io
            .note(format!("loaded a {} game of {n} tokens", self.game.name))
            .await;
        self.state_changed();
        Ok(())
    }
}

/// The first record of `text` (as `quartet replay` reads records: [`parse_records`]), with
/// a result (`1-0`, `0-1`, `1/2-1/2`, or `*` for a game under way) as its last word. Error:
/// said for people, with the line number where there is one.
fn first_record(text: &str) -> Result<Record, String> {
    let record = parse_records(text)
        .map_err(|e| e.to_string())?
        .into_iter()
        .next()
        .ok_or("no record (no tags, no moves)")?;
    if !matches!(record.result.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Err(format!(
            "'{}' is not a result (1-0, 0-1, 1/2-1/2, *)",
            record.result
        ));
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::first_record;

    #[test]
    fn the_first_record_is_loaded_and_its_last_word_must_be_a_result() {
        let two = "[Game \"duell\"]\n\nd1d7 {[%clk 0:00:09]} e8e7 *\n\n[Game \"duell\"]\n\nc 0-1\n";
        let r = first_record(two).unwrap();
        assert_eq!(
            (r.moves.len(), r.clocks.as_slice()),
            (2, &[vec![9_000]][..])
        );
        let err = first_record("[Game \"duell\"]\n\nd1d7 d8d2\n").unwrap_err();
        assert!(err.contains("'d8d2' is not a result"), "{err}");
        assert!(
            first_record("[Game duell]\n")
                .unwrap_err()
                .starts_with("line 1")
        );
        assert!(first_record("\n").is_err());
    }
}
