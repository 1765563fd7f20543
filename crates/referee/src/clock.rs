//! Time controls and the two players' clocks.
//!
//! A [`TimeControl`] is what the user asked for (`--tc 10+0.1`, `--movetime`, `--nodes`,
//! `--depth`); a [`Clocks`] value runs it for one game: it writes the limits of each `go`,
//! tells the referee how long to wait for an answer, and charges the time an engine used.
//!
//! The margin is a tolerance, as fastchess's `timemargin`: an engine that answers within
//! its remaining time plus the margin has not lost on time (its clock is then emptied before
//! the increment is added).

use std::fmt;
use std::time::Duration;

use quartet_core::game::Player;

/// The limit each `go` carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A chess clock: `base` per player (again every `moves` moves if set) plus `inc` per
    /// move. Written `[moves/]base+inc` in seconds, e.g. `10+0.1` or `40/60+0`.
    Clock {
        /// Time at the start (and added after every `moves` moves).
        base: Duration,
        /// Time added after every move.
        inc: Duration,
        /// Moves per period (`movestogo`), or `None` for sudden death.
        moves: Option<u32>,
    },
    /// A fixed time per move (`go movetime`).
    MoveTime(Duration),
    /// A node budget per move (`go nodes`): no clock; waiting is bounded by the timeout.
    Nodes(u64),
    /// A depth per move (`go depth`): no clock; waiting is bounded by the timeout.
    Depth(u32),
}

impl TimeControl {
    /// Parses `[moves/]base+inc` (seconds, decimals allowed: `10+0.1`, `0.5+0`, `40/60+0.6`).
    /// The increment may be left out (`60` means `60+0`).
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| format!("time control '{text}': bad move count '{m}'"))?;
                (Some(m), rest)
            }
            None => (None, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = parse_seconds(base).map_err(|e| format!("time control '{text}': base {e}"))?;
        let inc =
            parse_seconds(inc).map_err(|e| format!("time control '{text}': increment {e}"))?;
        if base.is_zero() {
            return Err(format!(
                "time control '{text}': the base time must be positive"
            ));
        }
        Ok(TimeControl::Clock { base, inc, moves })
    }

    /// Whether an engine that answers too late has lost on time (a clock or a move time),
    /// rather than merely stalled (node and depth limits).
    pub fn is_timed(&self) -> bool {
        matches!(self, TimeControl::Clock { .. } | TimeControl::MoveTime(_))
    }
}

/// Reads a non-negative decimal number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        return Err(format!("'{text}' is out of range"));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn fmt_secs(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        format!("{}", d.as_secs_f64())
    }
}

impl fmt::Display for TimeControl {
    /// The PGN `TimeControl` form: `10+0.1`, `40/60+0`, `movetime=100`, `nodes=5000`,
    /// `depth=6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { base, inc, moves } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", fmt_secs(*base), fmt_secs(*inc))
            }
            TimeControl::MoveTime(t) => write!(f, "movetime={}", t.as_millis()),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// The time an engine used beyond what it had: the reason of a time forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overrun {
    /// Time from `go` to `bestmove`.
    pub used: Duration,
    /// Time the engine had (its clock or the move time), without the margin.
    pub allowed: Duration,
}

impl fmt::Display for Overrun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "used {} ms with {} ms left",
            self.used.as_millis(),
            self.allowed.as_millis()
        )
    }
}

/// Both players' clocks during one game, each under its own time control (equal ones in
/// most matches; time odds, or a clock against a node limit, otherwise).
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: [TimeControl; 2],
    margin: Duration,
    left: [Duration; 2],
    moves_left: [u32; 2],
}

impl Clocks {
    /// Fresh clocks for a game in which the first player plays under `tc[0]` and the
    /// second under `tc[1]`, with `margin` of tolerance.
    pub fn new(tc: [TimeControl; 2], margin: Duration) -> Clocks {
        let start = |tc: TimeControl| match tc {
            TimeControl::Clock { base, moves, .. } => (base, moves.unwrap_or(0)),
            _ => (Duration::ZERO, 0),
        };
        let (a, b) = (start(tc[0]), start(tc[1]));
        Clocks {
            tc,
            margin,
            left: [a.0, b.0],
            moves_left: [a.1, b.1],
        }
    }

