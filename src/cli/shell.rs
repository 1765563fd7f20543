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

/// `quartet man`.
#[derive(Args)]
pub struct ManArgs {
    /// Write every page into this folder instead: `quartet.1` and one `quartet-<sub>.1` per
    /// subcommand (the pages `quartet.1` names in SEE ALSO), for example
    /// `quartet man --dir ~/.local/share/man/man1`.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<std::path::PathBuf>,
}

/// Prints the main man page in roff (`quartet man > quartet.1; man ./quartet.1`), or writes
/// every page into `args.dir`, naming each file written.
pub fn man(args: &ManArgs) -> Result<(), String> {
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        clap_mangen::generate_to(Cli::command(), dir).map_err(|e| format!("man: {e}"))?;
        let mut written: Vec<String> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with("quartet") && name.ends_with(".1"))
            .collect();
        written.sort();
        for name in written {
            say(format!("wrote {}", dir.join(name).display()));
        }
        return Ok(());
    }
    // As the pages are written: without clap's `help` subcommand, which has no page.
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command().disable_help_subcommand(true))
        .render(&mut page)
        .map_err(|e| format!("man: {e}"))?;
    say(String::from_utf8_lossy(&page).trim_end());
    Ok(())
}
