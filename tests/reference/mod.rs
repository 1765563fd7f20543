//! Independent reference implementations of the alternating games (Duell, R&B), written
//! straight from the rules files with std only, and a reader for the perft data files
//! (`tests/data/<game>.perft`) they check.

pub mod duell;
pub mod game;
pub mod rnb;

pub use duell::Duell;
pub use game::ReferenceGame;
pub use rnb::Rnb;

/// One `perft <depth> <count>` line; `slow` if the line ends with the comment `# slow`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRow {
    /// Plies below the position.
    pub depth: u32,
    /// Leaf nodes at that depth.
    pub count: u64,
    /// Too expensive for the default test run; checked by an `#[ignore]` test.
    pub slow: bool,
}

/// One block of a perft file: `id`, `pos`, and its `perft` rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The block's short name (unique in its file).
    pub id: String,
    /// The position string, in the game's own notation.
    pub pos: String,
    /// The perft rows, in file order.
    pub rows: Vec<PerftRow>,
    /// From a comment `# from <id> by <token> <token> ...` in the block: the position is
    /// what these tokens give when played from block `<id>`'s position.
    pub derivation: Option<(String, Vec<String>)>,
}

/// Reads a perft file. `#` starts a comment (whole line or after a `perft` row). Panics
/// with the line number on any malformed line: the data is part of the test suite.
pub fn read_perft_file(text: &str) -> Vec<PerftCase> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut pending_derivation = None;
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        let line = line.trim();
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(rest) = comment.trim().strip_prefix("from ") {
                let (base, tokens) = rest
                    .split_once(" by ")
                    .unwrap_or_else(|| panic!("line {line_no}: `# from <id> by <tokens>`"));
                let tokens = tokens.split_whitespace().map(str::to_string).collect();
                pending_derivation = Some((base.trim().to_string(), tokens));
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let (keyword, rest) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("line {line_no}: no argument"));
        match keyword {
            "id" => cases.push(PerftCase {
                id: rest.trim().to_string(),
                pos: String::new(),
                rows: Vec::new(),
                derivation: pending_derivation.take(),
            }),
            "pos" => {
                let case = cases.last_mut().expect("`pos` before any `id`");
                assert!(case.pos.is_empty(), "line {line_no}: second `pos`");
                case.pos = rest.trim().to_string();
            }
            "perft" => {
                let (row, comment) = match rest.split_once('#') {
                    Some((row, comment)) => (row, comment.trim()),
                    None => (rest, ""),
                };
                let numbers: Vec<u64> = row
                    .split_whitespace()
                    .map(|n| n.parse().expect("a number"))
                    .collect();
                assert_eq!(numbers.len(), 2, "line {line_no}: `perft <depth> <count>`");
                let case = cases.last_mut().expect("`perft` before any `id`");
                case.rows.push(PerftRow {
                    depth: numbers[0] as u32,
                    count: numbers[1],
                    slow: comment == "slow",
                });
            }
            other => panic!("line {line_no}: unknown keyword {other:?}"),
        }
    }
    assert!(
        pending_derivation.is_none(),
        "a `# from` comment after the last block"
    );
    for case in &cases {
        assert!(!case.pos.is_empty(), "block {} has no `pos`", case.id);
        assert!(
            !case.rows.is_empty(),
            "block {} has no `perft` row",
            case.id
        );
    }
    cases
}
