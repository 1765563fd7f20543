//! The report of a tournament of more than two engines: the standings with one Elo per
//! engine from a single maximum-likelihood fit over all games ([`super::elo_fit`]), the
//! crosstable of points, and the pentanomial statistics of each pairing.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::elo_fit::{self, PairingScore};
use super::stats::{Tally, elo_pentanomial};

/// One pairing's results, from its first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingTally {
    /// The pairing's two engines; statistics are from the first one's view.
    pub engines: [String; 2],
    /// Its W/D/L and pair counts.
    pub tally: Tally,
}

/// One engine's line of the standings.
struct Standing {
    engine: usize,
    games: u32,
    points: f64,
    draws: u32,
}

/// `±` with no decimals, or `inf`.
fn signed(x: f64) -> String {
    format!("{:+.0}", x + 0.0)
}

/// Writes the standings, the crosstable and the pairings of a tournament among `engines`.
pub fn write(
    f: &mut fmt::Formatter<'_>,
    engines: &[String],
    pairings: &[PairingTally],
) -> fmt::Result {
    let index = |name: &str| engines.iter().position(|e| e == name);
    let mut scores = Vec::new();
    for p in pairings {
        if let (Some(a), Some(b)) = (index(&p.engines[0]), index(&p.engines[1])) {
            scores.push(PairingScore {
                a,
                b,
                games: f64::from(p.tally.games()),
                points: p.tally.points(),
            });
        }
    }
    let fit = elo_fit::fit(engines.len(), &scores);
    let mut standings: Vec<Standing> = (0..engines.len())
        .map(|engine| Standing {
            engine,
            games: 0,
            points: 0.0,
            draws: 0,
        })
        .collect();
    for (p, s) in pairings.iter().zip(&scores) {
        let t = &p.tally;
        standings[s.a].games += t.games();
        standings[s.b].games += t.games();
        standings[s.a].points += t.points();
        standings[s.b].points += f64::from(t.games()) - t.points();
        standings[s.a].draws += t.draws;
        standings[s.b].draws += t.draws;
    }
    match &fit {
        // Equal ratings (to a millionth of an Elo) keep the engines' order.
        Some(fit) => {
            standings.sort_by_key(|s| (-(fit.elo[s.engine] * 1e6).round() as i64, s.engine))
        }
        None => standings.sort_by_key(|s| (-(s.points * 2.0).round() as i64, s.engine)),
    }
    let width = engines
        .iter()
        .map(|e| e.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(
        f,
        "Rank {:<width$}    Elo    +/-  Games  Points    Score    Draws",
        "Engine"
    )?;
    for (rank, s) in standings.iter().enumerate() {
        let (elo, error) = fit
            .as_ref()
            .map_or(("n/a".to_string(), "n/a".to_string()), |fit| {
                (
                    signed(fit.elo[s.engine]),
                    format!("{:.0}", fit.error[s.engine]),
                )
            });
        let pct = |x: f64| {
            if s.games == 0 {
                "n/a".to_string()
            } else {
                format!("{:.1} %", 100.0 * x / f64::from(s.games))
            }
        };
        writeln!(
            f,
            "{:>4} {:<width$} {elo:>6} {error:>6} {:>6} {:>7.1} {:>8} {:>8}",
            rank + 1,
            engines[s.engine],
            s.games,
            s.points,
            pct(s.points),
            pct(f64::from(s.draws))
        )?;
    }
    let games: u32 = pairings.iter().map(|p| p.tally.games()).sum();
    match &fit {
        Some(fit) => writeln!(
            f,
            "Elo: one maximum-likelihood fit over all {games} games (logistic, a draw half a \
            point; mean 0), 95 % intervals{}",
            if fit.prior {
                "; with one virtual draw per pairing, as a perfect score has no finite maximum"
            } else {
                ""
            }
        )?,
        None => writeln!(f, "Elo: not yet (some engine has no games)")?,
    }
    // The crosstable: row engine's points against the column engine, in standings order.
    let cell = |row: usize, col: usize| -> String {
        if row == col {
            return "-".to_string();
        }
        for (p, s) in pairings.iter().zip(&scores) {
            let t = &p.tally;
            if (s.a, s.b) == (row, col) {
                return format!("{}/{}", t.points(), t.games());
            }
            if (s.a, s.b) == (col, row) {
                return format!("{}/{}", f64::from(t.games()) - t.points(), t.games());
            }
        }
        ".".to_string()
    };
    let cells: Vec<Vec<String>> = standings
        .iter()
        .map(|r| standings.iter().map(|c| cell(r.engine, c.engine)).collect())
        .collect();
    let col = cells
        .iter()
        .flatten()
        .map(String::len)
        .max()
        .unwrap_or(1)
        .max(3);
    write!(
        f,
        "Crosstable {:<width$}",
        "",
        width = width.saturating_sub(5)
    )?;
    for i in 1..=standings.len() {
        write!(f, " {i:>col$}")?;
    }
    writeln!(f)?;
    for (rank, (s, row)) in standings.iter().zip(&cells).enumerate() {
        write!(f, "{:>4} {:<width$}", rank + 1, engines[s.engine])?;
        for c in row {
            write!(f, " {c:>col$}")?;
        }
        writeln!(f)?;
    }
    writeln!(f, "Pairings (from the first engine's view):")?;
    for p in pairings {
        let t = &p.tally;
        let q = &t.penta;
        let elo = elo_pentanomial(q).map_or("n/a".to_string(), |e| {
            format!("{:.1} +/- {:.1}", e.elo + 0.0, e.elo_error)
        });
        writeln!(
            f,
            "{} vs {}: {} games, +{} ={} -{}, Elo (pairs) {elo}, Ptnml(0-2): [{}, {}, {}+{}, {}, \
            {}]",
            p.engines[0],
            p.engines[1],
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            q.ll,
            q.ld,
            q.wl,
            q.dd,
            q.wd,
            q.ww
        )?;
    }
    Ok(())
}
