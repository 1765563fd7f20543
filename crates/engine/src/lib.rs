//! The engine layer: one game of any kind behind an object-safe, text-level interface.
//! The protocol session and the subcommands hold a `Box<dyn AnyGame>` and never know which
//! game it is; [`Slot`] implements [`AnyGame`] for every game of the registry
//! ([`quartet_games`]), joining its rules, notation and evaluation to the search, the
//! baseline players, perft and the game's history.

#![deny(missing_docs)]

pub mod bench;
#[cfg(test)]
#[cfg(all(test, feature = "pile"))]
mod fifth_game_tests;
mod plan;
mod report;
pub mod skill;
mod slot;

/// The registry, for the layers above that know games only through it (the protocol names
/// no game's own module, and cannot: it does not depend on the games).
pub use quartet_games::{GameKind, GameVisitor, rule_option, rule_options};
pub use report::{InfoLine, Score, SearchRequest, SearchSummary};
pub use slot::{DEFAULT_BASELINE_ITERATIONS, Slot};

use quartet_core::declaration::GameDeclaration;
use quartet_core::eval::Evaluate;
use quartet_core::eval::nnue::Choice;
use quartet_core::game::{EndReason, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Notation, NotationError};
use quartet_search::tt::TranspositionTable;
use std::sync::atomic::AtomicBool;

/// A position of some game, with its history, behind a text interface.
pub trait AnyGame: Send {
    /// The game's declaration (name, node kinds, rule options).
    fn declaration(&self) -> &'static GameDeclaration;

    /// The game's name as the `Game` option spells it.
    fn name(&self) -> &'static str {
        self.declaration().name
    }

    /// Sets the position to `position` (or the start position when `None`) followed by
    /// `moves`, atomically: on any error nothing changes. The history restarts at the
    /// given position.
    fn set_position(
        &mut self,
        position: Option<&str>,
        moves: &[&str],
    ) -> Result<(), NotationError> {
        self.set_position_from(position, &mut moves.iter().copied())
    }

    /// [`AnyGame::set_position`] with the move tokens read one at a time from `moves`, in
    /// time linear in their number; the first bad token ends the reading.
    fn set_position_from(
        &mut self,
        position: Option<&str>,
        moves: &mut dyn Iterator<Item = &str>,
    ) -> Result<(), NotationError>;

    /// The current position string.
    fn fen(&self) -> String;

    /// A board diagram for `d`.
    fn diagram(&self) -> String;

    /// The current position's hash.
    fn hash(&self) -> u64;

    /// The current node kind, repetition draws included.
    fn node(&self) -> Node;

    /// The player to move or to roll (see `Game::acting_player`).
    fn acting_player(&self) -> Option<Player>;

    /// The legal tokens in stable order: `side`'s declarations when given (none unless the
    /// node is simultaneous), otherwise every child action (joint turns at simultaneous
    /// nodes; none when there are more than `slot::MAX_JOINT_TOKENS`).
    fn legal_tokens(&self, side: Option<Player>) -> Vec<String>;

    /// Whether `token` may be played now (the game not being over).
    fn is_legal(&self, token: &str) -> bool;

    /// Whether `token` is one of `side`'s legal declarations at a simultaneous turn (a
    /// well-formed but illegal declaration, which `position` records as void, is not).
    fn is_legal_declaration(&self, token: &str, side: Player) -> bool;

    /// The outcomes of the current chance node with their integer weights (an outcome's
    /// probability is its weight over the sum), in stable order; empty at any other node.
    fn chance_tokens(&self) -> Vec<(String, u32)>;

    /// Why the game is over (repetition included): one of the game's declared reasons;
    /// `None` while it goes on.
    fn end_reason(&self) -> Option<EndReason>;

    /// The current position for drawing it, as the one-line JSON object of `query
    /// position` (protocol.md): the fields every game has, then the game's own.
    fn describe(&self) -> String;

    /// The root moves `tokens` restrict a search to (`go searchmoves`), each once, as
    /// canonical tokens: each token must be a legal move at a side's turn (none: every move
    /// is searched, an empty list). The error says which is not, and why. A token seen
    /// before is not read again, so a long list of repeated tokens costs little.
    fn check_searchmoves(
        &self,
        tokens: &mut dyn Iterator<Item = &str>,
    ) -> Result<Vec<String>, String>;

    /// Perft per root token, in stable order, each row passed to `visit` as soon as it is
    /// counted; `false` when `stop` ended it early (see [`quartet_core::perft::divide_until`]).
    fn divide(&self, depth: u32, stop: &AtomicBool, visit: &mut dyn FnMut(&str, u64)) -> bool;

    /// Perft of the current position.
    fn perft(&self, depth: u32) -> u64;

    /// Searches the current position, calling `info` for each report line.
    fn search(
        &self,
        request: &SearchRequest,
        tt: &TranspositionTable,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&InfoLine),
    ) -> SearchSummary;

    /// A copy for a worker thread.
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

/// The start position of `game` under `rules`, behind [`AnyGame`].
pub fn new_game(game: GameKind, rules: RuleOptions) -> Box<dyn AnyGame> {
    game.visit(NewGame(rules))
}

/// Makes every game that has a network ([`Evaluate::NNUE`]) evaluate as `choice` says
/// (at the start [`Choice::Auto`]: each game's declared default), in this process: the
/// `Eval` option, `quartet bench --eval` and `quartet selfplay --eval` choose through it.
pub fn choose_eval(choice: Choice) {
    for game in GameKind::ALL {
        game.visit(ChooseEval(choice));
    }
}

/// Chooses the evaluation of one game, if it has a network.
struct ChooseEval(Choice);

impl GameVisitor for ChooseEval {
    type Output = ();
    fn visit<G: Evaluate + Notation>(self) {
        if let Some(nnue) = G::NNUE {
            nnue.in_use.choose(self.0);
        }
    }
}

/// Makes the start position of a game behind [`AnyGame`].
struct NewGame(RuleOptions);

impl GameVisitor for NewGame {
    type Output = Box<dyn AnyGame>;
    fn visit<G: Evaluate + Notation>(self) -> Box<dyn AnyGame> {
        Box::new(Slot::<G>::new(self.0))
    }
}

/// A seed for one position: the `Seed` option mixed with the position's hash
/// (splitmix64's finaliser), so that the same seed and position give the same choice.
/// Callers that choose for one side of a simultaneous turn mix the side in too
/// ([`side_salt`]), so that the two sides' samples are independent.
pub fn mix_seed(seed: u64, hash: u64) -> u64 {
    quartet_core::splitmix::finalise(
        seed ^ hash.rotate_left(17) ^ quartet_core::splitmix::GOLDEN_GAMMA,
    )
}

/// `p1win`, `p2win` or `draw`, as `query result` answers.
pub fn outcome_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::First) => "p1win",
        Outcome::Win(Player::Second) => "p2win",
        Outcome::Draw => "draw",
    }
}

/// What a choice for `side` adds to the position's hash before [`mix_seed`]: nothing for the
/// first player (or no side), a fixed odd constant for the second, so that with one seed
/// the two sides of a simultaneous turn do not pick the same index of their mirrored
/// strategies.
pub fn side_salt(side: Option<Player>) -> u64 {
    match side {
        Some(Player::Second) => 0xD1B5_4A32_D192_ED03,
        _ => 0,
    }
}
