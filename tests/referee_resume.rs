//! Resume and signals (issue 38 §3): a match stopped by a signal or killed with SIGKILL
//! goes on with `--resume` from where it stopped, nothing replayed and nothing lost, its
//! files equal to an uninterrupted run's; a resume whose command differs is refused with
//! the difference named, and a damaged or foreign file is never overwritten.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quartet_referee::results::read_results;
use quartet_referee::{StopReason, runner};
use quartet_testkit::toys::Nim;

use support::{RULES, args, fake, scratch, without_timings};

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

/// Games the results file counts as finished.
fn finished(results: &Path) -> u64 {
    read_results(results)
        .ok()
        .and_then(|f| f.resume)
        .map_or(0, |s| s.done_count())
}

/// Waits until the results file counts `games` finished games.
fn wait_for_games(results: &Path, games: u64) {
    let start = Instant::now();
    while finished(results) < games {
        assert!(start.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The Nim match of these tests: slow enough to interrupt (engines think 30 ms a move).
fn nim_args(dir: &Path, extra: &str) -> quartet_referee::MatchArgs {
    let extra = format!(
        "--games 12 --nodes 1 --openings random:2 --seed 3 --pgnout {} --jsonl {} --results {} \
         {extra}",
        dir.join("g.pgn").display(),
        dir.join("g.jsonl").display(),
        dir.join("r.json").display()
    );
    args(
        "nim",
        fake("A", "--play hash --seed 1 --delay 30"),
        fake("B", "--play hash --seed 2 --delay 30"),
        &extra,
    )
}

/// The JSON lines of a file without their timings.
fn lines_without_timings(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("json lines")
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("json");
            let o = v.as_object_mut().expect("an object");
            o.remove("engine_ms");
            o.remove("wall_ms");
            o.remove("ended_ms");
            o.remove("started_ms");
            v
        })
        .collect()
}

/// A signal (the handler's flag) stops the match: the games in flight are abandoned, the
/// results say how to go on, and `--resume` finishes it with the files of one
/// uninterrupted run.
#[test]
fn an_interrupted_match_resumes_into_the_uninterrupted_one() {
    let whole = scratch("resume-whole");
    let full = support::play::<Nim>(
        fake("A", "--play hash --seed 1 --delay 30"),
        fake("B", "--play hash --seed 2 --delay 30"),
        &format!(
            "--games 12 --nodes 1 --openings random:2 --seed 3 --pgnout {} --jsonl {} \
             --results {}",
            whole.join("g.pgn").display(),
            whole.join("g.jsonl").display(),
            whole.join("r.json").display()
        ),
    );
    let dir = scratch("resume-signal");
    let mut cfg = nim_args(&dir, "").to_config().expect("arguments");
    let flag = Arc::new(AtomicUsize::new(0));
    cfg.interrupt = Some(Arc::clone(&flag));
    let results = dir.join("r.json");
    let stopped = std::thread::scope(|s| {
        let match_thread = s.spawn(|| runner::run::<Nim>(&cfg, &RULES));
        wait_for_games(&results, 3);
        flag.store(2, Ordering::Relaxed);
        match_thread
            .join()
            .expect("the match thread")
            .expect("the match runs")
    });
    match &stopped.stop {
        StopReason::Interrupted(why) => {
            assert!(
                why.starts_with("SIGINT; 1 game in flight was abandoned"),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
    let played = stopped.tally.games();
    assert!((3..12).contains(&played), "{played}");
    assert_eq!(u64::from(played), finished(&results));
    // Without --resume the unfinished match is not replaced.
    let err = runner::run::<Nim>(&nim_args(&dir, "").to_config().expect("arguments"), &RULES)
        .unwrap_err()
        .to_string();
    assert!(err.contains("continue it with --resume"), "{err}");
    let resumed = runner::run::<Nim>(
        &nim_args(&dir, "--resume").to_config().expect("arguments"),
        &RULES,
    )
    .expect("the resumed match runs");
    assert_eq!(resumed.stop, StopReason::Completed);
    assert_eq!(resumed.tally, full.tally);
    assert_eq!(resumed.terminations, full.terminations);
    assert_eq!(resumed.distinct_games, full.distinct_games);
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).expect(f);
    assert_eq!(
        without_timings(&read(&dir, "g.pgn")),
        without_timings(&read(&whole, "g.pgn"))
    );
    assert_eq!(
        lines_without_timings(&dir.join("g.jsonl")),
        lines_without_timings(&whole.join("g.jsonl"))
    );
    let state = read_results(&results)
        .expect("results")
        .resume
        .expect("state");
    assert_eq!((state.sessions, state.done_count()), (2, 12));
    // Resuming a finished match plays nothing and changes nothing.
    let before = read(&dir, "r.json");
    let again = runner::run::<Nim>(
        &nim_args(&dir, "--resume").to_config().expect("arguments"),
        &RULES,
    )
    .expect("runs");
    assert_eq!(again.tally, full.tally);
    assert_eq!(read(&dir, "r.json"), before);
}

/// Bad resumes are refused with the difference named, and change no file.
#[test]
fn bad_resumes_are_refused_and_change_nothing() {
    let dir = scratch("resume-refused");
    let results = dir.join("r.json");
    let mut cfg = nim_args(&dir, "").to_config().expect("arguments");
    let flag = Arc::new(AtomicUsize::new(0));
    cfg.interrupt = Some(Arc::clone(&flag));
    std::thread::scope(|s| {
        let t = s.spawn(|| runner::run::<Nim>(&cfg, &RULES));
        wait_for_games(&results, 2);
        flag.store(15, Ordering::Relaxed);
        t.join().expect("thread").expect("runs")
    });
    let files = ["g.pgn", "g.jsonl", "r.json"];
    let snapshot = || -> Vec<Vec<u8>> {
        files
            .iter()
            .map(|f| std::fs::read(dir.join(f)).unwrap_or_default())
            .collect()
    };
    let before = snapshot();
    let refused = |a: quartet_referee::MatchArgs| {
        let err = runner::run::<Nim>(&a.to_config().expect("arguments"), &RULES)
            .unwrap_err()
            .to_string();
        assert_eq!(snapshot(), before, "a refused resume changed a file: {err}");
        err
    };
    let mut other_seed = nim_args(&dir, "--resume");
    other_seed.seed = 4;
    let err = refused(other_seed);
    assert!(
        err.contains("another seed: 4 in this command and 3 in the results file"),
        "{err}"
    );
    let mut more_games = nim_args(&dir, "--resume");
    more_games.games = 14;
    assert!(refused(more_games).contains("another number of games"));
    let mut other_engine = nim_args(&dir, "--resume");
    other_engine.engines.0[1] = fake("B", "--play hash --seed 9 --delay 30");
    let err = refused(other_engine);
    assert!(err.contains("engine 'B' has other arguments"), "{err}");
    let mut other_limit = nim_args(&dir, "--resume");
    other_limit.nodes = Some(2);
    assert!(refused(other_limit).contains("engine 'A' has another limit"));
    let mut other_openings = nim_args(&dir, "--resume");
    other_openings.openings = Some(vec!["random:3".to_string()]);
    assert!(refused(other_openings).contains("other openings"));
    let mut no_pgn = nim_args(&dir, "--resume");
    no_pgn.pgnout = None;
    assert!(refused(no_pgn).contains("--pgnout is none in this command"));
    // A records file shorter than the results file counts: damaged, refused.
    let pgn = dir.join("g.pgn");
    let text = std::fs::read(&pgn).expect("records");
    std::fs::write(&pgn, &text[..text.len() / 2]).expect("cut");
    let cut = snapshot();
    let err = runner::run::<Nim>(
        &nim_args(&dir, "--resume").to_config().expect("arguments"),
        &RULES,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("damaged or replaced"), "{err}");
    assert_eq!(snapshot(), cut);
    std::fs::write(&pgn, &text).expect("restore");
    // A damaged results file and a foreign one: a clear error, never overwritten.
    for junk in [
        "{\"format\": \"quartet-match-results/1\", \"seed\": 3",
        "hello\n",
    ] {
        std::fs::write(&results, junk).expect("damage");
        let err = runner::run::<Nim>(
            &nim_args(&dir, "--resume").to_config().expect("arguments"),
            &RULES,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("is not a results file"), "{err}");
        assert_eq!(std::fs::read_to_string(&results).expect("kept"), junk);
        let err = runner::run::<Nim>(&nim_args(&dir, "").to_config().expect("arguments"), &RULES)
            .unwrap_err()
            .to_string();
        assert!(err.contains("left as it is"), "{err}");
        assert_eq!(std::fs::read_to_string(&results).expect("kept"), junk);
    }
}

/// `quartet match` as a user runs it: Duell between two built-in players at a fixed node
/// count, one game at a time.
fn duell_match(dir: &Path, resume: bool) -> Command {
    let mut cmd = Command::new(QUARTET);
    cmd.current_dir(dir).args([
        "match",
        "--game",
        "duell",
        "--engine",
        &format!("cmd={QUARTET}"),
        "name=search",
        "--engine",
        &format!("cmd={QUARTET}"),
        "name=greedy",
        "args=--player greedy",
        "--games",
        "10",
        "--nodes",
        "400",
        "--openings",
        "random:4",
        "--seed",
        "5",
        "--pgnout",
        "g.pgn",
        "--jsonl",
        "g.jsonl",
        "--results",
        "r.json",
        "--no-progress",
    ]);
    if resume {
        cmd.arg("--resume");
    }
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

/// Kills `child` once the results file counts `games` games.
fn kill_after(child: &mut Child, results: &Path, games: u64, signal: &str) {
    wait_for_games(results, games);
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

/// SIGKILL in the middle of a match, with a record and a JSON line cut mid-line on disk
/// (as a kill during a write leaves them): `--resume` reads the files up to the last
/// finished game and ends with the files of an uninterrupted run. SIGTERM stops a match
/// with exit status 143, the report so far and the command that resumes it.
#[test]
fn sigkill_and_sigterm_then_resume_as_a_user_would() {
    let whole = scratch("resume-binary-whole");
    let out = duell_match(&whole, false).output().expect("quartet runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = scratch("resume-binary");
    let mut child = duell_match(&dir, false).spawn().expect("quartet runs");
    kill_after(&mut child, &dir.join("r.json"), 3, "-KILL");
    let _ = child.wait();
    let append = |file: &str, text: &str| {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.join(file))
            .expect("open");
        f.write_all(text.as_bytes()).expect("append");
    };
    append(
        "g.pgn",
        "[Event \"Quartet match\"]\n[Round \"9\"]\n\na1a6 i8",
    );
    append("g.jsonl", "{\"game\":9,\"pair\":");
    let mut child = duell_match(&dir, true).spawn().expect("quartet runs");
    kill_after(&mut child, &dir.join("r.json"), 6, "-TERM");
    let out = child.wait_with_output().expect("the output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(143), "{stdout}");
    assert!(
        stdout.contains("Stopped: interrupted: SIGTERM; "),
        "{stdout}"
    );
    let resume_line = stdout
        .lines()
        .find(|l| l.starts_with("Resume with: "))
        .expect("the resume line");
    assert!(
        resume_line.ends_with("--no-progress --resume"),
        "{resume_line}"
    );
    let out = duell_match(&dir, true).output().expect("quartet runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Games: 10 of 10"));
    let read = |d: &PathBuf, f: &str| std::fs::read_to_string(d.join(f)).expect(f);
    let (resumed, uninterrupted) = (read(&dir, "g.pgn"), read(&whole, "g.pgn"));
    assert_ne!(resumed, uninterrupted, "the timings differ");
    assert_eq!(without_timings(&resumed), without_timings(&uninterrupted));
    assert_eq!(
        lines_without_timings(&dir.join("g.jsonl")),
        lines_without_timings(&whole.join("g.jsonl"))
    );
    let sessions = read_results(&dir.join("r.json"))
        .expect("results")
        .resume
        .expect("state")
        .sessions;
    assert_eq!(sessions, 3);
}
