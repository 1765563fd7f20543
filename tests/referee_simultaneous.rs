//! Matches of the simultaneous toy game (matching pennies to 3): commit-then-reveal,
//! verbatim joint tokens, void declarations, malformed declarations, double failures.

use crate::support;

use quartet_testkit::toys::Pennies;
use support::{fake, logging_fake, play, play_recorded, reason, scratch};

/// A always shows `h`, B always `t`: the coins differ every turn, so the second player
/// scores 3 points in 3 turns and wins both games (B in game 1, A in game 2). Both engines
/// are asked on the same position, one per side, before either answer is revealed.
#[test]
fn both_declare_on_the_same_position() {
    let dir = scratch("pennies");
    let (a, log_a) = logging_fake(&dir, "A", "--play first");
    let (b, log_b) = logging_fake(&dir, "B", "--play last");
    let (r, games) = play_recorded::<Pennies>(&dir.join("g.pgn"), a, b, "--games 2 --tc 5+0.1");
    assert_eq!((r.tally.wins, r.tally.losses, r.tally.penta.wl), (1, 1, 1));
    assert_eq!(games[0].record.moves, ["h/t", "h/t", "h/t"]);
    assert_eq!(games[1].record.moves, ["t/h", "t/h", "t/h"]);
    let (la, lb) = (
        std::fs::read_to_string(&log_a).unwrap(),
        std::fs::read_to_string(&log_b).unwrap(),
    );
    let (la, lb): (Vec<_>, Vec<_>) = (la.lines().collect(), lb.lines().collect());
    assert_eq!(la.len(), 6);
    for (x, y) in la.iter().zip(&lb) {
        let (px, gx) = x.split_once('|').unwrap();
        let (py, gy) = y.split_once('|').unwrap();
        assert_eq!(px, py, "both engines see the same position");
        let side = |g: &str| g.split(' ').next_back().unwrap().to_string();
        assert_ne!(side(gx), side(gy));
        assert!(gx.contains(" side ") && gx.contains("wtime"), "{gx}");
    }
    // Game 1, turn 2: A (white) and B (black) get the first turn's joint token only now.
    assert!(la[1].starts_with("position startpos moves h/t|"));
    assert!(la[0].ends_with("side w") && lb[0].ends_with("side b"));
}

/// B's first declaration is `x`, well formed but void: it is part of the game (the opponent
/// scores), recorded verbatim, not an adjudication. Both play `h` otherwise.
/// Game 1: h/x (A 1), h/h (A 2), h/h (A 3): A wins. Game 2: x/h (A 1), h/h (B 1), h/h (B 2),
/// h/h (B 3): B wins.
#[test]
fn void_declaration_is_part_of_the_game() {
    let pgn = scratch("void").join("g.pgn");
    let b = fake("B", "--illegal-at 1 --bad-token x");
    let (r, games) = play_recorded::<Pennies>(&pgn, fake("A", ""), b, "--games 2 --nodes 1");
    assert_eq!(
        (r.tally.wins, r.tally.losses, r.terminations["normal"]),
        (1, 1, 2)
    );
    assert_eq!(games[0].record.moves, ["h/x", "h/h", "h/h"]);
    assert_eq!(games[1].record.moves, ["x/h", "h/h", "h/h", "h/h"]);
}

/// A declaration that does not parse loses by illegal move, and the blame falls on the
/// right side (here the first player in game 1, the second in game 2).
#[test]
fn malformed_declaration_loses() {
    let pgn = scratch("malformed").join("g.pgn");
    for bad in ["XX", "h/t"] {
        let b = fake("B", &format!("--illegal-at 1 --bad-token {bad}"));
        let (r, games) = play_recorded::<Pennies>(&pgn, b, fake("A", ""), "--games 2 --nodes 1");
        assert_eq!(
            (r.tally.losses, r.terminations["illegal move"]),
            (2, 2),
            "{bad}"
        );
        for g in games {
            assert!(g.record.moves.is_empty());
            assert!(reason(&g).starts_with("B: malformed"), "{bad}");
        }
    }
}

/// Both engines crash on the same turn: neither is better, the game is drawn.
#[test]
fn double_failure_draws() {
    let (a, b) = (fake("A", "--crash-at 2"), fake("B", "--crash-at 2"));
    let r = play::<Pennies>(a, b, "--games 2 --nodes 1 --recover");
    assert_eq!((r.tally.draws, r.terminations["crash"]), (2, 2));
    assert_eq!(r.tally.penta.dd, 1);
    assert!(r.elo().is_some_and(|e| e.score == 0.5));
}
