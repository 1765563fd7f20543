//! `quartet solve`: the subcommand prints what the library's exact solvers compute, and
//! refuses what they cannot solve with a clear error.

use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::ludo::Ludo;
use quartet_games::ludo::solve::LudoSolution;
use std::process::Command;

fn solve(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .arg("solve")
        .args(args)
        .output()
        .expect("run quartet");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ludo_one_piece_value_and_move_values_come_from_the_solution() {
    let fen = "2/b r 6 1";
    let (ok, out, err) = solve(&["--game", "ludo", "--pieces", "1", "--fen", fen]);
    assert!(ok, "{err}");
    let rules = RuleOptions::default()
        .with(&quartet_games::ludo::PIECES, i64::from(1))
        .expect("a piece count in range");
    let pos = Ludo::parse_position(fen, &rules).expect("position");
    let solution = LudoSolution::solve(1);
    assert!(
        out.contains(&format!("value {:.6} (P(Red wins))", solution.value(&pos))),
        "{out}"
    );
    // Red at 2 with a 6: the piece steps to 8; nothing else can move.
    assert!(out.contains("moves 2-8="), "{out}");
    assert!(out.contains("best 2-8"), "{out}");
}

#[test]
fn what_cannot_be_solved_is_refused() {
    let (ok, _, err) = solve(&["--game", "ludo"]);
    assert!(!ok && err.contains("only the 1- and 2-piece"), "{err}");
    let (ok, _, err) = solve(&["--game", "duell"]);
    // The error names the games that can be solved (those whose `quartet games` entry
    // says "solver": true: Apocalypse and Ludo).
    assert!(!ok && err.contains("duell has no exact solver"), "{err}");
    assert!(err.contains("apocalypse") && err.contains("ludo"), "{err}");
    let (ok, _, err) = solve(&["--game", "ludo", "--pieces", "2", "--fen", "b/b r - 0"]);
    assert!(!ok && err.contains("invalid position"), "{err}");
}

#[test]
fn the_solver_reports_each_sweep_until_the_tolerance() {
    let mut reports = Vec::new();
    let solution = LudoSolution::solve_reporting(1, &mut |sweep, change| {
        reports.push((sweep, change));
    });
    assert_eq!(reports.len(), solution.iterations as usize);
    assert_eq!(reports.first().map(|r| r.0), Some(1));
    let last = reports.last().expect("at least one sweep");
    assert!(last.1 < quartet_games::ludo::solve::TOLERANCE, "{last:?}");
    assert!(
        reports[..reports.len() - 1]
            .iter()
            .all(|r| r.1 >= quartet_games::ludo::solve::TOLERANCE)
    );
}
