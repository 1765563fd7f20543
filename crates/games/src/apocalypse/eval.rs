//! Search knowledge for Apocalypse: a static evaluation from material, pawn advancement and
//! files, pawns that are blocked or a step from promotion (or redeploy), knight squares and
//! mobility, attacked and defended pieces, and penalty points (or, with `Eval network`, the
//! network of `nnue.rs`); noisy moves are captures and last-rank arrivals.

use super::board::{
    KNIGHT_MASKS, MOVE_CODE_COUNT, Move, Piece, SIZE, file_of, folded_file_mask, last_rank,
    pawn_attacks, rank_mask, rank_of, step_forward,
};
use super::rules::Apocalypse;
use quartet_core::eval::Evaluate;
use quartet_core::eval::nnue::NnueSpec;
use quartet_core::eval::tunable::{Sum, Terms, Tunable, TunableEval};
use quartet_core::game::{Outcome, Player};

/// The value of a won game. Values are expectations over mixed strategies, so a win is a
/// plain number, not a mate score: a 50 % chance of winning is worth half a win. One point
/// less per ply prefers quick wins.
pub const WIN: i32 = 10_000;

/// The search's static values are expected results ([`expected`]): this many points per
/// unit of P(White wins) − P(Black wins), so a certain static win (9000) stays below a won
/// game's value less 1000 plies.
const EXPECTED: f64 = 9000.0;

/// Weight: one knight.
const KNIGHT: usize = 0;
/// Weights: a side's whole pawn set by its size 1..=5 (index + size - 1). Each further
/// pawn adds less: losing the last pawn loses the game, so the last ones are worth the most.
const PAWN_SET: usize = 1;
/// Weights: a pawn advanced 1..=3 ranks from its own back rank (it never stands on the
/// last).
const ADVANCE: usize = 6;
/// Weight: a knight that an enemy knight or pawn attacks (it may be taken, or must move).
const KNIGHT_ATTACKED: usize = 9;
/// Weight: a pawn that an enemy knight or pawn attacks.
const PAWN_ATTACKED: usize = 10;
/// Weight: per penalty point (one more void declaration loses at two).
const PENALTY: usize = 11;
/// Weights: a knight by its square (files folded onto a..c, ranks from the own side).
const KNIGHT_SQUARE: usize = 12;
/// Weight: a knight that an enemy pawn attacks (on top of [`KNIGHT_ATTACKED`]: the cheaper
/// attacker makes the threat worse).
const KNIGHT_ATTACKED_BY_PAWN: usize = KNIGHT_SQUARE + 15;
/// Weight: a pawn that an own knight or pawn defends (it can retake on its square).
const PAWN_DEFENDED: usize = KNIGHT_ATTACKED_BY_PAWN + 1;
/// Weight: a knight that an own knight or pawn defends.
const KNIGHT_DEFENDED: usize = PAWN_DEFENDED + 1;
/// Weight: per square a knight may leap to (empty or enemy).
const KNIGHT_MOBILITY: usize = KNIGHT_DEFENDED + 1;
/// Weight: a pawn one step from its last rank, with its step square empty, while its side
/// has at most one knight (the step promotes it).
const PROMOTES: usize = KNIGHT_MOBILITY + 1;
/// Weight: the same pawn while its side has two knights (the step redeploys it).
const REDEPLOYS: usize = PROMOTES + 1;
/// Weight: a pawn whose step square is occupied (it can only capture).
const PAWN_BLOCKED: usize = REDEPLOYS + 1;
/// Weights: a pawn by its file, folded onto a..c.
const PAWN_FILE: usize = PAWN_BLOCKED + 1;
/// The number of weights.
const WEIGHT_COUNT: usize = PAWN_FILE + 3;

/// The network's static values stay inside `±NETWORK_LIMIT`, well inside a won game's
/// value (`WIN` less at most 1000 plies), so that no static value reads as a win.
const NETWORK_LIMIT: i32 = WIN / 2;

#[path = "hand_weights.rs"]
mod hand_weights;
#[path = "nnue.rs"]
mod nnue;
#[path = "weights.rs"]
mod weights;
use weights::WEIGHTS;

