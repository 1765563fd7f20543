//! The bench: a fixed set of positions per game (each game declares its own
//! [`BenchSpec`]) searched to a fixed depth (the total node count is a deterministic
//! signature of the search), the search speed, the depth reached in one second from the
//! start, and perft leaves per second with bulk counting. `quartet bench` prints it.

use quartet_core::declaration::BenchSpec;
use quartet_core::eval::Evaluate;
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_core::perft;
use quartet_games::{GameKind, GameVisitor};
use quartet_search::time::TimeBudget;
use quartet_search::tt::TranspositionTable;
use quartet_search::{Limits, Root, Settings, search};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One game's bench results.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes of the fixed-depth searches (the signature).
    pub nodes: u64,
    /// Time of the fixed-depth searches.
    pub search_time: Duration,
    /// Leaves of the perft from the start.
    pub perft_leaves: u64,
    /// Time of the perft.
    pub perft_time: Duration,
    /// The depth completed in one second from the start position (`None` if not timed).
    pub depth_in_one_second: Option<u32>,
}

/// Runs the bench of `game` (its declaration's [`BenchSpec`], with the depth overridden
/// if given); `timed` adds the one-second search. Fails if a bench position does not parse
/// (a bug in the declaration).
pub fn run(game: GameKind, depth: Option<u32>, timed: bool) -> Result<BenchResult, String> {
    let spec = &game.declaration().bench;
    game.visit(Run {
        spec,
        depth: depth.unwrap_or(spec.depth),
        timed,
    })
}

/// The bench's hash table in MiB (the default `Hash`).
const BENCH_HASH_MB: usize = 16;

struct Run<'a> {
    spec: &'a BenchSpec,
    depth: u32,
    timed: bool,
}

impl GameVisitor for Run<'_> {
    type Output = Result<BenchResult, String>;

    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let rules = RuleOptions::default();
        let stop = AtomicBool::new(false);
        let mut nodes = 0;
        // One table for every search, emptied before each (as a fresh one is), so that the
        // signature does not depend on the order and the time is the searches', not the
        // allocation's: zeroing 16 MiB is most of a bench of a few thousand nodes.
        let tt = TranspositionTable::new(BENCH_HASH_MB)?;
        let started = Instant::now();
        for text in self.spec.positions {
            let pos = G::parse_position(text, &rules).map_err(|e| e.to_string())?;
            tt.clear();
            let limits = Limits {
                depth: Some(self.depth),
                ..Limits::default()
            };
            let settings = Settings {
                side: Some(quartet_core::game::Player::First),
                ..Settings::default()
            };
            nodes += search(&Root::of(&pos), &limits, &settings, &tt, &stop, &mut |_| {}).nodes;
        }
        let search_time = started.elapsed();
        let start = G::start(&rules);
        let started = Instant::now();
        let perft_leaves = perft::perft(&start, self.spec.perft_depth);
        let perft_time = started.elapsed();
        let depth_in_one_second = self.timed.then(|| {
            tt.clear();
            one_second_depth(&start, &tt, &stop)
        });
        Ok(BenchResult {
            nodes,
            search_time,
            perft_leaves,
            perft_time,
            depth_in_one_second,
        })
    }
}

fn one_second_depth<G: Evaluate>(start: &G, tt: &TranspositionTable, stop: &AtomicBool) -> u32 {
    let second = Duration::from_secs(1);
    let limits = Limits {
        time: Some(TimeBudget {
            soft: second,
            hard: second,
            to_deadline: true,
        }),
        ..Limits::default()
    };
    let settings = Settings {
        side: Some(quartet_core::game::Player::First),
        ..Settings::default()
    };
    search(&Root::of(start), &limits, &settings, tt, stop, &mut |_| {}).depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_signature_is_deterministic() {
        for &game in GameKind::ALL {
            let a = run(game, Some(2), false).expect("bench positions parse");
            let b = run(game, Some(2), false).expect("bench positions parse");
            assert_eq!(a.nodes, b.nodes, "{}", game.name());
            assert!(a.nodes > 0);
        }
    }
}
