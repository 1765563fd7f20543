//! Protocol sessions for R&B's rule option `Placement` (protocol.md §3.2, rnb.md 1.3(d)):
//! the option line, `setoption` restarting the game, the joint setup's node, queries and
//! tokens, and `go ... side w|b` playing an arrangement sampled from the policy.

use crate::common;

use common::Engine;

const SOUTH_SAFE: &str = "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1";
const NORTH_SAFE: &str = "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6";

/// An R&B engine with `Placement together` set.
fn together() -> Engine {
    let mut e = Engine::start(&["--game", "rnb"]);
    e.send("setoption name Placement value together");
    e
}

/// The lines of one `go`, up to and including `bestmove`.
fn go(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.until(|l| l.starts_with("bestmove "))
}

fn best(lines: &[String]) -> String {
    lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .expect("bestmove")
        .to_string()
}

#[test]
fn the_option_is_declared_and_restarts_the_game() {
    let mut e = Engine::start(&["--game", "rnb"]);
    let lines = e.ask("uci");
    assert!(
        lines.contains(
            &"option name Placement type combo default alternate var alternate var together"
                .to_string()
        )
    );
    e.send("position startpos moves R@a2");
    e.send("setoption name Placement value Together");
    assert_eq!(e.query("fen"), "2k3/6/6/6/6/3K2 sn 4444 0");
    assert_eq!(e.query("node"), "simultaneous");
    assert_eq!(e.query("p1turn"), "true");
    e.send("setoption name Placement value both");
    let refused = e.sync();
    assert_eq!(
        refused,
        ["info string error: setoption: Placement: 'both' is not one of alternate, together"]
    );
    assert_eq!(e.query("fen"), "2k3/6/6/6/6/3K2 sn 4444 0", "unchanged");
    e.send("setoption name Placement value alternate");
    assert_eq!(e.query("fen"), "2k3/6/6/6/6/3K2 s 4444 0");
    assert_eq!(e.query("node"), "turn p1");
    // A side named away from a simultaneous node lists nothing.
    assert_eq!(e.query("legalmoves w"), "");
}

#[test]
fn each_side_lists_its_11550_arrangements_and_the_joint_token_plays() {
    let mut e = together();
    for side in ["w", "b"] {
        let list = e.query(&format!("legalmoves {side}"));
        let tokens: Vec<&str> = list.split(' ').collect();
        assert_eq!(tokens.len(), 11_550, "{side}");
        assert!(
            tokens
                .iter()
                .all(|t| t.len() == 39 && t.split(',').count() == 8)
        );
    }
    assert!(e.query("legalmoves w").contains(SOUTH_SAFE));
    assert!(e.query("legalmoves b").contains(NORTH_SAFE));
    assert_eq!(
        e.query("legalmoves"),
        "",
        "133,402,500 joint tokens are not listed"
    );
    assert_eq!(
        e.query("islegal B@f1,R@e2,b@a1,R@b2,B@e1,R@f2,r@a2,B@b1 w"),
        "true"
    );
    assert_eq!(e.query(&format!("islegal {SOUTH_SAFE} b")), "false");
    assert_eq!(
        e.query(&format!("islegal {SOUTH_SAFE}/{NORTH_SAFE}")),
        "true"
    );
    assert_eq!(e.query("islegal R@a2"), "false");
    e.send(&format!(
        "position startpos moves {SOUTH_SAFE}/{NORTH_SAFE} b2c3"
    ));
    assert_eq!(e.query("fen"), "bbk1bb/rr2rr/6/2R3/R3RR/BB1KBB n 0000 1");
    assert_eq!(e.query("node"), "turn p2");
}

#[test]
fn bad_setup_tokens_are_refused_and_change_nothing() {
    let mut e = together();
    for (token, error) in [
        (
            "R@a2",
            "info string error: position: move 1: illegal move 'R@a2': under Placement together both \
             sides arrange at once: send <south>/<north>, like",
        ),
        (
            "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1/x",
            "info string error: position: move 1: malformed move",
        ),
        (
            "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@a3/R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6",
            "info string error: position: move 1: illegal move 'R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@a3/\
             R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6': South's arrangement: a3 is outside the zone",
        ),
    ] {
        e.send(&format!("position startpos moves {token}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with(error), "{}", lines[0]);
        assert_eq!(e.query("fen"), "2k3/6/6/6/6/3K2 sn 4444 0");
    }
    e.send("position fen 2k3/6/6/6/6/3K2 s 4444 0");
    assert!(e.sync()[0].contains("the only position before it is the start"));
}

/// Depth 1 from the setup: the double oracle converges on a pure equilibrium, which is
/// printed as the policy and played; both sides get an arrangement, the same ones again
/// for the same seed, and `go` without a side gives no move.
#[test]
fn go_side_plays_an_arrangement_from_the_policy() {
    let mut e = together();
    let mut first = Vec::new();
    for side in ["w", "b"] {
        let lines = go(&mut e, &format!("go depth 1 side {side}"));
        let policy = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string policy "))
            .expect("a policy line");
        let pairs: Vec<(&str, f64)> = policy
            .split(' ')
            .map(|p| {
                let (m, x) = p.split_once('=').expect("move=p");
                (m, x.parse().expect("p"))
            })
            .collect();
        let units: i64 = pairs.iter().map(|(_, x)| (x * 1e6).round() as i64).sum();
        assert_eq!(units, 1_000_000);
        let played = best(&lines);
        assert!(
            pairs.iter().any(|(m, x)| *m == played && *x > 0.0),
            "{played}"
        );
        assert_eq!(e.query(&format!("islegal {played} {side}")), "true");
        first.push(played);
    }
    e.send("ucinewgame");
    for (side, before) in ["w", "b"].iter().zip(&first) {
        assert_eq!(
            &best(&go(&mut e, &format!("go depth 1 side {side}"))),
            before
        );
    }
    let joint = format!("{}/{}", first[0], first[1]);
    assert_eq!(e.query(&format!("islegal {joint}")), "true");
    let lines = go(&mut e, "go depth 1");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string simultaneous move"))
    );
    // The joint setup played, South moves.
    e.send(&format!("position startpos moves {joint}"));
    let reply = best(&go(&mut e, "go depth 2"));
    assert!(!reply.contains(','), "a step: {reply}");
}
