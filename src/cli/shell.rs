//! `quartet completions <shell>` and `quartet man`: shell completions (clap_complete) and a
//! man page (clap_mangen), both generated from the command line's own definition, so that
//! they name every subcommand and flag the binary has.

use super::Cli;
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use quartet_protocol::output::say;

/// `quartet completions`.
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete for: bash, zsh, fish, elvish or powershell.
    pub shell: Shell,
}

/// Prints the completion script for `args.shell` (for example
/// `quartet completions bash > ~/.local/share/bash-completion/completions/quartet`).
pub fn completions(args: &CompletionsArgs) -> Result<(), String> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "quartet", &mut script);
    say(String::from_utf8_lossy(&script).trim_end());
    Ok(())
}

/// Prints the man page, in roff (`quartet man > quartet.1; man ./quartet.1`).
pub fn man() -> Result<(), String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| format!("man: {e}"))?;
    say(String::from_utf8_lossy(&page).trim_end());
    Ok(())
}