/// The expected result of static value `v` ([`EXPECTED`] × (2 P − 1), P = logistic(v /
/// [`nnue::SCORE_PER_LOGIT`]), the scale of both evaluations): the search averages values
/// over mixed strategies, and an average of evaluation scores is not the score of the
/// average. A cell of 1000 beside one of 0 weighs as much as two of 500 on the evaluation's
/// scale, where their chances are 99.99 % and 50 % against 99.1 % twice. Matched at
/// movetime 100 against the evaluation's scale (README, "Apocalypse's expected results").
fn expected(v: i32) -> i32 {
    let half_logit = f64::from(v) / (2.0 * nnue::SCORE_PER_LOGIT as f64);
    (EXPECTED * half_logit.tanh()) as i32
}

/// The evaluation's score of a value the search backed up: the inverse of [`expected`]
/// (at most 1078 in size, that of 8999); a value past every static one (a won game's) is
/// itself.
fn score_of(value: i32) -> i32 {
    if value.abs() >= EXPECTED as i32 {
        return value;
    }
    let half_logit = (f64::from(value) / EXPECTED).atanh();
    (2.0 * nnue::SCORE_PER_LOGIT as f64 * half_logit).round() as i32
}

/// The file of `sq` folded onto a..c (0..=2): e counts as a, d as b.
fn folded_file(sq: u8) -> u8 {
    file_of(sq).min(SIZE - 1 - file_of(sq))
}

/// The knight-square class of `sq` for `p`: the file folded onto a..c, the rank counted
/// from `p`'s back rank.
fn knight_class(sq: u8, p: Player) -> usize {
    let file = usize::from(folded_file(sq));
    let rank = usize::from(rank_of(sq).abs_diff(last_rank(p.other())));
    rank * 3 + file
}

impl Tunable for Apocalypse {
    const WEIGHTS_FILE: &'static str = "crates/games/src/apocalypse/weights.rs";

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn start_weights() -> &'static [i32] {
        &hand_weights::WEIGHTS
    }

    fn weight_names() -> Vec<String> {
        let mut names = vec!["knight".to_string()];
        names.extend((1..=5).map(|n| format!("pawn_set[{n} pawns]")));
        names.extend((1..=3).map(|n| format!("advance[{n} ranks]")));
        for name in ["knight_attacked", "pawn_attacked", "penalty"] {
            names.push(name.to_string());
        }
        for class in 0..15 {
            let (rank, file) = (class / 3, class % 3);
            names.push(format!(
                "knight_square[{}{}]",
                (b'a' + file as u8) as char,
                rank + 1
            ));
        }
        for name in [
            "knight_attacked_by_pawn",
            "pawn_defended",
            "knight_defended",
            "knight_mobility",
            "promotes",
            "redeploys",
            "pawn_blocked",
        ] {
            names.push(name.to_string());
        }
        names.extend(["a", "b", "c"].map(|f| format!("pawn_file[{f}]")));
        debug_assert_eq!(names.len(), WEIGHT_COUNT);
        names
    }

    fn terms<T: Terms>(&self, terms: &mut T) {
        let masks = Masks::of(self);
        side_terms(self, &masks, Player::First, 1, terms);
        side_terms(self, &masks, Player::Second, -1, terms);
    }
}

impl Evaluate for Apocalypse {
    const TUNABLE: Option<TunableEval<Self>> = Some(TunableEval::of());
    const NNUE: Option<NnueSpec<Self>> = Some(nnue::SPEC);
    /// The skill noise scale the levels of `SKILL_ELO` (mod.rs) were measured with.
    const SKILL_UNIT: f64 = 300.0;
    const MOVE_CODES: usize = MOVE_CODE_COUNT;

    fn evaluate(&self) -> i32 {
        if nnue::IN_USE.network() {
            return nnue::evaluate(self).clamp(-NETWORK_LIMIT, NETWORK_LIMIT);
        }
        self.classical()
    }

