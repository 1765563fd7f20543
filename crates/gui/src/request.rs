//! What the page may send, as JSON objects `{"t": "<kind>", ...}`. Everything is checked
//! here or against the engine's own lists before it can reach the engine, and it reaches
//! the engine only inside a command the server writes: a page's text is never passed on as
//! a raw line.

use serde::Deserialize;

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Who {
    /// A person clicking the board.
    Human,
    /// The engine.
    Engine,
}

/// The engine's limit per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Limit {
    /// `go movetime MS`.
    Movetime {
        /// Milliseconds per move.
        ms: u64,
    },
    /// `go depth N`.
    Depth {
        /// Iterations.
        depth: u64,
    },
    /// `go nodes N`.
    Nodes {
        /// Nodes.
        nodes: u64,
    },
    /// A clock for both sides: `go wtime .. btime .. winc .. binc ..`.
    Clock {
        /// Starting time of each side in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
}

impl Limit {
    /// Error when a limit is outside what the page offers (1 ms..1 h, depth 1..100,
    /// nodes 1..10^10).
    pub fn check(&self) -> Result<(), String> {
        const HOUR: u64 = 3_600_000;
        let ok = match *self {
            Limit::Movetime { ms } => (1..=HOUR).contains(&ms),
            Limit::Depth { depth } => (1..=100).contains(&depth),
            Limit::Nodes { nodes } => (1..=10_000_000_000).contains(&nodes),
            Limit::Clock { base_ms, inc_ms } => {
                (1..=10 * HOUR).contains(&base_ms) && inc_ms <= HOUR
            }
        };
        if ok {
            Ok(())
        } else {
            Err(format!("limit out of range: {self:?}"))
        }
    }
}

/// A message from the page.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// A new game of `game` (one of the engine's `Game` values), from its start position
    /// or from `fen`, with these players.
    NewGame {
        /// The game.
        game: String,
        /// Who plays the first side.
        p1: Who,
        /// Who plays the second side.
        p2: Who,
        /// A position string to start from.
        #[serde(default)]
        fen: Option<String>,
        /// The dice seed (Ludo); a new one when absent and the server has none fixed.
        #[serde(default)]
        seed: Option<u64>,
    },
    /// Change who plays each side of the game under way.
    Players {
        /// Who plays the first side.
        p1: Who,
        /// Who plays the second side.
        p2: Who,
    },
    /// A person's move or declaration: one of the engine's legal tokens, or in a
    /// simultaneous turn with `void` any other well-formed declaration (void, a penalty).
    Move {
        /// The token.
        token: String,
        /// Deliberately declare a token that is not legal (Apocalypse).
        #[serde(default)]
        void: bool,
    },
    /// A person rolls the die (Ludo): the server draws the roll.
    Roll,
    /// Take back to before the last decision of a person.
    Takeback,
    /// The person whose turn it is (or the only person playing) gives the game up.
    Resign,
    /// Review the game: every position searched for `ms` milliseconds when given, else at
    /// `nodes` nodes (both `0` cancel a review).
    Review {
        /// Nodes per position.
        #[serde(default)]
        nodes: u64,
        /// Milliseconds per position (`go movetime`), in place of nodes.
        #[serde(default)]
        ms: u64,
    },
    /// Go on with a review cut short: the positions not yet searched, at its own setting.
    ReviewContinue,
    /// gnubg's temperature map of the position shown (a roll due): the value after each
    /// outcome, each searched for `ms` milliseconds when given, else at `nodes` nodes.
    Temperature {
        /// Nodes per outcome.
        #[serde(default)]
        nodes: u64,
        /// Milliseconds per outcome, in place of nodes.
        #[serde(default)]
        ms: u64,
    },
    /// Is the server there? It answers `pong` (the page's check of a quiet connection).
    Ping,
    /// Show the position after the first `ply` tokens (stepping through the game) of the
    /// main line, or of variation `line` (an index of the state's `variations`).
    View {
        /// Tokens played, 0 for the start position.
        ply: usize,
        /// The variation, when not the main line.
        #[serde(default)]
        line: Option<usize>,
    },
    /// Make variation `line` the main line (the old main line becomes a variation).
    Promote {
        /// The variation's index in the state's `variations`.
        line: usize,
    },
    /// Delete variation `line`.
    DeleteLine {
        /// The variation's index in the state's `variations`.
        line: usize,
    },
    /// Load a game record (the text of a file the page read).
    Load {
        /// The record's text.
        text: String,
    },
    /// Set a declared engine option (not `Game`: that is `new_game`).
    SetOption {
        /// The option's name as declared.
        name: String,
        /// Its value; none for a button.
        #[serde(default)]
        value: Option<String>,
    },
    /// The engine's limit per move.
    Limit(Limit),
    /// Pause before each engine move or roll, in milliseconds (watching engine games).
    Speed {
        /// The pause.
        delay_ms: u64,
    },
    /// Analyse the position (`go infinite`) while a person is to act.
    Analyse {
        /// On or off.
        on: bool,
    },
    /// Stop or resume the engines' play (watching engine games).
    Pause {
        /// Paused or not.
        on: bool,
    },
    /// The engine moves now (`stop`).
    MoveNow,
    /// Start the engine process again (after a fault, or at will).
    Restart,
    /// Send the game record as text for the page to download.
    Record,
}

