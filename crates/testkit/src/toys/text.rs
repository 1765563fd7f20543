//! Text helpers shared by the toys with a notation.

use quartet_core::declaration::{GameDeclaration, NodeKinds};
use quartet_core::game::Player;
use quartet_core::notation::NotationError;

/// `f` or `s`.
pub(super) fn side_char(p: Player) -> &'static str {
    match p {
        Player::First => "f",
        Player::Second => "s",
    }
}

/// The side written `f` or `s` in the position string `text`.
pub(super) fn parse_side(text: &str, field: &str) -> Result<Player, NotationError> {
    match field {
        "f" => Ok(Player::First),
        "s" => Ok(Player::Second),
        _ => Err(NotationError::position(text, "side must be f or s")),
    }
}

/// A number field of the position string `text`, with `what` naming it in the error.
pub(super) fn parse_num<T: std::str::FromStr>(
    text: &str,
    field: &str,
    what: &str,
) -> Result<T, NotationError> {
    field
        .parse()
        .map_err(|_| NotationError::position(text, format!("bad {what} '{field}'")))
}

/// A hash of `parts` (a few rounds of multiply and shift).
pub(super) fn mix(parts: &[u64]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64;
    for &p in parts {
        h = (h ^ p).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^= h >> 31;
    }
    h
}

/// The declaration of a toy game called `name` with `nodes`: no rule options, no named end
/// reasons, no skill calibration, and a bench of one ply (toys are never benched).
pub(super) const fn declaration(name: &'static str, nodes: NodeKinds) -> GameDeclaration {
    GameDeclaration {
        name,
        title: name,
        nodes,
        ..GameDeclaration::DEFAULT
    }
}
