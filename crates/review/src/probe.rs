//! Asking the engine about a game's positions, over the protocol only: `position`, the
//! `query` questions (`node`, `legalmoves`, `chance`, `result`) and `go` with the review's
//! budget (with `side w|b` and every declaration's MultiPV line at a joint turn). The
//! answers become [`Facts`] and [`Value`]s; nothing here knows a game's rules.

use super::curve::{Curve, LICHESS_K};
use super::engine::Engine;
use super::facts::{Declaration, Facts, Outcome, Searched, Side, Value};
use super::uci::{self, Score};
use super::{Budget, Exact, GameInput, ReviewError};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The MultiPV the review asks for at a joint turn: every declaration's value (the
/// protocol's largest; R&B's joint setup lists only the arrangements its oracle weighed).
const JOINT_MULTIPV: usize = 256;

/// How long the engine may be silent beyond a search's own time.
const PATIENCE: Duration = Duration::from_secs(120);

/// A position's kind, as `query node` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A side to move.
    Turn(Side),
    /// A side to roll.
    Chance(Side),
    /// Both sides declare.
    Simultaneous,
    /// The game is over.
    Over,
}

/// What the queries said about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Described {
    /// Its kind.
    pub node: Node,
    /// Its legal tokens (`query legalmoves`).
    pub legal: Vec<String>,
    /// Its chance outcomes with their weights (`query chance`).
    pub chance: Vec<(String, u32)>,
    /// The first player's score when it is over (`query result`).
    pub result: Option<f64>,
}

/// What one `go` found.
#[derive(Clone, Debug, Default, PartialEq)]
struct Answer {
    /// The main line's score (the last `multipv 1` line's).
    main: Option<Score>,
    /// `bestmove`'s token.
    best: Option<String>,
    /// Each root move's latest score, by its line's first token.
    lines: HashMap<String, Score>,
    /// The `info string policy` entries, in order.
    policy: Vec<(String, f64)>,
}

/// One game's conversation with the engine.
pub struct Probe<'a, E: Engine> {
    engine: &'a mut E,
    input: &'a GameInput,
    budget: Budget,
    curve: Curve,
    exact: Option<&'a mut dyn Exact>,
    multipv: usize,
    /// Searches asked so far.
    pub searches: u64,
    /// Nodes they searched.
    pub nodes: u64,
}

impl<'a, E: Engine> Probe<'a, E> {
    /// Sets the engine up for `input`'s game (its `Game` option, its rules, MultiPV 1, a
    /// new game), asks its win-chance curve (`query winchance`; lichess's when it gives
    /// none) and waits for it to be ready.
    pub fn new(
        engine: &'a mut E,
        input: &'a GameInput,
        budget: Budget,
        exact: Option<&'a mut dyn Exact>,
    ) -> Result<Self, ReviewError> {
        let mut probe = Probe {
            engine,
            input,
            budget,
            curve: Curve::Logistic { k: LICHESS_K },
            exact,
            multipv: 1,
            searches: 0,
            nodes: 0,
        };
        let mut lines = vec![format!("setoption name Game value {}", input.game)];
        for (name, value) in &input.rules {
            lines.push(format!("setoption name {name} value {value}"));
        }
        lines.push("setoption name MultiPV value 1".to_string());
        lines.push("ucinewgame".to_string());
        lines.push("query winchance".to_string());
        lines.push("isready".to_string());
        for line in &lines {
            probe.send(line)?;
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let line = probe.read(deadline)?;
            if let Some(error) = uci::error_text(&line) {
                if error.starts_with("query") {
                    // An engine that does not know the question: lichess's curve.
                    continue;
                }
                return Err(ReviewError::Engine(format!(
                    "the engine refused the game's set-up: {error}"
                )));
            }
            if let Some(curve) = uci::response(&line).and_then(Curve::from_answer) {
                probe.curve = curve;
            }
            if line.split_whitespace().next() == Some("readyok") {
                return Ok(probe);
            }
        }
    }

