//! Ludo notation (§1.8, §1.9, §1.10): the LFEN position string, move tokens and the diagram.

use super::rules::{SIX, VOID_SIXES};
use super::{BASE, GOAL, Ludo, MAX_PIECES, Move, order_key};
use crate::kit::fields::fields;
use crate::kit::node::refuse_if_over;
use quartet_core::declaration::GameDeclaration;
use quartet_core::exact::{ExactValue, Solver};
use quartet_core::game::{Action, Game, MoveList, Node, Player, RuleOptions};
use quartet_core::notation::{Description, Notation, NotationError};
use std::fmt::Write;

impl Notation for Ludo {
    const DECLARATION: GameDeclaration = super::DECLARATION;
    const SOLVER: Option<Solver<Self>> = Some(super::solve::solve_for_command);
    const EXACT: Option<ExactValue<Self>> = Some(super::solve::exact_value);

    /// All pieces in base, Red to roll, with `Pieces` pieces per side (1 to 4: the range
    /// [`RuleOptions`] keeps every value in).
    fn start(rules: &RuleOptions) -> Self {
        Ludo::start_with(rules.get(&super::PIECES) as u8)
    }

    fn parse_position(text: &str, rules: &RuleOptions) -> Result<Self, NotationError> {
        parse_lfen(text, rules.get(&super::PIECES) as u8)
            .map_err(|why| NotationError::position(text, why))
    }

    fn format_position(&self) -> String {
        let mut s = String::new();
        for (i, side) in [Player::First, Player::Second].into_iter().enumerate() {
            if i == 1 {
                s.push('/');
            }
            for (j, &v) in self.pieces(side).iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                s.push_str(&value_text(v));
            }
        }
        let side = if self.side_to_move() == Player::First {
            'r'
        } else {
            'y'
        };
        let die = self.die().map_or('-', |d| char::from(b'0' + d));
        let _ = write!(s, " {side} {die} {}", self.sixes());
        s
    }

    fn parse_action(&self, token: &str) -> Result<Action<Move>, NotationError> {
        let m = parse_token(token).map_err(|why| NotationError::syntax(token, why))?;
        self.check_legal(m)
            .map_err(|why| NotationError::illegal(token, why))?;
        Ok(Action::Single(m))
    }

    fn format_move(&self, m: Move) -> String {
        match m {
            Move::Roll(d) => format!("r{d}"),
            Move::Enter => "b-0".to_string(),
            Move::Step { from, to } => format!("{from}-{to}"),
            Move::Pass => "pass".to_string(),
        }
    }

    fn describe(&self) -> Description {
        self.description()
    }

    fn diagram(&self) -> String {
        self.draw()
    }
}

/// The notation of a piece value: `b` or the progress.
fn value_text(v: u8) -> String {
    if v == BASE {
        "b".to_string()
    } else {
        v.to_string()
    }
}

/// A decimal number without sign or leading zeros, at most `max`.
fn parse_number(text: &str, max: u8) -> Option<u8> {
    let canonical = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if !canonical || text.len() > 2 {
        return None;
    }
    text.parse::<u8>().ok().filter(|&n| n <= max)
}

/// Reads one side's piece list: exactly `count` values, `b` or 0..=56, in notation order.
fn parse_side(text: &str, name: &str, count: u8) -> Result<[u8; MAX_PIECES], String> {
    let mut values = [BASE; MAX_PIECES];
    let fields: Vec<&str> = text.split(',').collect();
    if fields.len() != count as usize {
        return Err(format!(
            "{name} has {} piece values ('{text}'), but the rule option Pieces is {count}",
            fields.len()
        ));
    }
    for (i, field) in fields.iter().enumerate() {
        let v = if *field == "b" {
            BASE
        } else {
            parse_number(field, GOAL).ok_or_else(|| {
                format!(
                    "{name} piece {} is '{field}', expected b or a number 0 to 56",
                    i + 1
                )
            })?
        };
        if i > 0 && order_key(v) < order_key(values[i - 1]) {
            return Err(format!(
                "{name} pieces '{text}' are not sorted (b first, then ascending)"
            ));
        }
        values[i] = v;
    }
    Ok(values)
}

