//! Every shell command block of README.md, protocol.md and docs/, run as written (or as
//! near as this machine allows), so that a newcomer who copies one gets what it says.
//!
//! **Which blocks.** A code block (indented or fenced, `tests/common/markdown.rs`) without
//! session lines (`> `, those are `tests/doc_examples.rs`'s) is a command block when it is
//! fenced as `sh`, `bash`, `shell` or `console`, or when one of its lines begins with a word
//! of [`COMMANDS`] or with a shell assignment (`BASE=...`). Every command block must have an
//! entry in the table at the bottom ([`BLOCKS`], found by file and first line), and every
//! entry a block: a new block fails [`every_command_block_is_in_the_table`] until it is
//! classified, a changed one until its entry follows.
//!
//! **How a block is treated** ([`How`]):
//! - run: `bash -e -c` with the block's text, in a fresh temporary directory holding
//!   `target/release/quartet` (a link to the binary this test built, so the README's path
//!   runs it), a copy of `scripts/` (books, Python helpers), and the parent folders of every
//!   `--out` file; `PATH` starts with the binary's folder, so `quartet` is that binary too.
//!   The entry's substitutions (`subs`) are applied first: what this machine lacks
//!   (`cargo run --release` is the binary already built; a baseline build is this build).
//!   Every substitution must occur in the block, so a stale one fails;
//! - run smaller: as run, with the entry's `sizes` substitutions too (`--games 400` ->
//!   `--games 8`); a second test, `--ignored`, runs the block with `subs` only;
//! - a Slurm script: its `#SBATCH --array=a-b` is read and the script is run once per index
//!   with `SLURM_ARRAY_TASK_ID` set;
//! - a server: started, its first line checked, then stopped;
//! - parsed only: the synopsis of subcommands (each subcommand and each `--flag` must be in
//!   `quartet ... --help`);
//! - not run: `cargo test` itself (it cannot run inside its own run). Such a block carries
//!   the marker `<!-- doc-commands: not run (reason) -->` as the last line before it, and
//!   the test checks what it can (the features and test files it names exist).

use crate::common;

use common::markdown::{self, Block};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The first words that make a line a shell command.
const COMMANDS: &[&str] = &[
    "cargo",
    "quartet",
    "./target/release/quartet",
    "parallel",
    "python3",
    "bash",
    "sh",
    "sbatch",
    "printf",
    "#!/bin/sh",
    "#!/bin/bash",
];

/// The marker of a block that is not run, as the last line before it.
const NOT_RUN: &str = "<!-- doc-commands: not run (";

/// Text substitutions: `(what the block says, what the test runs)`.
type Subs = &'static [(&'static str, &'static str)];

/// How one block is treated (see the crate comment).
enum How {
    /// Run with `subs`, and `sizes` unless in the `--ignored` run as written; it must
    /// succeed, the output (stdout and stderr) of the run with `sizes` must contain every
    /// `expect`, and `check` (given the directory and whether the run was as written) must
    /// pass.
    Run {
        subs: Subs,
        sizes: Subs,
        expect: &'static [&'static str],
        check: Option<fn(&Path, bool)>,
    },
    /// A Slurm array script: the body is run once per array index.
    Slurm {
        sizes: Subs,
        expect: &'static [&'static str],
        check: Option<fn(&Path, bool)>,
    },
    /// A server: started with `subs`, its first line must begin with `expect`.
    Server { subs: Subs, expect: &'static str },
    /// A synopsis of `quartet` subcommands with placeholders: parsed only.
    Synopsis,
    /// Not run (it carries the marker); `check` checks what it can.
    NotRun(fn(&Block)),
}

/// One classified block.
struct Entry {
    file: &'static str,
    first: &'static str,
    how: How,
}

/// The Markdown files whose blocks are checked, relative to the crate.
fn markdown_files() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .expect("read docs/")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                let rel = path.strip_prefix(root).expect("under the crate");
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec!["README.md".to_string(), "protocol.md".to_string()];
    walk(&root.join("docs"), root, &mut files);
    files
}

