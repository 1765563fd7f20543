//! Dates for records (the `Date` tag, `YYYY.MM.DD`), times for logs, and the machine's
//! name for the `Site` tag, without a date library: the civil date of a day count is
//! Howard Hinnant's `civil_from_days` (proleptic Gregorian calendar, UTC).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, now.
pub fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_millis() as u64
}

/// The civil date (year, month 1–12, day 1–31) of day `days` since 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The PGN date (`YYYY.MM.DD`, UTC) of `unix_ms`.
pub fn pgn_date(unix_ms: u64) -> String {
    let (y, m, d) = civil_from_days((unix_ms / 86_400_000) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The ISO 8601 UTC time (`2026-12-05T21:38:02.084Z`) of `unix_ms`.
pub fn iso_time(unix_ms: u64) -> String {
    let (y, m, d) = civil_from_days((unix_ms / 86_400_000) as i64);
    let ms = unix_ms % 86_400_000;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// A clock reading as `[%clk h:mm:ss]` writes it (whole seconds, rounded down).
pub fn clock(left: Duration) -> String {
    let s = left.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The machine's name (the kernel's host name), or `?`.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_of_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000-02-29 is day 11016 (30 years of 365 days and 7 leap days, then 59 days).
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        // 2026-12-05: 56 years (14 leap days: 1972..2024) and 338 days.
        assert_eq!(civil_from_days(56 * 365 + 14 + 338), (2026, 12, 5));
        assert_eq!(pgn_date(86_400_000 * 11_016 + 5), "2000.02.29");
        assert_eq!(iso_time(86_400_000 + 3_723_004), "1970-01-02T01:02:03.004Z");
        assert_eq!(clock(Duration::from_millis(3_725_900)), "1:02:05");
        assert_eq!(clock(Duration::from_millis(9_999)), "0:00:09");
    }
}
