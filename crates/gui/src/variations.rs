//! Variations (issue 22 §3): lines that leave the game's main line at an earlier position.
//! A move a person plays at a position looked back at starts a variation there (or goes on
//! along the one it is in) instead of cutting the game: the main line is kept and goes on
//! from its own end, and a record holds the main line only. In a variation the person plays
//! every side's moves (the engine is not asked to answer); its positions come from the
//! engine as the main line's do. A variation can be promoted (it becomes the main line, the
//! old main line a variation) or deleted.
//!
//! This is the pure part (where a new line goes, what promotion and a changed main line
//! do); `viewing` is the session's part.

use serde_json::{Value, json};

/// Most tokens of one side's legal declarations sent to the page in the state; a longer
/// list (R&B's setup under `Placement together`: 11,550 arrangements a side) is sent as
/// `null`, and the page builds the declaration itself (the server still checks it against
/// the whole list).
const LISTED_DECLARATIONS: usize = 2000;

/// One side's legal declarations as the state carries them: the list, or `null` when it
/// has more than `LISTED_DECLARATIONS` tokens.
pub fn listed(tokens: &[String]) -> Value {
    if tokens.len() > LISTED_DECLARATIONS {
        Value::Null
    } else {
        json!(tokens)
    }
}

/// Most variations kept at once: a new one past it is refused (delete one first), so that
/// no message sequence grows the session without bound.
pub const MAX_VARIATIONS: usize = 64;

/// One variation: a line of tokens from the start position that leaves the main line.
#[derive(Debug, Clone, PartialEq)]
pub struct Variation {
    /// Every token of the line from the start position.
    pub moves: Vec<String>,
    /// How many tokens it shares with the main line: it leaves it there, in place of the
    /// main line's token number `fork` (0-based). Always less than `moves.len()`.
    pub fork: usize,
    /// `query position` after each ply of the line (`Null`: not asked yet).
    pub positions: Vec<Value>,
}

impl Variation {
    /// A variation of `moves` leaving `main`.
    pub fn new(main: &[String], moves: Vec<String>) -> Variation {
        Variation {
            fork: common_prefix(main, &moves),
            moves,
            positions: Vec::new(),
        }
    }

    /// The position after `ply` tokens, when asked already.
    pub fn position(&self, ply: usize) -> Option<&Value> {
        self.positions.get(ply).filter(|p| !p.is_null())
    }

    /// Keeps `position` as the one after `ply` tokens.
    pub fn keep(&mut self, ply: usize, position: Value) {
        if self.positions.len() <= ply {
            self.positions.resize(ply + 1, Value::Null);
        }
        self.positions[ply] = position;
    }
}

/// What a person may play at a position looked at: a side's moves (or a chance node's
/// outcomes), or at a simultaneous turn each side's declarations, played together as one
/// joint token `<p1>/<p2>` (the person declares both sides of a variation, as it plays
/// every side's moves in one).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ViewMoves {
    /// The tokens of a side's move or of a roll.
    pub legal: Vec<String>,
    /// Each side's declarations at a simultaneous turn (empty elsewhere).
    pub sides: [Vec<String>; 2],
}

impl ViewMoves {
    /// Whether `token` may be played: one of `legal`, or the joint token of a listed
    /// declaration of each side.
    pub fn allows(&self, token: &str) -> bool {
        if self.legal.iter().any(|t| t == token) {
            return true;
        }
        let listed = |i: usize, half: &str| self.sides[i].iter().any(|t| t == half);
        token
            .split_once('/')
            .is_some_and(|(a, b)| listed(0, a) && listed(1, b))
    }

    /// The view message's `legal` and `legal_side` (each side's list, or `null` when too
    /// long to send, as in the state).
    pub fn json(&self) -> (Value, Value) {
        (
            json!(self.legal),
            json!([listed(&self.sides[0]), listed(&self.sides[1])]),
        )
    }
}

/// How many leading tokens `a` and `b` share.
pub fn common_prefix(a: &[String], b: &[String]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Where a line of tokens played by a person goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// It is the main line's own continuation: just step forward along it.
    Main,
    /// A variation already holds it: step forward along that one.
    Existing(usize),
    /// It continues the end of variation `i` (the one looked at): that one grows.
    Extend(usize),
    /// A new variation.
    New,
}

/// Where `line` (the tokens to the position looked at, then one token more) goes, given the
/// main line, the variations and the variation looked at (`from`, `None`: the main line).
pub fn place(
    main: &[String],
    variations: &[Variation],
    from: Option<usize>,
    line: &[String],
) -> Place {
    if main.starts_with(line) {
        return Place::Main;
    }
    if let Some(i) = variations.iter().position(|v| v.moves.starts_with(line)) {
        return Place::Existing(i);
    }
    match from.and_then(|i| variations.get(i).map(|v| (i, v))) {
        Some((i, v)) if v.moves.len() + 1 == line.len() && line.starts_with(&v.moves) => {
            Place::Extend(i)
        }
        _ => Place::New,
    }
}

/// After the main line changed (a move, a take back, a promotion): every variation's fork
/// again, and the variations the main line now holds whole are dropped. Returns, for each
/// old index, its new index (`None`: dropped).
pub fn reconcile(main: &[String], variations: &mut Vec<Variation>) -> Vec<Option<usize>> {
    let mut map = Vec::with_capacity(variations.len());
    let mut kept = 0;
    variations.retain_mut(|v| {
        v.fork = common_prefix(main, &v.moves);
        let keep = v.fork < v.moves.len();
        map.push(keep.then_some(kept));
        kept += usize::from(keep);
        keep
    });
    map
}

