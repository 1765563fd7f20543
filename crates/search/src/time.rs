//! Time management: how long one search may take, from the `go` limits.
//!
//! A search gets a *soft* budget (do not start another iteration after about half of it:
//! the next iteration usually costs more than all earlier ones together) and a *hard*
//! deadline (abort mid-iteration). Both leave `Move Overhead` untouched for the GUI and
//! the pipe, so the engine never loses on time through its own fault.

use std::time::Duration;

/// The clock of the side asked to move, as `go` gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock in milliseconds (negative values, which some GUIs send,
    /// count as 0).
    pub time_ms: i64,
    /// Increment per move in milliseconds.
    pub inc_ms: i64,
    /// Moves until the next time control, if the control is not sudden death.
    pub moves_to_go: Option<u32>,
}

/// The time a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration once this much has passed.
    pub soft: Duration,
    /// Stop the search when this much has passed.
    pub hard: Duration,
    /// Use the time to the hard deadline: start iterations until then (`movetime`, which
    /// asks for exactly that long), instead of stopping after half the soft budget.
    pub to_deadline: bool,
}

impl TimeBudget {
    /// What is left of this budget once `spent` has passed (at least 1 ms of each).
    pub fn after(self, spent: Duration) -> TimeBudget {
        let floor = Duration::from_millis(1);
        TimeBudget {
            soft: self.soft.saturating_sub(spent).max(floor),
            hard: self.hard.saturating_sub(spent).max(floor),
            to_deadline: self.to_deadline,
        }
    }

    /// The time a player without iterations (a baseline) aims at: the deadline of a
    /// `movetime`, the soft budget on a clock.
    pub fn target(self) -> Duration {
        if self.to_deadline {
            self.hard
        } else {
            self.soft
        }
    }
}

/// The share of the remaining time a search may use when no `movestogo` is given: the
/// engine plans for this many more moves.
const DEFAULT_MOVES_TO_GO: i64 = 30;

/// Never plan for more than this many moves (a long `movestogo` would starve the clock's
/// reserve for nothing).
const MAX_MOVES_TO_GO: i64 = 50;

/// The budget for a fixed `movetime`: all of it but the overhead (at least 1 ms), used to
/// the deadline.
pub fn movetime_budget(movetime_ms: u64, overhead_ms: u64) -> TimeBudget {
    let ms = movetime_ms.saturating_sub(overhead_ms).max(1);
    let d = Duration::from_millis(ms);
    TimeBudget {
        soft: d,
        hard: d,
        to_deadline: true,
    }
}

/// The most of the remaining clock one move may take: four fifths, less the overhead.
const MOVE_CAP_NUMERATOR: i64 = 4;
/// See [`MOVE_CAP_NUMERATOR`].
const MOVE_CAP_DENOMINATOR: i64 = 5;

