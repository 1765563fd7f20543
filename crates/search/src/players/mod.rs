//! The built-in baseline players every strength claim is measured against: `random`
//! (a uniformly random legal action), `greedy` (the best action one ply deep by the static
//! evaluation) and `mcts` (plain UCT with random playouts, the general-game-playing
//! baseline). `search` names the main engine, which lives in `crate`.
//!
//! All players are generic over `G: Evaluate`, deterministic for a given seed, and answer
//! through one entry point, [`choose`]. A caller dispatches on [`PlayerKind::baseline`]:
//!
//! ```text
//! match kind.baseline() {
//!     None => /* run crate::search */,
//!     Some(b) => players::choose(b, &pos, side, &budget, seed, &stop),
//! }
//! ```
//!
//! None of the players sees the game's history, so none of them knows about repetition
//! draws (a position does not hold its history; see `quartet_core::game`).

pub mod greedy;
pub mod mcts;
mod playout;
pub mod random;
mod tree;

use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Player};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A player the protocol or a referee can put at the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// The main engine (`crate`); not played by [`choose`]. The default.
    #[default]
    Search,
    /// [`Baseline::Random`].
    Random,
    /// [`Baseline::Greedy`].
    Greedy,
    /// [`Baseline::Mcts`].
    Mcts,
}

impl PlayerKind {
    /// Every kind, in the order help texts list them.
    pub const ALL: [PlayerKind; 4] = [
        PlayerKind::Search,
        PlayerKind::Random,
        PlayerKind::Greedy,
        PlayerKind::Mcts,
    ];

    /// The kind called `name` (`search`, `random`, `greedy`, `mcts`; ASCII case ignored),
    /// or `None` for any other name.
    pub fn from_name(name: &str) -> Option<PlayerKind> {
        PlayerKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// The lower-case name that [`PlayerKind::from_name`] reads back.
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Search => "search",
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Mcts => "mcts",
        }
    }

    /// The baseline player of this kind, `None` for [`PlayerKind::Search`] (the caller
    /// runs the main engine instead).
    pub fn baseline(self) -> Option<Baseline> {
        match self {
            PlayerKind::Search => None,
            PlayerKind::Random => Some(Baseline::Random),
            PlayerKind::Greedy => Some(Baseline::Greedy),
            PlayerKind::Mcts => Some(Baseline::Mcts),
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`PlayerKind`]: the name is none of the known ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown player '{0}' (expected search, random, greedy or mcts)")]
pub struct UnknownPlayer(pub String);

impl FromStr for PlayerKind {
    type Err = UnknownPlayer;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PlayerKind::from_name(s).ok_or_else(|| UnknownPlayer(s.to_string()))
    }
}

/// The three baseline players [`choose`] plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// A uniformly random legal action ([`random::choose`]).
    Random,
    /// The best action one ply deep by the static evaluation ([`greedy::choose`]).
    Greedy,
    /// UCT with random playouts ([`mcts::search`]).
    Mcts,
}

/// How long a player may think. Only [`Baseline::Mcts`] uses it; the others answer at
/// once. Any limit reached ends the search; with neither limit set, the search runs until
/// the stop flag is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BaselineBudget {
    /// Run at most this many MCTS iterations (one playout each).
    pub iterations: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
}

impl BaselineBudget {
    /// A budget of exactly `n` iterations (unless stopped earlier).
    pub fn iterations(n: u64) -> BaselineBudget {
        BaselineBudget {
            iterations: Some(n),
            deadline: None,
        }
    }
}

/// The action `player` chooses at `pos`.
///
/// - At a `Turn` node: `Some(Action::Single(move))` of the side to move (`side` is ignored).
/// - At a `Simultaneous` node: `Some(Action::Single(declaration))` of `side`, or `None`
///   when `side` is `None`.
/// - At `Chance` and `Terminal` nodes (and at a node without legal moves, which a correct
///   game never has): `None`.
///
/// The same arguments give the same answer, except that a `deadline` or `stop` may end
/// an MCTS search after a different number of iterations. `stop` is polled every MCTS
/// iteration; when it is already set, MCTS answers at once with a random legal action.
pub fn choose<G: Evaluate>(
    player: Baseline,
    pos: &G,
    side: Option<Player>,
    budget: &BaselineBudget,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Action<G::Move>> {
    match player {
        Baseline::Random => random::choose(pos, side, seed),
        Baseline::Greedy => greedy::choose(pos, side, seed),
        Baseline::Mcts => mcts::search(pos, side, budget, seed, stop).best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::Game;
    use quartet_testkit::toys::{DiceRace, TicTacToe};

    #[test]
    fn names_round_trip_and_unknown_names_are_rejected() {
        for kind in PlayerKind::ALL {
            assert_eq!(PlayerKind::from_name(kind.name()), Some(kind));
            assert_eq!(kind.to_string().parse::<PlayerKind>(), Ok(kind));
        }
        assert_eq!(PlayerKind::from_name("MCTS"), Some(PlayerKind::Mcts));
        assert_eq!(PlayerKind::from_name("uct"), None);
        assert_eq!(PlayerKind::from_name(""), None);
        let err = "alphabeta".parse::<PlayerKind>().unwrap_err();
        assert_eq!(err, UnknownPlayer("alphabeta".to_string()));
        assert!(err.to_string().contains("'alphabeta'"));
    }

    #[test]
    fn only_search_has_no_baseline() {
        let baselines: Vec<_> = PlayerKind::ALL.iter().map(|k| k.baseline()).collect();
        assert_eq!(
            baselines,
            [
                None,
                Some(Baseline::Random),
                Some(Baseline::Greedy),
                Some(Baseline::Mcts)
            ]
        );
    }

    #[test]
    fn every_baseline_follows_the_contract_of_choose() {
        let stop = AtomicBool::new(false);
        let budget = BaselineBudget::iterations(100);
        let sim = quartet_testkit::toys::Goofspiel::new(3);
        let mut finished = sim.clone();
        for card in 0..3 {
            finished.play_joint(card, card);
        }
        for b in [Baseline::Random, Baseline::Greedy, Baseline::Mcts] {
            for side in [Player::First, Player::Second] {
                let Some(Action::Single(m)) = choose(b, &sim, Some(side), &budget, 2, &stop) else {
                    panic!("{b:?} gives a declaration for {side:?}")
                };
                assert!(m < 3, "{b:?}: {m}");
            }
            assert_eq!(choose(b, &sim, None, &budget, 2, &stop), None);
            assert_eq!(
                choose(b, &finished, Some(Player::First), &budget, 2, &stop),
                None
            );
            let chance = DiceRace::new();
            assert_eq!(
                choose(b, &chance, Some(Player::First), &budget, 2, &stop),
                None
            );
        }
    }

    #[test]
    fn every_baseline_plays_a_legal_move_through_choose() {
        let pos = TicTacToe::new();
        let stop = AtomicBool::new(false);
        for b in [Baseline::Random, Baseline::Greedy, Baseline::Mcts] {
            let action = choose(b, &pos, None, &BaselineBudget::iterations(200), 1, &stop);
            let action = action.expect("a move at a turn node");
            assert!(pos.is_legal(action), "{b:?} played {action:?}");
        }
    }
}
