//! The board diagram of the `d` command: the 15x15 cross of §1.1 with the pieces drawn on
//! their cells (3 characters a cell), then the side to move, the die and the sixes (the
//! protocol's `d` adds the position string as `Fen:`).
//!
//! Cells: `.` a track square, `*` a safe one, `r1`..`r5` / `y1`..`y5` the home columns, `##`
//! the goal; a piece is `R` or `Y`, a stack `R2`, both colours on one (safe) square `RY`.
//! Pieces in base fill the four cells in the middle of their yard; finished pieces stand on
//! the goal cell their home column leads into.

use super::board::{TRACK_CELLS, absolute, goal_cell, home_cell, is_safe, yard_cells};
use super::{BASE, GOAL, LAST_TRACK, Ludo};
use quartet_core::game::{Game, Node, Player};
use std::fmt::Write;

impl Ludo {
    /// The diagram of `Notation::diagram`.
    pub(super) fn draw(&self) -> String {
        let mut grid = [["   "; 15]; 15].map(|row| row.map(String::from));
        for (a, &(r, c)) in TRACK_CELLS.iter().enumerate() {
            let safe = is_safe(a as u8);
            grid[r as usize][c as usize] = if safe { "  *" } else { "  ." }.to_string();
        }
        for row in grid.iter_mut().skip(6).take(3) {
            for cell in row.iter_mut().skip(6).take(3) {
                *cell = " ##".to_string();
            }
        }
        for side in [Player::First, Player::Second] {
            let letter = if side == Player::First { 'R' } else { 'Y' };
            for k in 1..=5 {
                let (r, c) = home_cell(side, k);
                grid[r as usize][c as usize] = format!(" {}{k}", letter.to_ascii_lowercase());
            }
            let pieces = self.pieces(side);
            let in_base = pieces.iter().filter(|&&v| v == BASE).count();
            for (i, &(r, c)) in yard_cells(side).iter().enumerate() {
                let slot = if i < in_base { letter } else { '.' };
                grid[r as usize][c as usize] = format!("  {slot}");
            }
            let mut previous = None;
            for &v in pieces {
                if v == BASE || previous == Some(v) {
                    continue;
                }
                previous = Some(v);
                let n = pieces.iter().filter(|&&w| w == v).count();
                let (r, c) = match v {
                    GOAL => goal_cell(side),
                    0..=LAST_TRACK => TRACK_CELLS[absolute(side, v) as usize],
                    _ => home_cell(side, v - LAST_TRACK),
                };
                let cell = &mut grid[r as usize][c as usize];
                *cell = if cell.contains(['R', 'Y']) {
                    " RY".to_string() // both colours share a safe square
                } else if n == 1 {
                    format!("  {letter}")
                } else {
                    format!(" {letter}{n}")
                };
            }
        }
        let mut s = String::new();
        for row in &grid {
            s.push_str(row.concat().trim_end());
            s.push('\n');
        }
        let side = if self.side_to_move() == Player::First {
            "Red"
        } else {
            "Yellow"
        };
        let _ = match (self.node(), self.die()) {
            (Node::Terminal(_), _) => write!(s, "{side} has won"),
            (_, None) => write!(s, "{side} to roll, sixes {}", self.sixes()),
            (_, Some(d)) => write!(s, "{side} to move, die {d}, sixes {}", self.sixes()),
        };
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;

    fn pos(text: &str) -> Ludo {
        Ludo::parse_position(text, &RuleOptions::default()).expect(text)
    }

    /// The 3-character cell at (row, col) of a diagram.
    fn cell(diagram: &str, row: usize, col: usize) -> String {
        let line = diagram.lines().nth(row).unwrap_or_default();
        let padded = format!("{line:<45}");
        padded[3 * col..3 * col + 3].to_string()
    }

    #[test]
    fn the_diagram_draws_pieces_on_their_cells() {
        // Red 0 = A0 at (6,1); Red 12 twice at (0,8); Yellow 0 = A26 at (8,13);
        // Yellow 52 = Y2 at (7,12); Red 56 in the goal cell (7,6).
        let p = pos("b,12,12,56/b,b,0,52 r 6 1");
        let d = p.diagram();
        assert_eq!(d.lines().count(), 16, "{d}");
        assert_eq!(cell(&d, 0, 8), " R2", "{d}");
        assert_eq!(cell(&d, 8, 13), "  Y", "{d}");
        assert_eq!(cell(&d, 7, 12), "  Y", "{d}");
        assert_eq!(cell(&d, 7, 6), "  R", "{d}");
        assert_eq!(cell(&d, 6, 1), "  *", "{d}");
        assert_eq!(cell(&d, 6, 2), "  .", "{d}");
        assert_eq!(cell(&d, 7, 1), " r1", "{d}");
        // One Red piece in base, two Yellow ones.
        assert_eq!(cell(&d, 2, 2), "  R", "{d}");
        assert_eq!(cell(&d, 2, 3), "  .", "{d}");
        assert_eq!(cell(&d, 11, 11), "  Y", "{d}");
        assert_eq!(cell(&d, 11, 12), "  Y", "{d}");
        assert_eq!(cell(&d, 12, 11), "  .", "{d}");
        assert!(d.ends_with("Red to move, die 6, sixes 1"), "{d}");
        // Both colours on a safe square: Red 0 and Yellow 26 share A0.
        let shared = pos("b,b,b,0/b,b,b,26 y - 0").diagram();
        assert_eq!(cell(&shared, 6, 1), " RY", "{shared}");
        assert!(shared.contains("Yellow to roll, sixes 0"), "{shared}");
    }
}
