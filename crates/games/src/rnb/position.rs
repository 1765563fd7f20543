//! The R&B position: bitboards, hands, side to move and the quiet-ply counter, with the
//! end-of-game judgement (rule 1.6), move generation and `play` (rules 1.3–1.5), and the
//! joint setup of `Placement together` (rule 1.3(d)).
//! The struct is small (48 bytes) because the search copies it before every move.

use super::arrangement::{self, Arrangement};
use super::geometry::{
    ALL_DIRECTIONS, BOARD, Bitboard, NEIGHBOURS, Square, base, has_line, spread, squares, zone,
};
use super::moves::Move;
use super::pieces::{Colour, Piece};
use super::zobrist;
use super::{KING_CAPTURED, KING_ON_BASE, MOVE_RULE, NO_LEGAL_MOVE, SIX_IN_A_RANK};
use quartet_core::game::{EndReason, MoveList, Outcome, Player};

/// Movement plies without a capture after which the game is drawn (CHOICE 1.6-5).
pub const QUIET_PLY_LIMIT: u8 = 100;

/// An R&B position: everything the rules need to continue from it.
/// Built by [`quartet_core::notation::Notation::start`] or `parse_position`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rnb {
    /// The squares of each side's pieces, by `Player::index`.
    pub(super) sides: [Bitboard; 2],
    /// The squares of red soldiers (either side).
    pub(super) red: Bitboard,
    /// The squares of kings (either side).
    pub(super) kings: Bitboard,
    /// Soldiers in hand: `[player][colour]`.
    pub(super) hands: [[u8; 2]; 2],
    /// The side to move.
    pub(super) to_move: Player,
    /// Movement plies since the last capture (rule 1.8).
    pub(super) quiet_plies: u8,
    /// The joint setup of `Placement together` is to be played (the side field `sn`): a
    /// simultaneous node where both sides declare their arrangements.
    pub(super) setup: bool,
    /// The Zobrist hash of board, hands, side to move and the joint-setup flag.
    pub(super) hash: u64,
}

