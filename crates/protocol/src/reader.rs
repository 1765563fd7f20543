//! The reading loop. A reading thread splits the input into lines ([`LineSplitter`]) and
//! sends each, with the moment it arrived, to the loop; a search thread that has printed
//! its `bestmove` sends a wake-up, so lines waiting for that search are carried out at
//! once, not when the next line comes. The loop hands both to the [`Session`] until `quit`
//! or the end of input (then the session finishes its bounded search and waiting lines).

use super::line::{LineSplitter, Piece};
use super::session::{ENGINE_AUTHOR, ENGINE_NAME, Flow, Session};
use crate::output::Output;
use quartet_engine::GameKind;
use quartet_search::players::PlayerKind;
use std::io::{BufRead, ErrorKind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::Instant;

/// What the loop is told.
enum Event {
    /// An input line and when it arrived.
    Line(String, Instant),
    /// A line over the length limit: its first bytes.
    TooLong(String),
    /// A search or perft has printed its last line.
    Done,
    /// The input has ended (or could not be read).
    End(Result<(), String>),
}

/// The protocol on standard input and output: the banner, then every line of stdin.
pub fn serve_stdio(game: GameKind, player: PlayerKind) -> Result<(), String> {
    let out = Output::stdout();
    out.line(&format!(
        "{ENGINE_NAME} by {ENGINE_AUTHOR} · game {} · type 'uci' to start or 'help' for the \
        commands",
        game.name()
    ));
    let mut session = Session::new(out.clone(), game, player)?;
    let (tx, rx) = channel();
    wake_on_done(&mut session, &tx);
    // Detached: after `quit` the program ends while this thread may still wait for input.
    thread::spawn(move || read_lines(std::io::stdin().lock(), &tx));
    serve(&rx, &mut session)
}

/// Carries out every line of `input` in `session`, exactly as [`serve_stdio`] does with
/// standard input.
pub fn run(input: impl BufRead + Send, session: &mut Session) -> Result<(), String> {
    let (tx, rx) = channel();
    wake_on_done(session, &tx);
    thread::scope(|scope| {
        scope.spawn(move || read_lines(input, &tx));
        serve(&rx, session)
    })
}

fn wake_on_done(session: &mut Session, tx: &Sender<Event>) {
    let tx = tx.clone();
    session.set_done_notifier(move || {
        // The loop may have ended already; then nobody needs waking.
        let _ = tx.send(Event::Done);
    });
}

/// The loop: each event to the session, until `quit` or the end of input.
fn serve(rx: &Receiver<Event>, session: &mut Session) -> Result<(), String> {
    loop {
        let flow = match rx.recv() {
            Ok(Event::Line(line, received)) => {
                let flow = session.handle_line_at(&line, received);
                free(line);
                flow
            }
            Ok(Event::TooLong(start)) => session.handle_too_long(&start),
            Ok(Event::Done) => session.search_done(),
            Ok(Event::End(result)) => {
                session.finish();
                return result;
            }
            Err(_) => {
                session.finish();
                return Ok(());
            }
        };
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}

/// Gives a line's memory back: a long line's on a thread of its own, since unmapping
/// 16 MiB takes milliseconds the next line would wait.
fn free(line: String) {
    if line.capacity() >= 1 << 20 {
        thread::spawn(move || drop(line));
    }
}

/// Sends every line of `input`, then the end.
fn read_lines(mut input: impl BufRead, tx: &Sender<Event>) {
    let mut splitter = LineSplitter::default();
    let send = |piece: Piece| match piece {
        Piece::Line(line) => tx.send(Event::Line(line, Instant::now())).is_ok(),
        Piece::TooLong(start) => tx.send(Event::TooLong(start)).is_ok(),
    };
    loop {
        let bytes = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Event::End(Err(format!("reading input: {e}"))));
                return;
            }
        };
        if bytes.is_empty() {
            if let Some(piece) = splitter.end() {
                send(piece);
            }
            let _ = tx.send(Event::End(Ok(())));
            return;
        }
        let (used, piece) = splitter.take(bytes);
        input.consume(used);
        if let Some(piece) = piece
            && !send(piece)
        {
            return;
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
        run(input, &mut s).expect("reads");
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

    #[test]
    fn a_position_during_a_search_applies_at_once_and_the_search_runs_to_its_depth() {
        let lines = session(b"go depth 3\nposition startpos moves b1b2\nquery fen\n");
        let best = lines.iter().position(|l| l.starts_with("bestmove"));
        let fen = lines.iter().position(|l| l.starts_with("response"));
        assert!(fen.is_some() && best.is_some(), "{lines:?}");
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.starts_with("info depth 3"))
                .count(),
            1,
            "the search ran to its depth: {lines:?}"
        );
        assert!(lines[fen.unwrap_or(0)].ends_with(" b 1 1"), "{lines:?}");
    }

    #[test]
    fn a_go_behind_a_search_searches_the_position_of_its_moment() {
        // The second go is sent at the start position; the position after it is for a
        // search that never comes.
        let lines = session(b"go depth 2\ngo depth 1\nposition startpos moves b1b2\n");
        let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(answers.len(), 2, "{lines:?}");
        // At the start every White move leaves rank 1; after b1b2 Black moves from rank 8.
        for answer in answers {
            assert_eq!(answer.as_bytes().get(10), Some(&b'1'), "{lines:?}");
        }
    }
}
