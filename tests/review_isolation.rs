//! The review's core (src/review/) reaches engines only through the text protocol and uses
//! no other module of the crate, so that the GUI, a client of the protocol, can run the
//! same review (docs/review.md, "Design"). This test reads every Rust file under
//! src/review/ and fails on any path that leaves the review module.

use std::path::Path;

/// The offending lines of one file's text: any `crate::` path that is not
/// `crate::review`, any `quartet::` path, any `super::` that climbs out of src/review/
/// (from `mod.rs`, or `super::super` from a file beside it) and any `#[path`.
fn escapes(text: &str, is_mod_rs: bool) -> Vec<String> {
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            if !rest[at + 7..].starts_with("review") {
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
    assert!(escapes("use super::facts::Side;\nuse crate::review::uci;\n", false).is_empty());
    assert_eq!(escapes("use crate::games::duell;", false).len(), 1);
    assert_eq!(escapes("use crate::referee::record;", false).len(), 1);
    assert_eq!(escapes("use quartet::search;", false).len(), 1);
    assert_eq!(escapes("use super::super::search;", false).len(), 1);
    assert_eq!(escapes("use super::games;", true).len(), 1);
    assert_eq!(escapes("#[path = \"../game.rs\"] mod g;", false).len(), 1);
    assert!(escapes("// crate::games is not used", false).is_empty());
}

#[test]
fn the_review_uses_no_other_module_of_the_crate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/review");
    let mut files = 0;
    let mut bad = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("src/review exists") {
        let path = entry.expect("a directory entry").path();
        assert!(
            !path.is_dir(),
            "no folders under src/review: {}",
            path.display()
        );
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
        "src/review uses the crate beyond the protocol:\n{}",
        bad.join("\n")
    );
}
