//! What a match tells its user: the report (final and every N games).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::crosstable::{self, PairingTally};
use super::distinct::DistinctCount;
use super::sprt::{Sprt, SprtDecision};
use super::stats::{
    EloEstimate, PERFECT_BOUND_LEVEL, Tally, elo_pentanomial, elo_wdl, perfect_score_bound,
};

/// Why a match stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    /// Not stopped: the match is still being played (the reports every N games, and the
    /// results file of a match that was interrupted).
    #[default]
    Running,
    /// Every scheduled game was played.
    Completed,
    /// The SPRT reached the lower bound.
    SprtH0,
    /// The SPRT reached the upper bound.
    SprtH1,
    /// An engine crashed or hung and `--recover` was not given: the text says which.
    EngineFailure(String),
    /// A merged report lacks games: the text says which shards.
    Incomplete(String),
    /// A signal (SIGINT, SIGTERM) stopped the match; `--resume` continues it. The text
    /// says which signal and what became of the games in flight.
    Interrupted(String),
    /// The stop marker (`--stop-file`, written by `quartet match watch` when its SPRT
    /// decided) stopped the match after the games in flight: the text says why.
    Halted(String),
}

impl StopReason {
    /// Whether the match may go on with `--resume`: it is running (or was killed), was
    /// interrupted, or stopped at an engine failure.
    pub fn resumable(&self) -> bool {
        matches!(
            self,
            StopReason::Running | StopReason::Interrupted(_) | StopReason::EngineFailure(_)
        )
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Running => f.write_str("not yet: the match is running"),
            StopReason::Completed => f.write_str("all games played"),
            StopReason::SprtH0 => f.write_str("SPRT: H0 accepted"),
            StopReason::SprtH1 => f.write_str("SPRT: H1 accepted"),
            StopReason::EngineFailure(why) => write!(f, "engine failure (no --recover): {why}"),
            StopReason::Incomplete(why) => write!(f, "incomplete: {why}"),
            StopReason::Interrupted(why) => write!(f, "interrupted: {why}"),
            StopReason::Halted(why) => write!(f, "halted: {why}"),
        }
    }
}

/// The state of a match (running or finished), from the first engine's point of view.
/// `Display` gives the report text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    /// The game's name.
    pub game: String,
    /// The engines' names in `--engine` order: two in a match (the statistics are the
    /// first one's), more in a tournament.
    pub engines: Vec<String>,
    /// The form of a tournament of more than two engines (`round-robin`, `gauntlet`);
    /// absent for a match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// A tournament's pairings with their tallies (empty for a match, whose tally is
    /// `tally`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairings: Vec<PairingTally>,
    /// The games each engine lost by a fault of its own (a crash, a stall, a time
    /// forfeit, an illegal move), by engine name and termination.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub faults: BTreeMap<String, BTreeMap<String, u32>>,
    /// The time control as text.
    pub time_control: String,
    /// Games scheduled (in this shard).
    pub scheduled: u64,
    /// W/D/L and pair counts of the first engine (in a tournament: over its pairings).
    pub tally: Tally,
    /// Games per termination kind (its tag text).
    pub terminations: BTreeMap<String, u32>,
    /// The SPRT, if one runs.
    pub sprt: Option<Sprt>,
    /// Why the match stopped (`Running` while it runs).
    pub stop: StopReason,
    /// Milliseconds spent waiting for engines, over all games.
    pub engine_ms: u64,
    /// Milliseconds of all games from start to end.
    pub wall_ms: u64,
    /// Milliseconds from the start of the match to now or its end, engine start-up
    /// included (0 in a merged report: shards may run anywhere).
    #[serde(default)]
    pub elapsed_ms: u64,
    /// Games played at once.
    #[serde(default)]
    pub concurrency: u32,
    /// The distinct openings of the pairs played (absent in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_openings: Option<DistinctCount>,
    /// The distinct games played: start position and every token (absent in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct_games: Option<DistinctCount>,
    /// The file the engines' stderr went to, when one wrote any (without `--log`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
}

impl MatchReport {
    /// The games counted: of the match, or of every pairing of a tournament.
    pub fn games_played(&self) -> u32 {
        if self.pairings.is_empty() {
            self.tally.games()
        } else {
            self.pairings.iter().map(|p| p.tally.games()).sum()
        }
    }

