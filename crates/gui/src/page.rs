//! A session's messages to its page: the engine's description (`hello`) and the whole
//! state, sent once per pass of the loop (the socket, the console, errors and notes are
//! `io::Io`'s).

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::json;

use super::session::Session;
use super::uci::OptionDecl;

impl Session {
    /// Tells the page the engine's name, its options (the `Game` option aside), its games
    /// and each game's rule options, the options the person set, and the review kept.
    pub(super) async fn send_hello(&mut self) {
        let options: Vec<&OptionDecl> = self
            .ident
            .options
            .iter()
            .filter(|o| !o.name.eq_ignore_ascii_case("Game"))
            .collect();
        let v = json!({
            "t": "hello",
            "session": self.id,
            "name": self.ident.name,
            "author": self.ident.author,
            "command": self.config.engine.display(),
            "pid": self.io.engine.as_ref().and_then(|e| e.pid),
            "options": options,
            "games": self.games,
            "rules": self.rules,
            "set": self.set_options,
        });
        self.io.send(v).await;
        self.send_review_log().await;
    }

    /// Sends the review kept with the session (`quartet review --json`'s game, or null
    /// while it is made): to a page that came back, when it is done, or when a main line
    /// changed under it.
    pub(super) async fn send_review_log(&mut self) {
        if let Some(r) = &self.game.review {
            let log = json!({"t": "review_log", "review": r.report_json()});
            self.io.send(log).await;
        }
    }

    /// Notes that the state changed: it is sent once the loop has started all it can (so
    /// that a person's move and the engine's `go` after it make one message, one drawing).
    pub(super) fn state_changed(&mut self) {
        self.state_due = true;
    }

    /// Sends the whole state to the page: the core's, with the message's number and the
    /// engine's process.
    pub(super) async fn send_state(&mut self) {
        self.state_due = false;
        self.seq += 1;
        // The main line may have grown into a variation since.
        self.game.lines.reconcile();
        let mut v = self.game.state_json(Instant::now(), &self.ident.name);
        if let Some(m) = v.as_object_mut() {
            m.insert("seq".into(), json!(self.seq));
            m.insert("engine_running".into(), json!(self.io.engine.is_some()));
            m.insert(
                "pid".into(),
                json!(self.io.engine.as_ref().and_then(|e| e.pid)),
            );
            let sent = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            m.insert("sent_ms".into(), json!(sent));
        }
        self.io.send(v).await;
    }
}
