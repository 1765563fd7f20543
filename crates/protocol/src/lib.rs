//! The text protocol: a UCI superset that also answers UGI (protocol.md is the spec).
//! `reader` reads the input lines (`line` says what one is), `parse` turns each into a
//! [`command::Command`], `session` carries them out and `response` writes the answers.

#![deny(missing_docs)]

pub mod command;
pub mod eval_file;
pub mod line;
pub mod options;
pub mod output;
pub mod parse;
pub mod playthrough;
pub mod reader;
pub mod response;
pub mod session;
