//! R&B's tests as a game, from its rules file: the worked examples (`examples`) and the joint
//! setup of `Placement together` (`setup`). A file's own unit tests stay beside its code.

mod examples;
mod setup;
