//! Game records checked and replayed with the rules; the text form is `quartet_records`'s
//! (one writer and reader for the referee and the GUI).
//!
//! The referee writes the tags `Event Site Date Round White Black Result Game`, one tag per
//! rule option of the game, named and written as UCI does (`[Placement "together"]`), then
//! `Termination [Reason] TimeControl Seed FEN OpeningPlies PlyCount` (`WhiteTimeControl`
//! and `BlackTimeControl` instead of `TimeControl` when the engines' limits differ), so
//! that a record replays with no flag but its file: `Game` is the `Game` option's value,
//! `Reason` the words the game declares for its end by the rules (or what an adjudicated
//! engine did, or why the referee adjudicated), `FEN` the start position string (also for
//! the start position), `Seed` the seed the game's chance outcomes are drawn from (from
//! which each engine got its own `Seed` option, one per seat), `OpeningPlies` how many
//! tokens of the move list were the opening. After each token it writes a comment: `{book}`
//! for the opening's, none for a chance outcome, and for an engine's move
//! `{score/depth time}` (`{+0.35/12 0.520s}`, pawns of the game's `score cp`, `+M3` for a
//! forced win), with `p=0.667` for the probability its policy gave a simultaneous
//! declaration and `[%clk h:mm:ss]` for its clock after the move under a clock; the two
//! halves of a joint turn's comment are separated by ` / ` as in its token.

use quartet_core::game::{Node, Outcome, Player, RuleOptions};
use quartet_core::history::GameHistory;
use quartet_core::notation::Notation;
use quartet_records::{Record, SyntaxError};

use super::adjudicate::{Termination, rules_ending};
use super::dice::{DiceStream, DiceStreams, PER_PLAYER};

/// Why a record could not be read or does not check.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text is not in the record format.
    #[error("line {line}: {why}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// The record does not agree with the rules.
    #[error("game {game}{}: {why}", .ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
    Check {
        /// 1-based index of the record in the text.
        game: usize,
        /// 1-based ply of the offending token, if a token is at fault.
        ply: Option<usize>,
        /// What is wrong.
        why: String,
    },
}

impl From<SyntaxError> for RecordError {
    fn from(e: SyntaxError) -> Self {
        RecordError::Syntax {
            line: e.line,
            why: e.why,
        }
    }
}

