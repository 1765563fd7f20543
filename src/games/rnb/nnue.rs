//! R&B's efficiently updatable network ([`crate::eval::nnue`]): its inputs, the accumulator
//! kept up to date by the changes between positions, and the evaluation it gives.
//!
//! - **Inputs (232 per view):** a piece by its kind (king, red soldier, black soldier), its
//!   owner (the viewer's or the other side's) and its square seen from the viewer (North's
//!   view turns the board half a turn, so each side sees its own base at d1): 6 × 36; and
//!   each side's hand of each colour as a thermometer (one input per soldier held, 4 each):
//!   2 × 2 × 4. Every piece sets exactly one input, so a position sets at most
//!   [`MAX_ACTIVE`] = 18 per view.
//! - **Network:** 232 → 2 × 32 (clipped ReLU, one half per view) → 1, the logit of P(the side
//!   to move wins); a score is that logit times [`SCORE_PER_LOGIT`] (the logistic scale
//!   `quartet tune` fits to R&B's classical evaluation: k ≈ 0.008 per unit).
//! - **Updates:** the search copies the position before each move (copy-make) and asks for
//!   the static value of a position without saying which move led there, so each search
//!   thread keeps the last position it evaluated with its accumulator ([`Cache`]) and
//!   changes the accumulator by the difference of the two boards: the features removed and
//!   added, a few per move, never a full recomputation once the cache is warm. With debug
//!   assertions each update is checked against the accumulator recomputed from scratch.

use crate::eval::EVAL_LIMIT;
use crate::eval::network::NetworkTraining;
use crate::eval::nnue::{Accumulator, InUse, NnueSpec, QA, QB, Quantized};
use crate::game::Player;
use crate::games::rnb::Rnb;
use crate::games::rnb::geometry::{Bitboard, SOLDIERS_PER_COLOUR, SQUARES, squares};
use std::cell::RefCell;
use std::sync::{Arc, LazyLock};

/// The first bytes of an R&B network file.
pub const MAGIC: &[u8; 8] = b"QRNBNN01";
/// Piece kinds an input tells apart: king, red soldier, black soldier.
const KINDS: usize = 3;
/// Inputs of pieces on the board: owner (viewer's, other's) × kind × square.
const BOARD_INPUTS: usize = 2 * KINDS * SQUARES;
/// Soldiers of one colour a hand may hold.
const HAND_DEPTH: usize = SOLDIERS_PER_COLOUR as usize;
/// Inputs per view.
pub const INPUTS: usize = BOARD_INPUTS + 2 * 2 * HAND_DEPTH;
/// The most inputs a position sets in one view: two kings and every soldier, on the board or
/// in hand.
pub const MAX_ACTIVE: usize = 2 + 2 * 2 * HAND_DEPTH;
/// Evaluation units per unit of the network's logit (P(win) = logistic(score / 125)).
pub const SCORE_PER_LOGIT: i64 = 125;

/// The pieces of a position as the inputs see them: each owner's kings, red and black
/// soldiers (`[owner · 3 + kind]`, owner by `Player::index`) and hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Board {
    pieces: [Bitboard; 2 * KINDS],
    hands: [[u8; 2]; 2],
}

impl Board {
    /// The pieces of `pos`.
    pub(super) fn of(pos: &Rnb) -> Board {
        let mut pieces = [0; 2 * KINDS];
        for owner in 0..2 {
            let own = pos.sides[owner];
            pieces[owner * KINDS] = own & pos.kings;
            pieces[owner * KINDS + 1] = own & pos.red & !pos.kings;
            pieces[owner * KINDS + 2] = own & !pos.red & !pos.kings;
        }
        Board {
            pieces,
            hands: pos.hands,
        }
    }

    /// Every feature of the position: the input of each seen from South and from North.
    fn features(&self) -> impl Iterator<Item = [u16; 2]> + '_ {
        let board = (0..2 * KINDS).flat_map(move |slot| {
            squares(self.pieces[slot]).map(move |sq| board_feature(slot, sq.index()))
        });
        let hands = (0..2).flat_map(move |owner| {
            (0..2).flat_map(move |colour| {
                let held = usize::from(self.hands[owner][colour]);
                (0..held).map(move |n| hand_feature(owner, colour, n))
            })
        });
        board.chain(hands)
    }
}