/// Longest message from the page (a loaded record included).
pub const MAX_REQUEST: usize = 1 << 20;

/// Reads a page message. Error: not JSON of a known form, said for people.
pub fn parse_request(text: &str) -> Result<Request, String> {
    if text.len() > MAX_REQUEST {
        return Err(format!(
            "a message of {} bytes: the limit is {} KiB (a record must be smaller)",
            text.len(),
            MAX_REQUEST / 1024
        ));
    }
    serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))
}

/// Whether `token` may stand as one move token in a command: 1 to 96 characters, each an
/// ASCII letter, digit, `@`, `/`, `,` or `-` (every game's tokens, protocol.md §6, the
/// longest R&B's joint setup of two 39-character arrangements, and nothing that could end
/// or extend a command).
pub fn is_token_safe(token: &str) -> bool {
    (1..=96).contains(&token.len())
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '@' | '/' | ',' | '-'))
}

/// Whether `fen` may stand as a position string after `position fen`: at most 256
/// characters of ASCII letters, digits, `/ , -` and single spaces, not empty, and not
/// containing the word `moves` (which would change the command).
pub fn is_fen_safe(fen: &str) -> bool {
    !fen.trim().is_empty()
        && fen.len() <= 256
        && fen
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | ',' | '-' | ' '))
        && !fen.split_whitespace().any(|w| w == "moves")
}

/// Most characters of a page's text said back in a message.
pub const ECHO: usize = 100;

/// `text` as a message says it back: at most `ECHO` characters, then "…".
pub fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_of_every_kind() {
        assert_eq!(
            parse_request(r#"{"t":"new_game","game":"duell","p1":"human","p2":"engine"}"#),
            Ok(Request::NewGame {
                game: "duell".into(),
                p1: Who::Human,
                p2: Who::Engine,
                fen: None,
                seed: None
            })
        );
        assert_eq!(
            parse_request(r#"{"t":"move","token":"d1d7"}"#),
            Ok(Request::Move {
                token: "d1d7".into(),
                void: false
            })
        );
        assert_eq!(
            parse_request(r#"{"t":"limit","kind":"clock","base_ms":60000,"inc_ms":500}"#),
            Ok(Request::Limit(Limit::Clock {
                base_ms: 60000,
                inc_ms: 500
            }))
        );
        assert_eq!(parse_request(r#"{"t":"roll"}"#), Ok(Request::Roll));
        assert_eq!(parse_request(r#"{"t":"ping"}"#), Ok(Request::Ping));
        assert_eq!(
            parse_request(r#"{"t":"review_continue"}"#),
            Ok(Request::ReviewContinue)
        );
        assert_eq!(
            parse_request(r#"{"t":"temperature","nodes":500}"#),
            Ok(Request::Temperature { nodes: 500, ms: 0 })
        );
        assert_eq!(
            parse_request(r#"{"t":"set_option","name":"Clear Hash"}"#),
            Ok(Request::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
    }

    #[test]
    fn unknown_or_malformed_messages_are_refused() {
        for bad in [
            "quit",
            "{}",
            r#"{"t":"raw","line":"quit"}"#,
            r#"{"t":"move"}"#,
            r#"{"t":"move","token":"d1d7","extra":1}"#,
            r#"{"t":"new_game","game":"duell","p1":"robot","p2":"engine"}"#,
            r#"{"t":"limit","kind":"movetime","ms":-5}"#,
        ] {
            assert!(parse_request(bad).is_err(), "{bad}");
        }
        assert!(parse_request(&" ".repeat(MAX_REQUEST + 1)).is_err());
    }

    #[test]
    fn tokens_and_fens_that_cannot_change_a_command() {
        for ok in [
            "d1d7",
            "a1e2n",
            "R@a2",
            "d4d5@b2",
            "c1c2/0000",
            "b-0",
            "27-30",
            "pass",
            "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1",
            "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1/R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6",
        ] {
            assert!(is_token_safe(ok), "{ok}");
        }
        for bad in ["", "d1d7 quit", "d1\nquit", "a;b", "x".repeat(97).as_str()] {
            assert!(!is_token_safe(bad), "{bad:?}");
        }
        assert!(is_fen_safe("b,b,b,b/b,b,b,b r - 0"));
        assert!(is_fen_safe("2k3/6/6/6/6/3K2 s 4444 0"));
        for bad in ["", "  ", "2k3/6 s\nquit", "x moves d1d7", "a;b", "é"] {
            assert!(!is_fen_safe(bad), "{bad:?}");
        }
    }

    #[test]
    fn echoes_are_cut_to_a_hundred_characters() {
        assert_eq!(echo("duell"), "duell");
        let long = "x".repeat(10_000);
        assert_eq!(echo(&long).chars().count(), ECHO + 1);
        assert!(
            echo(&"é".repeat(200)).ends_with("é…"),
            "not cut inside a character"
        );
    }

    #[test]
    fn limits_in_range() {
        assert!(Limit::Movetime { ms: 100 }.check().is_ok());
        assert!(Limit::Movetime { ms: 0 }.check().is_err());
        assert!(Limit::Depth { depth: 101 }.check().is_err());
        assert!(
            Limit::Clock {
                base_ms: 0,
                inc_ms: 0
            }
            .check()
            .is_err()
        );
        assert!(Limit::Nodes { nodes: 5000 }.check().is_ok());
    }
}
