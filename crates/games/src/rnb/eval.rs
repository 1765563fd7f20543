//! `Evaluate` for R&B: a static value from South's view, built from terms each side earns
//! (material, mobility, weak shapes, the line rule, the king's safety and its road to the
//! enemy base) and the immediate threats, which depend on who is to move. Placements are
//! judged by the same shape terms, since no piece can be attacked during placement.

use super::arrangement::ARRANGEMENTS;
use super::geometry::{
    Bitboard, Direction, HEIGHT, LINE_LENGTH, ORTHOGONAL, SQUARES, Square, base, rank_mask, spread,
};
use super::moves::Move;
use super::pieces::Colour;
use super::position::{Rnb, step_count};
use super::threats::threatened_by;
use quartet_core::eval::nnue::NnueSpec;
use quartet_core::eval::tunable::{Sum, Terms, Tunable, TunableEval};
use quartet_core::eval::{EVAL_LIMIT, Evaluate, Pruning};
use quartet_core::game::Player;

/// The king: present on both sides in every running game (its capture ends it), so it
/// cancels; kept as a fixed term so that a position without a king still scores.
const KING: i32 = 2_000;
/// The side to move can capture the enemy king right away (fixed: the game is as good as won).
const KING_CAPTURE_NOW: i32 = 5_000;
/// Victim values for move ordering.
const ORDER_SOLDIER: i32 = 100;
const ORDER_KING: i32 = 10_000;

/// Weight: a soldier on the board or in hand.
const SOLDIER: usize = 0;
/// Weight: a soldier in hand, beyond [`SOLDIER`].
const IN_HAND: usize = 1;
/// Weight: per legal step.
const MOBILITY: usize = 2;
/// Weight: a non-X piece with an own X soldier behind it and an empty square in front: an
/// enemy X soldier stepping there takes it by the Dual rule (if the enemy still owns X
/// soldiers).
const DUAL_WEAK_SOLDIER: usize = 3;
/// Weight: the same shape around the king.
const DUAL_WEAK_KING: usize = 4;
/// Weight: an empty orthogonal neighbour of the king with the board continuing behind the
/// king: a landing square for a sandwich.
const KING_OPEN_SIDE: usize = 5;
/// Weight: a rank one piece short of a losing line, with the last square empty: that
/// square is closed to the side's own pieces.
const LINE_DANGER: usize = 6;
/// Weight: the side to move can capture a soldier right away.
const CAPTURE_NOW: usize = 7;
/// Weight: each further soldier the side to move can capture right away.
const CAPTURE_MORE: usize = 8;
/// Weight: a soldier of the side to move that the enemy threatens.
const HANGING: usize = 9;
/// Weight: the king of the side to move is threatened.
const KING_HANGING: usize = 10;
/// Weight: the side to move.
const TEMPO: usize = 11;
/// Weights: the king 1..=6 steps from the empty enemy base (index + steps - 1).
const KING_NEAR_BASE: usize = 12;
/// Weights: the king reaches the enemy base before any defender can occupy it, by steps.
const KING_WINS_RACE: usize = 18;
/// Weights: a soldier on the board by its rank counted from the own back rank (0..=5).
const SOLDIER_RANK: usize = 24;
/// The number of weights.
const WEIGHT_COUNT: usize = SOLDIER_RANK + HEIGHT as usize;
/// The farthest king distance the road terms count.
const ROAD_STEPS: usize = 6;

#[path = "hand_weights.rs"]
mod hand_weights;
#[path = "nnue.rs"]
mod nnue;
#[path = "weights.rs"]
mod weights;
use weights::WEIGHTS;

impl Tunable for Rnb {
    const WEIGHTS_FILE: &'static str = "crates/games/src/rnb/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn start_weights() -> &'static [i32] {
        &hand_weights::WEIGHTS
    }

