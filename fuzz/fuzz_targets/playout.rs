//! Move parsing deep in a game, where random tokens alone never get: the first bytes
//! choose legal tokens (a random legal prefix), the text after the first 0xFF byte is
//! tokens tried at the position reached. Checks: no panic; `is_legal` agrees with
//! `set_position`; every legal token is accepted; the position string of the reached
//! position reads back to the same string and hash; `go perft 1` lists the legal tokens of
//! the position (perft ignores the game's history, so repetition draws do not end it).
#![no_main]

#[path = "select.rs"]
mod select;

use libfuzzer_sys::fuzz_target;
use quartet_engine::AnyGame;

/// The longest legal prefix played (set_position replays the whole list each time).
const MAX_PREFIX: usize = 120;
/// The most tokens tried at the reached position.
const MAX_TRIED: usize = 32;

/// Whether `played` followed by `token` is accepted as a move list; the game is left at
/// the position after `played` either way.
fn accepts(game: &mut dyn AnyGame, played: &[String], token: &str) -> bool {
    let mut moves: Vec<&str> = played.iter().map(String::as_str).collect();
    moves.push(token);
    let accepted = game.set_position(None, &moves).is_ok();
    moves.pop();
    game.set_position(None, &moves)
        .unwrap_or_else(|e| panic!("legal prefix {moves:?} refused: {e}"));
    accepted
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let (kind, rules) = select::game_and_rules(selector);
    let mut game = quartet_engine::new_game(kind, rules);
    let split = rest.iter().position(|&b| b == 0xFF).unwrap_or(rest.len());
    let (choices, tried) = rest.split_at(split);

    let mut played: Vec<String> = Vec::new();
    for &choice in choices.iter().take(MAX_PREFIX) {
        let legal = game.legal_tokens(None);
        if legal.is_empty() {
            break;
        }
        let token = legal[usize::from(choice) % legal.len()].clone();
        assert!(game.is_legal(&token), "{token:?} listed but not is_legal");
        played.push(token);
        let moves: Vec<&str> = played.iter().map(String::as_str).collect();
        game.set_position(None, &moves)
            .unwrap_or_else(|e| panic!("legal prefix {moves:?} refused: {e}"));
    }

    let legal = game.legal_tokens(None);
    // Perft counts the tree of the position alone (a repetition draw of the game's history
    // does not end it), so it lists the legal tokens of the position set from its string.
    let mut divided = Vec::new();
    let never = std::sync::atomic::AtomicBool::new(false);
    game.divide(1, &never, &mut |t, _| divided.push(t.to_string()));
    let mut fresh = quartet_engine::new_game(kind, rules);
    fresh
        .set_position(Some(&game.fen()), &[])
        .unwrap_or_else(|e| panic!("{} does not read back: {e}", game.fen()));
    assert_eq!(
        divided,
        fresh.legal_tokens(None),
        "perft 1 and legalmoves of the position differ after {played:?}"
    );
    if let Some(first) = legal.first() {
        assert!(accepts(game.as_mut(), &played, first), "{first:?} refused");
    }

    let text = String::from_utf8_lossy(tried.get(1..).unwrap_or_default()).into_owned();
    for token in text.split_whitespace().take(MAX_TRIED) {
        let legal_now = game.is_legal(token);
        let accepted = accepts(game.as_mut(), &played, token);
        assert_eq!(legal_now, accepted, "{token:?} after {played:?}");
    }

    let moves: Vec<&str> = played.iter().map(String::as_str).collect();
    game.set_position(None, &moves).expect("the prefix again");
    let (fen, hash) = (game.fen(), game.hash());
    game.set_position(Some(&fen), &[])
        .unwrap_or_else(|e| panic!("{fen:?} after {played:?} does not read back: {e}"));
    assert_eq!(game.fen(), fen);
    assert_eq!(
        game.hash(),
        hash,
        "hash of {fen:?} depends on how it was reached"
    );
});
