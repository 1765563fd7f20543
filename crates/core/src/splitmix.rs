//! SplitMix64 (Steele, Lea and Flood 2014): a fixed, well-mixed sequence of 64-bit values
//! from a seed. The games' Zobrist keys are generated from it at compile time (no runtime
//! randomness: hashes are the same in every run) and the referee derives seeds with it.

/// The increment of the state per step (the golden ratio in 64 bits).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step: advances `state` and returns the next output.
pub const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GOLDEN_GAMMA);
    finalise(*state)
}

/// SplitMix64's output function: a bijective scrambling of 64 bits.
pub const fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reference_sequence_from_seed_0() {
        // The first outputs of the reference implementation (Vigna's splitmix64.c) from 0.
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(s, GOLDEN_GAMMA.wrapping_mul(2));
    }
}