    /// The expected result of the static value (`expected`): the search solves matrix
    /// games, whose values are averages over mixed strategies.
    fn search_value(&self) -> i32 {
        expected(self.evaluate())
    }

    fn reported(value: i32) -> i32 {
        score_of(value)
    }

    fn is_noisy(&self, m: Move) -> bool {
        !m.is_void() && (self.cell(m.to()).is_some() || reaches_last_rank(self, m))
    }

    fn order_hint(&self, m: Move) -> i32 {
        if m.is_void() {
            return i32::MIN / 2;
        }
        let victim = self.cell(m.to()).map_or(0, |(_, piece)| piece_value(piece));
        let attacker = self
            .cell(m.from())
            .map_or(0, |(_, piece)| piece_value(piece));
        let arrival = if reaches_last_rank(self, m) { 150 } else { 0 };
        victim + arrival - attacker / 10
    }

    fn move_code(m: Move) -> u32 {
        m.code()
    }

    fn terminal_value(&self, outcome: Outcome, ply: u32) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) => p.sign() * (WIN - ply.min(1_000) as i32),
        }
    }

    fn value_bounds() -> (i32, i32) {
        (-WIN, WIN)
    }
}

impl Apocalypse {
    /// The classical evaluation (`Eval classical`): the weighted sum of the terms with the
    /// fitted weights, from the first player's view.
    #[inline]
    fn classical(&self) -> i32 {
        let mut sum = Sum::new(&WEIGHTS);
        self.terms(&mut sum);
        sum.total
    }
}

fn piece_value(piece: Piece) -> i32 {
    match piece {
        Piece::Pawn => 100,
        Piece::Knight => 300,
    }
}

fn reaches_last_rank(pos: &Apocalypse, m: Move) -> bool {
    matches!(pos.cell(m.from()), Some((p, Piece::Pawn)) if rank_of(m.to()) == last_rank(p))
}

/// Feeds `p`'s share of the evaluation (positive is good for `p`) to `t`, counted `sign`
/// times; `masks` are `pos`'s. The pawn terms are counted on whole bit sets at once (a term
/// may be fed a count of 0), the knight terms that depend on the square one knight at a time.
#[inline(always)]
fn side_terms<T: Terms>(pos: &Apocalypse, masks: &Masks, p: Player, sign: i32, t: &mut T) {
    let count = |set: u32| set.count_ones() as i32;
    let pawns = usize::from(pos.pawns(p).min(5));
    if pawns > 0 {
        t.add(PAWN_SET + pawns - 1, sign);
    }
    t.add(KNIGHT, sign * i32::from(pos.knights(p)));
    t.add(PENALTY, -sign * i32::from(pos.penalties(p)));
    let last_step = if pos.arrival_redeploys(p) {
        REDEPLOYS
    } else {
        PROMOTES
    };
    let (i, o) = (p.index(), p.other().index());
    let (own_pawns, own_knights) = (masks.pawns[i], masks.knights[i]);
    let own = own_pawns | own_knights;
    let occupied = own | masks.pieces(p.other());
    // Pawns never stand on their last rank, so each one's advance is 0 to 3.
    let back = last_rank(p.other());
    for advanced in 1..=3u8 {
        let rank = if back == 0 { advanced } else { back - advanced };
        let on_rank = count(own_pawns & rank_mask(rank));
        t.add(ADVANCE + usize::from(advanced) - 1, sign * on_rank);
    }
    for file in 0..3u8 {
        let on_file = count(own_pawns & folded_file_mask(file));
        t.add(PAWN_FILE + usize::from(file), sign * on_file);
    }
    // A step square of each pawn; occupied, the pawn is blocked; empty on the last rank, its
    // step promotes or redeploys.
    let ahead = step_forward(p, own_pawns);
    t.add(PAWN_BLOCKED, sign * count(ahead & occupied));
    let last_steps = ahead & !occupied & rank_mask(last_rank(p));
    t.add(last_step, sign * count(last_steps));
    let (enemy, defended) = (masks.attacks[o], masks.attacks[i]);
    t.add(PAWN_ATTACKED, -sign * count(own_pawns & enemy));
    t.add(PAWN_DEFENDED, sign * count(own_pawns & defended));
    t.add(KNIGHT_ATTACKED, -sign * count(own_knights & enemy));
    let by_pawns = own_knights & masks.pawn_attacks[o];
    t.add(KNIGHT_ATTACKED_BY_PAWN, -sign * count(by_pawns));
    t.add(KNIGHT_DEFENDED, sign * count(own_knights & defended));
    let mut left = own_knights;
    while left != 0 {
        let sq = left.trailing_zeros() as u8;
        left &= left - 1;
        t.add(KNIGHT_SQUARE + knight_class(sq, p), sign);
        let reach = (KNIGHT_MASKS[usize::from(sq)] & !own).count_ones();
        t.add(KNIGHT_MOBILITY, sign * reach as i32);
    }
}

