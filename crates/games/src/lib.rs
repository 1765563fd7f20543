//! The registry: the games Quartet plays, each in its own folder (rules, notation,
//! evaluation, declaration), listed once in `registry!`'s invocation below. Outside the
//! folders a game is reached through [`GameKind`] (its declaration: name, node kinds, rule
//! options) or a [`GameVisitor`] run with its position type and its declared capabilities
//! (`Notation::SOLVER`, `Evaluate::TUNABLE`, `Evaluate::NETWORK`); only the referee's and
//! the search's unit tests use games' types.

#![deny(missing_docs)]

pub mod apocalypse;
pub mod duell;
pub mod kit;
pub mod ludo;
pub mod rnb;

#[cfg(any(test, feature = "pile"))]
pub mod pile;

use quartet_core::declaration::{GameDeclaration, RuleOption};
use quartet_core::eval::{Evaluate, MAX_MOVE_CODES};
use quartet_core::notation::Notation;

/// Code generic over the game type, run for a game chosen at run time by
/// [`GameKind::visit`].
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Runs with `G` the chosen game's position type.
    fn visit<G: Evaluate + Notation>(self) -> Self::Output;
}

/// Declares [`GameKind`] from one line per game: its variant and its position type, after
/// its doc comment and optionally a `#[cfg(...)]` (a game of the test build only).
macro_rules! registry {
    ($($(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $kind:ident => $position:ty),* $(,)?) => {
        /// The games Quartet plays, in the order the `Game` option lists them.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($(#[doc = $doc])* $(#[cfg($cfg)])? $kind),*
        }

        // Where a game registers, its move codes must fit the transposition table's field:
        // a game whose `MOVE_CODES` exceeds `MAX_MOVE_CODES` does not compile.
        const _: () = {
            $($(#[cfg($cfg)])? assert!(
                <$position as Evaluate>::MOVE_CODES <= MAX_MOVE_CODES,
                "a registered game's MOVE_CODES exceeds MAX_MOVE_CODES"
            );)*
        };

        // What `GameDeclaration::DEFAULT` cannot give: a registered game declares its name,
        // its end reasons and its bench positions, or it does not compile.
        const _: () = {
            $($(#[cfg($cfg)])? {
                let d = &<$position as Notation>::DECLARATION;
                assert!(!d.name.is_empty(), "a registered game declares no name");
                assert!(!d.end_reasons.is_empty(), "a registered game declares no end reason");
                assert!(!d.bench.positions.is_empty(), "a registered game declares no bench");
            })*
        };

        impl GameKind {
            /// Every game, in the `Game` option's order.
            pub const ALL: &'static [GameKind] = &[$($(#[cfg($cfg)])? GameKind::$kind),*];

            /// The game's declaration (name, node kinds, rule options).
            pub const fn declaration(self) -> &'static GameDeclaration {
                match self {
                    $($(#[cfg($cfg)])? GameKind::$kind => &<$position as Notation>::DECLARATION),*
                }
            }

            /// Runs `visitor` with this game's position type.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $($(#[cfg($cfg)])? GameKind::$kind => visitor.visit::<$position>()),*
                }
            }
        }
    };
}

registry! {
    /// R&B: 6x6 sandwich captures with a placement phase.
    Rnb => rnb::Rnb,
    /// Apocalypse: 5x5 knights and pawns with simultaneous moves.
    Apocalypse => apocalypse::Apocalypse,
    /// Duell: 9x8 chess with rolling dice.
    Duell => duell::Duell,
    /// Ludo: Red against Yellow with a die.
    Ludo => ludo::Ludo,
    /// Pile, a toy: a fifth game as a new one would be, in test builds only (its own
    /// unit tests, and the engine's with the feature `pile`).
    #[cfg(any(test, feature = "pile"))]
    Pile => pile::Pile,
}

impl GameKind {
    /// The game played when none is chosen.
    pub const DEFAULT: GameKind = GameKind::Duell;

    /// The name the `Game` option and `--game` use.
    pub const fn name(self) -> &'static str {
        self.declaration().name
    }

    /// The game called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL
            .iter()
            .copied()
            .find(|g| g.name().eq_ignore_ascii_case(name))
    }

    /// [`GameKind::from_name`], with an error that lists the games.
    pub fn parse(name: &str) -> Result<GameKind, String> {
        GameKind::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
            format!("unknown game '{name}' (one of {})", names.join(", "))
        })
    }

    /// Whether this game declares the rule option called `name`.
    pub fn declares(self, name: &str) -> bool {
        self.declaration()
            .rule_options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// Every rule option of every game, each name once, in registry order.
pub fn rule_options() -> Vec<&'static RuleOption> {
    let mut out: Vec<&'static RuleOption> = Vec::new();
    for game in GameKind::ALL {
        for option in game.declaration().rule_options {
            if !out.iter().any(|o| o.name == option.name) {
                out.push(option);
            }
        }
    }
    out
}

/// The rule option called `name` (case-insensitive), of any game.
pub fn rule_option(name: &str) -> Option<&'static RuleOption> {
    rule_options()
        .into_iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found_in_any_case() {
        for &game in GameKind::ALL {
            assert_eq!(GameKind::from_name(&game.name().to_uppercase()), Some(game));
            assert_eq!(
                GameKind::ALL
                    .iter()
                    .filter(|g| g.name() == game.name())
                    .count(),
                1
            );
        }
        assert!(GameKind::parse("chess").is_err());
    }

    #[test]
    fn rule_options_of_the_same_name_agree() {
        for &game in GameKind::ALL {
            for option in game.declaration().rule_options {
                assert_eq!(rule_option(option.name), Some(option));
            }
        }
    }
}
