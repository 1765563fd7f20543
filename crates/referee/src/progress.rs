//! What a running match shows on stderr: a live progress line on a terminal; one line per
//! finished game otherwise (as fastchess prints, so logs of long runs show progress);
//! nothing with `--no-progress`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

enum Mode {
    Bar(ProgressBar),
    Lines,
    Hidden,
}

/// The progress display of one match.
pub struct Progress {
    mode: Mode,
}

impl Progress {
    /// A progress display for `total` games: a live line if stderr is a terminal, a line
    /// per game if it is not; `visible` false shows nothing.
    pub fn new(total: u64, visible: bool) -> Progress {
        let mode = if !visible {
            Mode::Hidden
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            let template = "{bar:30} {pos}/{len} games {elapsed} (eta {eta}) {msg}";
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            Mode::Bar(bar)
        } else {
            Mode::Lines
        };
        Progress { mode }
    }

    /// Counts one more game: `game` says which and how it ended, `summary` is the match so
    /// far (shown on the live line, or after `game` on its own line).
    pub fn game_done(&self, game: &str, summary: String) {
        match &self.mode {
            Mode::Bar(bar) => {
                bar.inc(1);
                bar.set_message(summary);
            }
            Mode::Lines => eprintln!("{game}; {summary}"),
            Mode::Hidden => {}
        }
    }

    /// Prints `text` on stdout without tearing the progress line. A failed write (a closed
    /// pipe) is ignored: these are interim reports, and the match goes on to its end.
    pub fn print(&self, text: &str) {
        let print = || {
            use std::io::Write as _;
            let _ = writeln!(std::io::stdout(), "{text}");
        };
        match &self.mode {
            Mode::Bar(bar) => bar.suspend(print),
            _ => print(),
        }
    }

    /// Removes the progress line.
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}
