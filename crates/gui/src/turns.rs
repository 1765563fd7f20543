//! A session's game flow: what the game waits for, starting the engine's or the dice's
//! part of it, playing tokens, the server's rolls, and the reveal of a simultaneous turn.
//! What to start and what a refusal changes are decided by `decide`'s functions.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use super::decide::{Step, refused_joint, step};
use super::fault::{Failure, FaultKind};
use super::flow::{self, Actor, Next, Side};
use super::session::{Purpose, Session};

impl Session {
    /// What the game waits for now (nothing once it is over or a clock has run out).
    pub(super) fn next(&self) -> Next {
        match (&self.snap, self.flagged.or(self.resigned)) {
            (Some(s), None) => flow::next(
                s.node,
                self.players,
                [self.declared[0].is_some(), self.declared[1].is_some()],
            ),
            _ => Next::Nothing,
        }
    }

    /// Starts whatever the game waits for from the engine or the dice, or analysis
    /// (`decide::step`). Returns whether it started something.
    pub(super) async fn advance(&mut self) -> Result<bool, Failure> {
        if self.io.closed
            || self.io.engine.is_none()
            || self.fault.is_some()
            || self.search.is_some()
        {
            return Ok(false);
        }
        if self.review_next().await? {
            return Ok(true);
        }
        let now = Instant::now();
        let pausing = self.wake.is_some_and(|w| w > now);
        let viewed = self.lines.viewed().map(|(_, p)| p);
        let step = step(self.next(), self.analyse, viewed, self.paused, pausing);
        if let Step::Person(s) | Step::Analyse(s, _) = step
            && let Some(c) = self.clocks.as_mut()
        {
            c.start(s.index(), now);
        }
        match step {
            Step::Wait | Step::Person(_) => return Ok(false),
            Step::Analyse(_, side) => self.start_go(Purpose::Analysis(side)).await?,
            Step::Resolve => self.resolve().await?,
            Step::Go(purpose) => {
                self.wake = None;
                self.start_go(purpose).await?;
            }
            Step::Roll(s) => {
                self.wake = None;
                self.roll(s).await?;
                self.wake = Some(Instant::now() + self.delay);
            }
        }
        Ok(true)
    }

    /// Charges side `s`'s clock for a decision now; false when its time had run out.
    pub(super) fn charge(&mut self, s: Side) -> bool {
        match self.clocks.as_mut() {
            Some(c) => c.decided(s.index(), Instant::now()),
            None => true,
        }
    }

    /// Plays `token` on the game (the engine accepted it in its legal list before).
    pub(super) async fn play(&mut self, token: String, actor: Actor) -> Result<(), Failure> {
        self.lines.moves.push(token);
        self.lines.actors.push(actor);
        if !matches!(actor, Actor::Joint) {
            self.reveal = None;
        }
        if let Err(e) = self.refresh().await? {
            self.lines.moves.pop();
            self.lines.actors.pop();
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
        let outcomes = self.snap.as_ref().map_or(&[][..], |s| &s.chance[..]);
        let Some(token) = roll_at(self.seed, self.lines.moves.len(), outcomes).map(String::from)
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
        let (Some(w), Some(b)) = (self.declared[0].clone(), self.declared[1].clone()) else {
            return Ok(());
        };
        let Some(snap) = self.snap.clone() else {
            return Ok(());
        };
        let void = [
            !snap.legal_side[0].contains(&w),
            !snap.legal_side[1].contains(&b),
        ];
        self.lines.moves.push(format!("{w}/{b}"));
        self.lines.actors.push(Actor::Joint);
        match self.refresh().await? {
            Ok(()) => {
                self.reveal = Some(json!({
                    "w": w, "b": b, "void": void,
                    "before": snap.position,
                }));
                self.declared = [None, None];
                self.wake = Some(Instant::now() + self.delay);
                self.state_changed();
            }
            Err(e) => {
                // The engine refused the joint turn: it changes nothing (`refused_joint`).
                self.lines.moves.pop();
                self.lines.actors.pop();
                if let Err(e2) = self.refresh().await? {
                    return Err(Failure::new(FaultKind::Protocol, e2));
                }
                let refusal = refused_joint([&w, &b], void, self.players, &e);
                for (side, message) in refusal.dropped {
                    self.declared[side.index()] = None;
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

/// The outcome drawn at ply `ply` of a game with dice seed `seed` from a chance node's
/// `outcomes` and their weights: ChaCha8 stream number `ply` of the seed picks each with
/// probability its weight over their sum. `None` when no outcome has a weight.
pub fn roll_at(seed: u64, ply: usize, outcomes: &[(String, u32)]) -> Option<&str> {
    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(ply as u64);
    let mut pick = rng.random_range(0..total);
    outcomes.iter().find_map(|(token, w)| {
        let here = pick < u64::from(*w);
        pick = pick.saturating_sub(u64::from(*w));
        here.then_some(token.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::roll_at;

    fn die(weights: [u32; 6]) -> Vec<(String, u32)> {
        (1..=6).map(|f| format!("r{f}")).zip(weights).collect()
    }

    #[test]
    fn a_roll_is_a_function_of_the_seed_and_the_ply_and_looks_fair() {
        let fair = die([1; 6]);
        assert_eq!(roll_at(7, 12, &fair), roll_at(7, 12, &fair));
        let mut counts = [0usize; 6];
        for ply in 0..6000 {
            let token = roll_at(7, ply, &fair).expect("a roll");
            counts[fair.iter().position(|(t, _)| t == token).expect("listed")] += 1;
        }
        // Each face 1000 +- 5 sigma (sigma ~ 29).
        assert!(
            counts.iter().all(|&c| (855..=1145).contains(&c)),
            "{counts:?}"
        );
        let other: Vec<_> = (0..20).map(|p| roll_at(8, p, &fair)).collect();
        let this: Vec<_> = (0..20).map(|p| roll_at(7, p, &fair)).collect();
        assert_ne!(this, other, "the seed matters");
    }

    #[test]
    fn a_roll_follows_the_weights_the_engine_lists() {
        // Weight 0 is never drawn; weight 3 of 4 about three times in four.
        let loaded = die([0, 0, 0, 0, 1, 3]);
        let sixes = (0..4000)
            .filter(|&p| roll_at(3, p, &loaded) == Some("r6"))
            .count();
        assert!((0..4000).all(|p| roll_at(3, p, &loaded) != Some("r1")));
        assert!((2850..=3150).contains(&sixes), "{sixes}");
        assert_eq!(roll_at(3, 0, &die([0; 6])), None);
        assert_eq!(roll_at(3, 0, &[]), None);
    }
}
