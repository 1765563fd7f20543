//! Apocalypse's text forms (docs/rules/apocalypse.md §1.1, §1.7): the position string
//! `npppn/p3p/5/P3P/NPPPN 00 0`, declarations `c1c2`, `d4d5@b2`, `0000`, joint turns
//! `<white>/<black>`.

use super::board::{Cell, Move, Piece, SIZE, SQUARES, last_rank, rank_of, square, square_name};
use super::board::{NO_PROGRESS_LIMIT, PENALTY_LIMIT};
use super::rules::{Apocalypse, MAX_KNIGHTS, MAX_PAWNS};
use crate::kit::fields::fields;
use crate::kit::node::refuse_if_over;
use crate::kit::ranks;
use quartet_core::declaration::GameDeclaration;
use quartet_core::exact::{ExactValue, MakeProver, Solver};
use quartet_core::game::{Action, Game, Player, RuleOptions};
use quartet_core::notation::{Description, Notation, NotationError};

/// The start position string (§1.1).
pub const START: &str = "npppn/p3p/5/P3P/NPPPN 00 0";

/// A declaration as written: squares `(from, to, redeploy)`, or `None` for `0000`.
type Written = Option<(u8, u8, Option<u8>)>;

impl Notation for Apocalypse {
    const DECLARATION: GameDeclaration = super::DECLARATION;
    const SOLVER: Option<Solver<Self>> = Some(super::solve::solve_for_command);
    const PROVER: Option<MakeProver<Self>> = Some(super::solve::prover);
    const EXACT: Option<ExactValue<Self>> = Some(super::solve::exact_value);

    fn start(rules: &RuleOptions) -> Self {
        match Self::parse_position(START, rules) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start position string is valid: {e}"),
        }
    }

    fn parse_position(text: &str, rules: &RuleOptions) -> Result<Self, NotationError> {
        let fail = |why: String| NotationError::position(text, why);
        let [board, penalties, counter] =
            fields(text, ["board", "penalties", "counter"]).map_err(fail)?;
        let board = parse_board(board).map_err(fail)?;
        let penalties = parse_penalties(penalties).map_err(fail)?;
        let counter = parse_counter(counter).map_err(fail)?;
        Ok(Apocalypse::from_parts(
            board,
            penalties,
            counter,
            rules.flag(&super::DOUBLE_STEP),
        ))
    }

    fn format_position(&self) -> String {
        let mut text = String::with_capacity(32);
        ranks::format(&mut text, SIZE, SIZE, |file, rank| {
            self.cell(square(file, rank)).map(piece_char)
        });
        let white = self.penalties(Player::First);
        let black = self.penalties(Player::Second);
        format!("{text} {white}{black} {}", self.no_progress())
    }

    fn parse_action(&self, token: &str) -> Result<Action<Move>, NotationError> {
        let Some((white, black)) = token.split_once('/') else {
            return Err(NotationError::syntax(
                token,
                "expected a joint turn <white>/<black>, e.g. c1c2/c5c4",
            ));
        };
        let white_written = parse_declaration(white)
            .map_err(|why| NotationError::syntax(token, format!("white's half: {why}")))?;
        let black_written = parse_declaration(black)
            .map_err(|why| NotationError::syntax(token, format!("black's half: {why}")))?;
        refuse_if_over(self.node(), title).map_err(|why| NotationError::illegal(token, why))?;
        Ok(Action::Joint(
            self.resolve_written(Player::First, white_written),
            self.resolve_written(Player::Second, black_written),
        ))
    }

    fn format_move(&self, m: Move) -> String {
        if m.is_void() {
            return "0000".to_string();
        }
        let mut text: String = square_name(m.from())
            .into_iter()
            .chain(square_name(m.to()))
            .collect();
        if let Some(r) = m.redeploy() {
            text.push('@');
            text.extend(square_name(r));
        }
        text
    }

    fn describe(&self) -> Description {
        self.description()
    }

    fn diagram(&self) -> String {
        let mut lines = vec!["    a b c d e".to_string()];
        for rank in (0..SIZE).rev() {
            let mut line = format!(" {}  ", rank + 1);
            for file in 0..SIZE {
                line.push(self.cell(square(file, rank)).map_or('.', piece_char));
                if file + 1 < SIZE {
                    line.push(' ');
                }
            }
            lines.push(line);
        }
        lines.push(format!(
            "penalties: white {} black {}; no-progress counter: {}; double step: {}",
            self.penalties(Player::First),
            self.penalties(Player::Second),
            self.no_progress(),
            if self.double_step() { "on" } else { "off" }
        ));
        lines.join("\n")
    }
}

