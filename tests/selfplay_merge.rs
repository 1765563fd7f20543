//! `quartet selfplay merge` of the shards 1/4 .. 4/4 of a run writes the unsharded run's
//! file byte for byte (README, "Self-play data"), whatever order the shards are given in.

use std::path::Path;
use std::process::Command;

/// Runs `quartet` with `args` in `dir`; fails the test unless it succeeds.
fn quartet(dir: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("start quartet");
    assert!(
        out.status.success(),
        "quartet {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn merged_shards_are_the_unsharded_file_byte_for_byte() {
    let dir = std::env::temp_dir().join(format!("quartet-selfplay-merge-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let run = [
        "selfplay", "--game", "duell", "--games", "10", "--nodes", "300",
    ];
    let run = |extra: &[&str]| quartet(&dir, &[&run[..], extra, &["--no-progress"]].concat());
    run(&["--out", "whole.txt"]);
    for i in 1..=4 {
        run(&[
            "--shard",
            &format!("{i}/4"),
            "--out",
            &format!("shard-{i}.txt"),
        ]);
    }
    // Out of order, and the shards' games interleave (game g is in shard g mod 4 + 1).
    quartet(
        &dir,
        &[
            "selfplay",
            "merge",
            "--out",
            "merged.txt",
            "shard-3.txt",
            "shard-1.txt",
            "shard-4.txt",
            "shard-2.txt",
        ],
    );
    let read = |name: &str| std::fs::read(dir.join(name)).expect(name);
    let (whole, merged) = (read("whole.txt"), read("merged.txt"));
    let text = String::from_utf8_lossy(&whole);
    assert!(
        text.lines().count() > 10,
        "too few positions to compare:\n{text}"
    );
    assert!(
        text.starts_with("# quartet-selfplay 1 game=duell "),
        "{text}"
    );
    assert!(
        whole == merged,
        "merged:\n{}\nunsharded:\n{text}",
        String::from_utf8_lossy(&merged)
    );
    // A shard's own file is not the whole run's (the test would pass for one shard of 1).
    assert_ne!(read("shard-1.txt"), whole);
    let _ = std::fs::remove_dir_all(&dir);
}
