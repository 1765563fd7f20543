//! The GUI writes game records with its own writer (it may not use the referee's code);
//! the referee's reader, which `quartet replay` uses, must accept what it writes.

use quartet_core::game::RuleOptions;
use quartet_games::{duell::Duell, ludo::Ludo};
use quartet_gui::record::Record;
use quartet_referee::{adjudicate::Termination, replay};

fn gui_record(game: &str, termination: &str, fen: &str, moves: &str, result: &str) -> Record {
    Record {
        tags: [
            ("Event", "Quartet GUI"),
            ("White", "Human"),
            ("Black", "Quartet 0.1.0"),
            ("Result", result),
            ("Game", game),
            ("Termination", termination),
            ("TimeControl", "movetime=100"),
            ("FEN", fen),
            ("DiceSeed", "7"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
        moves: moves.split_whitespace().map(String::from).collect(),
        // A clock reading after every token (`{[%clk 0:01:00]}`): the referee skips them.
        clocks: (0..moves.split_whitespace().count() as u64)
            .map(|i| vec![60_000 - 1_500 * i])
            .collect(),
        result: result.to_string(),
    }
}

#[test]
fn the_referee_replays_a_finished_gui_game() {
    // Ludo rules §4 example 11: Red's last piece needs a 3; 53-56 wins at once.
    let rec = gui_record(
        "ludo",
        "normal",
        "53,56,56,56/b,b,b,b r - 0",
        "r3 53-56",
        "1-0",
    );
    let games = replay::<Ludo>(&rec.to_text(), &RuleOptions::default()).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].termination, Some(Termination::Normal));
    assert_eq!(games[0].record.moves, ["r3", "53-56"]);
    // The same game with the wrong result is refused: the check is real.
    let wrong = gui_record(
        "ludo",
        "normal",
        "53,56,56,56/b,b,b,b r - 0",
        "r3 53-56",
        "0-1",
    );
    assert!(replay::<Ludo>(&wrong.to_text(), &RuleOptions::default()).is_err());
}

#[test]
fn the_referee_replays_a_gui_game_stopped_by_a_crash() {
    let start = "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1";
    let rec = gui_record("duell", "crash", start, "a1a6 i8i3", "0-1");
    let games = replay::<Duell>(&rec.to_text(), &RuleOptions::default()).unwrap();
    assert_eq!(games[0].termination, Some(Termination::Crash));
}

#[test]
fn the_referee_replays_a_gui_game_saved_while_under_way() {
    let start = "B53B13B23B63BKB63B23B13B53/9/9/9/9/9/9/W54W14W24W64WKW64W24W14W54 w 0 1";
    let rec = gui_record("duell", "unterminated", start, "a1a6 i8i3", "*");
    let games = replay::<Duell>(&rec.to_text(), &RuleOptions::default()).unwrap();
    assert_eq!((games[0].outcome, games[0].termination), (None, None));
    // An illegal move is still found.
    let bad = gui_record("duell", "unterminated", start, "a1a6 i8i2", "*");
    assert!(replay::<Duell>(&bad.to_text(), &RuleOptions::default()).is_err());
}