    fn weight_names() -> Vec<String> {
        let mut names: Vec<String> = [
            "soldier",
            "in_hand",
            "mobility",
            "dual_weak_soldier",
            "dual_weak_king",
            "king_open_side",
            "line_danger",
            "capture_now",
            "capture_more",
            "hanging",
            "king_hanging",
            "tempo",
        ]
        .map(String::from)
        .into();
        names.extend((1..=ROAD_STEPS).map(|d| format!("king_near_base[{d} steps]")));
        names.extend((1..=ROAD_STEPS).map(|d| format!("king_wins_race[{d} steps]")));
        names.extend((0..HEIGHT).map(|r| format!("soldier_rank[{}]", r + 1)));
        debug_assert_eq!(names.len(), WEIGHT_COUNT);
        names
    }

    fn terms<T: Terms>(&self, terms: &mut T) {
        self.eval_terms(terms);
    }
}

impl Evaluate for Rnb {
    const TUNABLE: Option<TunableEval<Self>> = Some(TunableEval::of());
    const NNUE: Option<NnueSpec<Self>> = Some(nnue::SPEC);
    /// The skill noise scale the levels of `SKILL_ELO` (mod.rs) were measured with.
    const SKILL_UNIT: f64 = 100.0;

    /// About a pawn's worth a ply.
    const PRUNING: Option<Pruning> = Some(Pruning { margin: 100 });
    /// Placements `colour·SQUARES + to`, then steps `2·SQUARES + from·SQUARES + to`, then
    /// arrangements by their rank (each side's codes are its own: history is per player).
    const MOVE_CODES: usize = 2 * SQUARES + SQUARES * SQUARES + ARRANGEMENTS as usize;

    /// The classical sum of terms, or the network when the `Eval` option chose it.
    fn evaluate(&self) -> i32 {
        if nnue::IN_USE.network() {
            return nnue::evaluate(self);
        }
        let mut sum = Sum::new(&WEIGHTS);
        self.eval_terms(&mut sum);
        sum.total.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }

    /// Steps that capture, and king steps onto the empty enemy base (they win at once);
    /// never a placement or an arrangement.
    fn is_noisy(&self, m: Move) -> bool {
        match m {
            Move::Place { .. } | Move::Arrange(_) => false,
            Move::Step { from, to } => {
                self.step_captures(from, to) != 0 || self.enters_enemy_base(from, to)
            }
        }
    }

    /// The value of what the move takes (a king, or a base entry, counts as winning).
    fn order_hint(&self, m: Move) -> i32 {
        match m {
            Move::Place { .. } | Move::Arrange(_) => 0,
            Move::Step { from, to } => {
                let taken = self.step_captures(from, to);
                let soldiers = (taken & !self.kings).count_ones() as i32;
                let king = taken & self.kings != 0 || self.enters_enemy_base(from, to);
                soldiers * ORDER_SOLDIER + if king { ORDER_KING } else { 0 }
            }
        }
    }

    /// In the movement phase: the enemy could capture the king of the side to move, or
    /// step its king onto the empty base of the side to move.
    fn in_danger(&self) -> bool {
        if self.in_placement() {
            return false;
        }
        let enemy = self.to_move.other();
        let home = base(self.to_move).bit();
        let enemy_king = self.kings & self.sides[enemy.index()];
        threatened_by(self, enemy) & self.kings != 0
            || (home & self.empty() != 0 && spread(enemy_king) & home != 0)
    }

    fn move_code(m: Move) -> u32 {
        let code = match m {
            Move::Place { colour, to } => colour.index() * SQUARES + to.index(),
            Move::Step { from, to } => 2 * SQUARES + from.index() * SQUARES + to.index(),
            Move::Arrange(a) => 2 * SQUARES + SQUARES * SQUARES + a.rank() as usize,
        };
        code as u32
    }
}

