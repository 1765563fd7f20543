//! The invariants of `quartet_testkit::invariants` along seeded random playouts, for every game of
//! the registry, under every value of each of its rule options (one at a time, the others
//! at their defaults), from the start position and from each of its bench positions.

use quartet_core::eval::Evaluate;
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_testkit::invariants::check_random_playouts;

/// Random games per start position and rule setting in the README's test command.
const GAMES: usize = 8;
/// Random games per start position and rule setting in the deep run (`--ignored`, a CI
/// phase of its own): about 75 CPU-seconds.
const DEEP_GAMES: usize = 30;
/// The longest playout (Ludo games run to several hundred plies).
const MAX_PLIES: usize = 2000;

/// The playouts of one game: `usize` random games from each start and rule setting.
struct Playouts(usize);

impl GameVisitor for Playouts {
    type Output = Result<usize, String>;

    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let games = self.0;
        let declaration = G::DECLARATION;
        let mut settings = vec![RuleOptions::default()];
        for option in declaration.rule_options {
            let (min, max) = option.range();
            for value in min..=max {
                settings.push(RuleOptions::default().with(option, value)?);
            }
        }
        let mut checked = 0;
        for (seed, rules) in settings.iter().enumerate() {
            let start = G::start(rules);
            check_random_playouts(&start, rules, games, MAX_PLIES, seed as u64)
                .map_err(|e| format!("{} {rules:?}: {e}", declaration.name))?;
            checked += 1;
        }
        let rules = RuleOptions::default();
        for (seed, text) in declaration.bench.positions.iter().enumerate() {
            let pos = G::parse_position(text, &rules).map_err(|e| e.to_string())?;
            check_random_playouts(&pos, &rules, games, MAX_PLIES, 100 + seed as u64)
                .map_err(|e| format!("{} from {text}: {e}", declaration.name))?;
            checked += 1;
        }
        Ok(checked)
    }
}

/// Checks `games` random playouts of every game from each start.
fn playouts_of_every_game(games: usize) {
    for &game in GameKind::ALL {
        let checked = game
            .visit(Playouts(games))
            .unwrap_or_else(|e| panic!("{}: {e}", game.name()));
        assert!(checked >= 2, "{}: {checked} starts", game.name());
    }
}

#[test]
fn every_game_keeps_the_invariants_along_random_playouts() {
    playouts_of_every_game(GAMES);
}

#[test]
#[ignore = "deep: about 75 CPU-seconds; CI runs it in a phase of its own"]
fn every_game_keeps_the_invariants_along_many_random_playouts() {
    playouts_of_every_game(DEEP_GAMES);
}
