//! Parsing one input line into a [`Command`] with nom. An unknown command and a known
//! command with bad arguments are different errors: the argument parsers are wrapped in
//! `cut`-like `expect` so their failures are not mistaken for "no such command".

use super::command::{Command, GoParams, Query, Side, Tokens};
use super::line::{Words, skip_space, word_len};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while1};
use nom::character::complete::{multispace0, multispace1};
use nom::combinator::{eof, opt, peek, rest};
use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// Why a line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command '{0}' (type 'help' for the list)")]
    Unknown(String),
    /// A known command with arguments that do not fit.
    #[error("{command}: expected {expected}, found {found}")]
    BadArguments {
        /// The command word.
        command: &'static str,
        /// What the parser wanted.
        expected: String,
        /// What it found (quoted, shortened).
        found: String,
    },
    /// The line was longer than the limit and was dropped whole.
    #[error(
        "line longer than {} bytes ignored (it began '{command}')",
        super::line::MAX_LINE_BYTES
    )]
    TooLong {
        /// Its first word, shortened.
        command: String,
    },
}

/// The parser's error: what was expected and the input where it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    what: String,
    found: String,
}

impl NomParseError<&str> for Expected {
    fn from_error_kind(input: &str, kind: ErrorKind) -> Self {
        Expected {
            what: format!("{kind:?}").to_lowercase(),
            found: describe(input),
        }
    }
    fn append(_: &str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

type Res<'a, T> = IResult<&'a str, T, Expected>;

/// How the rest of a line is shown in errors: its first token, quoted, or "end of line".
fn describe(input: &str) -> String {
    let word: String = input
        .split_whitespace()
        .next()
        .map(|w| w.chars().take(40).collect())
        .unwrap_or_default();
    if word.is_empty() {
        "end of line".to_string()
    } else {
        format!("'{word}'")
    }
}

/// Runs `p`; if it fails, fails for good (no backtracking) saying `what` was expected.
/// A failure from inside `p` is more precise and passes through unchanged.
fn expect<'a, O>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = O, Error = Expected>,
) -> impl Parser<&'a str, Output = O, Error = Expected> {
    move |input: &'a str| match p.parse(input) {
        Ok(r) => Ok(r),
        Err(nom::Err::Error(_)) => Err(nom::Err::Failure(Expected {
            what: what.to_string(),
            found: describe(input),
        })),
        Err(e) => Err(e),
    }
}

/// A whitespace-free token.
fn token(input: &str) -> Res<'_, &str> {
    take_till1(char::is_whitespace).parse(input)
}

/// The keyword `k` as a whole token.
fn word<'a>(k: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Expected> {
    (tag(k), peek(alt((multispace1, eof)))).map(|(w, _)| w)
}

/// Whitespace then the keyword `k`.
fn then_word<'a>(k: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Expected> {
    preceded(multispace1, word(k))
}

/// A non-negative decimal number; values beyond `u64` saturate (limits are clamped later).
fn unsigned(input: &str) -> Res<'_, u64> {
    take_while1(|c: char| c.is_ascii_digit())
        .map(|digits: &str| digits.parse::<u64>().unwrap_or(u64::MAX))
        .parse(input)
}

/// A decimal number that may be negative (GUIs send negative clocks); saturating.
fn signed(input: &str) -> Res<'_, i64> {
    (opt(tag("-")), unsigned)
        .map(|(minus, n)| {
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            if minus.is_some() { -n } else { n }
        })
        .parse(input)
}

fn side(input: &str) -> Res<'_, Side> {
    alt((
        word("w").map(|_| Side::White),
        word("b").map(|_| Side::Black),
    ))
    .parse(input)
}

/// Every command word, as `help` lists them.
pub const COMMANDS: [&str; 16] = [
    "uci",
    "ugi",
    "isready",
    "debug",
    "register",
    "setoption",
    "ucinewgame",
    "uginewgame",
    "position",
    "go",
    "ponderhit",
    "stop",
    "quit",
    "d",
    "query",
    "help",
];

