//! The text forms of R&B (rule 1.7): position strings, move tokens, the board diagram.
//!
//! Position strings are parsed strictly: only the exact form [`Notation::format_position`]
//! writes is accepted, and positions that no game can reach are refused. Beyond the
//! rejections of rule 1.8 (more than one king per side, more than 4 soldiers of one colour
//! per side, board plus hand), our choices are:
//! - the side to move may not own a full line, nor have its king on the enemy base (it would
//!   already have lost or won), and the side that just acted must still have its king;
//! - during placement (some soldier still in hand): South and North alternate, South first,
//!   so South is to move exactly when both hands hold as many soldiers, North exactly when
//!   its hand holds one more; nothing has been captured, so each side owns exactly 4
//!   soldiers of each colour; both kings stand on their bases and every soldier in its
//!   owner's zone; and the plies-since-capture counter is 0 (it counts movement plies only);
//! - the counter is at most 100, where the game ends;
//! - under `Placement together` (rule 1.3(d)) the only placement-phase position is the
//!   joint setup, side field `sn` (and `sn` only there); the side to move (South) may own a
//!   full line only as the joint setup leaves it (every soldier in its owner's zone, kings
//!   on their bases, counter 0). Under `Placement alternate` `sn` is refused.

use super::geometry::{
    Bitboard, HEIGHT, LINE_LENGTH, SOLDIERS_PER_COLOUR, Square, WIDTH, ZONE_DEPTH, base, has_line,
    squares, zone,
};
use super::moves::Move;
use super::pieces::{Colour, Piece};
use super::position::{QUIET_PLY_LIMIT, Rnb};
use super::setup_notation::{example_arrangement, just_arranged, placement_rule_error};
use super::side_name;
use super::token::parse_move;
use crate::kit::fields::fields;
use crate::kit::node::refuse_if_over;
use crate::kit::ranks;
use quartet_core::declaration::GameDeclaration;
use quartet_core::game::{Action, Game, Outcome, Player, RuleOptions};
use quartet_core::notation::{Description, Notation, NotationError};
use std::fmt::Write;

impl Notation for Rnb {
    const DECLARATION: GameDeclaration = super::DECLARATION;

    /// `2k3/6/6/6/6/3K2 s 4444 0`: kings on their bases, every soldier in hand; under
    /// `Placement together` the joint setup `2k3/6/6/6/6/3K2 sn 4444 0`.
    fn start(rules: &RuleOptions) -> Rnb {
        let kings = base(Player::First).bit() | base(Player::Second).bit();
        let full = [SOLDIERS_PER_COLOUR; 2];
        Rnb::from_parts(
            [base(Player::First).bit(), base(Player::Second).bit()],
            0,
            kings,
            [full, full],
            Player::First,
            0,
            super::together(rules),
        )
    }

    fn parse_position(text: &str, rules: &RuleOptions) -> Result<Rnb, NotationError> {
        let fail = |why: String| NotationError::position(text, why);
        let [board, side, hands, plies] = fields(
            text,
            [
                "board",
                "side to move: s|n, or sn at the joint setup",
                "hands: 4 digits",
                "plies since capture",
            ],
        )
        .map_err(fail)?;
        let board = parse_board(board).map_err(fail)?;
        let (to_move, setup) = match side {
            "s" => (Player::First, false),
            "n" => (Player::Second, false),
            "sn" => (Player::First, true),
            other => {
                return Err(fail(format!(
                    "side to move (field 2) must be 's', 'n' or 'sn', found '{other}'"
                )));
            }
        };
        let hands = parse_hands(hands).map_err(fail)?;
        let quiet_plies = parse_counter(plies).map_err(fail)?;
        let pos = Rnb::from_parts(
            board.sides,
            board.red,
            board.kings,
            hands,
            to_move,
            quiet_plies,
            setup,
        );
        check_possible(&pos, super::together(rules)).map_err(fail)?;
        Ok(pos)
    }

