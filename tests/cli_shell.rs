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
