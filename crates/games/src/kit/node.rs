//! The node check every game's move parser makes first: no move is legal once the game is
//! over, and the refusal says who won, in the game's own names of its sides.

use quartet_core::game::{Node, Outcome, Player};

/// `Ok` unless `node` is a finished game; then the refusal every game gives, with
/// `side(p)` the game's name for a side: `the game is over: White has won` or `the game is
/// over: it is drawn`.
pub fn refuse_if_over(node: Node, side: fn(Player) -> &'static str) -> Result<(), String> {
    match node {
        Node::Terminal(Outcome::Win(p)) => Err(format!("the game is over: {} has won", side(p))),
        Node::Terminal(Outcome::Draw) => Err("the game is over: it is drawn".to_string()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(p: Player) -> &'static str {
        ["First", "Second"][p.index()]
    }

    #[test]
    fn only_a_finished_game_refuses_and_says_who_won() {
        for node in [Node::Turn(Player::First), Node::Simultaneous, Node::Chance] {
            assert_eq!(refuse_if_over(node, name), Ok(()));
        }
        assert_eq!(
            refuse_if_over(Node::Terminal(Outcome::Win(Player::Second)), name),
            Err("the game is over: Second has won".to_string())
        );
        assert_eq!(
            refuse_if_over(Node::Terminal(Outcome::Draw), name),
            Err("the game is over: it is drawn".to_string())
        );
    }
}
