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
    assert!(!ok && err.contains("not available for duell"), "{err}");
    let (ok, _, err) = solve(&["--game", "ludo", "--pieces", "2", "--fen", "b/b r - 0"]);
    assert!(!ok && err.contains("invalid position"), "{err}");
}
