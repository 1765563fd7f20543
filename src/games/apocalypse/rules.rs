//! The rules of Apocalypse (docs/rules/apocalypse.md §1): the position, legal declarations
//! (§1.2–1.3), the resolution of a turn (§1.4–1.5), the end of the game (§1.6) and the
//! no-progress counter (§1.8).

use super::board::{
    Cell, Move, NO_PROGRESS_LIMIT, PENALTY_LIMIT, Piece, SQUARES, ZOBRIST, file_of, forward,
    is_knight_leap, is_pawn_start, knight_targets, last_rank, rank_of, square,
};
use super::{MOVE_RULE, NO_LEGAL_MOVE, NO_PAWNS, PENALTIES};
use crate::game::{Action, EndReason, Game, MoveList, Node, Outcome, Player};
use std::ops::ControlFlow;

/// At most this many knights per side: promotion needs ≤1 knight (§1.3), so 2 is the most a
/// side can have, and the rules define nothing for more.
pub const MAX_KNIGHTS: u8 = 2;

/// At most this many pawns per side: the start position's count, never increased.
pub const MAX_PAWNS: u8 = 5;

/// An Apocalypse position: the board, both penalty counts, the no-progress counter and the
/// `DoubleStep` rule option. Every turn is a simultaneous node until the game ends.
///
/// The hash covers the board, the penalty points, `DoubleStep` and the no-progress counter
/// (the counter decides when the game ends, so search results depend on it);
/// [`Apocalypse::board_hash`] leaves the counter out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Apocalypse {
    board: [Cell; SQUARES],
    penalties: [u8; 2],
    counter: u16,
    double_step: bool,
    pawns: [u8; 2],
    knights: [u8; 2],
    squares: [[u32; 2]; 2],
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
            board: [None; SQUARES],
            penalties,
            counter,
            double_step,
            pawns: [0; 2],
            knights: [0; 2],
            squares: [[0; 2]; 2],
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
        self.board.get(usize::from(sq)).copied().flatten()
    }

    /// The squares of `p`'s pieces of kind `piece`: bit `sq` for square `sq`.
    pub fn squares(&self, p: Player, piece: Piece) -> u32 {
        self.squares[p.index()][piece.index()]
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
        self.pawns[p.index()]
    }

    /// The number of `p`'s knights.
    pub fn knights(&self, p: Player) -> u8 {
        self.knights[p.index()]
    }

    /// Whether `m` is one of `p`'s legal declarations here (§1.2–1.3, judged on this
    /// position). VOID never is. Does not look at whether the game is over.
    pub fn is_legal_declaration(&self, p: Player, m: Move) -> bool {
        if m.is_void() {
            return false;
        }
        match self.cell(m.from()) {
            Some((q, Piece::Knight)) if q == p => {
                m.redeploy().is_none()
                    && is_knight_leap(m.from(), m.to())
                    && !self.is_own(p, m.to())
            }
            Some((q, Piece::Pawn)) if q == p => {
                self.is_pawn_step(p, m.from(), m.to()) && self.is_last_rank_ok(p, m)
            }
            _ => false,
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
        for from in 0..SQUARES as u8 {
            match self.board[usize::from(from)] {
                Some((q, Piece::Knight)) if q == p => {
                    for to in knight_targets(from) {
                        if !self.is_own(p, to) {
                            f(plain(from, to))?;
                        }
                    }
                }
                Some((q, Piece::Pawn)) if q == p => self.pawn_declarations(p, from, f)?,
                _ => {}
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

    fn has_legal(&self, p: Player) -> bool {
        self.for_each_legal(p, &mut |_| ControlFlow::Break(()))
            .is_break()
    }

    fn is_own(&self, p: Player, sq: u8) -> bool {
        matches!(self.cell(sq), Some((q, _)) if q == p)
    }

    fn is_enemy(&self, p: Player, sq: u8) -> bool {
        matches!(self.cell(sq), Some((q, _)) if q != p)
    }

    fn is_empty(&self, sq: u8) -> bool {
        self.cell(sq).is_none()
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
        self.knights(p) >= MAX_KNIGHTS
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
            m.redeploy().is_none() && self.pawns(p) >= 2
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
        } else if self.pawns(p) >= 2 {
            f(plain(from, to))
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Puts `cell` on `sq`, keeping the piece counts, their squares and the hash up to date.
    fn set(&mut self, sq: u8, cell: Cell) {
        let old = self.board[usize::from(sq)];
        if let Some((p, piece)) = old {
            let count = self.count_mut(p, piece);
            *count = count.saturating_sub(1);
            self.squares[p.index()][piece.index()] &= !(1 << sq);
        }
        if let Some((p, piece)) = cell {
            let count = self.count_mut(p, piece);
            *count = count.saturating_add(1);
            self.squares[p.index()][piece.index()] |= 1 << sq;
        }
        self.hash ^= ZOBRIST.cell(sq, old) ^ ZOBRIST.cell(sq, cell);
        self.board[usize::from(sq)] = cell;
    }

    fn count_mut(&mut self, p: Player, piece: Piece) -> &mut u8 {
        match piece {
            Piece::Pawn => &mut self.pawns[p.index()],
            Piece::Knight => &mut self.knights[p.index()],
        }
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
        for (sq, &cell) in self.board.iter().enumerate() {
            h ^= ZOBRIST.cell(sq as u8, cell);
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
        match (self.pawns(white), self.pawns(black)) {
            (0, 0) => return decided(Outcome::Draw),
            (0, _) => return decided(Outcome::Win(black)),
            (_, 0) => return decided(Outcome::Win(white)),
            _ => {}
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

    /// Resolves one turn (§1.4–1.5) of two declarations (illegal ones count as void).
    fn resolve(&mut self, declarations: [Move; 2]) {
        let mut movers: [Option<Mover>; 2] = [None; 2];
        let mut progress = false;
        for p in [Player::First, Player::Second] {
            let m = declarations[p.index()];
            match self.cell(m.from()) {
                Some((_, piece)) if self.is_legal_declaration(p, m) => {
                    movers[p.index()] = Some(Mover {
                        player: p,
                        piece,
                        from: m.from(),
                        to: m.to(),
                        redeploy: m.redeploy(),
                    });
                }
                _ => {
                    self.add_penalty(p);
                    progress = true;
                }
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
        self.resolve([first, second]);
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
