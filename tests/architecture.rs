//! The architecture (docs/architecture.md): the crates depend on each other as its table
//! says (the compiler then refuses every other arrow), and what the compiler cannot see:
//! the matrix solver is a leaf of its crate, the search never prints, no crate compiles
//! another's files, no file names a path outside the repository, and every game folder has
//! its registration, its rules file and its layout.

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

/// The lines of the files under `dir` (relative to the repository) that contain any of
/// `needles`.
fn offending(dir: &str, needles: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
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

/// Every folder of Rust source: the top-level binary's `src/` and each crate's.
fn source_roots() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("src")];
    roots.extend(crates().into_iter().map(|(_, dir, _)| dir.join("src")));
    roots
}

/// Each crate of the workspace: its package name, its folder, and the workspace crates its
/// `[dependencies]` name (its dev-dependencies are not arrows of the product).
fn crates() -> Vec<(String, PathBuf, Vec<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("crates/") {
        let path = entry.expect("an entry").path();
        let manifest = std::fs::read_to_string(path.join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = manifest
            .lines()
            .find_map(|l| l.strip_prefix("name = \""))
            .and_then(|rest| rest.strip_suffix('"'))
            .expect("a package name")
            .to_string();
        let deps = manifest_dependencies(&manifest);
        out.push((name, path, deps));
    }
    out.sort();
    out
}

/// The workspace crates (`quartet-*`) named in a manifest's `[dependencies]` table.
fn manifest_dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_deps = line.trim() == "[dependencies]";
        } else if in_deps && line.starts_with("quartet-") {
            let name: String = line
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '-')
                .collect();
            deps.push(name);
        }
    }
    deps.sort();
    deps
}

/// docs/architecture.md's table of the crates: each row `| `quartet-x` | `crates/x` |
/// `quartet-a`, `quartet-b` | ... |` (or `—` for none) as (name, folder, dependencies).
fn documented_crates() -> Vec<(String, String, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/architecture.md");
    let text = std::fs::read_to_string(&path).expect("docs/architecture.md");
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("| `quartet-")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let unquote = |c: &str| c.trim_matches('`').to_string();
        let mut deps: Vec<String> = cells[3]
            .split(',')
            .map(str::trim)
            .filter(|d| d.starts_with('`'))
            .map(unquote)
            .collect();
        deps.sort();
        rows.push((unquote(cells[1]), unquote(cells[2]), deps));
    }
    rows.sort();
    rows
}

/// The layers as crates: the arrows between them are the dependencies of their manifests,
/// so the compiler refuses any other `use`. This keeps the manifests equal to the table of
/// docs/architecture.md, the one place the arrows are decided.
#[test]
fn the_crates_depend_on_each_other_as_documented() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let actual: Vec<(String, String, Vec<String>)> = crates()
        .into_iter()
        .map(|(name, dir, deps)| {
            let folder = dir
                .strip_prefix(root)
                .expect("inside the repository")
                .to_string_lossy()
                .into_owned();
            (name, folder, deps)
        })
        .collect();
    assert_eq!(actual, documented_crates());
    // The binary at the top: every crate but the test kit.
    let top = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let top_deps = manifest_dependencies(&top);
    assert!(!top_deps.iter().any(|d| d == "quartet-testkit"));
}

#[test]
fn the_manifest_reader_sees_dependencies_only() {
    let manifest = "[package]\nname = \"quartet-x\"\n[dependencies]\nquartet-core.workspace = \
                    true\nquartet-gui = { workspace = true, optional = true }\nrand = \"1\"\n\
                    [dev-dependencies]\nquartet-testkit.workspace = true\n";
    assert_eq!(
        manifest_dependencies(manifest),
        ["quartet-core", "quartet-gui"]
    );
}

