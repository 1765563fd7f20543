//! The Apocalypse position as `query position` describes it (protocol.md): the 5x5 board,
//! every piece with its owner and kind, the penalty points, the no-progress counter and
//! the `DoubleStep` rule.

use super::board::{Piece, SIZE, SQUARES, square_name};
use super::rules::Apocalypse;
use quartet_core::game::Player;
use quartet_core::notation::{Description, object, player_token};
use serde_json::{Value, json};

impl Apocalypse {
    /// The description of `Notation::describe`.
    pub(super) fn description(&self) -> Description {
        let pieces: Vec<Value> = (0..SQUARES as u8)
            .filter_map(|sq| {
                let (owner, piece) = self.cell(sq)?;
                let kind = match piece {
                    Piece::Pawn => "pawn",
                    Piece::Knight => "knight",
                };
                Some(json!({
                    "square": square_name(sq).iter().collect::<String>(),
                    "owner": player_token(owner),
                    "kind": kind,
                }))
            })
            .collect();
        object(json!({
            "width": SIZE,
            "height": SIZE,
            "pieces": pieces,
            "penalties": {
                "p1": self.penalties(Player::First),
                "p2": self.penalties(Player::Second),
            },
            "no_progress": self.no_progress(),
            "double_step": self.double_step(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;
    use serde_json::json;

    #[test]
    fn a_position_lists_its_pieces_penalties_and_counter() {
        // Worked example 10's result: `5/4p/2P2/Pn3/N4 10 0`.
        let rules = RuleOptions::default();
        let d = super::Apocalypse::parse_position("5/4p/2P2/Pn3/N4 10 0", &rules)
            .expect("valid")
            .describe();
        assert_eq!(
            d["pieces"],
            json!([
                {"square": "a1", "owner": "p1", "kind": "knight"},
                {"square": "a2", "owner": "p1", "kind": "pawn"},
                {"square": "b2", "owner": "p2", "kind": "knight"},
                {"square": "c3", "owner": "p1", "kind": "pawn"},
                {"square": "e4", "owner": "p2", "kind": "pawn"},
            ])
        );
        assert_eq!(d["penalties"], json!({"p1": 1, "p2": 0}));
        assert_eq!(d["no_progress"], 0);
        assert_eq!(d["double_step"], true);
        assert_eq!(
            (d["width"].clone(), d["height"].clone()),
            (json!(5), json!(5))
        );
    }
}
