//! An efficiently updatable network (NNUE's shape), shared by every game that has one (R&B's
//! is the first): the float network of [`crate::eval::network`] with two perspectives and
//! clipped ReLU units, trained by `quartet tune --network`, then run in integers.
//!
//! - **Inputs:** sparse features a game defines, set once per piece (or counter), seen from
//!   each player's side. Both views go through the same first layer, so a position has two
//!   halves of [`HIDDEN`] sums, one per player ([`Accumulator`], by `Player::index`).
//! - **Integer inference:** the accumulator is `i16` at scale [`QA`] (a float sum of 1.0,
//!   where the clipped ReLU saturates, is `QA`); the output weights are `i16` at scale
//!   [`QB`]; the output `b2 + Σ clamp(us, 0, QA)·w2_us + Σ clamp(them, 0, QA)·w2_them` is an
//!   `i32` at scale `QA·QB` of the logit of P(the side to move wins). The loader refuses
//!   weights with which a position's sums could leave `i16` ([`Quantized::from_bytes`]).
//! - **Updates:** a move changes a few features; [`Quantized::add`] and
//!   [`Quantized::remove`] change both halves by their first-layer rows, and
//!   [`Quantized::refresh`] recomputes a half from scratch (the debug check's reference).
//!
//! A weights file ([`Quantized::to_bytes`]) is the game's magic, a text header (u32 length,
//! UTF-8: the command that produced it), the shape (inputs, hidden, perspectives: u32), the
//! scales (`QA`, `QB`: u32), then the little-endian weights: `w1` (i16, by input), `b1` (i16),
//! `w2` (i16, our half then theirs), `b2` (i32).
//!
//! Which evaluation a game uses is the process's choice ([`InUse`]): the `Eval` and
//! `EvalFile` options set it, and each search thread reads it at its next evaluation.
//!
//! A game describes its inputs by a compact board ([`NnueBoard`]: every feature, and the
//! features two boards differ by); the rest is shared: the search copies the position before
//! each move and asks for the static value without saying which move led there, so each
//! search thread keeps the last board it evaluated with its accumulator ([`Cache`]) and
//! changes the accumulator by the difference of the two boards ([`evaluate`]), checked
//! against the accumulator recomputed from scratch under debug assertions.

use super::EVAL_LIMIT;
use super::network::{HIDDEN, Network, NetworkTraining};
use crate::game::Player;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, RwLock};
use std::thread::LocalKey;

/// The accumulator's scale: a first-layer sum of 1.0 (the clipped ReLU's top) is `QA`.
pub const QA: i32 = 127;
/// The output weights' scale: an output weight of 1.0 is `QB`.
pub const QB: i32 = 64;
/// The perspectives of the network: the side to move's and the other side's.
const PERSPECTIVES: u32 = 2;

/// The first-layer sums of one position, one half per player (by `Player::index`), at scale
/// [`QA`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Each player's half: the bias plus the rows of the inputs seen from that player.
    pub halves: [[i16; HIDDEN]; 2],
}

/// A network of two perspectives in integers (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantized {
    /// The first layer's row of each input, at scale [`QA`].
    w1: Vec<[i16; HIDDEN]>,
    /// The first layer's bias, at scale [`QA`].
    b1: [i16; HIDDEN],
    /// The output weights of our half, then of theirs, at scale [`QB`].
    w2: [[i16; HIDDEN]; 2],
    /// The output's bias, at scale `QA·QB`.
    b2: i32,
    /// The file's text header: the command that produced the weights.
    header: String,
}

/// `x` rounded to the nearest `i16`, or an error naming `what` if it does not fit.
fn to_i16(x: f32, what: &str) -> Result<i16, String> {
    let r = x.round();
    if (f32::from(i16::MIN)..=f32::from(i16::MAX)).contains(&r) {
        Ok(r as i16)
    } else {
        Err(format!("{what} {x} does not fit 16 bits"))
    }
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let (head, rest) = self.0.split_at_checked(n).ok_or("the file is truncated")?;
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16(&mut self) -> Result<i16, String> {
        let b = self.take(2)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }
}

