//! The Ludo position as `query position` describes it (protocol.md): every piece with its
//! progress, zone and cell on the 15x15 cross, the pending die, the sixes, and the board's
//! geometry (track cells, home columns, yards, goal cells, start and safe squares) so that a
//! client can draw the cross without knowing the rules.

use super::board::{TRACK_CELLS, absolute, goal_cell, home_cell, is_safe, yard_cells};
use super::{BASE, GOAL, LAST_TRACK, Ludo};
use quartet_core::game::Player;
use quartet_core::notation::{Description, object, player_token};
use serde_json::{Value, json};

/// The board is 15 cells wide and high.
const CELLS: u8 = 15;

impl Ludo {
    /// The description of `Notation::describe`.
    pub(super) fn description(&self) -> Description {
        let mut pieces = Vec::new();
        for side in [Player::First, Player::Second] {
            let yard = yard_cells(side);
            let mut in_base = 0;
            for &v in self.pieces(side) {
                let (progress, zone, track, home, cell) = match v {
                    BASE => {
                        in_base += 1;
                        let slot = yard[(in_base - 1) % yard.len()];
                        (Value::Null, "base", Value::Null, Value::Null, slot)
                    }
                    GOAL => (json!(v), "goal", Value::Null, Value::Null, goal_cell(side)),
                    0..=LAST_TRACK => {
                        let a = absolute(side, v);
                        (
                            json!(v),
                            "track",
                            json!(a),
                            Value::Null,
                            TRACK_CELLS[a as usize],
                        )
                    }
                    _ => {
                        let k = v - LAST_TRACK;
                        (json!(v), "home", Value::Null, json!(k), home_cell(side, k))
                    }
                };
                pieces.push(json!({
                    "owner": player_token(side),
                    "progress": progress,
                    "zone": zone,
                    "track": track,
                    "home": home,
                    "cell": [cell.0, cell.1],
                }));
            }
        }
        object(json!({
            "width": CELLS,
            "height": CELLS,
            "pieces": pieces,
            "die": self.die(),
            "sixes": self.sixes(),
            "geometry": geometry(),
        }))
    }
}

/// The fixed drawing data of the cross (rules §1.1).
fn geometry() -> Value {
    let cell = |(r, c): (u8, u8)| json!([r, c]);
    let per_side =
        |f: &dyn Fn(Player) -> Value| json!({"p1": f(Player::First), "p2": f(Player::Second)});
    json!({
        "track": TRACK_CELLS.iter().map(|&rc| cell(rc)).collect::<Vec<_>>(),
        "home": per_side(&|s| (1..=5).map(|k| cell(home_cell(s, k))).collect()),
        "yards": per_side(&|s| yard_cells(s).iter().map(|&rc| cell(rc)).collect()),
        "goal": per_side(&|s| cell(goal_cell(s))),
        "starts": per_side(&|s| json!(absolute(s, 0))),
        "safe": (0..TRACK_CELLS.len() as u8).filter(|&a| is_safe(a)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;
    use serde_json::json;

    #[test]
    fn pieces_stand_on_the_cells_of_rules_1_1() {
        // Red 0 = A0 at (6,1); Red 12 = A12 at (0,8); Yellow 0 = A26 at (8,13);
        // Yellow 52 = Y2 at (7,12); Red 56 in Red's goal cell.
        let p = super::Ludo::parse_position("b,12,12,56/b,b,0,52 r 6 1", &RuleOptions::default())
            .expect("valid");
        let d = p.describe();
        let pieces = d["pieces"].as_array().expect("array");
        assert_eq!(pieces.len(), 8);
        assert_eq!(pieces[0]["zone"], "base");
        assert_eq!(pieces[0]["progress"], json!(null));
        assert_eq!(
            pieces[1],
            json!({
                "owner": "p1", "progress": 12, "zone": "track", "track": 12,
                "home": null, "cell": [0, 8]
            })
        );
        assert_eq!(pieces[3]["zone"], "goal");
        assert_eq!(
            pieces[6],
            json!({
                "owner": "p2", "progress": 0, "zone": "track", "track": 26,
                "home": null, "cell": [8, 13]
            })
        );
        assert_eq!(
            pieces[7],
            json!({
                "owner": "p2", "progress": 52, "zone": "home", "track": null,
                "home": 2, "cell": [7, 12]
            })
        );
        assert_eq!(d["die"], 6);
        assert_eq!(d["sixes"], 1);
        let g = &d["geometry"];
        assert_eq!(g["track"].as_array().map(Vec::len), Some(52));
        assert_eq!(g["track"][0], json!([6, 1]));
        assert_eq!(g["track"][51], json!([6, 0]));
        assert_eq!(g["starts"], json!({"p1": 0, "p2": 26}));
        assert_eq!(g["safe"], json!([0, 8, 13, 21, 26, 34, 39, 47]));
        assert_eq!(g["home"]["p1"][0], json!([7, 1]));
        assert_eq!(g["home"]["p2"][4], json!([7, 9]));
    }

    #[test]
    fn base_pieces_fill_distinct_yard_slots() {
        let d = super::Ludo::start(&RuleOptions::default()).describe();
        let cells: std::collections::HashSet<String> = d["pieces"]
            .as_array()
            .expect("array")
            .iter()
            .map(|p| p["cell"].to_string())
            .collect();
        assert_eq!(cells.len(), 8);
        assert_eq!(d["die"], json!(null));
    }
}
