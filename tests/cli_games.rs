//! `quartet games` lists the registry as the scripts read it (`scripts/registry.py`): every
//! game of the `Game` option in its order, each rule option the `uci` listing declares (and the command line as a flag), and
//! the node kind of each start position.

use crate::common;

use serde_json::Value;

/// The binary's output for `args` with `input` piped in, as one text.
fn stdout(args: &[&str], input: &str) -> String {
    common::piped(args, input).join("\n")
}

fn registry() -> Vec<Value> {
    let json: Value = serde_json::from_str(&stdout(&["games"], "")).expect("one JSON value");
    json.as_array().expect("an array").clone()
}

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} in {v}"))
        .to_string()
}

#[test]
fn the_names_are_the_game_options_vars_in_order() {
    let names: Vec<String> = registry().iter().map(|g| text(g, "name")).collect();
    let listed: Vec<String> = stdout(&["games", "--names"], "")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(names, listed);
    let uci = stdout(&[], "uci\nquit\n");
    let game_option = uci
        .lines()
        .find(|l| l.starts_with("option name Game "))
        .expect("a Game option");
    let vars: Vec<String> = game_option
        .split(" var ")
        .skip(1)
        .map(|v| v.trim().to_string())
        .collect();
    assert_eq!(names, vars, "{game_option}");
    let defaults: Vec<String> = registry()
        .iter()
        .filter(|g| g["default"] == Value::Bool(true))
        .map(|g| text(g, "name"))
        .collect();
    assert_eq!(defaults.len(), 1, "{defaults:?}");
    assert!(game_option.contains(&format!("default {} ", defaults[0])));
}

#[test]
fn every_rule_option_is_declared_by_uci_with_its_type_and_default() {
    let uci = stdout(&[], "uci\nquit\n");
    let perft_help = stdout(&["perft", "--help"], "");
    let mut seen = 0;
    for game in registry() {
        for option in game["rule_options"].as_array().expect("rule_options") {
            let (name, kind) = (text(option, "name"), text(option, "type"));
            let default = text(option, "default");
            let line = format!("option name {name} type {kind} default {default}");
            assert!(uci.lines().any(|l| l.starts_with(&line)), "{line}\n{uci}");
            let flag = format!("--{}", text(option, "flag"));
            assert!(
                perft_help.contains(&flag),
                "quartet perft --help: no {flag}"
            );
            seen += 1;
        }
    }
    assert!(
        seen >= 3,
        "DoubleStep, Pieces and Placement at least: {seen}"
    );
}

#[test]
fn the_start_node_is_what_query_node_says() {
    for game in registry() {
        let name = text(&game, "name");
        let out = stdout(
            &[],
            &format!("setoption name Game value {name}\nposition startpos\nquery node\nquit\n"),
        );
        let answer = out
            .lines()
            .find_map(|l| l.strip_prefix("response "))
            .expect("a response");
        let kind = answer.split_whitespace().next().unwrap_or_default();
        assert_eq!(kind, text(&game, "start"), "{name}: {answer}");
    }
}
