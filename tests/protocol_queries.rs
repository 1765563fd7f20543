//! The queries a GUI asks (protocol.md §3, `query`): the node kind, why a game ended, one
//! side's declarations, and the position for drawing it as JSON. Expected values come from
//! the worked examples of the rules files (docs/rules/).

use crate::common;

use common::Engine;
use quartet_core::game::EndReason;
use quartet_games::GameKind;
use serde_json::{Value, json};

fn position(e: &mut Engine) -> Value {
    let text = e.query("position");
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("not JSON ({err}): {text}"))
}

/// The repetition example of Duell (the shared reason has no example of its own): the
/// keys shuffle back to the start position a third time.
const REPETITION: (&str, &str, &str) = (
    "duell",
    "4BK4/9/9/9/9/9/9/4WK4 w 0 1",
    "e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8",
);

/// `(game, position, moves, reason)`: the example of each end reason every game declares
/// (`EndReason::example`, from its rules file's worked examples), and Duell's repetition.
fn endings() -> Vec<(&'static str, &'static str, &'static str, EndReason)> {
    let mut all = Vec::new();
    for game in GameKind::ALL {
        let d = game.declaration();
        for r in d.end_reasons {
            if let Some(e) = r.example {
                all.push((d.name, e.position, e.moves, *r));
            } else {
                assert_eq!(
                    *r,
                    EndReason::REPETITION,
                    "{}: {} has no example",
                    d.name,
                    r.token
                );
            }
        }
    }
    let (game, fen, moves) = REPETITION;
    all.push((game, fen, moves, EndReason::REPETITION));
    all
}

#[test]
fn every_declared_end_reason_has_a_row_in_its_rules_file() {
    for game in GameKind::ALL {
        let d = game.declaration();
        let path = format!("{}/docs/rules/{}.md", env!("CARGO_MANIFEST_DIR"), d.name);
        let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for r in d.end_reasons {
            assert!(
                doc.lines()
                    .any(|l| l.starts_with(&format!("| `{}` |", r.token))),
                "{path} has no row `| `{}` | ...` in its end reasons table",
                r.token
            );
        }
    }
}

#[test]
fn every_end_rule_is_named() {
    let mut e = Engine::start(&[]);
    for (game, fen, moves, reason) in endings() {
        e.ask(&format!("setoption name Game value {game}"));
        let line = format!("position fen {fen} moves {moves}");
        assert!(e.ask(&line).is_empty(), "{line}");
        assert_eq!(e.query("node"), "over", "{line}");
        assert_eq!(
            e.query("reason"),
            format!("{} {}", reason.token, reason.words),
            "{line}"
        );
        let d = position(&mut e);
        assert_eq!(d["reason"], reason.token, "{line}");
        assert_eq!(d["reason_words"], reason.words, "{line}");
        assert_eq!(d["node"], "over", "{line}");
        assert_eq!(d["to_act"], Value::Null, "{line}");
        assert_eq!(d["result"], json!(e.query("result")), "{line}");
    }
}

#[test]
fn node_kinds_of_every_game() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.query("node"), "turn p1");
    assert_eq!(e.query("reason"), "none");
    e.ask("position startpos moves a1a6");
    assert_eq!(e.query("node"), "turn p2");
    e.ask("setoption name Game value ludo");
    assert_eq!(e.query("node"), "chance p1");
    e.ask("position startpos moves r6");
    assert_eq!(e.query("node"), "turn p1");
    e.ask("position startpos moves r3 pass");
    assert_eq!(e.query("node"), "chance p2");
    e.ask("setoption name Game value apocalypse");
    assert_eq!(e.query("node"), "simultaneous");
}

#[test]
fn one_sides_declarations_in_apocalypse() {
    let mut e = Engine::start(&["--game", "apocalypse"]);
    // 12 legal declarations per side at the start with DoubleStep (rules §4).
    let white = e.query("legalmoves w");
    assert_eq!(white.split(' ').count(), 12, "{white}");
    assert_eq!(e.query("islegal c1c3 w"), "true");
    // Well formed, and recorded as void by `position`, but not a legal declaration.
    assert_eq!(e.query("islegal c1c5 w"), "false");
    assert_eq!(e.query("islegal c5c4 w"), "false");
    assert_eq!(e.query("islegal c5c4 b"), "true");
    // Without a side the joint token is judged as `position` would take it.
    assert_eq!(e.query("islegal c1c5/c5c4"), "true");
}

#[test]
fn a_side_in_a_game_without_simultaneous_turns_is_an_error_with_a_response() {
    let mut e = Engine::start(&[]);
    for q in ["legalmoves w", "islegal d1d7 b"] {
        let lines = e.ask(&format!("query {q}"));
        assert_eq!(lines.len(), 2, "{q}: {lines:?}");
        assert!(
            lines[0].starts_with("info string error: "),
            "{q}: {lines:?}"
        );
        assert!(lines[1].starts_with("response"), "{q}: {lines:?}");
    }
}

