//! The checked-in playthroughs (`tests/playthroughs/`): one seeded game per game and per
//! rule setting through the protocol, every line the engine shows. A change to the text of
//! any answer shows here as a diff; a new game needs no test, only its transcripts, which
//! the failure says how to write (docs/architecture.md, "Playthroughs").

use quartet_protocol::playthrough::{settings, transcript};
use std::path::{Path, PathBuf};

/// The seed of every checked-in playthrough.
const SEED: u64 = 1;

/// The command that writes every transcript again (docs/architecture.md).
const WRITE_ALL: &str = "cargo run -- playthrough --write tests/playthroughs";

fn file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/playthroughs")
        .join(format!("{name}.txt"))
}

#[test]
fn every_game_and_rule_setting_plays_through_as_checked_in() {
    let mut differ = Vec::new();
    for (game, rules, name) in settings() {
        let fresh = transcript(game, &rules, SEED).expect("a session");
        let command = fresh
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("# ");
        let path = file(&name);
        match std::fs::read_to_string(&path) {
            Ok(kept) if kept == fresh => {}
            Ok(kept) => {
                let at = kept
                    .lines()
                    .zip(fresh.lines())
                    .position(|(a, b)| a != b)
                    .map_or(kept.lines().count().min(fresh.lines().count()), |i| i);
                differ.push(format!(
                    "tests/playthroughs/{name}.txt: differs from line {} on ({:?}, now {:?}); \
                     if the change is meant, write them again: {WRITE_ALL}",
                    at + 1,
                    kept.lines().nth(at).unwrap_or("(end)"),
                    fresh.lines().nth(at).unwrap_or("(end)"),
                ));
            }
            Err(_) => differ.push(format!(
                "tests/playthroughs/{name}.txt ({command}): missing; write them: {WRITE_ALL}"
            )),
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn the_command_writes_what_the_test_compares() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["playthrough", "--game", "ludo", "--pieces", "2"])
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let kept = std::fs::read_to_string(file("ludo-pieces-2")).expect("the transcript");
    assert_eq!(String::from_utf8_lossy(&out.stdout), kept);
}

#[test]
fn no_transcript_is_left_without_its_setting() {
    let names: Vec<String> = settings().into_iter().map(|(_, _, n)| n).collect();
    for entry in std::fs::read_dir(file("x").parent().expect("the folder")).expect("it exists") {
        let path = entry.expect("an entry").path();
        let stem = path
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        assert!(
            names.contains(&stem),
            "{}: no game or setting",
            path.display()
        );
    }
}
