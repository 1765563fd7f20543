//! Adjudication (issue 38 §4): `--resign`, `--draw` and `--maxmoves` read from the
//! engines' scores with fastchess's meanings, Ludo's from its winning chances, and
//! `--adjudicate exact` for Apocalypse by the built-in exact solver; an adjudicated game
//! says why in its Termination and Reason tags and in the report, and replays.

use crate::support;

use std::path::Path;
use std::process::Command;

use quartet_core::game::Outcome;
use quartet_records::parse_records;
use quartet_testkit::toys::Nim;

use support::{fake, play_recorded, reason, records_by_round, scratch};

const QUARTET: &str = env!("CARGO_BIN_EXE_quartet");

/// B takes one stone a turn and reports -600; A reports +600. With `--resign movecount=3
/// score=500` B resigns at its third move of each game (plies 6 and 5 of the two games:
/// A moves first in game 1).
#[test]
fn a_side_whose_scores_say_it_is_lost_resigns() {
    let pgn = scratch("resign").join("g.pgn");
    let (a, b) = (fake("A", "--score 600"), fake("B", "--score -600"));
    let extra = "--games 2 --nodes 1 --resign movecount=3 score=500";
    let (report, games) = play_recorded::<Nim>(&pgn, a, b, extra);
    assert_eq!((report.tally.wins, report.tally.losses), (2, 0));
    assert_eq!(report.terminations.get("adjudicated resign"), Some(&2));
    assert!(report.faults.is_empty(), "an adjudication is no fault");
    let games = records_by_round(games);
    assert_eq!(games[0].moves.len(), 6);
    assert_eq!(games[1].moves.len(), 5);
    assert_eq!(games[0].tag("Termination"), Some("adjudicated resign"));
    assert_eq!(
        games[0].tag("Reason"),
        Some("B resigns: its score was -500 or worse for 3 moves (last -600)")
    );
    assert!(
        report
            .to_string()
            .contains("Terminations: adjudicated resign 2")
    );
    // Scores above the threshold: nobody resigns and the game ends by the rules.
    let (a, b) = (fake("A", "--score 600"), fake("B", "--score -400"));
    let (report, _) = play_recorded::<Nim>(&pgn, a, b, extra);
    assert_eq!(report.terminations.get("normal"), Some(&2));
}

/// Both report 0: a draw once 3 moves were played and the last 2 moves (4 plies) were
/// within ±10; with movenumber=5 it comes at ply 10. Max moves: 4 moves of the engines.
#[test]
fn level_scores_draw_and_long_games_stop() {
    let pgn = scratch("draw").join("g.pgn");
    let extra = "--games 2 --nodes 1 --draw movenumber=5 movecount=2 score=10";
    let (report, games) = play_recorded::<Nim>(&pgn, fake("A", ""), fake("B", ""), extra);
    assert_eq!(
        (
            report.tally.draws,
            report.terminations.get("adjudicated draw")
        ),
        (2, Some(&2))
    );
    for g in &games {
        assert_eq!(g.record.moves.len(), 10);
        assert_eq!(g.outcome, Some(Outcome::Draw));
        assert_eq!(reason(g), "both scores within 10 for 2 moves, at move 5");
    }
    let extra = "--games 2 --nodes 1 --maxmoves 4 --openings random:2 --seed 1";
    let (report, games) = play_recorded::<Nim>(&pgn, fake("A", ""), fake("B", ""), extra);
    assert_eq!(report.terminations.get("adjudicated max moves"), Some(&2));
    for g in &games {
        // 2 opening plies and 8 of the engines.
        assert_eq!(g.record.moves.len(), 10);
        assert_eq!(reason(g), "4 moves without a result");
    }
}

