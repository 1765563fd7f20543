//! `quartet completions` and `quartet man` produce scripts and a page that name the
//! subcommands and flags of the binary (they are generated from its clap definition).

use crate::common;

use std::process::Command;

fn run(args: &[&str]) -> String {
    common::succeeds_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

#[test]
fn completions_name_every_subcommand_for_bash_zsh_and_fish() {
    for shell in ["bash", "zsh", "fish"] {
        let script = run(&["completions", shell]);
        // fish spells a long flag `-l game`.
        for word in ["perft", "bench", "match", "replay", "selfplay", "game"] {
            assert!(script.contains(word), "{shell}: no '{word}'");
        }
    }
    let bash = run(&["completions", "bash"]);
    assert!(bash.contains("complete -F _quartet"), "{bash}");
}

#[test]
fn an_unknown_shell_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_quartet"))
        .args(["completions", "cmd.exe"])
        .output()
        .expect("run quartet");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cmd.exe"));
}

#[test]
fn the_man_page_is_roff_with_the_subcommands() {
    let page = run(&["man"]);
    assert!(page.contains(".TH quartet 1"), "{page}");
    for word in ["perft", "selfplay", "completions", "\\-\\-game"] {
        assert!(page.contains(word), "no '{word}' in the man page");
    }
}

#[test]
fn every_page_the_man_page_names_is_written() {
    let dir = std::env::temp_dir().join(format!("quartet-man-{}", std::process::id()));
    let written = run(&["man", "--dir", dir.to_str().expect("a UTF-8 path")]);
    let page = run(&["man"]);
    let named: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|l| l.trim())
        .collect();
    assert!(named.len() >= 10, "{named:?}");
    for name in named {
        let file = format!("{}.1", name.replace("\\-", "-"));
        assert!(
            dir.join(&file).is_file(),
            "{file} named but not written:\n{written}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn completions_offer_the_games_players_and_rule_values() {
    let script = run(&["completions", "bash"]);
    let names = run(&["games", "--names"]);
    let games: Vec<&str> = names.lines().collect();
    assert!(
        script.contains(&format!("compgen -W \"{}\"", games.join(" "))),
        "{script}"
    );
    assert!(script.contains("compgen -W \"search random greedy mcts\""));
    assert!(script.contains("compgen -W \"alternate together\""));
    assert!(script.contains("compgen -W \"true false\""));
}
