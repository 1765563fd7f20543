//! The game and rule options a fuzz input's first byte selects (shared by the targets
//! that take one), read from the registry: the byte modulo the number of games picks the
//! game, and the quotient, digit by digit in each option's range, picks the value of each
//! rule option the game declares.

use quartet_core::game::RuleOptions;
use quartet_engine::GameKind;

/// The game and rules selected by `selector`.
pub fn game_and_rules(selector: u8) -> (GameKind, RuleOptions) {
    let games = GameKind::ALL.len();
    let kind = GameKind::ALL[usize::from(selector) % games];
    let mut rest = i64::from(selector) / games as i64;
    let mut rules = RuleOptions::default();
    for option in kind.declaration().rule_options {
        let (min, max) = option.range();
        let span = max - min + 1;
        rules = rules.with(option, min + rest % span).unwrap_or(rules);
        rest /= span;
    }
    (kind, rules)
}
