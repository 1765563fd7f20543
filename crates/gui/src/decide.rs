//! The session's decisions, as plain functions of its state that the tests reach without a
//! socket or an engine: what the loop starts next (`step`), what a person's move at the
//! game's head is (`head_move`), and what an engine's refusal of a joint turn changes
//! (`refused_joint`). The session (`turns`, `actions`) carries them out.

use serde_json::Value;

use super::fault::{Failure, FaultKind};
use super::flow::{Next, Purpose, Side};
use super::request::echo;
use super::request::{self, Who};

/// What the session's loop starts next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing now (the game is over, or an engine's action waits: paused, or its pause
    /// after the last action has not run out).
    Wait,
    /// A person is to act: their clock runs, and nothing else starts.
    Person(Side),
    /// The engine analyses the position shown (for the side `side` at a simultaneous
    /// turn), while the person `clock` (if one is to act) thinks, their clock running.
    Analyse {
        /// The person to act, whose clock runs meanwhile.
        clock: Option<Side>,
        /// The side analysed at a simultaneous turn.
        side: Option<Side>,
    },
    /// Both sides have declared: reveal and resolve the turn.
    Resolve,
    /// The engine's search for its move or declaration.
    Go(Purpose),
    /// The server rolls for the engine's side.
    Roll(Side),
}

/// The step for what the game waits for (`next`). The engine's own action comes first
/// (unless `paused`; nothing starts while `pausing`, the pause after its last action).
/// Otherwise (a person to act, the game over, engines paused) the engine analyses the
/// position `shown` when `analyse` is asked for and that position is not finished (issue
/// 39 §1.3: analysis runs on whatever position is shown, a finished game's too). `viewing`:
/// the position shown is an earlier one; at the head of a simultaneous turn the analysis is
/// for the person declaring, elsewhere for the first player.
pub fn step(
    next: Next,
    analyse: bool,
    shown: Option<&Value>,
    viewing: bool,
    paused: bool,
    pausing: bool,
) -> Step {
    let person = match next {
        Next::HumanMove(s) | Next::HumanRoll(s) | Next::HumanDeclare(s) => Some(s),
        _ => None,
    };
    match next {
        Next::Resolve => return Step::Resolve,
        Next::EngineMove(_) | Next::EngineRoll(_) | Next::EngineDeclare(_) if pausing => {
            return Step::Wait;
        }
        Next::EngineMove(s) if !paused => return Step::Go(Purpose::Move(s)),
        Next::EngineDeclare(s) if !paused => return Step::Go(Purpose::Declare(s)),
        Next::EngineRoll(s) if !paused => return Step::Roll(s),
        _ => {}
    }
    if analyse {
        match shown.and_then(|p| p["node"].as_str()) {
            Some("over") | None => {}
            Some("simultaneous") => {
                let side = match next {
                    Next::HumanDeclare(s) if !viewing => s,
                    _ => Side::P1,
                };
                return Step::Analyse {
                    clock: person,
                    side: Some(side),
                };
            }
            Some(_) => {
                return Step::Analyse {
                    clock: person,
                    side: None,
                };
            }
        }
    }
    person.map_or(Step::Wait, Step::Person)
}

/// A person's move at the game's head, accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeadMove {
    /// A move of side `s`, played at once.
    Move(Side),
    /// Side `s`'s declaration, kept until the turn resolves.
    Declare(Side),
}

/// Whether `token` may be played by a person now, when the game waits for `next` and the
/// engine lists `legal` (a side's moves) and `legal_side` (each side's declarations). A
/// `void` declaration (one the person means to be illegal, a penalty) is any one safe
/// token of one side. Error (for the page, nothing changes): why not.
pub fn head_move(
    next: Next,
    legal: &[String],
    legal_side: &[Vec<String>; 2],
    token: &str,
    void: bool,
) -> Result<HeadMove, String> {
    match next {
        Next::HumanMove(s) if legal.iter().any(|t| t == token) => Ok(HeadMove::Move(s)),
        Next::HumanMove(_) => Err(format!("'{}' is not a legal move here", echo(token))),
        Next::HumanDeclare(s) => {
            let listed = legal_side[s.index()].iter().any(|t| t == token);
            // A void declaration is one side's token: a '/' would join another.
            let voidable = void && request::is_token_safe(token) && !token.contains('/');
            if listed || voidable {
                Ok(HeadMove::Declare(s))
            } else {
                Err(format!("'{}' is not a legal declaration here", echo(token)))
            }
        }
        Next::HumanRoll(_) => Err("roll the die first".to_string()),
        _ => Err("no move is awaited from a person now".to_string()),
    }
}