impl Quantized {
    /// The float network `net` (two perspectives, clipped ReLU) in integers, with `header`
    /// (the command that produced it) as its text header; an error if `net` is of another
    /// shape, or a weight does not fit, or a position setting up to `max_active` inputs
    /// could overflow the accumulator.
    pub fn from_float(net: &Network, header: &str, max_active: usize) -> Result<Quantized, String> {
        let other = net
            .w2_other
            .ok_or("a network of one perspective has no integer form")?;
        let qa = QA as f32;
        let qb = QB as f32;
        let mut w1 = Vec::with_capacity(net.inputs());
        for column in &net.w1 {
            let mut row = [0i16; HIDDEN];
            for (q, w) in row.iter_mut().zip(column) {
                *q = to_i16(w * qa, "a first-layer weight")?;
            }
            w1.push(row);
        }
        let mut q = Quantized {
            w1,
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: (net.b2 * qa * qb).round() as i32,
            header: header.to_string(),
        };
        for (j, w) in other.iter().enumerate() {
            q.b1[j] = to_i16(net.b1[j] * qa, "a first-layer bias")?;
            q.w2[0][j] = to_i16(net.w2[j] * qb, "an output weight")?;
            q.w2[1][j] = to_i16(w * qb, "an output weight")?;
        }
        q.check_range(max_active)?;
        Ok(q)
    }

    /// An error unless every unit's sum stays inside `i16` for any `max_active` inputs:
    /// the bias plus `max_active` times the unit's largest row entry.
    fn check_range(&self, max_active: usize) -> Result<(), String> {
        for j in 0..HIDDEN {
            let widest = self
                .w1
                .iter()
                .map(|row| i64::from(row[j]).abs())
                .max()
                .unwrap_or(0);
            let bound = i64::from(self.b1[j]).abs() + max_active as i64 * widest;
            if bound > i64::from(i16::MAX) {
                return Err(format!(
                    "hidden unit {j} could reach {bound}, beyond the 16-bit accumulator"
                ));
            }
        }
        Ok(())
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.w1.len()
    }

    /// The file's text header (the command that produced the weights).
    pub fn header(&self) -> &str {
        &self.header
    }

    /// The weights as a file that starts with `magic` (see the module documentation).
    pub fn to_bytes(&self, magic: &[u8; 8]) -> Vec<u8> {
        let mut out = magic.to_vec();
        out.extend((self.header.len() as u32).to_le_bytes());
        out.extend(self.header.as_bytes());
        for n in [self.inputs() as u32, HIDDEN as u32, PERSPECTIVES] {
            out.extend(n.to_le_bytes());
        }
        out.extend((QA as u32).to_le_bytes());
        out.extend((QB as u32).to_le_bytes());
        let shorts = self
            .w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .chain(self.w2.iter().flatten());
        for w in shorts {
            out.extend(w.to_le_bytes());
        }
        out.extend(self.b2.to_le_bytes());
        out
    }

    /// Reads what [`Quantized::to_bytes`] wrote with `magic` for a network of `inputs`
    /// inputs, checking it against a position's `max_active` inputs (see
    /// [`Quantized::from_float`]); an error saying why if the bytes are not such a file.
    pub fn from_bytes(
        bytes: &[u8],
        magic: &[u8; 8],
        inputs: usize,
        max_active: usize,
    ) -> Result<Quantized, String> {
        let mut r = Reader(bytes);
        if r.take(8).ok() != Some(magic.as_slice()) {
            return Err(format!(
                "not a network file of this game (it must start with {})",
                String::from_utf8_lossy(magic)
            ));
        }
        let len = r.u32()? as usize;
        let header = std::str::from_utf8(r.take(len)?)
            .map_err(|_| "the header is not UTF-8 text")?
            .to_string();
        let shape = (r.u32()?, r.u32()?, r.u32()?);
        let want = (inputs as u32, HIDDEN as u32, PERSPECTIVES);
        if shape != want {
            return Err(format!(
                "a network of shape {}x{}x{} (inputs x hidden x perspectives), this build \
                 reads {}x{}x{}",
                shape.0, shape.1, shape.2, want.0, want.1, want.2
            ));
        }
        let scales = (r.u32()?, r.u32()?);
        if scales != (QA as u32, QB as u32) {
            return Err(format!(
                "scales {}/{}, this build reads {QA}/{QB}",
                scales.0, scales.1
            ));
        }
        let body = 2 * (inputs * HIDDEN + 3 * HIDDEN) + 4;
        if r.0.len() != body {
            return Err(format!("{} weight bytes, expected {body}", r.0.len()));
        }
        let mut w1 = vec![[0i16; HIDDEN]; inputs];
        for w in w1.iter_mut().flatten() {
            *w = r.i16()?;
        }
        let mut q = Quantized {
            w1,
            b1: [0; HIDDEN],
            w2: [[0; HIDDEN]; 2],
            b2: 0,
            header,
        };
        for w in q.b1.iter_mut().chain(q.w2.iter_mut().flatten()) {
            *w = r.i16()?;
        }
        q.b2 = r.u32()? as i32;
        q.check_range(max_active)?;
        Ok(q)
    }