/// Parses LFEN strictly; the error text names the offending field.
fn parse_lfen(text: &str, count: u8) -> Result<Ludo, String> {
    let [pieces, side, die, sixes] =
        fields(text, ["<red>/<yellow>", "<side>", "<die>", "<sixes>"])?;
    let Some((red_text, yellow_text)) = pieces.split_once('/') else {
        return Err(format!(
            "pieces field '{pieces}' has no '/' between red and yellow"
        ));
    };
    let red = parse_side(red_text, "red", count)?;
    let yellow = parse_side(yellow_text, "yellow", count)?;
    let side = match side {
        "r" => Player::First,
        "y" => Player::Second,
        _ => return Err(format!("side field is '{side}', expected r or y")),
    };
    let die = match die {
        "-" => 0,
        _ => parse_number(die, SIX)
            .filter(|&d| d >= 1)
            .ok_or_else(|| format!("die field is '{die}', expected - or 1 to 6"))?,
    };
    let sixes = parse_number(sixes, VOID_SIXES)
        .ok_or_else(|| format!("sixes field is '{sixes}', expected 0 to 3"))?;
    match (die, sixes) {
        (0, 3) => return Err("sixes 3 needs a pending 6 (the void third six)".to_string()),
        (1..=5, 1..) => {
            return Err(format!(
                "a pending {die} resets the six count, so sixes must be 0, found {sixes}"
            ));
        }
        (SIX, 0) => return Err("a pending 6 counts itself, so sixes must be 1 to 3".to_string()),
        _ => {}
    }
    let n = count as usize;
    let pos = Ludo::from_parts(&red[..n], &yellow[..n], side, die, sixes);
    let finished = |s: Player| pos.pieces(s).iter().all(|&v| v == GOAL);
    match (finished(Player::First), finished(Player::Second)) {
        (true, true) => return Err("both sides have all pieces at the goal".to_string()),
        (true, false) | (false, true) => {
            let winner = if finished(Player::First) {
                Player::First
            } else {
                Player::Second
            };
            if side != winner || die != 0 {
                return Err(
                    "a finished game has the winner to roll (the winning move earns a roll), \
                     so side must be the winner's and die must be -"
                        .to_string(),
                );
            }
        }
        (false, false) => {}
    }
    Ok(pos)
}

/// Reads a token's form: `r1`..`r6`, `b-0`, `<from>-<to>` or `pass`.
fn parse_token(token: &str) -> Result<Move, String> {
    if token == "pass" {
        return Ok(Move::Pass);
    }
    if let Some(d) = token.strip_prefix('r') {
        return parse_number(d, SIX)
            .filter(|&d| d >= 1)
            .map(Move::Roll)
            .ok_or_else(|| "a die roll is r1 to r6".to_string());
    }
    let Some((from, to)) = token.split_once('-') else {
        return Err("expected r1..r6, b-0, <from>-<to> or pass".to_string());
    };
    if from == "b" {
        return if to == "0" {
            Ok(Move::Enter)
        } else {
            Err("a piece leaving base enters at 0 (b-0)".to_string())
        };
    }
    let from = parse_number(from, GOAL - 1)
        .ok_or_else(|| format!("from '{from}' is not b or a number 0 to 55"))?;
    let to = parse_number(to, GOAL).ok_or_else(|| format!("to '{to}' is not a number 1 to 56"))?;
    if to <= from || to - from > SIX {
        return Err(format!(
            "a move goes 1 to 6 squares forward; {from}-{to} does not"
        ));
    }
    Ok(Move::Step { from, to })
}

impl Ludo {
    /// Why `m` cannot be played here, or `Ok` if it is legal.
    fn check_legal(&self, m: Move) -> Result<(), String> {
        let side = if self.side_to_move() == Player::First {
            "red"
        } else {
            "yellow"
        };
        let p = match self.node() {
            Node::Terminal(_) => return refuse_if_over(self.node(), side_name),
            Node::Simultaneous => return Err("Ludo has no simultaneous moves".to_string()),
            Node::Chance if matches!(m, Move::Roll(_)) => return Ok(()),
            Node::Chance => return Err(format!("{side} must roll first (r1 to r6)")),
            Node::Turn(p) => p,
        };
        let mut legal = MoveList::new();
        self.legal_moves(p, &mut legal);
        if legal.contains(&m) {
            return Ok(());
        }
        let die = self.die().unwrap_or(0);
        Err(match m {
            Move::Roll(_) => format!("a die of {die} is already pending; {side} must move"),
            Move::Pass => format!(
                "pass is legal only when no piece can move or the roll is a void third six, \
                 but {side} can move"
            ),
            _ if die == SIX && self.sixes() >= VOID_SIXES => {
                "the third six in a row is void: only pass is legal".to_string()
            }
            Move::Enter if die != SIX => format!("entering needs a 6, the die shows {die}"),
            Move::Enter => format!("{side} has no piece in base"),
            Move::Step { from, .. } if !self.pieces(p).contains(&from) => {
                format!("{side} has no piece at {from}")
            }
            Move::Step { from, .. } if from + die > GOAL => format!(
                "the die shows {die}: a piece at {from} would overshoot the goal (56 needs an \
                exact count)"
            ),
            Move::Step { from, to } => format!(
                "the die shows {die}, so a piece at {from} goes to {}, not {to}",
                from + die
            ),
        })
    }
}

