//! The clock readings of a game's main line, as records carry them (`[%clk ...]` after a
//! token: the mover's time left after its decision), for the page's move-time chart: each
//! side's reading noted when its decision is charged, given to the token it is played
//! with (a joint turn's two), and a loaded record's own readings and time control.
//! No I/O.

use serde_json::{Value, json};

/// A game's clock readings; see the module doc.
#[derive(Debug, Clone, Default)]
pub struct ClockLog {
    /// The readings after each token of the main line (milliseconds left; the first
    /// player's then the second's after a joint turn; none after a roll or without a clock).
    readings: Vec<Vec<u64>>,
    /// Each side's reading since its last decision, until its token is played.
    pending: [Option<u64>; 2],
    /// The clock's start and increment (milliseconds), when known.
    control: Option<(u64, u64)>,
}

impl ClockLog {
    /// A new game's log, under the clock `control` (start, increment) or none.
    pub fn new(control: Option<(u64, u64)>) -> ClockLog {
        ClockLog {
            control,
            ..ClockLog::default()
        }
    }

    /// A loaded record's readings, under its time control (`TimeControl`'s `base+inc` in
    /// seconds, as the referee writes it, when it has one).
    pub fn loaded(readings: Vec<Vec<u64>>, time_control: Option<&str>) -> ClockLog {
        let control = time_control.and_then(|tc| {
            let (base, inc) = tc.split_once('+')?;
            let ms = |s: &str| {
                s.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && (0.0..1e9).contains(v))
            };
            Some(((ms(base)? * 1000.0) as u64, (ms(inc)? * 1000.0) as u64))
        });
        ClockLog {
            readings,
            pending: [None; 2],
            control,
        }
    }

    /// Side `index` decided with `left` milliseconds on its clock (after the increment).
    pub fn decided(&mut self, index: usize, left: i64) {
        self.pending[index] = Some(u64::try_from(left).unwrap_or(0));
    }

    /// The token after `ply` tokens was played: it takes the readings noted since.
    pub fn played(&mut self, ply: usize) {
        self.readings.truncate(ply);
        self.readings.resize(ply, Vec::new());
        let noted = std::mem::take(&mut self.pending);
        self.readings.push(noted.into_iter().flatten().collect());
    }

    /// A token noted by `played` was taken back (the engine refused it).
    pub fn unplayed(&mut self, ply: usize) {
        self.readings.truncate(ply);
    }

    /// Decisions noted but not played are forgotten (a take back, a new line).
    pub fn forget_pending(&mut self) {
        self.pending = [None; 2];
    }

    /// The readings of a main line of `plies` tokens (those past it are another line's).
    pub fn readings(&self, plies: usize) -> &[Vec<u64>] {
        &self.readings[..plies.min(self.readings.len())]
    }

    /// The state's `clk`: the readings per token and the control, null without readings.
    pub fn json(&self, plies: usize) -> Value {
        let readings = self.readings(plies);
        if readings.iter().all(Vec::is_empty) {
            return Value::Null;
        }
        json!({
            "readings": readings,
            "base_ms": self.control.map(|c| c.0),
            "inc_ms": self.control.map(|c| c.1),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_go_to_the_token_played_and_a_new_line_forgets_the_old_ones() {
        let mut log = ClockLog::new(Some((60_000, 1_000)));
        assert_eq!(log.json(0), Value::Null);
        log.decided(0, 59_500);
        log.played(0);
        // A roll: no reading.
        log.played(1);
        // A joint turn: both sides', the first player's first whoever declared first.
        log.decided(1, 58_000);
        log.decided(0, -20);
        log.played(2);
        assert_eq!(log.readings(3), [vec![59_500], vec![], vec![0, 58_000]]);
        assert_eq!(
            log.json(3),
            json!({"readings": [[59_500], [], [0, 58_000]], "base_ms": 60_000, "inc_ms": 1_000})
        );
        // A take back to one token and another move: the old readings past it go.
        assert_eq!(log.readings(1), [vec![59_500]]);
        log.decided(1, 50_000);
        log.forget_pending();
        log.played(1);
        assert_eq!(log.readings(5), [vec![59_500], vec![]]);
        log.unplayed(1);
        assert_eq!(log.readings(5), [vec![59_500]]);
    }

    #[test]
    fn a_loaded_record_brings_its_readings_and_time_control() {
        let log = ClockLog::loaded(vec![vec![9_000]], Some("10+0.5"));
        assert_eq!(log.json(1)["base_ms"], json!(10_000));
        assert_eq!(log.json(1)["inc_ms"], json!(500));
        for tc in [None, Some("movetime=100"), Some("x+1"), Some("1e300+0")] {
            assert_eq!(
                ClockLog::loaded(vec![vec![1]], tc).json(1)["base_ms"],
                Value::Null
            );
        }
    }
}