    fn format_position(&self) -> String {
        let mut text = String::new();
        ranks::format(&mut text, WIDTH, HEIGHT, |file, rank| {
            let (owner, piece) = Square::new(file, rank).and_then(|sq| self.piece_at(sq))?;
            Some(piece_letter(owner, piece))
        });
        text.push_str(match (self.setup, self.to_move) {
            (true, _) => " sn ",
            (false, Player::First) => " s ",
            (false, Player::Second) => " n ",
        });
        for hand in self.hands {
            for count in hand {
                let _ = write!(text, "{count}");
            }
        }
        let _ = write!(text, " {}", self.quiet_plies);
        text
    }

    /// A placement, a step, or at the joint setup `<south>/<north>` (rule 1.7).
    fn parse_action(&self, token: &str) -> Result<Action<Move>, NotationError> {
        if token.contains(['/', ',']) {
            return self.parse_setup_action(token);
        }
        let m = parse_move(token)?;
        self.check_legal(m)
            .map_err(|why| NotationError::illegal(token, why))?;
        Ok(Action::Single(m))
    }

    /// An arrangement of `p` in any order and either case of the colour letters, at the
    /// joint setup.
    fn parse_declaration(&self, p: Player, token: &str) -> Result<Move, NotationError> {
        self.parse_arrangement_of(p, token)
    }

    /// `R@a2` / `B@a2` (colour upper case), `d1d2`, or an arrangement
    /// `R@a2,R@b2,...,B@f1` (reds first, then blacks, each by square).
    fn format_move(&self, m: Move) -> String {
        match m {
            Move::Place { colour, to } => format!("{}@{to}", colour.letter()),
            Move::Step { from, to } => format!("{from}{to}"),
            Move::Arrange(a) => a.token(),
        }
    }

    fn describe(&self) -> Description {
        self.description()
    }

    fn diagram(&self) -> String {
        let mut text = String::from("   ");
        for file in 0..WIDTH {
            let _ = write!(text, " {}", (b'a' + file) as char);
        }
        for rank in (0..HEIGHT).rev() {
            let _ = write!(text, "\n{:>2} ", rank + 1);
            for file in 0..WIDTH {
                let square = Square::new(file, rank).and_then(|sq| self.piece_at(sq));
                let shown = square.map_or('.', |(owner, piece)| piece_letter(owner, piece));
                let _ = write!(text, " {shown}");
            }
        }
        let [[sr, sb], [nr, nb]] = self.hands;
        let _ = write!(
            text,
            "\nIn hand: South R{sr} B{sb}, North r{nr} b{nb}; plies since capture {}",
            self.quiet_plies
        );
        let _ = match self.verdict() {
            Some(outcome) => write!(text, "\nGame over: {}", describe(outcome)),
            None if self.setup => {
                write!(
                    text,
                    "\nSouth and North arrange at once (Placement together)"
                )
            }
            None if self.in_placement() => {
                write!(text, "\n{} to place", side_name(self.to_move))
            }
            None => write!(text, "\n{} to move", side_name(self.to_move)),
        };
        text
    }
}

impl Rnb {
    /// Why the well-formed move `m` cannot be played here, if it cannot.
    fn check_legal(&self, m: Move) -> Result<(), String> {
        if self.setup {
            return Err(format!(
                "under Placement together both sides arrange at once: send <south>/<north>, \
                 like {}/{}",
                example_arrangement(Player::First),
                example_arrangement(Player::Second)
            ));
        }
        refuse_if_over(self.node(), side_name)?;
        let side = self.to_move;
        let name = side_name(side);
        let occupied = |sq: Square| self.piece_at(sq).is_some();
        match m {
            Move::Arrange(_) => {
                return Err("an arrangement is half of the joint setup".into());
            }
            Move::Place { colour, to } => {
                if !self.in_placement() {
                    return Err("every soldier is placed; pieces now step (like d1d2)".into());
                }
                if self.hand(side, colour) == 0 {
                    return Err(format!("{name} has no {} soldier in hand", colour.name()));
                }
                if zone(side) & to.bit() == 0 {
                    return Err(format!(
                        "{to} is outside {name}'s zone ({})",
                        zone_ranks(side)
                    ));
                }
                if occupied(to) {
                    return Err(format!("{to} is occupied"));
                }
            }
            Move::Step { from, to } => {
                if self.in_placement() {
                    return Err(format!(
                        "{name} must place a soldier (like R@a2); pieces step after placement"
                    ));
                }
                match self.piece_at(from) {
                    None => return Err(format!("{from} is empty")),
                    Some((owner, _)) if owner != side => {
                        return Err(format!(
                            "{from} holds a {} piece and {name} is to move",
                            side_name(owner)
                        ));
                    }
                    Some(_) => {}
                }
                if !from.is_adjacent(to) {
                    return Err(format!("{from} to {to} is not a one-square step"));
                }
                if occupied(to) {
                    return Err(format!("{to} is occupied"));
                }
            }
        }
        Ok(())
    }
}