/// The text of a Markdown file of the crate.
fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).expect(file)
}

/// The first non-blank line of a block.
fn first_line(block: &Block) -> &str {
    block
        .lines
        .iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// Whether a block is a shell command block (the rule of the crate comment).
fn is_command_block(block: &Block) -> bool {
    if block.lines.iter().any(|l| l.starts_with("> ")) {
        return false;
    }
    if ["sh", "bash", "shell", "console"].contains(&block.info.as_str()) {
        return true;
    }
    block.lines.iter().any(|line| {
        let word = line.split_whitespace().next().unwrap_or("");
        let assignment = word.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        });
        COMMANDS.contains(&word) || assignment
    })
}

/// The command blocks of every checked file, with their file.
fn command_blocks() -> Vec<(String, Block)> {
    markdown_files()
        .into_iter()
        .flat_map(|file| {
            let text = read(&file);
            markdown::blocks(&text)
                .into_iter()
                .filter(is_command_block)
                .map(move |b| (file.clone(), b))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The block of an entry (there must be exactly one).
fn block_of(file: &str, first: &str) -> Block {
    let found: Vec<Block> = command_blocks()
        .into_iter()
        .filter(|(f, b)| f == file && first_line(b) == first)
        .map(|(_, b)| b)
        .collect();
    assert_eq!(found.len(), 1, "{file}: blocks beginning '{first}'");
    found.into_iter().next().expect("one")
}

/// `text` with every substitution applied; each must occur.
fn substitute(mut text: String, subs: Subs) -> String {
    for (from, to) in subs {
        assert!(
            text.contains(from),
            "the substitution '{from}' -> '{to}' no longer fits the block:\n{text}"
        );
        text = text.replace(from, to);
    }
    text
}

/// A fresh directory for one block's commands (see the crate comment).
fn sandbox(name: &str, script: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "quartet-doc-commands-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target/release")).expect("temporary directory");
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_quartet"),
        dir.join("target/release/quartet"),
    )
    .expect("link the binary");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts"),
        &dir.join("scripts"),
    );
    let words: Vec<&str> = script.split_whitespace().collect();
    for pair in words.windows(2).filter(|w| w[0] == "--out") {
        if let Some(parent) = Path::new(pair[1]).parent() {
            std::fs::create_dir_all(dir.join(parent)).expect("an --out folder");
        }
    }
    dir
}

/// Copies a directory tree.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create");
    for entry in std::fs::read_dir(from).expect("read") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// A shell in `dir` with the binary's folder first on `PATH`.
