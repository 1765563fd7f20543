//! Who plays whom: the pairings of a tournament of any number of engines.
//!
//! A two-engine match has one pairing. With more engines, `round-robin` pairs every engine
//! with every other, and `gauntlet` the first engine with each of the others. The schedule
//! plays the pairings round by round: every round gives each pairing one pair of games
//! (colours swapped) from the round's opening, with the round's dice.

use std::fmt;

/// The form of a tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Tournament {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    /// The pairings of `engines` engines, as indices `[a, b]` with `a < b` (in the first
    /// game of each pair `a` is the first player): round robin `(0,1) (0,2) .. (1,2) ..`,
    /// gauntlet `(0,1) (0,2) ..`.
    pub fn pairings(self, engines: usize) -> Vec<[usize; 2]> {
        match self {
            Tournament::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| [a, b]))
                .collect(),
            Tournament::Gauntlet => (1..engines).map(|b| [0, b]).collect(),
        }
    }

    /// The name of the form of a tournament of `engines` engines: `match` for two
    /// engines (both forms are one pairing), else `round-robin` or `gauntlet`.
    pub fn name(self, engines: usize) -> &'static str {
        match (engines, self) {
            (0..=2, _) => "match",
            (_, Tournament::RoundRobin) => "round-robin",
            (_, Tournament::Gauntlet) => "gauntlet",
        }
    }
}

impl fmt::Display for Tournament {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name(3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_of_each_form() {
        assert_eq!(Tournament::RoundRobin.pairings(2), [[0, 1]]);
        assert_eq!(Tournament::Gauntlet.pairings(2), [[0, 1]]);
        assert_eq!(
            Tournament::RoundRobin.pairings(4),
            [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
        );
        assert_eq!(Tournament::Gauntlet.pairings(4), [[0, 1], [0, 2], [0, 3]]);
        assert_eq!(Tournament::RoundRobin.name(2), "match");
        assert_eq!(Tournament::Gauntlet.name(5), "gauntlet");
    }
}
