//! The text protocol: a UCI superset that also answers UGI (protocol.md is the spec).
//! `parse` turns lines into [`command::Command`]s, `session` carries them out.

pub mod command;
pub mod options;
pub mod output;
pub mod parse;
pub mod response;
pub mod session;
