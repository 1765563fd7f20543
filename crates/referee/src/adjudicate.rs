//! How games end: by the rules, or by the referee when an engine misbehaves.
//!
//! Every ending is a [`Verdict`]: the outcome, a [`Termination`] kind (the PGN `Termination`
//! tag) and a human-readable reason. An engine that plays an illegal move, crashes, loses on
//! time or stalls loses the game; when both engines of a simultaneous turn fail at once, the
//! game is drawn.

use std::fmt;
use std::str::FromStr;

use quartet_core::game::{EndReason, Game, Node, Outcome, Player};
use quartet_core::history::GameHistory;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// The rules ended it (a terminal position).
    Normal,
    /// The third occurrence of a position (the referee keeps the history).
    Repetition,
    /// An engine answered with a token the rules refuse.
    IllegalMove,
    /// An engine exited or closed its pipes.
    Crash,
    /// An engine answered after its time (plus the margin) ran out.
    TimeForfeit,
    /// An engine did not answer at all, even after `stop`.
    Stall,
    /// Another program adjudicated the game (its record's `Adjudicated` tag says why);
    /// Quartet's referee never writes it.
    Adjudicated,
    /// `--resign`: a side's scores said it was lost.
    ResignAdjudication,
    /// `--draw`: both sides' scores said the game was level.
    DrawAdjudication,
    /// `--maxmoves`: the game went on too long.
    MaxMoves,
    /// `--adjudicate exact`: the game's exact solver proved the result.
    ExactAdjudication,
}

impl Termination {
    /// Every kind, in report order.
    pub const ALL: [Termination; 11] = [
        Termination::Normal,
        Termination::Repetition,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::TimeForfeit,
        Termination::Stall,
        Termination::Adjudicated,
        Termination::ResignAdjudication,
        Termination::DrawAdjudication,
        Termination::MaxMoves,
        Termination::ExactAdjudication,
    ];

    /// The tag text: `normal`, `repetition`, `illegal move`, `crash`, `time forfeit`,
    /// `stall`, `adjudicated`, `adjudicated resign`, `adjudicated draw`, `adjudicated max
    /// moves`, `adjudicated exact`.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Repetition => "repetition",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash",
            Termination::TimeForfeit => "time forfeit",
            Termination::Stall => "stall",
            Termination::Adjudicated => "adjudicated",
            Termination::ResignAdjudication => "adjudicated resign",
            Termination::DrawAdjudication => "adjudicated draw",
            Termination::MaxMoves => "adjudicated max moves",
            Termination::ExactAdjudication => "adjudicated exact",
        }
    }

    /// Whether the game ended by the rules (normal end or repetition) rather than by an
    /// adjudication against an engine.
    pub fn by_rules(self) -> bool {
        matches!(self, Termination::Normal | Termination::Repetition)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = String;

    /// Reads the tag text written by [`Termination::as_str`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| format!("unknown termination '{s}'"))
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won, if anybody.
    pub outcome: Outcome,
    /// How the game ended.
    pub termination: Termination,
    /// What happened, for people: for an end by the rules the words the game declares for
    /// it (its [`EndReason`]), for an adjudication what the engine did.
    pub reason: String,
}

/// How the game in `record` has ended by the rules, if it has: a terminal position is a
/// [`Termination::Normal`] end, a third occurrence of a position (which only the history
/// shows, see [`GameHistory::node`]) a [`Termination::Repetition`] draw.
pub fn rules_ending<G: Game>(record: &GameHistory<G>) -> Option<(Outcome, Termination)> {
    rules_verdict(record).map(|v| (v.outcome, v.termination))
}

/// [`rules_ending`] as a verdict, with the reason the game declares for it.
pub fn rules_verdict<G: Game>(record: &GameHistory<G>) -> Option<Verdict> {
    let (outcome, termination, reason) = match (record.node(), record.current().node()) {
        (Node::Terminal(o), Node::Terminal(_)) => {
            (o, Termination::Normal, record.current().end_reason())
        }
        (Node::Terminal(o), _) => (o, Termination::Repetition, Some(EndReason::REPETITION)),
        _ => return None,
    };
    Some(Verdict::rules(outcome, termination, reason))
}

/// One engine's failure on one turn, before it is turned into a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong.
    pub termination: Termination,
    /// The details (the offending token, the times).
    pub reason: String,
}