/// The pieces of a parsed board.
struct Board {
    sides: [Bitboard; 2],
    red: Bitboard,
    kings: Bitboard,
}

/// Reads field 1: `HEIGHT` ranks from the top, `/`-separated, digits for empty squares.
fn parse_board(field: &str) -> Result<Board, String> {
    let mut board = Board {
        sides: [0; 2],
        red: 0,
        kings: 0,
    };
    ranks::parse(field, WIDTH, HEIGHT, |file, rank, ch, _| {
        let (owner, piece) = match ch {
            'R' => (Player::First, Piece::Soldier(Colour::Red)),
            'B' => (Player::First, Piece::Soldier(Colour::Black)),
            'K' => (Player::First, Piece::King),
            'r' => (Player::Second, Piece::Soldier(Colour::Red)),
            'b' => (Player::Second, Piece::Soldier(Colour::Black)),
            'k' => (Player::Second, Piece::King),
            _ => {
                return Err(format!(
                    "unexpected '{ch}' (pieces are R B K r b k, empties a count)"
                ));
            }
        };
        let sq = Square::new(file, rank).ok_or("off the board")?;
        board.sides[owner.index()] |= sq.bit();
        match piece {
            Piece::King => board.kings |= sq.bit(),
            Piece::Soldier(Colour::Red) => board.red |= sq.bit(),
            Piece::Soldier(Colour::Black) => {}
        }
        Ok(())
    })
    .map_err(|why| format!("board (field 1): {}", why.trim_start_matches("board: ")))?;
    Ok(board)
}

/// Reads field 3: South red, South black, North red, North black soldiers in hand.
fn parse_hands(field: &str) -> Result<[[u8; 2]; 2], String> {
    let digits: Vec<u8> = field.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if digits.len() != 4 || digits.iter().any(|&d| d > SOLDIERS_PER_COLOUR) {
        return Err(format!(
            "hands (field 3) must be 4 digits 0-{SOLDIERS_PER_COLOUR} (South red, South black, \
             North red, North black), found '{field}'"
        ));
    }
    Ok([[digits[0], digits[1]], [digits[2], digits[3]]])
}

/// Reads field 4: movement plies since the last capture, 0 to `QUIET_PLY_LIMIT`.
fn parse_counter(field: &str) -> Result<u8, String> {
    let canonical =
        field.bytes().all(|b| b.is_ascii_digit()) && (field == "0" || !field.starts_with('0'));
    match field.parse::<u8>() {
        Ok(n) if canonical && n <= QUIET_PLY_LIMIT => Ok(n),
        _ => Err(format!(
            "plies since capture (field 4) must be a number 0-{QUIET_PLY_LIMIT} without leading \
             zeros, found '{field}'"
        )),
    }
}

