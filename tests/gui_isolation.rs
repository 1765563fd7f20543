//! The GUI (src/gui/) must drive engines only through the text protocol: it may not use the
//! crate's rules, search, protocol, referee or player code. This test reads every Rust file
//! under src/gui/ and fails on any path that leaves the gui module, but for the review
//! (`crate::review`), which is itself a client of the protocol and nothing else
//! (tests/review_isolation.rs), so that the page shows what `quartet review` prints.

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
            let inside = ["gui", "review"]
                .iter()
                .any(|m| rest[at + 7..].starts_with(m));
            if !inside {
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
    assert!(escapes("use crate::review::review_game;", false).is_empty());
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