#[test]
fn the_position_json_of_each_game() {
    let mut e = Engine::start(&["--game", "rnb"]);
    e.ask("position startpos moves R@a2");
    let d = position(&mut e);
    assert_eq!(d["game"], "rnb");
    assert_eq!(d["fen"], "2k3/6/6/6/R5/3K2 n 3444 0");
    assert_eq!(d["node"], "turn");
    assert_eq!(d["to_act"], "p2");
    assert_eq!(d["result"], Value::Null);
    assert_eq!(
        (d["width"].clone(), d["height"].clone()),
        (json!(6), json!(6))
    );
    assert_eq!(d["hands"]["p1"], json!({"red": 3, "black": 4}));
    let pieces = d["pieces"].as_array().expect("pieces");
    assert!(
        pieces
            .contains(&json!({"square": "a2", "owner": "p1", "kind": "soldier", "colour": "red"}))
    );

    e.ask("setoption name Game value duell");
    // Rules W2: c1c3 leaves W53 on c3; d1d7 leaves W13 on d7.
    e.ask("position startpos moves c1c3 a8a3 d1d7");
    let d = position(&mut e);
    let on = |sq: &str| {
        d["pieces"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["square"] == sq).cloned())
            .unwrap_or(Value::Null)
    };
    assert_eq!(
        (on("c3")["top"].clone(), on("c3")["north"].clone()),
        (json!(5), json!(3))
    );
    assert_eq!(
        (on("d7")["top"].clone(), on("d7")["north"].clone()),
        (json!(1), json!(3))
    );
    assert_eq!(on("e1")["kind"], "key");
    assert_eq!(d["to_act"], "p2");

    e.ask("setoption name Game value apocalypse");
    // Example 8: the void a2b3 costs White a penalty point; Black's knight reaches b3.
    e.ask("position startpos moves a2b3/a5b3");
    let d = position(&mut e);
    assert_eq!(d["penalties"], json!({"p1": 1, "p2": 0}));
    assert_eq!(d["node"], "simultaneous");
    assert_eq!(d["to_act"], Value::Null);
    assert!(
        d["pieces"]
            .as_array()
            .expect("pieces")
            .contains(&json!({"square": "b3", "owner": "p2", "kind": "knight"}))
    );

    e.ask("setoption name Game value ludo");
    e.ask("position startpos moves r6 b-0");
    let d = position(&mut e);
    assert_eq!(d["node"], "chance");
    assert_eq!(d["to_act"], "p1");
    assert_eq!(d["die"], Value::Null);
    assert_eq!(d["sixes"], 1);
    let red: Vec<&Value> = d["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .filter(|p| p["owner"] == "p1" && p["zone"] == "track")
        .collect();
    // The entered piece stands on Red's start square A0, cell (6,1).
    assert_eq!(red.len(), 1);
    assert_eq!(red[0]["cell"], json!([6, 1]));
    assert_eq!(red[0]["track"], 0);
}

#[test]
fn winchance_gives_each_game_its_curve() {
    let mut e = Engine::start(&["--game", "ludo"]);
    // Ludo prints win probabilities, cp = (2p - 1) * 10000 (protocol.md §6).
    assert_eq!(e.query("winchance"), "probability 10000");
    // Apocalypse prints its evaluation's scale, a logit of 110 (protocol.md §6).
    e.ask("setoption name Game value apocalypse");
    let answer = e.query("winchance");
    let k: f64 = answer
        .strip_prefix("logistic ")
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("apocalypse: {answer}"));
    assert_eq!(k, 1.0 / 110.0);
    // Every game answers a curve the review can read.
    for kind in quartet_games::GameKind::ALL {
        e.ask(&format!("setoption name Game value {}", kind.name()));
        let answer = e.query("winchance");
        assert!(
            quartet_review::curve::Curve::from_answer(&answer).is_some(),
            "{}: {answer}",
            kind.name()
        );
    }
}

#[test]
fn chance_outcomes_with_their_weights() {
    let mut e = Engine::start(&["--game", "ludo"]);
    // docs/rules/ludo.md: a chance node's tokens are r1..r6, each with weight 1/6.
    assert_eq!(e.query("chance"), "r1:1 r2:1 r3:1 r4:1 r5:1 r6:1");
    // After the roll a side moves: no chance outcomes.
    e.ask("position startpos moves r6");
    assert_eq!(e.query("chance"), "");
    // Games without chance nodes answer `response` alone.
    for game in ["rnb", "duell", "apocalypse"] {
        e.ask(&format!("setoption name Game value {game}"));
        assert_eq!(e.query("chance"), "", "{game}");
    }
}
