//! The record of a session's game (the tags `quartet replay` reads, as the referee writes
//! them), as a pure function of what the session knows: who played, how the game ended,
//! its rules, its limit and its tokens. No I/O: the tests build one from plain values.

use quartet_records::{Record, clock_comment};

use super::fault::Failure;
use super::flow::Side;
use super::request::Limit;

/// How a game ended, as its record says.
#[derive(Debug, Clone, Copy)]
pub enum End<'a> {
    /// By the rules: `query position`'s `result`, `reason` and `reason_words`.
    Rules {
        /// `p1win`, `p2win` or `draw`.
        result: Option<&'a str>,
        /// The reason's token.
        reason: Option<&'a str>,
        /// The reason's words.
        words: Option<&'a str>,
    },
    /// This side's clock ran out.
    Flagged(Side),
    /// This side's person resigned.
    Resigned(Side),
    /// The engine failed while it played for this side.
    Fault(Side, &'a Failure),
    /// Not ended (or stopped with no side to blame).
    Unfinished,
}

/// What a record is made of.
#[derive(Debug, Clone)]
pub struct Facts<'a> {
    /// The players' names, first player first.
    pub names: [String; 2],
    /// The engine's `Game` value.
    pub game: &'a str,
    /// How it ended.
    pub end: End<'a>,
    /// The engine's limit.
    pub limit: &'a Limit,
    /// The start position's string.
    pub start_text: &'a str,
    /// Every rule option with its value, as `query position`'s `rules` has them.
    pub rules: Vec<(String, String)>,
    /// The main line's tokens.
    pub moves: &'a [String],
    /// The clock readings after each token (`[%clk ...]`).
    pub clocks: &'a [Vec<u64>],
    /// The dice seed, for a game with rolls.
    pub dice_seed: Option<u64>,
}

/// The game's record: `Event`, the players, `Result`, `Game`, `Termination` (with
/// `Adjudicated` and `Reason` as the referee writes them), `TimeControl`, `FEN`,
/// `PlyCount`, the rule options and, for a game with rolls, `DiceSeed`.
pub fn record(f: &Facts) -> Record {
    let win = |loser: Side| if loser == Side::P1 { "0-1" } else { "1-0" };
    let (result, termination, reason) = match f.end {
        End::Rules {
            result,
            reason,
            words,
        } => {
            let r = match result {
                Some("p1win") => "1-0",
                Some("p2win") => "0-1",
                _ => "1/2-1/2",
            };
            let t = if reason == Some("repetition") {
                "repetition"
            } else {
                "normal"
            };
            // The Reason tag has the engine's words for the rule, as the referee writes.
            (r, t, words.or(reason).unwrap_or_default().to_string())
        }
        End::Flagged(side) => (win(side), "time forfeit", "the clock ran out".to_string()),
        End::Resigned(side) => {
            let who = if side == Side::P1 {
                "the first player"
            } else {
                "the second player"
            };
            (win(side), "adjudicated", format!("{who} resigned"))
        }
        End::Fault(side, failure) => (
            win(side),
            failure.kind.termination(),
            failure.detail.clone(),
        ),
        End::Unfinished => ("*", "unterminated", String::new()),
    };
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "Quartet GUI".into()),
        ("White".into(), f.names[0].clone()),
        ("Black".into(), f.names[1].clone()),
        ("Result".into(), result.into()),
        ("Game".into(), f.game.into()),
        ("Termination".into(), termination.into()),
    ];
    if termination == "adjudicated" {
        tags.push(("Adjudicated".into(), reason.clone()));
    }
    if !reason.is_empty() {
        tags.push(("Reason".into(), reason));
    }
    tags.push(("TimeControl".into(), time_control(f.limit)));
    tags.push(("FEN".into(), f.start_text.into()));
    tags.push(("PlyCount".into(), f.moves.len().to_string()));
    tags.extend(f.rules.iter().cloned());
    if let Some(seed) = f.dice_seed {
        tags.push(("DiceSeed".into(), seed.to_string()));
    }
    Record {
        tags,
        moves: f.moves.to_vec(),
        comments: f.clocks.iter().map(|c| clock_comment(c)).collect(),
        result: result.into(),
        ..Record::default()
    }
}

