//! Ludo's tests as a game, from its rules file: the worked examples (`examples`). A file's
//! own unit tests stay beside its code.

mod examples;
