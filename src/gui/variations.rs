//! Variations (issue 22 §3): lines that leave the game's main line at an earlier position.
//! A move a person plays at a position looked back at starts a variation there (or goes on
//! along the one it is in) instead of cutting the game: the main line is kept and goes on
//! from its own end, and a record holds the main line only. In a variation the person plays
//! every side's moves (the engine is not asked to answer); its positions come from the
//! engine as the main line's do. A variation can be promoted (it becomes the main line, the
//! old main line a variation) or deleted.
//!
//! The pure part (where a new line goes, what promotion and a changed main line do) is
//! first, with its tests; the session's part after it.

use serde_json::{Value, json};

use super::flow::{Actor, Node};
use super::page::listed;
use super::session::{Purpose, Session};
use super::talk::{Failure, FaultKind, answer, legal_queries, parse_chance};

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

impl Session {
    /// Whether the engine runs a search that is not analysis (a move, a declaration, a
    /// review): it cannot be asked about another position meanwhile, and no analysis stops
    /// for a view.
    pub(super) fn engine_busy(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !matches!(s.purpose, Purpose::Analysis(_)))
    }

    /// Sends the page the position after `ply` tokens of the main line (`line` `None`) or
    /// of a variation, with its legal moves at a side's move (a person may play one there,
    /// which starts or extends a variation). Plies a variation shares with the main line
    /// are shown on the main line. Error to the page: no such line or ply; a position not
    /// yet seen while the engine searches its move.
    pub(super) async fn view_line(
        &mut self,
        line: Option<usize>,
        ply: usize,
    ) -> Result<(), Failure> {
        let line = match line {
            Some(i) => match self.lines.variations.get(i) {
                Some(v) if ply > v.fork => Some(i),
                Some(_) => None,
                None => {
                    self.error(format!("there is no variation {i}")).await;
                    return Ok(());
                }
            },
            None => None,
        };
        let Some(i) = line else {
            self.lines.line = None;
            return self.view(ply).await;
        };
        let len = self.lines.variations[i].moves.len();
        if ply > len {
            self.error(format!("the variation has {len} tokens, not {ply}"))
                .await;
            return Ok(());
        }
        self.stop_analysis().await?;
        let searching = self.engine_busy();
        let cached = self.lines.variations[i].position(ply).cloned();
        if searching && cached.is_none() {
            self.error(
                "this position can be shown once the engine has moved or the review is done",
            )
            .await;
            return Ok(());
        }
        let command = self
            .lines
            .tokens_command(&self.lines.variations[i].moves[..ply]);
        let (position, moves) = if searching {
            (cached.unwrap_or_default(), ViewMoves::default())
        } else {
            self.ask_position(command).await?
        };
        self.lines.variations[i].keep(ply, position.clone());
        self.lines.line = Some(i);
        self.lines.viewing = Some(ply);
        let (legal, legal_side) = moves.json();
        self.lines.view_legal = moves;
        self.state_changed();
        self.send(
            json!({"t": "view", "ply": ply, "line": i, "position": position,
            "legal": legal, "legal_side": legal_side}),
        )
        .await;
        Ok(())
    }

    /// The engine's `query position` and what a person may play there: at a side's move or
    /// roll `query legalmoves`, at a simultaneous turn `query legalmoves w` and `... b`,
    /// after the `position` command `command` (the engine is left there).
    pub(super) async fn ask_position(
        &mut self,
        command: String,
    ) -> Result<(Value, ViewMoves), Failure> {
        let groups = self
            .exchange(&[command, "query position".to_string()])
            .await?;
        let position = answer(&groups[1])
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .ok_or_else(|| {
                Failure::new(
                    FaultKind::Protocol,
                    format!("no position for a view: {:?}", groups[1]),
                )
            })?;
        let node = Node::from_fields(
            position["node"].as_str().unwrap_or(""),
            position["to_act"].as_str(),
        );
        let queries = match node {
            Some(Node::Turn(_) | Node::Chance(_)) => vec!["query legalmoves".to_string()],
            Some(Node::Simultaneous) => legal_queries(Node::Simultaneous),
            _ => Vec::new(),
        };
        let groups = if queries.is_empty() {
            Vec::new()
        } else {
            self.exchange(&queries).await?
        };
        let mut lists = groups.iter().map(|g| {
            answer(g)
                .unwrap_or_default()
                .split_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        });
        let moves = match node {
            Some(Node::Simultaneous) => ViewMoves {
                legal: Vec::new(),
                sides: [
                    lists.next().unwrap_or_default(),
                    lists.next().unwrap_or_default(),
                ],
            },
            _ => ViewMoves {
                legal: lists.next().unwrap_or_default(),
                ..ViewMoves::default()
            },
        };
        Ok((position, moves))
    }

    /// A person's move at the position looked at (`viewing`): one of that position's legal
    /// moves, played into a variation (or along the main line, when it is the main line's
    /// own next move), which the page is then shown. Nothing changes on a refusal.
    pub(super) async fn variation_move(
        &mut self,
        ply: usize,
        token: String,
    ) -> Result<(), Failure> {
        if !self.lines.view_legal.allows(&token) {
            self.error(format!(
                "'{token}' is not a legal move in the position shown (at a simultaneous turn a \
                 variation takes both sides' declarations, <first>/<second>)"
            ))
            .await;
            return Ok(());
        }
        if self.engine_busy() {
            self.error("a variation can be played once the engine has moved (or the review ended)")
                .await;
            return Ok(());
        }
        let Some(base) = self.lines.line_tokens().get(..ply).map(<[String]>::to_vec) else {
            self.error("the position shown is not in the game any more")
                .await;
            return Ok(());
        };
        let mut line = base;
        line.push(token.clone());
        let target = match place(
            &self.lines.moves,
            &self.lines.variations,
            self.lines.line,
            &line,
        ) {
            Place::Main => None,
            Place::Existing(i) => Some(i),
            Place::Extend(i) => {
                self.lines.variations[i].moves.push(token);
                Some(i)
            }
            Place::New if self.lines.variations.len() >= MAX_VARIATIONS => {
                self.error(format!(
                    "at most {MAX_VARIATIONS} variations: delete one to start another"
                ))
                .await;
                return Ok(());
            }
            Place::New => {
                self.lines
                    .variations
                    .push(Variation::new(&self.lines.moves, line));
                Some(self.lines.variations.len() - 1)
            }
        };
        self.view_line(target, ply + 1).await
    }

    /// A person's roll at the position looked at, a chance node: the server's die for that
    /// ply (as the main line's would be, from the outcomes `query chance` lists there),
    /// played into a variation as a move is. Error to the page: the position shown is not a
    /// chance node, or the engine is busy with its own search.
    pub(super) async fn variation_roll(
        &mut self,
        ply: usize,
        position: &Value,
    ) -> Result<(), Failure> {
        if position["node"] != "chance" {
            self.error("no roll is awaited at the position shown").await;
            return Ok(());
        }
        if self.engine_busy() {
            self.error("a variation can be played once the engine has moved (or the review ended)")
                .await;
            return Ok(());
        }
        // The outcomes and weights of the chance node shown, as the engine lists them.
        let Some(tokens) = self.lines.line_tokens().get(..ply).map(<[String]>::to_vec) else {
            self.error("the position shown is not in the game any more")
                .await;
            return Ok(());
        };
        let command = self.lines.tokens_command(&tokens);
        let groups = self
            .exchange(&[command, "query chance".to_string()])
            .await?;
        let outcomes = answer(&groups[1])
            .and_then(|text| parse_chance(&text))
            .map_err(|e| Failure::new(FaultKind::Protocol, format!("query chance: {e}")))?;
        let Some(token) = super::turns::roll_at(self.seed, ply, &outcomes) else {
            return Err(Failure::new(
                FaultKind::Protocol,
                "the engine lists no outcome with a weight at this chance node (query chance)",
            ));
        };
        self.variation_move(ply, token.to_string()).await
    }

    /// Makes variation `i` the main line: the game goes on from its end (an engine to move
    /// there moves), the old main line is kept as a variation, and the page looks at the
    /// game's end. Error to the page: no variation `i`.
    pub(super) async fn promote_line(&mut self, i: usize) -> Result<(), Failure> {
        if i >= self.lines.variations.len() {
            self.error(format!("there is no variation {i}")).await;
            return Ok(());
        }
        self.stop_search().await?;
        let old_main = self.lines.moves.clone();
        let positions = std::mem::take(&mut self.lines.variations[i].positions);
        let fork = match promote(&mut self.lines.moves, &mut self.lines.variations, i) {
            Ok(f) => f,
            Err(e) => {
                self.error(e).await;
                return Ok(());
            }
        };
        // The lines swap their positions; the new main line keeps those both share.
        let old = std::mem::replace(&mut self.lines.positions, positions);
        if self.lines.positions.len() <= fork {
            self.lines.positions.resize(fork + 1, Value::Null);
        }
        for (p, v) in old.iter().enumerate().take(fork + 1) {
            if self.lines.positions[p].is_null() {
                self.lines.positions[p] = v.clone();
            }
        }
        if let Some(v) = self
            .lines
            .variations
            .iter_mut()
            .find(|v| v.moves == old_main)
        {
            v.positions = old;
        }
        self.lines.positions.truncate(self.lines.moves.len());
        self.lines.actors.truncate(fork);
        let rest = self.actors_from(fork).await?;
        self.lines.actors.extend(rest);
        self.lines.line = None;
        self.lines.viewing = None;
        self.lines.view_legal = ViewMoves::default();
        self.after_line_change();
        if let Err(e) = self.refresh().await? {
            return Err(Failure::new(FaultKind::Protocol, e));
        }
        self.note("the variation is the main line now").await;
        self.state_changed();
        Ok(())
    }

    /// Deletes variation `i`; looking at it, the page is shown the main line where it left.
    pub(super) async fn delete_line(&mut self, i: usize) -> Result<(), Failure> {
        if i >= self.lines.variations.len() {
            self.error(format!("there is no variation {i}")).await;
            return Ok(());
        }
        let gone = self.lines.variations.remove(i);
        match self.lines.line {
            Some(j) if j == i => {
                self.lines.line = None;
                self.stop_analysis().await?;
                return self.view(gone.fork).await;
            }
            Some(j) if j > i => self.lines.line = Some(j - 1),
            _ => {}
        }
        self.state_changed();
        Ok(())
    }

    /// Who acted for each token of the main line from `from` on: the engine's node kind
    /// before it.
    pub(super) async fn actors_from(&mut self, from: usize) -> Result<Vec<Actor>, Failure> {
        let n = self.lines.moves.len();
        let mut cmds = Vec::with_capacity(2 * n.saturating_sub(from));
        for i in from..n {
            cmds.push(self.lines.position_command(i));
            cmds.push("query node".to_string());
        }
        let groups = self.exchange(&cmds).await?;
        Ok((0..n.saturating_sub(from))
            .map(|k| {
                let a = answer(&groups[2 * k + 1]).unwrap_or_default();
                let mut w = a.split_whitespace();
                let node = Node::from_fields(w.next().unwrap_or(""), w.next());
                node.map_or(Actor::Unknown, Actor::at)
            })
            .collect())
    }

    /// What a new main line resets, as a take back does: declarations, the reveal, an end
    /// by clock or resignation, the pause before an engine move, running clocks, and an
    /// illegal-move fault (the move is gone).
    pub(super) fn after_line_change(&mut self) {
        self.declared = [None, None];
        self.reveal = None;
        self.flagged = None;
        self.resigned = None;
        self.wake = None;
        if let Some(c) = self.clocks.as_mut() {
            let now = std::time::Instant::now();
            c.halt(0, now);
            c.halt(1, now);
        }
        if self
            .fault
            .as_ref()
            .is_some_and(|f| f.failure.kind == FaultKind::Illegal)
        {
            self.fault = None;
        }
    }
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
    fn a_variation_keeps_the_positions_asked() {
        let mut v = var("a b", "a x");
        assert!(v.position(2).is_none());
        v.keep(2, json!({"fen": "f"}));
        assert_eq!(v.position(2), Some(&json!({"fen": "f"})));
        assert!(v.position(1).is_none());
    }
}
