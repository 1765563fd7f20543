//! The adjudication rules a match may ask for, with fastchess's meanings: `--draw`,
//! `--resign`, `--maxmoves` (read from the engines' scores), and `--adjudicate exact` (a
//! position the game's exact solver proves, the analogue of tablebase adjudication). The
//! verdicts they give are `super::adjudicate`'s.
//!
//! Counting follows fastchess: a *ply* is one engine's decision (a joint turn of a
//! simultaneous game is two, one per side; chance outcomes are none), a *move* two plies.
//! - `--draw movenumber=N movecount=K score=S`: a draw once at least N moves were played
//!   (the opening's among them) and the last 2K plies' scores were all within ±S.
//! - `--resign movecount=K score=S`: a side loses once its last K scores were all −S or
//!   worse (or a forced loss). `twosided`: once the last 2K scores of both sides were all
//!   beyond ±S (or forced), the side whose last score is negative loses.
//! - `--maxmoves N`: a draw once the engines have played N moves (the opening's not
//!   counted) without a result.
//!
//! Scores are the engine's last `score cp|mate` before `bestmove`, in the game's units;
//! a move without one stops the counts. In a game without draws (Ludo) `--draw` and
//! `--maxmoves` mean nothing and are refused, and `--resign` reads the winning chances
//! (`wdl W D L`): S is in per mille of W − L. Resign is checked first, then draw, then
//! max moves, after the rules; the exact solver before them all.

use std::fmt;

use quartet_core::game::{Outcome, Player};

use super::adjudicate::{Termination, Verdict};
use super::info::{Score, SearchInfo};

/// `--draw movenumber=N movecount=K score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Moves that must have been played.
    pub movenumber: u32,
    /// Moves (of both sides) whose scores must be within the threshold.
    pub movecount: u32,
    /// The threshold.
    pub score: i32,
}

/// `--resign movecount=K score=S [twosided]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of one side (both sides: twosided) beyond the threshold.
    pub movecount: u32,
    /// The threshold.
    pub score: i32,
    /// Both sides' scores count.
    pub twosided: bool,
}

/// The adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--maxmoves`.
    pub maxmoves: Option<u32>,
    /// `--adjudicate exact`.
    pub exact: bool,
}

/// Reads `key=value` words into `(key, number)` pairs, checking the keys against `keys`.
fn numbers(words: &[String], flag: &str, keys: &[&str]) -> Result<Vec<(String, i64)>, String> {
    words
        .iter()
        .filter(|w| *w != "twosided" && *w != "twosided=true")
        .map(|w| {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("{flag}: expected key=value, got '{w}'"))?;
            if !keys.contains(&k) {
                return Err(format!(
                    "{flag}: unknown key '{k}' (keys: {})",
                    keys.join(", ")
                ));
            }
            let n = v
                .parse()
                .map_err(|_| format!("{flag}: '{v}' is not a whole number in '{w}'"))?;
            Ok((k.to_string(), n))
        })
        .collect()
}

fn get(pairs: &[(String, i64)], key: &str, default: i64) -> i64 {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map_or(default, |p| p.1)
}

impl DrawRule {
    /// Parses `movenumber=N movecount=K score=S` (defaults 0, 1 and 0, as fastchess).
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        let p = numbers(words, "--draw", &["movenumber", "movecount", "score"])?;
        let rule = DrawRule {
            movenumber: u32::try_from(get(&p, "movenumber", 0))
                .map_err(|_| "--draw: movenumber >= 0")?,
            movecount: u32::try_from(get(&p, "movecount", 1))
                .map_err(|_| "--draw: movecount >= 1")?,
            score: i32::try_from(get(&p, "score", 0)).map_err(|_| "--draw: score out of range")?,
        };
        if rule.movecount == 0 || rule.score < 0 {
            return Err("--draw: movecount must be at least 1 and score at least 0".to_string());
        }
        Ok(rule)
    }
}

impl ResignRule {
    /// Parses `movecount=K score=S [twosided|twosided=true]` (defaults 1 and 0).
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        let p = numbers(words, "--resign", &["movecount", "score", "twosided"])?;
        let rule = ResignRule {
            movecount: u32::try_from(get(&p, "movecount", 1))
                .map_err(|_| "--resign: movecount >= 1")?,
            score: i32::try_from(get(&p, "score", 0))
                .map_err(|_| "--resign: score out of range")?,
            twosided: words
                .iter()
                .any(|w| w == "twosided" || w == "twosided=true"),
        };
        if rule.movecount == 0 || rule.score < 0 {
            return Err("--resign: movecount must be at least 1 and score at least 0".to_string());
        }
        Ok(rule)
    }
}

