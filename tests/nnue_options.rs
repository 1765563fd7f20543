//! The `Eval` and `EvalFile` options against the built binary (protocol.md §3): R&B
//! evaluates with its network when asked, a weights file is loaded, and a bad one is
//! refused with the reason while the engine goes on with the weights it had.

mod common;

use common::Engine;

/// The checked-in weights of R&B's network.
fn weights() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/rnb/nnue.bin")
}

/// The score (`cp N`) of `go depth 3` after two placements of R&B, after `setup` lines.
fn score(setup: &[String]) -> String {
    let mut e = Engine::start(&["--game", "rnb"]);
    for line in setup {
        let out = e.ask(line);
        assert!(out.is_empty(), "{line}: {out:?}");
    }
    e.send("position startpos moves R@a2 B@a5");
    e.send("go depth 3");
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
fn the_options_are_declared_with_classical_the_default() {
    let mut e = Engine::start(&[]);
    let lines = e.ask("uci");
    assert!(lines.contains(
        &"option name Eval type combo default classical var classical var network".to_string()
    ));
    assert!(lines.contains(&"option name EvalFile type string default <empty>".to_string()));
}

#[test]
fn the_network_evaluates_when_chosen_and_loads_a_weights_file() {
    let classical = score(&[]);
    let network = score(&["setoption name Eval value network".to_string()]);
    let loaded = score(&[
        format!("setoption name EvalFile value {}", weights().display()),
        "setoption name Eval value Network".to_string(),
    ]);
    assert_eq!(
        network, loaded,
        "the checked-in file is the built-in weights"
    );
    assert_ne!(classical, network);
}

#[test]
fn a_bad_weights_file_is_refused_with_the_reason() {
    let mut e = Engine::start(&["--game", "rnb"]);
    let path = std::env::temp_dir().join(format!("quartet-bad-net-{}.bin", std::process::id()));
    let mut bytes = std::fs::read(weights()).expect("the checked-in weights");
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
    assert!(out[0].contains("not classical or network"), "{out:?}");
    // The engine goes on.
    e.send("position startpos");
    e.send("go depth 2");
    e.until(|l| l.starts_with("bestmove"));
}

/// The `Nodes searched` of `quartet bench --game rnb --untimed` with `extra` arguments.
fn rnb_bench_nodes(extra: &[&str]) -> u64 {
    let mut args = vec!["bench", "--game", "rnb", "--untimed"];
    args.extend_from_slice(extra);
    let text = common::succeeds_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), &args);
    text.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {text}"))
}

#[test]
fn the_bench_searches_with_the_network_when_asked_and_the_signature_otherwise() {
    let signature = quartet::games::GameKind::Rnb.declaration().bench.signature;
    assert_eq!(rnb_bench_nodes(&[]), signature);
    assert_eq!(rnb_bench_nodes(&["--eval", "classical"]), signature);
    let network = rnb_bench_nodes(&["--eval", "network"]);
    assert_ne!(network, signature, "the network searches another tree");
    assert_eq!(
        rnb_bench_nodes(&["--eval", "network"]),
        network,
        "deterministic"
    );
}
