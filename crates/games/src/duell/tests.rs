//! Duell's tests as a game, from its rules file: every rule and worked example (`rules`), the
//! position strings and move tokens (`notation`), and an independent naive move generator
//! compared with the engine (`reference`). A file's own unit tests stay beside its code.

mod notation;
mod reference;
mod rules;
