//! A whole protocol session: arbitrary lines (up to 24) carried out by the engine's
//! `Session`, output discarded. Searches are bounded (`go` lines get `nodes 64`, lose
//! `infinite` and `perft`), and `Hash` values are not set (a large table would be
//! allocated for real). Checks: no panic, in the reading thread or a search thread
//! (libfuzzer-sys makes every panic abort the process).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quartet_engine::GameKind;
use quartet_search::players::PlayerKind;
use quartet_protocol::output::Output;
use quartet_protocol::session::{Flow, Session};

/// The session's version of a fuzzed line, or `None` to skip it.
fn bounded(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    if lower.contains("hash") && lower.contains("value") {
        return None;
    }
    if line.split_whitespace().next() == Some("go") {
        let kept: Vec<&str> = line
            .split_whitespace()
            .filter(|w| *w != "infinite" && *w != "perft")
            .collect();
        return Some(format!("{} nodes 64", kept.join(" ")));
    }
    Some(line.to_string())
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let game = GameKind::ALL[usize::from(selector) % GameKind::ALL.len()];
    let out = Output::new(Box::new(std::io::sink()));
    let Ok(mut session) = Session::new(out, game, PlayerKind::Search) else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    for line in text.lines().take(24).filter_map(bounded) {
        if session.handle_line(&line) == Flow::Quit {
            break;
        }
    }
    // A client's `quit`: a running search is stopped and joined.
    session.handle_line("quit");
});
