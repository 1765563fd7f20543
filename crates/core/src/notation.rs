//! Reading and writing positions and moves: the text side of a game.
//!
//! Parsing a move is two-stage (shakmaty's `UciMove` then `to_move(&pos)`): first the token's
//! syntax, then its resolution against the position. Each stage has its own error, so a
//! user learns whether a token is malformed or merely illegal here.

use crate::declaration::GameDeclaration;
use crate::exact::{ExactValue, MakeProver, Solver};
use crate::game::{Action, Game, Player, RuleOptions};

/// A JSON object of a position's description (see [`Notation::describe`]).
pub type Description = serde_json::Map<String, serde_json::Value>;

/// The fields of `value` when it is a JSON object (`json!({...})`), else none.
pub fn object(value: serde_json::Value) -> Description {
    match value {
        serde_json::Value::Object(map) => map,
        _ => Description::new(),
    }
}

/// `p1` or `p2`: how descriptions name a player.
pub fn player_token(p: Player) -> &'static str {
    match p {
        Player::First => "p1",
        Player::Second => "p2",
    }
}

/// Why a position string or a move token was refused. The texts are shown to users as
/// `info string error: <text>`, so they say what was wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The position string does not follow the game's format or describes an impossible
    /// position.
    #[error("invalid position '{text}': {why}")]
    Position {
        /// The offending position string.
        text: String,
        /// What is wrong with it, naming the field.
        why: String,
    },
    /// The token is not of the form of any move of the game.
    #[error("malformed move '{token}': {why}")]
    Syntax {
        /// The offending token.
        token: String,
        /// What is wrong with its form.
        why: String,
    },
    /// The token is well formed but does not name a legal action in this position.
    #[error("illegal move '{token}': {why}")]
    Illegal {
        /// The offending token.
        token: String,
        /// Why it cannot be played here.
        why: String,
    },
    /// A token of a move list was refused: which one, counting from 1, and why.
    #[error("move {index}: {error}")]
    AtMove {
        /// The token's place in the list, from 1.
        index: usize,
        /// Why it was refused.
        error: Box<NotationError>,
    },
}

impl NotationError {
    /// A [`NotationError::Position`] for `text`.
    pub fn position(text: &str, why: impl Into<String>) -> Self {
        NotationError::Position {
            text: text.to_string(),
            why: why.into(),
        }
    }

    /// A [`NotationError::Syntax`] for `token`.
    pub fn syntax(token: &str, why: impl Into<String>) -> Self {
        NotationError::Syntax {
            token: token.to_string(),
            why: why.into(),
        }
    }

    /// A [`NotationError::Illegal`] for `token`.
    pub fn illegal(token: &str, why: impl Into<String>) -> Self {
        NotationError::Illegal {
            token: token.to_string(),
            why: why.into(),
        }
    }

    /// This error, said of the `index`-th token of a move list (from 1).
    pub fn at_move(self, index: usize) -> Self {
        NotationError::AtMove {
            index,
            error: Box::new(self),
        }
    }
}

/// The text forms of a game, exactly as its rules file (`docs/rules/<game>.md`) gives them.
pub trait Notation: Game {
    /// The game's declaration: its name (as the `Game` option spells it), node kinds and
    /// rule options.
    const DECLARATION: GameDeclaration;

    /// The game's exact solver of small positions, if it has one (`quartet solve`); `None`
    /// (the default) for a game without one.
    const SOLVER: Option<Solver<Self>> = None;

    /// The game's prover of small positions' results, if it has one (`quartet match
    /// --adjudicate exact`); `None` (the default) for a game without one.
    const PROVER: Option<MakeProver<Self>> = None;
    /// The game's exact values of the positions its solver covers quickly, if it has any
    /// (`quartet review --exact`); `None` (the default) for a game without them.
    const EXACT: Option<ExactValue<Self>> = None;

    /// The start position under `rules`.
    fn start(rules: &RuleOptions) -> Self;

    /// Parses a position string strictly (only the exact form the formatter writes),
    /// under `rules`.
    fn parse_position(text: &str, rules: &RuleOptions) -> Result<Self, NotationError>;

    /// The canonical position string; `parse_position` reads it back to an equal position
    /// with the same hash.
    fn format_position(&self) -> String;

    /// Resolves one whitespace-free token of a move list against this position: syntax
    /// first ([`NotationError::Syntax`]), then legality ([`NotationError::Illegal`]). On
    /// success `self.is_legal(action)` holds.
    fn parse_action(&self, token: &str) -> Result<Action<Self::Move>, NotationError>;

    /// Resolves one side's declaration at a simultaneous node (`query islegal <token>
    /// w|b`): the legal declaration of `p` the token names, or why there is none. The
    /// default accepts exactly the canonical tokens of `p`'s legal moves; a game whose
    /// declarations have lenient spellings overrides it.
    fn parse_declaration(&self, p: Player, token: &str) -> Result<Self::Move, NotationError> {
        let mut moves = Vec::new();
        self.legal_moves(p, &mut moves);
        moves
            .into_iter()
            .find(|&m| self.format_move(m) == token)
            .ok_or_else(|| NotationError::illegal(token, "not a legal declaration of this side"))
    }

    /// The canonical token of `m` when played (or, for a joint turn, declared) in this
    /// position.
    fn format_move(&self, m: Self::Move) -> String;

    /// The canonical token of an action in this position: the move's token, or
    /// `<first>/<second>` for a joint turn.
    fn format_action(&self, action: Action<Self::Move>) -> String {
        match action {
            Action::Single(m) => self.format_move(m),
            Action::Joint(a, b) => format!("{}/{}", self.format_move(a), self.format_move(b)),
        }
    }

    /// A human-readable multi-line board diagram for the `d` command (no trailing newline).
    fn diagram(&self) -> String;

    /// The position for drawing it: `width` and `height` in cells, every piece in
    /// `pieces`, and the game's own fields, exactly as protocol.md's `query position`
    /// documents them for this game. Players are named by [`player_token`]; squares as in
    /// move tokens.
    fn describe(&self) -> Description;
}
