//! Every game's position parser: never panics, and whatever it accepts it writes back in a
//! form it reads again to the same position.
#![no_main]

#[path = "select.rs"]
mod select;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (kind, rules) = select::game_and_rules(selector);
    let mut game = quartet_engine::new_game(kind, rules);
    let text = String::from_utf8_lossy(rest);
    if game.set_position(Some(&text), &[]).is_ok() {
        let written = game.fen();
        let hash = game.hash();
        game.set_position(Some(&written), &[])
            .unwrap_or_else(|e| panic!("{written:?} (from {text:?}) does not parse back: {e}"));
        assert_eq!(game.fen(), written);
        assert_eq!(game.hash(), hash);
        let _ = game.legal_tokens(None);
        let _ = game.node();
    }
});
