//! What a match tells its user: the report (final and every N games) and the progress line.

use std::collections::BTreeMap;
use std::fmt;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};

use super::sprt::{Sprt, SprtDecision};
use super::stats::{EloEstimate, Tally, elo_pentanomial, elo_wdl};

/// Why a match stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
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
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Completed => f.write_str("all games played"),
            StopReason::SprtH0 => f.write_str("SPRT: H0 accepted"),
            StopReason::SprtH1 => f.write_str("SPRT: H1 accepted"),
            StopReason::EngineFailure(why) => write!(f, "engine failure (no --recover): {why}"),
            StopReason::Incomplete(why) => write!(f, "incomplete: {why}"),
        }
    }
}

/// The state of a match (running or finished), from the first engine's point of view.
/// `Display` gives the report text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchReport {
    /// The game's name.
    pub game: String,
    /// The engines' names, first engine first.
    pub engines: [String; 2],
    /// The time control as text.
    pub time_control: String,
    /// Games scheduled (in this shard).
    pub scheduled: u64,
    /// W/D/L and pair counts.
    pub tally: Tally,
    /// Games per termination kind (its tag text).
    pub terminations: BTreeMap<String, u32>,
    /// The SPRT, if one runs.
    pub sprt: Option<Sprt>,
    /// Why the match stopped (`Completed` while it runs).
    pub stop: StopReason,
    /// Milliseconds spent waiting for engines, over all games.
    pub engine_ms: u64,
    /// Milliseconds of all games from start to end.
    pub wall_ms: u64,
}

impl MatchReport {
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

    /// The referee's own time as a fraction of the engines' time (waiting for engines
    /// excluded): what the referee adds to a match.
    pub fn referee_overhead(&self) -> Option<f64> {
        (self.engine_ms > 0)
            .then(|| self.wall_ms.saturating_sub(self.engine_ms) as f64 / self.engine_ms as f64)
    }

    /// One line for the progress bar: `+W =D -L  Elo ..  LLR ..`.
    pub fn short(&self) -> String {
        let t = &self.tally;
        let mut s = format!("+{} ={} -{}", t.wins, t.draws, t.losses);
        if let Some(e) = self.elo_pairs().or_else(|| self.elo()) {
            s.push_str(&format!("  Elo {:.1} ± {:.1}", e.elo, e.elo_error));
        }
        if let Some((llr, _)) = self.sprt_status() {
            s.push_str(&format!("  LLR {llr:.2}"));
        }
        s
    }
}

fn write_elo(f: &mut fmt::Formatter<'_>, label: &str, e: &EloEstimate) -> fmt::Result {
    // Adding 0.0 turns -0.0 into 0.0, so an even match does not print "-0.00".
    writeln!(
        f,
        "Elo ({label}): {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}, LOS: {:.2} %",
        e.elo + 0.0,
        e.elo_error,
        e.nelo + 0.0,
        e.nelo_error,
        e.los * 100.0
    )
}

impl fmt::Display for MatchReport {
    /// The report in fastchess's style, from the first engine's point of view.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
            "Games: {} of {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({points_pct:.2} %), DrawRatio: {:.2} %",
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
        writeln!(
            f,
            "Ptnml(0-2): [{}, {}, {}+{}, {}, {}] ({} pairs; WL+DD at 1)",
            p.ll,
            p.ld,
            p.wl,
            p.dd,
            p.wd,
            p.ww,
            p.pairs()
        )?;
        if let (Some(s), Some((llr, decision))) = (self.sprt, self.sprt_status()) {
            let (lo, hi) = s.bounds();
            writeln!(
                f,
                "LLR: {llr:.2} ({lo:.2}, {hi:.2}) [{:.2}, {:.2}] {:?}: {decision}",
                s.elo0, s.elo1, s.model
            )?;
        }
        let terms: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        writeln!(f, "Terminations: {}", terms.join(", "))?;
        if let Some(o) = self.referee_overhead() {
            writeln!(
                f,
                "Referee overhead: {:.2} % of engine time ({} ms engines, {} ms games)",
                100.0 * o,
                self.engine_ms,
                self.wall_ms
            )?;
        }
        write!(f, "Stopped: {}", self.stop)
    }
}

/// The live progress line on stderr (hidden when stderr is not a terminal).
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A progress line for `total` games; `visible` false hides it everywhere.
    pub fn new(total: u64, visible: bool) -> Progress {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:30} {pos}/{len} games {elapsed} {msg}")
        {
            bar.set_style(style);
        }
        Progress { bar }
    }

    /// Counts one more game and shows `message`.
    pub fn game_done(&self, message: String) {
        self.bar.inc(1);
        self.bar.set_message(message);
    }

    /// Prints `text` on stdout without tearing the progress line.
    pub fn print(&self, text: &str) {
        self.bar.suspend(|| println!("{text}"));
    }

    /// Removes the progress line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::sprt::SprtModel;

    fn report() -> MatchReport {
        let tally = Tally {
            wins: 3,
            draws: 1,
            penta: crate::referee::stats::Pentanomial {
                wd: 1,
                ww: 1,
                ..Default::default()
            },
            ..Tally::default()
        };
        MatchReport {
            game: "nim".to_string(),
            engines: ["a".to_string(), "b".to_string()],
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
        }
    }

    #[test]
    fn report_text_has_every_section() {
        let text = report().to_string();
        for needle in [
            "Results of a vs b (nim, 10+0.1):",
            "Games: 4 of 4, Wins: 3, Losses: 0, Draws: 1, Points: 3.5 (87.50 %), DrawRatio: 25.00 %",
            // 3.5 / 4 = 0.875: 400 log10(7) = 338.04.
            "Elo (games): 338.04",
            "Elo (pairs):",
            "Ptnml(0-2): [0, 0, 0+0, 1, 1] (2 pairs",
            "LLR: ",
            "(-2.94, 2.94) [0.00, 5.00] Normalized",
            "Terminations: normal 4",
            "Referee overhead: 2.00 %",
            "Stopped: all games played",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        assert!(report().short().starts_with("+3 =1 -0  Elo "));
    }

    #[test]
    fn report_round_trips_through_json() {
        let r = report();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<MatchReport>(&json).unwrap(), r);
    }
}