/// The commands that ignore the words after them, as UCI says: a line of one of them that
/// is too long to read is still carried out (protocol.md §1).
pub const IGNORE_WORDS_AFTER: [&str; 9] = [
    "uci",
    "ugi",
    "isready",
    "ucinewgame",
    "uginewgame",
    "stop",
    "quit",
    "ponderhit",
    "register",
];

/// Every parameter word of `go`, as `help` and the errors list them.
pub const GO_PARAMETERS: [&str; 18] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "side",
    "perft",
];

/// Whether `word` is one of [`GO_PARAMETERS`] (a `match`, which the compiler turns into a
/// switch on the length: it is asked for every token of a `searchmoves` list).
fn is_go_parameter(word: &str) -> bool {
    matches!(
        word,
        "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "p1time"
            | "p2time"
            | "p1inc"
            | "p2inc"
            | "movestogo"
            | "depth"
            | "nodes"
            | "mate"
            | "movetime"
            | "infinite"
            | "ponder"
            | "searchmoves"
            | "side"
            | "perft"
    )
}

/// One `go` argument, applied to `p`.
fn go_arg<'a>(input: &'a str, p: &mut GoParams<'a>) -> Res<'a, ()> {
    let (input, key) = token(input)?;
    let time = |input: &'a str| {
        expect("a number of milliseconds", preceded(multispace1, signed)).parse(input)
    };
    let count = |input: &'a str| {
        expect("a non-negative number", preceded(multispace1, unsigned)).parse(input)
    };
    let input = match key {
        "wtime" | "p1time" => time(input).map(|(i, v)| (i, p.p1time = Some(v)))?.0,
        "btime" | "p2time" => time(input).map(|(i, v)| (i, p.p2time = Some(v)))?.0,
        "winc" | "p1inc" => time(input).map(|(i, v)| (i, p.p1inc = Some(v)))?.0,
        "binc" | "p2inc" => time(input).map(|(i, v)| (i, p.p2inc = Some(v)))?.0,
        "movestogo" => count(input).map(|(i, v)| (i, p.movestogo = Some(v)))?.0,
        "depth" => count(input).map(|(i, v)| (i, p.depth = Some(v)))?.0,
        "nodes" => count(input).map(|(i, v)| (i, p.nodes = Some(v)))?.0,
        "movetime" => count(input).map(|(i, v)| (i, p.movetime = Some(v)))?.0,
        "perft" => count(input).map(|(i, v)| (i, p.perft = Some(v)))?.0,
        "mate" => count(input).map(|(i, v)| (i, p.mate = Some(v)))?.0,
        "infinite" => {
            p.infinite = true;
            input
        }
        "ponder" => {
            p.ponder = true;
            input
        }
        "searchmoves" => {
            // Every token up to the next `go` parameter (or the end of the line) is a move;
            // none at all restricts nothing (Stockfish searches every move then).
            let (i, moves) = span_until(input, is_go_parameter);
            p.searchmoves.push(moves);
            i
        }
        "side" => {
            let (i, s) = expect("'w' or 'b'", preceded(multispace1, side)).parse(input)?;
            p.side = Some(s);
            i
        }
        _ => {
            return Err(nom::Err::Failure(Expected {
                what: format!("a go parameter ({})", GO_PARAMETERS.join(" ")),
                found: describe(key),
            }));
        }
    };
    Ok((input, ()))
}

fn go_args(mut input: &str) -> Res<'_, GoParams<'_>> {
    let mut p = GoParams::default();
    loop {
        let (rest_input, _) = multispace0(input)?;
        if rest_input.is_empty() {
            return Ok((rest_input, p));
        }
        let (after, _) = go_arg(rest_input, &mut p)?;
        input = after;
    }
}

