//! The game and rule options a fuzz input's first byte selects (shared by the targets
//! that take one): bits 0-1 the game, bit 4 `DoubleStep`, bits 5-6 `Pieces - 1`.

use quartet::game::RuleOptions;
use quartet::games::GameKind;

/// The game and rules selected by `selector`.
pub fn game_and_rules(selector: u8) -> (GameKind, RuleOptions) {
    let kind = GameKind::ALL[usize::from(selector) % GameKind::ALL.len()];
    let rules = RuleOptions {
        double_step: selector & 0x10 != 0,
        pieces: 1 + (selector >> 5) % 4,
    };
    (kind, rules)
}
