//! The rules of Apocalypse (docs/rules/apocalypse.md §1): the position, legal declarations
//! (§1.2–1.3), the resolution of a turn (§1.4–1.5), the end of the game (§1.6) and the
//! no-progress counter (§1.8).

use super::board::{
    Cell, KNIGHT_MASKS, Move, NO_PROGRESS_LIMIT, PENALTY_LIMIT, Piece, SQUARES, ZOBRIST, file_of,
    forward, is_pawn_start, knight_targets, last_rank, pawn_attacks, rank_mask, rank_of, square,
    step_forward,
};
use super::{MOVE_RULE, NO_LEGAL_MOVE, NO_PAWNS, PENALTIES};
use quartet_core::game::{Action, EndReason, Game, MoveList, Node, Outcome, Player};
use std::ops::ControlFlow;

/// At most this many knights per side: promotion needs ≤1 knight (§1.3), so 2 is the most a
/// side can have, and the rules define nothing for more.
pub const MAX_KNIGHTS: u8 = 2;

// `arrival_redeploys` tests for two knights with a bit trick.
const _: () = assert!(MAX_KNIGHTS == 2);

/// At most this many pawns per side: the start position's count, never increased.
pub const MAX_PAWNS: u8 = 5;

/// An Apocalypse position: the board, both penalty counts, the no-progress counter and the
/// `DoubleStep` rule option. Every turn is a simultaneous node until the game ends.
///
/// The board is kept as bit sets (bit `sq` for square `sq`): each side's pieces and every
/// knight, so that the questions of the search (has a side a legal move, which squares does
/// it attack) are a few word operations. Three words rather than one per side and kind: the
/// compiler turns the union of four words into a vector load, which stalls when it reads
/// words just stored one by one (as resolving a turn does).
///
/// The hash covers the board, the penalty points, `DoubleStep` and the no-progress counter
/// (the counter decides when the game ends, so search results depend on it);
/// [`Apocalypse::board_hash`] leaves the counter out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Apocalypse {
    /// The squares of each side's pieces, by `Player::index` (disjoint).
    sides: [u32; 2],
    /// The squares of every knight, of either side (the others hold pawns).
    knights: u32,
    penalties: [u8; 2],
    counter: u16,
    double_step: bool,
    hash: u64,
    outcome: Option<Outcome>,
}

/// One legal declaration being carried out during resolution.
#[derive(Clone, Copy)]
struct Mover {
    player: Player,
    piece: Piece,
    from: u8,
    to: u8,
    redeploy: Option<u8>,
}

impl Apocalypse {
    /// A position from its parts. The caller (the notation) has checked them: no pawn on its
    /// own last rank, at most [`MAX_KNIGHTS`] knights and [`MAX_PAWNS`] pawns per side,
    /// penalties at most [`PENALTY_LIMIT`], counter at most [`NO_PROGRESS_LIMIT`].
    pub(super) fn from_parts(
        board: [Cell; SQUARES],
        penalties: [u8; 2],
        counter: u16,
        double_step: bool,
    ) -> Apocalypse {
        let mut pos = Apocalypse {
            sides: [0; 2],
            knights: 0,
            penalties,
            counter,
            double_step,
            hash: 0,
            outcome: None,
        };
        for (sq, &cell) in board.iter().enumerate() {
            pos.set(sq as u8, cell);
        }
        pos.hash = pos.fresh_hash();
        pos.outcome = pos.compute_outcome();
        pos
    }

    /// The content of square `sq` (`None` for an empty square or `sq >= 25`).
    pub fn cell(&self, sq: u8) -> Cell {
        let bit = 1u32.checked_shl(u32::from(sq)).unwrap_or(0);
        if (self.occupied() & bit) == 0 {
            return None;
        }
        let side = if self.sides[0] & bit != 0 {
            Player::First
        } else {
            Player::Second
        };
        let piece = if self.knights & bit != 0 {
            Piece::Knight
        } else {
            Piece::Pawn
        };
        Some((side, piece))
    }

    /// The squares of `p`'s pieces of kind `piece`, as a bit set (bit `sq` for square `sq`).
    pub fn pieces_of(&self, p: Player, piece: Piece) -> u32 {
        match piece {
            Piece::Pawn => self.sides[p.index()] & !self.knights,
            Piece::Knight => self.sides[p.index()] & self.knights,
        }
    }

