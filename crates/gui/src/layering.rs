//! How the GUI's modules use each other (issue 39 §4): the session split into an I/O shell
//! (socket, engine process, channels, timers) and a pure game-flow core that the unit tests
//! reach without a socket. These tests read the crate's own files: no module circle, and no
//! core module that names tokio or axum or uses a module that does. (That the GUI uses no
//! other crate of the workspace but the review's core, a client of the protocol like it,
//! so that the protocol is its only way to an engine, is its manifest's.)

use std::path::Path;

/// The modules of this crate that `text` (one file's code before its tests) uses: every
/// `super::NAME` and `crate::NAME`, in `use` lines and in paths.
fn uses(text: &str) -> std::collections::BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    let mut found = std::collections::BTreeSet::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        for prefix in ["super::", "crate::"] {
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

/// Every module of this crate (file stem) with the modules it uses and whether it names the
/// async runtime or the web server (tokio, axum) itself.
fn gui_modules() -> std::collections::BTreeMap<String, (std::collections::BTreeSet<String>, bool)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut modules = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(&dir).expect("the crate's src") {
        let path = entry.expect("a directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        if stem == "lib" || stem == "layering" {
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
    let used = uses(concat!(
        "use super::flow::{Actor, Side};\n",
        "use super::{game, lines::Lines};\n",
        "let x = crate::dice::roll_at(1);\n",
        "// super::nothing\n",
        "#[cfg(test)]\nuse super::talk;",
    ));
    let names: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(names, ["dice", "flow", "game", "lines"]);
}

#[test]
fn the_guis_modules_use_each_other_without_a_circle() {
    // Issue 39 §4: a 7-file import circle ran through the GUI (the session's data, its
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
                "the modules of quartet-gui use each other in a circle: {}",
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
        "clock_log",
        "recording",
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
