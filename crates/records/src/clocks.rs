//! Clock readings in comments: `[%clk h:mm:ss]`, with tenths when not whole
//! (`[%clk 0:04:59.5]`), as lichess and the referee write them; the two halves of a joint
//! turn's comment are separated by ` / ` as in its token.

/// A clock reading (milliseconds left) as `[%clk ...]` writes it: `h:mm:ss`, with tenths
/// when not whole (`299_500` is `0:04:59.5`; hundredths are dropped).
pub fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    let whole = format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    match ms % 1000 / 100 {
        0 => whole,
        tenths => format!("{whole}.{tenths}"),
    }
}

/// The comment of a token whose only note is its clock readings (one, or the two halves of
/// a joint turn): `[%clk 0:00:59] / [%clk 0:01:01.2]`, or `None` for no readings.
pub fn clock_comment(readings: &[u64]) -> Option<String> {
    let clk: Vec<String> = readings
        .iter()
        .map(|&ms| format!("[%clk {}]", clock_text(ms)))
        .collect();
    (!clk.is_empty()).then(|| clk.join(" / "))
}

/// The `[%clk h:mm:ss(.f)]` readings of a comment's text, in milliseconds, in order
/// (readings that do not parse are left out).
pub fn clock_readings(comment: &str) -> Vec<u64> {
    comment
        .split("[%clk")
        .skip(1)
        .filter_map(|rest| {
            let (time, _) = rest.split_once(']')?;
            let mut parts = time.trim().split(':');
            let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
            if parts.next().is_some() {
                return None;
            }
            let (h, m): (u64, u64) = (h.parse().ok()?, m.parse().ok().filter(|m| *m < 60)?);
            let s: f64 = s.parse().ok().filter(|s: &f64| (0.0..60.0).contains(s))?;
            let ms = (h.checked_mul(3600)?.checked_add(m * 60)? as f64 + s) * 1000.0;
            (ms < 1e15).then(|| ms.round() as u64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_as_text_and_back() {
        assert_eq!(clock_text(9_250), "0:00:09.2");
        assert_eq!(clock_text(3_600_000), "1:00:00");
        assert_eq!(
            clock_readings("[%clk 0:00:09.25] [%clk 1:2:3]"),
            [9_250, 3_723_000]
        );
        // Not readings: a bad number, minutes or seconds past 59 (minutes that would
        // overflow when multiplied too), a fourth part.
        assert!(clock_readings("[%clk 0:1000000000000000000:00]").is_empty());
        assert!(clock_readings("[%clk x] [%clk 0:61:00] [%clk 0:00:60] [%clk 1:2:3:4]").is_empty());
        assert_eq!(
            clock_comment(&[59_000, 61_250]).as_deref(),
            Some("[%clk 0:00:59] / [%clk 0:01:01.2]")
        );
        assert_eq!(clock_comment(&[]), None);
    }
}
