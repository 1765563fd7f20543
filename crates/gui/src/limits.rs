//! What a page may make a session take (issue 39 §2): an engine option naming a file
//! (`EvalFile`) only names a regular file of a sane size (not a device, a pipe or a
//! directory, which could block or exhaust the engine), `Hash` is capped per session so
//! that every session together stay within the server's budget.

use std::path::Path;

use super::request::echo;
use super::uci::{OptionDecl, OptionKind};

/// Largest file an option may name: the engine reads it whole (a network file of the
/// engine's own is a few MiB).
pub const MAX_OPTION_FILE: u64 = 256 << 20;

/// Whether option `decl` names a file the engine opens: a string option whose name ends
/// in "File" (`EvalFile`, a book file).
pub fn names_a_file(decl: &OptionDecl) -> bool {
    matches!(decl.kind, OptionKind::String { .. })
        && decl.name.to_ascii_lowercase().ends_with("file")
}

/// Whether `value` may be given to a file option: empty (no file), or a path to a regular
/// file (after links) of at most `MAX_OPTION_FILE` bytes. Error: why not, for people.
pub fn check_file(value: &str) -> Result<(), String> {
    if value.is_empty() || value == "<empty>" {
        return Ok(());
    }
    let shown = echo(value);
    let meta = std::fs::metadata(Path::new(value))
        .map_err(|e| format!("'{shown}' cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{shown}' is not a regular file"));
    }
    if meta.len() > MAX_OPTION_FILE {
        return Err(format!(
            "'{shown}' has {} bytes: a file option takes at most {} MiB",
            meta.len(),
            MAX_OPTION_FILE >> 20
        ));
    }
    Ok(())
}

/// The `Hash` option (MB) of one session: at most `cap`, its default too. Any other
/// option is as declared.
pub fn cap_hash(mut decl: OptionDecl, cap: i64) -> OptionDecl {
    if decl.name.eq_ignore_ascii_case("Hash")
        && let OptionKind::Spin { default, min, max } = &mut decl.kind
    {
        *max = (*max).min(cap.max(*min));
        *default = (*default).min(*max);
    }
    decl
}

/// The `setoption` that brings the engine's `Hash` within `cap` when its declared
/// default is over it (the engine starts with its own default); none otherwise.
pub fn hash_over_cap(decl: &OptionDecl, cap: i64) -> Option<String> {
    match (&decl.kind, &cap_hash(decl.clone(), cap).kind) {
        (
            OptionKind::Spin { default, .. },
            OptionKind::Spin {
                default: capped, ..
            },
        ) if capped < default => Some(format!("setoption name {} value {capped}", decl.name)),
        _ => None,
    }
}

/// Each session's `Hash` cap in MB: the budget shared by the most sessions open at once.
pub fn hash_cap(budget_mb: u64, max_sessions: usize) -> i64 {
    let each = budget_mb / (max_sessions.max(1) as u64);
    i64::try_from(each.max(1)).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::parse_option;

    #[test]
    fn a_file_option_takes_only_a_regular_file_of_sane_size() {
        let eval = parse_option("option name EvalFile type string default <empty>").unwrap();
        let other = parse_option("option name Style type string default x").unwrap();
        assert!(names_a_file(&eval) && !names_a_file(&other));
        assert_eq!(check_file(""), Ok(()));
        assert_eq!(check_file("<empty>"), Ok(()));
        for bad in ["/dev/zero", "/dev/stdin", "/", "/nonexistent/quartet.nnue"] {
            assert!(check_file(bad).is_err(), "{bad}");
        }
        let dir = std::env::temp_dir().join(format!("quartet-limits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("small.nnue");
        std::fs::write(&small, b"net").unwrap();
        assert_eq!(check_file(small.to_str().unwrap()), Ok(()));
        // A sparse file past the size: refused without reading it.
        let big = dir.join("big.nnue");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_OPTION_FILE + 1)
            .unwrap();
        let e = check_file(big.to_str().unwrap()).unwrap_err();
        assert!(e.contains("at most 256 MiB"), "{e}");
        // A named pipe (a reader of it would wait for ever).
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert!(check_file(fifo.to_str().unwrap()).is_err());
        }
        // A link to a device is the device.
        let link = dir.join("zero");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(check_file(link.to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hash_is_capped_so_that_every_session_together_stays_in_the_budget() {
        let hash = parse_option("option name Hash type spin default 16 min 1 max 16384").unwrap();
        assert_eq!(hash_cap(2048, 8), 256);
        assert_eq!(hash_cap(2048, 256), 8);
        assert_eq!(hash_cap(1, 256), 1);
        let capped = cap_hash(hash.clone(), 256);
        assert_eq!(
            capped.kind,
            OptionKind::Spin {
                default: 16,
                min: 1,
                max: 256
            }
        );
        assert!(capped.setoption(Some("16384")).is_err());
        assert_eq!(hash_over_cap(&hash, 256), None, "16 is within 256");
        assert_eq!(
            hash_over_cap(&hash, 8).as_deref(),
            Some("setoption name Hash value 8")
        );
        assert!(capped.setoption(Some("256")).is_ok());
        assert_eq!(
            cap_hash(hash, 8).kind,
            OptionKind::Spin {
                default: 8,
                min: 1,
                max: 8
            }
        );
        let threads =
            parse_option("option name Threads type spin default 1 min 1 max 256").unwrap();
        assert_eq!(cap_hash(threads.clone(), 8), threads);
    }
}