/// Makes variation `i` the main line: `main` becomes its tokens and the old main line
/// takes its place among the variations (the others keep theirs, or go when the new main
/// line holds them whole). Returns the fork: the tokens both lines share (the caller
/// swaps the lines' positions). Error: no variation `i`, and nothing changes.
pub fn promote(
    main: &mut Vec<String>,
    variations: &mut Vec<Variation>,
    i: usize,
) -> Result<usize, String> {
    if i >= variations.len() {
        return Err(format!("there is no variation {i}"));
    }
    let moves = std::mem::take(&mut variations[i].moves);
    let old = std::mem::replace(main, moves);
    let fork = common_prefix(main, &old);
    variations[i].moves = old;
    reconcile(main, variations);
    Ok(fork)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn var(main: &str, moves: &str) -> Variation {
        Variation::new(&line(main), line(moves))
    }

    #[test]
    fn a_joint_token_is_allowed_when_each_half_is_its_sides_listed_declaration() {
        let turn = ViewMoves {
            legal: line("d1d7 e1e2"),
            ..ViewMoves::default()
        };
        assert!(turn.allows("d1d7") && !turn.allows("d1d8") && !turn.allows("d1d7/e1e2"));
        let joint = ViewMoves {
            legal: Vec::new(),
            sides: [line("a1b3 c2c3"), line("a5b3 0000")],
        };
        assert!(joint.allows("a1b3/a5b3") && joint.allows("c2c3/0000"));
        // Each half from its own side's list, both halves, nothing more.
        assert!(!joint.allows("a5b3/a1b3") && !joint.allows("a1b3") && !joint.allows("a1b3/"));
        assert!(!joint.allows("a1b3/a5b3/a5b3") && !joint.allows("/a5b3"));
        assert!(!ViewMoves::default().allows(""));
    }

    #[test]
    fn a_move_off_the_main_line_starts_a_variation_once() {
        let main = line("a b c d");
        // The main line's own next move steps along it.
        assert_eq!(place(&main, &[], None, &line("a b c")), Place::Main);
        // Another move there: a new variation, leaving the main line after 2 tokens.
        assert_eq!(place(&main, &[], None, &line("a b x")), Place::New);
        let vars = vec![var("a b c d", "a b x")];
        assert_eq!(vars[0].fork, 2);
        // The same move again goes into it; its end grows it; a move inside it that it
        // does not hold starts another.
        assert_eq!(
            place(&main, &vars, None, &line("a b x")),
            Place::Existing(0)
        );
        assert_eq!(
            place(&main, &vars, Some(0), &line("a b x y")),
            Place::Extend(0)
        );
        let vars = vec![var("a b c d", "a b x y z")];
        assert_eq!(place(&main, &vars, Some(0), &line("a b x q")), Place::New);
        assert_eq!(
            place(&main, &vars, Some(0), &line("a b x y")),
            Place::Existing(0)
        );
    }

    #[test]
    fn promotion_swaps_the_lines_and_keeps_the_others() {
        let mut main = line("a b c d");
        let mut vars = vec![var("a b c d", "a b x y"), var("a b c d", "a q")];
        assert_eq!(promote(&mut main, &mut vars, 0), Ok(2));
        assert_eq!(main, line("a b x y"));
        assert_eq!(vars[0].moves, line("a b c d"));
        assert_eq!(vars[0].fork, 2);
        assert_eq!(vars[1].fork, 1);
        // And back.
        assert_eq!(promote(&mut main, &mut vars, 0), Ok(2));
        assert_eq!(main, line("a b c d"));
        assert_eq!(vars[0].moves, line("a b x y"));
        assert!(promote(&mut main, &mut vars, 5).is_err());
        assert_eq!(main, line("a b c d"), "a refused promotion changes nothing");
    }

    #[test]
    fn a_changed_main_line_moves_the_forks_and_drops_what_it_holds() {
        let mut vars = vec![var("a b c", "a b x"), var("a b c", "a y"), var("a", "a b")];
        // The main line taken back to "a", then played on as "a b": the third is its own.
        let map = reconcile(&line("a b"), &mut vars);
        assert_eq!(map, [Some(0), Some(1), None]);
        assert_eq!(vars.len(), 2);
        assert_eq!((vars[0].fork, vars[1].fork), (2, 1));
        let map = reconcile(&line(""), &mut vars);
        assert_eq!(map, [Some(0), Some(1)]);
        assert_eq!((vars[0].fork, vars[1].fork), (0, 0));
    }

    #[test]
    fn long_declaration_lists_are_not_sent() {
        let few: Vec<String> = vec!["a1a2".into(); 3];
        assert_eq!(listed(&few), json!(["a1a2", "a1a2", "a1a2"]));
        let many: Vec<String> = vec!["R@a1".into(); LISTED_DECLARATIONS + 1];
        assert_eq!(listed(&many), Value::Null);
    }

    #[test]
    fn a_variation_keeps_the_positions_asked() {
        let mut v = var("a b", "a x");
        assert!(v.position(2).is_none());
        v.keep(2, json!({"fen": "f"}));
        assert_eq!(v.position(2), Some(&json!({"fen": "f"})));
        assert!(v.position(1).is_none());
    }
}
