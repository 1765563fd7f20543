//! Skill levels (issue 13.5) through the engine layer, in every game of the registry:
//! every level plays legal moves on random positions; a low level plays worse moves than
//! level 20 where one move is clearly best; the same seed gives the same move.

use quartet_core::game::{Node, Player, RuleOptions};
use quartet_core::splitmix::splitmix64;
use quartet_engine::skill::{MAX_LEVEL, Strength};
use quartet_engine::{AnyGame, InfoLine, Score, SearchRequest, SearchSummary, new_game};
use quartet_games::GameKind;
use quartet_search::players::PlayerKind;
use quartet_search::tt::TranspositionTable;
use quartet_search::{Limits, Settings};
use std::sync::atomic::AtomicBool;

/// A search request at `level` with `nodes` and `depth` limits.
fn request(level: u8, seed: u64, side: Option<Player>, nodes: u64, depth: u32) -> SearchRequest {
    SearchRequest {
        limits: Limits {
            depth: Some(depth),
            nodes: Some(nodes),
            ..Limits::default()
        },
        settings: Settings {
            side,
            seed,
            ..Settings::default()
        },
        strength: Strength {
            level,
            ..Strength::default()
        },
        ..SearchRequest::default()
    }
}

/// Searches `game` with a fresh table; returns the summary and the info lines.
fn search(game: &dyn AnyGame, request: &SearchRequest) -> (SearchSummary, Vec<InfoLine>) {
    let tt = TranspositionTable::new(1).expect("a table");
    let mut lines = Vec::new();
    let summary = game.search(request, &tt, &AtomicBool::new(false), &mut |l| {
        lines.push(l.clone())
    });
    (summary, lines)
}

/// The side to ask for at a simultaneous turn (alternating with `i`), else `None`.
fn side_for(game: &dyn AnyGame, i: usize) -> Option<Player> {
    (game.node() == Node::Simultaneous).then_some(if i.is_multiple_of(2) {
        Player::First
    } else {
        Player::Second
    })
}

/// Positions of `kind` reached by seeded random tokens from the start, each with a move
/// to choose (a side's turn or a simultaneous turn; Ludo's die rolled).
fn random_positions(kind: GameKind, count: usize, seed: u64) -> Vec<Box<dyn AnyGame>> {
    let mut state = seed;
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = new_game(kind, RuleOptions::default());
        let plies = splitmix64(&mut state) % 60;
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            let tokens = game.legal_tokens(None);
            if tokens.is_empty() {
                break;
            }
            moves.push(tokens[(splitmix64(&mut state) % tokens.len() as u64) as usize].clone());
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            game.set_position(None, &refs).expect("a legal token");
        }
        if game.node() == Node::Chance {
            let rolls = game.legal_tokens(None);
            moves.push(rolls[(splitmix64(&mut state) % rolls.len() as u64) as usize].clone());
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            game.set_position(None, &refs).expect("a legal roll");
        }
        if matches!(game.node(), Node::Turn(_) | Node::Simultaneous) {
            found.push(game);
        }
    }
    found
}

fn is_legal(game: &dyn AnyGame, token: &str, side: Option<Player>) -> bool {
    match side {
        Some(p) => game.is_legal_declaration(token, p),
        None => game.legal_tokens(None).iter().any(|t| t == token),
    }
}

#[test]
fn every_level_plays_legal_moves_on_random_positions_of_every_game() {
    for &kind in GameKind::ALL {
        for (i, game) in random_positions(kind, 5, 11).iter().enumerate() {
            let side = side_for(game.as_ref(), i);
            for level in 0..=MAX_LEVEL {
                let seed = u64::from(level) * 7 + i as u64;
                let (summary, _) = search(game.as_ref(), &request(level, seed, side, 200, 100));
                let best = summary.best.unwrap_or_else(|| {
                    panic!("{}: level {level}: no move at {}", kind.name(), game.fen())
                });
                assert!(
                    is_legal(game.as_ref(), &best, side),
                    "{}: level {level} plays {best} at {}",
                    kind.name(),
                    game.fen()
                );
            }
        }
    }
}

