//! `quartet replay` against the binary: Quartet's records replay with no flag but the file
//! (their tags name the game and every rule option), another program's (cutegames' PGN,
//! tests/data/cutegames/, written to its pgn.cpp's format: no `Game` tag, `FEN "startpos"`,
//! move numbers, an `Adjudicated` tag) replay unchanged with `--game`, and what disagrees
//! or is illegal is refused with the reason.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `quartet args...`; returns (success, stdout + stderr).
fn quartet(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .output()
        .expect("run quartet");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/cutegames")
        .join(name)
        .display()
        .to_string()
}

/// A scratch file under the target directory (each test its own name).
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay_records");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

#[test]
fn cutegames_records_replay_unchanged_with_the_game_named() {
    for (game, games) in [("duell", 2), ("rnb", 2), ("ludo", 3)] {
        let file = data(&format!("{game}.pgn"));
        let (ok, text) = quartet(&["replay", "--game", game, &file]);
        assert!(ok, "{game}: {text}");
        assert!(
            text.contains(&format!("{games} games, every move legal")),
            "{text}"
        );
        // Without a Game tag or --game the reader cannot know the game, and says so.
        let (ok, text) = quartet(&["replay", &file]);
        assert!(!ok);
        assert!(
            text.contains("no Game tag: say which game with --game"),
            "{text}"
        );
    }
}

#[test]
fn another_program_s_illegal_move_is_refused_with_its_ply_and_reason() {
    let text = std::fs::read_to_string(data("duell.pgn")).expect("read");
    // The first record's 3rd token (after the numbers `1.` and `2.`): White's h1h2 becomes
    // h1h5, a die of 1 pip moving 4 squares.
    let bad = text.replacen("2. h1h2 ", "2. h1h5 ", 1);
    assert_ne!(bad, text, "the record starts as expected");
    let file = scratch("illegal.pgn");
    std::fs::write(&file, bad).expect("write");
    let (ok, out) = quartet(&["replay", "--game", "duell", &file.display().to_string()]);
    assert!(!ok);
    assert!(out.contains("game 1, ply 3: illegal move 'h1h5'"), "{out}");
}

#[test]
fn quartet_s_records_replay_from_the_file_alone_and_a_disagreeing_flag_is_named() {
    let pgn = scratch("pieces2.pgn");
    let pgn = pgn.display().to_string();
    let binary = env!("CARGO_BIN_EXE_quartet");
    let (ok, out) = quartet(&[
        "match",
        "--game",
        "ludo",
        "--pieces",
        "2",
        "--engine",
        &format!("cmd={binary}"),
        "--engine",
        &format!("cmd={binary}"),
        "--games",
        "2",
        "--nodes",
        "50",
        "--pgnout",
        &pgn,
        "--no-progress",
    ]);
    assert!(ok, "{out}");
    let records = std::fs::read_to_string(&pgn).expect("records");
    assert!(records.contains("[Game \"ludo\"]"), "{records}");
    assert!(records.contains("[Pieces \"2\"]"), "{records}");
    let (ok, out) = quartet(&["replay", &pgn]);
    assert!(ok, "no flag but the file: {out}");
    let (ok, out) = quartet(&["replay", "--pieces", "3", &pgn]);
    assert!(!ok);
    assert!(
        out.contains("the record's Pieces tag says '2', --pieces says '3'"),
        "{out}"
    );
    let (ok, out) = quartet(&["replay", "--game", "duell", &pgn]);
    assert!(!ok);
    assert!(
        out.contains("the record's Game tag says 'ludo', --game says 'duell'"),
        "{out}"
    );
    // A flag that agrees is accepted.
    let (ok, out) = quartet(&["replay", "--game", "ludo", "--pieces", "2", &pgn]);
    assert!(ok, "{out}");
}