fn shell(dir: &Path, shell: &str, script: &str) -> Command {
    let bin = Path::new(env!("CARGO_BIN_EXE_quartet"))
        .parent()
        .expect("bin folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new(shell);
    command
        .args(["-e", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null());
    command
}

/// Runs `script` in `dir`; fails unless it succeeds; returns stdout and stderr.
fn sh(dir: &Path, script: &str, vars: &[(&str, String)]) -> String {
    if script
        .lines()
        .any(|l| l.trim_start().starts_with("parallel "))
    {
        let found = shell(dir, "bash", "command -v parallel")
            .output()
            .expect("bash");
        assert!(
            found.status.success(),
            "GNU parallel is not installed: `apt-get install parallel` (.ci/run installs it)"
        );
    }
    let mut command = shell(dir, "bash", script);
    command.envs(vars.iter().map(|(k, v)| (k, v)));
    let out = command.output().expect("start bash");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "failed ({}):\n{script}\n{text}",
        out.status
    );
    text
}

/// Checks one entry's block; `as_written`: without the `sizes` substitutions.
fn check_block(name: &str, file: &str, first: &str, as_written: bool) {
    let entry = BLOCKS
        .iter()
        .find(|e| e.file == file && e.first == first)
        .expect("an entry");
    let block = block_of(file, first);
    let text = block.lines.join("\n");
    let expect_all = |out: &str, expect: &[&str]| {
        for e in expect {
            assert!(
                out.contains(e),
                "'{e}' missing from the output of\n{text}\n{out}"
            );
        }
    };
    match &entry.how {
        How::Run {
            subs,
            sizes,
            expect,
            check,
        } => {
            let mut script = substitute(text.clone(), subs);
            if !as_written {
                script = substitute(script, sizes);
            }
            let dir = sandbox(name, &script);
            let out = sh(&dir, &script, &[]);
            if !as_written {
                expect_all(&out, expect);
            }
            if let Some(check) = check {
                check(&dir, as_written);
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
        How::Slurm {
            sizes,
            expect,
            check,
        } => {
            let script = if as_written {
                text.clone()
            } else {
                substitute(text.clone(), sizes)
            };
            let array = script
                .lines()
                .filter_map(|l| l.strip_prefix("#SBATCH "))
                .flat_map(str::split_whitespace)
                .find_map(|w| w.strip_prefix("--array="))
                .expect("#SBATCH --array=a-b");
            let (a, b) = array.split_once('-').expect("a-b");
            let (a, b): (u32, u32) = (a.parse().expect("a"), b.parse().expect("b"));
            assert!(a <= b, "an empty array {array}");
            let dir = sandbox(name, &script);
            for task in a..=b {
                let out = sh(&dir, &script, &[("SLURM_ARRAY_TASK_ID", task.to_string())]);
                if !as_written {
                    expect_all(&out, expect);
                }
            }
            if let Some(check) = check {
                check(&dir, as_written);
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
        How::Server { subs, expect } => {
            let script = substitute(text.clone(), subs);
            let dir = sandbox(name, &script);
            let mut child = shell(&dir, "bash", &format!("exec {script}"))
                .stdout(Stdio::piped())
                .spawn()
                .expect("start the server");
            let stdout = child.stdout.take().expect("stdout");
            let (send, receive) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let mut line = String::new();
                let _ = BufReader::new(stdout).read_line(&mut line);
                let _ = send.send(line);
            });
            let line = receive.recv_timeout(Duration::from_secs(30));
            let _ = child.kill();
            let _ = child.wait();
            let line = line.expect("the server's first line within 30 s");
            assert!(line.starts_with(expect), "{script}: first line {line:?}");
            let _ = std::fs::remove_dir_all(&dir);
        }
        How::Synopsis => synopsis(&block),
        How::NotRun(check) => {
            assert!(
                block.before.starts_with(NOT_RUN),
                "{file}:{}: a block not run needs the marker '{NOT_RUN}reason) -->' as the line before it",
                block.line
            );
            check(&block);
        }
    }
}

/// `quartet ARGS --help`.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(args)
        .arg("--help")
        .output()
        .expect("quartet --help");
    assert!(out.status.success(), "quartet {args:?} --help");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands a help text lists.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Each line of the synopsis: its subcommands exist and its `--flags` are in their help.
fn synopsis(block: &Block) {
    let text = block.lines.join("\n").replace("\\\n", " ");
    let mut lines = 0;
    for line in text.lines() {
        let line = line.split("  #").next().unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.first(), Some(&"quartet"), "synopsis line '{line}'");
        let mut path: Vec<&str> = Vec::new();
        let mut text = help(&path);
        for w in &words[1..] {
            if w.starts_with('-')
                || w.starts_with('[')
                || !subcommands(&text).iter().any(|s| s == w)
            {
                break;
            }
            path.push(w);
            text = help(&path);
        }
        for w in &words[1..] {
            let Some(flag) = w.trim_start_matches('[').strip_prefix("--") else {
                continue;
            };
            let flag: String = flag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            let named = text.match_indices(&format!("--{flag}")).any(|(at, m)| {
                !text[at + m.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
            });
            assert!(
                named,
                "'quartet {} --help' has no --{flag} ({line})",
                path.join(" ")
            );
        }
        lines += 1;
    }
    assert!(
        lines >= 10,
        "only {lines} synopsis lines: the parsing is broken"
    );
}

/// A `cargo` line that is not run: the features and test files it names exist.
fn cargo_names_what_exists(block: &Block) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let features = manifest.split("[features]").nth(1).expect("[features]");
    for line in &block.lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.first(), Some(&"cargo"), "{line}");
        for pair in words.windows(2) {
            match pair[0] {
                "--features" => assert!(
                    features
                        .lines()
                        .any(|l| l.starts_with(&format!("{} =", pair[1]))),
                    "no feature {} in Cargo.toml",
                    pair[1]
                ),
                "--test" => {
                    let test = std::fs::read_to_string(root.join(format!("tests/{}.rs", pair[1])))
                        .unwrap_or_else(|_| panic!("no tests/{}.rs", pair[1]));
                    if words.contains(&"--ignored") {
                        assert!(
                            test.contains("#[ignore"),
                            "tests/{}.rs has no ignored test",
                            pair[1]
                        );
                    }
                }
                _ => {}
            }
        }
    }
}