/// The (token, cp) of each MultiPV line of the last depth reported.
fn last_lines(lines: &[InfoLine]) -> Vec<(String, i32)> {
    let depth = lines.iter().map(|l| l.depth).max().unwrap_or(0);
    let mut out: Vec<(usize, String, i32)> = lines
        .iter()
        .filter(|l| l.depth == depth)
        .filter_map(|l| match (l.score, l.pv.first()) {
            (Some(Score::Cp(cp)), Some(m)) => Some((l.multipv, m.clone(), cp)),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup_by_key(|l| l.0);
    out.into_iter().map(|(_, m, cp)| (m, cp)).collect()
}

/// A position of a turn game where level 20's best move is at least `gap` better than
/// every other (by a MultiPV search to `depth`), with that move.
fn clear_best(kind: GameKind, gap: i32, depth: u32) -> (Box<dyn AnyGame>, String) {
    for game in random_positions(kind, 200, 5) {
        let mut full = request(MAX_LEVEL, 0, None, 1_000_000, depth);
        full.settings.multipv = 2;
        let (summary, lines) = search(game.as_ref(), &full);
        if let [(best, a), (_, b)] = &last_lines(&lines)[..]
            && a - b >= gap
            && summary.best.as_deref() == Some(best.as_str())
        {
            return (game, best.clone());
        }
    }
    panic!("{}: no position with a clear best move", kind.name());
}

#[test]
fn a_low_level_misses_a_clearly_best_move_that_level_20_always_plays() {
    for (kind, gap) in [
        (GameKind::Duell, 150),
        (GameKind::Rnb, 150),
        (GameKind::Ludo, 1000),
    ] {
        let (game, best) = clear_best(kind, gap, 3);
        let plays = |level: u8| -> Vec<String> {
            (0..40)
                .map(|seed| {
                    let (s, _) = search(game.as_ref(), &request(level, seed, None, 1_000_000, 3));
                    s.best.expect("a move")
                })
                .collect()
        };
        let full = plays(MAX_LEVEL);
        assert!(full.iter().all(|m| *m == best), "{}: {full:?}", kind.name());
        let low = plays(0);
        let missed = low.iter().filter(|m| **m != best).count();
        assert!(
            missed >= 4,
            "{}: level 0 missed {best} at {} only {missed} times in 40: {low:?}",
            kind.name(),
            game.fen()
        );
    }
}

/// The declarations of a policy line `m=p m=p ...` with positive probability.
fn support(policy: &str) -> Vec<String> {
    policy
        .split(' ')
        .filter_map(|e| e.split_once('='))
        .filter(|(_, p)| p.parse::<f64>().is_ok_and(|p| p > 0.0))
        .map(|(m, _)| m.to_string())
        .collect()
}

#[test]
fn a_low_apocalypse_level_declares_outside_the_equilibrium_and_level_20_never_does() {
    let game = new_game(GameKind::Apocalypse, RuleOptions::default());
    let side = Some(Player::First);
    let declare = |level: u8, seed: u64| {
        let (s, _) = search(game.as_ref(), &request(level, seed, side, 1_000_000, 2));
        (s.best.expect("a declaration"), s.policy.expect("a policy"))
    };
    let (_, policy) = declare(MAX_LEVEL, 0);
    let equilibrium = support(&policy);
    let all = game.legal_tokens(side);
    assert!(equilibrium.len() < all.len(), "{policy}");
    let mut outside = 0;
    for seed in 0..40 {
        let (full, full_policy) = declare(MAX_LEVEL, seed);
        assert!(equilibrium.contains(&full), "level 20 plays {full}");
        assert_eq!(full_policy, policy, "level 20's policy is the equilibrium");
        let (low, low_policy) = declare(0, seed);
        assert!(all.contains(&low));
        assert_eq!(
            support(&low_policy).len(),
            all.len(),
            "level 0's softmax gives every declaration a chance: {low_policy}"
        );
        outside += usize::from(!equilibrium.contains(&low));
    }
    assert!(
        outside >= 4,
        "level 0 declared outside the equilibrium {outside} times in 40"
    );
}

#[test]
fn the_same_seed_gives_the_same_move_at_every_level() {
    for &kind in GameKind::ALL {
        for (i, game) in random_positions(kind, 3, 23).iter().enumerate() {
            let side = side_for(game.as_ref(), i);
            for level in [0, 7, 19] {
                let ask = request(level, 42 + i as u64, side, 300, 100);
                let (a, _) = search(game.as_ref(), &ask);
                let (b, _) = search(game.as_ref(), &ask);
                assert_eq!(
                    (a.best, a.policy),
                    (b.best, b.policy),
                    "{} level {level} at {}",
                    kind.name(),
                    game.fen()
                );
            }
        }
    }
}

#[test]
fn elo_limits_strength_only_when_asked() {
    let game = new_game(GameKind::Duell, RuleOptions::default());
    let mut plain = request(MAX_LEVEL, 3, None, 2_000, 100);
    let (full, _) = search(game.as_ref(), &plain);
    // UCI_Elo set but UCI_LimitStrength off: full strength.
    plain.strength.elo = quartet_engine::skill::ELO_MIN;
    assert_eq!(search(game.as_ref(), &plain).0.best, full.best);
    // UCI_LimitStrength on at the lowest Elo: level 0 (one ply deep).
    plain.strength.limit = true;
    let (_, lines) = search(game.as_ref(), &plain);
    assert!(lines.iter().all(|l| l.depth == 1), "{lines:?}");
    // A baseline player ignores the skill level.
    let mut random = request(0, 3, None, 2_000, 100);
    random.player = PlayerKind::Random;
    let mut random_full = random.clone();
    random_full.strength = Strength::default();
    assert_eq!(
        search(game.as_ref(), &random).0.best,
        search(game.as_ref(), &random_full).0.best
    );
}