/// The budget for playing on a clock.
///
/// The base share is `time / moves_to_go + 3/4 · inc` (with the overhead, counted once per
/// remaining move of the control up to 10, kept back from `time`); the soft budget is that
/// share and the hard deadline three times it. Neither exceeds four fifths of the clock
/// less the overhead, whatever `movestogo` or the increment say, nor (in sudden death) a
/// fifth of the usable time plus the increment.
pub fn clock_budget(clock: Clock, overhead_ms: u64) -> TimeBudget {
    let time = clock.time_ms.max(0);
    let inc = clock.inc_ms.max(0);
    let mtg = clock.moves_to_go.map_or(DEFAULT_MOVES_TO_GO, |m| {
        i64::from(m).clamp(1, MAX_MOVES_TO_GO)
    });
    let overhead = overhead_ms.min(i64::MAX as u64) as i64;
    let reserve = overhead.saturating_mul(mtg.min(10));
    let usable = time.saturating_sub(reserve).max(0);
    let share = (usable / mtg).saturating_add(inc / 4 * 3 + inc % 4 * 3 / 4);
    // The hard limit may not take more than four fifths of the clock less one overhead,
    // nor more than a fifth of it in sudden death (a long search late in the game is bad).
    let cap = (time / MOVE_CAP_DENOMINATOR * MOVE_CAP_NUMERATOR
        + time % MOVE_CAP_DENOMINATOR * MOVE_CAP_NUMERATOR / MOVE_CAP_DENOMINATOR)
        .saturating_sub(overhead)
        .max(1);
    let cap = if clock.moves_to_go == Some(1) {
        cap
    } else {
        cap.min((usable / 5).saturating_add(inc)).max(1)
    };
    let soft = share.clamp(1, cap);
    let hard = share.saturating_mul(3).clamp(1, cap);
    TimeBudget {
        soft: Duration::from_millis(soft as u64),
        hard: Duration::from_millis(hard as u64),
        to_deadline: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_after_some_time_keeps_the_rest_and_at_least_1_ms() {
        let ms = Duration::from_millis;
        let b = TimeBudget {
            soft: ms(50),
            hard: ms(90),
            to_deadline: false,
        };
        assert_eq!(
            b.after(ms(20)),
            TimeBudget {
                soft: ms(30),
                hard: ms(70),
                to_deadline: false,
            }
        );
        assert_eq!(
            b.after(ms(60)),
            TimeBudget {
                soft: ms(1),
                hard: ms(30),
                to_deadline: false,
            }
        );
        assert_eq!(b.after(ms(500)).hard, ms(1));
    }

    fn ms(d: Duration) -> u128 {
        d.as_millis()
    }

    #[test]
    fn movetime_keeps_the_overhead() {
        let b = movetime_budget(1000, 10);
        assert_eq!((ms(b.soft), ms(b.hard)), (990, 990));
        assert!(b.to_deadline, "movetime is used to its end");
        assert_eq!(b.target(), Duration::from_millis(990));
        assert_eq!(ms(movetime_budget(5, 10).hard), 1);
    }

    #[test]
    fn sudden_death_spends_a_thirtieth_plus_most_of_the_increment() {
        // 60 s + 1 s, overhead 10 ms: reserve 100 ms, usable 59 900 ms,
        // share 59 900 / 30 + 750 = 1 996 + 750 = 2 746 ms; hard 3 × = 8 238 ms,
        // under the cap 59 900 / 5 + 1 000 = 12 980 ms.
        let b = clock_budget(
            Clock {
                time_ms: 60_000,
                inc_ms: 1_000,
                moves_to_go: None,
            },
            10,
        );
        assert_eq!((ms(b.soft), ms(b.hard)), (2_746, 8_238));
    }

    #[test]
    fn last_move_before_the_control_may_use_nearly_everything() {
        let b = clock_budget(
            Clock {
                time_ms: 5_000,
                inc_ms: 0,
                moves_to_go: Some(1),
            },
            50,
        );
        // reserve 50, usable 4 950, share 4 950; but the cap is 4/5 · 5 000 − 50 = 3 950.
        assert_eq!((ms(b.soft), ms(b.hard)), (3_950, 3_950));
    }

    #[test]
    fn never_exceeds_four_fifths_of_the_clock_minus_overhead() {
        for time in [0i64, 1, 5, 20, 100, 1_000, 10_000] {
            for inc in [0i64, 10, 100, 5_000] {
                for mtg in [None, Some(1), Some(2), Some(40), Some(u32::MAX)] {
                    let clock = Clock {
                        time_ms: time,
                        inc_ms: inc,
                        moves_to_go: mtg,
                    };
                    let b = clock_budget(clock, 30);
                    assert!(b.soft <= b.hard);
                    let limit = (time * 4 / 5 - 30).max(1) as u128;
                    assert!(ms(b.hard) <= limit, "{clock:?}: {b:?}");
                }
            }
        }
    }

    #[test]
    fn negative_clock_counts_as_zero() {
        let b = clock_budget(
            Clock {
                time_ms: -500,
                inc_ms: 0,
                moves_to_go: None,
            },
            10,
        );
        assert_eq!(ms(b.hard), 1);
    }
}