/// The `TimeControl` tag in the referee's form: `60+0.5`, `movetime=100`, `depth=3`,
/// `nodes=5000`.
pub fn time_control(limit: &Limit) -> String {
    let secs = |ms: u64| {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match *limit {
        Limit::Movetime { ms } => format!("movetime={ms}"),
        Limit::Depth { depth } => format!("depth={depth}"),
        Limit::Nodes { nodes } => format!("nodes={nodes}"),
        Limit::Clock { base_ms, inc_ms } => format!("{}+{}", secs(base_ms), secs(inc_ms)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fault::FaultKind;

    #[test]
    fn time_control_tags() {
        assert_eq!(time_control(&Limit::Movetime { ms: 100 }), "movetime=100");
        assert_eq!(time_control(&Limit::Depth { depth: 3 }), "depth=3");
        assert_eq!(time_control(&Limit::Nodes { nodes: 5000 }), "nodes=5000");
        let clock = |b, i| {
            time_control(&Limit::Clock {
                base_ms: b,
                inc_ms: i,
            })
        };
        assert_eq!(clock(60_000, 500), "60+0.5");
        assert_eq!(clock(10_000, 100), "10+0.1");
        assert_eq!(clock(1_500, 0), "1.5+0");
    }

    fn facts<'a>(end: End<'a>, moves: &'a [String], limit: &'a Limit) -> Facts<'a> {
        Facts {
            names: ["Human".into(), "Quartet".into()],
            game: "ludo",
            end,
            limit,
            start_text: "b,b,b,b/b,b,b,b r - 0",
            rules: vec![("Pieces".into(), "4".into())],
            moves,
            clocks: &[],
            dice_seed: None,
        }
    }

    #[test]
    fn an_unfinished_game_is_recorded_with_its_tags_in_the_referees_order() {
        let moves: Vec<String> = vec!["r6".into(), "b-0".into()];
        let limit = Limit::Movetime { ms: 100 };
        let mut f = facts(End::Unfinished, &moves, &limit);
        f.dice_seed = Some(7);
        let r = record(&f);
        let names: Vec<&str> = r.tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "Event",
                "White",
                "Black",
                "Result",
                "Game",
                "Termination",
                "TimeControl",
                "FEN",
                "PlyCount",
                "Pieces",
                "DiceSeed"
            ]
        );
        assert_eq!(
            (r.result.as_str(), r.tag("Termination")),
            ("*", Some("unterminated"))
        );
        assert_eq!(
            (r.tag("PlyCount"), r.tag("DiceSeed")),
            (Some("2"), Some("7"))
        );
        assert_eq!(r.moves, moves);
    }

    #[test]
    fn each_end_gives_its_result_termination_and_reason() {
        let limit = Limit::Depth { depth: 2 };
        let end = |e| record(&facts(e, &[], &limit));
        let rules = end(End::Rules {
            result: Some("p2win"),
            reason: Some("all-home"),
            words: Some("all of a side's pieces reached the goal"),
        });
        assert_eq!(
            (rules.result.as_str(), rules.tag("Termination")),
            ("0-1", Some("normal"))
        );
        assert_eq!(
            rules.tag("Reason"),
            Some("all of a side's pieces reached the goal")
        );
        let rep = end(End::Rules {
            result: Some("draw"),
            reason: Some("repetition"),
            words: None,
        });
        assert_eq!(
            (rep.result.as_str(), rep.tag("Termination")),
            ("1/2-1/2", Some("repetition"))
        );
        assert_eq!(
            rep.tag("Reason"),
            Some("repetition"),
            "the token without words"
        );
        let resigned = end(End::Resigned(Side::P1));
        assert_eq!(resigned.result, "0-1");
        assert_eq!(
            resigned.tag("Adjudicated"),
            Some("the first player resigned")
        );
        assert_eq!(end(End::Flagged(Side::P2)).result, "1-0");
        let crash = Failure::new(FaultKind::Crash, "exit status 3");
        let fault = end(End::Fault(Side::P2, &crash));
        assert_eq!(
            (fault.result.as_str(), fault.tag("Reason")),
            ("1-0", Some("exit status 3"))
        );
        assert_eq!(
            fault.tag("Termination"),
            Some(FaultKind::Crash.termination())
        );
        assert_eq!(end(End::Unfinished).tag("Reason"), None);
    }
}