    /// The per-game Elo estimate (`None` before the first game).
    pub fn elo(&self) -> Option<EloEstimate> {
        elo_wdl(&self.tally)
    }

    /// The per-pair Elo estimate (`None` before the first complete pair).
    pub fn elo_pairs(&self) -> Option<EloEstimate> {
        elo_pentanomial(&self.tally.penta)
    }

    /// The SPRT's LLR and decision, if an SPRT runs.
    pub fn sprt_status(&self) -> Option<(f64, SprtDecision)> {
        self.sprt.map(|s| {
            let llr = s.llr(&self.tally);
            (llr, s.decide(llr))
        })
    }

    /// With every game won (or every game lost), the one-sided Elo bound the score supports
    /// ([`perfect_score_bound`], negated for losses); `None` otherwise.
    pub fn perfect_bound(&self) -> Option<f64> {
        let t = &self.tally;
        let bound = perfect_score_bound(t.games())?;
        if t.wins == t.games() {
            Some(bound)
        } else if t.losses == t.games() {
            Some(-bound)
        } else {
            None
        }
    }

    /// The referee's own time as a fraction of the engines' time (waiting for engines
    /// excluded): what the referee adds to a match.
    pub fn referee_overhead(&self) -> Option<f64> {
        (self.engine_ms > 0)
            .then(|| self.wall_ms.saturating_sub(self.engine_ms) as f64 / self.engine_ms as f64)
    }

    /// The match's duration over the ideal one, the engines' time shared among the
    /// `concurrency` slots, as a fraction (0.03: 3 % longer); `None` in a merged report.
    pub fn duration_overhead(&self) -> Option<f64> {
        (self.elapsed_ms > 0 && self.concurrency > 0 && self.engine_ms > 0).then(|| {
            let ideal = self.engine_ms as f64 / f64::from(self.concurrency);
            self.elapsed_ms as f64 / ideal - 1.0
        })
    }

    /// One line for the progress bar: `+W =D -L  Elo ..  LLR ..`.
    pub fn short(&self) -> String {
        let t = &self.tally;
        let mut s = format!("+{} ={} -{}", t.wins, t.draws, t.losses);
        if let Some(e) = self.elo_pairs().or_else(|| self.elo()) {
            s.push_str(&format!("  Elo {} ± {}", num(e.elo), num(e.elo_error)));
        }
        if let Some((llr, _)) = self.sprt_status() {
            s.push_str(&format!("  LLR {llr:.2}"));
        }
        s
    }
}

impl MatchReport {
    /// The distinct openings and games, and a warning when games repeat.
    fn write_distinct(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (Some(o), Some(g)) = (&self.distinct_openings, &self.distinct_games) else {
            return Ok(());
        };
        let games = u64::from(self.games_played());
        let about = |c: &DistinctCount| if c.exact { "" } else { "about " };
        write!(
            f,
            "Distinct: {}{} openings, {}{} games of {games}",
            about(o),
            o.count,
            about(g),
            g.count
        )?;
        if !(o.exact && g.exact) {
            write!(f, " (estimated from the runs' sketches)")?;
        }
        writeln!(f)?;
        // An estimate is trusted to 10 % (its error is about 4 %).
        let repeats = games.saturating_sub(g.count);
        if repeats > 0 && (g.exact || repeats * 10 > games) {
            writeln!(
                f,
                "Warning: {repeats} of {games} games repeat an earlier game move for move: they \
                are not independent games (deterministic engines from the same openings; use a \
                book, random:N openings, or engines that choose at random with their Seed)"
            )?;
        }
        Ok(())
    }
}

/// A statistic with two decimals; `inf` for an unbounded one, `n/a` for an undefined one
/// (no variance). Adding 0.0 turns -0.0 into 0.0, so an even match does not print "-0.00".
fn num(x: f64) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else {
        format!("{:.2}", x + 0.0)
    }
}

fn write_elo(f: &mut fmt::Formatter<'_>, label: &str, e: &EloEstimate) -> fmt::Result {
    writeln!(
        f,
        "Elo ({label}): {} +/- {} (95 %), nElo: {} +/- {}, LOS: {} %",
        num(e.elo),
        num(e.elo_error),
        num(e.nelo),
        num(e.nelo_error),
        num(e.los * 100.0)
    )
}

