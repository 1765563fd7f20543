//! No budget throws a game (protocol.md §3, `go`; issue 40): from random reachable positions
//! of every game under every value of its rule options, a search at `nodes 1`, `nodes 100`,
//! a budget of 1 ms, and with `stop` already set when it starts (the second and third with
//! two threads too) never answers with an action that loses at once while one that does not
//! exists.
//!
//! Whether an action loses at once is judged here from the rules alone (the `Game` trait's
//! `play`, `node` and outcomes), as protocol.md defines it, not by the search's own screen:
//! - at a side's turn, a move loses at once when it ends the game in the mover's loss, or
//!   the opponent's very next action can win: a winning reply, or one after every outcome of
//!   the chance node that follows the move;
//! - at a simultaneous turn, a declaration *throws* when every joint turn with it ends the
//!   game at once and none in its side's win; it loses at once when it throws and each joint
//!   turn with it is lost for its side or drawn against a declaration that throws too.
//!
//! At a node too wide to judge every joint turn (R&B's setup, 11,550 × 11,550), the answer
//! is judged alone: a joint turn with it that goes on or is won shows that it does not
//! throw, so does not lose at once; without one, the whole definition is checked for it.
//! `--nocapture` prints the counts per game and rule setting.

use crate::common;
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Game, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;
use quartet_core::splitmix::splitmix64;
use quartet_games::{GameKind, GameVisitor};
use quartet_search::time::TimeBudget;
use quartet_search::tt::TranspositionTable;
use quartet_search::{Limits, Root, Settings, search};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Positions per game and rule setting.
const POSITIONS: usize = 200;

/// The longest random playout to a position (most games end before it).
const MAX_PLIES: u64 = 120;

/// A simultaneous node with more joint turns than this is judged by its answer alone.
const WIDE: u64 = 1 << 20;

/// What one game and rule setting gave.
#[derive(Debug, Default)]
struct Counts {
    /// Positions searched.
    positions: usize,
    /// Positions where an action the search could answer loses at once and another does
    /// not (at a simultaneous node: for either side).
    with_losing: usize,
    /// Wide nodes, judged by their answers alone.
    wide: usize,
    /// Answers judged.
    answers: usize,
    /// Answers judged where a losing action was there to be played.
    decisive: usize,
}

/// Whether `winner` has won at `pos`, or acts next there (after chance nodes, whatever
/// their outcomes) and can win with that action.
fn wins_next<G: Game>(pos: &G, winner: Player) -> bool {
    match pos.node() {
        Node::Terminal(outcome) => outcome == Outcome::Win(winner),
        Node::Turn(p) => {
            p == winner
                && pos.actions().into_iter().any(|a| {
                    let mut child = pos.clone();
                    child.apply(a);
                    child.node() == Node::Terminal(Outcome::Win(winner))
                })
        }
        Node::Chance => pos.actions().into_iter().all(|a| {
            let mut child = pos.clone();
            child.apply(a);
            wins_next(&child, winner)
        }),
        Node::Simultaneous => false,
    }
}

/// Each legal move of the side to move at `pos` with whether it loses at once.
fn judge_turn<G: Game>(pos: &G, mover: Player) -> Vec<(G::Move, bool)> {
    pos.actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Single(m) => {
                let mut child = pos.clone();
                child.apply(a);
                Some((m, wins_next(&child, mover.other())))
            }
            Action::Joint(..) => None,
        })
        .collect()
}

/// The result of a joint turn, `None` when the game goes on.
fn joint_result<G: Game>(pos: &G, first: G::Move, second: G::Move) -> Option<Outcome> {
    let mut child = pos.clone();
    child.apply(Action::Joint(first, second));
    match child.node() {
        Node::Terminal(o) => Some(o),
        _ => None,
    }
}

/// Each side's legal declarations at the simultaneous node `pos`.
fn declarations<G: Game>(pos: &G) -> (Vec<G::Move>, Vec<G::Move>) {
    let mut first = Vec::new();
    let mut second = Vec::new();
    pos.legal_moves(Player::First, &mut first);
    pos.legal_moves(Player::Second, &mut second);
    (first, second)
}

/// Whether `d`, a declaration of `side`, throws: every joint turn with it ends the game,
/// none in `side`'s win.
fn throws<G: Game>(pos: &G, side: Player, d: G::Move, others: &[G::Move]) -> bool {
    others.iter().all(|&o| {
        let result = match side {
            Player::First => joint_result(pos, d, o),
            Player::Second => joint_result(pos, o, d),
        };
        result.is_some_and(|r| r != Outcome::Win(side))
    })
}

/// Which declarations of a wide node throw, as far as judged (by position hash, side and
/// declaration): a failing run judges the same ones again and again.
type Judged<M> = HashMap<(u64, Player, M), bool>;

