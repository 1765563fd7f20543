//! The arrows that must never exist (docs/architecture.md): the rules never know the
//! search or anything above them, the search never prints, and the protocol never knows a
//! rule. Checked on the source text, so that a new `use` fails here at once.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (or `dir` itself, if it is a file).
fn sources(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of the files under `src/<dir>` that contain any of `needles` (comments
/// included: a doc link is an arrow too).
fn offending(dir: &str, needles: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(dir);
    let mut found = Vec::new();
    for file in sources(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|needle| line.contains(needle)) {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

/// The layers above the rules, as paths from the crate root.
const ABOVE_THE_RULES: &[&str] = &[
    "search",
    "players",
    "protocol",
    "referee",
    "engine",
    "perft",
    "invariants",
    "history",
    "cli",
    "bench",
    "output",
    "toys",
    "gui",
    "review",
];

fn crate_paths(modules: &[&str]) -> Vec<String> {
    modules.iter().map(|m| format!("crate::{m}")).collect()
}

#[test]
fn the_games_are_rules_notation_and_evaluation_only() {
    let paths = crate_paths(ABOVE_THE_RULES);
    let needles: Vec<&str> = paths.iter().map(String::as_str).collect();
    let found = offending("games", &needles);
    assert!(
        found.is_empty(),
        "src/games reaches above the rules:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_matrix_solver_is_a_leaf() {
    let found = offending("matrix.rs", &["crate::"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_search_never_prints_and_never_reads_input() {
    let found = offending(
        "search",
        &[
            "println!",
            "print!(",
            "eprintln!",
            "stdin",
            "stdout",
            "crate::protocol",
            "crate::output",
        ],
    );
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_protocol_never_knows_a_rule() {
    // The registry (`crate::games::GameKind`, `games::rule_option`) is allowed; a game's
    // own module (`games::duell::...`) is not.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/protocol");
    let mut found = Vec::new();
    for file in sources(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let reaches_a_game = line.match_indices("games::").any(|(i, _)| {
                let rest = &line[i + "games::".len()..];
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                rest[word.len()..].starts_with("::") && word.chars().all(|c| c.is_ascii_lowercase())
            });
            if reaches_a_game {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn src_never_compiles_a_file_from_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in sources(&root) {
        let text = std::fs::read_to_string(&file).expect("a source file");
        if text
            .lines()
            .any(|l| l.contains("#[path") && l.contains("tests/"))
        {
            found.push(file.display().to_string());
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    // Built from parts, so that this file does not name them itself.
    let outside = [
        format!("..{}shared", '/'),
        format!("/{}/", "work"),
        format!("/{}/", "tmp"),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("protocol.md")];
    for dir in ["src", "tests", "scripts", "docs", "fuzz/fuzz_targets"] {
        let mut stack = vec![root.join(dir)];
        while let Some(d) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    files.push(path);
                }
            }
        }
    }
    let mut found = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue; // binary files (screenshots)
        };
        for needle in &outside {
            if text.contains(needle.as_str()) {
                found.push(format!("{} names {needle}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_game_folder_is_registered_and_has_its_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registered: Vec<&str> = quartet::games::GameKind::ALL
        .iter()
        .map(|g| g.name())
        .collect();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(root.join("src/games")).expect("src/games") {
        let path = entry.expect("an entry").path();
        // The kit (src/games/kit/) is what the games share, not a game.
        if path.is_dir() && !path.ends_with("kit") {
            folders.push(
                path.file_name()
                    .expect("a name")
                    .to_string_lossy()
                    .into_owned(),
            );
        }
    }
    folders.sort();
    let mut names: Vec<String> = registered.iter().map(|s| s.to_string()).collect();
    names.sort();
    assert_eq!(
        folders, names,
        "each folder of src/games but the kit is one game of the registry (src/games/mod.rs)"
    );
    for name in registered {
        let rules = root.join("docs/rules").join(format!("{name}.md"));
        assert!(rules.is_file(), "{name}: no rules file {}", rules.display());
    }
}

/// The two literal lists of the games a new game must join (docs/architecture.md lists
/// them): the one games table, in docs/rules/README.md, and the README's first paragraph.
#[test]
fn every_game_has_its_row_of_the_games_table_and_its_name_in_the_readme() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |file: &str| {
        std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    let table = read("docs/rules/README.md");
    let readme = read("README.md");
    let intro = readme
        .split("\n\n")
        .nth(1)
        .expect("README.md: a first paragraph");
    for &game in quartet::games::GameKind::ALL {
        let d = game.declaration();
        let start = quartet::engine::new_game(game, Default::default()).fen();
        let row = table
            .lines()
            .find(|l| l.starts_with(&format!("| {} | `{}` |", d.title, d.name)))
            .unwrap_or_else(|| {
                panic!(
                    "docs/rules/README.md: no row `| {} | `{}` | ...`",
                    d.title, d.name
                )
            });
        assert!(
            row.contains(&format!("`{start}`")),
            "docs/rules/README.md, {}: not its start position `{start}`",
            d.title
        );
        assert!(
            row.ends_with(&format!("| {}.md |", d.name)),
            "docs/rules/README.md, {}: not its rules file {}.md",
            d.title,
            d.name
        );
        assert!(
            intro.contains(&format!("**{}**", d.title)),
            "README.md's first paragraph does not name **{}**",
            d.title
        );
    }
}

/// One layout in every game folder (docs/architecture.md, "Adding a fifth game"): the
/// declaration, rules, notation, evaluation, tests and perft data files; the game's tests
/// attached one way, `tests.rs` (with its parts in `tests/`) as the folder's only test
/// module in `mod.rs`; and a file's own unit tests, when they are too long to stay inline,
/// in `<file>_tests.rs` attached by that file.
#[test]
fn every_game_folder_has_one_layout_and_one_way_to_attach_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for &game in quartet::games::GameKind::ALL {
        let dir = root.join("src/games").join(game.name());
        for file in [
            "mod.rs",
            "rules.rs",
            "notation.rs",
            "eval.rs",
            "tests.rs",
            "perft.data",
        ] {
            assert!(dir.join(file).is_file(), "{}: no {file}", dir.display());
        }
        let module = std::fs::read_to_string(dir.join("mod.rs")).expect("mod.rs");
        let lines: Vec<&str> = module.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.trim() == "#[cfg(test)]" {
                assert_eq!(
                    lines.get(i + 1).map(|l| l.trim()),
                    Some("mod tests;"),
                    "{}/mod.rs:{}: the only test module of mod.rs is `mod tests;`",
                    dir.display(),
                    i + 1
                );
            }
        }
        for path in sources(&dir) {
            let name = path.file_name().expect("a name").to_string_lossy();
            if let Some(owner) = name.strip_suffix("_tests.rs") {
                let owner_file = path.with_file_name(format!("{owner}.rs"));
                let text = std::fs::read_to_string(&owner_file).unwrap_or_else(|_| {
                    panic!("{}: no {owner}.rs beside it to attach it", path.display())
                });
                assert!(
                    text.contains(&format!("#[path = \"{name}\"]")),
                    "{}: not attached by {owner}.rs with #[path = \"{name}\"]",
                    path.display()
                );
            }
        }
    }
}

/// Every line of `src/` fits in 100 columns (rustfmt's `max_width`, which stable rustfmt
/// does not apply to string literals and comments): a long literal is split with a `\`
/// continuation, a long comment rewrapped.
#[test]
fn no_line_of_src_is_over_100_columns() {
    let mut long = Vec::new();
    for path in sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src")) {
        let text = std::fs::read_to_string(&path).expect("a source file");
        for (i, line) in text.lines().enumerate() {
            let width = line.chars().count();
            if width > 100 {
                long.push(format!("{}:{}: {width} columns", path.display(), i + 1));
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}
