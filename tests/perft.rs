//! Perft counts from tests/data/<game>.perft, derived independently of the engine's move
//! generators (see each file's comments), checked against the engine through the same
//! text interface the protocol uses. Rows whose count is within the node budget run by
//! default; the rest run with `cargo test --release -- --ignored`.
//!
//! Format: `id <name>`, optional `rules <Option>=<value>` lines (UCI option names:
//! `DoubleStep`, `Pieces`), `pos <position string>`, then `perft <depth> <count>` lines;
//! `#` starts a comment.

use quartet::game::RuleOptions;
use quartet::games::GameKind;

/// Rows with more leaves than this run only in the ignored test.
const NODE_BUDGET: u64 = 3_000_000;

struct Case {
    id: String,
    rules: RuleOptions,
    pos: String,
    rows: Vec<(u32, u64)>,
}

fn load(game: &str) -> Vec<Case> {
    let path = format!("{}/tests/data/{game}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<Case> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        let here = || format!("{path}:{}", n + 1);
        match key {
            "id" => cases.push(Case {
                id: rest.to_string(),
                rules: RuleOptions::default(),
                pos: String::new(),
                rows: Vec::new(),
            }),
            "rules" => {
                let case = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: rules before id", here()));
                for setting in rest.split_whitespace() {
                    match setting.split_once('=') {
                        Some(("DoubleStep", v)) => case.rules.double_step = v == "true",
                        Some(("Pieces", v)) => {
                            case.rules.pieces =
                                v.parse().unwrap_or_else(|_| panic!("{}: Pieces", here()))
                        }
                        _ => panic!("{}: unknown rule setting {setting}", here()),
                    }
                }
            }
            "pos" => {
                cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: pos before id", here()))
                    .pos = rest.to_string()
            }
            "perft" => {
                let mut it = rest.split_whitespace().map(|t| t.parse::<u64>());
                let (Some(Ok(d)), Some(Ok(c)), None) = (it.next(), it.next(), it.next()) else {
                    panic!("{}: bad perft row", here())
                };
                cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{}: perft before id", here()))
                    .rows
                    .push((d as u32, c));
            }
            _ => panic!("{}: unknown line {line}", here()),
        }
    }
    assert!(!cases.is_empty(), "{path} has no cases");
    cases
}

/// Checks every row of `game`'s data file whose count satisfies `selected`; returns how
/// many rows ran.
fn check(game: &str, selected: impl Fn(u64) -> bool) -> usize {
    let kind = GameKind::from_name(game).expect("a game name");
    let mut ran = 0;
    let mut failures = Vec::new();
    for case in load(game) {
        let mut g = kind.new_game(case.rules);
        g.set_position(Some(&case.pos), &[])
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in &case.rows {
            if !selected(expected) {
                continue;
            }
            ran += 1;
            let got = g.perft(depth);
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: expected {expected}, got {got}",
                    case.id
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{game}:\n{}", failures.join("\n"));
    ran
}

macro_rules! perft_tests {
    ($($game:ident),*) => {$(
        mod $game {
            #[test]
            fn rows_within_budget() {
                assert!(super::check(stringify!($game), |n| n <= super::NODE_BUDGET) > 0);
            }

            #[test]
            #[ignore = "deep perft: run with --release -- --ignored"]
            fn deep_rows() {
                super::check(stringify!($game), |n| n > super::NODE_BUDGET);
            }
        }
    )*};
}

perft_tests!(duell, rnb, apocalypse, ludo);
