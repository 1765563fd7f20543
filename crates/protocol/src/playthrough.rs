//! Playthroughs (after OpenSpiel's): one seeded game played through the protocol, written as
//! a transcript of every line sent and every line the engine answers. The transcript shows
//! the game's whole text surface — `d`, `query position`, the legal tokens of each node,
//! the refusals of a malformed token and of an illegal one, a search's lines — so a change
//! to any of it shows as a diff of the checked-in transcripts (`tests/playthroughs/`),
//! and a new game gets its transcript from the registry with no test written for it.
//!
//! The playthrough is a client: it knows the game only through the answers (`query node`
//! says what kind of node it is at, `query legalmoves` and `query chance` what may be
//! played), and picks among them with a generator seeded by the seed.

use crate::output::Output;
use crate::session::{Flow, Session};
use quartet_core::game::RuleOptions;
use quartet_core::splitmix::splitmix64;
use quartet_engine::GameKind;
use quartet_search::players::PlayerKind;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The most plies a playthrough plays (a game that ends sooner ends it).
pub const MAX_PLIES: usize = 24;

/// The most characters of an answer a transcript keeps; the rest is counted, not shown (an
/// R&B side's 11,550 arrangements would be 400,000 characters on one line).
pub const MAX_LINE_CHARS: usize = 2000;

/// The transcript of a playthrough of `game` under `rules` with `seed`: its first line
/// names the command that writes it, then each line sent (`> ...`) with the lines the
/// engine answered. The same arguments give the same transcript, byte for byte.
pub fn transcript(game: GameKind, rules: &RuleOptions, seed: u64) -> Result<String, String> {
    let mut run = Run::new(game, seed)?;
    let flags: Vec<String> = game
        .declaration()
        .rule_options
        .iter()
        .filter(|o| rules.get(o) != o.default_value())
        .map(|o| format!(" --{} {}", kebab(o.name), o.format_value(rules.get(o))))
        .collect();
    run.text = format!(
        "# quartet playthrough --game {} --seed {seed}{}\n",
        game.name(),
        flags.concat()
    );
    for option in game.declaration().rule_options {
        let value = rules.get(option);
        if value != option.default_value() {
            let value = option.format_value(value);
            run.send(&format!("setoption name {} value {value}", option.name));
        }
    }
    run.play();
    Ok(run.text)
}

/// Every game's rule settings that get a playthrough: the defaults, and each rule option
/// at each of its other values (the others at their defaults), each with the name of its
/// transcript's file (`duell`, `ludo-pieces-2`, `rnb-placement-together`).
pub fn settings() -> Vec<(GameKind, RuleOptions, String)> {
    let mut out = Vec::new();
    for &game in GameKind::ALL {
        out.push((game, RuleOptions::default(), game.name().to_string()));
        for option in game.declaration().rule_options {
            let (min, max) = option.range();
            for value in (min..=max).filter(|&v| v != option.default_value()) {
                let Ok(rules) = RuleOptions::default().with(option, value) else {
                    continue;
                };
                let name = format!(
                    "{}-{}-{}",
                    game.name(),
                    option.name.to_lowercase(),
                    option.format_value(value)
                );
                out.push((game, rules, name));
            }
        }
    }
    out
}