impl Rnb {
    /// A position from its parts; the hash is computed from scratch. The caller (the
    /// parser) has checked that the parts describe a possible position.
    pub(super) fn from_parts(
        sides: [Bitboard; 2],
        red: Bitboard,
        kings: Bitboard,
        hands: [[u8; 2]; 2],
        to_move: Player,
        quiet_plies: u8,
        setup: bool,
    ) -> Rnb {
        let mut pos = Rnb {
            sides,
            red,
            kings,
            hands,
            to_move,
            quiet_plies,
            setup,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The hash recomputed from the board, hands, side to move and joint-setup flag.
    pub(super) fn hash_from_scratch(&self) -> u64 {
        let mut hash = zobrist::to_move(self.to_move);
        if self.setup {
            hash ^= zobrist::joint_setup();
        }
        for p in [Player::First, Player::Second] {
            for sq in squares(self.sides[p.index()]) {
                hash ^= zobrist::piece(p, self.kind_at(sq), sq);
            }
            for c in Colour::ALL {
                hash ^= zobrist::hand(p, c, self.hands[p.index()][c.index()]);
            }
        }
        hash
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Player {
        self.to_move
    }

    /// Movement plies since the last capture (placements do not count; rule 1.8).
    pub fn quiet_plies(&self) -> u8 {
        self.quiet_plies
    }

    /// Soldiers of `colour` that `p` still holds in hand.
    pub fn hand(&self, p: Player, colour: Colour) -> u8 {
        self.hands[p.index()][colour.index()]
    }

    /// Whether soldiers remain to be placed (rule 1.3); otherwise pieces move (rule 1.4).
    pub fn in_placement(&self) -> bool {
        self.hands != [[0; 2]; 2]
    }

    /// Whether this is the joint setup of `Placement together` (rule 1.3(d)), where both
    /// sides declare their arrangements at once.
    pub fn at_joint_setup(&self) -> bool {
        self.setup
    }

    /// The owner and kind of the piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<(Player, Piece)> {
        let owner = if self.sides[0] & sq.bit() != 0 {
            Player::First
        } else if self.sides[1] & sq.bit() != 0 {
            Player::Second
        } else {
            return None;
        };
        Some((owner, self.kind_at(sq)))
    }

    /// The kind of the piece on the occupied square `sq`.
    #[inline(always)]
    pub(super) fn kind_at(&self, sq: Square) -> Piece {
        if self.kings & sq.bit() != 0 {
            Piece::King
        } else if self.red & sq.bit() != 0 {
            Piece::Soldier(Colour::Red)
        } else {
            Piece::Soldier(Colour::Black)
        }
    }

    /// All occupied squares.
    #[inline(always)]
    pub(super) fn occupied(&self) -> Bitboard {
        self.sides[0] | self.sides[1]
    }

    /// All empty squares.
    #[inline(always)]
    pub(super) fn empty(&self) -> Bitboard {
        BOARD & !self.occupied()
    }

    /// The squares of soldiers of `colour` (either side).
    #[inline(always)]
    pub(super) fn colour(&self, colour: Colour) -> Bitboard {
        match colour {
            Colour::Red => self.red,
            Colour::Black => self.occupied() & !self.red & !self.kings,
        }
    }

    /// How the game has ended, judged by rule 1.6 in order with the side not to move as
    /// the player who just acted (rule 1.8); `None` while it goes on.
    #[inline(always)]
    pub(super) fn verdict(&self) -> Option<Outcome> {
        self.verdict_why().map(|(outcome, _)| outcome)
    }

    /// [`Rnb::verdict`] with the rule that decided it.
    #[inline(always)]
    pub(super) fn verdict_why(&self) -> Option<(Outcome, EndReason)> {
        if let Some(decided) = self.decided_before_moves() {
            return Some(decided);
        }
        if !self.has_move() {
            return Some((Outcome::Win(self.to_move.other()), NO_LEGAL_MOVE));
        }
        if self.quiet_draw() {
            return Some((Outcome::Draw, MOVE_RULE));
        }
        None
    }

    /// Rules 1.6-1 to 1.6-3: the line rule, a captured king, a king on the enemy base. A
    /// line of the side to move (possible only right after the joint setup, when both
    /// sides acted) loses too, and two lines draw (rules 1.3(d), 1.8).
    #[inline(always)]
    pub(super) fn decided_before_moves(&self) -> Option<(Outcome, EndReason)> {
        let side = self.to_move;
        let mover = side.other();
        let mover_pieces = self.sides[mover.index()];
        // The side to move can own a line only right after the joint setup (counter 0).
        let own_line = self.quiet_plies == 0 && has_line(self.sides[side.index()]);
        match (has_line(mover_pieces), own_line) {
            (true, true) => return Some((Outcome::Draw, SIX_IN_A_RANK)),
            (true, false) => return Some((Outcome::Win(side), SIX_IN_A_RANK)),
            (false, true) => return Some((Outcome::Win(mover), SIX_IN_A_RANK)),
            (false, false) => {}
        }
        if self.sides[side.index()] & self.kings == 0 {
            return Some((Outcome::Win(mover), KING_CAPTURED));
        }
        if mover_pieces & self.kings & base(side).bit() != 0 {
            return Some((Outcome::Win(mover), KING_ON_BASE));
        }
        None
    }

    /// Rule 1.6-5 without repetition: the movement phase has run its quiet plies out.
    #[inline(always)]
    fn quiet_draw(&self) -> bool {
        self.quiet_plies >= QUIET_PLY_LIMIT && !self.in_placement()
    }

    /// Whether the side to move has a legal move, ignoring rules 1.6-1 to 1.6-3.
    fn has_move(&self) -> bool {
        let p = self.to_move.index();
        if self.in_placement() {
            self.hands[p] != [0; 2] && zone(self.to_move) & self.empty() != 0
        } else {
            spread(self.sides[p]) & self.empty() != 0
        }
    }

    /// The number of legal moves of the side to move, ignoring rule 1.6 (bulk counting).
    #[inline(always)]
    pub(super) fn count_moves(&self) -> u64 {
        let p = self.to_move.index();
        let empty = self.empty();
        if self.in_placement() {
            let colours = self.hands[p].iter().filter(|&&n| n > 0).count() as u64;
            colours * u64::from((zone(self.to_move) & empty).count_ones())
        } else {
            step_count(self.sides[p], empty)
        }
    }

    /// The number of children in perft: 0 at a finished position, else the legal moves
    /// (at the joint setup, every pair of arrangements).
    #[inline(always)]
    pub(super) fn children(&self) -> u64 {
        if self.setup {
            u64::from(arrangement::ARRANGEMENTS).pow(2)
        } else if self.decided_before_moves().is_some() || self.quiet_draw() {
            0
        } else {
            self.count_moves()
        }
    }

    /// Fills `out` (cleared first) with the legal moves of the side to move, ignoring
    /// rule 1.6: placements red first, then black, each by square; steps by origin, then
    /// destination.
    pub(super) fn generate(&self, out: &mut MoveList<Move>) {
        out.clear();
        let p = self.to_move.index();
        let empty = self.empty();
        if self.in_placement() {
            let targets = zone(self.to_move) & empty;
            for colour in Colour::ALL {
                if self.hands[p][colour.index()] > 0 {
                    out.extend(squares(targets).map(|to| Move::Place { colour, to }));
                }
            }
        } else {
            for from in squares(self.sides[p]) {
                let targets = NEIGHBOURS[from.index()] & empty;
                out.extend(squares(targets).map(|to| Move::Step { from, to }));
            }
        }
    }

    /// Plays the joint setup (rule 1.3(d)): both arrangements at once, both hands emptied,
    /// South to move. Unchecked: `south` and `north` are the two sides' arrangements.
    pub(super) fn play_setup(&mut self, south: Arrangement, north: Arrangement) {
        for arranged in [south, north] {
            let side = arranged.side();
            self.sides[side.index()] |= arranged.squares();
            self.red |= arranged.red();
            for sq in squares(arranged.squares()) {
                self.hash ^= zobrist::piece(side, self.kind_at(sq), sq);
            }
            for colour in Colour::ALL {
                let held = &mut self.hands[side.index()][colour.index()];
                self.hash ^= zobrist::hand(side, colour, *held) ^ zobrist::hand(side, colour, 0);
                *held = 0;
            }
        }
        self.setup = false;
        self.hash ^= zobrist::joint_setup()
            ^ zobrist::to_move(self.to_move)
            ^ zobrist::to_move(Player::First);
        self.to_move = Player::First;
    }

    /// Plays `m` for the side to move without checking it (rules 1.3–1.5). An arrangement
    /// is only played as half of the joint setup ([`Rnb::play_setup`]): here it does nothing.
    #[inline]
    pub(super) fn play_move(&mut self, m: Move) {
        let side = self.to_move;
        match m {
            Move::Arrange(_) => return,
            Move::Place { colour, to } => {
                self.sides[side.index()] |= to.bit();
                if colour == Colour::Red {
                    self.red |= to.bit();
                }
                let held = &mut self.hands[side.index()][colour.index()];
                let left = held.saturating_sub(1);
                self.hash ^= zobrist::piece(side, Piece::Soldier(colour), to)
                    ^ zobrist::hand(side, colour, *held)
                    ^ zobrist::hand(side, colour, left);
                *held = left;
            }
            Move::Step { from, to } => {
                let piece = self.kind_at(from);
                let path = from.bit() | to.bit();
                self.sides[side.index()] ^= path;
                match piece {
                    Piece::King => self.kings ^= path,
                    Piece::Soldier(Colour::Red) => self.red ^= path,
                    Piece::Soldier(Colour::Black) => {}
                }
                self.hash ^= zobrist::piece(side, piece, from) ^ zobrist::piece(side, piece, to);
                let taken = self.captures(side, piece, to);
                if taken == 0 {
                    self.quiet_plies = self.quiet_plies.saturating_add(1);
                } else {
                    self.remove(side.other(), taken);
                    self.quiet_plies = 0;
                }
            }
        }
        self.to_move = side.other();
        self.hash ^= zobrist::to_move(side) ^ zobrist::to_move(side.other());
    }

    /// Takes the pieces on `taken` (all owned by `owner`) off the board.
    fn remove(&mut self, owner: Player, taken: Bitboard) {
        for sq in squares(taken) {
            self.hash ^= zobrist::piece(owner, self.kind_at(sq), sq);
        }
        self.sides[owner.index()] &= !taken;
        self.red &= !taken;
        self.kings &= !taken;
    }
}

/// The number of one-square steps from `pieces` to `empty` squares.
#[inline(always)]
pub(super) fn step_count(pieces: Bitboard, empty: Bitboard) -> u64 {
    ALL_DIRECTIONS
        .iter()
        .map(|d| u64::from((d.shift(pieces) & empty).count_ones()))
        .sum()
}
