//! The bodies of the binary's subcommands, one module each; `main.rs` only names them.

pub mod selfplay;
pub mod tune;