    /// The time control of `p`.
    pub fn tc(&self, p: Player) -> TimeControl {
        self.tc[p.index()]
    }

    /// Time left on `p`'s clock (zero without a clock).
    pub fn left(&self, p: Player) -> Duration {
        self.left[p.index()]
    }

    /// The limits of a `go` asking `p` (without the word `go`, without `side`): under a
    /// clock `wtime .. btime .. winc .. binc .. [movestogo ..]` (`wtime` is the first
    /// player's clock; an opponent without a clock is left out, as fastchess does),
    /// otherwise `movetime ..`, `nodes ..` or `depth ..`.
    pub fn go_limits(&self, p: Player) -> String {
        match self.tc[p.index()] {
            TimeControl::Clock { moves, .. } => {
                let clock = |i: usize| match self.tc[i] {
                    TimeControl::Clock { inc, .. } => Some((self.left[i].as_millis(), inc)),
                    _ => None,
                };
                let (w, b) = (clock(0), clock(1));
                let mut s = String::new();
                if let Some((left, _)) = w {
                    s.push_str(&format!("wtime {left}"));
                }
                if let Some((left, _)) = b {
                    s.push_str(&format!(" btime {left}"));
                }
                if let Some((_, inc)) = w {
                    s.push_str(&format!(" winc {}", inc.as_millis()));
                }
                if let Some((_, inc)) = b {
                    s.push_str(&format!(" binc {}", inc.as_millis()));
                }
                if moves.is_some() {
                    s.push_str(&format!(" movestogo {}", self.moves_left[p.index()]));
                }
                s.trim_start().to_string()
            }
            TimeControl::MoveTime(t) => format!("movetime {}", t.as_millis()),
            TimeControl::Nodes(n) => format!("nodes {n}"),
            TimeControl::Depth(d) => format!("depth {d}"),
        }
    }

    /// How long after `go` the referee waits for `p`'s answer before it sends `stop`: the
    /// remaining time (or move time) plus the margin; `None` without a clock (the caller
    /// uses its stall timeout).
    pub fn wait_limit(&self, p: Player) -> Option<Duration> {
        match self.tc[p.index()] {
            TimeControl::Clock { .. } => Some(self.left[p.index()] + self.margin),
            TimeControl::MoveTime(t) => Some(t + self.margin),
            TimeControl::Nodes(_) | TimeControl::Depth(_) => None,
        }
    }