impl fmt::Display for MatchReport {
    /// The report in fastchess's style: of a match, from the first engine's point of view;
    /// of a tournament, the standings, the crosstable and every pairing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pairings.is_empty() {
            self.write_match(f)?;
        } else {
            let games: u32 = self.pairings.iter().map(|p| p.tally.games()).sum();
            writeln!(
                f,
                "Results of a {} of {} engines ({}, {}):",
                self.tournament.as_deref().unwrap_or("tournament"),
                self.engines.len(),
                self.game,
                self.time_control
            )?;
            writeln!(f, "Games: {games} of {}", self.scheduled)?;
            crosstable::write(f, &self.engines, &self.pairings)?;
        }
        self.write_tail(f)
    }
}

impl MatchReport {
    /// The statistics of a two-engine match.
    fn write_match(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.tally;
        writeln!(
            f,
            "Results of {} vs {} ({}, {}):",
            self.engines[0], self.engines[1], self.game, self.time_control
        )?;
        let points_pct = if t.games() > 0 {
            100.0 * t.points() / f64::from(t.games())
        } else {
            0.0
        };
        writeln!(
            f,
            "Games: {} of {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({points_pct:.2} %), \
            DrawRatio: {:.2} %",
            t.games(),
            self.scheduled,
            t.wins,
            t.losses,
            t.draws,
            t.points(),
            100.0 * t.draw_ratio()
        )?;
        if let Some(e) = self.elo() {
            write_elo(f, "games", &e)?;
        }
        let p = &t.penta;
        if let Some(e) = self.elo_pairs() {
            write_elo(f, "pairs", &e)?;
        }
        if let Some(bound) = self.perfect_bound() {
            // Few games won support only a negative bound: the side is in the tally.
            let (relation, what) = if t.wins == t.games() {
                (">=", "won")
            } else {
                ("<=", "lost")
            };
            writeln!(
                f,
                "Elo {relation} {} (one-sided {:.0} %: all {} games {what})",
                num(bound),
                PERFECT_BOUND_LEVEL * 100.0,
                t.games()
            )?;
        }
        writeln!(
            f,
            "Ptnml(0-2): [{}, {}, {}+{}, {}, {}] ({} pairs; WL+DD at 1), PairsRatio: {}",
            p.ll,
            p.ld,
            p.wl,
            p.dd,
            p.wd,
            p.ww,
            p.pairs(),
            num(p.pairs_ratio())
        )?;
        if let (Some(s), Some((llr, decision))) = (self.sprt, self.sprt_status()) {
            let (lo, hi) = s.bounds();
            // How far the LLR has gone towards the bound it is heading for (fastchess).
            let towards = if llr >= 0.0 { llr / hi } else { llr / lo };
            writeln!(
                f,
                "LLR: {llr:.2} ({:.1} %) ({lo:.2}, {hi:.2}) [{:.2}, {:.2}] {:?}: {decision}",
                100.0 * towards,
                s.elo0,
                s.elo1,
                s.model
            )?;
        }
        Ok(())
    }

