//! The GUI (src/gui/) must drive engines only through the text protocol: it may not use the
//! crate's rules, search, protocol, referee or player code. This test reads every Rust file
//! under src/gui/ and fails on any path that leaves the gui module.

use std::path::Path;

/// The offending lines of one file's text: any `crate::` path that is not `crate::gui`,
/// any `quartet::` path, and any `super::` that climbs out of src/gui/ (from `mod.rs`, or
/// `super::super` from a file beside it).
fn escapes(text: &str, is_mod_rs: bool) -> Vec<String> {
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            if !rest[at + 7..].starts_with("gui") {
                bad.push(format!("line {}: {}", i + 1, line.trim()));
            }
            rest = &rest[at + 7..];
        }
        let climbs = code.contains("super::super") || (is_mod_rs && code.contains("super::"));
        if code.contains("quartet::") || climbs || code.contains("#[path") {
            bad.push(format!("line {}: {}", i + 1, line.trim()));
        }
    }
    bad
}

#[test]
fn the_checker_catches_each_way_out() {
    assert!(escapes("use super::flow::Side;\nuse crate::gui::uci;\n", false).is_empty());
    assert_eq!(escapes("use crate::games::duell;", false).len(), 1);
    assert_eq!(
        escapes("let x = crate::protocol::parse(l);", false).len(),
        1
    );
    assert_eq!(escapes("use quartet::referee::record;", false).len(), 1);
    assert_eq!(escapes("use super::super::search;", false).len(), 1);
    assert_eq!(escapes("use super::games;", true).len(), 1);
    assert_eq!(escapes("#[path = \"../game.rs\"] mod g;", false).len(), 1);
    // Comments do not count.
    assert!(escapes("// crate::games is not used", false).is_empty());
}

#[test]
fn the_gui_uses_no_other_module_of_the_crate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gui");
    let mut files = 0;
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("src/gui exists") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            // Only static assets may live in sub-folders.
            assert_eq!(path.file_name().and_then(|n| n.to_str()), Some("static"));
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).expect("readable");
        let is_mod = path.file_name().and_then(|n| n.to_str()) == Some("mod.rs");
        for line in escapes(&text, is_mod) {
            bad.push(format!("{}: {line}", path.display()));
        }
    }
    assert!(files >= 5, "found only {files} files in {}", dir.display());
    assert!(
        bad.is_empty(),
        "src/gui uses the crate beyond the protocol:\n{}",
        bad.join("\n")
    );
}

/// The modules of src/gui that `text` (one file's code before its tests) uses: every
/// `super::NAME` and `crate::gui::NAME`, in `use` lines and in paths.
fn uses(text: &str) -> std::collections::BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut found = std::collections::BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        for prefix in ["super::", "crate::gui::"] {
            let mut rest = line;
            while let Some(at) = rest.find(prefix) {
                rest = &rest[at + prefix.len()..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name == "{" || name.is_empty() {
                    // `use super::{a, b::c}`: the names in the braces.
                    if let Some(inner) = rest.strip_prefix('{') {
                        let inner = inner.split('}').next().unwrap_or("");
                        for part in inner.split(',') {
                            let n: String = part
                                .trim()
                                .chars()
                                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                                .collect();
                            if !n.is_empty() {
                                found.insert(n);
                            }
                        }
                    }
                } else {
                    found.insert(name);
                }
            }
        }
    }
    found
}

/// Every module of src/gui (file stem) with the modules it uses and whether it names the
/// async runtime or the web server (tokio, axum) itself.
fn gui_modules() -> std::collections::BTreeMap<String, (std::collections::BTreeSet<String>, bool)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gui");
    let mut modules = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("src/gui exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        if stem == "mod" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        let code = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or(&text)
            .to_string();
        let io = code.contains("tokio") || code.contains("axum");
        let mut used = uses(&text);
        used.remove(stem);
        modules.insert(stem.to_string(), (used, io));
    }
    modules
}

#[test]
fn the_checker_finds_the_modules_a_file_uses() {
    let used = uses(
        "use super::flow::{Actor, Side};\nuse super::{game, lines::Lines};\nlet x = super::dice::roll_at(1);\n// super::nothing\n#[cfg(test)]\nuse super::talk;",
    );
    let names: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(names, ["dice", "flow", "game", "lines"]);
}

#[test]
fn the_guis_modules_use_each_other_without_a_circle() {
    // Issue 39 §4: a 7-file import circle ran through src/gui (the session's data, its
    // methods and the types they shared). A module may use another only down the line.
    let modules = gui_modules();
    fn visit(
        m: &str,
        modules: &std::collections::BTreeMap<String, (std::collections::BTreeSet<String>, bool)>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            return Some(path[i..].to_vec());
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for next in modules.get(m).map(|(u, _)| u.clone()).unwrap_or_default() {
            if let Some(circle) = visit(&next, modules, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    for m in modules.keys() {
        if let Some(circle) = visit(m, &modules, &mut Vec::new(), &mut done) {
            panic!(
                "the modules of src/gui use each other in a circle: {}",
                circle.join(" -> ")
            );
        }
    }
    assert!(modules.len() >= 20, "{} modules", modules.len());
}

#[test]
fn the_game_flow_core_knows_no_socket_engine_or_timer() {
    // Issue 39 §4: the session split into an I/O shell (socket, engine process, channels,
    // timers) and a pure game-flow core that the unit tests reach without a socket. No core
    // module names the async runtime or the web server, or uses a module that does.
    let modules = gui_modules();
    let core = [
        "game",
        "decide",
        "flow",
        "lines",
        "variations",
        "review",
        "places",
        "limits",
        "dice",
        "clock",
        "recording",
        "record",
        "request",
        "uci",
        "answers",
        "snapshot",
        "fault",
    ];
    fn reaches_io(
        m: &str,
        modules: &std::collections::BTreeMap<String, (std::collections::BTreeSet<String>, bool)>,
        seen: &mut std::collections::BTreeSet<String>,
    ) -> Option<String> {
        if !seen.insert(m.to_string()) {
            return None;
        }
        let (used, io) = modules.get(m)?;
        if *io {
            return Some(m.to_string());
        }
        used.iter()
            .find_map(|u| reaches_io(u, modules, seen).map(|io| format!("{m} -> {io}")))
    }
    for m in core {
        assert!(modules.contains_key(m), "no module {m}");
        if let Some(path) = reaches_io(m, &modules, &mut std::collections::BTreeSet::new()) {
            panic!("the core module {m} reaches I/O: {path}");
        }
    }
    // And the shell is where the I/O is.
    for m in ["session", "sessions", "io", "engine", "server"] {
        assert!(
            modules.get(m).is_some_and(|(_, io)| *io),
            "{m} names no I/O"
        );
    }
}
