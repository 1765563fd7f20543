//! The four games, each in its own folder (rules, notation, evaluation), and the choice
//! between them by name.

pub mod any;
pub mod apocalypse;
pub mod duell;
pub mod ludo;
pub mod rnb;

use crate::eval::Evaluate;
use crate::game::RuleOptions;
use crate::notation::Notation;
use any::{AnyGame, Slot};

/// Code generic over the game type, run for a game chosen at run time by
/// [`GameKind::visit`].
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Runs with `G` the chosen game's position type.
    fn visit<G: Evaluate + Notation>(self) -> Self::Output;
}

/// Makes the start position of a game behind [`AnyGame`].
struct NewGame(RuleOptions);

impl GameVisitor for NewGame {
    type Output = Box<dyn AnyGame>;
    fn visit<G: Evaluate + Notation>(self) -> Box<dyn AnyGame> {
        Box::new(Slot::<G>::new(self.0))
    }
}

/// The games Quartet plays, in the order the `Game` option lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// R&B: 6x6 sandwich captures with a placement phase.
    Rnb,
    /// Apocalypse: 5x5 knights and pawns with simultaneous moves.
    Apocalypse,
    /// Duell: 9x8 chess with rolling dice.
    Duell,
    /// Ludo: Red against Yellow with a die.
    Ludo,
}

impl GameKind {
    /// Every game, in the `Game` option's order.
    pub const ALL: [GameKind; 4] = [
        GameKind::Rnb,
        GameKind::Apocalypse,
        GameKind::Duell,
        GameKind::Ludo,
    ];

    /// The game played when none is chosen.
    pub const DEFAULT: GameKind = GameKind::Duell;

    /// The name the `Game` option and `--game` use.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Rnb => "rnb",
            GameKind::Apocalypse => "apocalypse",
            GameKind::Duell => "duell",
            GameKind::Ludo => "ludo",
        }
    }

    /// The game called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }

    /// The start position of this game under `rules`.
    pub fn new_game(self, rules: RuleOptions) -> Box<dyn AnyGame> {
        self.visit(NewGame(rules))
    }

    /// Runs `visitor` with this game's position type.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        match self {
            GameKind::Rnb => visitor.visit::<rnb::Rnb>(),
            GameKind::Duell => visitor.visit::<duell::Duell>(),
            GameKind::Apocalypse => visitor.visit::<apocalypse::Apocalypse>(),
            GameKind::Ludo => visitor.visit::<ludo::Ludo>(),
        }
    }
}
