//! `quartet bench`: a fixed set of positions per game searched to a fixed depth (the total
//! node count is a deterministic signature of the search), the search speed, the depth
//! reached in one second from the start, and perft leaves per second with bulk counting.

use crate::eval::Evaluate;
use crate::game::RuleOptions;
use crate::games::{GameKind, GameVisitor};
use crate::notation::Notation;
use crate::perft;
use crate::search::time::Budget;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Settings, search};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What `bench` runs for one game.
#[derive(Clone, Copy)]
pub struct BenchSpec {
    /// The game.
    pub game: GameKind,
    /// The search depth of each position.
    pub depth: u32,
    /// Perft depth from the start position.
    pub perft_depth: u32,
    /// The positions searched (middle games from tests/data/<game>.perft, and the start).
    pub positions: &'static [&'static str],
}

/// The bench of every game.
pub const SPECS: [BenchSpec; 4] = [
    BenchSpec {
        game: GameKind::Rnb,
        depth: 7,
        perft_depth: 6,
        positions: &[
            "2k3/6/6/6/6/3K2 s 4444 0",
            "b1kbbr/r2br1/6/6/R1BB2/B1RKRB s 1010 0",
            "1bkr1b/rr1bbr/6/6/BRRB1R/1R1KBB s 0000 0",
            "bbkbr1/1rrbr1/6/B5/R1B1RR/1RBKB1 n 0000 1",
            "1rkrr1/bb1b1b/6/2Kr2/B2BRB/RB2RR s 0000 4",
            "b2br1/rbk1br/rB4/6/1R2RB/1BRKBR n 0000 7",
        ],
    },
    BenchSpec {
        game: GameKind::Apocalypse,
        depth: 2,
        perft_depth: 3,
        positions: &[
            "npppn/p3p/5/P3P/NPPPN 00 0",
            "npppn/p4/4P/P2pP/NPP1N 00 2",
            "1p1pn/p1p2/PNP1p/4P/1P2N 00 2",
            "2np1/p3p/pN3/1nP1P/N2P1 00 3",
            "1n2n/P1p2/5/4p/N3N 00 0",
        ],
    },
    BenchSpec {
        game: GameKind::Duell,
        depth: 7,
        perft_depth: 5,
        positions: &[
            "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1",
            "B53B13B23B63BK1B23B13B53/9/9/7W641/3B135/9/9/W54W14W24W64WKW64W24W141 w 2 2",
            "1W622BKB63B231B53/1B627/2W266/6B512/9/7W131/5W313/1W14W241WK2W141 b 0 8",
            "4BK2B131/5B311B121/3W245/6W532/1B637/3B46W124/9/W543WK1W24W141 w 4 12",
            "1W311BK3B131/9/9/5B653/1B147/9/5B643/W541W244WK1 b 1 18",
        ],
    },
    BenchSpec {
        game: GameKind::Ludo,
        depth: 4,
        perft_depth: 16,
        positions: &[
            "b,b,b,b/b,b,b,b r - 0",
            "b,b,22,23/b,b,5,42 y - 0",
            "b,19,27,31/b,16,25,36 r - 0",
            "0,19,38,56/1,11,21,56 r - 0",
            "3,25,46,56/17,30,50,55 r - 0",
        ],
    },
];

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

/// Runs `spec` (with the depth overridden if given); `timed` adds the one-second search.
/// Fails if a bench position does not parse (a bug in the table above).
pub fn run(spec: &BenchSpec, depth: Option<u32>, timed: bool) -> Result<BenchResult, String> {
    spec.game.visit(Run {
        spec,
        depth: depth.unwrap_or(spec.depth),
        timed,
    })
}

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
        let started = Instant::now();
        for text in self.spec.positions {
            let pos = G::parse_position(text, &rules).map_err(|e| e.to_string())?;
            // A fresh table per position keeps the signature independent of the order.
            let tt = TranspositionTable::new(16)?;
            let limits = Limits {
                depth: Some(self.depth),
                ..Limits::default()
            };
            let settings = Settings {
                side: Some(crate::game::Player::First),
                ..Settings::default()
            };
            nodes += search(&pos, &[], &limits, &settings, &tt, &stop, &mut |_| {}).nodes;
        }
        let search_time = started.elapsed();
        let start = G::start(&rules);
        let started = Instant::now();
        let perft_leaves = perft::perft(&start, self.spec.perft_depth);
        let perft_time = started.elapsed();
        let depth_in_one_second = self.timed.then(|| {
            let tt = TranspositionTable::new(16).ok();
            tt.map_or(0, |tt| one_second_depth(&start, &tt, &stop))
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
        time: Some(Budget {
            soft: second * 2,
            hard: second,
        }),
        ..Limits::default()
    };
    let settings = Settings {
        side: Some(crate::game::Player::First),
        ..Settings::default()
    };
    search(start, &[], &limits, &settings, tt, stop, &mut |_| {}).depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_signature_is_deterministic() {
        for spec in &SPECS {
            let spec = &BenchSpec {
                perft_depth: 2,
                ..*spec
            };
            let a = run(spec, Some(2), false).expect("bench positions parse");
            let b = run(spec, Some(2), false).expect("bench positions parse");
            assert_eq!(a.nodes, b.nodes, "{}", spec.game.name());
            assert!(a.nodes > 0);
            // Perft 2 from the start, as tests/data/<game>.perft derives it: Duell 1293
            // (the rules' W1), R&B 22 · 22 placements, Apocalypse 18285 (the independent
            // reference), Ludo 6 (six rolls, then one move each).
            let expected = match spec.game {
                GameKind::Duell => 1293,
                GameKind::Rnb => 22 * 22,
                GameKind::Apocalypse => 18_285,
                GameKind::Ludo => 6,
            };
            assert_eq!(a.perft_leaves, expected, "{}", spec.game.name());
        }
    }
}
