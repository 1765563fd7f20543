//! The writer and the reader together: what one writes, the other reads back.

use super::*;

fn record(tags: &[(&str, &str)], moves: &str, result: &str) -> Record {
    Record {
        tags: tags
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        moves: moves.split_whitespace().map(String::from).collect(),
        result: result.to_string(),
        ..Record::default()
    }
}

#[test]
fn text_round_trip_with_escapes_and_long_lists() {
    let long = vec!["t1 p"; 30].join(" ");
    let a = record(&[("Game", "nim"), ("White", "a \"q\" \\ b")], &long, "1-0");
    let b = record(&[("Game", "dice")], "0-1 1-0", "0-1");
    let text = a.to_text() + &b.to_text();
    assert!(text.lines().all(|l| l.len() <= 79));
    assert!(text.starts_with("[Game \"nim\"]\n[White \"a \\\"q\\\" \\\\ b\"]\n\nt1 p t1"));
    assert_eq!(parse_records(&text).unwrap(), vec![a.clone(), b]);
    assert_eq!(a.tag("White"), Some("a \"q\" \\ b"));
    assert_eq!(a.tag("Black"), None);
}

/// The referee's writer, byte for byte: comments split into words at spaces and wrapped
/// with the tokens, a long word alone on its line, a blank line after the result.
#[test]
fn the_text_is_the_referees() {
    let mut r = record(&[("Game", "nim")], "t1 t2 t3", "1-0");
    r.comments = vec![
        Some("book".into()),
        None,
        Some(format!("+0.35/12 0.520s {} [%clk 0:00:09]", "x".repeat(75))),
    ];
    let expected = format!(
        "[Game \"nim\"]\n\nt1 {{book}} t2 t3 {{+0.35/12 0.520s\n{}\n[%clk 0:00:09]}} 1-0\n\n",
        "x".repeat(75)
    );
    assert_eq!(r.to_text(), expected);
}

/// A record the GUI writes (its clock readings as comments) reads back as it was, the
/// readings in `clocks`, also when the comments go over lines.
#[test]
fn clock_readings_are_written_after_their_tokens_and_read_back() {
    let clocks = [vec![299_500], vec![], vec![3_600_000], vec![59_000, 61_250]];
    let long = ["d1d7 e8e7"; 8].join(" ");
    let mut r = record(
        &[("Game", "duell"), ("TimeControl", "60+0.5")],
        &format!("d1d7 e8e7 a1b2 a1b2/c3d4 {long}"),
        "*",
    );
    r.comments = clocks.iter().map(|c| clock_comment(c)).collect();
    let text = r.to_text();
    assert!(text.lines().all(|l| l.len() <= 79));
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(concat!(
            "d1d7 {[%clk 0:04:59.5]} e8e7 a1b2 {[%clk 1:00:00]} ",
            "a1b2/c3d4 {[%clk 0:00:59] / [%clk 0:01:01.2]} d1d7"
        )),
        "{text}"
    );
    let back = parse_records(&text).unwrap();
    let expected = Record {
        comments: Vec::new(),
        clocks: vec![vec![299_500], vec![], vec![3_600_000], vec![59_000, 61_200]],
        ..r
    };
    assert_eq!(back, [expected]);
    // The referee's comments: a score, a time and the clock, over lines; a bad reading and
    // a comment before the first token or after the result are no token's.
    let referee = "[Game \"duell\"]\n\n{start} d1d7 {+0.35/12 0.520s\n[%clk 0:00:09]} e8e7 \
                   {[%clk x]} e7e6 {[%clk 0:61:00]} 1-0 {[%clk 0:00:01]}\n";
    assert_eq!(parse_records(referee).unwrap()[0].clocks, [vec![9_000]]);
    // Each record has its own readings.
    let two = "[Game \"x\"]\n\na {[%clk 0:00:01]} 1-0\n[Game \"x\"]\n\nb c {[%clk 0:00:02]} 0-1\n";
    let two = parse_records(two).unwrap();
    assert_eq!(
        (&two[0].clocks[..], &two[1].clocks[..]),
        (&[vec![1_000]][..], &[vec![], vec![2_000]][..])
    );
}