    /// The squares of every piece of `p`, as a bit set.
    fn side_pieces(&self, p: Player) -> u32 {
        self.sides[p.index()]
    }

    /// The occupied squares, as a bit set.
    fn occupied(&self) -> u32 {
        self.sides[0] | self.sides[1]
    }

    /// `p`'s penalty points.
    pub fn penalties(&self, p: Player) -> u8 {
        self.penalties[p.index()]
    }

    /// The no-progress counter (§1.8).
    pub fn no_progress(&self) -> u16 {
        self.counter
    }

    /// The hash without the no-progress counter: equal for positions that differ only in
    /// their counters.
    pub fn board_hash(&self) -> u64 {
        self.hash ^ ZOBRIST.counter(self.counter)
    }

    /// Whether the `DoubleStep` rule option is on in this game.
    pub fn double_step(&self) -> bool {
        self.double_step
    }

    /// The number of `p`'s pawns.
    pub fn pawns(&self, p: Player) -> u8 {
        self.pieces_of(p, Piece::Pawn).count_ones() as u8
    }

    /// The number of `p`'s knights.
    pub fn knights(&self, p: Player) -> u8 {
        self.pieces_of(p, Piece::Knight).count_ones() as u8
    }

    /// Whether `m` is one of `p`'s legal declarations here (§1.2–1.3, judged on this
    /// position). VOID never is. Does not look at whether the game is over.
    pub fn is_legal_declaration(&self, p: Player, m: Move) -> bool {
        if m.is_void() {
            return false;
        }
        let from = 1u32 << m.from();
        if self.pieces_of(p, Piece::Knight) & from != 0 {
            m.redeploy().is_none()
                && KNIGHT_MASKS[usize::from(m.from())] & !self.side_pieces(p) & (1 << m.to()) != 0
        } else if self.pieces_of(p, Piece::Pawn) & from != 0 {
            self.is_pawn_step(p, m.from(), m.to()) && self.is_last_rank_ok(p, m)
        } else {
            false
        }
    }

