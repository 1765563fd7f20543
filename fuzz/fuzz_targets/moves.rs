//! Every game's move parser: arbitrary tokens after the start position (or after a
//! position reached by the tokens accepted so far) never panic, and an accepted token is
//! one of the legal tokens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quartet_core::game::RuleOptions;
use quartet_engine::GameKind;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let kind = GameKind::ALL[usize::from(selector) % GameKind::ALL.len()];
    let mut game = quartet_engine::new_game(kind, RuleOptions::default());
    let text = String::from_utf8_lossy(rest);
    let mut played: Vec<&str> = Vec::new();
    for token in text.split_whitespace().take(64) {
        let legal = game.is_legal(token);
        played.push(token);
        match game.set_position(None, &played) {
            Ok(()) => assert!(legal, "{token:?} accepted but not is_legal"),
            Err(_) => {
                assert!(!legal, "{token:?} is_legal but refused");
                played.pop();
            }
        }
    }
});
