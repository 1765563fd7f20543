//! `quartet review` against the binary: the JSON of small records field by field, the error
//! of a record that does not replay (the other games still reviewed), the decomposition
//! identity over games that `quartet match` played (start value + luck − first's losses +
//! second's losses = result, to 1e-9), and the review's curve table against the registry.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

/// Runs `quartet args...`; returns (success, stdout, stderr).
fn quartet(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(QUARTET)
        .args(args)
        .output()
        .expect("run quartet");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A scratch folder under the target directory (each test its own).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("review_command")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Writes `text` to `name` in `dir`; returns its path.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

/// The JSON lines of a review's output.
fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn number(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

fn is_probability(x: f64) -> bool {
    (0.0..=1.0).contains(&x)
}

/// Checks the documented fields of one game's review (docs/review.md) and returns the
/// identity's left side (start value + luck − first's losses + second's losses), summed
/// from the plies.
fn check_schema(game: &Value) -> f64 {
    assert!(game["record"].as_u64().is_some(), "{game}");
    assert!(game["game"].is_string());
    let start = number(game, "start_value");
    assert!(is_probability(start));
    if let Some(result) = game.get("result") {
        assert!([0.0, 0.5, 1.0].contains(&result.as_f64().expect("a number")));
    }
    let plies = game["plies"].as_array().expect("plies");
    let mut sum = start;
    let (mut first_loss, mut second_loss, mut luck) = (0.0, 0.0, 0.0);
    let mut decisions = [0, 0];
    for (i, ply) in plies.iter().enumerate() {
        assert_eq!(ply["ply"].as_u64(), Some(i as u64 + 1), "{ply}");
        assert!(ply["token"].is_string());
        assert!(is_probability(number(ply, "value")), "{ply}");
        let mover = ply["mover"].as_str().expect("a mover");
        if let Some(mark) = ply.get("mark") {
            assert!(["?!", "?", "??"].contains(&mark.as_str().expect("a mark")));
        }
        match ply["node"].as_str().expect("a node") {
            "turn" | "end" => {
                assert!(["first", "second"].contains(&mover), "{ply}");
                if ply.get("forced").is_some() {
                    assert_eq!(ply["forced"], Value::Bool(true));
                    assert!(ply.get("loss").is_none(), "a forced move is no decision");
                    assert_eq!(ply["best"], ply["token"]);
                    continue;
                }
                let loss = number(ply, "loss");
                if mover == "first" {
                    first_loss += loss;
                    decisions[0] += 1;
                } else {
                    second_loss += loss;
                    decisions[1] += 1;
                }
                if ply["node"] == "turn" {
                    assert!(ply["best"].is_string(), "{ply}");
                    if ply["best"] == ply["token"] {
                        assert!(
                            ply.get("mark").is_none(),
                            "the engine's choice is never marked"
                        );
                    }
                }
            }
            "chance" => {
                assert!(["first", "second"].contains(&mover));
                luck += number(ply, "luck");
                let outcomes = ply["outcomes"].as_array().expect("the temperature map");
                let (mut weighted, mut weights) = (0.0, 0.0);
                for o in outcomes {
                    let w = o["weight"].as_f64().expect("a weight");
                    weighted += w * number(o, "value");
                    weights += w;
                }
                let played = outcomes
                    .iter()
                    .find(|o| o["token"] == ply["token"])
                    .expect("the outcome played is in the map");
                // gnubg's luck: the value after the roll less the map's expectation.
                let expected = weighted / weights;
                assert!((number(played, "value") - number(ply, "value")).abs() < 1e-12);
                assert!((number(ply, "luck") - (number(ply, "value") - expected)).abs() < 1e-9);
                assert!(ply.get("loss").is_none());
            }
            "joint" => {
                assert_eq!(mover, "both");
                luck += number(ply, "luck");
                let (a, b) = ply["token"]
                    .as_str()
                    .expect("a token")
                    .split_once('/')
                    .expect("a/b");
                for (part, played) in [("first", a), ("second", b)] {
                    let side = &ply[part];
                    assert_eq!(side["declaration"].as_str(), Some(played));
                    let policy = side["policy"].as_array().expect("a policy");
                    let total: f64 = policy.iter().map(|d| number(d, "probability")).sum();
                    assert!((total - 1.0).abs() < 1e-5, "{total}");
                    assert!(policy.iter().all(|d| d["token"].is_string()));
                    let loss = number(side, "loss");
                    if part == "first" {
                        first_loss += loss;
                        decisions[0] += 1;
                    } else {
                        second_loss += loss;
                        decisions[1] += 1;
                    }
                }
            }
            other => panic!("node {other}"),
        }
    }
    sum += luck - first_loss + second_loss;
    assert!((number(game, "luck") - luck).abs() < 1e-9);
    for (name, loss, count) in [
        ("first", first_loss, decisions[0]),
        ("second", second_loss, decisions[1]),
    ] {
        let side = &game["sides"][name];
        assert!((number(side, "loss") - loss).abs() < 1e-9, "{side}");
        assert_eq!(side["decisions"].as_u64(), Some(count));
        for key in ["inaccuracies", "mistakes", "blunders"] {
            assert!(side[key].as_u64().is_some(), "{key}");
        }
        assert!(side["luck"].is_number());
        if count > 0 {
            let accuracy = number(side, "accuracy");
            assert!((0.0..=100.0).contains(&accuracy));
            assert!((number(side, "average_loss") - loss / count as f64).abs() < 1e-9);
        } else {
            assert!(side["accuracy"].is_null() && side["average_loss"].is_null());
        }
    }
    sum
}

/// Small records of each game (one still under way, one finished by the rules).
const SMALL: &str = "[Game \"duell\"]\n\na1a6 i8i3 f1e6n *\n\n\
    [Game \"ludo\"]\n\nr6 b-0 r3 0-3 r2 pass r6 *\n\n\
    [Game \"apocalypse\"]\n\na1b3/e5d3 b3a5/d3e1 *\n\n\
    [Game \"duell\"]\n[FEN \"4BK4/4WK4/9/9/9/9/9/9 w 0 1\"]\n[Termination \"normal\"]\n\ne7e8 1-0\n\n\
    [Game \"duell\"]\n[Termination \"adjudicated\"]\n\na1a6 i8i3 0-1\n";

#[test]
fn the_json_of_small_records_has_every_documented_field() {
    let dir = scratch("schema");
    let file = write(&dir, "small.pgn", SMALL);
    let (ok, out, err) = quartet(&["review", &file, "--nodes", "300", "--json"]);
    assert!(ok, "{out}{err}");
    let games = lines(&out);
    assert_eq!(games.len(), 5);
    for game in &games {
        let sum = check_schema(game);
        if let Some(result) = game.get("result") {
            assert!((sum - result.as_f64().expect("a result")).abs() < 1e-9);
        } else {
            // Unfinished: the sum is the last position's value.
            let last = game["plies"]
                .as_array()
                .and_then(|p| p.last())
                .expect("a ply");
            assert!((sum - number(last, "value")).abs() < 1e-9);
        }
    }
    let kinds = |g: &Value| -> Vec<String> {
        g["plies"]
            .as_array()
            .expect("plies")
            .iter()
            .map(|p| p["node"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(kinds(&games[0]), ["turn"; 3]);
    assert_eq!(
        kinds(&games[1]),
        [
            "chance", "turn", "chance", "turn", "chance", "turn", "chance"
        ]
    );
    assert_eq!(kinds(&games[2]), ["joint", "joint"]);
    assert!(
        games[0].get("result").is_none(),
        "an unfinished game has no result"
    );
    // Ludo: after r6 the only move is b-0, after r2 only a pass: forced, no decisions.
    assert_eq!(games[1]["plies"][1]["forced"], Value::Bool(true));
    assert_eq!(games[1]["plies"][5]["forced"], Value::Bool(true));
    assert_eq!(
        games[1]["plies"][0]["outcomes"].as_array().map(Vec::len),
        Some(6)
    );
    // The won Duell position: White captures the key; the value after is the result.
    let won = &games[3];
    assert_eq!(won["result"].as_f64(), Some(1.0));
    assert_eq!(won["plies"][0]["value"].as_f64(), Some(1.0));
    assert_eq!(won["plies"][0]["exact"], Value::Bool(true));
    assert!(
        number(won, "start_value") > 0.99,
        "a mate in 1 reads as a win"
    );
    assert_eq!(won["sides"]["second"]["decisions"].as_u64(), Some(0));
    assert!(won["sides"]["second"]["accuracy"].is_null());
    // Adjudicated against White: an end ply, White's step from its value to the result.
    let adjudicated = &games[4];
    assert_eq!(kinds(adjudicated), ["turn", "turn", "end"]);
    let end = &adjudicated["plies"][2];
    assert_eq!(
        (end["mover"].as_str(), end["value"].as_f64()),
        (Some("first"), Some(0.0))
    );
    let before = number(&adjudicated["plies"][1], "value");
    assert!((number(end, "loss") - before).abs() < 1e-12);
    // The summary for people names each game.
    let (ok, out, _) = quartet(&["review", &file, "--nodes", "300"]);
    assert!(ok);
    for n in 1..=5 {
        assert!(out.contains(&format!("game {n}: ")), "{out}");
    }
}

#[test]
fn a_record_that_does_not_replay_is_named_and_the_others_are_reviewed() {
    let dir = scratch("replay_error");
    let text = "[Game \"duell\"]\n\na1a6 i8i3 *\n\n\
                [Game \"duell\"]\n\na1a6 b1b4 *\n\n\
                [Game \"ludo\"]\n\nr6 b-0 *\n";
    let file = write(&dir, "bad.pgn", text);
    let (ok, out, err) = quartet(&["review", &file, "--nodes", "200", "--json"]);
    assert!(!ok, "a game not reviewed fails the command");
    assert!(err.contains("1 of 3 games could not be reviewed"), "{err}");
    let games = lines(&out);
    assert_eq!(games.len(), 3);
    assert_eq!(games[1]["record"].as_u64(), Some(2));
    assert_eq!(games[1]["ply"].as_u64(), Some(2));
    let why = games[1]["error"].as_str().expect("an error");
    assert!(why.contains("b1b4"), "{why}");
    for i in [0, 2] {
        assert!(games[i].get("error").is_none());
        check_schema(&games[i]);
    }
    // For people too.
    let (_, out, _) = quartet(&["review", &file, "--nodes", "200"]);
    assert!(out.contains("game 2: error: ply 2: "), "{out}");
    // An engine that cannot start is an error of every game, said once each.
    let (ok, out, _) = quartet(&["review", &file, "--engine", "/nonexistent/engine", "--json"]);
    assert!(!ok);
    assert!(out.contains("cannot start the engine"), "{out}");
}

/// Plays `games` games of `game` (with the rule flags `rules`) with `quartet match` at
/// `nodes` a move, reviews them at `nodes + 100` a position (another budget than the
/// players', so that their choices lose something) and checks the identity of every
/// finished game to 1e-9.
fn identity_over_match_games(game: &str, games: usize, nodes: u64, rules: &[&str]) {
    let dir = scratch(&format!("identity_{game}_{games}"));
    let pgn = dir.join("games.pgn").display().to_string();
    let engine = format!("cmd={QUARTET}");
    let (n, limit) = (games.to_string(), nodes.to_string());
    let mut args = vec![
        "match",
        "--game",
        game,
        "--engine",
        &engine,
        "name=a",
        "--engine",
        &engine,
        "name=b",
        "--games",
        &n,
        "--nodes",
        &limit,
        "--seed",
        "5",
        "--pgnout",
        &pgn,
        "--no-progress",
    ];
    args.extend_from_slice(rules);
    let (ok, out, err) = quartet(&args);
    assert!(ok, "{out}{err}");
    let review_nodes = (nodes + 100).to_string();
    let (ok, out, err) = quartet(&["review", &pgn, "--nodes", &review_nodes, "--json"]);
    assert!(ok, "{err}");
    let reviews = lines(&out);
    assert_eq!(reviews.len(), games);
    for review in &reviews {
        let sum = check_schema(review);
        let result = number(review, "result");
        assert!(
            (sum - result).abs() < 1e-9,
            "{game} record {}: {sum} against {result}",
            review["record"]
        );
        // The summary's own sums say the same.
        let sides = &review["sides"];
        let summed = number(review, "start_value") + number(review, "luck")
            - number(&sides["first"], "loss")
            + number(&sides["second"], "loss");
        assert!((summed - result).abs() < 1e-9);
    }
}

#[test]
fn luck_and_losses_add_up_to_the_result_in_fifty_ludo_and_fifty_duell_games() {
    identity_over_match_games("ludo", 50, 100, &[]);
    identity_over_match_games("duell", 50, 200, &[]);
}

#[test]
fn luck_and_losses_add_up_at_joint_turns_too() {
    // Random openings: from the start both sides' equilibria at a small budget are the
    // same pure declaration, so that every joint turn would lose nothing.
    identity_over_match_games("apocalypse", 4, 200, &["--openings", "random:3"]);
    // R&B's joint setup: 11,550 arrangements a side, most of them past the MultiPV lines.
    identity_over_match_games("rnb", 2, 300, &["--placement", "together"]);
}

#[test]
fn exact_values_are_used_and_said_where_the_solvers_cover_the_position() {
    // 1-piece Ludo: the solved game covers every position, so nothing is searched.
    let dir = scratch("exact");
    let pgn = dir.join("ludo1.pgn").display().to_string();
    let engine = format!("cmd={QUARTET}");
    let (ok, out, err) = quartet(&[
        "match",
        "--game",
        "ludo",
        "--pieces",
        "1",
        "--engine",
        &engine,
        "name=a",
        "--engine",
        &engine,
        "name=b",
        "--games",
        "2",
        "--nodes",
        "100",
        "--pgnout",
        &pgn,
        "--no-progress",
    ]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = quartet(&["review", &pgn, "--nodes", "100", "--exact", "--json"]);
    assert!(ok, "{err}");
    for game in lines(&out) {
        let sum = check_schema(&game);
        assert!((sum - number(&game, "result")).abs() < 1e-9);
        let plies = game["plies"].as_array().expect("plies").len() as u64;
        assert_eq!(game["exact_positions"].as_u64(), Some(plies + 1));
        assert_eq!(game["start_exact"], Value::Bool(true));
        assert_eq!(game["searches"].as_u64(), Some(0));
    }
    // Without --exact the same games are searched.
    let (_, out, _) = quartet(&["review", &pgn, "--nodes", "100", "--json"]);
    assert!(lines(&out).iter().all(|g| g["searches"].as_u64() > Some(0)));
    // Apocalypse with four pieces: solved.
    let file = write(
        &dir,
        "apocalypse.pgn",
        "[Game \"apocalypse\"]\n[FEN \"2n2/1p3/5/3P1/2N2 00 45\"]\n\nc1b3/c5d3 *\n",
    );
    let (ok, out, err) = quartet(&["review", &file, "--nodes", "300", "--exact", "--json"]);
    assert!(ok, "{err}");
    let game = &lines(&out)[0];
    assert_eq!(game["start_exact"], Value::Bool(true));
    assert_eq!(game["plies"][0]["exact"], Value::Bool(true));
    check_schema(game);
}

#[test]
fn the_library_reviews_through_a_child_engine_as_a_gui_would() {
    use quartet_review::engine::ChildEngine;
    use quartet_review::{Budget, GameInput, ReviewError, handshake, review_game, temperature_map};
    let mut engine = ChildEngine::start(QUARTET, &[]).expect("the engine starts");
    handshake(&mut engine).expect("uciok");
    let tokens: Vec<String> = ["r6", "b-0", "r3", "0-3"].map(String::from).to_vec();
    let input = GameInput {
        game: "ludo".into(),
        rules: vec![("Pieces".into(), "4".into())],
        start: None,
        tokens: tokens.clone(),
        result: None,
    };
    let mut calls = Vec::new();
    let review = review_game(
        &mut engine,
        &input,
        Budget::Nodes(300),
        None,
        &mut |done, total| {
            calls.push((done, total));
            true
        },
    )
    .expect("a review");
    assert_eq!(review.plies.len(), 4);
    assert_eq!(calls.first(), Some(&(0, 5)));
    assert_eq!(calls.last(), Some(&(5, 5)));
    // The temperature map on demand, at the roll after 0-3: the six rolls.
    let map = temperature_map(&mut engine, &input, &tokens, Budget::Nodes(300)).expect("a map");
    let rolls: Vec<&str> = map.iter().map(|o| o.token.as_str()).collect();
    assert_eq!(rolls, ["r1", "r2", "r3", "r4", "r5", "r6"]);
    // At the start it has the values the review found for the rolls not played (the same
    // searches after a new game); the one played has the review's value of what followed.
    let start = temperature_map(&mut engine, &input, &[], Budget::Nodes(300)).expect("a map");
    let first = review.plies[0].outcomes.as_ref().expect("the review's map");
    for (on_demand, reviewed) in start.iter().zip(first).filter(|(o, _)| o.token != "r6") {
        assert_eq!(on_demand, reviewed);
    }
    // Not at a roll: said so.
    let at_decision = temperature_map(&mut engine, &input, &tokens[..3], Budget::Nodes(300));
    assert!(matches!(at_decision, Err(ReviewError::Replay { .. })));
    // A progress callback that says stop stops the review.
    let stopped = review_game(
        &mut engine,
        &input,
        Budget::Nodes(300),
        None,
        &mut |done, _| done < 2,
    );
    assert_eq!(stopped, Err(ReviewError::Cancelled));
}
