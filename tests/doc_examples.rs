//! Every example session in protocol.md and README.md, run against the built binary.
//!
//! An example is an indented code block with lines starting `> ` (sent to the engine) and
//! the engine's answers, or a table row `` | `> line` | `answer` | ``. The lines sent are
//! piped into a fresh `quartet` (then the input ends), and its output must match the
//! answers: a line `...` stands for any number of lines, `...` inside a line for any text,
//! and the `nps` and `time` values of `info` lines (which depend on the machine) are not
//! compared. A block that begins with the banner line is compared from the banner on.
//! Empty lines at the end of the output are not compared (a block cannot show them).

use crate::common;

use common::{markdown, piped};

/// One example: the lines sent and the answers expected.
#[derive(Debug)]
struct Example {
    file: &'static str,
    line: usize,
    sent: Vec<String>,
    expected: Vec<String>,
    with_banner: bool,
}

/// The examples of a Markdown text: its table rows, then its code blocks with `> ` lines.
fn examples(file: &'static str, text: &str) -> Vec<Example> {
    let mut found: Vec<Example> = markdown::blocks(text)
        .into_iter()
        .filter(|b| b.lines.iter().any(|l| l.starts_with("> ")))
        .map(|b| {
            let (sent, expected): (Vec<&String>, Vec<&String>) =
                b.lines.iter().partition(|l| l.starts_with("> "));
            Example {
                file,
                line: b.line,
                sent: sent.iter().map(|l| l[2..].to_string()).collect(),
                expected: expected.iter().map(|l| l.to_string()).collect(),
                with_banner: b.lines[0].starts_with("Quartet "),
            }
        })
        .collect();
    for (i, line) in text.lines().enumerate() {
        found.extend(table_row(file, i + 1, line));
    }
    found
}

/// A table row `` | ... | `> line` | `answer` | ``.
fn table_row(file: &'static str, line: usize, text: &str) -> Option<Example> {
    let cells: Vec<&str> = text.trim().trim_matches('|').split(" | ").collect();
    let at = cells.iter().position(|c| c.starts_with("`> "))?;
    let unquote = |c: &str| c.trim().trim_matches('`').to_string();
    Some(Example {
        file,
        line,
        sent: vec![unquote(cells[at])[2..].to_string()],
        expected: vec![unquote(cells.get(at + 1)?)],
        with_banner: false,
    })
}

/// `line` without the machine-dependent values (`nps N`, `time N` of `info` lines).
fn comparable(line: &str) -> String {
    if !line.starts_with("info ") {
        return line.to_string();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if matches!(words[i - 1], "nps" | "time") && words[i].parse::<u64>().is_ok() {
            words[i] = "_";
        }
    }
    words.join(" ")
}

/// Whether `actual` fits the pattern line `expected` (`...` matches any text).
fn line_matches(expected: &str, actual: &str) -> bool {
    let (expected, actual) = (comparable(expected), comparable(actual));
    let parts: Vec<&str> = expected.split("...").collect();
    if parts.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether the lines `actual` fit the pattern lines `expected` (a `...` line matches any
/// number of lines).
fn lines_match(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => {
            (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| line_matches(e, a) && lines_match(rest, more)),
    }
}

fn check(file: &'static str, text: &str) -> usize {
    let all = examples(file, text);
    let mut failures = Vec::new();
    for ex in &all {
        let mut input = ex.sent.join("\n");
        input.push('\n');
        let mut output = piped(&[], &input);
        if !ex.with_banner && !output.is_empty() {
            output.remove(0);
        }
        // An indented Markdown block cannot end with an empty line (perft's last line).
        while output.last().is_some_and(String::is_empty) {
            output.pop();
        }
        if !lines_match(&ex.expected, &output) {
            failures.push(format!(
                "{}:{}: sent {:?}\nexpected {:#?}\ngot {:#?}",
                ex.file, ex.line, ex.sent, ex.expected, output
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    all.len()
}

#[test]
fn every_example_in_protocol_md_is_what_the_engine_does() {
    let n = check("protocol.md", include_str!("../protocol.md"));
    assert!(n >= 10, "only {n} examples found: the extraction is broken");
}

#[test]
fn every_example_in_the_readme_is_what_the_engine_does() {
    let n = check("README.md", include_str!("../README.md"));
    assert!(n >= 1, "only {n} examples found: the extraction is broken");
}

#[test]
fn the_matcher_refuses_what_differs() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(lines_match(
        &s(&["a", "...", "d"]),
        &s(&["a", "b", "c", "d"])
    ));
    assert!(!lines_match(&s(&["a", "...", "d"]), &s(&["a", "b", "c"])));
    assert!(!lines_match(&s(&["a"]), &s(&["a", "b"])));
    assert!(line_matches("x: ...", "x: y z"));
    assert!(!line_matches("x: ... q", "x: y z"));
    assert!(line_matches(
        "info depth 1 nps 5 time 0 pv a",
        "info depth 1 nps 77 time 12 pv a"
    ));
    assert!(!line_matches(
        "info depth 1 nodes 5",
        "info depth 1 nodes 6"
    ));
    let ex = examples(
        "t",
        "text\n\n    > go\n    bestmove x\n\n| a | `> hello` | `oops` |\n",
    );
    assert_eq!(ex.len(), 2);
    assert_eq!(
        (ex[0].sent.clone(), ex[0].expected.clone()),
        (s(&["go"]), s(&["bestmove x"]))
    );
    assert_eq!(
        (ex[1].sent.clone(), ex[1].expected.clone()),
        (s(&["hello"]), s(&["oops"]))
    );
}
