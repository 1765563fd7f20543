//! Rule-independent checks every game must pass, run along seeded random playouts:
//! non-terminal nodes have children and terminal ones none, chance weights are positive,
//! every legal action's token parses back to the same action, position strings round-trip,
//! the incremental hash equals the hash of the re-parsed (from scratch) position, and a
//! position names the rule that ended it exactly when it is finished.
//! Run over every game of the registry by `tests/invariants.rs`.

use crate::game::{Node, RuleOptions};
use crate::notation::Notation;
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
            let actions = pos.actions();
            if actions.is_empty() {
                break;
            }
            let action = actions[rng.random_range(0..actions.len())];
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
    let actions = pos.actions();
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
    if pos.count_children() != actions.len() as u64 {
        return Err(format!(
            "{text}: count_children {} but {} actions",
            pos.count_children(),
            actions.len()
        ));
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
