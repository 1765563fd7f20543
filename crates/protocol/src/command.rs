//! The commands of the protocol as typed values. Position and move payloads stay opaque
//! text until the selected game's notation reads them; move lists stay in the line they
//! came in (`'a`), so a 16 MiB one is not copied. protocol.md specifies each one.

use super::line::Words;

/// One input line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `uci`: identify, list options, `uciok`.
    Uci,
    /// `ugi`: as `uci`, ending with `ugiok`.
    Ugi,
    /// `isready`: answer `readyok` at once.
    IsReady,
    /// `ucinewgame` / `uginewgame`: forget what earlier games taught the search.
    NewGame,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `position startpos|fen <position> [moves <token>...]`.
    Position {
        /// The position string, `None` for `startpos`.
        fen: Option<String>,
        /// The move tokens, in order.
        moves: Tokens<'a>,
    },
    /// `go [...]`.
    Go(GoParams<'a>),
    /// `stop`: end the search now.
    Stop,
    /// `ponderhit`: the move pondered on was played; the search goes on under its limits.
    PonderHit,
    /// `debug on|off`: accepted (Quartet has no debug output on stdout).
    Debug(bool),
    /// `register ...`: accepted and ignored (Quartet needs no registration).
    Register,
    /// `quit`: end the search and the program.
    Quit,
    /// `d`: show the board, the position string and the hash.
    Display,
    /// `query ...` (UGI).
    Query(Query),
    /// `help`: list the commands.
    Help,
}

/// The arguments of `go`. Absent fields were not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams<'a> {
    /// First player's clock in ms (`wtime` or `p1time`).
    pub p1time: Option<i64>,
    /// Second player's clock in ms (`btime` or `p2time`).
    pub p2time: Option<i64>,
    /// First player's increment in ms (`winc` or `p1inc`).
    pub p1inc: Option<i64>,
    /// Second player's increment in ms (`binc` or `p2inc`).
    pub p2inc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u64>,
    /// Depth limit in plies.
    pub depth: Option<u64>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Exact time for this move in ms.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search until a forced win in at most this many own moves is found.
    pub mate: Option<u64>,
    /// Search only these root moves (tokens, resolved against the position later); none:
    /// every move.
    pub searchmoves: Tokens<'a>,
    /// Ponder: search the position (the predicted move already played) until `ponderhit`
    /// or `stop`.
    pub ponder: bool,
    /// Run perft to this depth instead of a search.
    pub perft: Option<u64>,
    /// In simultaneous games, the side asked to declare (`side w|b`).
    pub side: Option<Side>,
}

/// A side named in a command: `w` (first player) or `b` (second player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `w`: the first player.
    White,
    /// `b`: the second player.
    Black,
}

/// The UGI `query` questions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is the game over?
    GameOver,
    /// Is it the first player's turn?
    P1Turn,
    /// `p1win`, `p2win`, `draw` or `none`.
    Result,
    /// The current position string.
    Fen,
    /// The kind of node now: `turn p1|p2`, `chance p1|p2`, `simultaneous` or `over`.
    Node,
    /// Why the game ended (`none` while it goes on).
    Reason,
    /// The position for drawing it, as one line of JSON.
    Position,
    /// Is this token legal now? With a side: is it one of that side's declarations?
    IsLegal(String, Option<Side>),
    /// Every legal token (one side's declarations when a side is named).
    LegalMoves(Option<Side>),
    /// The outcomes of a chance node with their weights (none at any other node).
    Chance,
    /// How the game's `score cp` reads as an expected score (its declared curve).
    WinChance,
}

/// Tokens separated by white space, left in the line they came in (as the spans of it that
/// hold them) and read one at a time: a 16 MiB move list is neither copied nor split up
/// front, and its reader can stop at the first bad token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tokens<'a> {
    /// Non-blank spans of the line, in order.
    spans: Vec<&'a str>,
}

impl<'a> Tokens<'a> {
    /// The tokens of `text` (any white space separates them).
    pub fn new(text: &'a str) -> Self {
        let mut tokens = Tokens::default();
        tokens.push(text);
        tokens
    }

    /// Each token, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.spans.iter().flat_map(|span| Words(span))
    }

    /// Whether there is no token.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Adds the tokens of `text` after these.
    pub fn push(&mut self, text: &'a str) {
        let text = text.trim();
        if !text.is_empty() {
            self.spans.push(text);
        }
    }
}
