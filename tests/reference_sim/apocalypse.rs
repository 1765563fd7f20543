//! Slow, independent reference referee for Apocalypse, written straight from
//! docs/rules/apocalypse.md (rule numbers such as §1.5 A2 refer to that file).
//!
//! It shares no code with the crate and uses std only. Clarity beats speed: plain structs,
//! explicit loops, one function per rule. The string-level API (`legal_declarations`,
//! `play_joint`, `outcome`, `perft`) panics with a message naming the problem when it is given a
//! malformed position; it is test code, and a panic is a test failure with a clear reason.
//!
//! Readings chosen where the rules leave room (each is also in the report):
//! - §1.3 "has 2 knights" is read as "has 2 or more knights"; positions with 3 knights cannot
//!   arise in play (a promotion needs ≤1 knight) but are not rejected either.
//! - Penalty fields are digits 0..=2 and the counter is 0..=50: a game ends as soon as a side
//!   reaches 2 points or the counter reaches 50, so larger values cannot arise.
//! - Only canonical board strings are accepted (no `0`, no two digits in a row).

/// The two sides. White moves up the board (towards rank 5), Black down (§1.1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Color {
    White,
    Black,
}

/// The two piece types (§1.1): knights ("horsemen") and pawns ("footmen").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Knight,
    Pawn,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    color: Color,
    kind: Kind,
}

/// A square: `file` 0..5 is a..e, `rank` 0..5 is ranks 1..5.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Square {
    file: i32,
    rank: i32,
}

/// A position as written in §1.1: board, penalty points (White, Black), no-progress counter.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Position {
    /// `board[rank][file]`.
    board: [[Option<Piece>; 5]; 5],
    /// Index 0 is White, 1 is Black.
    penalties: [u32; 2],
    counter: u32,
}

/// A declared move that is legal in `S` (§1.2–1.3). `redeploy` is the `@r` suffix.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Move {
    from: Square,
    to: Square,
    redeploy: Option<Square>,
}

fn square(file: i32, rank: i32) -> Square {
    Square { file, rank }
}

fn piece(color: Color, kind: Kind) -> Piece {
    Piece { color, kind }
}

fn plain_move(from: Square, to: Square) -> Move {
    Move {
        from,
        to,
        redeploy: None,
    }
}

fn redeploy_move(from: Square, to: Square, r: Square) -> Move {
    Move {
        from,
        to,
        redeploy: Some(r),
    }
}

/// The piece letters of §1.1: upper case White, lower case Black.
const PIECE_LETTERS: [(char, Color, Kind); 4] = [
    ('N', Color::White, Kind::Knight),
    ('P', Color::White, Kind::Pawn),
    ('n', Color::Black, Kind::Knight),
    ('p', Color::Black, Kind::Pawn),
];

/// The knight leaps of §1.2.
const KNIGHT_LEAPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// §1.1: White moves up, Black moves down.
fn forward(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// §1.3: White's last rank is 5 (index 4), Black's is 1 (index 0).
fn last_rank(color: Color) -> i32 {
    match color {
        Color::White => 4,
        Color::Black => 0,
    }
}

/// §1.2 double step: the pawn start squares of each side (White b1 c1 d1 a2 e2; Black b5 c5 d5
/// a4 e4).
fn is_pawn_start_square(color: Color, sq: Square) -> bool {
    let names: [&str; 5] = match color {
        Color::White => ["b1", "c1", "d1", "a2", "e2"],
        Color::Black => ["b5", "c5", "d5", "a4", "e4"],
    };
    names.iter().any(|name| square_name(sq) == *name)
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..5).contains(&file) && (0..5).contains(&rank)
}

fn square_name(sq: Square) -> String {
    let file = (b'a' + sq.file as u8) as char;
    format!("{}{}", file, sq.rank + 1)
}

fn piece_at(pos: &Position, sq: Square) -> Option<Piece> {
    pos.board[sq.rank as usize][sq.file as usize]
}

fn set_piece(pos: &mut Position, sq: Square, piece: Option<Piece>) {
    pos.board[sq.rank as usize][sq.file as usize] = piece;
}

/// The 25 squares, a1 b1 .. e1 a2 .. e5.
fn all_squares() -> [Square; 25] {
    std::array::from_fn(|i| square((i % 5) as i32, (i / 5) as i32))
}