    /// `half` recomputed from scratch: the bias plus the row of each input of `active`.
    pub fn refresh(&self, half: &mut [i16; HIDDEN], active: impl IntoIterator<Item = u16>) {
        *half = self.b1;
        for i in active {
            self.add_row(half, i);
        }
    }

    /// Adds input `i`'s row to `half` (an input became set).
    #[inline]
    pub fn add_row(&self, half: &mut [i16; HIDDEN], i: u16) {
        for (a, w) in half.iter_mut().zip(&self.w1[usize::from(i)]) {
            *a = a.wrapping_add(*w);
        }
    }

    /// Takes input `i`'s row from `half` (an input became unset).
    #[inline]
    pub fn remove_row(&self, half: &mut [i16; HIDDEN], i: u16) {
        for (a, w) in half.iter_mut().zip(&self.w1[usize::from(i)]) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Adds the rows of one feature to both halves of `acc`: `inputs[p]` is its input seen
    /// from player `p` (by `Player::index`).
    #[inline]
    pub fn add(&self, acc: &mut Accumulator, inputs: [u16; 2]) {
        self.add_row(&mut acc.halves[0], inputs[0]);
        self.add_row(&mut acc.halves[1], inputs[1]);
    }

    /// Takes the rows of one feature from both halves of `acc` (see [`Quantized::add`]).
    #[inline]
    pub fn remove(&self, acc: &mut Accumulator, inputs: [u16; 2]) {
        self.remove_row(&mut acc.halves[0], inputs[0]);
        self.remove_row(&mut acc.halves[1], inputs[1]);
    }

    /// The output, at scale `QA·QB`, of the logit of P(us wins) for our half `us` and
    /// their half `them`.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        let mut sum = self.b2;
        for (half, w2) in [us, them].into_iter().zip(&self.w2) {
            for (a, w) in half.iter().zip(w2) {
                sum += i32::from(*a).clamp(0, QA) * i32::from(*w);
            }
        }
        sum
    }
}

/// The pieces of a position as a game's network inputs see them, small enough to copy at
/// every evaluation. A feature is one thing set in the position (a piece on a square, say),
/// given as its input seen from each player (`[first's, second's]`, by `Player::index`).
pub trait NnueBoard: Copy + PartialEq + std::fmt::Debug {
    /// Calls `apply` once with every feature of the board.
    fn each_feature(&self, apply: impl FnMut([u16; 2]));

    /// Calls `apply(feature, false)` for each feature of `old` that `new` lacks, then
    /// `apply(feature, true)` for each that `new` gains (removals first, so an accumulator
    /// never holds more than a position's inputs at once).
    fn changes(old: &Self, new: &Self, apply: impl FnMut([u16; 2], bool));
}

/// The inputs `board` sets seen from `viewer` (each once), for training.
pub fn inputs_of<B: NnueBoard>(board: &B, viewer: Player) -> Vec<u16> {
    let mut out = Vec::new();
    board.each_feature(|f| out.push(f[viewer.index()]));
    out
}

/// The accumulator of `board` under `net`, recomputed from scratch.
pub fn accumulator<B: NnueBoard>(net: &Quantized, board: &B) -> Accumulator {
    let mut acc = Accumulator {
        halves: [net.b1; 2],
    };
    board.each_feature(|f| net.add(&mut acc, f));
    acc
}

/// Changes `acc`, the accumulator of `old` under `net`, into that of `new`.
#[inline]
pub fn update<B: NnueBoard>(net: &Quantized, acc: &mut Accumulator, old: &B, new: &B) {
    B::changes(old, new, |f, added| {
        if added {
            net.add(acc, f);
        } else {
            net.remove(acc, f);
        }
    });
}

