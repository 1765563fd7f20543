//! Apocalypse's tests as a game, from its rules file: the worked examples (`examples`) and
//! one test per rule beyond them (`rules`). A file's own unit tests stay beside its code.

mod examples;
pub(super) mod rules;
