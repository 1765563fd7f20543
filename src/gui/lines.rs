//! The game's lines, apart from any I/O: the start position, the main line's tokens and who
//! acted for each, the positions seen after each ply, the variations and the position the
//! page looks at. The session's I/O (the socket, the engine) asks the engine and hands its
//! answers in; what is shown and which `position` command a line needs is decided here, by
//! plain functions that the tests reach without a socket or an engine.

use serde_json::{Value, json};

use super::flow::Actor;
use super::variations::{Variation, ViewMoves, reconcile};

/// The lines of one session's game; see the module doc.
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// The position string the game started from (`None`: `startpos`).
    pub start_fen: Option<String>,
    /// The main line's tokens.
    pub moves: Vec<String>,
    /// Who acted for each token of the main line.
    pub actors: Vec<Actor>,
    /// `query position` after each ply of `moves` so far seen (`Null`: not asked yet).
    pub positions: Vec<Value>,
    /// Lines that leave the main line at an earlier position.
    pub variations: Vec<Variation>,
    /// The variation the page looks at (`None`: the main line).
    pub line: Option<usize>,
    /// The ply the page looks at while stepping back (analysis runs there), of the main
    /// line or of the variation `line`.
    pub viewing: Option<usize>,
    /// What a person may play at the position looked at (it plays a variation there).
    pub view_legal: ViewMoves,
}

impl Lines {
    /// The tokens of the line looked at: a variation's, else the main line's.
    pub fn line_tokens(&self) -> &[String] {
        match self.line.and_then(|i| self.variations.get(i)) {
            Some(v) => &v.moves,
            None => &self.moves,
        }
    }

    /// The earlier position the page looks at, with its `query position`, if any.
    pub fn viewed(&self) -> Option<(usize, &Value)> {
        if let Some(v) = self.line.and_then(|i| self.variations.get(i)) {
            let ply = self.viewing.filter(|&p| p <= v.moves.len())?;
            return v.position(ply).map(|p| (ply, p));
        }
        let ply = self.viewing.filter(|&p| p < self.moves.len())?;
        self.positions
            .get(ply)
            .filter(|p| !p.is_null())
            .map(|p| (ply, p))
    }

    /// `position ...` for the first `n` tokens of the main line (at most all of them).
    pub fn position_command(&self, n: usize) -> String {
        self.tokens_command(&self.moves[..n.min(self.moves.len())])
    }

    /// `position ...` for `tokens` from the game's start position (a variation's too).
    pub fn tokens_command(&self, tokens: &[String]) -> String {
        let mut cmd = match &self.start_fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !tokens.is_empty() {
            cmd.push_str(" moves ");
            cmd.push_str(&tokens.join(" "));
        }
        cmd
    }

    /// The variations as the state sends them: each one's fork and its tokens from there.
    pub fn variations_json(&self) -> Value {
        let lines: Vec<Value> = self
            .variations
            .iter()
            .map(|v| json!({"fork": v.fork, "moves": v.moves[v.fork..]}))
            .collect();
        json!(lines)
    }

    /// After the main line changed: the variations' forks again (those it now holds whole
    /// go), and the variation looked at followed to its new index or to the main line.
    pub fn reconcile(&mut self) {
        let map = reconcile(&self.moves, &mut self.variations);
        if let Some(i) = self.line {
            self.line = map.get(i).copied().flatten();
            if self.line.is_none() && self.viewing.is_some_and(|p| p >= self.moves.len()) {
                self.viewing = None;
            }
        }
    }

    /// Forgets every variation and the view (a new game, a loaded record, new rules).
    pub fn clear_variations(&mut self) {
        self.variations.clear();
        self.line = None;
        self.viewing = None;
        self.view_legal = ViewMoves::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// A main line `a b c` with one variation `a x y` looked at.
    fn with_variation() -> Lines {
        let mut l = Lines {
            moves: tokens("a b c"),
            ..Lines::default()
        };
        l.variations.push(Variation::new(&l.moves, tokens("a x y")));
        l.line = Some(0);
        l
    }

    #[test]
    fn commands_name_the_start_and_the_tokens() {
        let mut l = with_variation();
        assert_eq!(l.position_command(0), "position startpos");
        assert_eq!(l.position_command(2), "position startpos moves a b");
        assert_eq!(l.position_command(99), "position startpos moves a b c");
        l.start_fen = Some("10 f".into());
        assert_eq!(l.tokens_command(&tokens("x")), "position fen 10 f moves x");
    }

    #[test]
    fn the_line_looked_at_and_its_viewed_position() {
        let mut l = with_variation();
        assert_eq!(l.line_tokens(), tokens("a x y"));
        assert_eq!(
            l.variations_json(),
            json!([{"fork": 1, "moves": ["x", "y"]}])
        );
        // A ply not asked yet is no viewed position; one kept is.
        l.viewing = Some(2);
        assert_eq!(l.viewed(), None);
        l.variations[0].keep(2, json!({"fen": "v2"}));
        assert_eq!(l.viewed(), Some((2, &json!({"fen": "v2"}))));
        l.line = None;
        l.positions = vec![Value::Null, json!({"fen": "m1"}), Value::Null];
        assert_eq!(l.viewed(), None, "ply 2 of the main line not seen");
        l.viewing = Some(1);
        assert_eq!(l.viewed(), Some((1, &json!({"fen": "m1"}))));
        // The game's own end is not a position looked back at.
        l.viewing = Some(3);
        assert_eq!(l.viewed(), None);
    }

    #[test]
    fn a_main_line_that_grew_into_the_variation_takes_the_view_with_it() {
        let mut l = with_variation();
        l.viewing = Some(3);
        l.moves = tokens("a x y");
        l.reconcile();
        assert!(l.variations.is_empty(), "the main line holds it whole");
        assert_eq!(
            (l.line, l.viewing),
            (None, None),
            "the page looks at the game's end"
        );
        let mut l = with_variation();
        l.viewing = Some(2);
        l.clear_variations();
        assert!(l.variations.is_empty() && l.line.is_none() && l.viewing.is_none());
    }
}
