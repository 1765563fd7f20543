//! Lazy SMP across threads: which iterations a helper thread skips and where it starts a
//! chance node's outcomes and the root's moves, so that the threads work on different
//! lines at once and fill the shared table for each other, and which thread's finished
//! result is played.

use super::searcher::{Searcher, Shared};
use super::tt::TranspositionTable;
use super::{Info, Limits, Root, SearchResult, Settings, search_root};
use quartet_core::eval::Evaluate;
use std::sync::atomic::{AtomicBool, Ordering};

/// [`crate::search`] with `settings.threads` (more than one) threads: helpers search
/// silently by the rules below; the search ends when the main thread has its answer or a
/// helper has finished the last iteration asked for, and the result played is the main
/// thread's or a deeper helper's ([`replaces`]), whose last iteration's lines are then
/// reported.
pub(crate) fn search_threads<G: Evaluate>(
    root: &Root<'_, G>,
    limits: &Limits,
    settings: &Settings,
    tt: &TranspositionTable,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let history = root.history;
    let shared = Shared::default();
    let last = limits.last_depth();
    let done = |shared: &Shared| shared.done.store(true, Ordering::Relaxed);
    let (mut best, helpers) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..settings.threads)
            .map(|thread| {
                let shared = &shared;
                scope.spawn(move || {
                    let mut s =
                        Searcher::new(tt, stop, Some(shared), limits, settings.features, history);
                    s.thread = thread;
                    // The lines of its last finished iteration, reported if it is played.
                    let mut lines: Vec<Info<G::Move>> = Vec::new();
                    let result = search_root(&mut s, root, limits, settings, &mut |info| {
                        if info.multipv == 1 {
                            lines.clear();
                        }
                        lines.push(info.clone());
                    });
                    if result.depth >= last {
                        done(shared);
                    }
                    (result, lines)
                })
            })
            .collect();
        let mut s = Searcher::new(tt, stop, Some(&shared), limits, settings.features, history);
        let result = search_root(&mut s, root, limits, settings, report);
        done(&shared);
        let helpers: Vec<_> = helpers.into_iter().filter_map(|h| h.join().ok()).collect();
        (result, helpers)
    });
    let mut played = None;
    for (i, (result, _)) in helpers.iter().enumerate() {
        if replaces(result, played.map_or(&best, |j: usize| &helpers[j].0), last) {
            played = Some(i);
        }
    }
    if let Some(i) = played {
        let (result, lines) = &helpers[i];
        for info in lines {
            report(info);
        }
        best = SearchResult {
            nodes: best.nodes.max(result.nodes),
            ..result.clone()
        };
    }
    best
}