    /// Calls `f` with each of `p`'s legal declarations in a stable order (by origin square
    /// a1..e5; per piece: knight leaps in a fixed order; pawn: straight, double step, left and
    /// right diagonal; redeploy squares a1..e5). Stops when `f` breaks. Does not allocate.
    pub fn for_each_legal(
        &self,
        p: Player,
        f: &mut impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let (knights, own) = (self.pieces_of(p, Piece::Knight), self.side_pieces(p));
        let mut left = own;
        while left != 0 {
            let from = left.trailing_zeros() as u8;
            left &= left - 1;
            if knights & (1 << from) != 0 {
                for to in knight_targets(from) {
                    if own & (1 << to) == 0 {
                        f(plain(from, to))?;
                    }
                }
            } else {
                self.pawn_declarations(p, from, f)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The number of `p`'s legal declarations (counted without allocating).
    pub fn count_legal(&self, p: Player) -> usize {
        let mut n = 0;
        let _ = self.for_each_legal(p, &mut |_| {
            n += 1;
            ControlFlow::Continue(())
        });
        n
    }

    /// Whether `p` has a legal declaration: a knight with a leap off its own pieces, or a
    /// pawn with a step or a capture (one onto the last rank only if the arrival is legal,
    /// which needs a second pawn or, for a redeploy, the origin as its square). A double step
    /// never matters: its first square is empty and off the last rank, so the single step
    /// is legal too.
    pub(super) fn has_legal(&self, p: Player) -> bool {
        let own = self.side_pieces(p);
        let mut knights = self.pieces_of(p, Piece::Knight);
        while knights != 0 {
            let from = knights.trailing_zeros() as usize;
            knights &= knights - 1;
            if KNIGHT_MASKS[from] & !own != 0 {
                return true;
            }
        }
        let pawns = self.pieces_of(p, Piece::Pawn);
        let steps = step_forward(p, pawns) & !self.occupied();
        let captures = pawn_attacks(p, pawns) & self.side_pieces(p.other());
        let arrivals = (steps | captures) & rank_mask(last_rank(p));
        (steps | captures) & !arrivals != 0
            || (arrivals != 0 && (self.arrival_redeploys(p) || self.has_two_pawns(p)))
    }

    fn is_enemy(&self, p: Player, sq: u8) -> bool {
        self.side_pieces(p.other()) & (1 << sq) != 0
    }

    fn is_empty(&self, sq: u8) -> bool {
        self.occupied() & (1 << sq) == 0
    }

    /// Whether a pawn of `p` on `from` may step to `to` (§1.2), ignoring the last-rank rules.
    fn is_pawn_step(&self, p: Player, from: u8, to: u8) -> bool {
        let Some(next) = forward(p, rank_of(from)) else {
            return false;
        };
        let (file, to_file, to_rank) = (file_of(from), file_of(to), rank_of(to));
        if to_rank == next {
            return match to_file.abs_diff(file) {
                0 => self.is_empty(to),
                1 => self.is_enemy(p, to),
                _ => false,
            };
        }
        self.double_step
            && is_pawn_start(p, from)
            && to_file == file
            && forward(p, next) == Some(to_rank)
            && self.is_empty(square(file, next))
            && self.is_empty(to)
    }

    /// Whether a pawn of `p` reaching its last rank redeploys rather than promotes (§1.3):
    /// `p` already has [`MAX_KNIGHTS`] knights.
    pub(super) fn arrival_redeploys(&self, p: Player) -> bool {
        // MAX_KNIGHTS is 2: a set holds two squares or more when removing its lowest leaves one.
        let knights = self.pieces_of(p, Piece::Knight);
        knights & knights.wrapping_sub(1) != 0
    }

    /// Whether `p` has at least two pawns (the last one may not promote, §1.3).
    fn has_two_pawns(&self, p: Player) -> bool {
        let pawns = self.pieces_of(p, Piece::Pawn);
        pawns & pawns.wrapping_sub(1) != 0
    }

    /// The last-rank rules (§1.3) for a pawn declaration whose step is legal.
    fn is_last_rank_ok(&self, p: Player, m: Move) -> bool {
        if rank_of(m.to()) != last_rank(p) {
            return m.redeploy().is_none();
        }
        if self.arrival_redeploys(p) {
            m.redeploy()
                .is_some_and(|r| self.is_redeploy_square(p, m.from(), r))
        } else {
            m.redeploy().is_none() && self.has_two_pawns(p)
        }
    }

    /// Whether `r` may receive a redeploying pawn of `p` from `from`: empty or the origin, and
    /// not on `p`'s last rank.
    fn is_redeploy_square(&self, p: Player, from: u8, r: u8) -> bool {
        rank_of(r) != last_rank(p) && (self.is_empty(r) || r == from)
    }

    fn pawn_declarations(
        &self,
        p: Player,
        from: u8,
        f: &mut impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let Some(next) = forward(p, rank_of(from)) else {
            return ControlFlow::Continue(());
        };
        let file = file_of(from);
        let ahead = square(file, next);
        if self.is_empty(ahead) {
            self.pawn_arrivals(p, from, ahead, f)?;
            if self.double_step
                && is_pawn_start(p, from)
                && let Some(two) = forward(p, next).map(|rank| square(file, rank))
                && self.is_empty(two)
            {
                f(plain(from, two))?;
            }
        }
        for to_file in [file.checked_sub(1), Some(file + 1)].into_iter().flatten() {
            if to_file < 5 {
                let to = square(to_file, next);
                if self.is_enemy(p, to) {
                    self.pawn_arrivals(p, from, to, f)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The declarations of a pawn step `from`→`to` whose step is legal: a plain move, a
    /// promotion, one redeploy per allowed square, or nothing (the last-pawn rule).
    fn pawn_arrivals(
        &self,
        p: Player,
        from: u8,
        to: u8,
        f: &mut impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if rank_of(to) != last_rank(p) {
            return f(plain(from, to));
        }
        if self.arrival_redeploys(p) {
            for r in 0..SQUARES as u8 {
                if self.is_redeploy_square(p, from, r) {
                    f(Move::new(from, to, Some(r)).unwrap_or(Move::VOID))?;
                }
            }
            ControlFlow::Continue(())
        } else if self.has_two_pawns(p) {
            f(plain(from, to))
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Puts `cell` on `sq` (`sq < 25`), keeping the hash up to date. Inlined: resolve calls
    /// it with known cells, and a call stores and reloads the words it changes.
    #[inline(always)]
    fn set(&mut self, sq: u8, cell: Cell) {
        let old = self.cell(sq);
        let bit = 1u32 << sq;
        if let Some((p, _)) = old {
            self.sides[p.index()] &= !bit;
            self.knights &= !bit;
        }
        if let Some((p, piece)) = cell {
            self.sides[p.index()] |= bit;
            if piece == Piece::Knight {
                self.knights |= bit;
            }
        }
        self.hash ^= ZOBRIST.cell(sq, old) ^ ZOBRIST.cell(sq, cell);
    }

    fn add_penalty(&mut self, p: Player) {
        let old = self.penalties[p.index()];
        let new = (old + 1).min(PENALTY_LIMIT);
        self.hash ^= ZOBRIST.penalty(p, old) ^ ZOBRIST.penalty(p, new);
        self.penalties[p.index()] = new;
    }

    /// The hash computed from scratch.
    pub(super) fn fresh_hash(&self) -> u64 {
        let mut h = ZOBRIST.double_step(self.double_step);
        for sq in 0..SQUARES as u8 {
            h ^= ZOBRIST.cell(sq, self.cell(sq));
        }
        for p in [Player::First, Player::Second] {
            h ^= ZOBRIST.penalty(p, self.penalties(p));
        }
        h ^ ZOBRIST.counter(self.counter)
    }

    /// The end-of-turn checks of §1.6, in their binding order.
    fn compute_outcome(&self) -> Option<Outcome> {
        self.outcome_why().map(|(outcome, _)| outcome)
    }

    /// [`Apocalypse::compute_outcome`] with the rule that decided it.
    fn outcome_why(&self) -> Option<(Outcome, EndReason)> {
        let [white, black] = [Player::First, Player::Second];
        let decided = |outcome| Some((outcome, NO_PAWNS));
        let no_pawns = |p| self.pieces_of(p, Piece::Pawn) == 0;
        match (no_pawns(white), no_pawns(black)) {
            (true, true) => return decided(Outcome::Draw),
            (true, false) => return decided(Outcome::Win(black)),
            (false, true) => return decided(Outcome::Win(white)),
            (false, false) => {}
        }
        let lost = |p| self.penalties(p) >= PENALTY_LIMIT;
        let decided = |outcome| Some((outcome, PENALTIES));
        match (lost(white), lost(black)) {
            (true, true) => return decided(Outcome::Draw),
            (true, false) => return decided(Outcome::Win(black)),
            (false, true) => return decided(Outcome::Win(white)),
            (false, false) => {}
        }
        if self.counter >= NO_PROGRESS_LIMIT {
            return Some((Outcome::Draw, MOVE_RULE));
        }
        if !self.has_legal(white) || !self.has_legal(black) {
            return Some((Outcome::Draw, NO_LEGAL_MOVE));
        }
        None
    }

    /// Resolves one turn (§1.4–1.5) of two declarations: with `judge`, illegal ones count
    /// as void; without, both must be legal.
    fn resolve(&mut self, declarations: [Move; 2], judge: bool) {
        let mut movers: [Option<Mover>; 2] = [None; 2];
        let mut progress = false;
        for p in [Player::First, Player::Second] {
            let m = declarations[p.index()];
            if !judge || self.is_legal_declaration(p, m) {
                let piece = if self.knights & (1 << m.from()) != 0 {
                    Piece::Knight
                } else {
                    Piece::Pawn
                };
                movers[p.index()] = Some(Mover {
                    player: p,
                    piece,
                    from: m.from(),
                    to: m.to(),
                    redeploy: m.redeploy(),
                });
            } else {
                self.add_penalty(p);
                progress = true;
            }
        }
        // A1: lift both movers.
        for mover in movers.iter().flatten() {
            self.set(mover.from, None);
        }
        // A2: collision on a common destination; A3: otherwise place, capturing non-movers.
        match movers {
            [Some(w), Some(b)] if w.to == b.to => {
                progress = true;
                match (w.piece, b.piece) {
                    (Piece::Knight, Piece::Pawn) => {
                        self.set(w.to, Some((w.player, Piece::Knight)));
                        movers[1] = None;
                    }
                    (Piece::Pawn, Piece::Knight) => {
                        self.set(b.to, Some((b.player, Piece::Knight)));
                        movers[0] = None;
                    }
                    _ => movers = [None; 2],
                }
            }
            _ => {
                for mover in movers.iter().flatten() {
                    progress |= self.cell(mover.to).is_some();
                    self.set(mover.to, Some((mover.player, mover.piece)));
                }
            }
        }
        // B1: promotion of surviving pawns on their last rank without a redeploy order.
        for mover in movers.iter().flatten() {
            if mover.piece == Piece::Pawn
                && rank_of(mover.to) == last_rank(mover.player)
                && mover.redeploy.is_none()
            {
                self.set(mover.to, Some((mover.player, Piece::Knight)));
                progress = true;
            }
        }
        // B2: redeploying pawns leave the last rank, then land on their squares together.
        let targets = movers.map(|m| m.and_then(|m| m.redeploy.map(|r| (m.player, m.to, r))));
        for &(_, to, _) in targets.iter().flatten() {
            self.set(to, None);
        }
        match targets {
            [Some((_, _, rw)), Some((_, _, rb))] if rw == rb => progress = true,
            _ => {
                for &(p, _, r) in targets.iter().flatten() {
                    match self.cell(r) {
                        None => self.set(r, Some((p, Piece::Pawn))),
                        // Against a knight the pawn is removed.
                        Some((_, Piece::Knight)) => progress = true,
                        // Against a pawn both are removed.
                        Some((_, Piece::Pawn)) => {
                            self.set(r, None);
                            progress = true;
                        }
                    }
                }
            }
        }
        let counter = if progress {
            0
        } else {
            self.counter.saturating_add(1)
        };
        self.hash ^= ZOBRIST.counter(self.counter) ^ ZOBRIST.counter(counter);
        self.counter = counter;
    }
}

/// A declaration without a redeploy square (both squares are on the board by construction).
fn plain(from: u8, to: u8) -> Move {
    Move::new(from, to, None).unwrap_or(Move::VOID)
}

impl Game for Apocalypse {
    type Move = Move;

    fn node(&self) -> Node {
        match self.outcome {
            Some(outcome) => Node::Terminal(outcome),
            None => Node::Simultaneous,
        }
    }

    fn end_reason(&self) -> Option<EndReason> {
        self.outcome
            .and_then(|_| self.outcome_why())
            .map(|(_, why)| why)
    }

    fn legal_moves(&self, p: Player, out: &mut MoveList<Move>) {
        out.clear();
        if self.outcome.is_none() {
            let _ = self.for_each_legal(p, &mut |m| {
                out.push(m);
                ControlFlow::Continue(())
            });
        }
    }

    /// Apocalypse has no `Turn` or `Chance` nodes: a single move does nothing.
    fn play(&mut self, _m: Move) {}

    /// Resolves a turn; a declaration that is not legal here counts as VOID (lost turn, +1
    /// penalty point). Does nothing once the game is over.
    fn play_joint(&mut self, first: Move, second: Move) {
        if self.outcome.is_some() {
            return;
        }
        self.resolve([first, second], true);
        self.outcome = self.compute_outcome();
    }

    /// Resolves a turn of two legal declarations (neither VOID) without judging them again.
    fn play_legal_joint(&mut self, first: Move, second: Move) {
        debug_assert!(
            self.outcome.is_none()
                && self.is_legal_declaration(Player::First, first)
                && self.is_legal_declaration(Player::Second, second),
            "play_legal_joint needs two legal declarations"
        );
        if self.outcome.is_some() {
            return;
        }
        self.resolve([first, second], false);
        self.outcome = self.compute_outcome();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn count_children(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        (self.count_legal(Player::First) * self.count_legal(Player::Second)) as u64
    }

    /// A joint turn is legal while the game goes on if each half is a legal declaration or
    /// VOID (void declarations are part of the game). A single move never is.
    fn is_legal(&self, action: Action<Move>) -> bool {
        match action {
            Action::Joint(a, b) if self.outcome.is_none() => {
                (a.is_void() || self.is_legal_declaration(Player::First, a))
                    && (b.is_void() || self.is_legal_declaration(Player::Second, b))
            }
            _ => false,
        }
    }
}
