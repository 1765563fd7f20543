//! Static evaluation and move-ordering knowledge for Duell.
//!
//! The value (White's view, in hundredths of an ordinary die) is a weighted sum of terms
//! (the weights are fitted by `quartet tune` and live in the generated `weights.rs`), per
//! side:
//! - material: a piece-square-top table, the value of a die with top `n` on a square (files
//!   folded, ranks counted from the own side). It started as a die's worth plus its
//!   *potential*, the paths a die has from there on an empty board;
//! - mobility: per path whose first step is open (an empty square, or for a die showing 1 a
//!   square without an own piece). This counts the legal moves exactly except for paths
//!   blocked further along, at a fraction of the cost of generating them;
//! - key danger: enemy pieces that can capture the key of the side to move next move (the
//!   attacker is to move when it is decisive: see below), and own dice beside the own key,
//!   which close the squares an attacker must pass through last;
//! - key pressure: own dice within 6 steps of the enemy key, a weight per distance;
//! - the key race: how close the own key is to the enemy key square, a base weight plus one
//!   per missing die (it matters more as the board empties);
//! - a bonus for the side to move.
//!
//! When the side to move can win at once the value is a fixed [`WIN_NEXT_MOVE`].
//! Nothing here generates moves: every term is a table lookup, a bitboard shift or a
//! path-mask test from `attacks.rs`.

use super::attacks::{DIR_PATHS, DIST, reaches};
use super::board::{E1, E8, FILES, NEIGHBOUR, SQUARES, Square, bit, file_of, rank_of};
use super::movegen::Move;
use super::piece::{self, EMPTY, VALUE};
use super::{Duell, NO_SQUARE};
use quartet_core::eval::nnue::NnueSpec;
use quartet_core::eval::tunable::{Sum, Terms, Tunable, TunableEval};
use quartet_core::eval::{EVAL_LIMIT, Evaluate, Pruning};
use quartet_core::game::{MoveList, Player};

#[path = "hand_weights.rs"]
mod hand_weights;
#[path = "nnue.rs"]
mod nnue;
#[path = "weights.rs"]
mod weights;
use weights::WEIGHTS;

/// Null-move pruning needs at least this many ordinary dice (not the key) on the mover's
/// side.
const NULL_MOVE_MIN_DICE: u32 = 3;

/// When the side to move can take the enemy key (or step its key onto the enemy key square).
const WIN_NEXT_MOVE: i32 = 5_000;

/// Weight: per path with an open first step.
const MOBILITY: usize = 0;
/// Weights: per own die at distance 1..=6 from the enemy key (index + distance - 1).
const PRESSURE: usize = 1;
/// Weight: per own die orthogonally beside the own key.
const SHIELD: usize = 7;
/// Weight: per step the own key is nearer the enemy key square than 15 steps.
const RACE: usize = 8;
/// Weight: the same per step and per missing die (of 16 at the start).
const RACE_PER_MISSING: usize = 9;
/// Weight: per enemy piece that can take the key of the side to move.
const KEY_ATTACKER: usize = 10;
/// Weight: the enemy key stands beside the own key square with a way onto it.
const KEY_STEPS_HOME: usize = 11;
/// Weight: for the side to move.
const TEMPO: usize = 12;
/// Weights: the piece-square-top table, `PST + 6 * class + top - 1` (see [`square_class`]).
const PST: usize = 13;
/// Square classes: 5 folded files times 8 ranks.
const CLASSES: usize = 40;
/// The number of weights.
const WEIGHT_COUNT: usize = PST + 6 * CLASSES;

/// The class of square `s` for `side`: the file folded onto a..e, the rank counted from
/// `side`'s home rank (so both sides and both wings share entries).
const fn square_class(side: usize, s: usize) -> usize {
    let file = file_of(s as Square) as usize;
    let folded = if file * 2 > (FILES as usize - 1) {
        FILES as usize - 1 - file
    } else {
        file
    };
    let rank = rank_of(s as Square) as usize;
    let own_rank = if side == 0 { rank } else { 7 - rank };
    own_rank * 5 + folded
}