/// The value from the first player's view, strictly inside `±EVAL_LIMIT`, of a position
/// whose accumulator under `net` is `acc` and whose side to move is `to_move`: the logit of
/// P(the side to move wins) times `score_per_logit`, the game's evaluation units per unit
/// of logit. A position without a side to move (`None`, a simultaneous node) is valued
/// from both sides' views at once: the mean of the first player's logit and the negated
/// second player's, so that the colour-flipped position (each half the other's) is valued
/// exactly the negation.
#[inline]
pub fn value(
    net: &Quantized,
    acc: &Accumulator,
    to_move: Option<Player>,
    score_per_logit: i64,
) -> i32 {
    let [first, second] = &acc.halves;
    let out = match to_move {
        Some(Player::First) => i64::from(net.output(first, second)),
        Some(Player::Second) => -i64::from(net.output(second, first)),
        None => (i64::from(net.output(first, second)) - i64::from(net.output(second, first))) / 2,
    };
    let score = out * score_per_logit / i64::from(QA * QB);
    let limit = i64::from(EVAL_LIMIT - 1);
    score.clamp(-limit, limit) as i32
}

/// One search thread's last evaluated board and its accumulator, with the weights they
/// were computed with (a game keeps one per thread, in a `thread_local!`
/// `RefCell<Option<Cache<_>>>`, for [`evaluate`]).
#[derive(Debug)]
pub struct Cache<B> {
    /// The [`InUse::generation`] of `net`.
    generation: u64,
    /// The weights in use when the cache was made.
    net: Arc<Quantized>,
    /// The board last evaluated.
    board: B,
    /// Its accumulator under `net`.
    acc: Accumulator,
}

/// Where a game's network lives at run time: its choice, its checked-in weights, each
/// thread's cache and its score scale (for [`evaluate`]).
pub struct Runtime<B: 'static> {
    /// Which evaluation the game uses in this process, and the weights loaded.
    pub in_use: &'static InUse,
    /// The checked-in weights, used when none were loaded.
    pub checked_in: &'static LazyLock<Arc<Quantized>>,
    /// Each search thread's [`Cache`].
    pub cache: &'static LocalKey<RefCell<Option<Cache<B>>>>,
    /// The game's evaluation units per unit of the network's logit.
    pub score_per_logit: i64,
}

/// The network's value of the position `board` with `to_move` to move (`None`: both sides
/// at once, see [`value`]), from the first player's view, strictly inside `±EVAL_LIMIT`:
/// the thread's cached accumulator updated to `board` (or rebuilt when other weights were
/// loaded). No allocation once the cache is warm; under debug assertions the update is
/// checked against the recomputed accumulator.
#[inline]
pub fn evaluate<B: NnueBoard>(rt: &Runtime<B>, board: B, to_move: Option<Player>) -> i32 {
    rt.cache.with(|cell| {
        let mut cell = cell.borrow_mut();
        let generation = rt.in_use.generation();
        let cache = match &mut *cell {
            Some(cache) if cache.generation == generation => {
                update(&cache.net, &mut cache.acc, &cache.board, &board);
                cache.board = board;
                cache
            }
            slot => {
                let net = rt
                    .in_use
                    .loaded()
                    .unwrap_or_else(|| Arc::clone(rt.checked_in));
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
            "the updated accumulator is the recomputed one at {board:?}"
        );
        value(&cache.net, &cache.acc, to_move, rt.score_per_logit)
    })
}

/// A game's efficiently updatable network, as its evaluation declares it (`Evaluate::NNUE`):
/// what `quartet tune --network` trains and what the `Eval` and `EvalFile` options switch.
pub struct NnueSpec<G> {
    /// The inputs seen from the side to act (`features`), their count, the magic of the
    /// weights file and the winning chance a score means; `exact` is unused.
    pub training: NetworkTraining<G>,
    /// The inputs set from the other side's view.
    pub other_features: fn(&G) -> Vec<u16>,
    /// The most inputs a position sets from one view (bounds the accumulator's range).
    pub max_active: usize,
    /// Which evaluation the game uses in this process.
    pub in_use: &'static InUse,
}

impl<G> Clone for NnueSpec<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for NnueSpec<G> {}

impl<G> NnueSpec<G> {
    /// The length in bytes of this game's weights file whose header is `header` bytes long
    /// (the layout [`Quantized::to_bytes`] writes): the `EvalFile` option refuses a file far
    /// larger than any network's before reading it.
    pub fn file_bytes(&self, header: usize) -> usize {
        let counts = 4 + 3 * 4 + 2 * 4;
        let shorts = self.training.inputs * HIDDEN + HIDDEN + 2 * HIDDEN;
        8 + counts + header + 2 * shorts + 4
    }

    /// Reads a weights file of this game's network (see [`Quantized::from_bytes`]).
    pub fn read(&self, bytes: &[u8]) -> Result<Quantized, String> {
        Quantized::from_bytes(
            bytes,
            self.training.magic,
            self.training.inputs,
            self.max_active,
        )
    }
}

/// Which evaluation the `Eval` option asks for, in every game that has a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Each game's own choice (its `NETWORK_BY_DEFAULT`): the option's default.
    Auto,
    /// The classical evaluation.
    Classical,
    /// The network.
    Network,
}

