//! Zobrist key tables, generated at compile time from a game's fixed seed with SplitMix64,
//! so that hashes are the same in every run and nothing is initialised at run time. Each
//! function draws its keys in index order from `state` and advances it, so a game that
//! draws its tables one after the other from one state gets distinct, reproducible keys.

use quartet_core::splitmix::splitmix64;

/// `N` keys, drawn in index order.
pub const fn keys<const N: usize>(state: &mut u64) -> [u64; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix64(state);
        i += 1;
    }
    out
}

/// `N` keys of which index 0 is 0 (the value that contributes nothing to a hash: an empty
/// square, no pending die, a zero counter); indices `1..N` are drawn in order.
pub const fn keys_but_zero<const N: usize>(state: &mut u64) -> [u64; N] {
    let mut out = [0; N];
    let mut i = 1;
    while i < N {
        out[i] = splitmix64(state);
        i += 1;
    }
    out
}

/// An `R` × `C` table of keys, drawn row by row.
pub const fn table<const R: usize, const C: usize>(state: &mut u64) -> [[u64; C]; R] {
    let mut out = [[0; C]; R];
    let mut r = 0;
    while r < R {
        out[r] = keys(state);
        r += 1;
    }
    out
}

/// Whether `keys` are all non-zero and pairwise distinct (what a game's key test checks).
#[cfg(test)]
pub fn distinct_and_nonzero(keys: impl IntoIterator<Item = u64>) -> bool {
    let mut seen = std::collections::HashSet::new();
    keys.into_iter().all(|k| k != 0 && seen.insert(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_draw_the_splitmix_sequence_in_index_order() {
        let mut a = 7;
        let t: [[u64; 3]; 2] = table(&mut a);
        let mut b = 7;
        let flat: [u64; 6] = keys(&mut b);
        assert_eq!(t.concat(), flat);
        assert_eq!(a, b, "both advanced the state by six draws");
    }

    #[test]
    fn keys_but_zero_leave_index_zero_empty_and_draw_one_fewer() {
        let mut a = 7;
        let k: [u64; 4] = keys_but_zero(&mut a);
        let mut b = 7;
        let drawn: [u64; 3] = keys(&mut b);
        assert_eq!(k, [0, drawn[0], drawn[1], drawn[2]]);
        assert_eq!(a, b);
    }

    #[test]
    fn a_repeated_or_zero_key_is_caught() {
        assert!(distinct_and_nonzero([1, 2, 3]));
        assert!(!distinct_and_nonzero([1, 2, 1]));
        assert!(!distinct_and_nonzero([0, 2]));
    }
}
