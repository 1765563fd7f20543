//! A learned evaluation's shape, shared by every game that has one (Ludo's is the first):
//! sparse inputs, one hidden layer of [`HIDDEN`] units and one output, the logit of
//! P(the side to act wins). A game declares it as [`NetworkTraining`]
//! (`Evaluate::NETWORK`): what its inputs are and how its scores read as winning chances,
//! so `quartet tune` trains it (`quartet_learn::network`) without knowing the game.
//!
//! The first layer's columns of the inputs a position sets are summed, each unit goes
//! through its [`Activation`], and a weighted sum of the units is the logit. A network of
//! two perspectives (NNUE's shape, [`crate::eval::nnue`]) sums the same first layer twice,
//! over the inputs seen from the side to act and over those seen from the other side, and
//! the output weighs the two halves apart ([`Network::w2_other`]).
//!
//! A weights file of one perspective is the game's magic, the input and hidden counts (u32),
//! then every weight as a little-endian f32: `w1` by input, `b1`, `w2`, `b2`. Two-perspective
//! networks are written quantized instead ([`crate::eval::nnue::Quantized`]).

/// Units of the hidden layer.
pub const HIDDEN: usize = 32;

/// What a hidden unit does to its sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `max(0, x)` (Ludo's network).
    Relu,
    /// `clamp(x, 0, 1)`: bounded, so that the integer inference of [`crate::eval::nnue`]
    /// keeps every unit in a known range.
    ClippedRelu,
}

impl Activation {
    /// The unit's output for the sum `x`.
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Relu => x.max(0.0),
            Activation::ClippedRelu => x.clamp(0.0, 1.0),
        }
    }

    /// Whether the gradient flows through a unit whose sum is `x` (the slope is 1, not 0).
    pub fn passes(self, x: f32) -> bool {
        match self {
            Activation::Relu => x > 0.0,
            Activation::ClippedRelu => x > 0.0 && x < 1.0,
        }
    }
}

/// A network's weights (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// The first layer's column of each input (one per input).
    pub w1: Vec<[f32; HIDDEN]>,
    /// The first layer's bias.
    pub b1: [f32; HIDDEN],
    /// The output's weight of each hidden unit (of the side to act's half).
    pub w2: [f32; HIDDEN],
    /// The output's weight of each unit of the other side's half, in a network of two
    /// perspectives; `None` in a network of one.
    pub w2_other: Option<[f32; HIDDEN]>,
    /// The output's bias.
    pub b2: f32,
    /// The hidden units' activation.
    pub activation: Activation,
}

impl Network {
    /// A network of one perspective, `inputs` inputs and ReLU units whose every weight is 0
    /// (its estimate is 1/2 everywhere).
    pub fn zeroed(inputs: usize) -> Network {
        Network {
            w1: vec![[0.0; HIDDEN]; inputs],
            b1: [0.0; HIDDEN],
            w2: [0.0; HIDDEN],
            w2_other: None,
            b2: 0.0,
            activation: Activation::Relu,
        }
    }

    /// A network of two perspectives, `inputs` inputs and clipped ReLU units whose every
    /// weight is 0.
    pub fn zeroed_two_sided(inputs: usize) -> Network {
        Network {
            w2_other: Some([0.0; HIDDEN]),
            activation: Activation::ClippedRelu,
            ..Network::zeroed(inputs)
        }
    }

    /// The number of inputs.
    pub fn inputs(&self) -> usize {
        self.w1.len()
    }

    /// The hidden layer's sums (before the ReLU) for the set inputs `active` (each below
    /// [`Network::inputs`], listed once per count).
    pub fn hidden(&self, active: &[u16]) -> [f32; HIDDEN] {
        let mut h = self.b1;
        for &i in active {
            for (x, w) in h.iter_mut().zip(&self.w1[usize::from(i)]) {
                *x += w;
            }
        }
        h
    }

    /// The output (the logit) for the hidden layer's sums `h` (and `other`, the other
    /// side's half, in a network of two perspectives): the bias plus each unit's activation
    /// times its weight.
    pub fn output(&self, h: &[f32; HIDDEN], other: &[f32; HIDDEN]) -> f32 {
        let mut out = self.b2;
        for (x, w) in h.iter().zip(&self.w2) {
            out += self.activation.apply(*x) * w;
        }
        if let Some(w2) = &self.w2_other {
            for (x, w) in other.iter().zip(w2) {
                out += self.activation.apply(*x) * w;
            }
        }
        out
    }

    /// The logit of P(us wins) for the set inputs `active` of a network of one perspective.
    pub fn logit(&self, active: &[u16]) -> f32 {
        self.output(&self.hidden(active), &[0.0; HIDDEN])
    }

    /// The logit of P(us wins) for the inputs set from our view (`ours`) and from the other
    /// side's (`theirs`, ignored by a network of one perspective).
    pub fn logit_of(&self, ours: &[u16], theirs: &[u16]) -> f32 {
        if self.w2_other.is_some() {
            self.output(&self.hidden(ours), &self.hidden(theirs))
        } else {
            self.logit(ours)
        }
    }