/// The tokens after `input`, each after white space, up to (not including) the first for
/// which `stop` holds, or the end of the line: the input after them and the text they span
/// (from the first token's start to the last one's end). Linear in what it passes over, and
/// nothing is allocated: a line may be 16 MiB.
fn span_until(input: &str, stop: impl Fn(&str) -> bool) -> (&str, &str) {
    let mut rest = input;
    loop {
        let after = skip_space(rest);
        if after.len() == rest.len() {
            break;
        }
        let len = word_len(after);
        let token = &after[..len];
        if token.is_empty() || stop(token) {
            break;
        }
        rest = &after[len..];
    }
    let taken = input.len() - rest.len();
    (rest, skip_space(&input[..taken]))
}

/// The tokens up to (not including) the keyword `stop` or the end of the line, joined by
/// single spaces; an error if there is none.
fn words_until<'a>(stop: &'static str) -> impl Parser<&'a str, Output = String, Error = Expected> {
    move |input: &'a str| {
        let (rest, span) = span_until(input, |t| t == stop);
        if span.is_empty() {
            return Err(nom::Err::Error(Expected::from_error_kind(
                input,
                ErrorKind::Many1,
            )));
        }
        let mut words = String::with_capacity(span.len());
        for word in Words(span) {
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(word);
        }
        Ok((rest, words))
    }
}

fn position_args(input: &str) -> Res<'_, Command<'_>> {
    let start = alt((
        then_word("startpos").map(|_| None),
        preceded(
            then_word("fen"),
            expect("a position string after 'fen'", words_until("moves")).map(Some),
        ),
    ));
    let (input, fen) = expect("'startpos' or 'fen <position>'", start).parse(input)?;
    // The move tokens stay one text; the game reads them one by one.
    let (input, moves) = opt(preceded(then_word("moves"), rest)).parse(input)?;
    Ok((
        input,
        Command::Position {
            fen,
            moves: Tokens::new(moves.unwrap_or_default()),
        },
    ))
}

fn setoption_args(input: &str) -> Res<'_, Command<'_>> {
    let (input, _) = expect("'name <option>'", then_word("name")).parse(input)?;
    let (input, name) = expect("an option name", words_until("value")).parse(input)?;
    // `value` with nothing after it gives no value, which the option then refuses as
    // "no value" (a button takes none).
    let (input, value) = opt(preceded(
        then_word("value"),
        rest.map(|r: &str| {
            let r = r.trim();
            (!r.is_empty()).then(|| r.to_string())
        }),
    ))
    .parse(input)?;
    Ok((
        input,
        Command::SetOption {
            name,
            value: value.flatten(),
        },
    ))
}

/// An optional `w` or `b` after whitespace; another token is an error.
fn optional_side(input: &str) -> Res<'_, Option<Side>> {
    opt(preceded(
        (multispace1, peek(token)),
        expect("'w' or 'b'", side),
    ))
    .parse(input)
}

fn query_args(input: &str) -> Res<'_, Command<'_>> {
    let questions = alt((
        word("gameover").map(|_| Query::GameOver),
        word("p1turn").map(|_| Query::P1Turn),
        word("result").map(|_| Query::Result),
        word("fen").map(|_| Query::Fen),
        word("node").map(|_| Query::Node),
        word("reason").map(|_| Query::Reason),
        word("position").map(|_| Query::Position),
        word("chance").map(|_| Query::Chance),
        word("winchance").map(|_| Query::WinChance),
        preceded(
            word("islegal"),
            (
                expect("a move token", preceded(multispace1, token)),
                optional_side,
            ),
        )
        .map(|(t, s): (&str, _)| Query::IsLegal(t.to_string(), s)),
        preceded(word("legalmoves"), optional_side).map(Query::LegalMoves),
    ));
    preceded(multispace1, questions)
        .map(Command::Query)
        .parse(input)
}

