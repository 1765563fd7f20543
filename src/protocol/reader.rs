//! The reading loop: input lines, one at a time, handed to the [`Session`] until `quit` or
//! the end of input. Invalid UTF-8 is replaced, not fatal; lines longer than
//! [`MAX_LINE_BYTES`] are refused whole with an error.

use super::response::error;
use super::session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, Session};
use crate::games::GameKind;
use crate::output::Output;
use crate::players::PlayerKind;
use std::io::{BufRead, Read};

/// The longest input line read whole; longer lines are refused.
pub const MAX_LINE_BYTES: u64 = 16 << 20;

/// The protocol on standard input and output: the banner, then every line of stdin.
pub fn serve_stdio(game: GameKind, player: PlayerKind) -> Result<(), String> {
    let out = Output::stdout();
    out.line(&format!(
        "{ENGINE_NAME} by {ENGINE_AUTHOR} · game {} · type 'uci' to start or 'help' for the commands",
        game.name()
    ));
    let mut session = Session::new(out.clone(), game, player)?;
    run(std::io::stdin().lock(), &mut session, &out)
}

/// Carries out every line of `input` in `session` (errors about the input itself go to
/// `out`). At the end of input the session finishes its bounded search.
pub fn run(mut input: impl BufRead, session: &mut Session, out: &Output) -> Result<(), String> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut buf)
            .map_err(|e| format!("reading input: {e}"))?;
        if n == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            skip_line(&mut input)?;
            out.line(&error(&format!(
                "line longer than {MAX_LINE_BYTES} bytes ignored"
            )));
            continue;
        }
        let line = String::from_utf8_lossy(&buf);
        if session.handle_line(line.trim_end_matches(['\n', '\r'])) == Flow::Quit {
            return Ok(());
        }
    }
    session.finish();
    Ok(())
}

/// Reads and drops the rest of an over-long line.
fn skip_line(input: &mut impl BufRead) -> Result<(), String> {
    let mut chunk = Vec::new();
    loop {
        chunk.clear();
        let m = input
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut chunk)
            .map_err(|e| format!("reading input: {e}"))?;
        if m == 0 || chunk.ends_with(b"\n") {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A sink the test can read back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| std::io::ErrorKind::Other)?
                .extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines the engine writes for `input`.
    fn session(input: &[u8]) -> Vec<String> {
        let sink = Captured::default();
        let out = Output::new(Box::new(sink.clone()));
        let mut s =
            Session::new(out.clone(), GameKind::Duell, PlayerKind::Search).expect("a session");
        run(input, &mut s, &out).expect("reads");
        drop(s);
        let bytes = sink.0.lock().map(|b| b.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes)
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn lines_are_read_until_quit() {
        let lines = session(b"isready\r\nquery fen\nquit\nisready\n");
        assert_eq!(lines[0], "readyok");
        assert!(lines[1].starts_with("response B53"), "{lines:?}");
        assert_eq!(lines.len(), 2, "nothing after quit: {lines:?}");
    }

    #[test]
    fn invalid_utf8_is_replaced_and_the_end_of_input_finishes_a_search() {
        let lines = session(b"\xff\xfe\nposition startpos\ngo depth 2");
        assert!(
            lines[0].starts_with("info string error: unknown command"),
            "{lines:?}"
        );
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1,
            "{lines:?}"
        );
    }
}