    /// The weights of a network of one perspective as a file that starts with `magic` (see
    /// the module documentation).
    pub fn to_bytes(&self, magic: &[u8; 8]) -> Vec<u8> {
        let mut out = magic.to_vec();
        out.extend((self.inputs() as u32).to_le_bytes());
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

    /// Reads what [`Network::to_bytes`] wrote with `magic` for a network of one perspective,
    /// `inputs` inputs and ReLU units; an error if the bytes are not such a file.
    pub fn from_bytes(bytes: &[u8], magic: &[u8; 8], inputs: usize) -> Result<Network, String> {
        let body = bytes
            .strip_prefix(magic.as_slice())
            .ok_or("not a network file of this game (magic)")?;
        let (shape, body) = body.split_at_checked(8).ok_or("truncated header")?;
        let got_inputs = u32::from_le_bytes([shape[0], shape[1], shape[2], shape[3]]);
        let hidden = u32::from_le_bytes([shape[4], shape[5], shape[6], shape[7]]);
        if (got_inputs as usize, hidden as usize) != (inputs, HIDDEN) {
            return Err(format!(
                "shape {got_inputs}x{hidden}, this build reads {inputs}x{HIDDEN}"
            ));
        }
        let count = inputs * HIDDEN + 2 * HIDDEN + 1;
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
        let mut net = Network::zeroed(inputs);
        for column in &mut net.w1 {
            column.iter_mut().for_each(|w| *w = take());
        }
        net.b1.iter_mut().for_each(|w| *w = take());
        net.w2.iter_mut().for_each(|w| *w = take());
        net.b2 = take();
        Ok(net)
    }
}

/// The chance nodes of an exactly solved small version of a game, for training.
#[derive(Clone, Debug, Default)]
pub struct ExactNodes {
    /// Each unfinished chance node: its set inputs and P(the side to act wins).
    pub nodes: Vec<(Vec<u16>, f32)>,
    /// The seconds the solution took.
    pub seconds: f64,
}

/// A game's trainable network, declared by its evaluation (`Evaluate::NETWORK`).
pub struct NetworkTraining<G> {
    /// The first bytes of the game's weights file.
    pub magic: &'static [u8; 8],
    /// The number of inputs.
    pub inputs: usize,
    /// The inputs a chance node sets, seen from its side to act (listed once per count).
    pub features: fn(&G) -> Vec<u16>,
    /// The first player's winning chance that a score means (the search's, in a data
    /// file, or the static evaluation).
    pub first_win_probability: fn(i32) -> f32,
    /// The exact solution of the game's version of size `n` (Ludo: `n` pieces a side), if
    /// the game has such solutions (`quartet tune --exact n`); an error for a size it
    /// cannot solve.
    pub exact: Option<fn(u8) -> Result<ExactNodes, String>>,
}

impl<G> Clone for NetworkTraining<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for NetworkTraining<G> {}

/// The network `zeroed` (of its shape, every weight 0) with small random first-layer and
/// output weights (uniform, scaled by the fan-in of a typical position) and zero biases.
pub fn initial_network(zeroed: Network, seed: u64) -> Network {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut net = zeroed;
    for column in &mut net.w1 {
        for w in column.iter_mut() {
            *w = rng.random_range(-0.2..0.2);
        }
    }
    for w in &mut net.w2 {
        *w = rng.random_range(-0.3..0.3);
    }
    if let Some(w2) = &mut net.w2_other {
        for w in w2 {
            *w = rng.random_range(-0.3..0.3);
        }
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAGIC: &[u8; 8] = b"QTESTNN1";

    #[test]
    fn weights_survive_the_file_format() {
        let mut net = Network::zeroed(9);
        net.w1[7][3] = 0.25;
        net.b1[1] = -1.5;
        net.w2[HIDDEN - 1] = 2.0;
        net.b2 = 0.125;
        assert_eq!(
            Network::from_bytes(&net.to_bytes(MAGIC), MAGIC, 9),
            Ok(net.clone())
        );
        let bytes = net.to_bytes(MAGIC);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1], MAGIC, 9).is_err());
        assert!(Network::from_bytes(&bytes, MAGIC, 10).is_err());
        assert!(Network::from_bytes(&bytes, b"QTESTNN0", 9).is_err());
    }

    #[test]
    fn the_logit_is_the_output_of_the_layers() {
        let mut net = Network::zeroed(3);
        // Input 0 feeds unit 0 with 2, unit 1 with -3 (cut by the ReLU).
        net.w1[0][0] = 2.0;
        net.w1[0][1] = -3.0;
        net.b1[0] = 0.5;
        net.w2[0] = 0.5;
        net.w2[1] = 7.0;
        net.b2 = -1.0;
        // (2 + 0.5) * 0.5 - 1 = 0.25; unit 1 is max(0, -3) = 0.
        assert_eq!(net.logit(&[0]), 0.25);
        // Input 0 twice: (4 + 0.5) * 0.5 - 1 = 1.25.
        assert_eq!(net.logit(&[0, 0]), 1.25);
    }
}
