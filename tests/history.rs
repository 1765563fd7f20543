//! The history keeper (`quartet_core::history`): repetition draws within the window of
//! reversible plies, with the toy `Shuffle` (the test kit is not a dependency of the core).

use quartet_core::game::{Action, IllegalAction, Node, Outcome, Player};
use quartet_core::history::GameHistory;
use quartet_testkit::toys::Shuffle;

fn record(moves: &[u8]) -> GameHistory<Shuffle> {
    let mut r = GameHistory::new(Shuffle {
        at: 0,
        to_move: Player::First,
        since_irreversible: 0,
    });
    for &m in moves {
        r.try_play(Action::Single(m)).expect("legal");
    }
    r
}

#[test]
fn the_third_occurrence_draws() {
    // (square 0, First to move) occurs after 0, 2 and 4 plies.
    assert_eq!(record(&[1, 0]).node(), Node::Turn(Player::First));
    assert_eq!(record(&[1, 0, 1, 0]).node(), Node::Terminal(Outcome::Draw));
}

#[test]
fn an_irreversible_move_restarts_the_count() {
    // (square 0, First to move) occurs after 0, 2 and 4 plies, but the move to square 2
    // at ply 3 is irreversible: only one occurrence lies within the window.
    let r = record(&[1, 0, 2, 0]);
    assert_eq!(r.node(), Node::Turn(Player::First));
}

#[test]
fn a_finished_game_takes_no_more_moves() {
    let mut r = record(&[1, 0, 1, 0]);
    assert_eq!(r.try_play(Action::Single(1)), Err(IllegalAction));
    assert_eq!(r.actions().len(), 4);
}