    /// Charges `used` to `p` after a move. Fails when `used` exceeds what `p` had plus the
    /// margin; otherwise empties a clock that went below zero, adds the increment and, at
    /// the end of a `movestogo` period, the base time again.
    pub fn spend(&mut self, p: Player, used: Duration) -> Result<(), Overrun> {
        let i = p.index();
        match self.tc[i] {
            TimeControl::Clock { base, inc, moves } => {
                let allowed = self.left[i];
                if used > allowed + self.margin {
                    return Err(Overrun { used, allowed });
                }
                self.left[i] = allowed.saturating_sub(used) + inc;
                if let Some(period) = moves {
                    self.moves_left[i] -= 1;
                    if self.moves_left[i] == 0 {
                        self.moves_left[i] = period;
                        self.left[i] += base;
                    }
                }
                Ok(())
            }
            TimeControl::MoveTime(t) if used > t + self.margin => Err(Overrun { used, allowed: t }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_clock_forms() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1"),
            Ok(TimeControl::Clock {
                base: ms(10_000),
                inc: ms(100),
                moves: None
            })
        );
        assert_eq!(
            TimeControl::parse_clock("40/60+0.6"),
            Ok(TimeControl::Clock {
                base: ms(60_000),
                inc: ms(600),
                moves: Some(40)
            })
        );
        assert_eq!(
            TimeControl::parse_clock("0.5"),
            Ok(TimeControl::Clock {
                base: ms(500),
                inc: ms(0),
                moves: None
            })
        );
        for bad in [
            "", "+1", "x+1", "10+y", "0/10+1", "-1+0", "0+1", "10+nan", "1e99",
        ] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn displays_as_pgn_time_control() {
        let tc = TimeControl::parse_clock("40/60+0.6").unwrap();
        assert_eq!(tc.to_string(), "40/60+0.6");
        assert_eq!(
            TimeControl::parse_clock("10+0").unwrap().to_string(),
            "10+0"
        );
        assert_eq!(TimeControl::MoveTime(ms(250)).to_string(), "movetime=250");
        assert_eq!(TimeControl::Nodes(5000).to_string(), "nodes=5000");
        assert_eq!(TimeControl::Depth(4).to_string(), "depth=4");
    }

    #[test]
    fn go_limits_carry_both_clocks() {
        let tc = TimeControl::parse_clock("1+0.1").unwrap();
        let mut c = Clocks::new([tc; 2], ms(0));
        assert_eq!(
            c.go_limits(Player::First),
            "wtime 1000 btime 1000 winc 100 binc 100"
        );
        c.spend(Player::First, ms(300)).unwrap();
        // 1000 - 300 + 100 increment.
        assert_eq!(
            c.go_limits(Player::Second),
            "wtime 800 btime 1000 winc 100 binc 100"
        );
        assert_eq!(
            Clocks::new([TimeControl::MoveTime(ms(50)); 2], ms(0)).go_limits(Player::First),
            "movetime 50"
        );
        assert_eq!(
            Clocks::new([TimeControl::Depth(3); 2], ms(0)).go_limits(Player::First),
            "depth 3"
        );
    }

    #[test]
    fn margin_tolerates_small_overruns_only() {
        let tc = TimeControl::parse_clock("0.1+0.05").unwrap();
        let mut c = Clocks::new([tc; 2], ms(20));
        assert_eq!(c.wait_limit(Player::First), Some(ms(120)));
        // 115 ms of 100 + 20 margin: no forfeit; the clock is emptied, then +50.
        c.spend(Player::First, ms(115)).unwrap();
        assert_eq!(c.left(Player::First), ms(50));
        // 71 ms of 50 + 20: forfeit.
        assert_eq!(
            c.spend(Player::First, ms(71)),
            Err(Overrun {
                used: ms(71),
                allowed: ms(50)
            })
        );
        assert_eq!(c.left(Player::Second), ms(100));
    }

    #[test]
    fn movestogo_periods_refill_the_clock() {
        let tc = TimeControl::parse_clock("2/1+0").unwrap();
        let mut c = Clocks::new([tc; 2], ms(0));
        assert!(c.go_limits(Player::First).ends_with("movestogo 2"));
        c.spend(Player::First, ms(400)).unwrap();
        assert!(c.go_limits(Player::First).ends_with("movestogo 1"));
        c.spend(Player::First, ms(400)).unwrap();
        // 1000 - 800 + 1000 for the new period.
        assert_eq!(c.left(Player::First), ms(1200));
        assert!(c.go_limits(Player::First).ends_with("movestogo 2"));
    }

    #[test]
    fn movetime_forfeits_beyond_margin_and_limits_do_not() {
        let mut c = Clocks::new([TimeControl::MoveTime(ms(100)); 2], ms(10));
        assert!(c.spend(Player::Second, ms(110)).is_ok());
        assert!(c.spend(Player::Second, ms(111)).is_err());
        let mut n = Clocks::new([TimeControl::Nodes(10); 2], ms(0));
        assert_eq!(n.wait_limit(Player::First), None);
        assert!(n.spend(Player::First, ms(1_000_000)).is_ok());
        assert!(!TimeControl::Depth(1).is_timed());
        assert!(TimeControl::MoveTime(ms(1)).is_timed());
    }

    #[test]
    fn each_player_runs_its_own_control() {
        let fast = TimeControl::parse_clock("1+0.1").unwrap();
        let slow = TimeControl::parse_clock("3+0").unwrap();
        let mut c = Clocks::new([fast, slow], ms(0));
        assert_eq!(
            c.go_limits(Player::Second),
            "wtime 1000 btime 3000 winc 100 binc 0"
        );
        c.spend(Player::Second, ms(500)).unwrap();
        assert_eq!(c.left(Player::Second), ms(2500));
        assert_eq!(c.wait_limit(Player::First), Some(ms(1000)));
        // A clock against a node limit: the engine under the clock sees only its own.
        let c = Clocks::new([TimeControl::Nodes(500), fast], ms(0));
        assert_eq!(c.go_limits(Player::First), "nodes 500");
        assert_eq!(c.go_limits(Player::Second), "btime 1000 binc 100");
        assert_eq!(c.wait_limit(Player::First), None);
        assert_eq!(c.tc(Player::Second), fast);
    }
}