    fn send(&mut self, line: &str) -> Result<(), ReviewError> {
        self.engine.send(line).map_err(ReviewError::Engine)
    }

    fn read(&mut self, deadline: Instant) -> Result<String, ReviewError> {
        self.engine.read_line(deadline).map_err(ReviewError::Engine)
    }

    /// The `position` command of the position after `tokens`.
    fn position(&self, tokens: &[String]) -> String {
        let mut line = match &self.input.start {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !tokens.is_empty() {
            line.push_str(" moves ");
            line.push_str(&tokens.join(" "));
        }
        line
    }

    /// The queries' answers at the position after `tokens`. Error: the engine refuses the
    /// position (the record does not replay: the error names the ply) or fails.
    pub fn describe(&mut self, tokens: &[String]) -> Result<Described, ReviewError> {
        const QUERIES: [&str; 4] = [
            "query node",
            "query legalmoves",
            "query chance",
            "query result",
        ];
        let position = self.position(tokens);
        self.send(&position)?;
        for query in QUERIES {
            self.send(query)?;
        }
        let deadline = Instant::now() + PATIENCE;
        let mut answers = Vec::new();
        let mut refused = None;
        while answers.len() < QUERIES.len() {
            let line = self.read(deadline)?;
            if let Some(error) = uci::error_text(&line) {
                refused.get_or_insert_with(|| error.to_string());
            } else if let Some(answer) = uci::response(&line) {
                answers.push(answer.to_string());
            }
        }
        if let Some(error) = refused {
            return Err(match uci::refused_move(&error) {
                Some(ply) => ReviewError::Replay {
                    ply: Some(ply),
                    why: error,
                },
                None if error.starts_with("position") => ReviewError::Replay {
                    ply: None,
                    why: error,
                },
                None => ReviewError::Engine(error),
            });
        }
        let bad = |what: &str, answer: &str| {
            ReviewError::Engine(format!("the engine answered '{what}' with '{answer}'"))
        };
        let side = |word: Option<&str>| match word {
            Some("p1") => Some(Side::First),
            Some("p2") => Some(Side::Second),
            _ => None,
        };
        let mut words = answers[0].split_whitespace();
        let node = match (words.next(), side(words.next())) {
            (Some("turn"), Some(s)) => Node::Turn(s),
            (Some("chance"), Some(s)) => Node::Chance(s),
            (Some("simultaneous"), _) => Node::Simultaneous,
            (Some("over"), _) => Node::Over,
            _ => return Err(bad("query node", &answers[0])),
        };
        let legal = answers[1].split_whitespace().map(str::to_string).collect();
        let chance = answers[2]
            .split_whitespace()
            .map(|entry| {
                let (token, weight) = entry.rsplit_once(':')?;
                Some((token.to_string(), weight.parse().ok()?))
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| bad("query chance", &answers[2]))?;
        let result = match answers[3].as_str() {
            "p1win" => Some(1.0),
            "p2win" => Some(0.0),
            "draw" => Some(0.5),
            "none" => None,
            other => return Err(bad("query result", other)),
        };
        Ok(Described {
            node,
            legal,
            chance,
            result,
        })
    }

    /// Sets MultiPV when it differs from the engine's.
    fn set_multipv(&mut self, multipv: usize) -> Result<(), ReviewError> {
        if self.multipv != multipv {
            self.send(&format!("setoption name MultiPV value {multipv}"))?;
            self.multipv = multipv;
        }
        Ok(())
    }

    /// One `go` at the position after `tokens` (`side` at a simultaneous turn), at the
    /// review's budget; when that budget ended before the first iteration did (no score:
    /// a few nodes in a wide position), once more with `go depth 1`.
    fn search(
        &mut self,
        tokens: &[String],
        side: Option<Side>,
        multipv: usize,
    ) -> Result<Answer, ReviewError> {
        self.set_multipv(multipv)?;
        let position = self.position(tokens);
        let (go, patience) = match self.budget {
            Budget::Nodes(n) => (format!("go nodes {n}"), PATIENCE),
            Budget::Movetime(ms) => (
                format!("go movetime {ms}"),
                PATIENCE + Duration::from_millis(ms),
            ),
        };
        let answer = self.go(&position, &go, side, patience)?;
        if answer.main.is_some() {
            return Ok(answer);
        }
        let answer = self.go(&position, "go depth 1", side, PATIENCE)?;
        if answer.main.is_none() {
            return Err(ReviewError::Engine(format!(
                "the engine gave no score for 'go depth 1' after '{position}'"
            )));
        }
        Ok(answer)
    }

    /// Sends `position` and `go` (with `side`), and reads the search's lines up to its
    /// `bestmove`, waiting at most `patience` for each.
    fn go(
        &mut self,
        position: &str,
        go: &str,
        side: Option<Side>,
        patience: Duration,
    ) -> Result<Answer, ReviewError> {
        let go = match side {
            Some(Side::First) => format!("{go} side w"),
            Some(Side::Second) => format!("{go} side b"),
            None => go.to_string(),
        };
        self.send(position)?;
        self.send(&go)?;
        self.searches += 1;
        let mut answer = Answer::default();
        let mut nodes = 0;
        let mut refused = None;
        loop {
            let line = self.read(Instant::now() + patience)?;
            if let Some(best) = uci::bestmove(&line) {
                answer.best = best;
                break;
            }
            if let Some(n) = uci::nodes(&line) {
                nodes = nodes.max(n);
            }
            if let Some(error) = uci::error_text(&line) {
                refused.get_or_insert_with(|| error.to_string());
            } else if let Some(policy) = uci::parse_policy(&line) {
                answer.policy = policy;
            } else if let Some(info) = uci::parse_info(&line) {
                if info.multipv == 1 {
                    answer.main = Some(info.score);
                }
                if let Some(first) = info.first {
                    answer.lines.insert(first, info.score);
                }
            }
        }
        self.nodes += nodes;
        match refused {
            Some(error) => Err(ReviewError::Engine(format!(
                "the engine refused '{go}' after '{position}': {error}"
            ))),
            None => Ok(answer),
        }
    }

    /// The first player's expected score of `score`, a score from `side`'s view.
    fn value_of(&self, score: Score, side: Side) -> Value {
        let (p, certain) = self.curve.expected(score);
        Value {
            p: side.view(p),
            certain,
            exact: false,
        }
    }

    /// The exact value of the position after `tokens`, when the caller's solver has one.
    fn exact_value(&mut self, tokens: &[String]) -> Option<Value> {
        let p = self.exact.as_mut()?.value(tokens)?;
        Some(Value {
            p,
            certain: p == 0.0 || p == 1.0,
            exact: true,
        })
    }

    /// The value of the position after `tokens` on its own: exact when known, the result
    /// of a finished game, else the engine's search of it (the first player's side at a
    /// joint turn). `described`: the queries' answers there, when already asked.
    pub fn evaluate(
        &mut self,
        tokens: &[String],
        described: Option<Described>,
    ) -> Result<Value, ReviewError> {
        if let Some(v) = self.exact_value(tokens) {
            return Ok(v);
        }
        let described = match described {
            Some(d) => d,
            None => self.describe(tokens)?,
        };
        let (side, asked) = match described.node {
            Node::Over => {
                let result = described.result.ok_or_else(|| {
                    ReviewError::Engine("a finished game without a result".into())
                })?;
                return Ok(Value::result(result));
            }
            Node::Turn(s) | Node::Chance(s) => (s, None),
            Node::Simultaneous => (Side::First, Some(Side::First)),
        };
        let answer = self.search(tokens, asked, 1)?;
        let score = answer
            .main
            .ok_or_else(|| ReviewError::Engine("no score".into()))?;
        Ok(self.value_of(score, side))
    }

    /// The facts of the position after `tokens[..k]`, before `tokens[k]`.
    pub fn facts(
        &mut self,
        tokens: &[String],
        k: usize,
        described: &Described,
    ) -> Result<Facts, ReviewError> {
        let before = &tokens[..k];
        let played = &tokens[k];
        match described.node {
            Node::Over => Err(ReviewError::Replay {
                ply: Some(k + 1),
                why: format!("'{played}' follows the end of the game"),
            }),
            Node::Turn(mover) if described.legal.len() == 1 => Ok(Facts::Turn {
                mover,
                searched: None,
            }),
            Node::Turn(mover) => {
                let answer = self.search(before, None, 1)?;
                let score = answer
                    .main
                    .ok_or_else(|| ReviewError::Engine("no score".into()))?;
                let value = match self.exact_value(before) {
                    Some(v) => v,
                    None => self.value_of(score, mover),
                };
                Ok(Facts::Turn {
                    mover,
                    searched: Some(Searched {
                        value,
                        best: answer.best,
                    }),
                })
            }
            Node::Chance(roller) => {
                let mut outcomes = Vec::with_capacity(described.chance.len());
                for (token, weight) in &described.chance {
                    let value = if token == played {
                        None
                    } else {
                        let mut child = before.to_vec();
                        child.push(token.clone());
                        Some(self.evaluate(&child, None)?)
                    };
                    outcomes.push(Outcome {
                        token: token.clone(),
                        weight: *weight,
                        value,
                    });
                }
                Ok(Facts::Chance { roller, outcomes })
            }
            Node::Simultaneous => self.joint(tokens, k),
        }
    }

    /// The facts of a joint turn: both sides' searches with every declaration's line.
    fn joint(&mut self, tokens: &[String], k: usize) -> Result<Facts, ReviewError> {
        let before = &tokens[..k];
        let played = &tokens[k];
        let (a, b) = played.split_once('/').ok_or_else(|| ReviewError::Replay {
            ply: Some(k + 1),
            why: format!("'{played}' is not a joint turn <first>/<second>"),
        })?;
        let white = self.search(before, Some(Side::First), JOINT_MULTIPV)?;
        let black = self.search(before, Some(Side::Second), JOINT_MULTIPV)?;
        self.set_multipv(1)?;
        let main = white
            .main
            .ok_or_else(|| ReviewError::Engine("no score".into()))?;
        let value = match self.exact_value(before) {
            Some(v) => v,
            None => self.value_of(main, Side::First),
        };
        let first = self.declarations(&white, Side::First);
        let second = self.declarations(&black, Side::Second);
        let mut played_values = [0.0; 2];
        for (slot, side, mine, theirs) in [
            (0, Side::First, &first, &second),
            (1, Side::Second, &second, &first),
        ] {
            let token = if side == Side::First { a } else { b };
            played_values[slot] = match mine.iter().find(|d| d.token == token) {
                Some(Declaration { value: Some(v), .. }) => *v,
                // Not among the lines (a void declaration, or past the MultiPV lines):
                // its value against the opponent's mix, from the positions it leads to.
                _ => {
                    let mut sum = 0.0;
                    for d in theirs.iter().filter(|d| d.probability > 0.0) {
                        let turn = if side == Side::First {
                            format!("{token}/{}", d.token)
                        } else {
                            format!("{}/{token}", d.token)
                        };
                        let mut child = before.to_vec();
                        child.push(turn);
                        sum += d.probability * self.evaluate(&child, None)?.p;
                    }
                    let mass: f64 = theirs.iter().map(|d| d.probability.max(0.0)).sum();
                    if mass > 0.0 { sum / mass } else { value.p }
                }
            };
        }
        Ok(Facts::Joint {
            value,
            first,
            second,
            played: played_values,
        })
    }

    /// A side's declarations from its search: the policy, each with its line's value.
    fn declarations(&self, answer: &Answer, side: Side) -> Vec<Declaration> {
        answer
            .policy
            .iter()
            .map(|(token, probability)| Declaration {
                token: token.clone(),
                probability: *probability,
                value: answer
                    .lines
                    .get(token)
                    .map(|&score| self.value_of(score, side).p),
            })
            .collect()
    }
}