/// The merged self-play file is the unsharded run's (the README's sentence), at the small
/// sizes (the unsharded run as written would take as long again).
fn merged_selfplay_is_the_unsharded_file(dir: &Path, as_written: bool) {
    if as_written {
        return;
    }
    sh(
        dir,
        "./target/release/quartet selfplay --game duell --games 16 --nodes 200 --seed 1 \
         --out whole.txt --no-progress",
        &[],
    );
    let read = |name: &str| std::fs::read(dir.join(name)).expect(name);
    assert!(
        read("duell.txt") == read("whole.txt"),
        "the merged file differs from the unsharded one"
    );
}

/// After the Slurm array, "the same merge" (of the block before it), then the comparison.
fn slurm_shards_merge(dir: &Path, as_written: bool) {
    sh(
        dir,
        "./target/release/quartet selfplay merge --out duell.txt duell-{1..8}.txt",
        &[],
    );
    merged_selfplay_is_the_unsharded_file(dir, as_written);
}

/// sbatch lines (not run: they need a cluster) whose `--wrap` runs `quartet match watch` or
/// `quartet match merge`: every flag they give is one that subcommand takes.
fn wrapped_flags_exist(block: &Block) {
    let mut seen = 0;
    for line in &block.lines {
        for sub in ["watch", "merge"] {
            let Some((_, rest)) = line.split_once(&format!("quartet match {sub} ")) else {
                continue;
            };
            seen += 1;
            let text = help(&["match", sub]);
            for flag in rest.split_whitespace().filter(|w| w.starts_with("--")) {
                let flag = flag.trim_end_matches('"');
                assert!(
                    text.contains(flag),
                    "quartet match {sub} has no {flag}: {line}"
                );
            }
        }
    }
    assert!(
        seen >= 2,
        "no quartet match watch and merge in {:?}",
        block.lines
    );
}

/// The reviews of docs/review.md's measurement: each game's luck and losses add up to its
/// result; as written, the games are the 60 and 358 plies the document names.
fn reviews_add_up(dir: &Path, as_written: bool) {
    for (file, plies) in [("duell.json", 60), ("ludo.json", 358)] {
        let text = std::fs::read_to_string(dir.join(file)).expect(file);
        let game: serde_json::Value = serde_json::from_str(text.trim()).expect("one JSON game");
        let number = |v: &serde_json::Value| v.as_f64().expect("a number");
        let sides = &game["sides"];
        let sum = number(&game["start_value"]) + number(&game["luck"])
            - number(&sides["first"]["loss"])
            + number(&sides["second"]["loss"]);
        assert!(
            (sum - number(&game["result"])).abs() < 1e-9,
            "{file}: {sum}"
        );
        if as_written {
            assert_eq!(
                game["plies"].as_array().map(Vec::len),
                Some(plies),
                "{file}"
            );
        }
    }
}

