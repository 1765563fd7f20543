//! The two sides' clocks of a game played with a clock limit: each side's remaining time,
//! charged when that side's decision arrives, plus the increment.

use std::time::{Duration, Instant};

/// Remaining time per side (index 0 the first player) and when each side's current wait
/// began.
#[derive(Debug, Clone)]
pub struct Clocks {
    remaining: [i64; 2],
    inc: i64,
    since: [Option<Instant>; 2],
}

impl Clocks {
    /// Both sides at `base_ms`, with `inc_ms` after each decision.
    pub fn new(base_ms: u64, inc_ms: u64) -> Clocks {
        let base = i64::try_from(base_ms).unwrap_or(i64::MAX);
        Clocks {
            remaining: [base; 2],
            inc: i64::try_from(inc_ms).unwrap_or(0),
            since: [None; 2],
        }
    }

    /// Starts side `i`'s clock at `now` (no effect when it already runs).
    pub fn start(&mut self, i: usize, now: Instant) {
        self.since[i].get_or_insert(now);
    }

    /// Stops side `i`'s clock without a decision (a take-back, a pause).
    pub fn halt(&mut self, i: usize, now: Instant) {
        if let Some(t) = self.since[i].take() {
            self.remaining[i] -= millis(now - t);
        }
    }

    /// Side `i` decided at `now`: its running time is charged and the increment added.
    /// Returns false when its time had run out.
    pub fn decided(&mut self, i: usize, now: Instant) -> bool {
        self.halt(i, now);
        let in_time = self.remaining[i] >= 0;
        self.remaining[i] += self.inc;
        in_time
    }

    /// Side `i`'s remaining milliseconds at `now` (negative: over).
    pub fn left(&self, i: usize, now: Instant) -> i64 {
        self.remaining[i] - self.since[i].map_or(0, |t| millis(now - t))
    }

    /// Whether side `i`'s clock runs.
    pub fn running(&self, i: usize) -> bool {
        self.since[i].is_some()
    }

    /// When side `i`'s time runs out, if its clock runs.
    pub fn flag_at(&self, i: usize) -> Option<Instant> {
        let t = self.since[i]?;
        Some(t + Duration::from_millis(u64::try_from(self.remaining[i].max(0)).unwrap_or(0)))
    }

    /// The increment in milliseconds.
    pub fn inc(&self) -> i64 {
        self.inc
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charged_per_decision_with_increment() {
        let t0 = Instant::now();
        let mut c = Clocks::new(1000, 100);
        c.start(0, t0);
        assert!(c.running(0) && !c.running(1));
        assert_eq!(c.left(0, t0 + Duration::from_millis(300)), 700);
        assert_eq!(c.flag_at(0), Some(t0 + Duration::from_millis(1000)));
        assert!(c.decided(0, t0 + Duration::from_millis(300)));
        assert_eq!(c.left(0, t0 + Duration::from_millis(5000)), 800);
        assert!(!c.running(0));
        assert_eq!(c.flag_at(0), None);
        // Starting twice keeps the first start.
        c.start(1, t0);
        c.start(1, t0 + Duration::from_millis(500));
        assert!(!c.decided(1, t0 + Duration::from_millis(1200)));
        assert_eq!(c.left(1, t0), -100);
        c.start(0, t0);
        c.halt(0, t0 + Duration::from_millis(50));
        assert_eq!(c.left(0, t0), 750);
        assert_eq!(c.inc(), 100);
    }
}