impl Apocalypse {
    /// The declaration `written` resolves to for `p` here: itself if legal, else VOID.
    fn resolve_written(&self, p: Player, written: Written) -> Move {
        written
            .and_then(|(from, to, r)| Move::new(from, to, r))
            .filter(|&m| self.is_legal_declaration(p, m))
            .unwrap_or(Move::VOID)
    }
}

/// The letter of a piece: upper case for White, lower case for Black.
fn piece_char((p, piece): (Player, Piece)) -> char {
    let c = match piece {
        Piece::Pawn => 'p',
        Piece::Knight => 'n',
    };
    match p {
        Player::First => c.to_ascii_uppercase(),
        Player::Second => c,
    }
}

fn parse_board(text: &str) -> Result<[Cell; SQUARES], String> {
    let mut board = [None; SQUARES];
    ranks::parse(text, SIZE, SIZE, |file, rank, c, _| {
        let p = match c {
            'N' | 'P' => Player::First,
            'n' | 'p' => Player::Second,
            _ => {
                return Err(format!(
                    "'{c}' is not a piece (expected N P n p or a digit 1-5)"
                ));
            }
        };
        let piece = if c.eq_ignore_ascii_case(&'n') {
            Piece::Knight
        } else {
            Piece::Pawn
        };
        let sq = square(file, rank);
        if piece == Piece::Pawn && rank_of(sq) == last_rank(p) {
            let [f, r] = square_name(sq);
            return Err(format!(
                "{} pawn on {f}{r}, its own last rank",
                side_name(p)
            ));
        }
        board[usize::from(sq)] = Some((p, piece));
        Ok(())
    })
    .map_err(|why| format!("board: {}", why.trim_start_matches("board: ")))?;
    for p in [Player::First, Player::Second] {
        let count = |kind| board.iter().filter(|&&c| c == Some((p, kind))).count();
        if count(Piece::Knight) > usize::from(MAX_KNIGHTS) {
            return Err(format!(
                "board: {} has {} knights (at most {MAX_KNIGHTS})",
                side_name(p),
                count(Piece::Knight)
            ));
        }
        if count(Piece::Pawn) > usize::from(MAX_PAWNS) {
            return Err(format!(
                "board: {} has {} pawns (at most {MAX_PAWNS})",
                side_name(p),
                count(Piece::Pawn)
            ));
        }
    }
    Ok(board)
}

fn parse_penalties(text: &str) -> Result<[u8; 2], String> {
    let digits: Vec<char> = text.chars().collect();
    let [white, black] = digits[..] else {
        return Err(format!(
            "penalties: expected two digits (white's then black's), found '{text}'"
        ));
    };
    let point = |c: char, side: &str| match c.to_digit(10) {
        Some(d) if d <= u32::from(PENALTY_LIMIT) => Ok(d as u8),
        _ => Err(format!(
            "penalties: {side}'s '{c}' is not 0 to {PENALTY_LIMIT}"
        )),
    };
    Ok([point(white, "white")?, point(black, "black")?])
}

fn parse_counter(text: &str) -> Result<u16, String> {
    let well_formed = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
        && text.len() <= 2;
    match text.parse::<u16>() {
        Ok(n) if well_formed && n <= NO_PROGRESS_LIMIT => Ok(n),
        _ => Err(format!(
            "no-progress counter: '{text}' is not a number 0 to {NO_PROGRESS_LIMIT} without \
            leading zeros"
        )),
    }
}

/// Reads one half of a joint turn: `<from><to>`, `<from><to>@<square>` or `0000`.
fn parse_declaration(text: &str) -> Result<Written, String> {
    if text == "0000" {
        return Ok(None);
    }
    let form =
        || format!("'{text}' is not <from><to>, <from><to>@<square> or 0000 (squares a1 to e5)");
    let bytes = text.as_bytes();
    let sq = |i: usize| -> Result<u8, String> {
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(f @ b'a'..=b'e'), Some(r @ b'1'..=b'5')) => Ok(square(f - b'a', r - b'1')),
            _ => Err(form()),
        }
    };
    match bytes.len() {
        4 => Ok(Some((sq(0)?, sq(2)?, None))),
        7 if bytes[4] == b'@' => Ok(Some((sq(0)?, sq(2)?, Some(sq(5)?)))),
        _ => Err(form()),
    }
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::First => "white",
        Player::Second => "black",
    }
}

