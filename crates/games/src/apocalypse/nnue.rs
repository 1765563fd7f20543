//! Apocalypse's efficiently updatable network ([`quartet_core::eval::nnue`]): its inputs, the board
//! its accumulator is kept up to date by, and the evaluation it gives.
//!
//! - **Inputs (302 per view):** a piece by its owner (the viewer's or the other side's), its
//!   kind (pawn, knight) and its square seen from the viewer: Black's view reverses the
//!   ranks, so each side sees its own pieces start on ranks 1 and 2 and move up (2 × 2 ×
//!   25); the same piece again if an enemy piece attacks its square (it may be taken next
//!   turn), and again if an own piece does (it could be retaken: 2 × 100, the classical
//!   evaluation's attacked and defended pieces); and whether each side (the viewer's, the
//!   other) has a penalty point (2: a side with two has lost). A side has at most 7 pieces,
//!   so a position sets at most [`MAX_ACTIVE`] = 44 inputs a view.
//! - **Network:** 302 → 2 × 32 (clipped ReLU, one half per view) → 1, the logit of P(the
//!   viewer wins). Apocalypse has no side to move: its value, from White's view, is the mean
//!   of White's logit and the negation of Black's ([`nnue::value`]), so the colour-flipped
//!   position (ranks reversed, colours and penalty points swapped) is valued exactly the
//!   negation; a score is that logit times [`SCORE_PER_LOGIT`] (the logistic scale at which
//!   the classical evaluation's scores best predict self-play results).
//! - **Updates:** the shared thread cache ([`nnue::evaluate`]) with the squares two boards
//!   differ on, by square sets: a turn changes the squares it moved on and the attacked and
//!   defended flags of the pieces whose attackers changed, a few inputs. The position keeps
//!   its pieces' square sets, so a board is a few shifts and masks.

use crate::apocalypse::Apocalypse;
use crate::apocalypse::board::{Piece, SIZE, SQUARES};
use quartet_core::eval::nnue::{self, NnueBoard};
use quartet_core::game::Player;

/// The first bytes of an Apocalypse network file.
pub const MAGIC: &[u8; 8] = b"QAPONN01";
/// Inputs of one block of facts about the pieces (the pieces, the attacked ones, the
/// defended ones): owner (viewer's, other's) × kind × square.
const PIECE_INPUTS: usize = 2 * 2 * SQUARES;
/// The first input of the penalty points: the viewer's, then the other side's.
const PENALTY_INPUTS: usize = 3 * PIECE_INPUTS;
/// Inputs per view.
pub const INPUTS: usize = PENALTY_INPUTS + 2;
/// The most inputs a position sets in one view: 2 knights and 5 pawns a side, each
/// attacked and defended, and both sides' penalty points.
pub const MAX_ACTIVE: usize = 3 * 2 * 7 + 2;
/// Evaluation units per unit of the network's logit (P(White wins) = logistic(score / 110)):
/// the scale at which the classical evaluation's scores best predict the results of
/// self-play games (held-out loss 0.3266 at 110 on 2500 games, 0.3322 at 90, 0.3298 at 130).
pub const SCORE_PER_LOGIT: i64 = 110;
/// Whether Apocalypse evaluates with its network unless the `Eval` option says otherwise:
/// yes, after its match against the classical evaluation in one build at movetime 100,
/// whose Elo interval lay above 0 (README, "Apocalypse's network").
pub const NETWORK_BY_DEFAULT: bool = true;

/// The blocks of a [`Board`]'s square sets: the pieces, the attacked ones, the defended
/// ones.
const BLOCKS: usize = 3;
/// A block's square sets: one per owner and kind (owner · 2 + kind, by `Player::index` and
/// `Piece::index`).
const SLOTS: usize = 4;
/// Square `s` seen from `viewer` (0: White, 1: Black, who sees the ranks reversed).
const fn seen(s: usize, viewer: usize) -> usize {
    let size = SIZE as usize;
    if viewer == 0 {
        s
    } else {
        (size - 1 - s / size) * size + s % size
    }
}

