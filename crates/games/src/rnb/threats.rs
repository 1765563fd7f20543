//! Immediate threats for the evaluation: which pieces a side could capture with one step,
//! were it that side's turn. All of the side's steps are tested at once with bitboard
//! shifts, by the three rules of 1.5 (run test with same-tribe or king pair, Dual test).

use super::geometry::{Bitboard, Direction, ORTHOGONAL, spread};
use super::pieces::Colour;
use super::position::Rnb;
use quartet_core::game::Player;

/// The pieces of `attacker`'s enemy that some single step of `attacker` would capture.
///
/// A landing square `T` must be empty and next to an attacker piece of the right kind.
/// The piece that steps there never is the run's far end or the Dual partner (both stand
/// two or more squares from `T`), so the kinds alone decide.
pub(super) fn threatened_by(pos: &Rnb, attacker: Player) -> Bitboard {
    let own = pos.sides[attacker.index()];
    let empty = pos.empty();
    let black = pos.colour(Colour::Black);
    let (own_red, own_black, own_king) = (own & pos.red, own & black, own & pos.kings);
    let shape = Shape {
        victims: pos.sides[attacker.other().index()],
        red: pos.red,
        black,
        own_red,
        own_black,
        own_king,
        reach_red: spread(own_red) & empty,
        reach_black: spread(own_black) & empty,
        reach_king: spread(own_king) & empty,
    };
    // Unrolled, so that each call shifts by a constant direction.
    along(ORTHOGONAL[0], &shape)
        | along(ORTHOGONAL[1], &shape)
        | along(ORTHOGONAL[2], &shape)
        | along(ORTHOGONAL[3], &shape)
}

/// The sets `threatened_by` works with.
struct Shape {
    victims: Bitboard,
    red: Bitboard,
    black: Bitboard,
    own_red: Bitboard,
    own_black: Bitboard,
    own_king: Bitboard,
    reach_red: Bitboard,
    reach_black: Bitboard,
    reach_king: Bitboard,
}

/// The victims captured in direction `dir` from some landing square.
#[inline(always)]
fn along(dir: Direction, s: &Shape) -> Bitboard {
    let back = dir.opposite();
    let mut hit = 0;
    // Run test: `run` holds the landing squares T with T+d … T+n·d all victims, and
    // `red_end` etc. the squares T with an attacker piece of that kind on T+(n+1)·d.
    let mut victims_ahead = back.shift(s.victims);
    let mut run = victims_ahead;
    let mut red_end = back.shift(back.shift(s.own_red));
    let mut black_end = back.shift(back.shift(s.own_black));
    let mut king_end = back.shift(back.shift(s.own_king));
    let mut taken_from = 0;
    while run != 0 {
        let closed = run
            & ((s.reach_red & (red_end | king_end))
                | (s.reach_black & (black_end | king_end))
                | (s.reach_king & (red_end | black_end)));
        // Every landing square closes its run: the run starts one step beyond it.
        taken_from |= closed;
        victims_ahead = back.shift(victims_ahead);
        run &= victims_ahead;
        red_end = back.shift(red_end);
        black_end = back.shift(black_end);
        king_end = back.shift(king_end);
    }
    // The captured runs: from each closing landing square, the victims ahead of it.
    let mut front = dir.shift(taken_from) & s.victims;
    while front != 0 {
        hit |= front;
        front = dir.shift(front) & s.victims;
    }
    // Dual test: an X soldier lands on T, a victim non-X piece on T+d, a victim X
    // soldier on T+2d.
    for (reach, same) in [(s.reach_red, s.red), (s.reach_black, s.black)] {
        let landing =
            reach & back.shift(s.victims & !same) & back.shift(back.shift(s.victims & same));
        hit |= dir.shift(landing);
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::super::Rnb;
    use super::super::geometry::{Bitboard, NEIGHBOURS, squares};
    use super::threatened_by;
    use quartet_core::game::{Game, Player, RuleOptions};
    use quartet_core::notation::Notation;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The union of the captures of every step of `attacker`, one step at a time.
    fn by_each_step(pos: &Rnb, attacker: Player) -> Bitboard {
        let mut hit = 0;
        for from in squares(pos.sides[attacker.index()]) {
            for to in squares(NEIGHBOURS[from.index()] & pos.empty()) {
                hit |= pos.captures(attacker, pos.kind_at(from), to);
            }
        }
        hit
    }

    #[test]
    fn threats_match_trying_every_step_along_random_games() {
        let rules = RuleOptions::default();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..200 {
            let mut pos = Rnb::start(&rules);
            for _ in 0..120 {
                let actions = pos.actions();
                if actions.is_empty() {
                    break;
                }
                pos.apply(actions[rng.random_range(0..actions.len())]);
                for attacker in [Player::First, Player::Second] {
                    assert_eq!(
                        threatened_by(&pos, attacker),
                        by_each_step(&pos, attacker),
                        "{} attacker {attacker:?}",
                        pos.format_position()
                    );
                    checked += usize::from(by_each_step(&pos, attacker) != 0);
                }
            }
        }
        assert!(checked > 100, "the games reached enough threats: {checked}");
    }

    #[test]
    fn threats_in_the_worked_examples() {
        let parse = |t: &str| Rnb::parse_position(t, &RuleOptions::default()).unwrap();
        // Example 1: the R on d4 can take b3 and c3 (d3 is the landing square).
        let pos = parse("2k3/6/3R2/Rrb3/6/3K2 s 0000 0");
        let b3c3 = (1u64 << 13) | (1u64 << 14);
        assert_eq!(threatened_by(&pos, Player::First), b3c3);
        assert_eq!(threatened_by(&pos, Player::Second), 0);
        // Example 9: a king never pairs with an enemy: no threat.
        let pos = parse("2k3/6/2K3/rb4/6/6 s 0000 0");
        assert_eq!(threatened_by(&pos, Player::First), 0);
    }
}
