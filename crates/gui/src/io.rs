//! A session's I/O, apart from its game: the page's socket (with the engine console's lines
//! gathered for it), the engine child process and the channel the engines' lines arrive
//! on, each tagged with the generation of the engine that wrote it (so that the lines of an
//! engine since replaced are not taken for the new one's). The game's own data is
//! elsewhere (`lines::Lines` and the session's fields); the conversation with the engine
//! (commands fenced by `isready`, its answers read) is `talk`'s part of `Io`.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::engine::{Engine, Event};

/// The channel's capacity: an engine's reader waits when this many lines are unread.
const EVENTS: usize = 4096;

/// Console lines kept per message to the page (the rest of a burst is summarised).
const CONSOLE_BURST: usize = 4000;

/// Characters of one console line shown in full; a longer line (R&B's 11,550 arrangements
/// of one side, 462,009 bytes) is cut there and says how much was left out.
const CONSOLE_LINE: usize = 2000;

/// A console line as the page shows it: at most `CONSOLE_LINE` characters, then a note of
/// the bytes left out.
fn console_text(line: &str) -> String {
    match line.char_indices().nth(CONSOLE_LINE) {
        None => line.to_string(),
        Some((cut, _)) => format!("{} ... ({} more bytes)", &line[..cut], line.len() - cut),
    }
}

/// How long a closed socket waits for the page's side of the closing handshake.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Ends the conversation on `socket`: the server's close (or, when the page closed it, the
/// answer to the page's close, which is sent on the next read), then the page's answer or
/// the end of the connection, within `CLOSE_WAIT`, in a task of its own.
pub fn close_socket(mut socket: WebSocket) {
    tokio::spawn(async move {
        let _ = socket.send(Message::Close(None)).await;
        let _ = tokio::time::timeout(CLOSE_WAIT, async {
            while let Some(Ok(_)) = socket.recv().await {}
        })
        .await;
    });
}

/// The page's next message on `socket` (`None`: it ended); never, without a socket.
pub async fn recv(socket: &mut Option<WebSocket>) -> Option<Result<Message, axum::Error>> {
    match socket.as_mut() {
        Some(s) => s.recv().await,
        None => std::future::pending().await,
    }
}

/// One session's I/O; see the module doc.
pub struct Io {
    /// The page's WebSocket (a new one after the page came back; none while no page
    /// looks).
    pub socket: Option<WebSocket>,
    /// Where each engine's reader sends its events.
    pub events_tx: mpsc::Sender<(u64, Event)>,
    /// The engines' events, with the generation of the engine that sent each.
    pub events: mpsc::Receiver<(u64, Event)>,
    /// The engine running, if any.
    pub engine: Option<Engine>,
    /// How many engines were started: the running one's events carry it.
    pub generation: u64,
    /// The page went away (its socket closed).
    pub closed: bool,
    /// Console lines not yet sent to the page: the direction and the text.
    console: Vec<(char, String)>,
    /// Console lines of this burst left out (past `CONSOLE_BURST`).
    console_dropped: usize,
}

impl Io {
    /// The I/O of a new session on `socket`, no engine started yet.
    pub fn new(socket: WebSocket) -> Io {
        let (events_tx, events) = mpsc::channel(EVENTS);
        Io {
            socket: Some(socket),
            events_tx,
            events,
            engine: None,
            generation: 0,
            closed: false,
            console: Vec::new(),
            console_dropped: 0,
        }
    }

    /// Appends a console line: `>` sent, `<` received, `!` the engine's stderr, `#` a note.
    pub fn console(&mut self, dir: char, line: &str) {
        if self.console.len() < CONSOLE_BURST {
            self.console.push((dir, console_text(line)));
        } else {
            self.console_dropped += 1;
        }
    }

    /// Drops the console lines not sent (no page looks).
    pub fn clear_console(&mut self) {
        self.console.clear();
        self.console_dropped = 0;
    }

    /// Sends the console lines gathered so far, if any.
    pub async fn flush(&mut self) {
        if self.console.is_empty() {
            return;
        }
        if self.console_dropped > 0 {
            let n = std::mem::take(&mut self.console_dropped);
            self.console
                .push(('#', format!("... {n} more lines not shown")));
        }
        let lines: Vec<(String, String)> = std::mem::take(&mut self.console)
            .into_iter()
            .map(|(d, l)| (d.to_string(), l))
            .collect();
        self.send_raw(json!({"t": "console", "lines": lines})).await;
    }

    /// Sends one message; a closed socket ends the page's part of the session.
    async fn send_raw(&mut self, v: Value) {
        let Some(socket) = self.socket.as_mut() else {
            self.closed = true;
            return;
        };
        if socket
            .send(Message::Text(v.to_string().into()))
            .await
            .is_err()
        {
            self.closed = true;
        }
    }

    /// Ends the page's socket (`close_socket`): the page went away, or another tab took the
    /// session over.
    pub fn close_page(&mut self) {
        self.closed = true;
        if let Some(s) = self.socket.take() {
            close_socket(s);
        }
    }

    /// Goes on with the page on `socket` (it came back, or another tab took the session).
    pub fn open_page(&mut self, socket: WebSocket) {
        if let Some(old) = self.socket.replace(socket) {
            close_socket(old);
        }
        self.closed = false;
    }

    /// Sends `v` after the console lines so far (so the page sees them in order).
    pub async fn send(&mut self, v: Value) {
        self.flush().await;
        self.send_raw(v).await;
    }

    /// Shows an error in the page.
    pub async fn error(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.send(json!({"t": "error", "message": message})).await;
    }

    /// Shows a note in the page.
    pub async fn note(&mut self, message: impl Into<String>) {
        let message = message.into();
        self.send(json!({"t": "note", "message": message})).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_console_lines_are_cut_with_a_note() {
        assert_eq!(console_text("readyok"), "readyok");
        let long = "x".repeat(CONSOLE_LINE + 10);
        let shown = console_text(&long);
        assert!(shown.starts_with(&"x".repeat(CONSOLE_LINE)));
        assert!(shown.ends_with("... (10 more bytes)"), "{shown}");
        // A multi-byte character at the cut is not split.
        let wide = "é".repeat(CONSOLE_LINE + 1);
        assert!(console_text(&wide).ends_with("(2 more bytes)"));
    }
}
