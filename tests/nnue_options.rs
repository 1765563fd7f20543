//! The `Eval` and `EvalFile` options against the built binary (protocol.md §3): R&B, Duell
//! and Apocalypse evaluate with their networks when asked, a weights file is loaded, and a bad one
//! is refused with the reason while the engine goes on with the weights it had.

use crate::common;

use common::Engine;
use quartet_core::eval::Evaluate;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};

/// Whether a game evaluates with its network under `Eval auto`, as it declares.
struct ByDefault;

impl GameVisitor for ByDefault {
    type Output = bool;
    fn visit<G: Evaluate + Notation>(self) -> bool {
        G::NNUE.is_some_and(|n| n.in_use.by_default())
    }
}

/// Whether `game` evaluates with its network under `Eval auto`.
fn network_by_default(game: &str) -> bool {
    GameKind::from_name(game).expect("a game").visit(ByDefault)
}

/// The games with a network, each with a position to search and the `go` that searches it.
const GAMES: [(&str, &str, &str); 3] = [
    ("rnb", "position startpos moves R@a2 B@a5", "go depth 3"),
    ("duell", "position startpos moves e1e2", "go depth 3"),
    (
        "apocalypse",
        "position startpos moves c1c3/d5d4",
        "go depth 3 side w",
    ),
];

/// The checked-in weights of `game`'s network.
fn weights(game: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("crates/games/src/{game}/nnue.bin"))
}

/// The score (`cp N`) of `go` (a `go depth 3`) at `position` of `game`, after `setup` lines.
fn score(game: &str, (position, go): (&str, &str), setup: &[String]) -> String {
    let mut e = Engine::start(&["--game", game]);
    for line in setup {
        let out = e.ask(line);
        assert!(out.is_empty(), "{line}: {out:?}");
    }
    e.send(position);
    e.send(go);
    let lines = e.until(|l| l.starts_with("bestmove"));
    let info = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("an info line with a score");
    let after = info.split(" score ").nth(1).expect("score");
    let words: Vec<&str> = after.split_whitespace().take(2).collect();
    words.join(" ")
}

#[test]
fn the_options_are_declared_with_each_games_choice_the_default() {
    let mut e = Engine::start(&[]);
    let lines = e.ask("uci");
    assert!(lines.contains(
        &"option name Eval type combo default auto var auto var classical var network".to_string()
    ));
    assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()));
}

#[test]
fn the_network_evaluates_when_chosen_and_loads_a_weights_file() {
    for (game, position, go) in GAMES {
        let position = (position, go);
        let auto = score(game, position, &[]);
        let classical = score(
            game,
            position,
            &["setoption name Eval value classical".to_string()],
        );
        let network = score(
            game,
            position,
            &["setoption name Eval value network".to_string()],
        );
        let loaded = score(
            game,
            position,
            &[
                format!("setoption name EvalFile value {}", weights(game).display()),
                "setoption name Eval value Network".to_string(),
            ],
        );
        assert_eq!(
            network, loaded,
            "{game}: the checked-in file is the built-in weights"
        );
        assert_ne!(classical, network, "{game}");
        let declared = if network_by_default(game) {
            network
        } else {
            classical
        };
        assert_eq!(auto, declared, "{game}: Eval auto is the declared choice");
    }
}

#[test]
fn a_weights_file_of_another_shape_is_refused_with_both_shapes() {
    // R&B's weights under Duell's and Apocalypse's magic: their files of R&B's shape (232
    // inputs; Duell reads 3600, Apocalypse 302).
    for (game, magic, inputs) in [
        ("duell", b"QDUENN01", 3600),
        ("apocalypse", b"QAPONN01", 302),
    ] {
        let mut e = Engine::start(&["--game", game]);
        let path = std::env::temp_dir().join(format!(
            "quartet-shape-net-{game}-{}.bin",
            std::process::id()
        ));
        let mut bytes = std::fs::read(weights("rnb")).expect("R&B's weights");
        bytes[..8].copy_from_slice(magic);
        std::fs::write(&path, &bytes).expect("a temporary file");
        let out = e.ask(&format!("setoption name EvalFile value {}", path.display()));
        let _ = std::fs::remove_file(&path);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(
            out[0].starts_with("info string error: ")
                && out[0].contains("EvalFile: ")
                && out[0].contains("a network of shape 232x32x2")
                && out[0].contains(&format!("this build reads {inputs}x32x2")),
            "{out:?}"
        );
    }
}

#[test]
fn a_bad_weights_file_is_refused_with_the_reason() {
    let mut e = Engine::start(&["--game", "rnb"]);
    let path = std::env::temp_dir().join(format!("quartet-bad-net-{}.bin", std::process::id()));
    let mut bytes = std::fs::read(weights("rnb")).expect("the checked-in weights");
    bytes.truncate(bytes.len() - 2);
    std::fs::write(&path, &bytes).expect("a temporary file");
    let out = e.ask(&format!("setoption name EvalFile value {}", path.display()));
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("info string error: ")
            && out[0].contains("EvalFile: ")
            && out[0].contains("weight bytes"),
        "{out:?}"
    );
    let _ = std::fs::remove_file(&path);
    let out = e.ask("setoption name EvalFile value no-such-file.bin");
    assert!(out[0].contains("EvalFile: no-such-file.bin"), "{out:?}");
    let out = e.ask("setoption name Eval value fancy");
    assert!(out[0].contains("not auto, classical or network"), "{out:?}");
    // The engine goes on.
    e.send("position startpos");
    e.send("go depth 2");
    e.until(|l| l.starts_with("bestmove"));
}

/// The `Nodes searched` of `quartet bench --game GAME --untimed` with `extra` arguments.
fn bench_nodes(game: &str, extra: &[&str]) -> u64 {
    let mut args = vec!["bench", "--game", game, "--untimed"];
    args.extend_from_slice(extra);
    let text = common::succeeds_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), &args);
    text.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {text}"))
}

#[test]
fn the_bench_searches_with_the_evaluation_asked_and_the_declared_one_gives_the_signature() {
    for (game, _, _) in GAMES {
        let kind = GameKind::from_name(game).expect("a game");
        let signature = kind.declaration().bench.signature;
        assert_eq!(bench_nodes(game, &[]), signature, "{game}");
        assert_eq!(bench_nodes(game, &["--eval", "auto"]), signature);
        let classical = bench_nodes(game, &["--eval", "classical"]);
        let network = bench_nodes(game, &["--eval", "network"]);
        assert_ne!(
            network, classical,
            "{game}: the network searches another tree"
        );
        let declared = if network_by_default(game) {
            network
        } else {
            classical
        };
        assert_eq!(declared, signature, "{game}");
        assert_eq!(
            bench_nodes(game, &["--eval", "network"]),
            network,
            "{game}: deterministic"
        );
    }
}
