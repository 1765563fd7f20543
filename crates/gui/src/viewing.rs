//! What a session does when its page looks back at the game (issue 22 §3): showing an
//! earlier position of the main line or of a variation, a person's move or roll there
//! (which plays into a variation, `variations`), and promoting or deleting a variation.
//! What is shown and where a move goes is decided by `lines::Lines`; this asks the engine
//! and tells the page.

use std::time::Instant;

use serde_json::{Value, json};

use super::dice::roll_at;
use super::fault::{Failure, FaultKind};
use super::flow::Purpose;
use super::lines::ViewPlan;
use super::request::echo;
use super::session::Session;
use super::variations::ViewMoves;

/// Why no variation can be played now.
const BUSY: &str = "a variation can be played once the engine has moved";

impl Session {
    /// Whether the engine runs a search that is not analysis (a move, a declaration): it
    /// cannot be asked about another position meanwhile, and no analysis stops for a view.
    pub(super) fn engine_busy(&self) -> bool {
        self.game
            .search
            .as_ref()
            .is_some_and(|s| !matches!(s.purpose, Purpose::Analysis(_)))
    }

    /// Sends the page the position after `ply` tokens of the main line (`line` `None`) or
    /// of a variation, with its legal moves at a side's move (a person may play one there,
    /// which starts or extends a variation): from what the game has seen, else asked of
    /// the engine (not while it searches for a move or reviews: the position is then shown
    /// without legal moves). Analysis is stopped and starts again where the page looks.
    /// Error to the page (`Lines::plan_view`): no such line or ply; a position not yet
    /// seen while the engine is busy.
    pub(super) async fn view_line(
        &mut self,
        line: Option<usize>,
        ply: usize,
    ) -> Result<(), Failure> {
        let (line, plan) = match self.game.lines.plan_view(line, ply, self.engine_busy()) {
            Ok(p) => p,
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
        };
        self.stop_analysis().await?;
        let (position, moves) = match plan {
            ViewPlan::Head => {
                self.game.lines.look_at_head();
                self.state_changed();
                return Ok(());
            }
            ViewPlan::Seen(p) => (p, ViewMoves::default()),
            ViewPlan::Ask(command) => self.io.ask_position(command).await?,
        };
        let (legal, legal_side) = moves.json();
        self.game.lines.look_at(line, ply, position.clone(), moves);
        let before = self.before(line, ply).await?;
        self.state_changed();
        let view = json!({"t": "view", "ply": ply, "line": line, "position": position,
            "legal": legal, "legal_side": legal_side, "before": before});
        self.io.send(view).await;
        Ok(())
    }

    /// The position before the last token to ply `ply` of `line` (`None`: the main line),
    /// so that the page can mark what that token captured even when it has not seen it (a
    /// record just loaded): seen already, else asked of the engine (`null` at the start,
    /// or while the engine is busy with its search).
    pub(super) async fn before(
        &mut self,
        line: Option<usize>,
        ply: usize,
    ) -> Result<Value, Failure> {
        let Some(b) = ply.checked_sub(1) else {
            return Ok(Value::Null);
        };
        if let Some(p) = self.game.lines.seen(line, b) {
            return Ok(p.clone());
        }
        if self.engine_busy() {
            return Ok(Value::Null);
        }
        let position = self
            .io
            .position_at(self.game.lines.line_command(line, b))
            .await?;
        self.game.lines.keep(line, b, position.clone());
        Ok(position)
    }

    /// Sends the page the position after `ply` tokens of the main line (`view_line`).
    pub(super) async fn view(&mut self, ply: usize) -> Result<(), Failure> {
        self.view_line(None, ply).await
    }

    /// A person's move at the position looked at (`viewing`): one of that position's legal
    /// moves, played into a variation (or along the main line, when it is the main line's
    /// own next move), which the page is then shown. Nothing changes on a refusal.
    pub(super) async fn variation_move(
        &mut self,
        ply: usize,
        token: String,
    ) -> Result<(), Failure> {
        if !self.game.lines.view_legal.allows(&token) {
            self.io
                .error(format!(
                    "'{}' is not a legal move in the position shown (at a simultaneous \
                     turn a variation takes both sides' declarations, <first>/<second>)",
                    echo(&token)
                ))
                .await;
            return Ok(());
        }
        if self.engine_busy() {
            self.io.error(BUSY).await;
            return Ok(());
        }
        match self.game.lines.play_at(ply, token) {
            Ok(line) => self.view_line(line, ply + 1).await,
            Err(e) => {
                self.io.error(e).await;
                Ok(())
            }
        }
    }

    /// A person's roll at the position looked at, a chance node: the server's die for that
    /// ply (as the main line's would be, from the outcomes `query chance` lists there),
    /// played into a variation as a move is. Error to the page: the position shown is not a
    /// chance node, or the engine is busy with its own search.
    pub(super) async fn variation_roll(&mut self, ply: usize) -> Result<(), Failure> {
        if self
            .game
            .lines
            .viewed()
            .is_none_or(|(_, p)| p["node"] != "chance")
        {
            self.io
                .error("no roll is awaited at the position shown")
                .await;
            return Ok(());
        }
        if self.engine_busy() {
            self.io.error(BUSY).await;
            return Ok(());
        }
        let Some(tokens) = self.game.lines.line_tokens().get(..ply) else {
            self.io
                .error("the position shown is not in the game any more")
                .await;
            return Ok(());
        };
        let command = self.game.lines.tokens_command(tokens);
        let outcomes = self.io.chance_at(command).await?;
        let Some(token) = roll_at(self.game.seed, ply, &outcomes) else {
            return Err(Failure::new(
                FaultKind::Protocol,
                "the engine lists no outcome with a weight at this chance node (query chance)",
            ));
        };
        self.variation_move(ply, token.to_string()).await
    }

    /// Makes variation `i` the main line: the game goes on from its end (an engine to move
    /// there moves), the old main line is kept as a variation, and the page looks at the
    /// game's end. Error to the page: no variation `i`.
    pub(super) async fn promote_line(&mut self, i: usize) -> Result<(), Failure> {
        if i >= self.game.lines.variations.len() {
            self.io.error(format!("there is no variation {i}")).await;
            return Ok(());
        }
        self.stop_search().await?;
        let fork = match self.game.lines.promote(i) {
            Ok(f) => f,
            Err(e) => {
                self.io.error(e).await;
                return Ok(());
            }
        };
        let rest = self.io.actors(self.game.lines.commands_from(fork)).await?;
        self.game.lines.actors.extend(rest);
        self.game.after_line_change(fork, Instant::now());
        self.send_review_log().await;
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        self.io.note("the variation is the main line now").await;
        self.state_changed();
        Ok(())
    }

    /// Deletes variation `i`; looking at it, the page is shown the main line where it left.
    pub(super) async fn delete_line(&mut self, i: usize) -> Result<(), Failure> {
        if i >= self.game.lines.variations.len() {
            self.io.error(format!("there is no variation {i}")).await;
            return Ok(());
        }
        let gone = self.game.lines.variations.remove(i);
        match self.game.lines.line {
            Some(j) if j == i => {
                self.game.lines.line = None;
                self.stop_analysis().await?;
                return self.view(gone.fork).await;
            }
            Some(j) if j > i => self.game.lines.line = Some(j - 1),
            _ => {}
        }
        self.state_changed();
        Ok(())
    }
}
