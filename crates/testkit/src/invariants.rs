//! Rule-independent checks every game must pass, run along seeded random playouts:
//! non-terminal nodes have children and terminal ones none, chance weights are positive,
//! every legal action's token parses back to the same action, position strings round-trip,
//! the incremental hash equals the hash of the re-parsed (from scratch) position, a bulk
//! count of the grandchildren equals the children's counts, and a position names the rule
//! that ended it exactly when it is finished.
//! Run over every game of the registry by `tests/invariants.rs`.
//!
//! A simultaneous node with more than [`MAX_CHECKED`] joint turns (R&B's joint setup has
//! 133,402,500) is checked on every declaration of each side paired with the other side's
//! first one, and played with a random declaration of each side.

use quartet_core::game::{Action, Game, MoveList, Node, Player, RuleOptions};
use quartet_core::notation::Notation;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays `games` random games of at most `max_plies` plies from `start`, checking the
/// invariants above at every node. Returns the first violation found, naming the position.
pub fn check_random_playouts<G: Notation>(
    start: &G,
    rules: &RuleOptions,
    games: usize,
    max_plies: usize,
    seed: u64,
) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..max_plies {
            check_node(&pos, rules)?;
            let action = match declarations(&pos) {
                Some((a, b)) => Action::Joint(
                    a[rng.random_range(0..a.len())],
                    b[rng.random_range(0..b.len())],
                ),
                None => {
                    let actions = pos.actions();
                    if actions.is_empty() {
                        break;
                    }
                    actions[rng.random_range(0..actions.len())]
                }
            };
            pos.apply(action);
        }
    }
    Ok(())
}

/// Checks the invariants at one position.
pub fn check_node<G: Notation>(pos: &G, rules: &RuleOptions) -> Result<(), String> {
    let text = pos.format_position();
    let reparsed =
        G::parse_position(&text, rules).map_err(|e| format!("{text}: does not parse back: {e}"))?;
    if reparsed.format_position() != text {
        return Err(format!(
            "{text}: round-trips to {}",
            reparsed.format_position()
        ));
    }
    if reparsed.hash() != pos.hash() {
        return Err(format!(
            "{text}: incremental hash differs from a fresh parse"
        ));
    }
    if reparsed.node() != pos.node() {
        return Err(format!("{text}: node kind differs after a fresh parse"));
    }
    let finished = matches!(pos.node(), Node::Terminal(_));
    if finished != pos.end_reason().is_some() {
        return Err(format!(
            "{text}: finished {finished} but end reason {:?}",
            pos.end_reason()
        ));
    }
    if let Some(reason) = pos.end_reason()
        && !G::DECLARATION.end_reasons.contains(&reason)
    {
        return Err(format!("{text}: end reason {reason:?} is not declared"));
    }
    let large = declarations(pos);
    let actions = match &large {
        Some((a, b)) => {
            if pos.count_children() != (a.len() * b.len()) as u64 {
                return Err(format!(
                    "{text}: count_children {} but {} x {} declarations",
                    pos.count_children(),
                    a.len(),
                    b.len()
                ));
            }
            let own = a.iter().map(|&x| Action::Joint(x, b[0]));
            own.chain(b.iter().map(|&y| Action::Joint(a[0], y)))
                .collect()
        }
        None => pos.actions(),
    };
    match pos.node() {
        Node::Terminal(_) if !actions.is_empty() => {
            return Err(format!(
                "{text}: terminal but has {} actions",
                actions.len()
            ));
        }
        Node::Terminal(_) => {}
        _ if actions.is_empty() => return Err(format!("{text}: not terminal but no actions")),
        _ => {}
    }
    if large.is_none() && pos.count_children() != actions.len() as u64 {
        return Err(format!(
            "{text}: count_children {} but {} actions",
            pos.count_children(),
            actions.len()
        ));
    }
    if let (None, Some(n)) = (&large, pos.count_grandchildren()) {
        let played: u64 = actions
            .iter()
            .map(|&a| {
                let mut child = pos.clone();
                child.apply(a);
                child.count_children()
            })
            .sum();
        if n != played {
            return Err(format!(
                "{text}: count_grandchildren {n} but the children have {played}"
            ));
        }
    }
    if pos.node() == Node::Chance {
        let mut outcomes = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        if outcomes.iter().any(|&(_, w)| w == 0) {
            return Err(format!("{text}: a chance outcome has weight 0"));
        }
    }
    for &action in &actions {
        let token = pos.format_action(action);
        let parsed = pos
            .parse_action(&token)
            .map_err(|e| format!("{text}: token {token} of a legal action is refused: {e}"))?;
        if parsed != action {
            return Err(format!("{text}: token {token} parses to another action"));
        }
        if !pos.is_legal(action) {
            return Err(format!("{text}: generated action {token} is not is_legal"));
        }
    }
    Ok(())
}

/// Each side's declarations, first player's first.
type Sides<M> = (MoveList<M>, MoveList<M>);

/// The most joint turns of a simultaneous node that are all checked.
pub const MAX_CHECKED: u64 = 100_000;

/// Each side's declarations at a simultaneous node with more than [`MAX_CHECKED`] joint
/// turns (both lists non-empty); `None` at any other node.
fn declarations<G: Game>(pos: &G) -> Option<Sides<G::Move>> {
    if pos.node() != Node::Simultaneous || pos.count_children() <= MAX_CHECKED {
        return None;
    }
    let mut a = MoveList::new();
    let mut b = MoveList::new();
    pos.legal_moves(Player::First, &mut a);
    pos.legal_moves(Player::Second, &mut b);
    (!a.is_empty() && !b.is_empty()).then_some((a, b))
}
