//! The skill options over the protocol: level 20 (the default) is today's play line for
//! line, bad values are refused with an error and change nothing.

use crate::common;

use common::piped;
use quartet_engine::skill::{ELO_MAX, ELO_MIN};

/// The output with the machine-dependent `nps` and `time` values blanked.
fn normalised(lines: Vec<String>) -> Vec<String> {
    lines
        .into_iter()
        .map(|l| {
            let mut words: Vec<&str> = l.split(' ').collect();
            for i in 1..words.len() {
                if matches!(words[i - 1], "nps" | "time") {
                    words[i] = "_";
                }
            }
            words.join(" ")
        })
        .collect()
}

/// A search of each game (a side's declaration in Apocalypse, a decision in Ludo).
const SEARCHES: &str = "\
position startpos moves a1a6 i8i3
go depth 4
setoption name Game value rnb
position startpos
go depth 4
setoption name Game value apocalypse
position startpos
go depth 2 side w
setoption name Game value ludo
position startpos moves r6 b-0 r3 0-3 r5 pass r6 b-0 r6
go depth 3
";

#[test]
fn skill_level_20_and_elo_without_limit_strength_change_nothing() {
    let plain = normalised(piped(&[], SEARCHES));
    assert!(plain.iter().filter(|l| l.starts_with("bestmove ")).count() == 4);
    for options in [
        "setoption name Skill Level value 20\n".to_string(),
        format!("setoption name UCI_Elo value {ELO_MIN}\n"),
        format!(
            "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value {ELO_MAX}\n"
        ),
        "setoption name Skill Level value 3\nsetoption name skill level value 20\n".to_string(),
    ] {
        let with = normalised(piped(&[], &format!("{options}{SEARCHES}")));
        assert_eq!(with, plain, "with {options:?}");
    }
}

#[test]
fn a_lower_level_changes_the_search() {
    let plain = normalised(piped(&[], SEARCHES));
    let weak = normalised(piped(
        &[],
        &format!("setoption name Skill Level value 0\n{SEARCHES}"),
    ));
    // Level 0 searches one ply deep in the turn games.
    assert!(weak.iter().any(|l| l.starts_with("info depth 1 ")));
    assert!(
        !weak.iter().any(|l| l.starts_with("info depth 4 ")),
        "{weak:?}"
    );
    assert_ne!(weak, plain);
}

#[test]
fn bad_skill_values_are_refused_and_change_nothing() {
    let input = format!(
        "setoption name Skill Level value 21\n\
         setoption name Skill Level value -1\n\
         setoption name UCI_LimitStrength value maybe\n\
         setoption name UCI_Elo value {}\n\
         setoption name UCI_Elo value {}\n\
         setoption name UCI_Elo value strong\n\
         setoption name UCI_Elo\n",
        ELO_MAX + 1,
        i64::from(ELO_MIN) - 1
    );
    let out = piped(&[], &format!("{input}{SEARCHES}"));
    let errors: Vec<String> = out
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .cloned()
        .collect();
    assert_eq!(
        errors,
        [
            "info string error: setoption: Skill Level: 21 is out of range 0..20".to_string(),
            "info string error: setoption: Skill Level: -1 is out of range 0..20".to_string(),
            "info string error: setoption: UCI_LimitStrength: 'maybe' is not true or false"
                .to_string(),
            format!(
                "info string error: setoption: UCI_Elo: {} is out of range {ELO_MIN}..{ELO_MAX}",
                ELO_MAX + 1
            ),
            format!(
                "info string error: setoption: UCI_Elo: {} is out of range {ELO_MIN}..{ELO_MAX}",
                i64::from(ELO_MIN) - 1
            ),
            "info string error: setoption: UCI_Elo: 'strong' is not a whole number".to_string(),
            "info string error: setoption: UCI_Elo: no value (setoption name UCI_Elo value <value>)"
                .to_string(),
        ]
    );
    let rest: Vec<String> = out
        .into_iter()
        .filter(|l| !l.starts_with("info string error: "))
        .collect();
    assert_eq!(normalised(rest), normalised(piped(&[], SEARCHES)));
}

#[test]
fn uci_lists_the_skill_options() {
    let out = piped(&[], "uci\n");
    let want = [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {ELO_MIN} min {ELO_MIN} max {ELO_MAX}"),
    ];
    let at = out.iter().position(|l| *l == want[0]).expect("Skill Level");
    assert_eq!(out[at..at + 3], want);
}
