//! Perft counts from crates/games/src/<game>/perft.data, derived independently of the engine's move
//! generators (see each file's comments), checked against the engine through the same
//! text interface the protocol uses. Rows marked `# slow` run only with `cargo test
//! --release -- --ignored`; the format and the reader are in `tests/common/perft_data.rs`.

use crate::common;

use common::perft_data::{self, PerftBlock, parse_perft_file};
use quartet_core::game::RuleOptions;
use quartet_games::{self as games, GameKind};

/// The rule options of a block's `rules` line, read through the registry.
fn rules_of(block: &PerftBlock) -> RuleOptions {
    block
        .rules
        .iter()
        .fold(RuleOptions::default(), |rules, (name, value)| {
            let option = games::rule_option(name)
                .unwrap_or_else(|| panic!("{}: unknown rule option {name}", block.id));
            let v = option
                .parse_value(value)
                .unwrap_or_else(|e| panic!("{}: {e}", block.id));
            rules
                .with(option, v)
                .unwrap_or_else(|e| panic!("{}: {e}", block.id))
        })
}

/// Checks every row of `game`'s data file marked slow (`slow`) or not; returns how many
/// rows ran.
fn check(game: GameKind, slow: bool) -> usize {
    let mut ran = 0;
    let mut failures = Vec::new();
    for block in perft_data::load(game.name()) {
        let mut g = quartet_engine::new_game(game, rules_of(&block));
        g.set_position(Some(&block.pos), &[])
            .unwrap_or_else(|e| panic!("{}: {e}", block.id));
        for row in block.rows.iter().filter(|r| r.slow == slow) {
            ran += 1;
            let got = g.perft(row.depth);
            if got != row.count {
                failures.push(format!(
                    "{} depth {} (line {}): expected {}, got {got}",
                    block.id, row.depth, row.line, row.count
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}",
        game.name(),
        failures.join("\n")
    );
    ran
}

#[test]
fn every_game_has_a_data_file_with_cheap_rows() {
    for &game in GameKind::ALL {
        assert!(check(game, false) > 0, "{}", game.name());
    }
}

#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn slow_rows() {
    for &game in GameKind::ALL {
        check(game, true);
    }
}

#[test]
fn perft_file_parser_is_strict() {
    let good = "# c\nid a\nrules Pieces=2\npos b,b/b,b r - 0\nperft 1 6\nperft 9 99 # slow\n";
    let blocks = parse_perft_file(good).expect("valid file");
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].rule("Pieces", "4"), "2");
    assert_eq!(blocks[0].rows.len(), 2);
    assert!(!blocks[0].rows[0].slow && blocks[0].rows[1].slow);
    for bad in [
        "pos x\n",
        "id a\nperft 1 2\n",
        "id a\npos x\nperft 1\n",
        "id a\npos x\nperft 1 2\nid a\npos y\nperft 1 2\n",
        "id a\npos x\nfrob 1\n",
        "id a\nrules DoubleStep\npos x\nperft 1 1\n",
        "id a\npos x\n",
    ] {
        assert!(parse_perft_file(bad).is_err(), "{bad:?}");
    }
}
