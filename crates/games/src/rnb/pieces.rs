//! Pieces of R&B (rule 1.2).

/// A soldier's colour, its "tribe" (rule 1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Red soldiers (`R` / `r`).
    Red,
    /// Black soldiers (`B` / `b`).
    Black,
}

impl Colour {
    /// Both colours, red first: the order of hands in the position string.
    pub const ALL: [Colour; 2] = [Colour::Red, Colour::Black];

    /// 0 for red, 1 for black.
    pub const fn index(self) -> usize {
        match self {
            Colour::Red => 0,
            Colour::Black => 1,
        }
    }

    /// The upper-case letter of the colour (`R`, `B`), as placements are written.
    pub const fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Black => 'B',
        }
    }

    /// The colour's English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Black => "black",
        }
    }
}

/// The kind of a piece, whoever owns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A soldier of the given colour.
    Soldier(Colour),
    /// The king.
    King,
}

impl Piece {
    /// 0 red soldier, 1 black soldier, 2 king: an index into per-kind tables.
    pub const fn index(self) -> usize {
        match self {
            Piece::Soldier(c) => c.index(),
            Piece::King => 2,
        }
    }
}