/// `PST_INDEX[side][s]`: the weight of a die of `side` on `s` with top 1 (top `n` adds
/// `n - 1`).
static PST_INDEX: [[u16; SQUARES]; 2] = {
    let mut t = [[0u16; SQUARES]; 2];
    let mut side = 0;
    while side < 2 {
        let mut s = 0;
        while s < SQUARES {
            t[side][s] = (PST + 6 * square_class(side, s)) as u16;
            s += 1;
        }
        side += 1;
    }
    t
};

/// The other side's key square: the one `side`'s key wins on.
#[inline]
fn target_square(side: Player) -> Square {
    match side {
        Player::First => E8,
        Player::Second => E1,
    }
}

impl Duell {
    /// The number of `by`'s pieces that can land on `target` next move.
    fn attackers(&self, by: Player, target: Square) -> i32 {
        let occ = self.occ[0] | self.occ[1];
        let mut rest = self.occ[by.index()];
        let mut count = 0;
        while rest != 0 {
            let s = rest.trailing_zeros() as Square;
            rest &= rest - 1;
            let n = VALUE[self.board[s as usize] as usize];
            count += reaches(s, n, target, occ) as i32;
        }
        count
    }

    /// Whether `side`'s key stands beside the enemy key square with a way onto it.
    fn key_steps_home(&self, side: Player) -> bool {
        let key = self.keys[side.index()];
        let target = target_square(side);
        key != NO_SQUARE
            && DIST[key as usize][target as usize] == 1
            && self.occ[side.index()] & bit(target) == 0
    }

    /// Whether `side`, if it were to move, could win at once.
    fn wins_next_move(&self, side: Player) -> bool {
        let their_key = self.keys[side.other().index()];
        their_key != NO_SQUARE && (self.key_steps_home(side) || self.attackers(side, their_key) > 0)
    }

    /// Feeds `side`'s own terms to `t`, each counted `sign` times (+1 for White, -1 for
    /// Black); `missing` dice are off the board.
    #[inline(always)]
    fn side_terms<T: Terms>(&self, side: Player, sign: i32, missing: i32, t: &mut T) {
        let key = self.keys[side.index()];
        let enemy_key = self.keys[side.other().index()];
        let mut dice = self.occ[side.index()];
        if key != NO_SQUARE {
            dice &= !bit(key);
        }
        let pst = &PST_INDEX[side.index()];
        let mut mobility = 0;
        let mut pressure = [0i32; 6];
        let mut rest = dice;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let n = VALUE[self.board[s] as usize] as usize;
            t.add(pst[s] as usize + n - 1, sign);
            let paths = &DIR_PATHS[s][n];
            for (d, &next) in NEIGHBOUR[s].iter().enumerate() {
                // Off the board `next` is `s`, an own piece: closed.
                let q = self.board[next as usize];
                let open = q == EMPTY || (n == 1 && piece::owner(q) != side);
                mobility += open as i32 * paths[d] as i32;
            }
            if enemy_key != NO_SQUARE {
                let d = DIST[s][enemy_key as usize] as usize;
                if (1..=6).contains(&d) {
                    pressure[d - 1] += 1;
                }
            }
        }
        t.add(MOBILITY, sign * mobility);
        for (d, &count) in pressure.iter().enumerate() {
            t.add(PRESSURE + d, sign * count);
        }
        if key != NO_SQUARE {
            let mut shield = 0;
            for &next in &NEIGHBOUR[key as usize] {
                shield += (dice & bit(next) != 0) as i32;
            }
            t.add(SHIELD, sign * shield);
            let race = 15 - DIST[key as usize][target_square(side) as usize] as i32;
            t.add(RACE, sign * race);
            t.add(RACE_PER_MISSING, sign * race * missing);
        }
    }

    /// Feeds the static value's terms (White's view) to `t`.
    #[inline(always)]
    fn eval_terms<T: Terms>(&self, t: &mut T) {
        let us = self.side;
        let them = us.other();
        let sign = us.sign();
        if self.wins_next_move(us) {
            t.fixed(sign * WIN_NEXT_MOVE);
            return;
        }
        let dice = (self.occ[0] | self.occ[1]).count_ones() as i32 - 2;
        let missing = (16 - dice).max(0);
        self.side_terms(us, sign, missing, t);
        self.side_terms(them, -sign, missing, t);
        let our_key = self.keys[us.index()];
        if our_key != NO_SQUARE {
            t.add(KEY_ATTACKER, -sign * self.attackers(them, our_key));
        }
        if self.key_steps_home(them) {
            t.add(KEY_STEPS_HOME, -sign);
        }
        t.add(TEMPO, sign);
    }
}