/// Whether `d`, a declaration of `side`, loses at once: it throws, and each joint turn
/// with it is lost for `side` or drawn against a declaration that throws too.
fn declaration_loses<G: Game>(
    pos: &G,
    side: Player,
    d: G::Move,
    judged: &mut Judged<G::Move>,
) -> bool {
    let (first, second) = declarations(pos);
    let (own, others) = match side {
        Player::First => (&first, &second),
        Player::Second => (&second, &first),
    };
    throws(pos, side, d, others)
        && others.iter().all(|&o| {
            let result = match side {
                Player::First => joint_result(pos, d, o),
                Player::Second => joint_result(pos, o, d),
            };
            result == Some(Outcome::Win(side.other()))
                || *judged
                    .entry((pos.hash(), side.other(), o))
                    .or_insert_with(|| throws(pos, side.other(), o, own))
        })
}

/// Each declaration of `side` with whether it loses at once (every joint turn judged).
fn judge_declarations<G: Game>(pos: &G, side: Player) -> Vec<(G::Move, bool)> {
    let (first, second) = declarations(pos);
    let results: Vec<Vec<Option<Outcome>>> = first
        .iter()
        .map(|&a| second.iter().map(|&b| joint_result(pos, a, b)).collect())
        .collect();
    // What side `p` gets from its declaration `i` against the other's `j`.
    let result = |p: Player, i: usize, j: usize| match p {
        Player::First => results[i][j],
        Player::Second => results[j][i],
    };
    let count = |p: Player| match p {
        Player::First => first.len(),
        Player::Second => second.len(),
    };
    let throws = |p: Player, i: usize| {
        (0..count(p.other())).all(|j| result(p, i, j).is_some_and(|r| r != Outcome::Win(p)))
    };
    let loses = |i: usize| {
        throws(side, i)
            && (0..count(side.other())).all(|j| {
                result(side, i, j) == Some(Outcome::Win(side.other())) || throws(side.other(), j)
            })
    };
    let own = if side == Player::First {
        &first
    } else {
        &second
    };
    own.iter()
        .enumerate()
        .map(|(i, &d)| (d, loses(i)))
        .collect()
}

/// Whether `d`, a declaration of `side` at a wide node, does not lose at once, shown by a
/// joint turn with it that goes on or is won (it then does not throw); without one, by
/// the whole definition.
fn wide_answer_is_safe<G: Game>(
    pos: &G,
    side: Player,
    d: G::Move,
    judged: &mut Judged<G::Move>,
) -> bool {
    let (first, second) = declarations(pos);
    let others = if side == Player::First { second } else { first };
    !throws(pos, side, d, &others) || !declaration_loses(pos, side, d, judged)
}

/// A reachable position: a random playout of random length from `start` (a tenth of them
/// the start itself), stopped before the game ends, and never at a chance node (a roll is
/// drawn there).
fn reachable<G: Game>(start: &G, seed: &mut u64) -> G {
    let plies = if splitmix64(seed).is_multiple_of(10) {
        0
    } else {
        1 + splitmix64(seed) % MAX_PLIES
    };
    let mut pos = start.clone();
    let mut played = 0;
    loop {
        let count = pos.count_children();
        if count == 0 {
            unreachable!("a playout stops before the end");
        }
        let action = pos
            .nth_action(splitmix64(seed) % count)
            .expect("an action below the count");
        let mut next = pos.clone();
        next.apply(action);
        let at_chance = pos.node() == Node::Chance;
        if matches!(next.node(), Node::Terminal(_)) || (played >= plies && !at_chance) {
            if at_chance {
                // Roll until the die gives a position that goes on.
                continue;
            }
            return pos;
        }
        pos = next;
        played += 1;
    }
}