    /// What every report ends with: terminations, faults, distinct games, overheads and
    /// why the match stopped.
    fn write_tail(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        writeln!(f, "Terminations: {}", terms.join(", "))?;
        if !self.faults.is_empty() {
            let faults: Vec<String> = self
                .faults
                .iter()
                .map(|(engine, kinds)| {
                    let kinds: Vec<String> =
                        kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
                    format!("{engine}: {}", kinds.join(", "))
                })
                .collect();
            writeln!(f, "Faults: {}", faults.join("; "))?;
        }
        self.write_distinct(f)?;
        if let Some(path) = &self.stderr {
            writeln!(f, "Engine stderr: {path}")?;
        }
        if let Some(o) = self.referee_overhead() {
            writeln!(
                f,
                "Referee overhead: {:.2} % of engine time ({} ms engines, {} ms games)",
                100.0 * o,
                self.engine_ms,
                self.wall_ms
            )?;
        }
        if let Some(o) = self.duration_overhead() {
            writeln!(
                f,
                "Duration: {:.1} s at concurrency {}: {:.2} % over the engines' {:.1} s per slot",
                self.elapsed_ms as f64 / 1000.0,
                self.concurrency,
                100.0 * o,
                self.engine_ms as f64 / 1000.0 / f64::from(self.concurrency)
            )?;
        }
        match self.stop {
            StopReason::Running => write!(
                f,
                "Running: {} of {} games played",
                self.games_played(),
                self.scheduled
            ),
            ref stop => write!(f, "Stopped: {stop}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::SprtModel;

    fn report() -> MatchReport {
        let tally = Tally {
            wins: 3,
            draws: 1,
            penta: crate::stats::Pentanomial {
                wd: 1,
                ww: 1,
                ..Default::default()
            },
            ..Tally::default()
        };
        MatchReport {
            game: "nim".to_string(),
            engines: vec!["a".to_string(), "b".to_string()],
            time_control: "10+0.1".to_string(),
            scheduled: 4,
            tally,
            terminations: BTreeMap::from([("normal".to_string(), 4)]),
            sprt: Some(Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                model: SprtModel::Normalized,
            }),
            stop: StopReason::Completed,
            engine_ms: 1000,
            wall_ms: 1020,
            elapsed_ms: 525,
            concurrency: 2,
            ..MatchReport::default()
        }
    }

    #[test]
    fn report_text_has_every_section() {
        let text = report().to_string();
        for needle in [
            "Results of a vs b (nim, 10+0.1):",
            "Games: 4 of 4, Wins: 3, Losses: 0, Draws: 1, Points: 3.5 (87.50 %), DrawRatio: 25.00 \
            %",
            // 3.5 / 4 = 0.875: 400 log10(7) = 338.04.
            "Elo (games): 338.04 +/- ",
            " (95 %), nElo: ",
            "Elo (pairs):",
            // Two pairs won, none lost.
            "Ptnml(0-2): [0, 0, 0+0, 1, 1] (2 pairs; WL+DD at 1), PairsRatio: inf",
            "LLR: ",
            "(-2.94, 2.94) [0.00, 5.00] Normalized",
            "Terminations: normal 4",
            // 1020 ms of games for 1000 ms of engine time.
            "Referee overhead: 2.00 %",
            // 525 ms for 1000 ms of engine time over 2 slots: 5 % over 500 ms.
            "Duration: 0.5 s at concurrency 2: 5.00 % over the engines' 0.5 s per slot",
            "Stopped: all games played",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        assert!(!text.contains("one-sided"), "{text}");
        assert!(report().short().starts_with("+3 =1 -0  Elo "));
    }

    #[test]
    fn a_running_match_says_how_far_it_is_not_that_it_stopped() {
        let mut r = report();
        r.stop = StopReason::Running;
        r.scheduled = 10;
        let text = r.to_string();
        assert!(text.ends_with("Running: 4 of 10 games played"), "{text}");
        assert!(!text.contains("Stopped"), "{text}");
    }

    #[test]
    fn perfect_scores_show_a_bound_instead_of_nan() {
        let mut r = report();
        r.tally = Tally {
            wins: 20,
            ..Tally::default()
        };
        r.sprt = None;
        let text = r.to_string();
        // The bound for 20 games of 20 is 316.64 (see stats.rs).
        for needle in [
            "Elo (games): inf +/- inf (95 %), nElo: inf +/- n/a, LOS: 100.00 %",
            "Elo >= 316.64 (one-sided 95 %: all 20 games won)",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        assert!(!text.contains("NaN"), "{text}");
        r.tally = Tally {
            losses: 20,
            ..Tally::default()
        };
        assert!(
            r.to_string()
                .contains("Elo <= -316.64 (one-sided 95 %: all 20 games lost)")
        );
        assert_eq!(r.perfect_bound().map(|b| b < 0.0), Some(true));
    }

    #[test]
    fn llr_shows_its_progress_towards_the_nearer_bound() {
        let r = report();
        let (llr, _) = r.sprt_status().unwrap();
        let (lo, hi) = r.sprt.unwrap().bounds();
        let share = if llr >= 0.0 { llr / hi } else { llr / lo };
        let expected = format!("LLR: {llr:.2} ({:.1} %)", 100.0 * share);
        assert!(r.to_string().contains(&expected), "{expected}\n{r}");
    }

    #[test]
    fn report_round_trips_through_json() {
        let r = report();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<MatchReport>(&json).unwrap(), r);
    }
}