impl Tunable for Duell {
    const WEIGHTS_FILE: &'static str = "crates/games/src/duell/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn start_weights() -> &'static [i32] {
        &hand_weights::WEIGHTS
    }

    fn weight_names() -> Vec<String> {
        let mut names = vec!["mobility".to_string()];
        names.extend((1..=6).map(|d| format!("pressure[distance {d}]")));
        for name in [
            "shield",
            "race",
            "race_per_missing",
            "key_attacker",
            "key_steps_home",
            "tempo",
        ] {
            names.push(name.to_string());
        }
        for class in 0..CLASSES {
            let (rank, file) = (class / 5, class % 5);
            for top in 1..=6 {
                names.push(format!(
                    "pst[{}{} top {top}]",
                    (b'a' + file as u8) as char,
                    rank + 1
                ));
            }
        }
        debug_assert_eq!(names.len(), WEIGHT_COUNT);
        names
    }

    fn terms<T: Terms>(&self, terms: &mut T) {
        self.eval_terms(terms);
    }
}

impl Evaluate for Duell {
    const TUNABLE: Option<TunableEval<Self>> = Some(TunableEval::of());
    const NNUE: Option<NnueSpec<Self>> = Some(nnue::SPEC);
    /// The skill noise scale the levels of `SKILL_ELO` (mod.rs) were measured with.
    const SKILL_UNIT: f64 = 100.0;

    /// About a pawn's worth a ply.
    const PRUNING: Option<Pruning> = Some(Pruning { margin: 100 });
    const MOVE_CODES: usize = SQUARES * SQUARES * 5;

    fn noisy_moves(&self, p: Player, out: &mut MoveList<Move>) {
        self.generate_noisy(p, out);
    }

    /// The classical sum of terms, or the network when the `Eval` option chose it.
    fn evaluate(&self) -> i32 {
        if nnue::IN_USE.network() {
            return nnue::evaluate(self);
        }
        let mut sum = Sum::new(&WEIGHTS);
        self.eval_terms(&mut sum);
        sum.total.clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
    }

    fn is_noisy(&self, m: Move) -> bool {
        let us = self.side.index();
        self.occ[1 - us] & bit(m.to()) != 0
            || (m.from() == self.keys[us] && m.to() == target_square(self.side))
    }

    fn order_hint(&self, m: Move) -> i32 {
        let mover = self.board[m.from() as usize];
        let victim = self.board[m.to() as usize];
        let wins = (victim != EMPTY && piece::is_key(victim))
            || (piece::is_key(mover) && m.to() == target_square(self.side));
        if wins {
            return 10_000;
        }
        if victim == EMPTY {
            return 0;
        }
        // Most valuable victim first (a high top is more potential), then least valuable
        // attacker (a key capturing is riskiest, so it counts as the most valuable).
        let attacker = if piece::is_key(mover) {
            7
        } else {
            VALUE[mover as usize] as i32
        };
        1_000 + 16 * VALUE[victim as usize] as i32 - attacker
    }

    /// Passing is offered while the side to move has at least `NULL_MOVE_MIN_DICE`
    /// ordinary dice: with that many, one of them can nearly always make a harmless move,
    /// so having to move is rarely a disadvantage (zugzwang is rare). The counters advance
    /// as after a quiet move.
    fn null_move(&self) -> Option<Duell> {
        let us = self.side.index();
        let dice = self.occ[us].count_ones() - u32::from(self.keys[us] != NO_SQUARE);
        if dice < NULL_MOVE_MIN_DICE || self.decided().is_some() {
            return None;
        }
        let mut child = self.clone();
        child.pass_turn();
        Some(child)
    }

    /// The enemy could take the key of the side to move, or step its key onto the key
    /// square of the side to move.
    fn in_danger(&self) -> bool {
        self.wins_next_move(self.side.other())
    }

    fn move_code(m: Move) -> u32 {
        let suffix = m.suffix().map_or(0, |d| 1 + d as u32);
        (m.from() as u32 * SQUARES as u32 + m.to() as u32) * 5 + suffix
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;
