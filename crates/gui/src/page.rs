//! A session's messages to its page: the engine's description (`hello`) and the whole
//! state, sent once per pass of the loop (the socket, the console, errors and notes are
//! `io::Io`'s).

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::flow::{Node, Side};
use super::request::Who;
use super::session::Session;
use super::uci::OptionDecl;

/// Most tokens of one side's legal declarations sent to the page in the state; a longer
/// list (R&B's setup under `Placement together`: 11,550 arrangements a side) is sent as
/// `null`, and the page builds the declaration itself (the server still checks it against
/// the whole list).
const LISTED_DECLARATIONS: usize = 2000;

/// One side's legal declarations as the state carries them: the list, or `null` when it
/// has more than `LISTED_DECLARATIONS` tokens.
pub(super) fn listed(tokens: &[String]) -> Value {
    if tokens.len() > LISTED_DECLARATIONS {
        Value::Null
    } else {
        json!(tokens)
    }
}

impl Session {
    /// Tells the page the engine's name, its options (the `Game` option aside) and games.
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
        });
        self.io.send(v).await;
    }

    /// A declaration as the page may see it: the token to the only person playing,
    /// otherwise hidden.
    pub(super) fn declared_view(&self, side: Side) -> Value {
        let humans = self.players.iter().filter(|w| **w == Who::Human).count();
        match &self.declared[side.index()] {
            None => Value::Null,
            Some(t) if humans == 1 && self.players[side.index()] == Who::Human => json!(t),
            Some(_) => json!("hidden"),
        }
    }

    /// How the game ended, for the page: `result`, the `reason` token and its `words` (a
    /// resignation's and a flag's are the server's own; a rule's are the engine's
    /// `reason_words`, so the page needs no table of any game's reasons); null while the
    /// game goes on.
    pub(super) fn over_json(&self) -> Value {
        if let Some(side) = self.resigned {
            let result = if side == Side::P1 { "p2win" } else { "p1win" };
            return json!({"result": result, "reason": "resignation", "words": "resignation"});
        }
        if let Some(side) = self.flagged {
            let result = if side == Side::P1 { "p2win" } else { "p1win" };
            return json!({"result": result, "reason": "time", "words": "the clock ran out"});
        }
        match &self.snap {
            Some(s) if s.node == Node::Over => json!({
                "result": s.position["result"],
                "reason": s.position["reason"],
                "words": s.position["reason_words"],
            }),
            _ => Value::Null,
        }
    }

    /// Notes that the state changed: it is sent once the loop has started all it can (so
    /// that a person's move and the engine's `go` after it make one message, one drawing).
    pub(super) fn state_changed(&mut self) {
        self.state_due = true;
    }

    /// Sends the whole state to the page.
    pub(super) async fn send_state(&mut self) {
        self.state_due = false;
        self.seq += 1;
        // The main line may have grown into a variation since.
        self.lines.reconcile();
        let viewing = self
            .lines
            .viewed()
            .map(|(ply, _)| json!({"ply": ply, "line": self.lines.line}));
        let now = Instant::now();
        let snap = self.snap.as_ref();
        let clocks = self.clocks.as_ref().map(|c| {
            json!({
                "left": [c.left(0, now), c.left(1, now)],
                "running": [c.running(0), c.running(1)],
            })
        });
        let thinking = self.search.as_ref().map(
            |s| json!({"purpose": s.purpose, "ms": now.duration_since(s.sent).as_millis() as u64}),
        );
        let v = json!({
            "t": "state",
            "seq": self.seq,
            "game": self.game,
            "start_fen": self.start_text,
            "moves": self.lines.moves,
            "actors": self.lines.actors,
            "variations": self.lines.variations_json(),
            "viewing": viewing,
            "position": snap.map_or(Value::Null, |s| s.position.clone()),
            // The position before the last token, for the marks of what it captured.
            "before": self.lines.moves.len().checked_sub(1).and_then(|b| self.lines.seen(None, b)),
            "legal": snap.map_or(Vec::new(), |s| s.legal.clone()),
            "legal_side": snap.map_or(json!([[], []]), |s| {
                json!([listed(&s.legal_side[0]), listed(&s.legal_side[1])])
            }),
            "players": self.players,
            "next": self.next(),
            "declared": [self.declared_view(Side::P1), self.declared_view(Side::P2)],
            "reveal": self.reveal,
            "thinking": thinking,
            "fault": self.fault,
            "over": self.over_json(),
            "clocks": clocks,
            "limit": self.limit,
            "delay_ms": self.delay.as_millis() as u64,
            "paused": self.paused,
            "analyse": self.analyse,
            "review": self.review.as_ref().map(|r| r.ply),
            "seed": self.seed,
            "reply_ms": self.reply_ms,
            "engine_running": self.io.engine.is_some(),
            "pid": self.io.engine.as_ref().and_then(|e| e.pid),
            "sent_ms": SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64),
        });
        self.io.send(v).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_declaration_lists_are_not_sent() {
        let few: Vec<String> = vec!["a1a2".into(); 3];
        assert_eq!(listed(&few), json!(["a1a2", "a1a2", "a1a2"]));
        let many: Vec<String> = vec!["R@a1".into(); LISTED_DECLARATIONS + 1];
        assert_eq!(listed(&many), Value::Null);
    }
}
