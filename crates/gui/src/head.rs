//! The game's head (the position the game goes on from) as the engine describes it: the
//! session sets the engine there and keeps its answers (`snapshot::Snapshot`) and the position
//! for stepping back later.

use super::fault::Failure;
use super::flow::Node;
use super::session::Session;
use super::snapshot::legal_queries;

impl Session {
    /// Sets the engine to the game's position and reads its description and legal moves
    /// into `snap` (and the position into the main line's positions). The inner error: the
    /// engine refused the position (nothing changed).
    pub(super) async fn refresh(&mut self) -> Result<Result<(), String>, Failure> {
        let guess = self.likely_legal_queries();
        let command = self
            .game
            .lines
            .position_command(self.game.lines.moves.len());
        let snap = match self.io.describe(command, &guess, &self.game.name).await? {
            Ok(s) => s,
            Err(e) => return Ok(Err(e)),
        };
        self.game.lines.keep_head(snap.position.clone());
        self.game.snap = Some(snap);
        Ok(Ok(()))
    }

    /// The legal move queries the next position most likely needs: those of the current
    /// position's node kind, when it is a position of this game still under way (a game
    /// keeps its kind of turns); none otherwise.
    fn likely_legal_queries(&self) -> Vec<String> {
        match &self.game.snap {
            Some(s) if s.node != Node::Over && s.game == self.game.name => legal_queries(s.node),
            _ => Vec::new(),
        }
    }
}