/// Declares the table [`BLOCKS`] and one test per entry (a second, `--ignored`, one that
/// runs the block as written when the entry names it after `|`).
macro_rules! blocks {
    ($( $(#[$attr:meta])* $name:ident $(| $full:ident)?: $file:literal, $first:literal => $how:expr; )*) => {
        /// Every command block and how it is treated.
        const BLOCKS: &[Entry] = &[$(Entry { file: $file, first: $first, how: $how }),*];
        $(
            $(#[$attr])*
            #[test]
            fn $name() {
                check_block(stringify!($name), $file, $first, false);
            }
            $(
                #[test]
                #[ignore = "the block as written: minutes to hours"]
                fn $full() {
                    check_block(stringify!($full), $file, $first, true);
                }
            )?
        )*
    };
}

blocks! {
    cargo_run_starts_the_engine: "README.md", "cargo run --release" => How::Run {
        subs: &[("cargo run --release", "quartet")],
        sizes: &[],
        expect: &["Quartet 0.1.0 by the Quartet developers · game duell"],
        check: None,
    };
    cargo_test_is_not_run: "README.md", "cargo test" =>
        How::NotRun(cargo_names_what_exists);
    the_synopsis_names_real_commands_and_flags: "README.md",
        "quartet perft --game rnb --depth 5 [--fen F] [--moves m1 m2 ...]   # leaves per root move"
        => How::Synopsis;
    #[cfg_attr(not(feature = "gui"), ignore = "needs the gui feature (a default one)")]
    the_gui_starts: "README.md", "cargo run --release -- gui" => How::Server {
        // Port 8411 may be taken on a shared machine.
        subs: &[("cargo run --release -- gui", "quartet gui --port 0")],
        expect: "Quartet GUI: http://127.0.0.1:",
    };
    the_pipe_asks_one_move: "README.md",
        "printf 'setoption name Game value ludo\\nposition startpos moves r6\\ngo depth 4\\n' \\"
        => How::Run {
        subs: &[],
        sizes: &[],
        // docs/rules/ludo.md: after a 6 at the start, Red's one move enters a piece.
        expect: &["bestmove b-0"],
        check: None,
    };
    the_sharded_match_merges | the_sharded_match_as_written: "docs/referee.md",
        "parallel -j 4 ./target/release/quartet match --game duell \\" => How::Run {
        subs: &[],
        sizes: &[("--games 400", "--games 8"), ("--nodes 2000", "--nodes 200")],
        expect: &["Games: 8 of 8"],
        check: None,
    };
    the_round_robin_runs | the_round_robin_as_written: "docs/referee.md",
        "quartet match --game duell --tournament round-robin \\" => How::Run {
        subs: &[],
        sizes: &[("--games 20", "--games 2"), ("--nodes 2000", "--nodes 200")],
        expect: &["Games: 12 of 12", "Crosstable", "Rank Engine"],
        check: None,
    };
    the_killed_match_resumes | the_killed_match_resumes_as_written: "docs/referee.md",
        "quartet match --game duell --engine cmd=quartet name=a \\" => How::Run {
        subs: &[],
        sizes: &[("--games 40", "--games 12"), ("sleep 3", "sleep 0.5")],
        expect: &["Games: 12 of 12", "Stopped: all games played"],
        check: None,
    };
    the_sprt_shard_runs | the_sprt_shard_as_written: "docs/referee.md", "#!/bin/sh" => How::Slurm {
        sizes: &[("--games 4000", "--games 8"), ("--nodes 2000", "--nodes 200")],
        expect: &["Games: 2 of 2"],
        check: None,
    };
    the_sprt_submission_names_real_flags: "docs/referee.md",
        "array=$(sbatch --parsable shard.sh)" => How::NotRun(wrapped_flags_exist);
    the_readme_sprt_submission_names_real_flags: "README.md",
        "array=$(sbatch --parsable shard.sh)" => How::NotRun(wrapped_flags_exist);
    the_skill_ladder_runs | the_skill_ladder_as_written: "docs/skill-levels.md", "cargo build --release" => How::Run {
        // The binary this test built is the build.
        subs: &[("cargo build --release", "true")],
        sizes: &[
            ("--games 80", "--games 2"),
            ("--anchor-games 400", "--anchor-games 2"),
            ("--nodes 2000", "--nodes 100"),
            ("--levels 0,4,8,12,16,19,20", "--levels 0,20"),
        ],
        expect: &["ludo: &[(0, "],
        check: None,
    };
    sharded_selfplay_merges | sharded_selfplay_as_written: "docs/training.md",
        "parallel -j 2 ./target/release/quartet selfplay --game duell --games 8000 --nodes 8000 \\"
        => How::Run {
        subs: &[],
        sizes: &[("--games 8000", "--games 16"), ("--nodes 8000", "--nodes 200")],
        expect: &["duell.txt: 8 shards"],
        check: Some(merged_selfplay_is_the_unsharded_file),
    };
    the_slurm_array_merges | the_slurm_array_as_written: "docs/training.md", "#!/bin/sh" => How::Slurm {
        sizes: &[("--games 8000", "--games 16"), ("--nodes 8000", "--nodes 200")],
        expect: &["2 games"],
        check: Some(slurm_shards_merge),
    };
    the_ludo_fit_runs | the_ludo_fit_as_written: "docs/training.md",
        "quartet selfplay --game ludo --games 40000 --nodes 2000 --seed 2 --per-game 16 \\"
        => How::Run {
        subs: &[],
        sizes: &[
            ("--games 40000", "--games 4"),
            ("--nodes 2000", "--nodes 200"),
            ("--exact 1 2", "--exact 1"),
            ("--epochs 6", "--epochs 1"),
        ],
        expect: &["wrote crates/games/src/ludo/net.bin"],
        check: None,
    };
    the_baseline_match_runs | the_baseline_match_as_written: "docs/strength.md",
        "BASE=../baseline/target/release/quartet" => How::Run {
        // No baseline build here: this build stands in for it.
        subs: &[("BASE=../baseline/target/release/quartet", "BASE=quartet")],
        sizes: &[("--games 600", "--games 2"), ("--movetime 100", "--movetime 20")],
        expect: &["Games: 2 of 2", "LLR"],
        check: None,
    };
    the_apocalypse_depth_runs: "docs/strength.md",
        "printf 'setoption name Game value apocalypse\\nsetoption name Eval value classical\\nposition startpos\\ngo depth 5 side w\\n' \\"
        => How::Run {
        subs: &[],
        sizes: &[("go depth 5", "go depth 3")],
        expect: &["info depth 3 seldepth 3 multipv 1 score cp 0 nodes 542"],
        check: None,
    };
    the_apocalypse_network_depth_runs: "docs/training.md",
        "printf 'setoption name Game value apocalypse\\nsetoption name Eval value network\\nposition startpos\\ngo depth 5 side w\\n' \\"
        => How::Run {
        subs: &[],
        sizes: &[("go depth 5", "go depth 3")],
        expect: &["info depth 3 seldepth 3 multipv 1 score cp 0 nodes 6716"],
        check: None,
    };
    the_apocalypse_network_match_runs | the_apocalypse_network_match_as_written: "docs/training.md",
        "./target/release/quartet match --game apocalypse \\" => How::Run {
        subs: &[],
        sizes: &[("--games 3000", "--games 2"), ("--movetime 100", "--movetime 20")],
        expect: &["Games: 2 of 2", "LLR"],
        check: None,
    };
    the_apocalypse_speed_match_runs | the_apocalypse_speed_match_as_written: "docs/strength.md",
        "BASE=../baseline-b08ddc2/target/release/quartet" => How::Run {
        // No baseline build here: this build stands in for it.
        subs: &[("BASE=../baseline-b08ddc2/target/release/quartet", "BASE=quartet")],
        sizes: &[("--games 800", "--games 2"), ("--movetime 100", "--movetime 20")],
        expect: &["Games: 2 of 2", "LLR"],
        check: None,
    };
    the_target_match_runs | the_target_match_as_written: "docs/strength.md",
        "BASE=../baseline-a000a6d/target/release/quartet" => How::Run {
        // No baseline build here: this build stands in for it.
        subs: &[("BASE=../baseline-a000a6d/target/release/quartet", "BASE=quartet")],
        sizes: &[("--games 2000", "--games 2"), ("--movetime 100", "--movetime 20")],
        expect: &["Games: 2 of 2", "Elo (pairs)"],
        check: None,
    };
    rnb_setup_strength_is_not_run: "docs/rnb-setup.md",
        "cargo test --release --test rnb_setup_strength -- --ignored --nocapture"
        => How::NotRun(cargo_names_what_exists);
    the_setup_match_runs | the_setup_match_as_written: "docs/rnb-setup.md",
        "./target/release/quartet match --game rnb --placement together \\" => How::Run {
        subs: &[],
        sizes: &[("--games 60", "--games 2"), ("--tc 4+0.04", "--tc 1+0.01")],
        expect: &["Games: 2 of 2"],
        check: None,
    };
    the_curve_fit_runs | the_curve_fit_as_written: "docs/review.md",
        "quartet selfplay --game duell --games 1000 --nodes 8000 --seed 1 --out duell.txt"
        => How::Run {
        subs: &[],
        sizes: &[("--games 1000", "--games 8"), ("--nodes 8000", "--nodes 200")],
        expect: &["duell: k = "],
        check: None,
    };
    the_review_measurements_run | the_review_measurements_as_written: "docs/review.md",
        "quartet match --game duell --engine cmd=quartet name=a --engine cmd=quartet name=b \\"
        => How::Run {
        subs: &[],
        sizes: &[("--nodes 20000", "--nodes 300")],
        expect: &["duell.pgn: 1 games reviewed, 0 not", "ludo.pgn: 1 games reviewed, 0 not"],
        check: Some(reviews_add_up),
    };
}

#[test]
fn every_command_block_is_in_the_table() {
    let blocks = command_blocks();
    let mut problems = Vec::new();
    for (file, block) in &blocks {
        let first = first_line(block);
        let entries: Vec<&Entry> = BLOCKS
            .iter()
            .filter(|e| e.file == file && e.first == first)
            .collect();
        let how = match entries.as_slice() {
            [] => {
                problems.push(format!(
                    "{file}:{}: '{first}' is not in the table",
                    block.line
                ));
                continue;
            }
            [e] => &e.how,
            _ => {
                problems.push(format!(
                    "{file}:{}: '{first}' is in the table twice",
                    block.line
                ));
                continue;
            }
        };
        let marked = block.before.starts_with(NOT_RUN);
        if marked != matches!(how, How::NotRun(_)) {
            problems.push(format!(
                "{file}:{}: '{first}': the marker '{NOT_RUN}...' and the table disagree",
                block.line
            ));
        }
        let kind = match how {
            How::Run { sizes: [], .. } => "run",
            How::Run { .. } => "run smaller (and as written with --ignored)",
            How::Slurm { .. } => "Slurm script: parsed, run per array index, smaller",
            How::Server { .. } => "server: started, first line checked",
            How::Synopsis => "parsed only",
            How::NotRun(_) => "not run (marked), parsed",
        };
        println!("{file}:{}: {first}: {kind}", block.line);
    }
    for e in BLOCKS {
        let found = blocks
            .iter()
            .filter(|(f, b)| f == e.file && first_line(b) == e.first)
            .count();
        if found != 1 {
            problems.push(format!(
                "table entry {}: '{}' fits {found} blocks",
                e.file, e.first
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The rule must still find blocks: the README's set-up and runs, and the docs' recipes.
    let readme = blocks.iter().filter(|(f, _)| f == "README.md").count();
    assert!(
        readme >= 4 && blocks.len() >= 15,
        "only {readme} command blocks in README.md, {} in all: the rule is broken",
        blocks.len()
    );
}

#[test]
fn the_rule_finds_commands_and_leaves_the_rest() {
    let found = markdown::blocks(
        "a\n\n    BASE=x\n    quartet match\n\nb\n\n    src/main.rs  parse\n\n```sh\nls\n```\n\n    > uci\n    quartet ok\n",
    );
    let kinds: Vec<bool> = found.iter().map(is_command_block).collect();
    assert_eq!(kinds, vec![true, false, true, false]);
    assert_eq!(found[0].before, "a");
}
