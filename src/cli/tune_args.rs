//! The command line of `quartet tune` (Texel's fit of a weighted sum, or a network's
//! training), read by both bodies: `super::tune` and `super::tune_net`.

use clap::Args;
use quartet_games::GameKind;
use std::path::PathBuf;

/// `quartet tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game (`quartet games --names` lists them).
    #[arg(long, value_parser = super::game_parser())]
    pub game: GameKind,
    /// Data files written by `quartet selfplay` (or `selfplay merge`).
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<PathBuf>,
    /// Write the generated weights file here (e.g. crates/games/src/duell/weights.rs, or
    /// crates/games/src/ludo/net.bin); without it only the report is printed.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Texel: Adam steps.
    #[arg(long, default_value_t = 2000)]
    pub iterations: usize,
    /// Adam's step size: in evaluation units for a weighted sum (default 1), per weight
    /// for a network (default 0.002).
    #[arg(long)]
    pub learning_rate: Option<f64>,
    /// Texel: ridge penalty toward the starting weights, per weight.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Target = lambda * result + (1 - lambda) * logistic(search score).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Texel: leave out positions whose search score is at least this large (decided games).
    #[arg(long, default_value_t = 2000)]
    pub score_cap: i32,
    /// Texel: keep the positions whose move played was noisy too (Apocalypse: its simultaneous
    /// nodes have no quiescence search, the static value stands at every leaf).
    #[arg(long)]
    pub keep_noisy: bool,
    /// Hold out every game whose index is a multiple of this for validation (0: none).
    #[arg(long, default_value_t = 10)]
    pub holdout_every: u64,
    /// Texel: weights (by name prefix, e.g. `tempo` or `pst`) held at their values.
    #[arg(long, num_args = 0..)]
    pub freeze: Vec<String>,
    /// Network: also fit every chance node of the exactly solved games with this many pieces
    /// per side (Ludo: 1, 2), with their exact values as targets.
    #[arg(long, num_args = 0.., value_parser = clap::value_parser!(u8).range(1..=2))]
    pub exact: Vec<u8>,
    /// Network: the weight of an exact chance node in the loss (a self-play position weighs 1).
    #[arg(long, default_value_t = 1.0)]
    pub exact_weight: f64,
    /// Network: passes over the examples.
    #[arg(long, default_value_t = 6)]
    pub epochs: usize,
    /// Network: examples per Adam step.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Network: seeds the network's initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Train the game's efficiently updatable network (R&B, Duell; see `Eval`) instead of
    /// fitting its weighted sum, and write it in integers (e.g. to
    /// crates/games/src/duell/nnue.bin).
    #[arg(long)]
    pub network: bool,
}

impl TuneArgs {
    /// The data files by their file names (as the reproducing command names them).
    pub fn data_names(&self) -> Vec<String> {
        self.data
            .iter()
            .map(|p| {
                p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            })
            .collect()
    }
}