impl Adjudication {
    /// Whether any rule is set.
    pub fn any(&self) -> bool {
        *self != Adjudication::default()
    }

    /// Checks the rules against a game that can end in a draw (`draws`) or not, and one
    /// with an exact prover (`prover`) or not.
    pub fn check(&self, game: &str, draws: bool, prover: bool) -> Result<(), String> {
        if !draws && self.draw.is_some() {
            return Err(format!(
                "--draw: {game} has no draws, so a draw adjudication means nothing there"
            ));
        }
        if !draws && self.maxmoves.is_some() {
            return Err(format!(
                "--maxmoves: {game} has no draws (and every game of it ends), so a \
                max-moves draw means nothing there"
            ));
        }
        if self.exact && !prover {
            return Err(format!(
                "--adjudicate exact: {game} has no exact solver (Apocalypse has one)"
            ));
        }
        Ok(())
    }
}

/// The rules as the command line gives them (`none` without any): the provenance's
/// `adjudication`.
impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.draw {
            parts.push(format!(
                "--draw movenumber={} movecount={} score={}",
                d.movenumber, d.movecount, d.score
            ));
        }
        if let Some(r) = self.resign {
            parts.push(format!(
                "--resign movecount={} score={}{}",
                r.movecount,
                r.score,
                if r.twosided { " twosided" } else { "" }
            ));
        }
        if let Some(n) = self.maxmoves {
            parts.push(format!("--maxmoves {n}"));
        }
        if self.exact {
            parts.push("--adjudicate exact".to_string());
        }
        if parts.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&parts.join(" "))
        }
    }
}

/// An engine's score as the rules read it: centipawns-like units, or (a game without
/// draws) W − L per mille; mate scores beyond every threshold.
fn value(info: &SearchInfo, draws: bool) -> Option<Value> {
    if draws {
        match info.score? {
            Score::Cp(cp) => Some(Value::Units(cp)),
            Score::Mate(n) => Some(Value::Forced(n > 0)),
        }
    } else {
        let [w, _, l] = info.wdl?;
        Some(Value::Units(w as i32 - l as i32))
    }
}

/// A score as the rules read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Value {
    /// In the game's units.
    Units(i32),
    /// A forced win (true) or loss.
    Forced(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Units(u) => write!(f, "{u}"),
            Value::Forced(true) => f.write_str("a forced win"),
            Value::Forced(false) => f.write_str("a forced loss"),
        }
    }
}

/// The counts of one game.
#[derive(Clone, Debug)]
pub struct Tracker {
    rules: Adjudication,
    draws: bool,
    /// Decision plies of the game, the opening's included.
    plies: u32,
    /// Decision plies played by the engines.
    engine_plies: u32,
    /// Consecutive plies within the draw threshold.
    draw_plies: u32,
    /// Per side: its consecutive scores at or below −S (one-sided resign).
    losing: [u32; 2],
    /// Consecutive plies beyond ±S (two-sided resign).
    decided_plies: u32,
    /// Each side's last score.
    last: [Option<Value>; 2],
}

impl Tracker {
    /// The counts of a new game under `rules`, of a game with or without draws.
    pub fn new(rules: Adjudication, draws: bool) -> Tracker {
        Tracker {
            rules,
            draws,
            plies: 0,
            engine_plies: 0,
            draw_plies: 0,
            losing: [0; 2],
            decided_plies: 0,
            last: [None; 2],
        }
    }

    /// Counts a decision of the opening (no engine, no score).
    pub fn book_ply(&mut self) {
        self.plies += 1;
    }

    /// Counts `p`'s decision and what its engine said about it.
    pub fn engine_ply(&mut self, p: Player, info: &SearchInfo) {
        self.plies += 1;
        self.engine_plies += 1;
        let v = value(info, self.draws);
        self.last[p.index()] = v;
        if let Some(d) = self.rules.draw {
            match v {
                Some(Value::Units(u)) if u.abs() <= d.score => self.draw_plies += 1,
                _ => self.draw_plies = 0,
            }
        }
        if let Some(r) = self.rules.resign {
            let losing = match v {
                Some(Value::Units(u)) => u <= -r.score,
                Some(Value::Forced(win)) => !win,
                None => false,
            };
            let i = p.index();
            self.losing[i] = if losing { self.losing[i] + 1 } else { 0 };
            let decided = match v {
                Some(Value::Units(u)) => u.abs() >= r.score,
                Some(Value::Forced(_)) => true,
                None => false,
            };
            self.decided_plies = if decided { self.decided_plies + 1 } else { 0 };
        }
    }

