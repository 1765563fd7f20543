//! How far a match got: the finished games, the pairs half played and each output file's
//! length after the last finished game, kept in the results file so that `--resume`
//! (`resume.rs`) can go on from it.

use serde::{Deserialize, Serialize};

use super::stats::GameScore;

/// How far a match got, in its results file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResumeState {
    /// The finished games' numbers (from 0), as inclusive ranges `[first, last]`, sorted.
    pub done: Vec<[u64; 2]>,
    /// Pairs with one game finished: the pair and that game's score for the pairing's first
    /// engine.
    pub pending: Vec<(u64, GameScore)>,
    /// The records file and its length after the last finished game.
    pub pgnout: Option<OutputMark>,
    /// The JSON lines file and its length after the last finished game.
    pub jsonl: Option<OutputMark>,
    /// How many times the match was started or resumed.
    pub sessions: u32,
}

/// An output file and its length after the last finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputMark {
    /// The path as given on the command line.
    pub path: String,
    /// Its length in bytes.
    pub bytes: u64,
}

impl ResumeState {
    /// Counts game `index` as finished.
    pub fn add_done(&mut self, index: u64) {
        let at = self.done.partition_point(|r| r[1] < index);
        if self.done.get(at).is_some_and(|r| r[0] <= index) {
            return;
        }
        let joins_before = at > 0 && self.done[at - 1][1] + 1 == index;
        let joins_after = self.done.get(at).is_some_and(|r| r[0] == index + 1);
        match (joins_before, joins_after) {
            (true, true) => {
                self.done[at - 1][1] = self.done[at][1];
                self.done.remove(at);
            }
            (true, false) => self.done[at - 1][1] = index,
            (false, true) => self.done[at][0] = index,
            (false, false) => self.done.insert(at, [index, index]),
        }
    }

    /// Whether game `index` is finished.
    pub fn is_done(&self, index: u64) -> bool {
        let at = self.done.partition_point(|r| r[1] < index);
        self.done.get(at).is_some_and(|r| r[0] <= index)
    }

    /// How many games are finished.
    pub fn done_count(&self) -> u64 {
        self.done.iter().map(|r| r[1] - r[0] + 1).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn done_ranges_merge_and_answer() {
        let mut s = ResumeState::default();
        for i in [3, 1, 2, 7, 5, 6, 0, 2] {
            s.add_done(i);
        }
        assert_eq!(s.done, [[0, 3], [5, 7]]);
        assert_eq!(s.done_count(), 7);
        assert!(s.is_done(0) && s.is_done(6) && !s.is_done(4) && !s.is_done(8));
        s.add_done(4);
        assert_eq!(s.done, [[0, 7]]);
        s.add_done(10);
        s.add_done(9);
        assert_eq!(s.done, [[0, 7], [9, 10]]);
    }
}
