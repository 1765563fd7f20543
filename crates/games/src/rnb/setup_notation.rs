//! The text forms of `Placement together` (rules 1.3(d), 1.7): one side's arrangement
//! (`R@a2,R@b2,...,B@f1`, read in any order and case), the joint setup `<south>/<north>`,
//! and the position-string checks of that rule.

use super::arrangement::Arrangement;
use super::geometry::{SOLDIERS_PER_COLOUR, Square, base, zone};
use super::moves::Move;
use super::pieces::Colour;
use super::position::Rnb;
use super::side_name;
use super::token::parse_move;
use crate::kit::node::refuse_if_over;
use quartet_core::game::{Action, Game, Player};
use quartet_core::notation::NotationError;

impl Rnb {
    /// Resolves a token with a `/` or a `,`: the joint setup `<south>/<north>` here, or why
    /// not (a malformed half first, then where the setup cannot be played).
    pub(super) fn parse_setup_action(&self, token: &str) -> Result<Action<Move>, NotationError> {
        let Some((south, north)) = token.split_once('/') else {
            parse_arrangement(token).map_err(|why| NotationError::syntax(token, why))?;
            let why = if self.setup {
                format!(
                    "one side's arrangement is half of the joint setup: send <south>/<north>, \
                     like {}/{}",
                    example_arrangement(Player::First),
                    example_arrangement(Player::Second)
                )
            } else {
                self.no_joint_turn()
            };
            return Err(NotationError::illegal(token, why));
        };
        let written = [south, north].map(parse_arrangement);
        let [south, north] =
            written.map(|half| half.map_err(|why| NotationError::syntax(token, why)));
        let (south, north) = (south?, north?);
        if !self.setup {
            return Err(NotationError::illegal(token, self.no_joint_turn()));
        }
        let resolve = |p: Player, placements: &[(Colour, Square)]| {
            Arrangement::new(p, placements).map_err(|why| {
                NotationError::illegal(token, format!("{}'s arrangement: {why}", side_name(p)))
            })
        };
        let south = resolve(Player::First, &south)?;
        let north = resolve(Player::Second, &north)?;
        Ok(Action::Joint(Move::Arrange(south), Move::Arrange(north)))
    }

    /// One arrangement of `p` at the joint setup, in any order and either case of the
    /// colour letters (`Notation::parse_declaration`).
    pub(super) fn parse_arrangement_of(
        &self,
        p: Player,
        token: &str,
    ) -> Result<Move, NotationError> {
        let placements =
            parse_arrangement(token).map_err(|why| NotationError::syntax(token, why))?;
        if !self.setup {
            return Err(NotationError::illegal(token, self.no_joint_turn()));
        }
        Arrangement::new(p, &placements)
            .map(Move::Arrange)
            .map_err(|why| NotationError::illegal(token, why))
    }

    /// Why a joint turn cannot be played here (only the joint setup is one).
    fn no_joint_turn(&self) -> String {
        match refuse_if_over(self.node(), side_name) {
            Err(over) => over,
            Ok(()) => "a joint turn <south>/<north> is only the setup of Placement together, at \
                       the start"
                .to_string(),
        }
    }
}

/// Reads one side's arrangement token (rule 1.7): placements joined by commas, in any
/// order, forming an arrangement ([`Arrangement::check_form`]).
fn parse_arrangement(token: &str) -> Result<Vec<(Colour, Square)>, String> {
    let mut placements = Vec::new();
    for part in token.split(',') {
        match parse_move(part) {
            Ok(Move::Place { colour, to }) => placements.push((colour, to)),
            Ok(_) => return Err(format!("'{part}' is not a placement like R@a2")),
            Err(NotationError::Syntax { why, .. }) => return Err(format!("'{part}': {why}")),
            Err(e) => return Err(e.to_string()),
        }
    }
    Arrangement::check_form(&placements)?;
    Ok(placements)
}

/// A legal arrangement of `p` that keeps the line rule, for messages (worked example 18).
pub(super) fn example_arrangement(p: Player) -> &'static str {
    match p {
        Player::First => "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1",
        Player::Second => "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6",
    }
}

/// Why the side field or the hands do not fit the placement rule (`together`).
pub(super) fn placement_rule_error(pos: &Rnb, together: bool) -> String {
    match (pos.setup, together) {
        (true, false) => "'sn' (both sides arrange at once) is the start of Placement together; \
                          this game is played with Placement alternate"
            .to_string(),
        (true, true) => "'sn' is the joint setup, before any soldier is placed: the hands \
                         are 4444"
            .to_string(),
        (false, _) => "under Placement together the soldiers are placed in one joint turn: the \
                       only position before it is the start, with the side field 'sn'"
            .to_string(),
    }
}

/// Whether `pos` is as the joint setup leaves it: South to move, hands empty, counter 0,
/// kings on their bases and every soldier in its owner's zone (rule 1.3(d)).
pub(super) fn just_arranged(pos: &Rnb) -> bool {
    pos.to_move == Player::First
        && !pos.in_placement()
        && pos.quiet_plies == 0
        && [Player::First, Player::Second].into_iter().all(|p| {
            let own = pos.sides[p.index()];
            own & pos.kings == base(p).bit()
                && own & !zone(p) == 0
                && (own & !pos.kings).count_ones() == 2 * u32::from(SOLDIERS_PER_COLOUR)
        })
}