/// The input seen from `viewer` of square `s` in set `slot` (owner · 2 + kind) of `block`.
const fn piece_input(block: usize, slot: usize, s: usize, viewer: usize) -> u16 {
    let (owner, kind) = (slot / 2, slot % 2);
    let relative = (owner != viewer) as usize;
    (block * PIECE_INPUTS + (relative * 2 + kind) * SQUARES + seen(s, viewer)) as u16
}

/// `FEATURE[block][slot][s]`: the inputs, seen from White and from Black, of square `s` in
/// set `slot` of `block`: a piece there (block 0), attacked there (1) or defended there (2).
static FEATURE: [[[[u16; 2]; SQUARES]; SLOTS]; BLOCKS] = {
    let mut t = [[[[0u16; 2]; SQUARES]; SLOTS]; BLOCKS];
    let mut block = 0;
    while block < BLOCKS {
        let mut slot = 0;
        while slot < SLOTS {
            let mut s = 0;
            while s < SQUARES {
                t[block][slot][s] = [
                    piece_input(block, slot, s, 0),
                    piece_input(block, slot, s, 1),
                ];
                s += 1;
            }
            slot += 1;
        }
        block += 1;
    }
    t
};

/// The inputs, seen from White and from Black, of side `owner`'s penalty point.
const fn penalty_feature(owner: usize) -> [u16; 2] {
    [
        (PENALTY_INPUTS + (owner != 0) as usize) as u16,
        (PENALTY_INPUTS + (owner != 1) as usize) as u16,
    ]
}

/// The pieces of a position as the inputs see them: the square sets of each block and slot
/// (a piece, attacked by an enemy piece, defended by an own piece: attacked and defended
/// whatever the attacker's move would be) and the penalty flags (bit `p`: side `p` has a
/// penalty point).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    sets: [[u32; SLOTS]; BLOCKS],
    penalties: u8,
}

impl Board {
    /// The board of `pos`, from the classical evaluation's masks (the same pieces and
    /// attacked squares).
    #[inline]
    pub(super) fn of(pos: &Apocalypse) -> Board {
        let masks = super::Masks::of(pos);
        let mut sets = [[0; SLOTS]; BLOCKS];
        for own in 0..2 {
            let pieces = [
                (Piece::Pawn, masks.pawns[own]),
                (Piece::Knight, masks.knights[own]),
            ];
            for (piece, on) in pieces {
                let slot = own * 2 + piece.index();
                sets[0][slot] = on;
                sets[1][slot] = on & masks.attacks[1 - own];
                sets[2][slot] = on & masks.attacks[own];
            }
        }
        let penalties = u8::from(pos.penalties(Player::First) > 0)
            | u8::from(pos.penalties(Player::Second) > 0) << 1;
        Board { sets, penalties }
    }
}

/// Calls `apply(feature, added)` with the feature of each square of `set`, a set of `slot`
/// of `block`.
#[inline]
fn each_square(
    block: usize,
    slot: usize,
    mut set: u32,
    added: bool,
    apply: &mut impl FnMut([u16; 2], bool),
) {
    while set != 0 {
        apply(FEATURE[block][slot][set.trailing_zeros() as usize], added);
        set &= set - 1;
    }
}

/// Calls `apply(feature, added)` with the feature of each penalty flag of `flags`.
#[inline]
fn each_penalty(flags: u8, added: bool, apply: &mut impl FnMut([u16; 2], bool)) {
    for owner in 0..2 {
        if flags & 1 << owner != 0 {
            apply(penalty_feature(owner), added);
        }
    }
}

impl NnueBoard for Board {
    fn each_feature(&self, mut apply: impl FnMut([u16; 2])) {
        let mut each = |f, _| apply(f);
        for (block, sets) in self.sets.iter().enumerate() {
            for (slot, &set) in sets.iter().enumerate() {
                each_square(block, slot, set, true, &mut each);
            }
        }
        each_penalty(self.penalties, true, &mut each);
    }

    #[inline]
    fn changes(old: &Board, new: &Board, mut apply: impl FnMut([u16; 2], bool)) {
        for added in [false, true] {
            let (from, to) = if added { (old, new) } else { (new, old) };
            for block in 0..BLOCKS {
                for slot in 0..SLOTS {
                    let (was, is) = (from.sets[block][slot], to.sets[block][slot]);
                    each_square(block, slot, is & !was, added, &mut apply);
                }
            }
            each_penalty(to.penalties & !from.penalties, added, &mut apply);
        }
    }
}

