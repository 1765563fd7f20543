//! Small games for the tests of the game-generic parts (the search, the baselines, the
//! referee, the history), one collection for unit and integration tests alike. Each covers
//! a kind of node or a rule the real games make hard to reach in a test:
//!
//! - [`TicTacToe`]: turn nodes only, with a pseudo-random static value (the search).
//! - [`DiceRace`]: weighted chance nodes between turns (the search, the baselines).
//! - [`OneShot`]: one simultaneous turn ([`matching_pennies`], [`dominant`]).
//! - [`Goofspiel`]: several simultaneous rounds.
//! - [`Gamble`]: a choice whose value only shows past a die.
//! - [`Endless`]: a game that never ends.
//! - [`Nim`], [`Dice`], [`Pennies`]: one of each node kind the referee handles, with a
//!   notation (the fake engine `tests/fixtures/referee/fake_engine.py` plays them too).
//! - [`Shuffle`]: repetitions and an irreversible move (the history).
//! - [`Weighted`]: one chance node of unequal weights (the referee's dice).
//! - [`Wide`]: one simultaneous turn too wide for a matrix (the double oracle).

mod dice;
mod dice_race;
mod endless;
mod gamble;
mod goofspiel;
mod nim;
mod one_shot;
mod pennies;
mod shuffle;
mod text;
mod tictactoe;
mod weighted;
mod wide;

pub use dice::{DICE_TARGET, Dice, DiceMove};
pub use dice_race::DiceRace;
pub use endless::Endless;
pub use gamble::{GAMBLE, Gamble, SAFE};
pub use goofspiel::Goofspiel;
pub use nim::{Nim, NimMove};
pub use one_shot::{OneShot, dominant, matching_pennies};
pub use pennies::{Coin, Pennies};
pub use shuffle::Shuffle;
pub use tictactoe::TicTacToe;
pub use weighted::Weighted;
pub use wide::{WIDE_SIZE, Wide, wide_dominant, wide_drawn, wide_rock_paper_scissors};