#[test]
fn reader_skips_comments_and_reports_lines() {
    let text = "[Game \"nim\"]\n\nt1 {a comment\nover lines} t2 ; rest\np 1-0\n";
    let recs = parse_records(text).unwrap();
    assert_eq!(recs[0].moves, ["t1", "t2", "p"]);
    assert_eq!(recs[0].result, "1-0");
    let err = parse_records("[Game nim]\n").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.to_string().starts_with("line 1: "), "{err}");
    let err = parse_records("[Game \"nim\"]\n\nt1 {open\n").unwrap_err();
    assert_eq!(err.to_string(), "line 3: unterminated { comment");
    assert!(parse_records("[Game \"nim\"]\n").is_err());
    assert!(parse_records("[Ga me \"x\"]\n").is_err());
    assert!(parse_records("[Game \"a\\n\"]\n\n*").is_err());
    assert!(parse_records("[Game \"a\"b\"]\n\n*").is_err());
    assert_eq!(parse_records("\n\n").unwrap(), vec![]);
    // A game under way.
    let recs = parse_records("[Game \"duell\"]\n\nd1d7 e8e7\n*\n").unwrap();
    assert_eq!((recs[0].moves.len(), recs[0].result.as_str()), (2, "*"));
}

#[test]
fn reader_skips_annotations() {
    let text = "[Game \"nim\"]\n\n{start: 50 %} t1?! {[%eval 0.3] best t2} t2!! t1?? ;x\n\
                t3!? $2 t1? t2 ?! t3! 1-0\n";
    let recs = parse_records(text).unwrap();
    assert_eq!(recs[0].moves, ["t1", "t2", "t1", "t3", "t1", "t2", "t3"]);
    assert_eq!(recs[0].result, "1-0");
    // An annotation after the last move is not the result.
    let recs = parse_records("[Game \"nim\"]\n\nt3?? {lost} 0-1\n").unwrap();
    assert_eq!(
        (recs[0].moves.as_slice(), recs[0].result.as_str()),
        (&["t3".to_string()][..], "0-1")
    );
    // A suffix not of the list stays on the token, for the rules to refuse.
    assert_eq!(without_annotation("t1???"), Some("t1???"));
    assert_eq!(without_annotation("t1!!?"), Some("t1!!?"));
    assert_eq!(without_annotation("$"), Some("$"));
    assert_eq!(without_annotation("$x"), Some("$x"));
    assert_eq!(without_annotation("$12"), None);
    assert_eq!(without_annotation("??"), None);
    assert_eq!(without_annotation("1-0"), Some("1-0"));
}

#[test]
fn a_move_that_looks_like_a_result_is_a_move() {
    // Ludo's move 0-1 before the result 1-0.
    let r = &parse_records("[Game \"ludo\"]\n\nr1 0-1 1-0\n").unwrap()[0];
    assert_eq!(r.moves, ["r1", "0-1"]);
    assert_eq!(r.result, "1-0");
}

#[test]
fn another_program_s_record_reads_as_it_is() {
    // cutegames: move numbers.
    let text = "[Site \"CuteGames\"]\n[FEN \"startpos\"]\n\n1. t3 t3 2. t3 t3 3. t3 1-0\n\n\
                [FEN \"startpos\"]\n[Adjudicated \"Out of time\"]\n\n1... t3 2. t1 0-1\n";
    let recs = parse_records(text).unwrap();
    assert_eq!(recs[0].moves, ["t3"; 5]);
    assert_eq!(recs[1].moves, ["t3", "t1"]);
    assert_eq!(recs[1].tag("Adjudicated"), Some("Out of time"));
    // Words that only look like numbers are moves.
    let recs = parse_records("[Game \"x\"]\n\n3 . .5 1-0 0-1\n").unwrap();
    assert_eq!(recs[0].moves, ["3", ".", ".5", "1-0"]);
}
