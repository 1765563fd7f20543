//! The Duell position as `query position` describes it (protocol.md): the 9x8 board, every
//! die with its owner and orientation (top, north and east faces), the key squares and
//! the two DFEN counters.

use super::board::{E1, E8, FILES, RANKS, SQUARES, Square, square_name};
use super::piece::{self, EMPTY};
use super::{Duell, die};
use quartet_core::notation::{Description, object, player_token};
use serde_json::{Value, json};

impl Duell {
    /// The description of `Notation::describe`.
    pub(super) fn description(&self) -> Description {
        let pieces: Vec<Value> = (0..SQUARES as Square)
            .filter_map(|s| {
                let p = self.board[s as usize];
                if p == EMPTY {
                    return None;
                }
                let k = piece::kind(p);
                let (kind, top, north, east) = if piece::is_key(p) {
                    ("key", 1, 1, 1)
                } else {
                    ("die", die::top(k), die::north(k), die::east(k))
                };
                Some(json!({
                    "square": square_name(s),
                    "owner": player_token(piece::owner(p)),
                    "kind": kind,
                    "top": top,
                    "north": north,
                    "east": east,
                }))
            })
            .collect();
        object(json!({
            "width": FILES,
            "height": RANKS,
            "pieces": pieces,
            "key_squares": {"p1": square_name(E1), "p2": square_name(E8)},
            "since_capture": self.plies_since_capture,
            "move_number": self.move_number,
        }))
    }
}

#[cfg(test)]
mod tests {
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;
    use serde_json::json;

    #[test]
    fn the_start_reads_as_rules_1_5_say() {
        let d = super::Duell::start(&RuleOptions::default()).describe();
        assert_eq!(
            (d["width"].clone(), d["height"].clone()),
            (json!(9), json!(8))
        );
        let pieces = d["pieces"].as_array().expect("array");
        assert_eq!(pieces.len(), 18);
        // a1 is W54: top 5, north 4; the owner's right face there is 6 (rules 1.5).
        assert_eq!(
            pieces[0],
            json!({"square": "a1", "owner": "p1", "kind": "die", "top": 5, "north": 4, "east": 6})
        );
        assert_eq!(
            pieces[4],
            json!({"square": "e1", "owner": "p1", "kind": "key", "top": 1, "north": 1, "east": 1})
        );
        // i8 is B53: top 5, north 3; rank 8's east faces read 1 2 6 5 - 5 6 2 1.
        assert_eq!(
            pieces[17],
            json!({"square": "i8", "owner": "p2", "kind": "die", "top": 5, "north": 3, "east": 1})
        );
        assert_eq!(d["key_squares"], json!({"p1": "e1", "p2": "e8"}));
        assert_eq!(d["move_number"], 1);
        assert_eq!(d["since_capture"], 0);
    }
}
