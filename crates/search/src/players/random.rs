//! The `random` player: a uniformly random legal action.

use quartet_core::game::{Action, Game, MoveList, Node, Player};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A uniformly random legal move of the side to move at a `Turn` node, or a uniformly
/// random legal declaration of `side` at a `Simultaneous` node (`None` without a side).
/// `None` at chance and terminal nodes. The same `seed` gives the same choice.
pub fn choose<G: Game>(pos: &G, side: Option<Player>, seed: u64) -> Option<Action<G::Move>> {
    let mover = match (pos.node(), side) {
        (Node::Turn(p), _) => p,
        (Node::Simultaneous, Some(p)) => p,
        _ => return None,
    };
    let mut moves = MoveList::new();
    pos.legal_moves(mover, &mut moves);
    if moves.is_empty() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Some(Action::Single(moves[rng.random_range(0..moves.len())]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_testkit::toys::{DiceRace, TicTacToe};
    use quartet_testkit::toys::{Goofspiel, matching_pennies};
    use std::collections::HashSet;

    /// The distinct choices over `seeds` seeds, each checked to be legal for `side`.
    fn choices<G: Game>(pos: &G, side: Option<Player>, seeds: u64) -> HashSet<G::Move> {
        let mover = side.or(pos.acting_player()).expect("a mover");
        let mut legal = Vec::new();
        pos.legal_moves(mover, &mut legal);
        (0..seeds)
            .map(|seed| match choose(pos, side, seed) {
                Some(Action::Single(m)) if legal.contains(&m) => m,
                other => panic!("seed {seed}: {other:?} is not a legal move of {mover:?}"),
            })
            .collect()
    }

    #[test]
    fn covers_every_legal_move_of_a_turn_node() {
        let mut pos = TicTacToe::new();
        assert_eq!(choices(&pos, None, 200), (0..9).collect());
        pos.play(4);
        pos.play(0);
        assert_eq!(choices(&pos, None, 200), [1, 2, 3, 5, 6, 7, 8].into());
    }

    #[test]
    fn covers_every_declaration_of_the_asked_side() {
        let pos = Goofspiel::new(3);
        for side in [Player::First, Player::Second] {
            assert_eq!(choices(&pos, Some(side), 200), [0, 1, 2].into());
        }
        assert_eq!(choose(&matching_pennies(), None, 0), None);
    }

    #[test]
    fn plays_only_at_decision_nodes() {
        let pos = DiceRace::new();
        assert_eq!(pos.node(), Node::Chance);
        assert_eq!(choose(&pos, Some(Player::First), 3), None);
        let mut won = TicTacToe::new();
        for m in [0, 3, 1, 4, 2] {
            won.play(m);
        }
        assert!(matches!(won.node(), Node::Terminal(_)));
        assert_eq!(choose(&won, None, 3), None);
    }

    #[test]
    fn a_seed_fixes_the_choice() {
        let pos = TicTacToe::new();
        for seed in 0..20 {
            assert_eq!(choose(&pos, None, seed), choose(&pos, None, seed));
        }
    }
}
