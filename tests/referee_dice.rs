//! Matches of the chance toy game (the dice race): duplicate dice, chance outcomes drawn by
//! the referee, engines asked only at decision nodes.

use crate::support;

use quartet_testkit::toys::Dice;
use support::{fake, logging_fake, play_recorded, records_by_round, scratch};

fn is_roll(token: &str) -> bool {
    token.len() == 2 && token.starts_with('r')
}

/// Both games of a pair see the same rolls in the same order (the colours swapped), even
/// though the engines play differently and the games take different courses; other pairs
/// see other rolls. The reader re-derives every roll from the Seed tag.
#[test]
fn duplicate_pairs_repeat_the_dice() {
    let pgn = scratch("duplicate").join("g.pgn");
    let (a, b) = (fake("A", "--play hash --seed 1"), fake("B", "--play first"));
    let extra = "--games 8 --nodes 1 --seed 5 --concurrency 2";
    let (r, games) = play_recorded::<Dice>(&pgn, a, b, extra);
    assert_eq!(r.tally.games(), 8);
    let games = records_by_round(games);
    let rolls = |i: usize| -> Vec<String> {
        games[i]
            .moves
            .iter()
            .filter(|t| is_roll(t))
            .cloned()
            .collect()
    };
    let mut differing_courses = 0;
    for pair in 0..4 {
        let (a, b) = (rolls(2 * pair), rolls(2 * pair + 1));
        let n = a.len().min(b.len());
        assert!(n >= 4, "pair {pair}: only {n} rolls");
        assert_eq!(a[..n], b[..n], "pair {pair}");
        assert_eq!(games[2 * pair].tag("Seed"), games[2 * pair + 1].tag("Seed"));
        if games[2 * pair]
            .moves
            .iter()
            .filter(|t| !is_roll(t))
            .collect::<Vec<_>>()
            != games[2 * pair + 1]
                .moves
                .iter()
                .filter(|t| !is_roll(t))
                .collect::<Vec<_>>()
        {
            differing_courses += 1;
        }
    }
    assert!(
        differing_courses > 0,
        "the engines should not play identically"
    );
    assert_ne!(rolls(0)[..4], rolls(2)[..4]);
}

/// The engines are asked once per decision token and never at chance nodes.
#[test]
fn engines_are_asked_only_at_decisions() {
    let dir = scratch("decisions");
    let (a, log_a) = logging_fake(&dir, "A", "");
    let (b, log_b) = logging_fake(&dir, "B", "");
    let (_, games) =
        play_recorded::<Dice>(&dir.join("g.pgn"), a, b, "--games 2 --nodes 1 --seed 3");
    let decisions: usize = games
        .iter()
        .map(|g| g.record.moves.iter().filter(|t| !is_roll(t)).count())
        .sum();
    let asked = [&log_a, &log_b]
        .iter()
        .map(|p| {
            std::fs::read_to_string(p)
                .unwrap_or_default()
                .lines()
                .count()
        })
        .sum::<usize>();
    assert_eq!(asked, decisions);
    // Every request follows a roll: the position the engine gets ends with a roll token.
    for line in std::fs::read_to_string(&log_a).unwrap().lines() {
        let (position, _go) = line.split_once('|').unwrap();
        assert!(is_roll(position.split(' ').next_back().unwrap()), "{line}");
    }
}