/// `Red` or `Yellow`, as a sentence names the side (its declared name).
fn side_name(p: Player) -> &'static str {
    super::DECLARATION.sides[p.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(pieces: u8) -> RuleOptions {
        RuleOptions::default()
            .with(&crate::ludo::PIECES, i64::from(pieces))
            .expect("a piece count in range")
    }

    fn pos(text: &str) -> Ludo {
        Ludo::parse_position(text, &RuleOptions::default()).expect(text)
    }

    /// The `why` of a refused position string.
    fn position_error(text: &str, pieces: u8) -> String {
        match Ludo::parse_position(text, &rules(pieces)) {
            Err(NotationError::Position { why, .. }) => why,
            other => panic!("{text}: expected a position error, got {other:?}"),
        }
    }

    #[test]
    fn positions_round_trip() {
        for (text, n) in [
            ("b,b,b,b/b,b,b,b r - 0", 4),
            ("b,0,0,6/b,b,b,b r - 1", 4),
            ("b,b,b,42/b,b,b,b r 6 3", 4),
            ("b,b,48,50/b,b,b,b y 1 0", 4),
            ("56,56,56,56/b,b,b,b r - 0", 4),
            ("b,b/b,b r - 0", 2),
            ("b,55,56/3,3,20 y 6 2", 3),
            ("17/b r 5 0", 1),
        ] {
            let p = Ludo::parse_position(text, &rules(n)).expect(text);
            assert_eq!(p.format_position(), text);
            assert_eq!(p.piece_count(), n);
        }
    }

    #[test]
    fn the_start_position_follows_the_pieces_option() {
        assert_eq!(
            Ludo::start(&RuleOptions::default()).format_position(),
            "b,b,b,b/b,b,b,b r - 0"
        );
        assert_eq!(Ludo::start(&rules(2)).format_position(), "b,b/b,b r - 0");
        assert_eq!(Ludo::start(&rules(1)).format_position(), "b/b r - 0");
    }

    #[test]
    fn a_wrong_piece_count_is_refused_precisely() {
        assert_eq!(
            position_error("b,b,b,b/b,b,b,b r - 0", 2),
            "red has 4 piece values ('b,b,b,b'), but the rule option Pieces is 2"
        );
        assert_eq!(
            position_error("b,b/b,b,b r - 0", 2),
            "yellow has 3 piece values ('b,b,b'), but the rule option Pieces is 2"
        );
    }

    #[test]
    fn impossible_die_and_sixes_pairs_are_refused() {
        for (text, why) in [
            (
                "b,b,b,5/b,b,b,b r 3 1",
                "a pending 3 resets the six count, so sixes must be 0, found 1",
            ),
            (
                "b,b,b,5/b,b,b,b r 6 0",
                "a pending 6 counts itself, so sixes must be 1 to 3",
            ),
            (
                "b,b,b,5/b,b,b,b r - 3",
                "sixes 3 needs a pending 6 (the void third six)",
            ),
            (
                "b,b,b,5/b,b,b,b r - 4",
                "sixes field is '4', expected 0 to 3",
            ),
        ] {
            assert_eq!(position_error(text, 4), why, "{text}");
        }
        for ok in [
            "b,b,b,5/b,b,b,b r - 2",
            "b,b,b,5/b,b,b,b y 6 3",
            "b,b,b,5/b,b,b,b r 5 0",
        ] {
            assert!(Ludo::parse_position(ok, &rules(4)).is_ok(), "{ok}");
        }
    }

    #[test]
    fn malformed_position_strings_name_the_field() {
        for (text, why) in [
            (
                "b,b,b,b/b,b,b,b r -",
                "expected 4 fields separated by single spaces (<red>/<yellow>, <side>, <die>, \
                <sixes>), found 3",
            ),
            (
                "b,b,b,b/b,b,b,b  r - 0",
                "expected 4 fields separated by single spaces (<red>/<yellow>, <side>, <die>, \
                <sixes>), found 5",
            ),
            (
                " b,b,b,b/b,b,b,b r - 0",
                "expected 4 fields separated by single spaces (<red>/<yellow>, <side>, <die>, \
                <sixes>), found 5",
            ),
            (
                "b,b,b,b r - 0",
                "pieces field 'b,b,b,b' has no '/' between red and yellow",
            ),
            (
                "b,b,b,5/b,b,b,x r - 0",
                "yellow piece 4 is 'x', expected b or a number 0 to 56",
            ),
            (
                "b,b,b,57/b,b,b,b r - 0",
                "red piece 4 is '57', expected b or a number 0 to 56",
            ),
            (
                "b,b,b,05/b,b,b,b r - 0",
                "red piece 4 is '05', expected b or a number 0 to 56",
            ),
            (
                "b,b,b,B/b,b,b,b r - 0",
                "red piece 4 is 'B', expected b or a number 0 to 56",
            ),
            (
                "b,b,b,/b,b,b,b r - 0",
                "red piece 4 is '', expected b or a number 0 to 56",
            ),
            (
                "b,b,7,5/b,b,b,b r - 0",
                "red pieces 'b,b,7,5' are not sorted (b first, then ascending)",
            ),
            (
                "b,b,5,b/b,b,b,b r - 0",
                "red pieces 'b,b,5,b' are not sorted (b first, then ascending)",
            ),
            (
                "b,b,b,b/b,b,b,b R - 0",
                "side field is 'R', expected r or y",
            ),
            (
                "b,b,b,b/b,b,b,b r 0 0",
                "die field is '0', expected - or 1 to 6",
            ),
            (
                "b,b,b,b/b,b,b,b r 7 0",
                "die field is '7', expected - or 1 to 6",
            ),
            (
                "b,b,b,b/b,b,b,b r - x",
                "sixes field is 'x', expected 0 to 3",
            ),
        ] {
            assert_eq!(position_error(text, 4), why, "{text}");
        }
    }

    #[test]
    fn finished_games_must_read_as_the_winning_move_leaves_them() {
        assert_eq!(
            position_error("56,56/56,56 r - 0", 2),
            "both sides have all pieces at the goal"
        );
        let why = "a finished game has the winner to roll (the winning move earns a roll), \
                   so side must be the winner's and die must be -";
        assert_eq!(position_error("56,56/b,b y - 0", 2), why);
        assert_eq!(position_error("56,56/b,b r 4 0", 2), why);
        assert!(Ludo::parse_position("56,56/b,b r - 1", &rules(2)).is_ok());
        assert!(Ludo::parse_position("b,b/56,56 y - 0", &rules(2)).is_ok());
    }

    #[test]
    fn tokens_parse_to_moves() {
        let p = pos("b,b,0,6/b,b,b,b r - 0");
        assert_eq!(p.parse_action("r6"), Ok(Action::Single(Move::Roll(6))));
        let mut q = p.clone();
        q.play(Move::Roll(6));
        assert_eq!(q.parse_action("b-0"), Ok(Action::Single(Move::Enter)));
        assert_eq!(
            q.parse_action("6-12"),
            Ok(Action::Single(Move::Step { from: 6, to: 12 }))
        );
        assert_eq!(q.format_move(Move::Step { from: 6, to: 12 }), "6-12");
        assert_eq!(q.format_move(Move::Enter), "b-0");
        assert_eq!(q.format_move(Move::Pass), "pass");
        assert_eq!(q.format_move(Move::Roll(4)), "r4");
        let r = pos("b,b,b,b/b,b,b,b r 2 0");
        assert_eq!(r.parse_action("pass"), Ok(Action::Single(Move::Pass)));
    }

    #[test]
    fn malformed_tokens_are_syntax_errors() {
        let p = pos("b,b,0,6/b,b,b,b r 6 1");
        for (token, why) in [
            ("r0", "a die roll is r1 to r6"),
            ("r7", "a die roll is r1 to r6"),
            ("r", "a die roll is r1 to r6"),
            ("b-1", "a piece leaving base enters at 0 (b-0)"),
            ("", "expected r1..r6, b-0, <from>-<to> or pass"),
            ("PASS", "expected r1..r6, b-0, <from>-<to> or pass"),
            ("6_12", "expected r1..r6, b-0, <from>-<to> or pass"),
            ("56-57", "from '56' is not b or a number 0 to 55"),
            ("06-12", "from '06' is not b or a number 0 to 55"),
            ("6-", "to '' is not a number 1 to 56"),
            ("6-12-18", "to '12-18' is not a number 1 to 56"),
            ("12-6", "a move goes 1 to 6 squares forward; 12-6 does not"),
            ("6-6", "a move goes 1 to 6 squares forward; 6-6 does not"),
            ("6-13", "a move goes 1 to 6 squares forward; 6-13 does not"),
        ] {
            assert_eq!(
                p.parse_action(token),
                Err(NotationError::syntax(token, why)),
                "{token}"
            );
        }
    }

    #[test]
    fn well_formed_but_illegal_tokens_say_why() {
        let cases = [
            (
                "b,b,0,6/b,b,b,b r - 0",
                "0-6",
                "red must roll first (r1 to r6)",
            ),
            (
                "b,b,0,6/b,b,b,b y - 0",
                "pass",
                "yellow must roll first (r1 to r6)",
            ),
            (
                "b,b,0,6/b,b,b,b r 3 0",
                "r3",
                "a die of 3 is already pending; red must move",
            ),
            (
                "b,b,0,6/b,b,b,b r 3 0",
                "pass",
                "pass is legal only when no piece can move or the roll is a void third six, but \
                red can move",
            ),
            (
                "b,b,0,6/b,b,b,b r 3 0",
                "b-0",
                "entering needs a 6, the die shows 3",
            ),
            ("0,0,0,6/b,b,b,b r 6 1", "b-0", "red has no piece in base"),
            ("b,b,0,6/b,b,b,b r 3 0", "4-7", "red has no piece at 4"),
            (
                "b,b,0,6/b,b,b,b r 3 0",
                "6-10",
                "the die shows 3, so a piece at 6 goes to 9, not 10",
            ),
            (
                "b,b,0,53/b,b,b,b r 6 1",
                "53-56",
                "the die shows 6: a piece at 53 would overshoot the goal (56 needs an exact count)",
            ),
            (
                "b,b,0,6/b,b,b,b r 6 3",
                "0-6",
                "the third six in a row is void: only pass is legal",
            ),
            (
                "56,56,56,56/b,b,b,b r - 0",
                "r3",
                "the game is over: Red has won",
            ),
        ];
        for (text, token, why) in cases {
            assert_eq!(
                pos(text).parse_action(token),
                Err(NotationError::illegal(token, why)),
                "{text} {token}"
            );
        }
    }

    #[test]
    fn any_accepted_position_string_is_canonical_and_nothing_panics() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let alphabet: Vec<char> = "b,/ ry-0123456789 é\t".chars().collect();
        let seeds = [
            "b,b,b,b/b,b,b,b r - 0",
            "b,0,17,56/3,3,50,55 y 6 2",
            "b,b/b,b r 4 0",
        ];
        let mut accepted = 0;
        for i in 0..20_000 {
            let mut text: Vec<char> = seeds[i % seeds.len()].chars().collect();
            for _ in 0..rng.random_range(1..4) {
                let at = rng.random_range(0..=text.len());
                let c = alphabet[rng.random_range(0..alphabet.len())];
                match rng.random_range(0..3) {
                    0 if at < text.len() => text[at] = c,
                    1 if at < text.len() => {
                        text.remove(at);
                    }
                    _ => text.insert(at, c),
                }
            }
            let text: String = text.into_iter().collect();
            for pieces in [2, 4] {
                if let Ok(p) = Ludo::parse_position(&text, &rules(pieces)) {
                    assert_eq!(p.format_position(), text, "accepted a non-canonical form");
                    accepted += 1;
                }
            }
        }
        assert!(
            accepted > 100,
            "the mutations should hit valid strings too: {accepted}"
        );
        // Random tokens: refused without panicking, or canonical and legal.
        let letters: Vec<char> = "rb-0123456789pas".chars().collect();
        let positions = [
            pos("b,b,0,50/b,b,b,4 r - 0"),
            pos("b,b,0,50/b,b,b,4 r 6 1"),
            pos("b,b,0,50/b,b,b,4 y 3 0"),
            pos("56,56,56,56/b,b,b,b r - 0"),
        ];
        let mut legal = 0;
        for _ in 0..20_000 {
            let len = rng.random_range(0..6);
            let token: String = (0..len)
                .map(|_| letters[rng.random_range(0..letters.len())])
                .collect();
            for p in &positions {
                if let Ok(action) = p.parse_action(&token) {
                    assert_eq!(p.format_action(action), token);
                    assert!(p.is_legal(action));
                    legal += 1;
                }
            }
        }
        assert!(legal > 10, "some random tokens should be legal: {legal}");
    }
}