/// Refuses a position that no game reaches under the placement rule (`together`: rule
/// 1.3(d)); see the module documentation.
fn check_possible(pos: &Rnb, together: bool) -> Result<(), String> {
    for p in [Player::First, Player::Second] {
        let name = side_name(p);
        let own = pos.sides[p.index()];
        let kings = (own & pos.kings).count_ones();
        if kings > 1 {
            return Err(format!("{name} has {kings} kings; a side has one"));
        }
        for c in Colour::ALL {
            let on_board = (own & pos.colour(c)).count_ones();
            let in_hand = u32::from(pos.hand(p, c));
            let total = on_board + in_hand;
            let limit = u32::from(SOLDIERS_PER_COLOUR);
            if total > limit || (pos.in_placement() && total != limit) {
                let rule = if total > limit {
                    "at most"
                } else {
                    "during placement nothing has been captured, so exactly"
                };
                return Err(format!(
                    "{name} owns {total} {} soldiers ({on_board} on the board, {in_hand} in \
                     hand); {rule} {limit}",
                    c.name()
                ));
            }
        }
    }
    let full_hands = pos.hands == [[SOLDIERS_PER_COLOUR; 2]; 2];
    if pos.setup != (together && pos.in_placement()) || (pos.setup && !full_hands) {
        return Err(placement_rule_error(pos, together));
    }
    let side = pos.to_move;
    let (name, other) = (side_name(side), side_name(side.other()));
    if has_line(pos.sides[side.index()]) && !(together && just_arranged(pos)) {
        return Err(format!(
            "{name} is to move but has {LINE_LENGTH} pieces in a rank, so it lost when it made them"
        ));
    }
    if pos.sides[side.index()] & pos.kings & base(side.other()).bit() != 0 {
        return Err(format!(
            "{name}'s king stands on {other}'s base {}, so {name} has already won",
            base(side.other())
        ));
    }
    if pos.sides[side.other().index()] & pos.kings == 0 {
        return Err(format!(
            "{other} has no king, yet {other} made the last move; its king was taken before"
        ));
    }
    if pos.in_placement() {
        check_placement(pos)?;
    }
    Ok(())
}

/// The extra conditions of the placement phase (see the module documentation).
fn check_placement(pos: &Rnb) -> Result<(), String> {
    let total = |p: Player| pos.hands[p.index()].iter().sum::<u8>();
    let (south, north) = (total(Player::First), total(Player::Second));
    let expected = if south == north {
        Player::First
    } else if north == south + 1 {
        Player::Second
    } else {
        return Err(format!(
            "South holds {south} soldiers and North {north}: placements alternate, South \
             first, so the hands differ by at most one in North's favour"
        ));
    };
    if pos.to_move != expected {
        return Err(format!(
            "South holds {south} soldiers and North {north}, so {} is to place",
            side_name(expected)
        ));
    }
    if pos.quiet_plies != 0 {
        return Err(
            "plies since capture (field 4) is 0 during placement: only movement plies count".into(),
        );
    }
    for p in [Player::First, Player::Second] {
        let own = pos.sides[p.index()];
        if own & pos.kings != base(p).bit() {
            return Err(format!(
                "during placement {}'s king stands on its base {}",
                side_name(p),
                base(p)
            ));
        }
        if let Some(sq) = squares(own & !zone(p)).next() {
            return Err(format!(
                "during placement {}'s soldiers stand in its zone ({}), not on {sq}",
                side_name(p),
                zone_ranks(p)
            ));
        }
    }
    Ok(())
}

/// The letter of `piece` of `owner`: South upper case, North lower case.
fn piece_letter(owner: Player, piece: Piece) -> char {
    let letter = match piece {
        Piece::Soldier(c) => c.letter(),
        Piece::King => 'K',
    };
    match owner {
        Player::First => letter,
        Player::Second => letter.to_ascii_lowercase(),
    }
}

/// The ranks of `p`'s zone as text, like `ranks 1-2`.
fn zone_ranks(p: Player) -> String {
    match p {
        Player::First => format!("ranks 1-{ZONE_DEPTH}"),
        Player::Second => format!("ranks {}-{HEIGHT}", HEIGHT - ZONE_DEPTH + 1),
    }
}

/// `South wins`, `North wins` or `draw`.
pub(super) fn describe(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} wins", side_name(p)),
        Outcome::Draw => "draw".to_string(),
    }
}

#[cfg(test)]
#[path = "notation_tests.rs"]
mod tests;
