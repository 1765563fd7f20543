//! The game's lines, apart from any I/O: the start position, the main line's tokens and who
//! acted for each, the positions seen after each ply, the variations and the position the
//! page looks at. The session's I/O (the socket, the engine) asks the engine and hands its
//! answers in; what is shown and which `position` command a line needs is decided here, by
//! plain functions that the tests reach without a socket or an engine.

use serde_json::{Value, json};

use super::flow::Actor;
use super::variations::{MAX_VARIATIONS, Place, Variation, ViewMoves, place, promote, reconcile};

/// Why a position cannot be shown while the engine searches a move.
const BUSY: &str = "this position can be shown once the engine has moved";

/// Where the position a page asks to look at comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewPlan {
    /// The game's own end: no position looked back at.
    Head,
    /// A position seen before, shown without legal moves (the engine is busy searching, so
    /// no variation can start there yet).
    Seen(Value),
    /// Asked of the engine, after this `position` command.
    Ask(String),
}

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

    /// Where the position after `ply` tokens of variation `line` (`None`: the main line)
    /// comes from, and the line it is shown on: a variation's plies it shares with the
    /// main line are shown on the main line. `busy`: the engine searches a move, and
    /// cannot be asked. Error (for the page): no such line or ply, or a
    /// position not seen yet while the engine is busy.
    pub fn plan_view(
        &self,
        line: Option<usize>,
        ply: usize,
        busy: bool,
    ) -> Result<(Option<usize>, ViewPlan), String> {
        let line = match line {
            Some(i) => match self.variations.get(i) {
                Some(v) if ply > v.fork => Some(i),
                Some(_) => None,
                None => return Err(format!("there is no variation {i}")),
            },
            None => None,
        };
        let (tokens, seen) = match line.and_then(|i| self.variations.get(i)) {
            Some(v) if ply > v.moves.len() => {
                return Err(format!(
                    "the variation has {} tokens, not {ply}",
                    v.moves.len()
                ));
            }
            Some(v) => (&v.moves[..], v.position(ply)),
            None if ply > self.moves.len() => {
                return Err(format!(
                    "the game has {} tokens, not {ply}",
                    self.moves.len()
                ));
            }
            None if ply == self.moves.len() => return Ok((None, ViewPlan::Head)),
            None => (
                &self.moves[..],
                self.positions.get(ply).filter(|p| !p.is_null()),
            ),
        };
        let plan = match seen {
            Some(p) if busy => ViewPlan::Seen(p.clone()),
            None if busy => return Err(BUSY.to_string()),
            _ => ViewPlan::Ask(self.tokens_command(&tokens[..ply])),
        };
        Ok((line, plan))
    }

    /// The page looks at the game's end again.
    pub fn look_at_head(&mut self) {
        self.line = None;
        self.viewing = None;
        self.view_legal = ViewMoves::default();
    }

    /// The page looks at `position`, after `ply` tokens of `line` (`None`: the main line),
    /// where a person may play `moves`; the position is kept for later views.
    pub fn look_at(&mut self, line: Option<usize>, ply: usize, position: Value, moves: ViewMoves) {
        self.keep(line, ply, position);
        self.line = line;
        self.viewing = Some(ply);
        self.view_legal = moves;
    }

    /// The position after `ply` tokens of `line` (`None`: the main line), when seen
    /// already (a variation's plies up to its fork are the main line's).
    pub fn seen(&self, line: Option<usize>, ply: usize) -> Option<&Value> {
        let main = || self.positions.get(ply).filter(|p| !p.is_null());
        match line.and_then(|i| self.variations.get(i)) {
            Some(v) => v
                .position(ply)
                .or_else(|| (ply <= v.fork).then(main).flatten()),
            None => main(),
        }
    }

    /// Keeps `position` as the one after `ply` tokens of `line` (`None`: the main line).
    pub fn keep(&mut self, line: Option<usize>, ply: usize, position: Value) {
        match line.and_then(|i| self.variations.get_mut(i)) {
            Some(v) => v.keep(ply, position),
            None => {
                if self.positions.len() <= ply {
                    self.positions.resize(ply + 1, Value::Null);
                }
                self.positions[ply] = position;
            }
        }
    }

    /// `position ...` for the first `ply` tokens of `line` (`None`: the main line; at most
    /// all of its tokens).
    pub fn line_command(&self, line: Option<usize>, ply: usize) -> String {
        let tokens = match line.and_then(|i| self.variations.get(i)) {
            Some(v) => &v.moves[..],
            None => &self.moves[..],
        };
        self.tokens_command(&tokens[..ply.min(tokens.len())])
    }

    /// Plays `token` (a person's move at the position after `ply` tokens of the line looked
    /// at) into the lines: a step along the main line (`None`) or along a variation that
    /// holds it, a variation grown at its end, or a new one. Returns the line it is on.
    /// Error (for the page, nothing changes): the position is not in the line any more, or
    /// a new variation past `MAX_VARIATIONS`.
    pub fn play_at(&mut self, ply: usize, token: String) -> Result<Option<usize>, String> {
        let Some(base) = self.line_tokens().get(..ply) else {
            return Err("the position shown is not in the game any more".to_string());
        };
        let mut line = base.to_vec();
        line.push(token.clone());
        match place(&self.moves, &self.variations, self.line, &line) {
            Place::Main => Ok(None),
            Place::Existing(i) => Ok(Some(i)),
            Place::Extend(i) => {
                self.variations[i].moves.push(token);
                Ok(Some(i))
            }
            Place::New if self.variations.len() >= MAX_VARIATIONS => Err(format!(
                "at most {MAX_VARIATIONS} variations: delete one to start another"
            )),
            Place::New => {
                self.variations.push(Variation::new(&self.moves, line));
                Ok(Some(self.variations.len() - 1))
            }
        }
    }

    /// Makes variation `i` the main line (`variations::promote`): the lines swap their
    /// positions (the new main line keeps those both share), the actors past the fork are
    /// dropped (the caller asks them again), and the page looks at the game's end. Returns
    /// the fork. Error: no variation `i`, and nothing changes.
    pub fn promote(&mut self, i: usize) -> Result<usize, String> {
        let old_main = self.moves.clone();
        let positions = self
            .variations
            .get_mut(i)
            .map(|v| std::mem::take(&mut v.positions))
            .ok_or_else(|| format!("there is no variation {i}"))?;
        let fork = promote(&mut self.moves, &mut self.variations, i)?;
        let old = std::mem::replace(&mut self.positions, positions);
        if self.positions.len() <= fork {
            self.positions.resize(fork + 1, Value::Null);
        }
        for (p, v) in old.iter().enumerate().take(fork + 1) {
            if self.positions[p].is_null() {
                self.positions[p] = v.clone();
            }
        }
        if let Some(v) = self.variations.iter_mut().find(|v| v.moves == old_main) {
            v.positions = old;
        }
        self.positions.truncate(self.moves.len());
        self.actors.truncate(fork);
        self.look_at_head();
        Ok(fork)
    }

    /// The `position` commands of the main line's positions from ply `from` to its last
    /// token's (the positions its tokens were played at).
    pub fn commands_from(&self, from: usize) -> Vec<String> {
        (from..self.moves.len())
            .map(|i| self.position_command(i))
            .collect()
    }

    /// Keeps `position` as the one at the main line's end, the positions after it dropped.
    pub fn keep_head(&mut self, position: Value) {
        let n = self.moves.len();
        self.positions.truncate(n);
        self.positions.resize(n, Value::Null);
        self.positions.push(position);
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

    #[test]
    fn a_view_is_planned_from_what_was_seen_or_asked_of_the_engine() {
        let mut l = with_variation();
        l.positions = vec![Value::Null, json!({"fen": "m1"})];
        // Plies a variation shares with the main line are shown on the main line.
        let main1 = Ok((None, ViewPlan::Ask("position startpos moves a".into())));
        assert_eq!(l.plan_view(Some(0), 1, false), main1);
        assert_eq!(
            l.plan_view(Some(0), 2, false),
            Ok((Some(0), ViewPlan::Ask("position startpos moves a x".into())))
        );
        assert_eq!(l.plan_view(None, 3, true), Ok((None, ViewPlan::Head)));
        // While the engine searches its move: what was seen, without legal moves.
        assert_eq!(
            l.plan_view(None, 1, true),
            Ok((None, ViewPlan::Seen(json!({"fen": "m1"}))))
        );
        assert_eq!(l.plan_view(None, 0, true), Err(BUSY.to_string()));
        assert_eq!(l.plan_view(Some(0), 2, true), Err(BUSY.to_string()));
        assert!(l.plan_view(None, 4, false).is_err() && l.plan_view(Some(0), 4, false).is_err());
        assert!(l.plan_view(Some(1), 2, false).is_err(), "no variation 1");
        l.look_at(Some(0), 2, json!({"fen": "v2"}), ViewMoves::default());
        assert_eq!(l.viewed(), Some((2, &json!({"fen": "v2"}))));
        l.look_at_head();
        assert_eq!((l.line, l.viewing), (None, None));
    }

    #[test]
    fn a_move_at_a_position_looked_at_goes_along_a_line_or_starts_one() {
        let mut l = with_variation();
        l.line = None;
        assert_eq!(
            l.play_at(1, "b".into()),
            Ok(None),
            "the main line's own move"
        );
        assert_eq!(l.play_at(1, "x".into()), Ok(Some(0)), "the variation's");
        assert_eq!(l.play_at(1, "z".into()), Ok(Some(1)), "a new one");
        l.line = Some(0);
        assert_eq!(l.play_at(3, "w".into()), Ok(Some(0)));
        assert_eq!(l.variations[0].moves, tokens("a x y w"), "grown at its end");
        assert!(l.play_at(9, "w".into()).is_err(), "not in the line");
        while l.variations.len() < MAX_VARIATIONS {
            l.variations.push(Variation::new(&l.moves, tokens("q")));
        }
        assert!(l.play_at(0, "new".into()).is_err(), "past the cap");
    }

    #[test]
    fn a_promotion_swaps_the_positions_and_looks_at_the_end() {
        let mut l = with_variation();
        l.actors = vec![Actor::Unknown; 3];
        l.positions = vec![json!(0), json!(1), json!(2)];
        l.variations[0].positions = vec![Value::Null, Value::Null, json!("x")];
        l.viewing = Some(2);
        assert_eq!(l.promote(0), Ok(1));
        assert_eq!(l.moves, tokens("a x y"));
        assert_eq!(l.positions, vec![json!(0), json!(1), json!("x")]);
        assert_eq!(
            l.variations[0].positions,
            vec![json!(0), json!(1), json!(2)]
        );
        assert_eq!((l.actors.len(), l.line, l.viewing), (1, None, None));
        assert_eq!(
            l.commands_from(1),
            ["position startpos moves a", "position startpos moves a x"]
        );
        assert!(l.promote(5).is_err());
    }

    #[test]
    fn positions_seen_are_kept_per_line_and_a_variation_shares_the_main_lines() {
        let mut l = with_variation();
        l.keep(None, 1, json!("m1"));
        l.keep(Some(0), 2, json!("v2"));
        assert_eq!(l.seen(None, 1), Some(&json!("m1")));
        assert_eq!(l.seen(Some(0), 1), Some(&json!("m1")), "before the fork");
        assert_eq!(l.seen(Some(0), 2), Some(&json!("v2")));
        assert_eq!(l.seen(None, 2), None);
        assert_eq!(l.line_command(Some(0), 2), "position startpos moves a x");
        assert_eq!(l.line_command(None, 9), "position startpos moves a b c");
    }
}
