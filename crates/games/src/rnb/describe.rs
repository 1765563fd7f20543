//! The R&B position as `query position` describes it (protocol.md): the 6x6 board, every
//! piece with its owner, kind and colour, the sun squares, the placement zones and hands.

use super::geometry::{HEIGHT, SQUARES, Square, WIDTH, ZONE_DEPTH, base};
use super::pieces::{Colour, Piece};
use super::position::Rnb;
use quartet_core::game::Player;
use quartet_core::notation::{Description, object, player_token};
use serde_json::{Value, json};

impl Rnb {
    /// The description of `Notation::describe`.
    pub(super) fn description(&self) -> Description {
        let pieces: Vec<Value> = (0..SQUARES)
            .filter_map(Square::from_index)
            .filter_map(|sq| {
                let (owner, piece) = self.piece_at(sq)?;
                let (kind, colour) = match piece {
                    Piece::King => ("king", Value::Null),
                    Piece::Soldier(c) => ("soldier", json!(colour_name(c))),
                };
                Some(json!({
                    "square": sq.to_string(),
                    "owner": player_token(owner),
                    "kind": kind,
                    "colour": colour,
                }))
            })
            .collect();
        let per_player = |f: &dyn Fn(Player) -> Value| {
            let (p1, p2) = (f(Player::First), f(Player::Second));
            json!({ "p1": p1, "p2": p2 })
        };
        object(json!({
            "width": WIDTH,
            "height": HEIGHT,
            "pieces": pieces,
            "bases": per_player(&|p| json!(base(p).to_string())),
            "zones": json!({
                "p1": (1..=ZONE_DEPTH).collect::<Vec<u8>>(),
                "p2": (HEIGHT - ZONE_DEPTH + 1..=HEIGHT).collect::<Vec<u8>>(),
            }),
            "hands": per_player(&|p| json!({
                "red": self.hand(p, Colour::Red),
                "black": self.hand(p, Colour::Black),
            })),
            "phase": if self.in_placement() { "placement" } else { "movement" },
            "since_capture": self.quiet_plies(),
        }))
    }
}

/// `red` or `black`.
fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Black => "black",
    }
}

#[cfg(test)]
mod tests {
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;
    use serde_json::json;

    #[test]
    fn the_start_shows_two_kings_full_hands_and_the_suns() {
        let d = super::Rnb::start(&RuleOptions::default()).describe();
        assert_eq!(d["width"], 6);
        assert_eq!(d["height"], 6);
        assert_eq!(
            d["pieces"],
            json!([
                {"square": "d1", "owner": "p1", "kind": "king", "colour": null},
                {"square": "c6", "owner": "p2", "kind": "king", "colour": null},
            ])
        );
        assert_eq!(d["bases"], json!({"p1": "d1", "p2": "c6"}));
        assert_eq!(d["zones"], json!({"p1": [1, 2], "p2": [5, 6]}));
        assert_eq!(d["hands"]["p2"], json!({"red": 4, "black": 4}));
        assert_eq!(d["phase"], "placement");
    }

    #[test]
    fn soldiers_carry_their_colour() {
        // Worked example 4 of the rules: R on c4, r on a3, b on b3.
        let p = super::Rnb::parse_position("2k3/6/2R3/rb4/6/3K2 s 0000 0", &RuleOptions::default())
            .expect("valid");
        let d = p.describe();
        let pieces = d["pieces"].as_array().expect("array");
        assert!(
            pieces.contains(
                &json!({"square": "a3", "owner": "p2", "kind": "soldier", "colour": "red"})
            )
        );
        assert!(pieces.contains(
            &json!({"square": "b3", "owner": "p2", "kind": "soldier", "colour": "black"})
        ));
        assert!(
            pieces.contains(
                &json!({"square": "c4", "owner": "p1", "kind": "soldier", "colour": "red"})
            )
        );
        assert_eq!(d["phase"], "movement");
        assert_eq!(d["since_capture"], 0);
    }
}
