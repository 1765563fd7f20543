//! The network trainer (`quartet_learn::network`) reaches Ludo's network only through the
//! capability Ludo's evaluation declares (`Evaluate::NETWORK`): the self-play examples it
//! makes from a Ludo data file are Ludo's inputs and winning chances. R&B's and Duell's
//! efficiently updatable networks (`Evaluate::NNUE`) train from `quartet selfplay` data to
//! the same integer weights every time.

use crate::common;

use common::succeeds_in as quartet;
use quartet_core::eval::Evaluate;
use quartet_games::duell::Duell;
use quartet_games::ludo::net::Active;
use quartet_games::ludo::{BASE, Ludo};
use quartet_games::rnb::Rnb;
use quartet_learn::data::DataFile;
use quartet_learn::network::selfplay_examples;

#[test]
fn selfplay_positions_become_the_chance_node_after_the_move_seen_by_the_side_to_roll() {
    // Game 3: Yellow won (0-1). Red rolled 2 at 10 and played 10-12, so Yellow rolls next
    // (its view: the result 1, the score 1 - 0.6 = 0.4 for the search's +2000 for Red).
    // Game 4 (Red won): a 6 moves 20-26, so Red rolls again (result 1, score 0.3 for
    // -4000). Game 5 (held out): 53-56 ends the game, no chance node follows. The header's
    // `pieces=2` is the rule option the positions are read with.
    let text = "# quartet-selfplay 1 game=ludo pieces=2\n\
        b,10/b,b r 2 0\t0-1\t2000\t5\t3\t10-12\n\
        b,20/b,b r 6 1\t1-0\t-4000\t9\t4\t20-26\n\
        53,56/b,b r 3 0\t1-0\t9000\t50\t5\t53-56\n\
        # summary games=3 positions=3 first=2 draws=0 second=1\n";
    let file = DataFile::parse(text).expect("a data file");
    let net = Ludo::NETWORK.expect("Ludo declares its network");
    let split = selfplay_examples(&net, None, &[file], 0.25, 5, 1.0).expect("examples");
    assert_eq!(split.train.len(), 2);
    assert!(split.holdout.is_empty(), "the held-out game ended at once");
    let [yellow, red] = &split.train[..] else {
        panic!("two examples: {:?}", split.train)
    };
    assert_eq!(
        yellow.active,
        Active::from_pieces(&[BASE, BASE], &[BASE, 12], 0).inputs()
    );
    assert!((yellow.target - (0.25 * 1.0 + 0.75 * 0.4)).abs() < 1e-6);
    assert_eq!(
        red.active,
        Active::from_pieces(&[BASE, 26], &[BASE, BASE], 1).inputs()
    );
    assert!((red.target - (0.25 * 1.0 + 0.75 * 0.3)).abs() < 1e-6);
}

#[test]
fn a_header_value_out_of_the_rule_option_s_range_is_refused() {
    let text = "# quartet-selfplay 1 game=ludo pieces=7\n\
        # summary games=0 positions=0 first=0 draws=0 second=0\n";
    let file = DataFile::parse(text).expect("a data file");
    let net = Ludo::NETWORK.expect("Ludo declares its network");
    let err = selfplay_examples(&net, None, &[file], 0.25, 5, 1.0).expect_err("refused");
    assert!(err.contains("Pieces"), "{err}");
}

/// Self-play of `game` (`G`), then `quartet tune --network` twice on copies of the data in
/// two directories: the same file bit for bit, which `G`'s loader reads, with the command in
/// its header.
fn network_trains_to_the_same_integer_weights_every_time<G: Evaluate>(game: &str) {
    let dir = std::env::temp_dir().join(format!("quartet-{game}-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let data = format!("{game}.txt");
    quartet(
        &dir,
        &[
            "selfplay",
            "--game",
            game,
            "--games",
            "4",
            "--nodes",
            "300",
            "--seed",
            "3",
            "--per-game",
            "30",
            "--out",
            &data,
            "--no-progress",
        ],
    );
    // Two runs in two directories, each with a copy of the data: the same command.
    let tune = |run: &str| {
        let here = dir.join(run);
        std::fs::create_dir_all(&here).expect("a directory");
        std::fs::copy(dir.join(&data), here.join(&data)).expect("a copy");
        quartet(
            &here,
            &[
                "tune",
                "--game",
                game,
                "--network",
                "--data",
                &data,
                "--lambda",
                "0.2",
                "--holdout-every",
                "2",
                "--epochs",
                "2",
                "--batch",
                "16",
                "--seed",
                "5",
                "--out",
                "net.bin",
            ],
        )
    };
    let report = tune("a");
    tune("b");
    for words in [
        "held-out loss before training",
        "held-out loss after training",
        "in integers",
    ] {
        assert!(report.contains(words), "{words}: {report}");
    }
    let a = std::fs::read(dir.join("a/net.bin")).expect("a/net.bin");
    let b = std::fs::read(dir.join("b/net.bin")).expect("b/net.bin");
    assert!(a == b, "the same weights bit for bit");
    let spec = G::NNUE.expect("the game declares its network");
    let weights = spec.read(&a).expect("the trainer's file is the loader's");
    let command = format!("quartet tune --game {game} --data {data} --lambda 0.2");
    assert!(
        weights.header().starts_with(&command),
        "{}",
        weights.header()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rnb_s_network_trains_from_selfplay_to_the_same_integer_weights_every_time() {
    network_trains_to_the_same_integer_weights_every_time::<Rnb>("rnb");
}

#[test]
fn duell_s_network_trains_from_selfplay_to_the_same_integer_weights_every_time() {
    network_trains_to_the_same_integer_weights_every_time::<Duell>("duell");
}