/// A UCI option name as its command-line flag (`DoubleStep` → `double-step`).
fn kebab(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A shared buffer the session's output writes into.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut b) => b.extend_from_slice(bytes),
            Err(poisoned) => poisoned.into_inner().extend_from_slice(bytes),
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    /// What was written since the last take.
    fn take(&self) -> String {
        let bytes = match self.0.lock() {
            Ok(mut b) => std::mem::take(&mut *b),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        };
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// One playthrough under way: the session, its output, the transcript so far, the tokens
/// played and the generator's state.
struct Run {
    session: Session,
    out: Buffer,
    text: String,
    moves: Vec<String>,
    rng: u64,
}

impl Run {
    fn new(game: GameKind, seed: u64) -> Result<Run, String> {
        let out = Buffer::default();
        let session = Session::new(Output::new(Box::new(out.clone())), game, PlayerKind::Search)?;
        Ok(Run {
            session,
            out,
            text: String::new(),
            moves: Vec::new(),
            rng: seed,
        })
    }

    /// Sends `line`, waits for the work it started (a search runs to its limit), and
    /// writes both into the transcript; returns the answer's lines.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.text.push_str(&format!("> {line}\n"));
        if self.session.handle_line(line) == Flow::Continue {
            self.session.finish();
        }
        let answer = self.out.take();
        let lines: Vec<String> = answer.lines().map(mask).collect();
        for l in &lines {
            self.text.push_str(&shorten(l));
            self.text.push('\n');
        }
        lines
    }

    /// The words of the `response` line of `question`.
    fn ask(&mut self, question: &str) -> Vec<String> {
        let lines = self.send(&format!("query {question}"));
        lines
            .iter()
            .find_map(|l| l.strip_prefix("response"))
            .map(|rest| rest.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// A number below `n` (n > 0) from the seeded generator.
    fn below(&mut self, n: usize) -> usize {
        (splitmix64(&mut self.rng) % n as u64) as usize
    }

    /// `position startpos moves ...` with the tokens played so far and `extra`.
    fn position(&mut self, extra: Option<&str>) -> Vec<String> {
        let mut line = String::from("position startpos");
        if !self.moves.is_empty() || extra.is_some() {
            line.push_str(" moves");
            for m in self.moves.iter().map(String::as_str).chain(extra) {
                line.push(' ');
                line.push_str(m);
            }
        }
        self.send(&line)
    }

    /// The game from its start: each ply shows the position, asks what may be played,
    /// plays one of it; some plies also meet a refusal or run a short search.
    fn play(&mut self) {
        self.send("position startpos");
        for ply in 0..MAX_PLIES {
            self.send("d");
            self.ask("position");
            let node = self.ask("node");
            let token = match node.first().map(String::as_str) {
                Some("turn") => self.pick_move(),
                Some("chance") => self.pick_outcome(),
                Some("simultaneous") => self.pick_joint(),
                _ => None,
            };
            let Some(token) = token else {
                break;
            };
            if ply % 8 == 1 {
                // The refusals: a token of no game's form, and one not legal here.
                self.position(Some("zz9"));
                self.ask(&format!("islegal {token}{token}"));
            }
            if ply == 3 {
                self.send("go depth 2");
            }
            self.moves.push(token);
            self.position(None);
        }
        for question in ["gameover", "result", "reason", "fen"] {
            self.ask(question);
        }
    }

    /// A legal move of the side to move.
    fn pick_move(&mut self) -> Option<String> {
        let tokens = self.ask("legalmoves");
        (!tokens.is_empty()).then(|| tokens[self.below(tokens.len())].clone())
    }

    /// A chance outcome drawn by its weight (`query chance`: `token:weight ...`).
    fn pick_outcome(&mut self) -> Option<String> {
        let outcomes: Vec<(String, u64)> = self
            .ask("chance")
            .iter()
            .filter_map(|o| {
                let (token, weight) = o.split_once(':')?;
                Some((token.to_string(), weight.parse().ok()?))
            })
            .collect();
        let total: u64 = outcomes.iter().map(|(_, w)| w).sum();
        if total == 0 {
            return None;
        }
        let mut x = self.below(total as usize) as u64;
        outcomes.into_iter().find_map(|(token, w)| {
            if x < w {
                Some(token)
            } else {
                x -= w;
                None
            }
        })
    }

    /// A joint turn: a declaration of each side, joined `<first>/<second>`.
    fn pick_joint(&mut self) -> Option<String> {
        let first = self.ask("legalmoves w");
        let second = self.ask("legalmoves b");
        if first.is_empty() || second.is_empty() {
            return None;
        }
        let (i, j) = (self.below(first.len()), self.below(second.len()));
        Some(format!("{}/{}", first[i], second[j]))
    }
}

/// A search line with its timings replaced by `*` (`time`, `nps`), the only parts of a
/// single-threaded search's output that differ between runs.
fn mask(line: &str) -> String {
    if !line.starts_with("info ") {
        return line.to_string();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if matches!(words[i - 1], "time" | "nps") {
            words[i] = "*";
        }
    }
    words.join(" ")
}

/// `line`, or its first [`MAX_LINE_CHARS`] characters and how many there were.
fn shorten(line: &str) -> String {
    let count = line.chars().count();
    if count <= MAX_LINE_CHARS {
        return line.to_string();
    }
    let head: String = line.chars().take(MAX_LINE_CHARS).collect();
    format!("{head} ... ({count} characters)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timings_are_masked_and_long_lines_cut() {
        assert_eq!(
            mask("info depth 1 seldepth 1 nodes 9 nps 9000 hashfull 0 time 1 pv a1a2"),
            "info depth 1 seldepth 1 nodes 9 nps * hashfull 0 time * pv a1a2"
        );
        assert_eq!(mask("response time 5"), "response time 5");
        let long = "x".repeat(MAX_LINE_CHARS + 5);
        assert_eq!(
            shorten(&long),
            format!(
                "{} ... ({} characters)",
                "x".repeat(MAX_LINE_CHARS),
                MAX_LINE_CHARS + 5
            )
        );
    }

    #[test]
    fn flags_are_the_options_in_kebab_case() {
        assert_eq!(kebab("DoubleStep"), "double-step");
        assert_eq!(kebab("Pieces"), "pieces");
    }

    #[test]
    fn a_seed_gives_one_transcript() {
        let game = GameKind::DEFAULT;
        let a = transcript(game, &RuleOptions::default(), 3).expect("a session");
        let b = transcript(game, &RuleOptions::default(), 3).expect("a session");
        assert_eq!(a, b);
        assert!(a.contains("> go depth 2\n"), "{a}");
        assert!(a.contains("info string error"), "no refusal met:\n{a}");
    }
}
