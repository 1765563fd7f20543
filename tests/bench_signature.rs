//! The bench node signature pinned as checked-in data (`tests/data/bench.signature`): the
//! nodes `quartet bench --untimed` searches must be exactly those numbers.

use std::process::Command;

/// `(name, nodes)` pairs of the signature file.
fn pinned() -> Vec<(String, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bench.signature");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, n) = l.split_once(' ').unwrap_or_else(|| panic!("bad line {l:?}"));
            (name.to_string(), n.trim().parse().unwrap_or_else(|_| panic!("bad count {l:?}")))
        })
        .collect()
}

/// `(name, nodes)` as the bench prints them.
fn measured() -> Vec<(String, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["bench", "--untimed"])
        .output()
        .expect("run quartet bench");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(total) = line.strip_prefix("Nodes searched: ") {
            rows.push(("total".to_string(), total.trim().parse().expect("a count")));
        } else if let Some((name, rest)) = line.split_once(' ') {
            if let Some(nodes) = rest.split(": ").nth(1).and_then(|r| r.split(' ').next()) {
                if let Ok(n) = nodes.parse() {
                    rows.push((name.to_string(), n));
                }
            }
        }
    }
    rows
}

#[test]
fn the_bench_searches_exactly_the_pinned_node_counts() {
    assert_eq!(
        measured(),
        pinned(),
        "the node signature changed: if that is intended, update tests/data/bench.signature"
    );
}
