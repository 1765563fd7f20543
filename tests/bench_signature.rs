//! The bench node signature, pinned in each game's declaration (`BenchSpec::signature`, in
//! the game's folder): the nodes `quartet bench --untimed` searches for a game must be
//! exactly its declared number, and the total their sum.

use quartet_games::GameKind;
use std::process::Command;

/// `(name, nodes)` as the declarations pin them, then the total.
fn pinned() -> Vec<(String, u64)> {
    let mut rows: Vec<(String, u64)> = GameKind::ALL
        .iter()
        .map(|g| (g.name().to_string(), g.declaration().bench.signature))
        .collect();
    let total = rows.iter().map(|r| r.1).sum();
    rows.push(("total".to_string(), total));
    rows
}

/// `(name, nodes)` as the bench prints them.
fn measured() -> Vec<(String, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["bench", "--untimed"])
        .output()
        .expect("run quartet bench");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(total) = line.strip_prefix("Nodes searched: ") {
            rows.push(("total".to_string(), total.trim().parse().expect("a count")));
        } else if let Some((name, rest)) = line.split_once(' ')
            && let Some(nodes) = rest.split(": ").nth(1).and_then(|r| r.split(' ').next())
            && let Ok(n) = nodes.parse()
        {
            rows.push((name.to_string(), n));
        }
    }
    rows
}

#[test]
fn the_bench_searches_exactly_the_pinned_node_counts() {
    assert_eq!(
        measured(),
        pinned(),
        "the node signature changed: if that is intended, update the game's \
         `BenchSpec::signature` (its mod.rs)"
    );
}
