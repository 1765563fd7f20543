//! The README is a user's guide: at most 300 lines, no commit hashes or issue numbers (research
//! logs go to docs/), and its table of options is exactly what `uci` declares.

use crate::common;

/// The README's most lines.
const MAX_LINES: usize = 300;

/// The marker line before the options table.
const TABLE_MARKER: &str =
    "<!-- options: the engine's `uci` answer, checked by tests/readme.rs -->";

fn readme() -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join("README.md")).expect("README.md")
}

#[test]
fn the_readme_is_a_short_guide_without_hashes_or_issue_numbers() {
    let text = readme();
    let lines = text.lines().count();
    assert!(
        lines <= MAX_LINES,
        "README.md has {lines} lines, at most {MAX_LINES}"
    );
    for (n, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let issue = lower
            .match_indices("issue ")
            .any(|(i, _)| lower[i + 6..].starts_with(|c: char| c.is_ascii_digit()));
        assert!(!issue, "README.md:{}: an issue number: {line}", n + 1);
        let hash = line
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| {
                (7..=40).contains(&word.len())
                    && word.chars().all(|c| c.is_ascii_hexdigit())
                    && word.chars().any(|c| c.is_ascii_digit())
                    && word.chars().any(|c| c.is_ascii_lowercase())
            });
        assert!(!hash, "README.md:{}: a commit hash: {line}", n + 1);
    }
}

/// One `option` line of `uci` as the README's table row: name, type, default, values.
fn row(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    let mut words = rest.split_whitespace();
    let kind = words.next()?;
    let rest: Vec<&str> = words.collect();
    let field = |key: &str| {
        rest.iter()
            .position(|w| *w == key)
            .and_then(|i| rest.get(i + 1))
            .copied()
    };
    let default = match kind {
        "string" => rest
            .iter()
            .position(|w| *w == "default")
            .map(|i| rest[i + 1..].join(" "))
            .unwrap_or_default(),
        _ => field("default").unwrap_or("").to_string(),
    };
    let values = match kind {
        "spin" => format!("{} to {}", field("min")?, field("max")?),
        "combo" if name == "Game" => "a name of `quartet games --names`".to_string(),
        "combo" => rest
            .iter()
            .enumerate()
            .filter(|(_, w)| **w == "var")
            .filter_map(|(i, _)| rest.get(i + 1).copied())
            .collect::<Vec<_>>()
            .join(", "),
        "check" => "true, false".to_string(),
        _ => String::new(),
    };
    let default = if default.is_empty() {
        String::new()
    } else {
        format!("`{default}`")
    };
    Some(format!("| `{name}` | {kind} | {default} | {values} |"))
}

#[test]
fn the_options_table_is_what_uci_declares() {
    let mut expected = vec![
        "| option | type | default | values |".to_string(),
        "|---|---|---|---|".to_string(),
    ];
    expected.extend(
        common::piped(&[], "uci\nquit\n")
            .iter()
            .filter_map(|l| row(l)),
    );
    let text = readme();
    let table: Vec<String> = text
        .lines()
        .skip_while(|l| *l != TABLE_MARKER)
        .skip(1)
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.starts_with('|'))
        .map(str::to_string)
        .collect();
    assert_eq!(
        table,
        expected,
        "README.md's options table (after the line {TABLE_MARKER}) should read:\n{}",
        expected.join("\n")
    );
}