/// `quartet match --game game` between two built-in players at 20 nodes a move.
fn quartet_match(game: &str, players: [&str; 2], extra: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(QUARTET);
    cmd.args(["match", "--game", game, "--no-progress", "--nodes", "20"]);
    for (i, player) in players.iter().enumerate() {
        cmd.args([
            "--engine",
            &format!("cmd={QUARTET}"),
            &format!("name={player}-{}", i + 1),
            &format!("args=--player {player}"),
        ]);
    }
    cmd.args(extra).output().expect("quartet runs")
}

/// Ludo has no draws: `--draw` and `--maxmoves` are refused, saying so; `--resign` reads
/// the engines' winning chances.
#[test]
fn ludo_refuses_draw_rules_and_resigns_on_winning_chances() {
    for extra in [&["--draw", "movenumber=10"][..], &["--maxmoves", "100"]] {
        let out = quartet_match("ludo", ["greedy", "random"], extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains("ludo has no draws"), "{stderr}");
    }
    let out = quartet_match("duell", ["greedy", "random"], &["--adjudicate", "exact"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("duell has no exact solver"), "{stderr}");
    let help = Command::new(QUARTET)
        .args(["match", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("Refused in a game without draws (Ludo)"),
        "{help}"
    );
    // The search against itself at 20 nodes (its info lines carry wdl): a side's chances
    // fall to 10 % or below for 2 of its moves (W − L of -800 per mille) in some of the 4
    // games.
    let dir = scratch("ludo-resign");
    let pgn = dir.join("g.pgn");
    let out = quartet_match(
        "ludo",
        ["search", "search"],
        &[
            "--games",
            "4",
            "--seed",
            "2",
            "--resign",
            "movecount=2",
            "score=800",
            "--pgnout",
            pgn.to_str().expect("path"),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).expect("records");
    let records = parse_records(&text).expect("records");
    let resigned: Vec<_> = records
        .iter()
        .filter(|r| r.tag("Termination") == Some("adjudicated resign"))
        .collect();
    assert!(!resigned.is_empty(), "{text}");
    for r in resigned {
        let why = r.tag("Reason").expect("a reason");
        assert!(why.contains("per mille of W-L"), "{why}");
    }
    let replay = Command::new(QUARTET)
        .arg("replay")
        .arg(&pgn)
        .output()
        .expect("replay");
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stdout)
    );
}

/// `--adjudicate exact` in Apocalypse: from a position the solver proves (White's knight
/// on d3 and pawn on a1 against Black's pawn on c5: a certain win for White, `quartet solve`
/// gives +1) the game ends at once, adjudicated; `quartet replay` proves it again and
/// refuses the record with another result.
#[test]
fn apocalypse_positions_the_solver_proves_are_adjudicated() {
    let dir = scratch("exact");
    let (book, pgn) = (dir.join("book.txt"), dir.join("g.pgn"));
    std::fs::write(&book, "2p2/5/3N1/5/P4 00 0\n").expect("book");
    let out = quartet_match(
        "apocalypse",
        ["greedy", "random"],
        &[
            "--games",
            "2",
            "--adjudicate",
            "exact",
            "--openings",
            &format!("file:{}", book.display()),
            "--pgnout",
            pgn.to_str().expect("path"),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("Terminations: adjudicated exact 2"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&pgn).expect("records");
    let records = parse_records(&text).expect("records");
    for r in &records {
        assert!(r.moves.is_empty());
        assert_eq!(r.result, "1-0");
        let white = r.tag("White").expect("White");
        assert!(white.starts_with("greedy") || white.starts_with("random"));
        assert_eq!(
            r.tag("Reason"),
            Some(format!("the exact solver proves a win for {white} with correct play").as_str())
        );
    }
    let replay = |path: &Path| {
        Command::new(QUARTET)
            .arg("replay")
            .arg(path)
            .output()
            .expect("replay")
    };
    assert!(replay(&pgn).status.success());
    let wrong = dir.join("wrong.pgn");
    std::fs::write(&wrong, text.replace("1-0", "1/2-1/2")).expect("write");
    let out = replay(&wrong);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("does not prove the recorded result"),
        "{stderr}"
    );
}
