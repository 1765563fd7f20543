//! Ludo's learned evaluation: a small network that estimates the probability that the side
//! to roll wins, inferred by this code on the search's hot path.
//!
//! **Inputs** (all sparse, each 0 or a count), seen from the side to roll ("us") against the
//! other ("them"), every piece in its owner's frame:
//! - one input per (us, value) and per (them, value), value `b` or `0..=55`, counting the
//!   pieces there ([`SINGLES`] each);
//! - one input per (us value, them value) pair, counting the pairs of pieces ([`PAIRS`]): how
//!   far apart two pieces are decides who can hit whom, and the pair also sees the race;
//! - one input each for one and two sixes already rolled this turn.
//!
//! Pieces at the goal have no input: they take no further part, so a 4-piece position with
//! two pieces of each side home has exactly the inputs of the 2-piece position of the other
//! two. Colours do not appear: the frames make the rules colour-symmetric.
//!
//! **Layers:** the inputs' columns of the first layer are summed into [`HIDDEN`] units (at
//! most 4 + 4 + 16 + 1 columns), each unit goes through a ReLU, and a weighted sum of the
//! units is the logit of P(us wins).
//!
//! The weights are checked-in data (`net.bin`, written by `quartet tune --game ludo`; the
//! README's "Training the evaluations" gives the command); [`Network::from_bytes`] reads
//! them once, at the first evaluation.

use super::{BASE, GOAL, Ludo, MAX_PIECES};
use std::sync::LazyLock;

/// Piece values with an input: `b` and `0..=55` (the goal has none).
pub const VALUES: usize = GOAL as usize + 1;

/// Inputs per side for single pieces.
pub const SINGLES: usize = VALUES;

/// Inputs for pairs of pieces (one of us, one of them).
pub const PAIRS: usize = VALUES * VALUES;

/// The first input for pairs.
const PAIR_BASE: usize = 2 * SINGLES;

/// The inputs for one and for two sixes already rolled.
const SIXES_BASE: usize = PAIR_BASE + PAIRS;

/// All inputs.
pub const INPUTS: usize = SIXES_BASE + 2;

/// Units of the hidden layer.
pub const HIDDEN: usize = 32;

/// The most inputs one position sets (4 + 4 singles, 16 pairs, a sixes count).
pub const MAX_ACTIVE: usize = 25;

/// The first bytes of a weights file, with the format's version.
const MAGIC: &[u8; 8] = b"QLUDONN1";

/// The input index of a piece value (`b` is 0, progress `p` is `p + 1`).
fn slot(value: u8) -> usize {
    if value == BASE {
        0
    } else {
        usize::from(value) + 1
    }
}

/// The inputs a position sets, each listed once per count (a stack of two pieces lists its
/// input twice).
#[derive(Clone, Debug, Default)]
pub struct Active {
    inputs: [u16; MAX_ACTIVE],
    len: usize,
}

impl Active {
    /// The inputs of `pos` seen from its side to move (the side to roll at a chance node;
    /// a pending die is ignored).
    pub fn of(pos: &Ludo) -> Active {
        let us = pos.side_to_move();
        Active::from_pieces(pos.pieces(us), pos.pieces(us.other()), pos.sixes())
    }

    /// The inputs for our pieces `us`, theirs `them` (each in its own frame) and `sixes`
    /// already rolled (a count of 3 counts as 2).
    pub fn from_pieces(us: &[u8], them: &[u8], sixes: u8) -> Active {
        let mut a = Active::default();
        let mut theirs = [0usize; MAX_PIECES];
        let mut n = 0;
        for &t in them.iter().filter(|&&v| v != GOAL) {
            theirs[n] = slot(t);
            a.inputs[a.len] = (SINGLES + theirs[n]) as u16;
            a.len += 1;
            n += 1;
        }
        for &u in us.iter().filter(|&&v| v != GOAL) {
            let u = slot(u);
            a.inputs[a.len] = u as u16;
            a.len += 1;
            for &t in &theirs[..n] {
                a.inputs[a.len] = (PAIR_BASE + u * VALUES + t) as u16;
                a.len += 1;
            }
        }
        if sixes > 0 {
            a.inputs[a.len] = (SIXES_BASE + usize::from(sixes.min(2)) - 1) as u16;
            a.len += 1;
        }
        a
    }

    /// The input indices, with repeats.
    pub fn inputs(&self) -> &[u16] {
        &self.inputs[..self.len]
    }
}

/// The network's weights (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The first layer's column of each input.
    pub w1: Vec<[f32; HIDDEN]>,
    /// The first layer's bias.
    pub b1: [f32; HIDDEN],
    /// The output's weight of each hidden unit.
    pub w2: [f32; HIDDEN],
    /// The output's bias.
    pub b2: f32,
}

impl Network {
    /// A network whose every weight is 0 (its estimate is 1/2 everywhere).
    pub fn zeroed() -> Network {
        Network {
            w1: vec![[0.0; HIDDEN]; INPUTS],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            b2: 0.0,
        }
    }