/// What an engine's refusal of a joint turn changes: the turn is not played, and the
/// refusal is said once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// People's void declarations dropped, each with the error the page gets.
    pub dropped: Vec<(Side, String)>,
    /// The engine's fault that stops the game, after those are dropped.
    pub fault: Option<Failure>,
}

/// The refusal of the joint turn of `halves` (each side's declaration; `void`: not in that
/// side's list) by `players`, the engine saying `why`. A void declaration is the cause
/// (the engine listed the others): a person's is dropped with an error, an engine's is
/// its fault; with none void, the engine refused its own lists. Nothing depends on the
/// words of the refusal, so no refusal can come again.
pub fn refused_joint(halves: [&str; 2], void: [bool; 2], players: [Who; 2], why: &str) -> Refusal {
    let [w, b] = halves;
    if !void.contains(&true) {
        return Refusal {
            dropped: Vec::new(),
            fault: Some(Failure::new(
                FaultKind::Protocol,
                format!("the engine refused a joint turn of its own lists ({w}/{b}): {why}"),
            )),
        };
    }
    let mut dropped = Vec::new();
    for side in Side::BOTH.into_iter().filter(|s| void[s.index()]) {
        let token = halves[side.index()];
        if players[side.index()] == Who::Engine {
            let fault = Failure {
                kind: FaultKind::Illegal,
                side: Some(side),
                detail: format!("declaration '{token}' refused: {why}"),
            };
            return Refusal {
                dropped,
                fault: Some(fault),
            };
        }
        dropped.push((
            side,
            format!("declaration '{token}' refused by the engine: {why}"),
        ));
    }
    Refusal {
        dropped,
        fault: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HH: [Who; 2] = [Who::Human, Who::Human];
    const HE: [Who; 2] = [Who::Human, Who::Engine];

    fn tokens(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn analyse(clock: Option<Side>, side: Option<Side>) -> Step {
        Step::Analyse { clock, side }
    }

    #[test]
    fn the_engine_acts_unless_paused_and_people_get_analysis_when_asked() {
        let p1 = Side::P1;
        let turn = json!({"node": "turn", "to_act": "p1"});
        let at = Some(&turn);
        assert_eq!(
            step(Next::Nothing, false, at, false, false, false),
            Step::Wait
        );
        assert_eq!(
            step(Next::EngineMove(p1), true, at, false, false, false),
            Step::Go(Purpose::Move(p1))
        );
        assert_eq!(
            step(Next::EngineDeclare(p1), false, at, false, false, false),
            Step::Go(Purpose::Declare(p1))
        );
        assert_eq!(
            step(Next::EngineRoll(p1), false, at, false, false, false),
            Step::Roll(p1)
        );
        assert_eq!(
            step(Next::EngineRoll(p1), false, at, false, true, false),
            Step::Wait
        );
        assert_eq!(
            step(Next::EngineMove(p1), true, at, false, false, true),
            Step::Wait,
            "no analysis in the pause between two engine moves"
        );
        assert_eq!(
            step(Next::Resolve, true, at, false, true, true),
            Step::Resolve
        );
        assert_eq!(
            step(Next::HumanMove(p1), false, at, false, false, false),
            Step::Person(p1)
        );
        assert_eq!(
            step(Next::HumanMove(p1), true, at, false, false, false),
            analyse(Some(p1), None)
        );
        // Engines paused: the position is analysed.
        assert_eq!(
            step(Next::EngineMove(p1), true, at, false, true, false),
            analyse(None, None)
        );
        // A person's declaration is analysed for that side.
        let p2 = Side::P2;
        let sim = json!({"node": "simultaneous"});
        assert_eq!(
            step(
                Next::HumanDeclare(p2),
                true,
                Some(&sim),
                false,
                false,
                false
            ),
            analyse(Some(p2), Some(p2))
        );
    }

    #[test]
    fn analysis_runs_on_the_position_shown_a_finished_games_too() {
        // Issue 39 §1.3: nothing ran once no one was to move.
        let over = json!({"node": "over"});
        let sim = json!({"node": "simultaneous"});
        let turn = json!({"node": "turn", "to_act": "p2"});
        assert_eq!(
            step(Next::Nothing, true, Some(&turn), true, false, false),
            analyse(None, None)
        );
        assert_eq!(
            step(Next::Nothing, true, Some(&over), false, false, false),
            Step::Wait,
            "a finished position has nothing to search"
        );
        let s = Side::P2;
        assert_eq!(
            step(Next::HumanMove(s), true, Some(&over), true, false, false),
            Step::Person(s)
        );
        assert_eq!(
            step(
                Next::HumanMove(s),
                true,
                Some(&json!({})),
                true,
                false,
                false
            ),
            Step::Person(s)
        );
        assert_eq!(
            step(Next::HumanMove(s), true, Some(&sim), true, false, false),
            analyse(Some(s), Some(Side::P1))
        );
        assert_eq!(
            step(Next::HumanDeclare(s), true, Some(&turn), true, false, false),
            analyse(Some(s), None)
        );
    }

    #[test]
    fn a_person_plays_a_listed_move_or_a_void_declaration_of_one_side() {
        let legal = tokens("a1a2 b1b2");
        let sides = [tokens("c1c2"), tokens("d1d2")];
        let (p1, p2) = (Side::P1, Side::P2);
        assert_eq!(
            head_move(Next::HumanMove(p2), &legal, &sides, "b1b2", false),
            Ok(HeadMove::Move(p2))
        );
        assert_eq!(
            head_move(Next::HumanMove(p2), &legal, &sides, "c1c2", true),
            Err("'c1c2' is not a legal move here".into())
        );
        assert_eq!(
            head_move(Next::HumanDeclare(p2), &[], &sides, "d1d2", false),
            Ok(HeadMove::Declare(p2))
        );
        assert!(head_move(Next::HumanDeclare(p2), &[], &sides, "c1c2", false).is_err());
        assert_eq!(
            head_move(Next::HumanDeclare(p1), &[], &sides, "a1b3", true),
            Ok(HeadMove::Declare(p1))
        );
        // The loop of issue 22 §1: a '/' in a void declaration would join another side's.
        let joint = head_move(Next::HumanDeclare(p1), &[], &sides, "a1b3/a5b3", true);
        assert_eq!(
            joint,
            Err("'a1b3/a5b3' is not a legal declaration here".into())
        );
        assert!(head_move(Next::HumanDeclare(p1), &[], &sides, "a1 b3", true).is_err());
        assert_eq!(
            head_move(Next::HumanRoll(p1), &legal, &sides, "a1a2", false),
            Err("roll the die first".into())
        );
        assert!(head_move(Next::EngineMove(p1), &legal, &sides, "a1a2", false).is_err());
        assert!(head_move(Next::Nothing, &legal, &sides, "a1a2", false).is_err());
    }

    #[test]
    fn a_refused_joint_turn_drops_peoples_void_declarations_or_faults_the_engine() {
        let why = "info string error: no";
        let people = refused_joint(["x9", "c1c2"], [true, false], HH, why);
        assert_eq!(people.fault, None);
        assert_eq!(
            people.dropped,
            [(
                Side::P1,
                format!("declaration 'x9' refused by the engine: {why}")
            )]
        );
        // The engine's own void declaration is its fault; the person's before it is dropped.
        let engine = refused_joint(["x9", "y9"], [true, true], HE, why);
        assert_eq!(engine.dropped.len(), 1);
        let fault = engine.fault.expect("a fault");
        assert_eq!(
            (fault.kind, fault.side),
            (FaultKind::Illegal, Some(Side::P2))
        );
        // Nothing void: the engine refused its own lists.
        let own = refused_joint(["a", "b"], [false, false], HH, why);
        assert!(own.dropped.is_empty());
        assert_eq!(own.fault.expect("a fault").kind, FaultKind::Protocol);
    }
}