/// The budgets, named as `go` gives them: `nodes 1`, `nodes 100`, 1 ms, and a `stop` set
/// before the search starts, each with whether the stop is set and the search's threads;
/// the last two again with two threads (a helper's result may be the one played).
fn budgets() -> [(&'static str, Limits, bool, usize); 6] {
    let ms = Duration::from_millis(1);
    let nodes = |n| Limits {
        nodes: Some(n),
        ..Limits::default()
    };
    let time = Limits {
        time: Some(TimeBudget {
            soft: ms,
            hard: ms,
            to_deadline: true,
        }),
        ..Limits::default()
    };
    [
        ("nodes 1", nodes(1), false, 1),
        ("nodes 100", nodes(100), false, 1),
        ("movetime 1", time, false, 1),
        ("infinite, stopped", Limits::default(), true, 1),
        ("nodes 100, Threads 2", nodes(100), false, 2),
        ("movetime 1, Threads 2", time, false, 2),
    ]
}

/// The searches of one game under one rule setting, judged.
struct Check {
    rules: RuleOptions,
    seed: u64,
}

/// What one game and rule setting gave: the counts and every answer that lost at once.
struct Outcomes {
    counts: Counts,
    failures: Vec<String>,
}

impl GameVisitor for Check {
    type Output = Outcomes;

    fn visit<G: Evaluate + Notation>(self) -> Outcomes {
        let start = G::start(&self.rules);
        let tt = TranspositionTable::new(1).expect("a table");
        let mut seed = self.seed;
        let mut counts = Counts::default();
        let mut failures = Vec::new();
        let mut wide_judged = Judged::new();
        for k in 0..POSITIONS {
            let pos = reachable(&start, &mut seed);
            counts.positions += 1;
            let sides = match pos.node() {
                Node::Turn(mover) => vec![(None, mover)],
                Node::Simultaneous => vec![
                    (Some(Player::First), Player::First),
                    (Some(Player::Second), Player::Second),
                ],
                other => panic!("{}: a position at {other:?}", pos.format_position()),
            };
            let wide = pos.node() == Node::Simultaneous && pos.count_children() > WIDE;
            counts.wide += usize::from(wide);
            let mut with_losing = false;
            for (asked, side) in sides {
                // Each action with whether it loses at once (none judged at a wide node).
                let judged = match pos.node() {
                    Node::Turn(_) => judge_turn(&pos, side),
                    _ if wide => Vec::new(),
                    _ => judge_declarations(&pos, side),
                };
                let decisive = has_both(&judged);
                with_losing |= decisive;
                for (budget, limits, stopped, threads) in budgets() {
                    let settings = Settings {
                        side: asked,
                        seed: k as u64,
                        threads,
                        ..Settings::default()
                    };
                    let stop = AtomicBool::new(stopped);
                    let r = search(&Root::of(&pos), &limits, &settings, &tt, &stop, &mut |_| {});
                    let Some(Action::Single(m)) = r.best else {
                        panic!("{}: no move at {budget}", pos.format_position());
                    };
                    let loses = if wide {
                        !wide_answer_is_safe(&pos, side, m, &mut wide_judged)
                    } else {
                        let Some(&(_, loses)) = judged.iter().find(|j| j.0 == m) else {
                            panic!("{}: {m:?} is not legal", pos.format_position());
                        };
                        decisive && loses
                    };
                    if loses {
                        failures.push(format!(
                            "{} ({side:?}, go {budget}): {} loses at once",
                            pos.format_position(),
                            pos.format_move(m)
                        ));
                    }
                    counts.answers += 1;
                    counts.decisive += usize::from(decisive);
                }
            }
            counts.with_losing += usize::from(with_losing);
        }
        Outcomes { counts, failures }
    }
}

/// Whether some of `judged` lose at once and some do not.
fn has_both<M>(judged: &[(M, bool)]) -> bool {
    judged.iter().any(|j| j.1) && judged.iter().any(|j| !j.1)
}

/// Every value of every rule option of `game` (their product), each as rule options.
fn rule_settings(game: GameKind) -> Vec<(String, RuleOptions)> {
    let mut settings = vec![(String::new(), RuleOptions::default())];
    for option in game.declaration().rule_options {
        let (min, max) = option.range();
        settings = settings
            .into_iter()
            .flat_map(|(name, rules)| {
                (min..=max).map(move |v| {
                    let rules = rules.with(option, v).expect("a value in range");
                    (
                        format!("{name} {}={}", option.name, option.format_value(v)),
                        rules,
                    )
                })
            })
            .collect();
    }
    settings
}

#[test]
fn no_budget_answers_an_action_that_loses_at_once() {
    let mut decisive = 0;
    let mut failures = Vec::new();
    println!("game setting: positions, with a losing action, wide, answers, decisive answers");
    for &game in GameKind::ALL {
        for (k, (name, rules)) in rule_settings(game).into_iter().enumerate() {
            let name_seed = game.name().bytes().fold(0, |h, b| h * 31 + u64::from(b));
            let seed = name_seed << 8 | k as u64;
            let Outcomes {
                counts: c,
                failures: f,
            } = game.visit(Check { rules, seed });
            println!(
                "{}{name}: {} positions, {} with a losing action, {} wide, {} answers, \
                 {} decisive, {} lose at once",
                game.name(),
                c.positions,
                c.with_losing,
                c.wide,
                c.answers,
                c.decisive,
                f.len()
            );
            decisive += c.decisive;
            failures.extend(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} answers lose at once:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The test can fail only where a losing action was there to be played.
    assert!(decisive > 400, "{decisive} decisive answers");
}

/// R&B under `Placement together`, through the protocol (issue 40): the answer at the
/// setup never breaks the line rule at a budget that does not finish the first iteration
/// (30,000 nodes answered `R@a1,R@b1,R@c1,R@e1,B@f1,B@a2,B@b2,B@c2`, which fills rank 1),
/// nor at any smaller one, nor when stopped right after `go`. Judged by the engine's own
/// rules: the answer against an arrangement of the other side that keeps the rule must
/// leave the game going on.
#[test]
fn the_joint_setup_never_answers_an_arrangement_that_breaks_the_line_rule() {
    const SOUTH_SAFE: &str = "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1";
    const NORTH_SAFE: &str = "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6";
    let mut e = common::Engine::start(&["--game", "rnb"]);
    e.send("setoption name Placement value together");
    let mut answers = 0;
    for seed in 0..4 {
        e.send(&format!("setoption name Seed value {seed}"));
        for side in ["w", "b"] {
            for go in [
                "nodes 30000",
                "nodes 1",
                "nodes 100",
                "movetime 1",
                "infinite",
            ] {
                e.send("position startpos");
                e.send(&format!("go {go} side {side}"));
                if go == "infinite" {
                    std::thread::sleep(Duration::from_millis(1));
                    e.send("stop");
                }
                let lines = e.until(|l| l.starts_with("bestmove "));
                let answer = lines
                    .last()
                    .and_then(|l| l.strip_prefix("bestmove "))
                    .expect("bestmove")
                    .to_string();
                let joint = if side == "w" {
                    format!("{answer}/{NORTH_SAFE}")
                } else {
                    format!("{SOUTH_SAFE}/{answer}")
                };
                e.send(&format!("position startpos moves {joint}"));
                assert_eq!(
                    e.query("result"),
                    "none",
                    "go {go} side {side} (seed {seed}) answered {answer}, which breaks the line rule"
                );
                answers += 1;
            }
        }
    }
    assert_eq!(answers, 40);
}

/// Every arrangement of R&B's joint setup judged by the definition, every joint turn played
/// (about 50 million, so not in the default run): the arrangements that lose at once are
/// exactly those that break the line rule, that is that lose against one that keeps it,
/// 2,100 a side (by hand: rank 1 full is its 5 free squares and 3 of rank 2's 6, C(6,3) =
/// 20 square sets; rank 2 full is its 6 squares and 2 of rank 1's 5, C(5,2) = 10; each
/// set with C(8,4) = 70 colourings).
#[test]
#[ignore = "plays every joint turn of the setup: about 50 million"]
fn at_the_joint_setup_the_arrangements_that_lose_at_once_are_those_that_break_the_line_rule() {
    use quartet_games::rnb::{PLACEMENT, Rnb};
    let rules = RuleOptions::default()
        .with(&PLACEMENT, 1)
        .expect("together");
    let pos = Rnb::start(&rules);
    let (first, second) = declarations(&pos);
    for side in [Player::First, Player::Second] {
        let (own, others) = match side {
            Player::First => (&first, &second),
            Player::Second => (&second, &first),
        };
        let result = |d: Move, o: Move| match side {
            Player::First => joint_result(&pos, d, o),
            Player::Second => joint_result(&pos, o, d),
        };
        // Each declaration that throws, with the other side's it draws against.
        let draws_of_throwing =
            |own: &[Move], others: &[Move], p: Player| -> Vec<Option<Vec<usize>>> {
                own.iter()
                    .map(|&d| {
                        let mut draws = Vec::new();
                        for (j, &o) in others.iter().enumerate() {
                            let r = match p {
                                Player::First => joint_result(&pos, d, o),
                                Player::Second => joint_result(&pos, o, d),
                            };
                            match r {
                                Some(Outcome::Draw) => draws.push(j),
                                Some(o) if o != Outcome::Win(p) => {}
                                _ => return None,
                            }
                        }
                        Some(draws)
                    })
                    .collect()
            };
        let own_throwing = draws_of_throwing(own, others, side);
        let others_throw: Vec<bool> = draws_of_throwing(others, own, side.other())
            .iter()
            .map(Option::is_some)
            .collect();
        let loses: Vec<bool> = own_throwing
            .iter()
            .map(|t| {
                t.as_ref()
                    .is_some_and(|draws| draws.iter().all(|&j| others_throw[j]))
            })
            .collect();
        assert_eq!(loses.iter().filter(|&&l| l).count(), 2_100, "{side:?}");
        // The other side's first arrangement that keeps the line rule.
        let keeper = others
            .iter()
            .enumerate()
            .find(|&(j, _)| !others_throw[j])
            .map(|(_, &o)| o)
            .expect("an arrangement that keeps the rule");
        for (&d, &l) in own.iter().zip(&loses) {
            let breaks = result(d, keeper) == Some(Outcome::Win(side.other()));
            assert_eq!(l, breaks, "{}", pos.format_move(d));
        }
    }
}

/// A move of R&B.
type Move = quartet_games::rnb::Move;