impl Verdict {
    /// The game ended by the rules with `outcome`.
    /// The game ended by the rules with `outcome`, for the declared `reason` (`None`: a
    /// toy's end, which has no words).
    pub fn rules(outcome: Outcome, termination: Termination, reason: Option<EndReason>) -> Verdict {
        Verdict {
            outcome,
            termination,
            reason: reason.map_or_else(String::new, |r| r.words.to_string()),
        }
    }

    /// The verdict when the engines of `failures` (indexed by [`Player::index`]) failed on
    /// the same turn; `None` if neither did. One failure loses the game; two draw it, with
    /// the first player's kind and both reasons.
    pub fn from_failures(failures: [Option<Failure>; 2], names: [&str; 2]) -> Option<Verdict> {
        match failures {
            [None, None] => None,
            [Some(f), None] => Some(Verdict::forfeit(Player::First, f, names[0])),
            [None, Some(f)] => Some(Verdict::forfeit(Player::Second, f, names[1])),
            [Some(a), Some(b)] => Some(Verdict {
                outcome: Outcome::Draw,
                termination: a.termination,
                reason: format!(
                    "both failed: {} ({}): {}; {} ({}): {}",
                    names[0], a.termination, a.reason, names[1], b.termination, b.reason
                ),
            }),
        }
    }

    fn forfeit(loser: Player, f: Failure, name: &str) -> Verdict {
        Verdict {
            outcome: Outcome::Win(loser.other()),
            termination: f.termination,
            reason: format!("{name}: {}", f.reason),
        }
    }
}

/// Shortens and cleans engine output quoted in a reason: at most 40 characters, control
/// characters replaced, so records stay one line per tag.
pub fn quote(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(t: Termination) -> Failure {
        Failure {
            termination: t,
            reason: "why".to_string(),
        }
    }

    #[test]
    fn termination_text_round_trips() {
        for t in Termination::ALL {
            assert_eq!(t.as_str().parse::<Termination>(), Ok(t));
        }
        assert!("resign".parse::<Termination>().is_err());
        assert!(Termination::Repetition.by_rules());
        assert!(!Termination::Stall.by_rules());
    }

    #[test]
    fn one_failure_loses_two_draw() {
        let names = ["A", "B"];
        assert_eq!(Verdict::from_failures([None, None], names), None);
        let v = Verdict::from_failures([Some(fail(Termination::Crash)), None], names).unwrap();
        assert_eq!(v.outcome, Outcome::Win(Player::Second));
        assert_eq!(v.termination, Termination::Crash);
        assert_eq!(v.reason, "A: why");
        let v = Verdict::from_failures([None, Some(fail(Termination::Stall))], names).unwrap();
        assert_eq!(v.outcome, Outcome::Win(Player::First));
        assert_eq!(v.reason, "B: why");
        let v = Verdict::from_failures(
            [
                Some(fail(Termination::IllegalMove)),
                Some(fail(Termination::TimeForfeit)),
            ],
            names,
        )
        .unwrap();
        assert_eq!(v.outcome, Outcome::Draw);
        assert_eq!(v.termination, Termination::IllegalMove);
        assert!(v.reason.contains("B (time forfeit)"), "{}", v.reason);
    }

    #[test]
    fn rules_endings_tell_repetition_from_a_finished_position() {
        use quartet_core::game::RuleOptions;
        use quartet_core::notation::Notation;
        use quartet_testkit::toys::Nim;
        let play = |tokens: &[&str]| {
            let mut game = GameHistory::new(Nim::start(&RuleOptions::default()));
            for t in tokens {
                let action = game.current().parse_action(t).unwrap();
                game.try_play(action).unwrap();
            }
            rules_ending(&game)
        };
        assert_eq!(play(&["p", "p", "p"]), None);
        // Passes bring the start position back at plies 2 and 4: the third occurrence.
        assert_eq!(
            play(&["p", "p", "p", "p"]),
            Some((Outcome::Draw, Termination::Repetition))
        );
        // Five takes of 3 empty the heap on the first player's move: a win by the rules.
        assert_eq!(
            play(&["t3"; 5]),
            Some((Outcome::Win(Player::First), Termination::Normal))
        );
    }

    #[test]
    fn quote_cuts_and_cleans() {
        assert_eq!(quote("a\tb"), "a?b");
        let long = "x".repeat(50);
        assert_eq!(quote(&long).chars().count(), 41);
    }
}