/// Stockfish 9's pattern of skipped depths (`search.cpp`, `SkipSize` and `SkipPhase`):
/// helper `k` (1-based) uses entry `(k - 1) % 20`, and skips the iterations whose
/// `(depth + phase) / size` is odd. Helper 1 searches the even depths, helper 2 the odd
/// ones, helpers 3 to 6 every other pair of depths with four phases, and so on.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// The phase of each entry of [`SKIP_SIZE`].
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether thread `thread` (0: the main thread, which skips nothing) skips iteration
/// `depth` of a search whose last iteration is `max`. The last iteration is never skipped,
/// so every thread ends with the depth asked for.
pub(crate) fn skips(thread: usize, depth: u32, max: u32) -> bool {
    if thread == 0 || depth >= max {
        return false;
    }
    let i = (thread - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

/// The iterations thread `thread` searches, in order, up to `max`: 1 to `max` without
/// the ones it skips.
pub(crate) fn depths(thread: usize, max: u32) -> impl Iterator<Item = u32> {
    (1..=max).filter(move |&d| !skips(thread, d, max))
}

/// Where thread `thread` starts a list of `n` searches that all have to be made (the
/// outcomes of a chance node, or the root moves after the first): the main thread at the
/// first; helper `k` half-way round, moved on by one for every second helper
/// (`(k * n / 2 + k / 2) % n`). Threads that start apart settle different entries in the
/// shared table at once, and each finds the other's there when it comes to them; threads
/// that start from the same entry search the same lines side by side.
pub(crate) fn start(thread: usize, n: usize) -> usize {
    if thread == 0 || n == 0 {
        0
    } else {
        (thread * n / 2 + thread / 2) % n
    }
}

/// The order in which thread `thread` searches the moves `line..n` of a root's MultiPV
/// line `line`: the line's first move first (it sets the bound the others are searched
/// against), then the others from [`start`] round.
pub(crate) fn root_order(thread: usize, line: usize, n: usize) -> impl Iterator<Item = usize> {
    let rest = n.saturating_sub(line + 1);
    let first = start(thread, rest);
    (line..n.min(line + 1)).chain((0..rest).map(move |i| line + 1 + (first + i) % rest))
}

/// Whether a chance node at `ply` rotates its outcomes by [`start`]: a chance root, and
/// the chance nodes just below a turn root (in a dice game, the rolls after each root
/// move), so that the threads split each root move's outcomes.
pub(crate) fn rotates_outcomes(ply: usize) -> bool {
    ply <= 1
}

/// Whether a helper's `result` replaces `best`, the result played so far (the main
/// thread's, or a helper's that replaced it). A helper that finished the last iteration
/// `max` ended the search with the depth asked for, and its result is played when
/// deeper; otherwise a deeper result is played only when its value is no worse (both are
/// from the root player's view), as Stockfish 9 picks its best thread.
pub(crate) fn replaces<M>(result: &SearchResult<M>, best: &SearchResult<M>, max: u32) -> bool {
    result.depth > best.depth && (result.depth >= max || result.score >= best.score)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(depth: u32, score: i32) -> SearchResult<u8> {
        SearchResult {
            best: None,
            score,
            depth,
            nodes: 0,
            pv: Vec::new(),
            policy: Vec::new(),
        }
    }

    #[test]
    fn the_main_thread_searches_every_depth() {
        assert_eq!(depths(0, 6).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn the_first_two_helpers_split_the_depths_and_both_end_at_the_last() {
        assert_eq!(depths(1, 7).collect::<Vec<_>>(), vec![2, 4, 6, 7]);
        assert_eq!(depths(2, 7).collect::<Vec<_>>(), vec![1, 3, 5, 7]);
    }

    #[test]
    fn the_third_helper_skips_pairs_of_depths() {
        // Entry 2: size 2, phase 0: (d / 2) odd for d = 2, 3, 6, 7.
        assert_eq!(depths(3, 9).collect::<Vec<_>>(), vec![1, 4, 5, 8, 9]);
    }

    #[test]
    fn helpers_start_a_list_apart() {
        assert_eq!(start(0, 6), 0);
        assert_eq!(start(1, 6), 3);
        assert_eq!(start(2, 6), 1);
        assert_eq!(start(3, 6), 4);
        assert_eq!(start(1, 1), 0);
        assert_eq!(start(1, 0), 0);
    }

    #[test]
    fn a_helper_searches_the_first_root_move_first_then_the_others_from_half_way() {
        let order = |thread, line, n| root_order(thread, line, n).collect::<Vec<_>>();
        assert_eq!(order(0, 0, 5), vec![0, 1, 2, 3, 4]);
        assert_eq!(order(1, 0, 5), vec![0, 3, 4, 1, 2]);
        assert_eq!(order(1, 2, 7), vec![2, 5, 6, 3, 4]);
        assert_eq!(order(1, 0, 1), vec![0]);
        assert_eq!(order(1, 0, 2), vec![0, 1]);
        assert_eq!(order(1, 3, 3), Vec::<usize>::new());
    }

    #[test]
    fn a_deeper_result_replaces_only_when_no_worse_or_finished() {
        let best = result(9, 30);
        assert!(
            !replaces(&result(9, 100), &best, 20),
            "as deep is not deeper"
        );
        assert!(!replaces(&result(10, 29), &best, 20), "deeper but worse");
        assert!(replaces(&result(10, 30), &best, 20));
        assert!(
            replaces(&result(10, -500), &best, 10),
            "it finished the last depth"
        );
        assert!(!replaces(&result(8, 500), &best, 20), "shallower");
    }
}