/// `White` or `Black`, as a sentence names the side.
fn title(p: Player) -> &'static str {
    match p {
        Player::First => "White",
        Player::Second => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(double_step: bool) -> RuleOptions {
        RuleOptions::default()
            .with(&crate::apocalypse::DOUBLE_STEP, i64::from(double_step))
            .expect("a check value")
    }

    fn parse(text: &str) -> Apocalypse {
        Apocalypse::parse_position(text, &RuleOptions::default()).unwrap()
    }

    fn position_error(text: &str) -> String {
        match Apocalypse::parse_position(text, &RuleOptions::default()) {
            Err(NotationError::Position { why, .. }) => why,
            other => panic!("{text}: expected a position error, got {other:?}"),
        }
    }

    #[test]
    fn start_position_round_trips_and_matches_the_setup() {
        let pos = Apocalypse::start(&rules(true));
        assert_eq!(pos.format_position(), START);
        assert_eq!(pos.cell(0), Some((Player::First, Piece::Knight))); // Na1
        assert_eq!(pos.cell(5), Some((Player::First, Piece::Pawn))); // Pa2
        assert_eq!(pos.cell(20), Some((Player::Second, Piece::Knight))); // na5
        assert_eq!(pos.cell(19), Some((Player::Second, Piece::Pawn))); // pe4
        assert_eq!(pos.cell(12), None); // c3
        assert_eq!(pos.pawns(Player::First), 5);
        assert_eq!(pos.knights(Player::Second), 2);
        assert!(pos.double_step());
        assert!(!Apocalypse::start(&rules(false)).double_step());
    }

    #[test]
    fn double_step_flag_changes_the_hash_only_by_its_key() {
        let on = Apocalypse::start(&rules(true));
        let off = Apocalypse::start(&rules(false));
        assert_ne!(on.hash(), off.hash());
    }

    #[test]
    fn hash_covers_penalties_and_the_counter_board_hash_not_the_counter() {
        let a = parse("npppn/p3p/5/P3P/NPPPN 00 0");
        let b = parse("npppn/p3p/5/P3P/NPPPN 00 17");
        assert_ne!(a.hash(), b.hash());
        assert_ne!(b.hash(), parse("npppn/p3p/5/P3P/NPPPN 00 50").hash());
        assert_eq!(a.board_hash(), b.board_hash());
        assert_eq!(a.board_hash(), a.hash());
        assert_ne!(
            a.board_hash(),
            parse("npppn/p3p/5/P3P/NPPPN 10 17").board_hash()
        );
        assert_ne!(a.hash(), parse("npppn/p3p/5/P3P/NPPPN 10 0").hash());
        assert_ne!(a.hash(), parse("npppn/p3p/5/P3P/NPPPN 01 0").hash());
        assert_ne!(
            parse("npppn/p3p/5/P3P/NPPPN 10 0").hash(),
            parse("npppn/p3p/5/P3P/NPPPN 01 0").hash()
        );
    }

    #[test]
    fn various_positions_round_trip() {
        for text in [
            "5/5/5/5/5 22 50",
            "2n2/5/p4/1P3/5 00 0",
            "4n/1p1P1/5/P4/N3N 01 49",
            "NNnnp/5/5/5/P4 12 3",
        ] {
            assert_eq!(parse(text).format_position(), text);
        }
    }

    #[test]
    fn malformed_position_strings_are_refused_precisely() {
        let cases = [
            ("npppn/p3p/5/P3P/NPPPN 00", "expected 3 fields"),
            ("npppn/p3p/5/P3P/NPPPN  00 0", "expected 3 fields"),
            ("npppn/p3p/5/P3P/NPPPN 00 0 ", "expected 3 fields"),
            ("npppn/p3p/5/P3P 00 0", "expected 5 ranks"),
            ("npppn/p3p/5/P3P/NPPPN/5 00 0", "expected 5 ranks"),
            (
                "npppn/p3p/5/P4P/NPPPN 00 0",
                "rank 2 has more than 5 squares",
            ),
            (
                "npppn/p2p/5/P3P/NPPPN 00 0",
                "rank 4 has 4 squares, expected 5",
            ),
            (
                "npppn/p3p/23/P3P/NPPPN 00 0",
                "rank 3: two counts of empty squares in a row",
            ),
            ("npppn/p3p/0/P3P/NPPPN 00 0", "rank 3: '0' is not a count"),
            (
                "npppk/p3p/5/P3P/NPPPN 00 0",
                "rank 5, file e: 'k' is not a piece",
            ),
            (
                "npppn/p3p/5/P3P/NPPPN 0 0",
                "penalties: expected two digits",
            ),
            (
                "npppn/p3p/5/P3P/NPPPN 000 0",
                "penalties: expected two digits",
            ),
            ("npppn/p3p/5/P3P/NPPPN 30 0", "white's '3' is not 0 to 2"),
            ("npppn/p3p/5/P3P/NPPPN 0x 0", "black's 'x' is not 0 to 2"),
            ("npppn/p3p/5/P3P/NPPPN 00 51", "counter: '51'"),
            ("npppn/p3p/5/P3P/NPPPN 00 07", "counter: '07'"),
            ("npppn/p3p/5/P3P/NPPPN 00 -1", "counter: '-1'"),
            ("npppn/p3p/5/P3P/NPPPN 00 +1", "counter: '+1'"),
            ("npppn/p3p/5/P3P/NPPPN 00 ", "field 3 (counter) is empty"),
            ("2P2/5/5/5/p4 00 0", "white pawn on c5, its own last rank"),
            ("5/5/5/P4/p4 00 0", "black pawn on a1, its own last rank"),
            ("nnn2/p4/5/P4/5 00 0", "black has 3 knights"),
            ("5/p4/5/PPPPP/P4 00 0", "white has 6 pawns"),
        ];
        for (text, expected) in cases {
            let why = position_error(text);
            assert!(why.contains(expected), "{text}: '{why}' lacks '{expected}'");
        }
    }

    #[test]
    fn joint_tokens_resolve_halves_and_keep_void_declarations() {
        let pos = parse(START);
        let c1c2 = Move::new(2, 7, None).unwrap();
        let c5c4 = Move::new(22, 17, None).unwrap();
        assert_eq!(pos.parse_action("c1c2/c5c4"), Ok(Action::Joint(c1c2, c5c4)));
        // Well formed but illegal halves become VOID, and the action is still legal.
        let action = pos.parse_action("a2b3/0000").unwrap();
        assert_eq!(action, Action::Joint(Move::VOID, Move::VOID));
        assert!(pos.is_legal(action));
        assert_eq!(pos.format_action(action), "0000/0000");
        // A redeploy suffix where none is allowed is void too.
        assert_eq!(
            pos.parse_action("c1c2@c3/c5c4"),
            Ok(Action::Joint(Move::VOID, c5c4))
        );
        assert_eq!(pos.format_move(c1c2), "c1c2");
    }

    #[test]
    fn malformed_joint_tokens_are_syntax_errors() {
        let pos = parse(START);
        for (token, expected) in [
            ("c1c2", "expected a joint turn"),
            ("c1c2/c5c4/a1b3", "black's half"),
            ("C1C2/c5c4", "white's half"),
            ("c1c/c5c4", "white's half"),
            ("c1c2/", "black's half"),
            ("/c5c4", "white's half"),
            ("f1f2/c5c4", "white's half"),
            ("c0c1/c5c4", "white's half"),
            ("c1c2/c5c4@", "black's half"),
            ("c1c2/c5c4@z9", "black's half"),
            ("c1c2/c5c4#b2", "black's half"),
            ("c1c2/000", "black's half"),
            ("c1c2/00000", "black's half"),
            ("c1c2/pass", "black's half"),
            ("c1c2 /c5c4", "white's half"),
        ] {
            match pos.parse_action(token) {
                Err(NotationError::Syntax { why, .. }) => {
                    assert!(
                        why.contains(expected),
                        "{token}: '{why}' lacks '{expected}'"
                    )
                }
                other => panic!("{token}: expected a syntax error, got {other:?}"),
            }
        }
    }

    #[test]
    fn no_joint_turn_is_legal_once_the_game_is_over() {
        let over = parse("4n/2p2/5/5/N4 00 0"); // White has no pawn: Black has won.
        assert!(matches!(
            over.parse_action("a1b3/c4c3"),
            Err(NotationError::Illegal { .. })
        ));
        assert!(matches!(
            over.parse_action("a1b3/c4"),
            Err(NotationError::Syntax { .. })
        ));
    }

    #[test]
    fn redeploy_declarations_format_with_their_suffix() {
        let pos = parse("4n/1p1P1/5/P4/N3N 00 0");
        let action = pos.parse_action("d4d5@b2/b4b3").unwrap();
        assert_eq!(pos.format_action(action), "d4d5@b2/b4b3");
    }

    #[test]
    fn diagram_shows_board_penalties_and_counter() {
        let pos = parse("npppn/p3p/5/P3P/NPPPN 10 7");
        let expected = "    a b c d e\n 5  n p p p n\n 4  p . . . p\n 3  . . . . .\n \
                        2  P . . . P\n 1  N P P P N\n\
                        penalties: white 1 black 0; no-progress counter: 7; double step: on";
        assert_eq!(pos.diagram(), expected);
    }
}
