//! The queries a GUI asks (protocol.md §3, `query`): the node kind, why a game ended, one
//! side's declarations, and the position for drawing it as JSON. Expected values come from
//! the worked examples of the rules files (docs/rules/).

mod common;

use common::Engine;
use quartet::game::EndReason;
use quartet::games::GameKind;
use serde_json::{Value, json};

fn position(e: &mut Engine) -> Value {
    let text = e.query("position");
    serde_json::from_str(&text).unwrap_or_else(|err| panic!("not JSON ({err}): {text}"))
}

/// `(game, position, moves, reason)`: each end rule of each game, from the rules' examples.
const ENDINGS: &[(&str, &str, &str, &str)] = &[
    // R&B example 7: the Dual takes the king on b3.
    ("rnb", "6/6/2R3/rk4/6/3K2 s 0000 0", "c4c3", "king-captured"),
    // R&B example 13: rank 2 full of South's pieces.
    (
        "rnb",
        "2k3/6/6/3R2/RBR1BR/3K2 s 0000 0",
        "d3d2",
        "six-in-a-rank",
    ),
    // R&B example 15: the king enters the empty North base.
    ("rnb", "5k/2K3/6/6/6/6 s 0000 0", "c5c6", "king-on-base"),
    // R&B example 16: North's only piece has no empty neighbour.
    ("rnb", "kR4/RB4/6/6/6/3K2 n 0000 0", "", "no-legal-move"),
    // R&B rule 1.6-5: the 100th movement ply without a capture.
    ("rnb", "2k3/6/6/6/6/3K2 s 0000 99", "d1d2", "move-rule"),
    // Duell W7: White's key captures Black's key on e8.
    (
        "duell",
        "4BK4/4WK4/9/9/9/9/9/9 w 0 1",
        "e7e8",
        "key-captured",
    ),
    // Duell W7: the key takes the die on e8 and stands on Black's key square.
    (
        "duell",
        "BK2WKB134/9/9/9/9/9/9/9 w 0 1",
        "d8e8",
        "key-square",
    ),
    // Duell W10: White's key is boxed in by its own dice.
    (
        "duell",
        "4BK4/9/9/9/9/B138/W62B137/WKW62B136 w 0 1",
        "",
        "no-legal-move",
    ),
    // Duell rule 1.12 b: the 200th ply without a capture.
    (
        "duell",
        "4BK4/9/9/9/9/9/9/4WK4 w 199 1",
        "e1e2",
        "move-rule",
    ),
    // Duell: the keys shuffle back to the start position a third time.
    (
        "duell",
        "4BK4/9/9/9/9/9/9/4WK4 w 0 1",
        "e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8",
        "repetition",
    ),
    // Apocalypse example 9: White's second penalty point.
    (
        "apocalypse",
        "npppn/p3p/5/P3P/NPPPN 10 0",
        "a2b3/a5b3",
        "penalties",
    ),
    // Apocalypse example 16: both last pawns collide.
    (
        "apocalypse",
        "4n/2p2/5/2P2/N4 00 0",
        "c2c3/c4c3",
        "no-pawns",
    ),
    // Apocalypse example 17: White has no legal move.
    ("apocalypse", "4n/p4/P4/5/5 00 0", "", "no-legal-move"),
    // Apocalypse rule 1.8: the 50th turn without progress (example 1's quiet turn).
    (
        "apocalypse",
        "npppn/p3p/5/P3P/NPPPN 00 49",
        "c1c2/c5c4",
        "move-rule",
    ),
    // Ludo example 11: Red's last piece reaches the goal.
    ("ludo", "53,56,56,56/b,b,b,b r - 0", "r3 53-56", "all-home"),
];

/// The reason `game` declares with `token` (panics if it declares none).
fn declared(game: &str, token: &str) -> EndReason {
    let kind = GameKind::parse(game).expect("a registered game");
    *kind
        .declaration()
        .end_reasons
        .iter()
        .find(|r| r.token == token)
        .unwrap_or_else(|| panic!("{game} declares no reason {token}"))
}

#[test]
fn every_declared_end_reason_has_an_ending_here_and_a_row_in_protocol_md() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md"))
        .expect("protocol.md");
    for game in GameKind::ALL {
        let d = game.declaration();
        for r in d.end_reasons {
            let row = doc
                .lines()
                .find(|l| l.starts_with(&format!("| `{}` |", r.token)))
                .unwrap_or_else(|| panic!("protocol.md has no row for {}", r.token));
            assert!(row.contains(d.title), "{}: {row}", d.title);
            assert!(
                *r == EndReason::REPETITION
                    || ENDINGS.iter().any(|e| (e.0, e.3) == (d.name, r.token)),
                "{}: no ending of ENDINGS ends by {}",
                d.name,
                r.token
            );
        }
    }
}

#[test]
fn every_end_rule_is_named() {
    let mut e = Engine::start(&[]);
    for &(game, fen, moves, reason) in ENDINGS {
        e.ask(&format!("setoption name Game value {game}"));
        let line = format!("position fen {fen} moves {moves}");
        assert!(e.ask(&line).is_empty(), "{line}");
        assert_eq!(e.query("node"), "over", "{line}");
        let words = declared(game, reason).words;
        assert_eq!(e.query("reason"), format!("{reason} {words}"), "{line}");
        let d = position(&mut e);
        assert_eq!(d["reason"], reason, "{line}");
        assert_eq!(d["reason_words"], words, "{line}");
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
