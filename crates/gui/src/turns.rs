//! A session's game flow: what the game waits for, starting the engine's or the dice's
//! part of it, playing tokens, the server's rolls, and the reveal of a simultaneous turn.
//! What to start and what a refusal changes are decided by `decide`'s functions.

use std::time::Instant;

use serde_json::json;

use super::decide::{Step, refused_joint};
use super::dice::roll_at;
use super::fault::{Failure, FaultKind};
use super::flow::{Actor, Purpose, Side};
use super::session::Session;

impl Session {
    /// Starts whatever the game waits for from the engine or the dice, or analysis
    /// (`Game::step`), and keeps the review's run in step (`review_step`). Returns whether
    /// it started something.
    pub(super) async fn advance(&mut self) -> Result<bool, Failure> {
        if self.io.closed || self.io.engine.is_none() || self.game.fault.is_some() {
            return Ok(false);
        }
        if self.game.search.is_some() {
            return Ok(false);
        }
        self.review_step();
        let now = Instant::now();
        let step = self.game.step(now);
        if let Step::Person(s) | Step::Analyse { clock: Some(s), .. } = step
            && let Some(c) = self.game.clocks.as_mut()
        {
            c.start(s.index(), now);
        }
        match step {
            Step::Wait | Step::Person(_) => return Ok(false),
            Step::Analyse { side, .. } => self.start_go(Purpose::Analysis(side)).await?,
            Step::Resolve => self.resolve().await?,
            Step::Go(purpose) => {
                self.game.wake = None;
                self.start_go(purpose).await?;
            }
            Step::Roll(s) => {
                self.game.wake = None;
                self.roll(s).await?;
                self.game.wake = Some(Instant::now() + self.game.delay);
            }
        }
        Ok(true)
    }

    /// Plays `token` on the game (the engine accepted it in its legal list before).
    pub(super) async fn play(&mut self, token: String, actor: Actor) -> Result<(), Failure> {
        self.game.clock_log.played(self.game.lines.moves.len());
        self.game.lines.moves.push(token);
        self.game.lines.actors.push(actor);
        if !matches!(actor, Actor::Joint) {
            self.game.reveal = None;
        }
        if let Err(e) = self.refresh().await? {
            self.game.lines.moves.pop();
            self.game.lines.actors.pop();
            self.game.clock_log.unplayed(self.game.lines.moves.len());
            return Err(Failure::new(
                FaultKind::Protocol,
                format!("the engine refused a token of its own legal list: {e}"),
            ));
        }
        Ok(())
    }

    /// The server rolls the die for `side`: an outcome of the chance node as the engine
    /// listed it with its weights (`query chance`), drawn as a function of the seed and the
    /// ply (so that a take back and the same decisions again give the same rolls: no
    /// fishing).
    pub(super) async fn roll(&mut self, side: Side) -> Result<(), Failure> {
        let outcomes = self.game.snap.as_ref().map_or(&[][..], |s| &s.chance[..]);
        let Some(token) =
            roll_at(self.game.seed, self.game.lines.moves.len(), outcomes).map(String::from)
        else {
            return Err(Failure::new(
                FaultKind::Protocol,
                "the engine lists no outcome with a weight at this chance node (query chance)",
            ));
        };
        self.play(token, Actor::Roll(side)).await?;
        self.state_changed();
        Ok(())
    }

    /// Reveals and resolves a simultaneous turn once both sides have declared.
    pub(super) async fn resolve(&mut self) -> Result<(), Failure> {
        let (Some(w), Some(b)) = (self.game.declared[0].clone(), self.game.declared[1].clone())
        else {
            return Ok(());
        };
        let Some(snap) = self.game.snap.clone() else {
            return Ok(());
        };
        let void = [
            !snap.legal_side[0].contains(&w),
            !snap.legal_side[1].contains(&b),
        ];
        self.game.clock_log.played(self.game.lines.moves.len());
        self.game.lines.moves.push(format!("{w}/{b}"));
        self.game.lines.actors.push(Actor::Joint);
        match self.refresh().await? {
            Ok(()) => {
                self.game.reveal = Some(json!({
                    "w": w, "b": b, "void": void,
                    "before": snap.position,
                }));
                self.game.declared = [None, None];
                self.game.wake = Some(Instant::now() + self.game.delay);
                self.state_changed();
            }
            Err(e) => {
                // The engine refused the joint turn: it changes nothing (`refused_joint`).
                self.game.lines.moves.pop();
                self.game.lines.actors.pop();
                self.game.clock_log.unplayed(self.game.lines.moves.len());
                if let Err(e2) = self.refresh().await? {
                    return Err(Failure::new(FaultKind::Protocol, e2));
                }
                let refusal = refused_joint([&w, &b], void, self.game.players, &e);
                for (side, message) in refusal.dropped {
                    self.game.declared[side.index()] = None;
                    self.io.error(message).await;
                }
                if let Some(f) = refusal.fault {
                    return Err(f);
                }
                self.state_changed();
            }
        }
        Ok(())
    }
}