impl Choice {
    /// Every choice, in the order of [`Choice::name`]'s names (`Eval`'s combo values).
    pub const ALL: [Choice; 3] = [Choice::Auto, Choice::Classical, Choice::Network];

    /// The choice's name as the `Eval` option and `--eval` take it.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Auto => "auto",
            Choice::Classical => "classical",
            Choice::Network => "network",
        }
    }

    /// The choice named `name` (any case).
    pub fn parse(name: &str) -> Option<Choice> {
        Choice::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

/// Which evaluation one game uses in this process: its classical one or its network (by
/// [`Choice`]; [`Choice::Auto`] at the start, which is the game's declared default), with
/// the weights the `EvalFile` option loaded (or the checked-in ones). Search threads read
/// the choice at each evaluation (one relaxed load) and the weights when
/// [`InUse::generation`] changed.
#[derive(Debug)]
pub struct InUse {
    by_default: bool,
    choice: AtomicU8,
    generation: AtomicU64,
    loaded: RwLock<Option<Arc<Quantized>>>,
}

impl InUse {
    /// [`Choice::Auto`] for a game that evaluates with its network by default
    /// (`by_default`) or with its classical evaluation, the checked-in weights in reserve.
    pub const fn new(by_default: bool) -> InUse {
        InUse {
            by_default,
            choice: AtomicU8::new(Choice::Auto as u8),
            generation: AtomicU64::new(0),
            loaded: RwLock::new(None),
        }
    }

    /// Whether the network evaluates.
    #[inline]
    pub fn network(&self) -> bool {
        match self.choice.load(Ordering::Relaxed) {
            c if c == Choice::Classical as u8 => false,
            c if c == Choice::Network as u8 => true,
            _ => self.by_default,
        }
    }

    /// Whether the network evaluates under [`Choice::Auto`] (the game's declared default).
    pub fn by_default(&self) -> bool {
        self.by_default
    }

    /// The choice made last (at the start [`Choice::Auto`]).
    pub fn choice(&self) -> Choice {
        let c = self.choice.load(Ordering::Relaxed);
        Choice::ALL
            .into_iter()
            .find(|&k| k as u8 == c)
            .unwrap_or(Choice::Auto)
    }

    /// Chooses the evaluation.
    pub fn choose(&self, choice: Choice) {
        self.choice.store(choice as u8, Ordering::Relaxed);
    }

    /// Counts the weights loaded so far: a thread that cached weights of another count reads
    /// [`InUse::loaded`] again.
    #[inline]
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Makes `weights` the network's weights (`None`: the checked-in ones).
    pub fn load(&self, weights: Option<Quantized>) {
        let mut slot = self.loaded.write().unwrap_or_else(|e| e.into_inner());
        *slot = weights.map(Arc::new);
        self.generation.fetch_add(1, Ordering::Release);
    }

    /// The weights [`InUse::load`] loaded last; `None` for the checked-in ones.
    pub fn loaded(&self) -> Option<Arc<Quantized>> {
        self.loaded
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// The player a network's training sees as "us" at a position whose side to move is
/// `to_move`: that side, or the first player at a node without one (a simultaneous node,
/// whose values are the first player's).
pub fn viewer(to_move: Option<Player>) -> Player {
    to_move.unwrap_or(Player::First)
}

/// Declares the run-time wiring of a game's network in the game's `nnue.rs`, which must
/// define `MAGIC`, `INPUTS`, `MAX_ACTIVE`, `SCORE_PER_LOGIT`, `NETWORK_BY_DEFAULT` (whether
/// the game evaluates with its network unless the `Eval` option says otherwise), its `Board`
/// and `inputs(pos, viewer)`: the checked-in weights (`CHECKED_IN`, from `$bytes`), the
/// process's choice (`IN_USE`), the trainer's and options' [`NnueSpec`] (`SPEC`), each
/// thread's cache and `evaluate(pos)`, the network's value from the first player's view.
/// `$side` names the side to move of a position `$pos` (`Option<Player>`: `None` for a
/// position without one, valued from both sides' views, see [`value`]).
#[macro_export]
macro_rules! game_network {
    ($game:ty, $bytes:expr, |$pos:ident| $side:expr) => {
        /// The checked-in weights (`nnue.bin`, written by `quartet tune --network`).
        static CHECKED_IN: std::sync::LazyLock<std::sync::Arc<$crate::eval::nnue::Quantized>> =
            std::sync::LazyLock::new(|| {
                let weights =
                    $crate::eval::nnue::Quantized::from_bytes($bytes, MAGIC, INPUTS, MAX_ACTIVE)
                        .expect("the checked-in nnue.bin is readable");
                std::sync::Arc::new(weights)
            });

        /// Which evaluation the game uses in this process (the `Eval` and `EvalFile`
        /// options).
        pub(super) static IN_USE: $crate::eval::nnue::InUse =
            $crate::eval::nnue::InUse::new(NETWORK_BY_DEFAULT);

        /// The game's network as `quartet tune --network` trains it and the options
        /// switch it.
        pub(super) const SPEC: $crate::eval::nnue::NnueSpec<$game> = $crate::eval::nnue::NnueSpec {
            training: $crate::eval::network::NetworkTraining {
                magic: MAGIC,
                inputs: INPUTS,
                features: |$pos| inputs($pos, $crate::eval::nnue::viewer($side)),
                first_win_probability: |score| {
                    1.0 / (1.0 + (-(score as f32) / SCORE_PER_LOGIT as f32).exp())
                },
                exact: None,
            },
            other_features: |$pos| inputs($pos, $crate::eval::nnue::viewer($side).other()),
            max_active: MAX_ACTIVE,
            in_use: &IN_USE,
        };

        thread_local! {
            /// This thread's cache of its last evaluated board, made at its first network
            /// evaluation.
            static CACHE: std::cell::RefCell<Option<$crate::eval::nnue::Cache<Board>>> =
                const { std::cell::RefCell::new(None) };
        }

        /// Where the game's network lives at run time.
        static RUNTIME: $crate::eval::nnue::Runtime<Board> = $crate::eval::nnue::Runtime {
            in_use: &IN_USE,
            checked_in: &CHECKED_IN,
            cache: &CACHE,
            score_per_logit: SCORE_PER_LOGIT,
        };

        /// The network's value of `pos` from the first player's view, strictly inside
        /// `±EVAL_LIMIT` ([`nnue::evaluate`]: the thread's cached accumulator updated to
        /// `pos`).
        pub(super) fn evaluate($pos: &$game) -> i32 {
            $crate::eval::nnue::evaluate(&RUNTIME, Board::of($pos), $side)
        }
    };
}
pub use crate::game_network;

/// What the games' network tests share: random weights, random playouts, and the checks
/// that an accumulator kept by updates, and the engine's path through the thread cache,
/// give what a recomputation from scratch gives.
#[cfg(any(test, feature = "testing"))]
pub mod testing {
    use super::*;
    use crate::eval::network::initial_network;
    use crate::game::{MoveList, Node, RuleOptions};
    use crate::notation::Notation;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A network of `inputs` inputs with random weights (the trainer's start), in integers.
    pub fn random_net(inputs: usize, max_active: usize, seed: u64) -> Quantized {
        let net = initial_network(Network::zeroed_two_sided(inputs), seed);
        Quantized::from_float(&net, "test", max_active).expect("fits")
    }

    /// The positions of `games` random playouts of `G` from the start, at most `plies`
    /// decisions each, in order, each game's after the last.
    pub fn playouts<G: Notation>(games: usize, plies: usize, seed: u64) -> Vec<G> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut moves = MoveList::new();
        for _ in 0..games {
            let mut pos = G::start(&RuleOptions::default());
            for _ in 0..plies {
                let Node::Turn(p) = pos.node() else { break };
                out.push(pos.clone());
                pos.legal_moves(p, &mut moves);
                pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        out
    }

    /// Asserts that one accumulator updated from each board of `boards` to the next is, at
    /// every board, the one recomputed from scratch.
    pub fn assert_updates_match<B: NnueBoard>(net: &Quantized, boards: &[B]) {
        let mut acc = accumulator(net, &boards[0]);
        for pair in boards.windows(2) {
            update(net, &mut acc, &pair[0], &pair[1]);
            assert_eq!(acc, accumulator(net, &pair[1]), "{:?}", pair[1]);
        }
    }

    /// Asserts that [`evaluate`] through `rt`, its thread cache primed with the weights
    /// `net` (the process's choice untouched), gives at each of `boards` (with its side to
    /// move, if any) the value of the recomputed accumulator; the cache is emptied afterwards.
    pub fn assert_engine_path_matches<B: NnueBoard>(
        rt: &Runtime<B>,
        net: &Quantized,
        boards: &[(B, Option<Player>)],
    ) {
        rt.cache.with(|cell| {
            *cell.borrow_mut() = Some(Cache {
                generation: rt.in_use.generation(),
                net: Arc::new(net.clone()),
                board: boards[0].0,
                acc: accumulator(net, &boards[0].0),
            })
        });
        for &(board, to_move) in boards {
            let want = value(net, &accumulator(net, &board), to_move, rt.score_per_logit);
            assert_eq!(evaluate(rt, board, to_move), want, "{board:?}");
            assert!(want.abs() < EVAL_LIMIT);
        }
        rt.cache.with(|cell| *cell.borrow_mut() = None);
    }

    /// How a walk finds the board and the side to move (if any) of a position.
    pub type Describe<G, B> = fn(&G) -> (B, Option<Player>);

    /// A full-width walk of `depth` plies below `pos` that keeps an accumulator by
    /// copy-make (a child's is its parent's copied and updated); the sum of the values.
    fn walk_copy<G: Notation, B: NnueBoard>(
        (net, scale): (&Quantized, i64),
        describe: Describe<G, B>,
        pos: &G,
        acc: Accumulator,
        depth: u32,
    ) -> i64 {
        let (board, to_move) = describe(pos);
        let mut total = i64::from(value(net, &acc, to_move, scale));
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
            let mut child_acc = acc;
            update(net, &mut child_acc, &board, &describe(&child).0);
            total += walk_copy((net, scale), describe, &child, child_acc, depth - 1);
        }
        total
    }

    /// The same walk with one accumulator, updated on the way down and back on the way up.
    fn walk_undo<G: Notation, B: NnueBoard>(
        (net, scale): (&Quantized, i64),
        describe: Describe<G, B>,
        pos: &G,
        acc: &mut Accumulator,
        depth: u32,
    ) -> i64 {
        let (board, to_move) = describe(pos);
        let mut total = i64::from(value(net, acc, to_move, scale));
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
            let child_board = describe(&child).0;
            update(net, acc, &board, &child_board);
            total += walk_undo((net, scale), describe, &child, acc, depth - 1);
            update(net, acc, &child_board, &board);
        }
        total
    }

    /// The same walk recomputing every accumulator (`rt` is `None`), or through the
    /// engine's thread cache of `rt` (whose scale must be `scale`).
    fn walk_other<G: Notation, B: NnueBoard>(
        (net, scale): (&Quantized, i64),
        describe: Describe<G, B>,
        rt: Option<&Runtime<B>>,
        pos: &G,
        depth: u32,
    ) -> i64 {
        let (board, to_move) = describe(pos);
        let mut total = i64::from(match rt {
            Some(rt) => evaluate(rt, board, to_move),
            None => value(net, &accumulator(net, &board), to_move, scale),
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
            total += walk_other((net, scale), describe, rt, &child, depth - 1);
        }
        total
    }

    /// The nodes of a full-width walk of `depth` plies below `pos`.
    fn count<G: Notation>(pos: &G, depth: u32) -> u64 {
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

    /// Prints the time a node of full-width walks of `depth` plies below each of `positions`
    /// costs with an accumulator kept by copy-make, by update-undo, recomputed at every
    /// node, and through the engine's thread cache of `rt` (it loads `net` as the weights
    /// in use: for a measurement run alone); asserts that all give the same values.
    pub fn measure_strategies<G: Notation, B: NnueBoard>(
        rt: &Runtime<B>,
        net: &Quantized,
        describe: Describe<G, B>,
        positions: &[G],
        depth: u32,
    ) {
        let nodes: u64 = positions.iter().map(|p| count(p, depth)).sum();
        let time = |name: &str, f: &dyn Fn(&G) -> i64| {
            let start = std::time::Instant::now();
            let total: i64 = positions.iter().map(f).sum();
            let secs = start.elapsed().as_secs_f64();
            let ns = secs * 1e9 / nodes as f64;
            println!("{name:>12}: {secs:.3} s, {ns:.0} ns a node of {nodes} (sum {total})");
            total
        };
        let mut sums = Vec::new();
        let ns = (net, rt.score_per_logit);
        time("walk alone", &|pos| count(pos, depth) as i64);
        for _ in 0..2 {
            sums.push(time("copy-make", &|pos| {
                let acc = accumulator(net, &describe(pos).0);
                walk_copy(ns, describe, pos, acc, depth)
            }));
            sums.push(time("update-undo", &|pos| {
                let mut acc = accumulator(net, &describe(pos).0);
                walk_undo(ns, describe, pos, &mut acc, depth)
            }));
            sums.push(time("recompute", &|pos| {
                walk_other(ns, describe, None, pos, depth)
            }));
        }
        rt.in_use.load(Some(net.clone()));
        sums.push(time("cache", &|pos| {
            walk_other(ns, describe, Some(rt), pos, depth)
        }));
        assert!(sums.windows(2).all(|w| w[0] == w[1]), "{sums:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAGIC: &[u8; 8] = b"QTESTQN1";

    fn small_net() -> Network {
        let mut net = Network::zeroed_two_sided(5);
        net.w1[1][0] = 0.5;
        net.w1[2][0] = -0.25;
        net.w1[4][3] = 1.5;
        net.b1[0] = 0.125;
        net.w2[0] = 2.0;
        net.w2_other = Some({
            let mut w = [0.0; HIDDEN];
            w[3] = -1.0;
            w
        });
        net.b2 = 0.5;
        net
    }

    #[test]
    fn weights_survive_the_file_format_and_another_shape_is_refused() {
        let q = Quantized::from_float(&small_net(), "quartet tune test", 4).expect("fits");
        let bytes = q.to_bytes(MAGIC);
        assert_eq!(Quantized::from_bytes(&bytes, MAGIC, 5, 4), Ok(q.clone()));
        assert_eq!(q.header(), "quartet tune test");
        let shape = Quantized::from_bytes(&bytes, MAGIC, 6, 4).expect_err("shape");
        assert!(
            shape.contains("5x32x2") && shape.contains("6x32x2"),
            "{shape}"
        );
        let magic = Quantized::from_bytes(&bytes, b"QTESTQN0", 5, 4).expect_err("magic");
        assert!(magic.contains("QTESTQN0"), "{magic}");
        let cut = Quantized::from_bytes(&bytes[..bytes.len() - 1], MAGIC, 5, 4);
        assert!(cut.expect_err("truncated").contains("weight bytes"));
        assert!(Quantized::from_bytes(&bytes[..20], MAGIC, 5, 4).is_err());
        assert!(Quantized::from_bytes(b"", MAGIC, 5, 4).is_err());
    }

    #[test]
    fn weights_that_could_overflow_the_accumulator_are_refused() {
        let mut net = small_net();
        net.w1[0][5] = 100.0;
        let err = Quantized::from_float(&net, "", 4).expect_err("overflow");
        assert!(err.contains("hidden unit 5"), "{err}");
        assert!(Quantized::from_float(&Network::zeroed(5), "", 4).is_err());
    }

    #[test]
    fn the_integer_output_follows_the_float_network() {
        let net = small_net();
        let q = Quantized::from_float(&net, "", 4).expect("fits");
        let mut acc = Accumulator {
            halves: [[0; HIDDEN]; 2],
        };
        q.refresh(&mut acc.halves[0], [1, 2]);
        q.refresh(&mut acc.halves[1], [4]);
        let float = net.logit_of(&[1, 2], &[4]);
        let int = q.output(&acc.halves[0], &acc.halves[1]) as f32 / (QA * QB) as f32;
        assert!((float - int).abs() < 0.02, "{float} {int}");
        // An update by rows is the refresh of the new set.
        let mut updated = acc;
        q.add(&mut updated, [0, 3]);
        q.remove(&mut updated, [2, 4]);
        let mut fresh = acc;
        q.refresh(&mut fresh.halves[0], [1, 0]);
        q.refresh(&mut fresh.halves[1], [3]);
        assert_eq!(updated, fresh);
    }
}