/// A position's pieces as bit sets (bit `sq` for square `sq`), by side index, with the
/// squares each side attacks.
struct Masks {
    pawns: [u32; 2],
    knights: [u32; 2],
    /// The squares a side's pawns attack: one step diagonally forward.
    pawn_attacks: [u32; 2],
    /// The squares a side's knights or pawns attack (whatever stands on them).
    attacks: [u32; 2],
}

impl Masks {
    /// The masks of `pos`.
    fn of(pos: &Apocalypse) -> Self {
        let sides = [Player::First, Player::Second];
        let pawns = sides.map(|p| pos.pieces_of(p, Piece::Pawn));
        let knights = sides.map(|p| pos.pieces_of(p, Piece::Knight));
        let pawn_attacks = sides.map(|p| pawn_attacks(p, pawns[p.index()]));
        let attacks = sides.map(|p| {
            let mut set = pawn_attacks[p.index()];
            let mut left = knights[p.index()];
            while left != 0 {
                set |= KNIGHT_MASKS[left.trailing_zeros() as usize];
                left &= left - 1;
            }
            set
        });
        Masks {
            pawns,
            knights,
            pawn_attacks,
            attacks,
        }
    }

    /// Every piece of `p`.
    fn pieces(&self, p: Player) -> u32 {
        self.pawns[p.index()] | self.knights[p.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{SQUARES, forward, knight_targets, square};
    use super::*;
    use quartet_core::eval::EVAL_LIMIT;
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;

    fn parse(text: &str) -> Apocalypse {
        Apocalypse::parse_position(text, &RuleOptions::default()).unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(parse("npppn/p3p/5/P3P/NPPPN 00 0").classical(), 0);
    }

    #[test]
    fn mirrored_positions_evaluate_to_opposite_scores() {
        // Each position and its colour-swapped mirror (ranks reversed, case swapped).
        for (a, b) in [
            ("n1ppn/p3p/2P2/P4/NPP1N 10 0", "npp1n/p4/2p2/P3P/N1PPN 01 0"),
            ("4n/1p1P1/5/P4/N3N 00 0", "n3n/p4/5/1P1p1/4N 00 0"),
        ] {
            assert_eq!(parse(a).classical(), -parse(b).classical(), "{a} vs {b}");
        }
    }

    #[test]
    fn material_and_penalties_move_the_score_the_right_way() {
        let start = parse("npppn/p3p/5/P3P/NPPPN 00 0").classical();
        assert!(parse("npppn/p3p/5/P3P/1PPPN 00 0").classical() < start); // White lost a knight
        assert!(parse("nppp1/p3p/5/P3P/NPPPN 00 0").classical() > start); // Black lost a knight
        assert!(parse("npppn/p3p/5/P3P/NPPPN 10 0").classical() < start);
        assert!(parse("npppn/p3p/5/P3P/NPPPN 01 0").classical() > start);
        // A pawn on c3 is worth more than on c1 (advanced), other things equal.
        assert!(
            parse("npppn/p3p/2P2/P3P/NP1PN 00 0").classical()
                > parse("npppn/p3p/5/P3P/NPPPN 00 0").classical()
        );
    }

    /// Whether `by` attacks `sq` in `pos` (with any piece, with a pawn), from the masks.
    fn attacked(pos: &Apocalypse, sq: u8, by: Player) -> (bool, bool) {
        let (masks, bit) = (Masks::of(pos), 1 << sq);
        let i = by.index();
        (
            masks.attacks[i] & bit != 0,
            masks.pawn_attacks[i] & bit != 0,
        )
    }

    #[test]
    fn attacked_knights_are_marked_down() {
        // The white knight on c3 is attacked by the black pawn on b4 (diagonally forward for
        // Black) in the first position and by nothing in the second.
        let attacked_pos = parse("n4/1p3/2N2/P4/5 00 0");
        let safe = parse("n4/p4/2N2/1P3/5 00 0");
        let (pawn, knight_only, none) = ((true, true), (true, false), (false, false));
        assert_eq!(attacked(&attacked_pos, 12, Player::Second), pawn);
        assert_eq!(attacked(&safe, 12, Player::Second), none);
        // The black knight a5 is attacked by the white knight on c4 (a leap) only.
        let leap = parse("n4/2N2/5/P4/5 00 0");
        assert_eq!(attacked(&leap, 20, Player::First), knight_only);
        // A white pawn attacks diagonally forward: b2 attacks a3 and c3, not a1 or b3.
        let pawns = parse("5/5/n1n2/1P3/5 00 0");
        assert_eq!(attacked(&pawns, 10, Player::First), pawn);
        assert_eq!(attacked(&pawns, 12, Player::First), pawn);
        assert_eq!(attacked(&pawns, 0, Player::First), none);
        assert_eq!(attacked(&pawns, 11, Player::First), none);
    }

    /// Whether `by` attacks `sq` with a knight and with a pawn, found by looking at every
    /// square they could stand on: the reference for the masks' attack sets.
    fn scanned_attackers(pos: &Apocalypse, sq: u8, by: Player) -> (bool, bool) {
        let knight = Some((by, Piece::Knight));
        let knights = knight_targets(sq).any(|t| pos.cell(t) == knight);
        let (file, rank) = (file_of(sq), rank_of(sq));
        let pawns = forward(by.other(), rank).is_some_and(|from_rank| {
            [file.checked_sub(1), Some(file + 1)]
                .into_iter()
                .flatten()
                .filter(|&f| f < SIZE)
                .any(|f| pos.cell(square(f, from_rank)) == Some((by, Piece::Pawn)))
        });
        (knights, pawns)
    }

    #[test]
    fn masked_attacks_agree_with_a_scan_of_the_board() {
        let positions = super::super::tests::rules::random_positions(true, 20, 3);
        let mut attacks = 0;
        for pos in &positions {
            for sq in 0..SQUARES as u8 {
                for by in [Player::First, Player::Second] {
                    let (knights, pawns) = scanned_attackers(pos, sq, by);
                    assert_eq!(
                        attacked(pos, sq, by),
                        (knights || pawns, pawns),
                        "{sq} {by:?}"
                    );
                    attacks += usize::from(pawns) + usize::from(knights);
                }
            }
        }
        // The playouts meet both kinds of attack often.
        assert!(attacks > 1000, "{attacks}");
    }

    /// `p`'s terms counted piece by piece on a scan of the board, `sign` times: the
    /// reference for [`side_terms`]'s counts on bit sets.
    fn scanned_side_terms(pos: &Apocalypse, p: Player, sign: i32, t: &mut impl Terms) {
        let pawns = usize::from(pos.pawns(p));
        if pawns > 0 {
            t.add(PAWN_SET + pawns - 1, sign);
        }
        t.add(KNIGHT, sign * i32::from(pos.knights(p)));
        t.add(PENALTY, -sign * i32::from(pos.penalties(p)));
        for sq in 0..SQUARES as u8 {
            let Some((q, piece)) = pos.cell(sq) else {
                continue;
            };
            if q != p {
                continue;
            }
            let (ek, ep) = scanned_attackers(pos, sq, p.other());
            let (dk, dp) = scanned_attackers(pos, sq, p);
            if piece == Piece::Pawn {
                let advanced = usize::from(rank_of(sq).abs_diff(last_rank(p.other())));
                if (1..=3).contains(&advanced) {
                    t.add(ADVANCE + advanced - 1, sign);
                }
                t.add(PAWN_FILE + usize::from(folded_file(sq)), sign);
                if let Some(ahead) = forward(p, rank_of(sq)) {
                    if pos.cell(square(file_of(sq), ahead)).is_some() {
                        t.add(PAWN_BLOCKED, sign);
                    } else if ahead == last_rank(p) && pos.arrival_redeploys(p) {
                        t.add(REDEPLOYS, sign);
                    } else if ahead == last_rank(p) {
                        t.add(PROMOTES, sign);
                    }
                }
                t.add(PAWN_ATTACKED, -sign * i32::from(ek || ep));
                t.add(PAWN_DEFENDED, sign * i32::from(dk || dp));
            } else {
                t.add(KNIGHT_SQUARE + knight_class(sq, p), sign);
                let reach =
                    knight_targets(sq).filter(|&t| !matches!(pos.cell(t), Some((q, _)) if q == p));
                t.add(KNIGHT_MOBILITY, sign * reach.count() as i32);
                t.add(KNIGHT_ATTACKED, -sign * i32::from(ek || ep));
                t.add(KNIGHT_ATTACKED_BY_PAWN, -sign * i32::from(ep));
                t.add(KNIGHT_DEFENDED, sign * i32::from(dk || dp));
            }
        }
    }

    #[test]
    fn terms_on_bit_sets_equal_a_piece_by_piece_count() {
        let mut positions = super::super::tests::rules::random_positions(true, 30, 9);
        positions.extend(super::super::tests::rules::random_positions(false, 30, 10));
        for pos in &positions {
            let mut reference = quartet_core::eval::tunable::Coefficients::default();
            scanned_side_terms(pos, Player::First, 1, &mut reference);
            scanned_side_terms(pos, Player::Second, -1, &mut reference);
            let mut terms = quartet_core::eval::tunable::Coefficients::default();
            pos.terms(&mut terms);
            assert_eq!(
                terms.merged(),
                reference.merged(),
                "{}",
                pos.format_position()
            );
        }
    }

    /// How often each weight counts in `pos` (first player's view), by weight index.
    fn counts(pos: &Apocalypse) -> Vec<i32> {
        let mut c = quartet_core::eval::tunable::Coefficients::default();
        pos.terms(&mut c);
        let mut out = vec![0; WEIGHT_COUNT];
        for (w, n) in c.merged().counts {
            out[w as usize] = n;
        }
        out
    }

    #[test]
    fn pawn_terms_see_files_blocks_and_the_last_step() {
        // White: pawns a4 (blocked by the black pawn a5), c4 (c5 empty: one knight, so the
        // step promotes) and e2 (e3 empty); knight a1. Black: pawn a5 and knights b5, e5.
        let pos = parse("pn2n/P1P2/5/4P/N4 00 0");
        let c = counts(&pos);
        // Files folded a..c: a4 and e2 are edge files (a), c4 the centre (c). Black's a5
        // is an edge pawn too, counted against White.
        assert_eq!(c[PAWN_FILE], 2 - 1);
        assert_eq!(c[PAWN_FILE + 1], 0);
        assert_eq!(c[PAWN_FILE + 2], 1);
        // a4 is blocked by a5; a5 is blocked by a4 (Black steps down onto it).
        assert_eq!(c[PAWN_BLOCKED], 1 - 1);
        assert_eq!(c[PROMOTES], 1);
        assert_eq!(c[REDEPLOYS], 0);
        // With two white knights the same c4 pawn would redeploy instead.
        let two = counts(&parse("pn2n/P1P2/5/4P/N3N 00 0"));
        assert_eq!((two[PROMOTES], two[REDEPLOYS]), (0, 1));
    }

    #[test]
    fn knight_terms_count_leaps_defenders_and_pawn_attackers() {
        // White: knight c3, pawns a2 and b2. Black: knight e5, pawns d4 and e4.
        let pos = parse("4n/3pp/2N2/PP3/5 00 0");
        let c = counts(&pos);
        // c3 leaps to a2 a4 b1 b5 d1 d5 e2 e4; a2 holds its own pawn: 7 squares. e5 leaps to
        // c4 and d3, both empty: 2.
        assert_eq!(c[KNIGHT_MOBILITY], 7 - 2);
        // The black pawn d4 attacks c3 (Black captures down the diagonals, onto c3 and e3);
        // nothing white reaches e5.
        assert_eq!(c[KNIGHT_ATTACKED], -1);
        assert_eq!(c[KNIGHT_ATTACKED_BY_PAWN], -1);
        // The white pawn b2 defends c3 (it captures onto a3 and c3); nothing black reaches e5.
        assert_eq!(c[KNIGHT_DEFENDED], 1);
        // The knight c3 defends the pawn a2 (a leap); nothing defends b2, d4 or e4.
        assert_eq!(c[PAWN_DEFENDED], 1);
    }

    #[test]
    fn evaluation_stays_inside_the_limit() {
        for text in ["NN3/PPPPP/5/5/5 00 0", "5/5/5/ppppp/nn3 11 0"] {
            assert!(parse(text).evaluate().abs() < EVAL_LIMIT, "{text}");
        }
    }

    #[test]
    fn captures_and_last_rank_arrivals_are_noisy() {
        let pos = parse("2p2/4p/1N3/P4/5 00 0"); // worked example 6
        let capture = Move::new(11, 22, None).unwrap(); // b3c5 takes c5
        let quiet = Move::new(11, 8, None).unwrap(); // b3d2, a leap to an empty square
        assert!(pos.is_legal_declaration(Player::First, capture));
        assert!(pos.is_noisy(capture));
        assert!(pos.is_legal_declaration(Player::First, quiet));
        assert!(!pos.is_noisy(quiet));
        assert!(pos.order_hint(capture) > pos.order_hint(quiet));
        let promote = parse("4n/1p1P1/5/P4/N4 00 0"); // worked example 11
        let d4d5 = Move::new(18, 23, None).unwrap();
        assert!(promote.is_legal_declaration(Player::First, d4d5));
        assert!(promote.is_noisy(d4d5));
        assert!(!promote.is_noisy(Move::VOID));
    }

    #[test]
    fn expected_results_are_probabilities_of_the_scores() {
        // P = logistic(score / 110): a score of 110 ln 3 (about 121) is a 75 % chance, an
        // expected result of 0.5.
        assert_eq!(expected(0), 0);
        assert_eq!(expected(121), 4504);
        assert_eq!(expected(-121), -4504);
        // Averages of chances, not of scores: 1000 and 0 are worth less than 500 twice.
        assert!(expected(1000) / 2 + expected(0) / 2 < expected(500));
        // Monotone, odd, and a certain static win below a won game less 1000 plies.
        let values: Vec<i32> = (-6000..=6000).step_by(7).map(expected).collect();
        assert!(values.windows(2).all(|w| w[0] <= w[1]));
        assert!((-6000..=6000).all(|v| expected(-v) == -expected(v)));
        assert!(expected(NETWORK_LIMIT) <= WIN - 1000);
    }

    #[test]
    fn reported_scores_invert_expected_results() {
        // Exact to a point where a point of score moves the expected result by one or more.
        for v in -600..=600 {
            assert!(
                (score_of(expected(v)) - v).abs() <= 1,
                "{v}: {}",
                score_of(expected(v))
            );
        }
        // A won game's value is reported as it is. The largest value below it, 8999, is
        // the score 220 atanh(8999/9000) = 110 ln 17999 = 1077.8.
        assert_eq!(score_of(WIN - 3), WIN - 3);
        assert_eq!(score_of(-(WIN - 3)), -(WIN - 3));
        assert_eq!(score_of(EXPECTED as i32 - 1), 1078);
        assert_eq!(score_of(1 - EXPECTED as i32), -1078);
    }
}