    /// The adjudication the counts call for after the last decision (made by `movers`:
    /// one player, or both at a joint turn), if any; `names` are the players' engines.
    pub fn verdict(&self, movers: &[Player], names: [&str; 2]) -> Option<Verdict> {
        if let Some(r) = self.rules.resign {
            let loser = if r.twosided {
                let negative = |p: &&Player| match self.last[p.index()] {
                    Some(Value::Units(u)) => u < 0,
                    Some(Value::Forced(win)) => !win,
                    None => false,
                };
                let losing: Vec<&Player> = movers.iter().filter(negative).collect();
                match losing.as_slice() {
                    [p] if self.decided_plies >= 2 * r.movecount => Some(**p),
                    _ => None,
                }
            } else {
                movers
                    .iter()
                    .copied()
                    .find(|p| self.losing[p.index()] >= r.movecount)
            };
            if let Some(p) = loser {
                let last = self.last[p.index()].map_or("no".to_string(), |v| v.to_string());
                let unit = if self.draws { "" } else { " per mille of W-L" };
                let reason = if r.twosided {
                    format!(
                        "{} resigns: both sides' scores beyond {}{unit} for {} moves, its own \
                        {last}",
                        names[p.index()],
                        r.score,
                        r.movecount
                    )
                } else {
                    format!(
                        "{} resigns: its score was -{}{unit} or worse for {} moves (last {last})",
                        names[p.index()],
                        r.score,
                        r.movecount
                    )
                };
                return Some(Verdict {
                    outcome: Outcome::Win(p.other()),
                    termination: Termination::ResignAdjudication,
                    reason,
                });
            }
        }
        if let Some(d) = self.rules.draw
            && self.plies / 2 >= d.movenumber
            && self.draw_plies >= 2 * d.movecount
        {
            return Some(Verdict {
                outcome: Outcome::Draw,
                termination: Termination::DrawAdjudication,
                reason: format!(
                    "both scores within {} for {} moves, at move {}",
                    d.score,
                    d.movecount,
                    self.plies / 2
                ),
            });
        }
        if let Some(n) = self.rules.maxmoves
            && self.engine_plies >= 2 * n
        {
            return Some(Verdict {
                outcome: Outcome::Draw,
                termination: Termination::MaxMoves,
                reason: format!("{n} moves without a result"),
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn scored(cp: i32) -> SearchInfo {
        SearchInfo {
            score: Some(Score::Cp(cp)),
            ..SearchInfo::default()
        }
    }

    const NAMES: [&str; 2] = ["W", "B"];
    const FIRST: Player = Player::First;
    const SECOND: Player = Player::Second;

    #[test]
    fn options_parse_and_print() {
        let d = DrawRule::parse(&words("movenumber=34 movecount=8 score=20")).unwrap();
        assert_eq!((d.movenumber, d.movecount, d.score), (34, 8, 20));
        let r = ResignRule::parse(&words("movecount=3 score=600 twosided")).unwrap();
        assert!(r.twosided);
        let a = Adjudication {
            draw: Some(d),
            resign: Some(r),
            maxmoves: Some(200),
            exact: true,
        };
        assert_eq!(
            a.to_string(),
            "--draw movenumber=34 movecount=8 score=20 --resign movecount=3 score=600 \
             twosided --maxmoves 200 --adjudicate exact"
        );
        assert_eq!(Adjudication::default().to_string(), "none");
        for bad in ["movecount=0", "score=-1", "depth=3", "score", "score=x"] {
            assert!(DrawRule::parse(&words(bad)).is_err(), "{bad}");
            assert!(ResignRule::parse(&words(bad)).is_err(), "{bad}");
        }
        assert!(a.check("ludo", false, false).is_err());
        let resign_only = Adjudication {
            resign: Some(r),
            ..Adjudication::default()
        };
        assert!(resign_only.check("ludo", false, false).is_ok());
        assert!(a.check("apocalypse", true, true).is_ok());
        assert!(
            a.check("duell", true, false)
                .unwrap_err()
                .contains("no exact solver")
        );
    }

    #[test]
    fn one_sided_resignation_counts_a_side_s_own_moves() {
        let rules = Adjudication {
            resign: Some(ResignRule::parse(&words("movecount=3 score=500")).unwrap()),
            ..Adjudication::default()
        };
        let mut t = Tracker::new(rules, true);
        // White sees -600, -700, then +0 (the count restarts), then three at -500.
        for (cp, expect) in [
            (-600, None),
            (-700, None),
            (0, None),
            (-500, None),
            (-550, None),
        ] {
            t.engine_ply(FIRST, &scored(cp));
            assert_eq!(t.verdict(&[FIRST], NAMES).map(|v| v.outcome), expect);
            t.engine_ply(SECOND, &scored(600));
            assert_eq!(t.verdict(&[SECOND], NAMES), None);
        }
        t.engine_ply(FIRST, &scored(-900));
        let v = t.verdict(&[FIRST], NAMES).unwrap();
        assert_eq!(v.outcome, Outcome::Win(SECOND));
        assert_eq!(v.termination, Termination::ResignAdjudication);
        assert!(
            v.reason
                .starts_with("W resigns: its score was -500 or worse for 3 moves")
        );
        // A forced loss counts; a move without a score stops the count.
        let mut t = Tracker::new(rules, true);
        for info in [
            scored(-600),
            SearchInfo::default(),
            scored(-600),
            scored(-600),
        ] {
            t.engine_ply(SECOND, &info);
        }
        assert_eq!(t.verdict(&[SECOND], NAMES), None);
        t.engine_ply(
            SECOND,
            &SearchInfo {
                score: Some(Score::Mate(-4)),
                ..SearchInfo::default()
            },
        );
        assert_eq!(
            t.verdict(&[SECOND], NAMES).unwrap().outcome,
            Outcome::Win(FIRST)
        );
    }

    #[test]
    fn two_sided_resignation_needs_both_sides() {
        let rules = Adjudication {
            resign: Some(ResignRule::parse(&words("movecount=2 score=300 twosided")).unwrap()),
            ..Adjudication::default()
        };
        let mut t = Tracker::new(rules, true);
        // Four plies beyond ±300: White +400, Black -450, White +500, Black -320.
        for (p, cp) in [(FIRST, 400), (SECOND, -450), (FIRST, 500)] {
            t.engine_ply(p, &scored(cp));
            assert_eq!(t.verdict(&[p], NAMES), None);
        }
        t.engine_ply(SECOND, &scored(-320));
        assert_eq!(
            t.verdict(&[SECOND], NAMES).unwrap().outcome,
            Outcome::Win(FIRST)
        );
        // The side to resign is the one whose last score is negative: White, last +500,
        // does not.
        t.engine_ply(FIRST, &scored(500));
        assert_eq!(t.verdict(&[FIRST], NAMES), None);
    }

    #[test]
    fn draws_wait_for_the_move_number_and_max_moves_for_the_engines() {
        let rules = Adjudication {
            draw: Some(DrawRule::parse(&words("movenumber=3 movecount=2 score=20")).unwrap()),
            maxmoves: Some(4),
            ..Adjudication::default()
        };
        let mut t = Tracker::new(rules, true);
        t.book_ply();
        t.book_ply();
        // Plies 3 to 6 within ±20: 4 plies = 2 moves, and move 3 is reached at ply 6.
        for (i, cp) in [10, -20, 5, 0].into_iter().enumerate() {
            let p = if i % 2 == 0 { FIRST } else { SECOND };
            t.engine_ply(p, &scored(cp));
            let v = t.verdict(&[p], NAMES);
            if i < 3 {
                assert_eq!(v, None, "ply {}", i + 3);
            } else {
                let v = v.unwrap();
                assert_eq!(
                    (v.outcome, v.termination),
                    (Outcome::Draw, Termination::DrawAdjudication)
                );
            }
        }
        // Max moves: 4 moves of the engines, the opening's not counted.
        let rules = Adjudication {
            maxmoves: Some(4),
            ..Adjudication::default()
        };
        let mut t = Tracker::new(rules, true);
        t.book_ply();
        for i in 0..8 {
            assert_eq!(t.verdict(&[FIRST], NAMES), None, "{i}");
            t.engine_ply(FIRST, &SearchInfo::default());
        }
        let v = t.verdict(&[FIRST], NAMES).unwrap();
        assert_eq!(
            (v.termination, v.reason.as_str()),
            (Termination::MaxMoves, "4 moves without a result")
        );
    }

    #[test]
    fn a_game_without_draws_resigns_on_winning_chances() {
        let rules = Adjudication {
            resign: Some(ResignRule::parse(&words("movecount=2 score=900")).unwrap()),
            ..Adjudication::default()
        };
        let mut t = Tracker::new(rules, false);
        let wdl = |w, l| SearchInfo {
            score: Some(Score::Cp(-9999)),
            wdl: Some([w, 0, l]),
            ..SearchInfo::default()
        };
        // W - L: -900 (counts), then -880 (does not), -950, -990.
        for (w, l, expect) in [
            (50, 950, false),
            (60, 940, false),
            (25, 975, false),
            (5, 995, true),
        ] {
            t.engine_ply(FIRST, &wdl(w, l));
            assert_eq!(t.verdict(&[FIRST], NAMES).is_some(), expect, "{w} {l}");
        }
        assert!(
            t.verdict(&[FIRST], NAMES)
                .unwrap()
                .reason
                .contains("per mille of W-L")
        );
    }
}