/// The inputs, seen from South and from North, of the piece in `slot` (`owner · 3 + kind`)
/// on square index `sq`.
#[inline]
fn board_feature(slot: usize, sq: usize) -> [u16; 2] {
    let (owner, kind) = (slot / KINDS, slot % KINDS);
    let input = |viewer: usize| {
        let relative = usize::from(owner != viewer);
        let seen = if viewer == 0 { sq } else { SQUARES - 1 - sq };
        ((relative * KINDS + kind) * SQUARES + seen) as u16
    };
    [input(0), input(1)]
}

/// The inputs, seen from South and from North, of the `n`-th soldier (from 0) of `colour`
/// in `owner`'s hand.
#[inline]
fn hand_feature(owner: usize, colour: usize, n: usize) -> [u16; 2] {
    let input = |viewer: usize| {
        let relative = usize::from(owner != viewer);
        (BOARD_INPUTS + (relative * 2 + colour) * HAND_DEPTH + n) as u16
    };
    [input(0), input(1)]
}

/// The inputs `pos` sets seen from `viewer` (each once), for training.
pub(super) fn inputs(pos: &Rnb, viewer: Player) -> Vec<u16> {
    Board::of(pos)
        .features()
        .map(|f| f[viewer.index()])
        .collect()
}

/// Calls `apply(feature, false)` for each feature of `old` that `new` lacks, then
/// `apply(feature, true)` for each that `new` gains (removals first, so the accumulator never
/// holds more than a position's inputs at once).
#[inline]
pub(super) fn changes(old: &Board, new: &Board, mut apply: impl FnMut([u16; 2], bool)) {
    for added in [false, true] {
        let (from, to) = if added { (old, new) } else { (new, old) };
        for slot in 0..2 * KINDS {
            for sq in squares(to.pieces[slot] & !from.pieces[slot]) {
                apply(board_feature(slot, sq.index()), added);
            }
        }
        for owner in 0..2 {
            for colour in 0..2 {
                let (was, is) = (from.hands[owner][colour], to.hands[owner][colour]);
                for n in was..is {
                    apply(hand_feature(owner, colour, usize::from(n)), added);
                }
            }
        }
    }
}

/// The accumulator of `board` recomputed from scratch.
pub(super) fn accumulator(net: &Quantized, board: &Board) -> Accumulator {
    let mut acc = Accumulator {
        halves: [[0; crate::eval::network::HIDDEN]; 2],
    };
    for viewer in 0..2 {
        net.refresh(&mut acc.halves[viewer], board.features().map(|f| f[viewer]));
    }
    acc
}

/// Changes `acc`, the accumulator of `old`, into that of `new`.
#[inline]
pub(super) fn update(net: &Quantized, acc: &mut Accumulator, old: &Board, new: &Board) {
    changes(old, new, |f, added| {
        if added {
            net.add(acc, f);
        } else {
            net.remove(acc, f);
        }
    });
}

/// The value from South's view, strictly inside `±EVAL_LIMIT`, of a position whose side to
/// move is `to_move` and whose accumulator is `acc`.
#[inline]
pub(super) fn value(net: &Quantized, acc: &Accumulator, to_move: Player) -> i32 {
    let us = &acc.halves[to_move.index()];
    let them = &acc.halves[to_move.other().index()];
    let out = i64::from(net.output(us, them));
    let score = out * SCORE_PER_LOGIT / i64::from(QA * QB);
    let limit = i64::from(EVAL_LIMIT - 1);
    (score.clamp(-limit, limit) as i32) * to_move.sign()
}

/// The checked-in weights (`nnue.bin`, written by `quartet tune --game rnb --network`).
static CHECKED_IN: LazyLock<Arc<Quantized>> = LazyLock::new(|| {
    let weights = Quantized::from_bytes(include_bytes!("nnue.bin"), MAGIC, INPUTS, MAX_ACTIVE)
        .expect("the checked-in nnue.bin is readable");
    Arc::new(weights)
});

/// Which evaluation R&B uses in this process (the `Eval` and `EvalFile` options).
pub(super) static IN_USE: InUse = InUse::new();

/// R&B's network as `quartet tune --network` trains it and the options switch it.
pub(super) const SPEC: NnueSpec<Rnb> = NnueSpec {
    training: NetworkTraining {
        magic: MAGIC,
        inputs: INPUTS,
        features: |pos| inputs(pos, pos.to_move),
        first_win_probability: south_win_probability,
        exact: None,
    },
    other_features: |pos| inputs(pos, pos.to_move.other()),
    max_active: MAX_ACTIVE,
    in_use: &IN_USE,
};