/// What the compiler cannot see inside one crate: `matrix` (zero-sum matrix games) uses
/// nothing of the core crate around it.
#[test]
fn the_matrix_solver_is_a_leaf() {
    let found = offending("crates/core/src/matrix.rs", &["crate::"]);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_search_never_prints_and_never_reads_input() {
    // The product only: a test may say what it measured.
    let found: Vec<String> = offending(
        "crates/search/src",
        &["println!", "print!(", "eprintln!", "stdin", "stdout"],
    )
    .into_iter()
    .filter(|line| {
        !line
            .split(':')
            .next()
            .is_some_and(|f| f.ends_with("tests.rs"))
    })
    .collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// A crate compiles only its own files: no `#[path]` or `include!` reaches out of its
/// folder, so the crates' dependencies are all the arrows there are.
#[test]
fn no_crate_compiles_a_file_of_another() {
    let mut found = Vec::new();
    for root in source_roots() {
        for file in sources(&root) {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                let includes = code.contains("#[path") || code.contains("include!(");
                if includes && code.contains("..") {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn src_never_compiles_a_file_from_tests() {
    let mut found = Vec::new();
    for file in source_roots().iter().flat_map(|r| sources(r)) {
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
    for dir in [
        "src",
        "crates",
        "tests",
        "scripts",
        "docs",
        "fuzz/fuzz_targets",
    ] {
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
    let registered: Vec<&str> = quartet_games::GameKind::ALL
        .iter()
        .map(|g| g.name())
        .collect();
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(root.join("crates/games/src")).expect("crates/games/src") {
        let path = entry.expect("an entry").path();
        // The kit (crates/games/src/kit/) is what the games share, not a game.
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
        "each folder of crates/games/src but the kit is one game of the registry (its lib.rs)"
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
    for &game in quartet_games::GameKind::ALL {
        let d = game.declaration();
        let start = quartet_engine::new_game(game, Default::default()).fen();
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
    for &game in quartet_games::GameKind::ALL {
        let dir = root.join("crates/games/src").join(game.name());
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

/// Every line of the Rust sources fits in 100 columns (rustfmt's `max_width`, which stable rustfmt
/// does not apply to string literals and comments): a long literal is split with a `\`
/// continuation, a long comment rewrapped.
#[test]
fn no_line_of_src_is_over_100_columns() {
    let mut long = Vec::new();
    for path in source_roots().iter().flat_map(|r| sources(r)) {
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

/// Where the games may be written out one by one: the registry, the one table of the games,
/// the README's first paragraph (docs/architecture.md, "Adding a fifth game"), the browser
/// board's table of its board modules, and the generated transcripts. Measurement notes in
/// docs/ (tables of results per game) and the training recipes of the checked-in weights
/// (scripts/train.sh, one target per game's weights) are records, not lists a new game must
/// join.
const LISTS_MAY_STAND_IN: &[&str] = &[
    "crates/games/src/lib.rs",
    "docs/rules/README.md",
    "crates/gui/src/static/ui.js",
    "scripts/train.sh",
];

/// Whether `line` names every game of the registry (by its `Game` value or its title), as a
/// list of them does.
fn lists_every_game(line: &str) -> bool {
    let lower = line.to_lowercase();
    quartet_engine::GameKind::ALL.iter().all(|g| {
        let d = g.declaration();
        lower.contains(d.name) || lower.contains(&d.title.to_lowercase())
    })
}

#[test]
fn the_list_detector_sees_a_list_and_nothing_less() {
    let names: Vec<&str> = quartet_engine::GameKind::ALL
        .iter()
        .map(|g| g.name())
        .collect();
    assert!(lists_every_game(&format!("for game in {names:?}")));
    assert!(!lists_every_game(&format!("for game in {:?}", &names[1..])));
}

/// A new game touches only the places docs/architecture.md names: no other file writes the
/// games out (tests, scripts, help texts and protocol.md read the registry, `quartet games`,
/// or docs/rules/README.md instead).
#[test]
fn no_file_lists_the_games_but_the_places_a_new_game_joins() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tracked = std::process::Command::new("git")
        .args(["ls-files"])
        .current_dir(root)
        .output();
    let Some(tracked) = tracked.ok().filter(|o| o.status.success()) else {
        return; // not a git checkout (a source package): nothing to compare
    };
    let mut found = Vec::new();
    for file in String::from_utf8_lossy(&tracked.stdout).lines() {
        let measurement_note = file.starts_with("docs/") && file != "docs/architecture.md";
        if LISTS_MAY_STAND_IN.contains(&file)
            || measurement_note
            || file.starts_with("tests/playthroughs/")
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue; // binary
        };
        // The README's first paragraph names the games (the one place it must).
        let skip = if file == "README.md" {
            text.split("\n\n")
                .take(2)
                .map(|p| p.lines().count())
                .sum::<usize>()
        } else {
            0
        };
        for (n, line) in text.lines().enumerate().skip(skip) {
            if lists_every_game(line) {
                found.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the games written out:\n{}",
        found.join("\n")
    );
}