fn count_pieces(pos: &Position, color: Color, kind: Kind) -> usize {
    all_squares()
        .into_iter()
        .filter(|&sq| piece_at(pos, sq) == Some(piece(color, kind)))
        .count()
}

fn holds_enemy(pos: &Position, color: Color, sq: Square) -> bool {
    matches!(piece_at(pos, sq), Some(p) if p.color != color)
}

// ---------------------------------------------------------------------------------------------
// Parsing and formatting (§1.1 position string, §1.9 "a pawn on its own last rank is rejected").

fn parse_position(text: &str) -> Result<Position, String> {
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 3 {
        return Err(format!(
            "expected 3 space-separated fields (board penalties counter), got {} in {text:?}",
            fields.len()
        ));
    }
    let mut pos = Position {
        board: [[None; 5]; 5],
        penalties: [0, 0],
        counter: 0,
    };
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 5 {
        return Err(format!("board needs 5 ranks, got {}", ranks.len()));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 4 - i as i32; // the string lists rank 5 first
        let mut file = 0;
        let mut previous_was_digit = false;
        for c in rank_text.chars() {
            if let Some(run) = c.to_digit(10) {
                if run == 0 || run > 5 || previous_was_digit {
                    return Err(format!("bad empty-square run {c:?} in rank {}", rank + 1));
                }
                file += run as i32;
                previous_was_digit = true;
                continue;
            }
            previous_was_digit = false;
            let Some(&(_, color, kind)) = PIECE_LETTERS.iter().find(|(letter, ..)| *letter == c)
            else {
                return Err(format!("unknown piece {c:?} in rank {}", rank + 1));
            };
            if file >= 5 {
                return Err(format!("rank {} is longer than 5 squares", rank + 1));
            }
            if kind == Kind::Pawn && rank == last_rank(color) {
                return Err(format!("pawn {c:?} on its own last rank {}", rank + 1));
            }
            set_piece(&mut pos, square(file, rank), Some(piece(color, kind)));
            file += 1;
        }
        if file != 5 {
            return Err(format!("rank {} has {file} squares, not 5", rank + 1));
        }
    }
    let penalties: Vec<char> = fields[1].chars().collect();
    if penalties.len() != 2 {
        return Err(format!("penalty field {:?} must be two digits", fields[1]));
    }
    for (i, c) in penalties.iter().enumerate() {
        match c.to_digit(10) {
            Some(points) if points <= 2 => pos.penalties[i] = points,
            _ => return Err(format!("penalty digit {c:?} must be 0, 1 or 2")),
        }
    }
    let counter_ok = !fields[2].is_empty()
        && fields[2].chars().all(|c| c.is_ascii_digit())
        && (fields[2] == "0" || !fields[2].starts_with('0'));
    match fields[2].parse::<u32>() {
        Ok(counter) if counter_ok && counter <= 50 => pos.counter = counter,
        _ => return Err(format!("counter {:?} must be 0..=50", fields[2])),
    }
    Ok(pos)
}