/// South's winning chance that a score from South's view means.
fn south_win_probability(score: i32) -> f32 {
    1.0 / (1.0 + (-(score as f32) / SCORE_PER_LOGIT as f32).exp())
}

/// One search thread's last evaluated position and its accumulator, with the weights they
/// were computed with.
struct Cache {
    generation: u64,
    net: Arc<Quantized>,
    board: Board,
    acc: Accumulator,
}

thread_local! {
    /// This thread's [`Cache`], made at its first network evaluation.
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

/// The network's value of `pos` from South's view, strictly inside `±EVAL_LIMIT`: the
/// thread's cached accumulator updated to `pos` (or rebuilt when other weights were loaded).
pub(super) fn evaluate(pos: &Rnb) -> i32 {
    let board = Board::of(pos);
    CACHE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let generation = IN_USE.generation();
        let cache = match &mut *cell {
            Some(cache) if cache.generation == generation => {
                update(&cache.net, &mut cache.acc, &cache.board, &board);
                cache.board = board;
                cache
            }
            slot => {
                let net = IN_USE.loaded().unwrap_or_else(|| Arc::clone(&CHECKED_IN));
                let acc = accumulator(&net, &board);
                slot.insert(Cache {
                    generation,
                    net,
                    board,
                    acc,
                })
            }
        };
        debug_assert_eq!(
            cache.acc,
            accumulator(&cache.net, &board),
            "the updated accumulator is the recomputed one"
        );
        value(&cache.net, &cache.acc, pos.to_move)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::Network;
    use crate::game::{Game, MoveList, Node, RuleOptions};
    use crate::learn::network::initial_network;
    use crate::notation::Notation;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::time::Instant;

    /// A network with random weights (the trainer's start), in integers.
    fn random_net(seed: u64) -> Quantized {
        let net = initial_network(Network::zeroed_two_sided(INPUTS), seed);
        Quantized::from_float(&net, "test", MAX_ACTIVE).expect("fits")
    }

    /// The positions of `games` random playouts of R&B from the start (placements included),
    /// in order, each game's after the last.
    fn playouts(games: usize, seed: u64) -> Vec<Rnb> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut moves = MoveList::new();
        for _ in 0..games {
            let mut pos = Rnb::start(&RuleOptions::default());
            for _ in 0..200 {
                let Node::Turn(p) = pos.node() else { break };
                out.push(pos.clone());
                pos.legal_moves(p, &mut moves);
                pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        out
    }

    #[test]
    fn the_updated_accumulator_is_the_recomputed_one_along_random_playouts() {
        let net = random_net(5);
        let positions = playouts(30, 1);
        let mut board = Board::of(&positions[0]);
        let mut acc = accumulator(&net, &board);
        for pos in &positions {
            let next = Board::of(pos);
            update(&net, &mut acc, &board, &next);
            board = next;
            assert_eq!(acc, accumulator(&net, &board), "{pos:?}");
        }
    }

    #[test]
    fn every_piece_sets_one_input_and_north_sees_the_board_turned() {
        for pos in playouts(5, 2) {
            let south = inputs(&pos, Player::First);
            let north = inputs(&pos, Player::Second);
            let pieces = (pos.sides[0] | pos.sides[1]).count_ones() as usize;
            let held: usize = pos.hands.iter().flatten().map(|&n| usize::from(n)).sum();
            assert_eq!(south.len(), pieces + held);
            assert!(south.len() <= MAX_ACTIVE);
            assert!(south.iter().chain(&north).all(|&i| usize::from(i) < INPUTS));
            // South's king on d1 (index 3) is North's other king at c6 turned: 35 - 3.
            if pos.kings & pos.sides[0] & 1 << 3 != 0 {
                assert!(south.contains(&3));
                assert!(north.contains(&((KINDS * SQUARES + 32) as u16)));
            }
        }
    }

    #[test]
    fn the_engine_path_gives_the_recomputed_value() {
        // The thread's cache, loaded with random weights, against a fresh accumulator.
        let net = random_net(7);
        let q = net.clone();
        let positions = playouts(3, 3);
        CACHE.with(|cell| {
            *cell.borrow_mut() = Some(Cache {
                generation: IN_USE.generation(),
                net: Arc::new(q),
                board: Board::of(&positions[0]),
                acc: accumulator(&net, &Board::of(&positions[0])),
            })
        });
        for pos in &positions {
            let want = value(&net, &accumulator(&net, &Board::of(pos)), pos.to_move);
            assert_eq!(evaluate(pos), want);
            assert!(want.abs() < EVAL_LIMIT);
        }
        CACHE.with(|cell| *cell.borrow_mut() = None);
    }

    #[test]
    fn the_checked_in_weights_are_readable() {
        assert_eq!(CHECKED_IN.inputs(), INPUTS);
        assert!(CHECKED_IN.header().contains("quartet tune --game rnb"));
    }

    /// A full-width walk of `depth` plies below `pos` that keeps an accumulator by
    /// copy-make (a child's is its parent's copied and updated); the sum of the values.
    fn walk_copy(net: &Quantized, pos: &Rnb, board: &Board, acc: Accumulator, depth: u32) -> i64 {
        let mut total = i64::from(value(net, &acc, pos.to_move));
        let Node::Turn(p) = pos.node() else {
            return total;
        };
        if depth == 0 {
            return total;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(p, &mut moves);
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let child_board = Board::of(&child);
            let mut child_acc = acc;
            update(net, &mut child_acc, board, &child_board);
            total += walk_copy(net, &child, &child_board, child_acc, depth - 1);
        }
        total
    }

    /// The same walk with one accumulator, updated on the way down and back on the way up.
    fn walk_undo(
        net: &Quantized,
        pos: &Rnb,
        board: &Board,
        acc: &mut Accumulator,
        depth: u32,
    ) -> i64 {
        let mut total = i64::from(value(net, acc, pos.to_move));
        let Node::Turn(p) = pos.node() else {
            return total;
        };
        if depth == 0 {
            return total;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(p, &mut moves);
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            let child_board = Board::of(&child);
            update(net, acc, board, &child_board);
            total += walk_undo(net, &child, &child_board, acc, depth - 1);
            update(net, acc, &child_board, board);
        }
        total
    }

    /// The same walk recomputing every accumulator, or through the engine's thread cache.
    fn walk_other(net: &Quantized, pos: &Rnb, depth: u32, cached: bool) -> i64 {
        let mut total = i64::from(if cached {
            evaluate(pos)
        } else {
            value(net, &accumulator(net, &Board::of(pos)), pos.to_move)
        });
        let Node::Turn(p) = pos.node() else {
            return total;
        };
        if depth == 0 {
            return total;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(p, &mut moves);
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            total += walk_other(net, &child, depth - 1, cached);
        }
        total
    }

    /// The nodes of a full-width walk of `depth` plies below `pos`.
    fn count(pos: &Rnb, depth: u32) -> u64 {
        let Node::Turn(p) = pos.node() else { return 1 };
        if depth == 0 {
            return 1;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(p, &mut moves);
        let mut total = 1;
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            total += count(&child, depth - 1);
        }
        total
    }

    /// Copy-make against update-undo (and a recomputation at every node, and the engine's
    /// cache) over full-width walks of R&B's bench positions:
    /// `cargo test --release --lib accumulator_strategies -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement, not a check"]
    fn accumulator_strategies() {
        let net = random_net(11);
        let positions: Vec<Rnb> = crate::games::rnb::DECLARATION
            .bench
            .positions
            .iter()
            .map(|p| Rnb::parse_position(p, &RuleOptions::default()).expect("bench position"))
            .collect();
        let depth = 4;
        let nodes: u64 = positions.iter().map(|p| count(p, depth)).sum();
        let time = |name: &str, f: &dyn Fn(&Rnb) -> i64| {
            let start = Instant::now();
            let total: i64 = positions.iter().map(f).sum();
            let secs = start.elapsed().as_secs_f64();
            let ns = secs * 1e9 / nodes as f64;
            println!("{name:>12}: {secs:.3} s, {ns:.0} ns a node of {nodes} (sum {total})");
            total
        };
        let mut sums = Vec::new();
        time("walk alone", &|pos| count(pos, depth) as i64);
        for _ in 0..2 {
            sums.push(time("copy-make", &|pos| {
                let board = Board::of(pos);
                walk_copy(&net, pos, &board, accumulator(&net, &board), depth)
            }));
            sums.push(time("update-undo", &|pos| {
                let board = Board::of(pos);
                let mut acc = accumulator(&net, &board);
                walk_undo(&net, pos, &board, &mut acc, depth)
            }));
            sums.push(time("recompute", &|pos| {
                walk_other(&net, pos, depth, false)
            }));
        }
        IN_USE.load(Some(net.clone()));
        sums.push(time("cache", &|pos| walk_other(&net, pos, depth, true)));
        assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
    }
}