/// The command words, each with its argument parser.
fn command<'a>(input: &'a str) -> Res<'a, (&'static str, Command<'a>)> {
    let simple = |k: &'static str, c: Command<'a>| word(k).map(move |_| (k, c.clone()));
    // As UCI says, tokens after these commands are ignored.
    let lenient = |k: &'static str, c: Command<'a>| (word(k), rest).map(move |_| (k, c.clone()));
    alt((
        lenient("uci", Command::Uci),
        lenient("ugi", Command::Ugi),
        lenient("isready", Command::IsReady),
        lenient("ucinewgame", Command::NewGame),
        lenient("uginewgame", Command::NewGame),
        lenient("stop", Command::Stop),
        lenient("quit", Command::Quit),
        lenient("ponderhit", Command::PonderHit),
        lenient("register", Command::Register),
        preceded(
            word("debug"),
            expect(
                "'on' or 'off'",
                preceded(
                    multispace1,
                    alt((word("on").map(|_| true), word("off").map(|_| false))),
                ),
            ),
        )
        .map(|on| ("debug", Command::Debug(on))),
        simple("d", Command::Display),
        simple("help", Command::Help),
        preceded(
            word("setoption"),
            expect("'name <option> [value <value>]'", setoption_args),
        )
        .map(|c| ("setoption", c)),
        preceded(
            word("position"),
            expect(
                "'startpos' or 'fen <position>', then optionally 'moves ...'",
                position_args,
            ),
        )
        .map(|c| ("position", c)),
        preceded(word("go"), go_args.map(Command::Go)).map(|c| ("go", c)),
        preceded(
            word("query"),
            expect(
                "gameover|p1turn|result|fen|node|reason|position|chance|winchance|\
                islegal <move> [w|b]|legalmoves [w|b]",
                query_args,
            ),
        )
        .map(|c| ("query", c)),
    ))
    .parse(input)
}

/// Parses one line (without its line break).
pub fn parse_command(line: &str) -> Result<Command<'_>, CommandError> {
    let input = line.trim_start();
    let first = input.split_whitespace().next().unwrap_or("");
    match command(input) {
        Ok((after, (name, command))) => match (multispace0::<&str, Expected>, eof).parse(after) {
            Ok(_) => Ok(command),
            Err(_) => Err(CommandError::BadArguments {
                command: name,
                expected: "end of line".to_string(),
                found: describe(after),
            }),
        },
        Err(nom::Err::Failure(e)) => Err(CommandError::BadArguments {
            command: known_name(first),
            expected: e.what,
            found: e.found,
        }),
        Err(_) => Err(CommandError::Unknown(first.chars().take(40).collect())),
    }
}