fn format_position(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..5).rev() {
        let mut empty_run = 0;
        for file in 0..5 {
            match piece_at(pos, square(file, rank)) {
                None => empty_run += 1,
                Some(found) => {
                    if empty_run > 0 {
                        out.push_str(&empty_run.to_string());
                        empty_run = 0;
                    }
                    for &(letter, color, kind) in &PIECE_LETTERS {
                        if found == piece(color, kind) {
                            out.push(letter);
                        }
                    }
                }
            }
        }
        if empty_run > 0 {
            out.push_str(&empty_run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    let (white_points, black_points) = (pos.penalties[0], pos.penalties[1]);
    out.push_str(&format!(" {white_points}{black_points} {}", pos.counter));
    out
}

fn parse_or_panic(text: &str) -> Position {
    match parse_position(text) {
        Ok(pos) => pos,
        Err(e) => panic!("reference apocalypse: invalid position {text:?}: {e}"),
    }
}

fn move_token(mv: &Move) -> String {
    let mut token = format!("{}{}", square_name(mv.from), square_name(mv.to));
    if let Some(r) = mv.redeploy {
        token.push('@');
        token.push_str(&square_name(r));
    }
    token
}

// ---------------------------------------------------------------------------------------------
// Legal moves (§1.2, §1.3), judged on the position S at the start of the turn.

/// §1.2 Knight: a leap to a square that is empty or holds an enemy piece; never onto an own
/// piece.
fn knight_moves(pos: &Position, color: Color, from: Square, out: &mut Vec<Move>) {
    for (df, dr) in KNIGHT_LEAPS {
        if !on_board(from.file + df, from.rank + dr) {
            continue;
        }
        let to = square(from.file + df, from.rank + dr);
        let own_piece_there = matches!(piece_at(pos, to), Some(p) if p.color == color);
        if !own_piece_there {
            out.push(plain_move(from, to));
        }
    }
}

/// §1.2 Pawn: one step straight to an empty square, one step diagonally forward onto an enemy
/// piece, or (rule option DoubleStep) two steps straight from an own pawn start square through
/// and onto empty squares. Arrivals on the last rank are expanded by `pawn_arrival` (§1.3).
fn pawn_moves(pos: &Position, color: Color, from: Square, double_step: bool, out: &mut Vec<Move>) {
    let dr = forward(color);
    let rank = from.rank + dr;
    if !(0..5).contains(&rank) {
        return; // cannot happen: pawns never stand on their last rank (§1.9)
    }
    let straight = square(from.file, rank);
    if piece_at(pos, straight).is_none() {
        pawn_arrival(pos, color, from, straight, out);
        // Double step: both the passed and the landing square must be empty in S.
        let two = from.rank + 2 * dr;
        if double_step && is_pawn_start_square(color, from) && (0..5).contains(&two) {
            let landing = square(from.file, two);
            if piece_at(pos, landing).is_none() {
                pawn_arrival(pos, color, from, landing, out);
            }
        }
    }
    for df in [-1, 1] {
        if on_board(from.file + df, rank) {
            let diagonal = square(from.file + df, rank);
            if holds_enemy(pos, color, diagonal) {
                pawn_arrival(pos, color, from, diagonal, out);
            }
        }
    }
}

/// §1.3 Last rank. A pawn move off the last rank is a plain move. On the last rank: with ≤1
/// knight in S it is a promotion (no suffix), illegal if this is the mover's only pawn; with 2
/// knights it must name a redeploy square r that is empty in S or the pawn's origin, and not
/// on the mover's last rank (§1.9: one token per allowed r).
fn pawn_arrival(pos: &Position, color: Color, from: Square, to: Square, out: &mut Vec<Move>) {
    if to.rank != last_rank(color) {
        out.push(plain_move(from, to));
        return;
    }
    let knights = count_pieces(pos, color, Kind::Knight);
    let pawns = count_pieces(pos, color, Kind::Pawn);
    if knights <= 1 {
        if pawns >= 2 {
            out.push(plain_move(from, to));
        }
        return;
    }
    for r in all_squares() {
        let allowed = (piece_at(pos, r).is_none() || r == from) && r.rank != last_rank(color);
        if allowed {
            out.push(redeploy_move(from, to, r));
        }
    }
}

/// The moves of `color` that §1.2–1.3 allow in `pos`, whether or not the game is over.
fn moves_by_piece_rules(pos: &Position, color: Color, double_step: bool) -> Vec<Move> {
    let mut out = Vec::new();
    for sq in all_squares() {
        match piece_at(pos, sq) {
            Some(p) if p == piece(color, Kind::Knight) => knight_moves(pos, color, sq, &mut out),
            Some(p) if p == piece(color, Kind::Pawn) => {
                pawn_moves(pos, color, sq, double_step, &mut out)
            }
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// End of turn (§1.6), in the binding order pawns → penalties → no progress → no legal move.

/// §1.6-1 to §1.6-3: the end conditions that need no move generation.
fn outcome_by_material_and_counters(pos: &Position) -> Option<&'static str> {
    // §1.6-1 Pawns.
    let white_pawns = count_pieces(pos, Color::White, Kind::Pawn);
    let black_pawns = count_pieces(pos, Color::Black, Kind::Pawn);
    match (white_pawns, black_pawns) {
        (0, 0) => return Some("draw"),
        (0, _) => return Some("black"),
        (_, 0) => return Some("white"),
        _ => {}
    }
    // §1.6-2 Penalties: a side with ≥2 points loses; both at ≥2 is a draw.
    match (pos.penalties[0] >= 2, pos.penalties[1] >= 2) {
        (true, true) => return Some("draw"),
        (true, false) => return Some("black"),
        (false, true) => return Some("white"),
        _ => {}
    }
    // §1.6-3 No progress (§1.8).
    if pos.counter >= 50 {
        return Some("draw");
    }
    None
}

/// §1.6 in full. Returns the result of a finished game, or both sides' moves while it goes on.
fn outcome_or_moves(
    pos: &Position,
    double_step: bool,
) -> Result<(Vec<Move>, Vec<Move>), &'static str> {
    if let Some(result) = outcome_by_material_and_counters(pos) {
        return Err(result);
    }
    // §1.6-4 No legal move for at least one side: a draw.
    let white = moves_by_piece_rules(pos, Color::White, double_step);
    let black = moves_by_piece_rules(pos, Color::Black, double_step);
    if white.is_empty() || black.is_empty() {
        return Err("draw");
    }
    Ok((white, black))
}

// ---------------------------------------------------------------------------------------------
// A turn (§1.4) and its resolution (§1.5), plus the counter (§1.8).

/// A moving piece, lifted from its origin in stage A1.
#[derive(Clone, Copy)]
struct Mover {
    color: Color,
    kind: Kind,
    mv: Move,
}

/// Resolves one turn from `s` (§1.4-3, §1.5, §1.8); `None` is a void declaration.
fn resolve(s: &Position, white: Option<Move>, black: Option<Move>) -> Position {
    let mut pos = s.clone();
    let mut piece_removed = false;
    let mut pawn_promoted = false;

    // §1.4-3: a void declaration costs one penalty point; the other move is still played.
    let penalty_given = white.is_none() || black.is_none();
    if white.is_none() {
        pos.penalties[0] += 1;
    }
    if black.is_none() {
        pos.penalties[1] += 1;
    }

    // §1.5 A1: lift both moving pieces from their origins.
    let mut movers: Vec<Mover> = Vec::new();
    for (color, declared) in [(Color::White, white), (Color::Black, black)] {
        if let Some(mv) = declared {
            let moving = piece_at(&pos, mv.from).expect("a legal move starts on an own piece");
            set_piece(&mut pos, mv.from, None);
            movers.push(Mover {
                color,
                kind: moving.kind,
                mv,
            });
        }
    }

    // Movers still standing on their t after stage A (they take part in stage B).
    let mut arrived: Vec<Mover> = Vec::new();
    if movers.len() == 2 && movers[0].mv.to == movers[1].mv.to {
        // §1.5 A2 Collision: knight beats pawn; two of a kind are both removed. A surviving
        // knight takes no part in stage B, which is about pawns.
        piece_removed = true;
        for (me, other) in [(movers[0], movers[1]), (movers[1], movers[0])] {
            if me.kind == Kind::Knight && other.kind == Kind::Pawn {
                set_piece(&mut pos, me.mv.to, Some(piece(me.color, Kind::Knight)));
            }
        }
    } else {
        // §1.5 A3: each mover is placed on its t. Whatever stands on t now did not move this
        // turn (movers were lifted), so it is an enemy piece and is captured. A target that
        // moved away is simply gone from t: a dodge, or a swap when both attack each other.
        for m in &movers {
            if let Some(victim) = piece_at(&pos, m.mv.to) {
                assert_ne!(
                    victim.color, m.color,
                    "a legal move never lands on an own piece"
                );
                piece_removed = true;
            }
            set_piece(&mut pos, m.mv.to, Some(piece(m.color, m.kind)));
            arrived.push(*m);
        }
    }

    // §1.5 B1: a surviving pawn on its last rank with no redeploy order becomes a knight.
    for m in &arrived {
        let on_last_rank = m.mv.to.rank == last_rank(m.color);
        if m.kind == Kind::Pawn && on_last_rank && m.mv.redeploy.is_none() {
            set_piece(&mut pos, m.mv.to, Some(piece(m.color, Kind::Knight)));
            pawn_promoted = true;
        }
    }

    // §1.5 B2: redeploying pawns are lifted from t, then all are placed on their r together.
    let mut redeploys: Vec<(Color, Square)> = Vec::new();
    for m in &arrived {
        if let (Kind::Pawn, Some(r)) = (m.kind, m.mv.redeploy) {
            set_piece(&mut pos, m.mv.to, None);
            redeploys.push((m.color, r));
        }
    }
    if redeploys.len() == 2 && redeploys[0].1 == redeploys[1].1 {
        // Both players' r are the same square: both pawns are removed.
        piece_removed = true;
    } else {
        for &(color, r) in &redeploys {
            match piece_at(&pos, r) {
                None => set_piece(&mut pos, r, Some(piece(color, Kind::Pawn))),
                // Only the opponent's mover can be on r (r was empty in S or our origin).
                Some(other) if other.color == color => panic!("own piece on r: cannot happen"),
                Some(other) if other.kind == Kind::Knight => {
                    // Against an enemy knight the redeploying pawn is removed.
                    piece_removed = true;
                }
                Some(_) => {
                    // Against an enemy pawn both are removed.
                    set_piece(&mut pos, r, None);
                    piece_removed = true;
                }
            }
        }
    }

    // §1.8 No-progress counter: +1 per turn, reset by a removal, a promotion or a penalty.
    if piece_removed || pawn_promoted || penalty_given {
        pos.counter = 0;
    } else {
        pos.counter = s.counter + 1;
    }
    pos
}

/// §1.9: a declaration is legal only if it is exactly one of the legal tokens.
fn find_declaration(legal: &[Move], declaration: &str) -> Option<Move> {
    legal
        .iter()
        .copied()
        .find(|mv| move_token(mv) == declaration)
}

fn perft_position(pos: &Position, depth: u32, double_step: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    // §1.9: a finished position has no children.
    let Ok((white, black)) = outcome_or_moves(pos, double_step) else {
        return 0;
    };
    if depth == 1 {
        // Each child is one leaf, so the count is the number of joint turns.
        return (white.len() * black.len()) as u64;
    }
    let mut nodes = 0;
    for &w in &white {
        for &b in &black {
            nodes += perft_position(&resolve(pos, Some(w), Some(b)), depth - 1, double_step);
        }
    }
    nodes
}

// ---------------------------------------------------------------------------------------------
// String-level API.

/// Checks a position string (§1.1 format, §1.9 no pawn on its own last rank).
pub fn check_position(pos: &str) -> Result<(), String> {
    parse_position(pos).map(|_| ())
}

/// The legal declarations of one side (`white` true for White), sorted canonical tokens such as
/// `a1b3` or `d4d5@b2`; empty at a finished position (§1.9). Panics on a malformed position.
pub fn legal_declarations(pos: &str, white: bool, double_step: bool) -> Vec<String> {
    let position = parse_or_panic(pos);
    let color = if white { Color::White } else { Color::Black };
    // §1.9: a finished position has no legal moves for either side.
    let Ok((white_moves, black_moves)) = outcome_or_moves(&position, double_step) else {
        return Vec::new();
    };
    let moves = if color == Color::White {
        white_moves
    } else {
        black_moves
    };
    let mut tokens: Vec<String> = moves.iter().map(move_token).collect();
    tokens.sort();
    tokens
}

/// Plays one joint turn (§1.4–1.5, counter §1.8) and returns the new position string. A
/// declaration that is not exactly a legal token (including `0000`) is void and costs a
/// penalty point. Panics on a malformed or finished position.
pub fn play_joint(pos: &str, white_decl: &str, black_decl: &str, double_step: bool) -> String {
    let position = parse_or_panic(pos);
    let (white_moves, black_moves) = match outcome_or_moves(&position, double_step) {
        Ok(moves) => moves,
        Err(result) => panic!("reference apocalypse: {pos:?} is finished ({result})"),
    };
    let white = find_declaration(&white_moves, white_decl);
    let black = find_declaration(&black_moves, black_decl);
    format_position(&resolve(&position, white, black))
}

/// The result of a finished position per §1.6 ("white", "black" or "draw"), `None` while the
/// game goes on. Panics on a malformed position.
pub fn outcome(pos: &str, double_step: bool) -> Option<&'static str> {
    outcome_or_moves(&parse_or_panic(pos), double_step).err()
}

/// Perft: one ply is one joint turn of two legal declarations, so a node has |W|×|B| children
/// and a finished position has none. Panics on a malformed position.
pub fn perft(pos: &str, depth: u32, double_step: bool) -> u64 {
    perft_position(&parse_or_panic(pos), depth, double_step)
}
