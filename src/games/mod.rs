//! The four games, each in its own folder (rules, notation, evaluation), and the choice
//! between them by name.

pub mod any;
pub mod apocalypse;
pub mod duell;
pub mod ludo;
pub mod rnb;

use crate::game::RuleOptions;
use any::{AnyGame, Slot};

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

    /// The start position of this game under `rules`, or why it cannot be played yet.
    pub fn new_game(self, rules: RuleOptions) -> Result<Box<dyn AnyGame>, String> {
        match self {
            GameKind::Rnb => Ok(Box::new(Slot::<rnb::Rnb>::new(rules))),
            GameKind::Duell => Ok(Box::new(Slot::<duell::Duell>::new(rules))),
            GameKind::Apocalypse | GameKind::Ludo => {
                Err(format!("game '{}' is not available yet", self.name()))
            }
        }
    }
}