    /// The hidden layer's sums (before the ReLU) for the inputs `active`.
    pub fn hidden(&self, active: &Active) -> [f32; HIDDEN] {
        let mut h = self.b1;
        for &i in active.inputs() {
            for (x, w) in h.iter_mut().zip(&self.w1[usize::from(i)]) {
                *x += w;
            }
        }
        h
    }

    /// The output (the logit) for the hidden layer's sums `h`: the bias plus each unit's
    /// ReLU times its weight.
    pub fn output(&self, h: &[f32; HIDDEN]) -> f32 {
        let mut out = self.b2;
        for (x, w) in h.iter().zip(&self.w2) {
            out += x.max(0.0) * w;
        }
        out
    }

    /// The logit of P(us wins) for the inputs `active`.
    pub fn logit(&self, active: &Active) -> f32 {
        self.output(&self.hidden(active))
    }

    /// The weights as a file: [`MAGIC`], the input and hidden counts (u32), then every
    /// weight as a little-endian f32: `w1` by input, `b1`, `w2`, `b2`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((INPUTS as u32).to_le_bytes());
        out.extend((HIDDEN as u32).to_le_bytes());
        let weights = self
            .w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(std::iter::once(&self.b2));
        for w in weights {
            out.extend(w.to_le_bytes());
        }
        out
    }

    /// Reads what [`Network::to_bytes`] wrote; an error if the bytes are not such a file of
    /// this network's shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or("not a Ludo network file (magic)")?;
        let (shape, body) = body.split_at_checked(8).ok_or("truncated header")?;
        let inputs = u32::from_le_bytes([shape[0], shape[1], shape[2], shape[3]]);
        let hidden = u32::from_le_bytes([shape[4], shape[5], shape[6], shape[7]]);
        if (inputs as usize, hidden as usize) != (INPUTS, HIDDEN) {
            return Err(format!(
                "shape {inputs}x{hidden}, this build reads {INPUTS}x{HIDDEN}"
            ));
        }
        let count = INPUTS * HIDDEN + 2 * HIDDEN + 1;
        if body.len() != 4 * count {
            return Err(format!(
                "{} weight bytes, expected {}",
                body.len(),
                4 * count
            ));
        }
        let mut weights = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut take = || weights.next().unwrap_or(0.0);
        let mut net = Network::zeroed();
        for column in &mut net.w1 {
            column.iter_mut().for_each(|w| *w = take());
        }
        net.b1.iter_mut().for_each(|w| *w = take());
        net.w2.iter_mut().for_each(|w| *w = take());
        net.b2 = take();
        Ok(net)
    }
}

/// The weights in use, read from `net.bin` at the first evaluation.
static NETWORK: LazyLock<Network> = LazyLock::new(|| {
    Network::from_bytes(include_bytes!("net.bin")).expect("the checked-in net.bin is readable")
});

/// The network in use (the checked-in weights).
pub fn network() -> &'static Network {
    &NETWORK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_count_pieces_and_pairs_and_skip_the_goal() {
        // Us: b, 10, 10, 56; them: 3, 56, 56, 56; one six rolled.
        let a = Active::from_pieces(&[BASE, 10, 10, GOAL], &[3, GOAL, GOAL, GOAL], 1);
        let mut got = a.inputs().to_vec();
        got.sort_unstable();
        let pair = |u: usize, t: usize| (PAIR_BASE + u * VALUES + t) as u16;
        let mut want = vec![
            0,
            11,
            11,
            (SINGLES + 4) as u16,
            pair(0, 4),
            pair(11, 4),
            pair(11, 4),
            SIXES_BASE as u16,
        ];
        want.sort_unstable();
        assert_eq!(got, want);
    }

    #[test]
    fn two_pieces_home_each_leave_the_inputs_of_the_two_piece_game() {
        let four = Active::from_pieces(&[5, 20, GOAL, GOAL], &[BASE, 40, GOAL, GOAL], 0);
        let two = Active::from_pieces(&[5, 20], &[BASE, 40], 0);
        assert_eq!(four.inputs(), two.inputs());
    }

    #[test]
    fn weights_survive_the_file_format() {
        let mut net = Network::zeroed();
        net.w1[7][3] = 0.25;
        net.b1[1] = -1.5;
        net.w2[HIDDEN - 1] = 2.0;
        net.b2 = 0.125;
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net.clone()));
        let bytes = net.to_bytes();
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(b"QLUDONN0").is_err());
    }

    #[test]
    fn the_logit_is_the_output_of_the_layers() {
        let mut net = Network::zeroed();
        // Input 0 (us: a piece in base) feeds unit 0 with 2, unit 1 with -3 (cut by the ReLU).
        net.w1[0][0] = 2.0;
        net.w1[0][1] = -3.0;
        net.b1[0] = 0.5;
        net.w2[0] = 0.5;
        net.w2[1] = 7.0;
        net.b2 = -1.0;
        let a = Active::from_pieces(&[BASE], &[GOAL], 0);
        // (2 + 0.5) * 0.5 - 1 = 0.25; unit 1 is max(0, -3) = 0.
        assert_eq!(net.logit(&a), 0.25);
    }

    #[test]
    fn the_checked_in_weights_are_read() {
        assert_eq!(network().w1.len(), INPUTS);
    }
}
