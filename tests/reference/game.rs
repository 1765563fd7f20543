//! What the two alternating reference games share: the string-level driver (legal tokens,
//! play, outcome, perft) built on each game's own parser, move generator and judge, and
//! the writer of the board field of a position string.

/// One reference game, written straight from its rules file. Implementors supply the
/// rules; the provided functions drive them through position strings and move tokens.
pub trait ReferenceGame {
    /// A parsed position.
    type Position;
    /// One candidate move.
    type Move;

    /// The start position string of the rules file.
    const START: &'static str;

    /// Parses a position string. Panics on anything `format` would not write.
    fn parse(s: &str) -> Self::Position;

    /// Writes the canonical position string.
    fn format(pos: &Self::Position) -> String;

    /// Every move of the side to move, whether or not the game is over.
    fn candidate_moves(pos: &Self::Position) -> Vec<Self::Move>;

    /// Plays a candidate move.
    fn apply(pos: &Self::Position, m: &Self::Move) -> Self::Position;

    /// `Some("first" | "second" | "draw")` if the game is over at `pos`, else `None`.
    fn judge(pos: &Self::Position) -> Option<&'static str>;

    /// The canonical token of `m`.
    fn token(m: &Self::Move) -> String;

    /// The legal moves: none in a finished position (Duell §1.15, R&B §1.8), else the
    /// candidate moves.
    fn legal_moves(pos: &Self::Position) -> Vec<Self::Move> {
        if Self::judge(pos).is_some() {
            return Vec::new();
        }
        Self::candidate_moves(pos)
    }

    /// The canonical tokens of every legal move of `pos`, sorted; empty if the game is over.
    fn legal_tokens(pos: &str) -> Vec<String> {
        let mut tokens: Vec<String> = Self::legal_moves(&Self::parse(pos))
            .iter()
            .map(Self::token)
            .collect();
        tokens.sort();
        tokens
    }

    /// The position string after playing `token` in `pos`. Panics if the token is not legal.
    fn play(pos: &str, token: &str) -> String {
        let p = Self::parse(pos);
        let m = Self::legal_moves(&p)
            .into_iter()
            .find(|m| Self::token(m) == token)
            .unwrap_or_else(|| panic!("{token} is not legal in {pos}"));
        Self::format(&Self::apply(&p, &m))
    }

    /// `Some("first" | "second" | "draw")` if the game is over at `pos` (no history, so no
    /// repetition), else `None`.
    fn outcome(pos: &str) -> Option<&'static str> {
        Self::judge(&Self::parse(pos))
    }

    /// The number of leaf nodes `depth` plies below `pos`; a finished position has no
    /// children.
    fn perft(pos: &str, depth: u32) -> u64 {
        perft_of::<Self>(&Self::parse(pos), depth)
    }
}

/// The leaves `depth` plies below the parsed `pos` (the provided [`ReferenceGame::perft`]).
pub fn perft_of<G: ReferenceGame + ?Sized>(pos: &G::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    G::legal_moves(pos)
        .iter()
        .map(|m| perft_of::<G>(&G::apply(pos, m), depth - 1))
        .sum()
}

/// The board field of a position string, as both rules files write it: ranks from the top
/// down, joined by `/`; in each rank the cells from file a on, a run of empty squares as its
/// length. `cell(x, y)` is the text of the piece on file `x` (0 = a) and rank `y` (0 = rank
/// 1), `None` for an empty square.
pub fn board_field(files: i32, ranks: i32, cell: impl Fn(i32, i32) -> Option<String>) -> String {
    let mut rank_texts = Vec::new();
    for y in (0..ranks).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for x in 0..files {
            match cell(x, y) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(&piece);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        rank_texts.push(text);
    }
    rank_texts.join("/")
}
