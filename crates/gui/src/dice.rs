//! The server's die (issue 12): a chance node's outcome drawn from the weights the engine
//! lists, as a function of the game's seed and the ply, so that a take back and the same
//! decisions again meet the same rolls (no fishing). Plain functions.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The outcome drawn at ply `ply` of a game with dice seed `seed` from a chance node's
/// `outcomes` and their weights: ChaCha8 stream number `ply` of the seed picks each with
/// probability its weight over their sum. `None` when no outcome has a weight.
pub fn roll_at(seed: u64, ply: usize, outcomes: &[(String, u32)]) -> Option<&str> {
    let total: u64 = outcomes.iter().map(|&(_, w)| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(ply as u64);
    let mut pick = rng.random_range(0..total);
    outcomes.iter().find_map(|(token, w)| {
        let here = pick < u64::from(*w);
        pick = pick.saturating_sub(u64::from(*w));
        here.then_some(token.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::roll_at;

    fn die(weights: [u32; 6]) -> Vec<(String, u32)> {
        (1..=6).map(|f| format!("r{f}")).zip(weights).collect()
    }

    #[test]
    fn a_roll_is_a_function_of_the_seed_and_the_ply_and_looks_fair() {
        let fair = die([1; 6]);
        assert_eq!(roll_at(7, 12, &fair), roll_at(7, 12, &fair));
        let mut counts = [0usize; 6];
        for ply in 0..6000 {
            let token = roll_at(7, ply, &fair).expect("a roll");
            counts[fair.iter().position(|(t, _)| t == token).expect("listed")] += 1;
        }
        // Each face 1000 +- 5 sigma (sigma ~ 29).
        assert!(
            counts.iter().all(|&c| (855..=1145).contains(&c)),
            "{counts:?}"
        );
        let other: Vec<_> = (0..20).map(|p| roll_at(8, p, &fair)).collect();
        let this: Vec<_> = (0..20).map(|p| roll_at(7, p, &fair)).collect();
        assert_ne!(this, other, "the seed matters");
    }

    #[test]
    fn a_roll_follows_the_weights_the_engine_lists() {
        // Weight 0 is never drawn; weight 3 of 4 about three times in four.
        let loaded = die([0, 0, 0, 0, 1, 3]);
        let sixes = (0..4000)
            .filter(|&p| roll_at(3, p, &loaded) == Some("r6"))
            .count();
        assert!((0..4000).all(|p| roll_at(3, p, &loaded) != Some("r1")));
        assert!((2850..=3150).contains(&sixes), "{sixes}");
        assert_eq!(roll_at(3, 0, &die([0; 6])), None);
        assert_eq!(roll_at(3, 0, &[]), None);
    }
}