/// The inputs `pos` sets seen from `viewer` (each once), for training.
fn inputs(pos: &Apocalypse, viewer: Player) -> Vec<u16> {
    nnue::inputs_of(&Board::of(pos), viewer)
}

nnue::game_network!(Apocalypse, include_bytes!("nnue.bin"), |pos| None);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apocalypse::board::{file_of, knight_targets, rank_of};
    use quartet_core::eval::nnue::testing;
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;

    /// A network with random weights (the trainer's start), in integers.
    fn random_net(seed: u64) -> nnue::Quantized {
        testing::random_net(INPUTS, MAX_ACTIVE, seed)
    }

    /// The positions of `games` random playouts from the start (a side declares void one
    /// time in 50, so penalty points come and go).
    fn playouts(games: usize, seed: u64) -> Vec<Apocalypse> {
        crate::apocalypse::tests::rules::random_positions(true, games, seed)
    }

    fn parse(text: &str) -> Apocalypse {
        Apocalypse::parse_position(text, &RuleOptions::default()).expect("a position")
    }

    /// `set` with its ranks reversed.
    fn flip_ranks(set: u32) -> u32 {
        (0..SQUARES)
            .filter(|&s| set & 1 << s != 0)
            .map(|s| 1 << seen(s, 1))
            .sum()
    }

    /// The colour-flipped board: ranks reversed, colours and penalty flags swapped (the
    /// attacked and defended flags stay with their pieces).
    fn flipped(board: &Board) -> Board {
        let mut sets = [[0; SLOTS]; BLOCKS];
        for (block, row) in sets.iter_mut().enumerate() {
            for (slot, set) in row.iter_mut().enumerate() {
                *set = flip_ranks(board.sets[block][slot ^ 2]);
            }
        }
        let penalties = (board.penalties & 1) << 1 | board.penalties >> 1;
        Board { sets, penalties }
    }

    #[test]
    fn the_updated_accumulator_is_the_recomputed_one_along_random_playouts() {
        let positions = playouts(60, 1);
        assert!(positions.len() > 1000, "{}", positions.len());
        let penalised = positions
            .iter()
            .filter(|p| p.penalties(Player::First) + p.penalties(Player::Second) > 0)
            .count();
        assert!(penalised > 100, "{penalised}");
        let boards: Vec<Board> = positions.iter().map(Board::of).collect();
        testing::assert_updates_match(&random_net(5), &boards);
    }

    #[test]
    fn the_inputs_name_each_piece_its_attacks_and_penalty_and_black_sees_the_ranks_reversed() {
        let start = parse("npppn/p3p/5/P3P/NPPPN 00 0");
        let white = inputs(&start, Player::First);
        let black = inputs(&start, Player::Second);
        // The start is the same position seen from either side.
        let sorted = |mut v: Vec<u16>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(white.clone()), sorted(black.clone()));
        // White's knight a1 (square 0) is, for White, an own knight (kind 1) at a1: 25 + 0;
        // for Black an enemy knight at a5 (square 20): (2 + 1) · 25 + 20.
        assert!(white.contains(&25) && black.contains(&95));
        // Black's pawn a4 (square 15) is, for Black, an own pawn at a2 (square 5): 5.
        assert!(black.contains(&5));
        // At the start no piece is attacked, and the pawns a2 and e2 are defended (by the
        // pawns b1 and d1): for White an own pawn at a2, defended, is 200 + 5.
        assert!(white.contains(&205));
        assert!(white.iter().all(|&i| !(100..200).contains(&i)));
        // White has a penalty point: 300 for White, 301 for Black.
        let penalty = parse("npppn/p3p/5/P3P/NPPPN 10 0");
        assert!(inputs(&penalty, Player::First).contains(&300));
        assert!(inputs(&penalty, Player::Second).contains(&301));
        // The white knight c3 attacked by the black pawn b4 and defended by the pawn b2:
        // an own knight at c3 (25 + 12), attacked (125 + 12) and defended (225 + 12);
        // the pawn b4, for Black an own pawn at b2 (6), is not attacked (c3's knight leaps
        // to a4, b5, d5, e4, e2, d1, b1, a2).
        let attacked = parse("n4/1p3/2N2/1P3/5 00 0");
        let (white, black) = (
            inputs(&attacked, Player::First),
            inputs(&attacked, Player::Second),
        );
        for i in [37, 137, 237] {
            assert!(white.contains(&i), "{i} in {white:?}");
        }
        assert!(black.contains(&6) && !black.contains(&106));
    }

    /// Whether a piece of `by` could take on `s` next turn, square by square from the
    /// rules' moves (a knight's leap, a pawn's diagonal step forward), apart from the bit sets
    /// the board is made of.
    fn attacked_by(pos: &Apocalypse, s: u8, by: Player) -> bool {
        (0..SQUARES as u8).any(|t| match pos.cell(t) {
            Some((owner, Piece::Knight)) if owner == by => knight_targets(t).any(|k| k == s),
            Some((owner, Piece::Pawn)) if owner == by => {
                let forward = if by == Player::First { 1 } else { -1 };
                file_of(t).abs_diff(file_of(s)) == 1
                    && i16::from(rank_of(s)) == i16::from(rank_of(t)) + forward
            }
            _ => false,
        })
    }

    #[test]
    fn the_square_sets_are_the_pieces_and_the_squares_attacked_by_the_moves_rules() {
        for pos in playouts(20, 2) {
            let board = Board::of(&pos);
            let mut count = 0;
            for s in 0..SQUARES as u8 {
                let has = |block: usize, slot: usize| board.sets[block][slot] & 1 << s != 0;
                let Some((owner, piece)) = pos.cell(s) else {
                    assert!((0..BLOCKS).all(|b| (0..SLOTS).all(|slot| !has(b, slot))));
                    continue;
                };
                let slot = owner.index() * 2 + piece.index();
                let enemy = attacked_by(&pos, s, owner.other());
                let own = attacked_by(&pos, s, owner);
                assert_eq!(
                    (has(0, slot), has(1, slot), has(2, slot)),
                    (true, enemy, own)
                );
                count += 1 + usize::from(enemy) + usize::from(own);
            }
            count += [Player::First, Player::Second]
                .iter()
                .filter(|&&p| pos.penalties(p) > 0)
                .count();
            let (white, black) = (inputs(&pos, Player::First), inputs(&pos, Player::Second));
            assert_eq!((white.len(), black.len()), (count, count));
            assert!(white.len() <= MAX_ACTIVE);
            assert!(white.iter().chain(&black).all(|&i| usize::from(i) < INPUTS));
        }
    }

    #[test]
    fn the_colour_flipped_position_is_valued_the_negation() {
        let net = random_net(3);
        // A position and its mirror written by hand (the classical evaluation's test pair).
        let (a, b) = (
            Board::of(&parse("n1ppn/p3p/2P2/P4/NPP1N 10 0")),
            Board::of(&parse("npp1n/p4/2p2/P3P/N1PPN 01 0")),
        );
        assert_eq!(flipped(&a), b);
        for pos in playouts(5, 4) {
            let board = Board::of(&pos);
            let acc = nnue::accumulator(&net, &board);
            let mirror = nnue::accumulator(&net, &flipped(&board));
            assert_eq!(mirror.halves, [acc.halves[1], acc.halves[0]]);
            let value = |acc| nnue::value(&net, acc, None, SCORE_PER_LOGIT);
            assert_eq!(value(&mirror), -value(&acc), "{pos:?}");
        }
    }

    #[test]
    fn the_engine_path_gives_the_recomputed_value() {
        let boards: Vec<(Board, Option<Player>)> = playouts(5, 3)
            .iter()
            .map(|p| (Board::of(p), None))
            .collect();
        testing::assert_engine_path_matches(&RUNTIME, &random_net(7), &boards);
    }

    #[test]
    fn the_checked_in_weights_are_readable() {
        assert_eq!(CHECKED_IN.inputs(), INPUTS);
        assert!(
            CHECKED_IN
                .header()
                .contains("quartet tune --game apocalypse")
        );
    }
}