/// The static name of a known command word (for error messages).
fn known_name(word: &str) -> &'static str {
    ["setoption", "position", "go", "query", "debug"]
        .into_iter()
        .find(|&k| k == word)
        .unwrap_or("command")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_command_word_is_a_command() {
        for word in COMMANDS {
            assert!(
                !matches!(parse_command(word), Err(CommandError::Unknown(_))),
                "{word}"
            );
        }
        assert!(matches!(
            parse_command("perft"),
            Err(CommandError::Unknown(_))
        ));
    }

    fn ok(line: &str) -> Command<'_> {
        parse_command(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    fn bad(line: &str) -> String {
        match parse_command(line) {
            Ok(c) => panic!("{line:?} parsed as {c:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  ugi  "), Command::Ugi);
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert_eq!(ok("uginewgame"), Command::NewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit\r"), Command::Quit);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("help"), Command::Help);
    }

    #[test]
    fn unknown_and_prefix_words_are_unknown() {
        assert!(matches!(parse_command("ucix"), Err(CommandError::Unknown(w)) if w == "ucix"));
        assert!(matches!(parse_command("dd"), Err(CommandError::Unknown(_))));
        assert!(matches!(
            parse_command("gone"),
            Err(CommandError::Unknown(_))
        ));
        assert!(matches!(parse_command(""), Err(CommandError::Unknown(w)) if w.is_empty()));
        assert!(matches!(
            parse_command("UCI"),
            Err(CommandError::Unknown(_))
        ));
    }

    #[test]
    fn trailing_words_are_ignored_where_uci_says_so() {
        assert_eq!(ok("isready now"), Command::IsReady);
        assert_eq!(ok("uci extra words"), Command::Uci);
        assert_eq!(ok("stop x"), Command::Stop);
        assert_eq!(ok("quit x"), Command::Quit);
        assert_eq!(ok("ucinewgame x"), Command::NewGame);
        assert_eq!(ok("ponderhit"), Command::PonderHit);
        assert_eq!(ok("register later"), Command::Register);
        assert_eq!(ok("register name A code 1"), Command::Register);
        assert_eq!(ok("debug on"), Command::Debug(true));
        assert_eq!(ok("debug off"), Command::Debug(false));
        assert!(bad("debug maybe").contains("'on' or 'off'"));
        assert_eq!(bad("d now"), "d: expected end of line, found 'now'");
    }

    #[test]
    fn the_commands_that_ignore_the_words_after_them_are_those_listed() {
        for word in COMMANDS {
            let alone = parse_command(word);
            let line = format!("{word} some words");
            let followed = parse_command(&line);
            assert_eq!(
                IGNORE_WORDS_AFTER.contains(&word),
                alone.is_ok() && alone == followed,
                "{word}"
            );
        }
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 100"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            ok("setoption name X value a  b"),
            Command::SetOption {
                name: "X".into(),
                value: Some("a  b".into())
            }
        );
        assert!(bad("setoption").starts_with("setoption: expected"));
        assert!(bad("setoption value 3").contains("name"));
        // `value` with nothing after it: no value (the option says so).
        assert_eq!(
            ok("setoption name Hash value"),
            Command::SetOption {
                name: "Hash".into(),
                value: None
            }
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos"),
            Command::Position {
                fen: None,
                moves: Tokens::default()
            }
        );
        let Command::Position { fen, moves } = ok("position startpos moves d1d7  e8e7 ") else {
            panic!("not position")
        };
        assert_eq!(fen, None);
        assert_eq!(moves.iter().collect::<Vec<_>>(), ["d1d7", "e8e7"]);
        assert_eq!(
            ok("position fen 4BK4/9 w  0 1 moves"),
            Command::Position {
                fen: Some("4BK4/9 w 0 1".into()),
                moves: Tokens::default()
            }
        );
        assert!(bad("position").contains("startpos"));
        assert!(bad("position fen").contains("position string"));
        assert!(bad("position fen moves a1a2").contains("position string"));
        assert!(bad("position somewhere").contains("startpos"));
    }

    #[test]
    fn go_arguments() {
        let Command::Go(p) = ok(
            "go wtime -5 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 100 movetime 30 \
            infinite side b",
        ) else {
            panic!("not go")
        };
        assert_eq!(p.p1time, Some(-5));
        assert_eq!(p.p2time, Some(2000));
        assert_eq!((p.p1inc, p.p2inc), (Some(10), Some(20)));
        assert_eq!(
            (p.movestogo, p.depth, p.nodes, p.movetime),
            (Some(5), Some(7), Some(100), Some(30))
        );
        assert!(p.infinite);
        assert_eq!(p.side, Some(Side::Black));
        let Command::Go(p) = ok("go p1time 1 p2time 2 p1inc 3 p2inc 4") else {
            panic!("not go")
        };
        assert_eq!(
            (p.p1time, p.p2time, p.p1inc, p.p2inc),
            (Some(1), Some(2), Some(3), Some(4))
        );
        assert_eq!(ok("go"), Command::Go(GoParams::default()));
        let Command::Go(p) = ok("go perft 3") else {
            panic!("not go")
        };
        assert_eq!(p.perft, Some(3));
        let Command::Go(p) = ok("go mate 3 searchmoves d1d7 a1e2n depth 4 ponder") else {
            panic!("not go")
        };
        assert_eq!(p.mate, Some(3));
        assert_eq!(p.searchmoves.iter().collect::<Vec<_>>(), ["d1d7", "a1e2n"]);
        assert_eq!(p.depth, Some(4));
        assert!(p.ponder);
        // An empty searchmoves restricts nothing (Stockfish searches every move).
        assert_eq!(ok("go searchmoves"), Command::Go(GoParams::default()));
        let Command::Go(p) = ok("go searchmoves depth 3") else {
            panic!("not go")
        };
        assert!(p.searchmoves.is_empty());
        assert_eq!(p.depth, Some(3));
        let Command::Go(p) = ok("go searchmoves a1a6 depth 3 searchmoves b1b2") else {
            panic!("not go")
        };
        assert_eq!(p.searchmoves.iter().collect::<Vec<_>>(), ["a1a6", "b1b2"]);
    }

    #[test]
    fn the_go_parameters_are_those_listed() {
        for word in GO_PARAMETERS {
            assert!(is_go_parameter(word), "{word}");
            let line = format!("go {word}");
            let parsed = parse_command(&line);
            let refused_as_unknown = matches!(
                parsed,
                Err(CommandError::BadArguments { expected, .. })
                    if expected.starts_with("a go parameter")
            );
            assert!(!refused_as_unknown, "{word}");
        }
        for word in ["go", "a1a6", "wtim", "wtimes", "Depth", ""] {
            assert!(!is_go_parameter(word), "{word}");
        }
    }

    #[test]
    fn huge_numbers_saturate() {
        let Command::Go(p) =
            ok("go depth 99999999999999999999999999 wtime -99999999999999999999999")
        else {
            panic!("not go")
        };
        assert_eq!(p.depth, Some(u64::MAX));
        assert_eq!(p.p1time, Some(-i64::MAX));
    }

    #[test]
    fn go_errors_name_the_problem() {
        assert_eq!(
            bad("go depth x"),
            "go: expected a non-negative number, found 'x'"
        );
        assert_eq!(
            bad("go depth"),
            "go: expected a non-negative number, found end of line"
        );
        assert!(bad("go depth -3").contains("non-negative"));
        assert!(bad("go sideways").contains("go parameter"));
        assert!(bad("go side x").contains("'w' or 'b'"));
    }

    #[test]
    fn queries() {
        assert_eq!(ok("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(ok("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(ok("query result"), Command::Query(Query::Result));
        assert_eq!(ok("query fen"), Command::Query(Query::Fen));
        assert_eq!(
            ok("query islegal d1d7"),
            Command::Query(Query::IsLegal("d1d7".into(), None))
        );
        assert_eq!(
            ok("query islegal c1c3 b"),
            Command::Query(Query::IsLegal("c1c3".into(), Some(Side::Black)))
        );
        assert!(bad("query islegal c1c3 x").contains("'w' or 'b'"));
        assert_eq!(ok("query node"), Command::Query(Query::Node));
        assert_eq!(ok("query reason"), Command::Query(Query::Reason));
        assert_eq!(ok("query chance"), Command::Query(Query::Chance));
        assert_eq!(ok("query position"), Command::Query(Query::Position));
        assert_eq!(
            ok("query legalmoves"),
            Command::Query(Query::LegalMoves(None))
        );
        assert_eq!(
            ok("query legalmoves w"),
            Command::Query(Query::LegalMoves(Some(Side::White)))
        );
        assert_eq!(
            ok("query legalmoves  "),
            Command::Query(Query::LegalMoves(None))
        );
        assert!(bad("query legalmoves x").contains("'w' or 'b'"));
        assert!(bad("query").starts_with("query: expected"));
        assert!(bad("query islegal").contains("move token"));
        assert!(bad("query weather").starts_with("query: expected"));
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let mut seed = 7u64;
        for _ in 0..20_000 {
            let mut s = String::new();
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let len = (seed >> 58) as usize;
            for _ in 0..len {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                let pick = [
                    "go ",
                    "position ",
                    "fen ",
                    "moves ",
                    "depth ",
                    "-",
                    "1",
                    "setoption ",
                    "name ",
                    "value ",
                    "query ",
                    "\u{e9}",
                    " ",
                    "\t",
                    "w",
                    "startpos",
                    "99999999999999999999",
                ];
                s.push_str(pick[(seed >> 40) as usize % pick.len()]);
            }
            let _ = parse_command(&s);
        }
    }
}