/// The PGN result text of an outcome (`1-0`: the first player won).
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::First) => "1-0",
        Outcome::Win(Player::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The result of a game still under way (PGN's `*`).
pub const UNFINISHED: &str = "*";

/// The `Termination` tag of a game still under way.
pub const UNTERMINATED: &str = "unterminated";

/// Reads a result text back.
pub fn parse_result(text: &str) -> Option<Outcome> {
    match text {
        "1-0" => Some(Outcome::Win(Player::First)),
        "0-1" => Some(Outcome::Win(Player::Second)),
        "1/2-1/2" => Some(Outcome::Draw),
        _ => None,
    }
}

/// What a record's `FEN` tag may say for the start position (cutegames writes it so).
pub const START_FEN: &str = "startpos";

/// A record that passed [`check_record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedGame {
    /// The record as read.
    pub record: Record,
    /// Its outcome, or `None` for a game still under way (result `*`, as a GUI saves one).
    pub outcome: Option<Outcome>,
    /// How it ended (`None` while under way: `Termination` tag `unterminated` or absent).
    pub termination: Option<Termination>,
    /// The position string after the last token.
    pub final_position: String,
}

/// The rules a record was played under: `rules` with each rule option of `G` that has a
/// tag of its name set to the tag's value (a record's tag wins over the caller's setting).
pub fn record_rules<G: Notation>(
    record: &Record,
    rules: &RuleOptions,
) -> Result<RuleOptions, String> {
    G::DECLARATION
        .rule_options
        .iter()
        .try_fold(*rules, |rules, option| match record.tag(option.name) {
            Some(text) => rules.with(option, option.parse_value(text)?),
            None => Ok(rules),
        })
}

/// Re-checks record number `index` (1-based, for messages) with the rules of `G` under
/// `rules` and the record's own rule tags ([`record_rules`]): the
/// `Game` tag, if any, names `G` (a record without one is another program's, whose game the
/// caller knows), every token is legal where it stands (from `FEN`, or the start
/// position, also when `FEN` says `startpos`), no token follows the end of the game, an
/// `Adjudicated` tag without `Termination` (another program's adjudication) is checked as
/// an adjudicated game, a normal end is a terminal position
/// with the recorded result, a repetition end is a third occurrence and a draw, an
/// adjudicated game ended in a running position, and a game under way (result `*`,
/// `Termination` `unterminated` or none) is not over by the rules. When `Seed` and
/// `OpeningPlies` are present, every chance outcome after the opening must be the one the
/// referee's dice give for that seed (one stream per player with `[Dice "per-player"]`, one
/// stream without).
pub fn check_record<G: Notation>(
    record: &Record,
    index: usize,
    rules: &RuleOptions,
) -> Result<ReplayedGame, RecordError> {
    let fail = |ply: Option<usize>, why: String| RecordError::Check {
        game: index,
        ply,
        why,
    };
    if let Some(name) = record.tag("Game")
        && name != G::DECLARATION.name
    {
        return Err(fail(
            None,
            format!("not a {} game ({name})", G::DECLARATION.name),
        ));
    }
    let unfinished = record.result == UNFINISHED;
    let outcome = match parse_result(&record.result) {
        Some(o) => Some(o),
        None if unfinished => None,
        None => return Err(fail(None, format!("bad result '{}'", record.result))),
    };
    if record.tag("Result").is_some_and(|r| r != record.result) {
        return Err(fail(
            None,
            "the Result tag and the move list disagree".to_string(),
        ));
    }
    let termination = match record.tag("Termination") {
        None if record.tag("Adjudicated").is_some() && !unfinished => {
            Some(Termination::Adjudicated)
        }
        Some(UNTERMINATED) | None if unfinished => None,
        Some(UNTERMINATED) => {
            return Err(fail(None, "an unterminated game has the result '*'".into()));
        }
        Some(t) => Some(t.parse().map_err(|e: String| fail(None, e))?),
        None => Some(Termination::Normal),
    };
    if unfinished && termination.is_some() {
        return Err(fail(
            None,
            "a game with the result '*' has no Termination but 'unterminated'".into(),
        ));
    }
    let rules = &record_rules::<G>(record, rules).map_err(|e| fail(None, e))?;
    let pos = match record.tag("FEN") {
        Some(START_FEN) | None => G::start(rules),
        Some(fen) => G::parse_position(fen, rules).map_err(|e| fail(None, e.to_string()))?,
    };
    let opening_plies: Option<usize> = match record.tag("OpeningPlies") {
        Some(n) => Some(
            n.parse()
                .map_err(|_| fail(None, format!("bad OpeningPlies '{n}'")))?,
        ),
        None => None,
    };
    let mut dice = match (record.tag("Seed"), opening_plies) {
        (Some(seed), Some(_)) => {
            let seed = seed
                .parse()
                .map_err(|_| fail(None, format!("bad Seed '{seed}'")))?;
            Some(match record.tag("Dice") {
                Some(PER_PLAYER) => Dice::PerPlayer(Box::new(DiceStreams::new(seed))),
                None => Dice::Single(Box::new(DiceStream::new(seed))),
                Some(other) => return Err(fail(None, format!("unknown Dice '{other}'"))),
            })
        }
        _ => None,
    };
    let opening_plies = opening_plies.unwrap_or(0);
    let mut game = GameHistory::new(pos);
    let mut outcomes = Vec::new();
    for (i, token) in record.moves.iter().enumerate() {
        let ply = Some(i + 1);
        if rules_ending(&game).is_some() {
            return Err(fail(ply, format!("'{token}' follows the end of the game")));
        }
        let pos = game.current();
        let chance = pos.node() == Node::Chance && i >= opening_plies;
        if let Some(dice) = dice.as_mut().filter(|_| chance) {
            let expected = dice
                .sample(pos, &mut outcomes)
                .map(|m| pos.format_move(m))
                .unwrap_or_default();
            if *token != expected {
                let why = format!("chance outcome '{token}' is not the seeded '{expected}'");
                return Err(fail(ply, why));
            }
        }
        let action = pos
            .parse_action(token)
            .map_err(|e| fail(ply, e.to_string()))?;
        game.try_play(action)
            .map_err(|_| fail(ply, format!("'{token}' cannot be played here")))?;
    }
    let end = |why: &str| Err(fail(None, why.to_string()));
    let Some((termination, outcome)) = termination.zip(outcome) else {
        if rules_ending(&game).is_some() {
            return Err(fail(None, "the game is over, but its result is '*'".into()));
        }
        return Ok(ReplayedGame {
            record: record.clone(),
            outcome: None,
            termination: None,
            final_position: game.current().format_position(),
        });
    };
    match (termination, rules_ending(&game)) {
        (Termination::Normal, Some((o, Termination::Normal))) if o == outcome => {}
        (Termination::Normal, Some((_, Termination::Normal))) => {
            return end("the result is not the rules' result");
        }
        (Termination::Normal, _) => return end("the game is not over"),
        (Termination::Repetition, Some((o, Termination::Repetition))) if o == outcome => {}
        (Termination::Repetition, _) => return end("no drawn third repetition at the end"),
        (_, Some((_, Termination::Repetition))) => {
            return end("an adjudicated game ended in a repetition draw");
        }
        (_, Some(_)) => return end("an adjudicated game ended in a finished position"),
        (_, None) => {}
    }
    if termination == Termination::ExactAdjudication
        && proof::<G>(game.current(), rules) != Some(outcome)
    {
        return end("the exact solver does not prove the recorded result at the end");
    }
    Ok(ReplayedGame {
        record: record.clone(),
        outcome: Some(outcome),
        termination: Some(termination),
        final_position: game.current().format_position(),
    })
}

/// The dice a record's chance outcomes came from: one stream (records without a `Dice`
/// tag) or one per player (`[Dice "per-player"]`).
enum Dice {
    Single(Box<DiceStream>),
    PerPlayer(Box<DiceStreams>),
}

impl Dice {
    fn sample<G: Notation>(&mut self, pos: &G, buf: &mut Vec<(G::Move, u32)>) -> Option<G::Move> {
        match self {
            Dice::Single(d) => d.sample(pos, buf),
            Dice::PerPlayer(d) => d.sample(pos, buf),
        }
    }
}

/// Calls of the game's prover at most when a record is checked: each call goes on from the
/// last one's work.
const PROOF_CALLS: usize = 100;

/// The result the game's exact solver proves at `pos`, if it does.
fn proof<G: Notation>(pos: &G, rules: &RuleOptions) -> Option<Outcome> {
    let mut prover = G::PROVER?(rules);
    (0..PROOF_CALLS).find_map(|_| prover.prove(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::Game;
    use quartet_records::parse_records;
    use quartet_testkit::toys::{Dice, Nim};

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

    /// The reader keeps a suffix not of the annotations on its token (`quartet_records`):
    /// the rules then refuse the token with its text.
    #[test]
    fn a_token_with_an_unknown_annotation_is_refused_by_the_rules() {
        let recs = parse_records("[Game \"nim\"]\n\nt1??? 1-0\n").unwrap();
        let err = check_record::<Nim>(&recs[0], 1, &RuleOptions::default()).unwrap_err();
        assert!(err.to_string().contains("t1???"), "{err}");
        let err = RecordError::from(parse_records("[Game nim]\n").unwrap_err());
        assert!(matches!(err, RecordError::Syntax { line: 1, .. }), "{err}");
    }

    #[test]
    fn check_accepts_a_correct_game() {
        // 15 stones, five takes of 3: none are left after ply 5, First's move, so First
        // took the last stone and wins.
        let rec = record(
            &[("Game", "nim"), ("Termination", "normal")],
            "t3 t3 t3 t3 t3",
            "1-0",
        );
        let g = check_record::<Nim>(&rec, 1, &RuleOptions::default()).unwrap();
        assert_eq!(g.outcome, Some(Outcome::Win(Player::First)));
        assert_eq!(g.final_position, "0 s 0");
    }

    #[test]
    fn another_program_s_record_reads_as_it_is() {
        // cutegames: no Game tag (the caller knows the game), FEN "startpos", move numbers,
        // and its own adjudication of a game the rules had not ended.
        let text = "[Site \"CuteGames\"]\n[FEN \"startpos\"]\n\n1. t3 t3 2. t3 t3 3. t3 1-0\n\n\
                    [FEN \"startpos\"]\n[Adjudicated \"Out of time\"]\n\n1... t3 2. t1 0-1\n";
        let recs = parse_records(text).unwrap();
        assert_eq!(recs[0].moves, ["t3"; 5]);
        assert_eq!(recs[1].moves, ["t3", "t1"]);
        let rules = RuleOptions::default();
        let won = check_record::<Nim>(&recs[0], 1, &rules).unwrap();
        assert_eq!(won.termination, Some(Termination::Normal));
        let adjudicated = check_record::<Nim>(&recs[1], 2, &rules).unwrap();
        assert_eq!(adjudicated.termination, Some(Termination::Adjudicated));
        // An adjudication cannot hide a game the rules ended.
        let mut over = recs[0].clone();
        over.tags.push(("Adjudicated".into(), "Out of time".into()));
        assert!(check_record::<Nim>(&over, 1, &rules).is_err());
    }

    #[test]
    fn check_catches_each_kind_of_error() {
        let rules = RuleOptions::default();
        let check = |tags: &[(&str, &str)], moves: &str, result: &str| {
            check_record::<Nim>(&record(tags, moves, result), 3, &rules)
                .unwrap_err()
                .to_string()
        };
        let nim = ("Game", "nim");
        assert!(check(&[("Game", "dice")], "", "1-0").contains("not a nim game"));
        assert!(check(&[nim], "t3 t4", "1-0").starts_with("game 3, ply 2: illegal move 't4'"));
        assert!(check(&[nim], "t3 t3 t3 t3 t3 p", "1-0").contains("follows the end"));
        assert!(check(&[nim], "t3 t3 t3 t3 t3", "0-1").contains("not the rules' result"));
        assert!(check(&[nim], "t3", "1-0").contains("not over"));
        assert!(check(&[nim, ("Result", "0-1")], "t3", "1-0").contains("disagree"));
        assert!(check(&[nim], "t3", "+").contains("bad result"));
        // `*`: a game under way, so the rules must not have ended it, and it has no
        // Termination but `unterminated`.
        let under_way = ("Termination", "unterminated");
        assert!(check(&[nim], "t3 t3 t3 t3 t3", "*").contains("the game is over"));
        assert!(check(&[nim, ("Termination", "crash")], "t3", "*").contains("'unterminated'"));
        assert!(check(&[nim, under_way], "t3", "1-0").contains("result '*'"));
        let rep = ("Termination", "repetition");
        assert!(check(&[nim, rep], "p p p", "1/2-1/2").contains("no drawn third"));
        let crash = ("Termination", "crash");
        assert!(check(&[nim, crash], "p p p p", "1-0").contains("repetition draw"));
        // A repetition and an adjudication that are right.
        let ok = |tags: &[(&str, &str)], moves: &str, result: &str| {
            check_record::<Nim>(&record(tags, moves, result), 1, &rules).unwrap()
        };
        assert_eq!(
            ok(&[nim, rep], "p p p p", "1/2-1/2").termination,
            Some(Termination::Repetition)
        );
        for tags in [&[nim][..], &[nim, under_way]] {
            let g = ok(tags, "t3 t2", "*");
            assert_eq!((g.outcome, g.termination), (None, None));
            assert_eq!(g.final_position, "10 f 0");
        }
        assert_eq!(
            ok(&[nim, crash, ("FEN", "4 s 0")], "t1", "0-1").final_position,
            "3 f 0"
        );
    }

    #[test]
    fn check_verifies_seeded_rolls() {
        let rules = RuleOptions::default();
        let mut stream = DiceStream::new(42);
        let mut buf = Vec::new();
        let mut pos = Dice::start(&rules);
        let first = stream.sample(&pos, &mut buf).unwrap();
        let token = pos.format_move(first);
        pos.play(first);
        let tags = [
            ("Game", "dice"),
            ("Termination", "crash"),
            ("Seed", "42"),
            ("OpeningPlies", "0"),
        ];
        let good = record(&tags, &format!("{token} a"), "0-1");
        assert!(check_record::<Dice>(&good, 1, &rules).is_ok());
        let other = if token == "r1" { "r2" } else { "r1" };
        let bad = record(&tags, &format!("{other} a"), "0-1");
        let err = check_record::<Dice>(&bad, 1, &rules)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not the seeded"), "{err}");
        // Rolls inside the opening are not the game's dice.
        let tags = [
            ("Game", "dice"),
            ("Termination", "crash"),
            ("Seed", "42"),
            ("OpeningPlies", "1"),
        ];
        assert!(
            check_record::<Dice>(&record(&tags, &format!("{other} a"), "0-1"), 1, &rules).is_ok()
        );
    }
}