impl Rnb {
    /// Whether the step moves the side to move's king onto the enemy base.
    fn enters_enemy_base(&self, from: Square, to: Square) -> bool {
        to == base(self.to_move.other()) && self.kings & from.bit() != 0
    }

    /// Feeds the static value's terms (South's view) to `t`.
    #[inline(always)]
    fn eval_terms<T: Terms>(&self, t: &mut T) {
        let side = self.to_move;
        let enemy = side.other();
        let sign = side.sign();
        self.side_terms(side, sign, t);
        self.side_terms(enemy, -sign, t);
        t.add(TEMPO, sign);
        let mine = threatened_by(self, side);
        if mine & self.kings != 0 {
            t.fixed(sign * KING_CAPTURE_NOW);
        } else {
            let n = mine.count_ones() as i32;
            if n > 0 {
                t.add(CAPTURE_NOW, sign);
                t.add(CAPTURE_MORE, sign * (n - 1));
            }
        }
        let theirs = threatened_by(self, enemy);
        if theirs & self.kings != 0 {
            t.add(KING_HANGING, -sign);
        }
        t.add(HANGING, -sign * (theirs & !self.kings).count_ones() as i32);
    }

    /// Feeds the terms `p` earns whoever is to move to `t`, counted `sign` times.
    #[inline(always)]
    fn side_terms<T: Terms>(&self, p: Player, sign: i32, t: &mut T) {
        let own = self.sides[p.index()];
        let enemy = self.sides[p.other().index()];
        let empty = self.empty();
        let king = own & self.kings;
        let hand: u8 = self.hands[p.index()].iter().sum();
        let on_board = own & !self.kings;
        t.add(
            SOLDIER,
            sign * (on_board.count_ones() as i32 + i32::from(hand)),
        );
        t.add(IN_HAND, sign * i32::from(hand));
        if king != 0 {
            t.fixed(sign * KING);
        }
        t.add(MOBILITY, sign * step_count(own, empty) as i32);
        let mut danger = 0;
        for rank in 0..HEIGHT {
            let row = rank_mask(rank);
            if (own & row).count_ones() + 1 >= u32::from(LINE_LENGTH) && empty & row != 0 {
                danger += 1;
            }
            let own_rank = match p {
                Player::First => rank,
                Player::Second => HEIGHT - 1 - rank,
            };
            t.add(
                SOLDIER_RANK + own_rank as usize,
                sign * (on_board & row).count_ones() as i32,
            );
        }
        t.add(LINE_DANGER, -sign * danger);
        // Backers of a Dual capture: own X soldiers, while the enemy still owns X soldiers.
        let backers = Colour::ALL.map(|colour| {
            let enemy_has = enemy & self.colour(colour) != 0 || self.hand(p.other(), colour) > 0;
            if enemy_has {
                own & self.colour(colour)
            } else {
                0
            }
        });
        // Unrolled, so that each call shifts by a constant direction.
        let shapes = [
            weak_shapes(ORTHOGONAL[0], backers, own, king, empty),
            weak_shapes(ORTHOGONAL[1], backers, own, king, empty),
            weak_shapes(ORTHOGONAL[2], backers, own, king, empty),
            weak_shapes(ORTHOGONAL[3], backers, own, king, empty),
        ];
        let total = |k: usize| shapes.iter().map(|s| s[k]).sum::<i32>();
        t.add(DUAL_WEAK_SOLDIER, -sign * total(0));
        t.add(DUAL_WEAK_KING, -sign * total(1));
        t.add(KING_OPEN_SIDE, -sign * total(2));
        self.king_road(p, king, sign, t);
    }

    /// The king's road to the enemy base: a term by its distance through empty squares,
    /// and another when no defender can occupy the base in time.
    fn king_road<T: Terms>(&self, p: Player, king: Bitboard, sign: i32, t: &mut T) {
        let target = base(p.other()).bit();
        let empty = self.empty();
        if king == 0 || target & empty == 0 {
            return;
        }
        let defenders = self.sides[p.other().index()];
        let mut reached = target;
        let mut king_steps = 0;
        let mut defender_steps = 0;
        for steps in 1..=ROAD_STEPS {
            let around = spread(reached);
            if king_steps == 0 && around & king != 0 {
                king_steps = steps;
            }
            if defender_steps == 0 && around & defenders != 0 {
                defender_steps = steps;
            }
            if king_steps != 0 && defender_steps != 0 {
                break;
            }
            reached = around & empty;
        }
        if king_steps == 0 {
            return;
        }
        t.add(KING_NEAR_BASE + king_steps - 1, sign);
        let first = p == self.to_move;
        let defenders_late = defender_steps == 0
            || king_steps < defender_steps
            || (first && king_steps == defender_steps);
        if defenders_late && !self.in_placement() {
            t.add(KING_WINS_RACE + king_steps - 1, sign);
        }
    }
}

/// The weak shapes of one side along direction `dir` (`d`): `[soldiers, king, open]`, the
/// non-king and king pieces open to a Dual capture (not an X soldier, an own X soldier on
/// `+d`, an empty landing square on `-d`), and whether the king has an empty square on `-d`
/// with the board going on at `+d`.
#[inline(always)]
fn weak_shapes(
    dir: Direction,
    backers: [Bitboard; 2],
    own: Bitboard,
    king: Bitboard,
    empty: Bitboard,
) -> [i32; 3] {
    let landing_behind = dir.shift(empty);
    let mut counts = [0; 3];
    for backer in backers {
        let weak = own & !backer & dir.opposite().shift(backer) & landing_behind;
        counts[0] += (weak & !king).count_ones() as i32;
        counts[1] += (weak & king).count_ones() as i32;
    }
    if king & landing_behind != 0 && dir.shift(king) != 0 {
        counts[2] = 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::super::Rnb;
    use super::super::geometry::{Bitboard, SQUARES};
    use super::{KING_NEAR_BASE, TEMPO, WEIGHTS};
    use quartet_core::eval::{EVAL_LIMIT, Evaluate};
    use quartet_core::game::{Action, Game, Node, RuleOptions};
    use quartet_core::notation::Notation;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    fn parse(text: &str) -> Rnb {
        Rnb::parse_position(text, &RuleOptions::default()).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The position turned 180° with the sides swapped: South's view becomes North's.
    /// Built directly, since a turned placement position has North placing first.
    fn turned(pos: &Rnb) -> Rnb {
        let turn = |set: Bitboard| set.reverse_bits() >> (64 - SQUARES);
        Rnb::from_parts(
            [turn(pos.sides[1]), turn(pos.sides[0])],
            turn(pos.red),
            turn(pos.kings),
            [pos.hands[1], pos.hands[0]],
            pos.to_move.other(),
            pos.quiet_plies,
            pos.setup,
        )
    }

    #[test]
    fn the_evaluation_is_antisymmetric_under_a_half_turn() {
        for text in [
            "2k3/6/6/6/6/3K2 s 4444 0",
            "1bk1r1/rb1b2/2r1b1/1B2R1/R1B1R1/B2KB1 s 0000 0",
            "1bk1r1/rb1b2/2r1b1/1B2R1/R1B1R1/B2KB1 n 0000 0",
            "2k3/6/3R2/Rrb3/6/3K2 s 0000 0",
            "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0",
            "2k3/rbrb2/6/6/6/RBRKB1 s 2222 0",
            "r1k3/6/6/6/6/1B1KR1 n 3334 0",
            "5k/6/2K3/6/6/6 s 0000 0",
            "5k/6/2K3/6/6/6 n 0000 0",
        ] {
            let pos = parse(text);
            assert_eq!(pos.evaluate(), -turned(&pos).evaluate(), "{text}");
        }
    }

    #[test]
    fn evaluations_stay_inside_the_limit_along_random_games() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..100 {
            let mut pos = Rnb::start(&RuleOptions::default());
            while let Node::Turn(_) = pos.node() {
                let value = pos.evaluate();
                assert!(value.abs() < EVAL_LIMIT);
                let actions = pos.actions();
                let mut codes = HashSet::new();
                for &action in &actions {
                    let Action::Single(m) = action else {
                        unreachable!()
                    };
                    assert!((Rnb::move_code(m) as usize) < Rnb::MOVE_CODES);
                    assert!(codes.insert(Rnb::move_code(m)), "codes are distinct");
                    let mut child = pos.clone();
                    child.play(m);
                    let captured = child.occupied().count_ones() < pos.occupied().count_ones();
                    let won = matches!(child.node(), Node::Terminal(_));
                    if captured {
                        assert!(pos.is_noisy(m) && pos.order_hint(m) > 0);
                    } else if !won {
                        assert!(!pos.is_noisy(m) && pos.order_hint(m) == 0);
                    }
                }
                pos.apply(actions[rng.random_range(0..actions.len())]);
            }
        }
    }

    #[test]
    fn material_and_threats_move_the_value_the_right_way() {
        // South up a soldier.
        assert!(parse("2k3/6/6/6/1R4/3K2 s 0000 0").evaluate() > 50);
        // South to move can take two pieces (worked example 1): better for South than the
        // same pieces hanging with North to move, by more than the tempo.
        let s = parse("2k3/6/3R2/Rrb3/6/3K2 s 0000 0").evaluate();
        let n = parse("2k3/6/3R2/Rrb3/6/3K2 n 0000 0").evaluate();
        assert!(s > n + 2 * WEIGHTS[TEMPO], "{s} vs {n}");
        // South can take the king (worked example 7): close to a win.
        assert!(parse("6/6/2R3/rk4/6/3K2 s 0000 0").evaluate() > 4_000);
    }

    #[test]
    fn a_king_near_the_empty_enemy_base_is_worth_more() {
        let near = parse("5k/6/2K3/6/6/6 n 0000 0").evaluate();
        let far = parse("5k/6/6/6/6/2K3 n 0000 0").evaluate();
        assert!(near > far + WEIGHTS[KING_NEAR_BASE + 1], "{near} vs {far}");
        // With the base occupied by a North soldier there is no road.
        let blocked = parse("2b2k/6/2K3/6/6/6 n 0000 0").evaluate();
        assert!(blocked < near);
    }

    #[test]
    fn a_side_is_in_danger_when_the_enemy_could_win_at_once() {
        // North's king on d2 steps onto South's empty base d1 (rule 1.6-3).
        assert!(parse("6/6/K5/6/3k2/6 s 0000 0").in_danger());
        assert!(!parse("6/6/K5/6/3k2/6 n 0000 0").in_danger());
        // North's red soldier c4 steps to c3 and closes a red run around South's king on b3
        // (a3 red): the king would be captured (rule 1.5).
        assert!(parse("2k3/6/2r3/rK4/6/6 s 0000 0").in_danger());
        // With a black soldier on a3 the two ends are of different colours: no capture.
        assert!(!parse("2k3/6/2r3/bK4/6/6 s 0000 0").in_danger());
        // Nothing is captured while soldiers are placed.
        assert!(!parse("2k3/rbrb2/6/6/6/RBRKB1 s 2222 0").in_danger());
    }

    #[test]
    fn placements_that_invite_a_dual_capture_of_the_king_score_lower() {
        // With c1 empty, an enemy r landing there would take the king (R e1 behind it);
        // with the B on c1 both sides of the king are closed, though it moves less.
        let closed = parse("r1k3/6/6/6/6/2BKR1 n 3334 0").evaluate();
        let open = parse("r1k3/6/6/6/6/1B1KR1 n 3334 0").evaluate();
        assert!(closed > open, "{closed} vs {open}");
    }
}
