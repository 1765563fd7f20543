//! The rules of Ludo (§1.4 to §1.7): node kinds, legal moves, playing a move and the
//! incrementally kept Zobrist hash (keys in `zobrist.rs`).

use super::board::{is_safe, other_frame};
use super::zobrist::{die_key, piece_key, sixes_key, yellow_key};
use super::{BASE, GOAL, LAST_TRACK, Ludo, MAX_PIECES, Move, NO_VALUE, order_key};
use quartet_core::game::{EndReason, Game, MoveList, Node, Outcome, Player};

/// The die value that enters pieces, earns an extra roll and counts towards the void third six.
pub(super) const SIX: u8 = 6;

/// The count of consecutive sixes at which the roll is void (only `pass`).
pub(super) const VOID_SIXES: u8 = 3;

/// Bit 7 of each byte of `word` that equals `v`, the other bits clear.
fn bytes_equal(word: u32, v: u8) -> u32 {
    let t = word ^ (u32::from(v) * 0x0101_0101);
    !(((t & 0x7f7f_7f7f) + 0x7f7f_7f7f) | t) & 0x8080_8080
}

/// The number of bytes marked by [`bytes_equal`].
fn byte_count(marks: u32) -> usize {
    ((marks >> 7).wrapping_mul(0x0101_0101) >> 24) as usize
}

impl Ludo {
    /// A position from its parts. `red` and `yellow` hold the same number (1 to 4) of piece
    /// values ([`BASE`] or `0..=56`) in any order; `die` is 0 when the side must roll.
    /// The caller guarantees the values are in range (the notation checks them).
    pub(super) fn from_parts(red: &[u8], yellow: &[u8], side: Player, die: u8, sixes: u8) -> Ludo {
        debug_assert_eq!(red.len(), yellow.len());
        let mut pieces = [[BASE; MAX_PIECES]; 2];
        for (slots, values) in pieces.iter_mut().zip([red, yellow]) {
            slots[..values.len()].copy_from_slice(values);
            slots[..values.len()].sort_unstable_by_key(|&v| order_key(v));
        }
        let mut pos = Ludo {
            pieces,
            count: red.len() as u8,
            side,
            die,
            sixes,
            hash: 0,
        };
        pos.hash = pos.fresh_hash();
        pos
    }

    /// The start position with `count` pieces per side, all in base, Red to roll.
    pub(super) fn start_with(count: u8) -> Ludo {
        let base = [BASE; MAX_PIECES];
        let n = count as usize;
        Ludo::from_parts(&base[..n], &base[..n], Player::First, 0, 0)
    }

    /// The side whose pieces are all at the goal, if any.
    pub fn winner(&self) -> Option<Player> {
        // Sorted in notation order, the first piece is the least advanced.
        if self.pieces[0][0] == GOAL {
            Some(Player::First)
        } else if self.pieces[1][0] == GOAL {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Calls `f` with each legal move at a decision node with die `die`, in notation order;
    /// calls nothing when only `pass` is legal.
    fn for_each_piece_move(&self, mut f: impl FnMut(Move)) {
        let die = self.die;
        if die == SIX && self.sixes >= VOID_SIXES {
            return;
        }
        let mut previous = NO_VALUE;
        for &v in self.pieces(self.side) {
            if previous == v {
                continue; // pieces at the same value are interchangeable
            }
            previous = v;
            if v == BASE {
                if die == SIX {
                    f(Move::Enter);
                }
            } else if v + die <= GOAL {
                f(Move::Step {
                    from: v,
                    to: v + die,
                });
            }
        }
    }

    /// Moves one piece of `side` from `from` to `to`, keeping the slots sorted and the hash.
    fn relocate(&mut self, side: Player, from: u8, to: u8) {
        let n = self.count as usize;
        let slots = &mut self.pieces[side.index()];
        let word = u32::from_le_bytes(*slots);
        let used = 0x8080_8080u32 >> (8 * (MAX_PIECES - n));
        let at_from = bytes_equal(word, from) & used;
        if at_from == 0 {
            return; // no such piece: only an illegal unchecked move gets here
        }
        let at_to = bytes_equal(word, to) & used;
        self.hash ^=
            piece_key(side, from, byte_count(at_from) - 1) ^ piece_key(side, to, byte_count(at_to));
        let mut i = at_from.trailing_zeros() as usize / 8;
        slots[i] = to;
        // Only this slot changed: move it up or down to its place in notation order.
        let key = order_key(to);
        while i + 1 < n && order_key(slots[i + 1]) < key {
            slots.swap(i, i + 1);
            i += 1;
        }
        while i > 0 && order_key(slots[i - 1]) > key {
            slots.swap(i, i - 1);
            i -= 1;
        }
    }

    /// Sends every piece of `side` at progress `p` back to base; returns whether any was.
    fn capture(&mut self, side: Player, p: u8) -> bool {
        let mut captured = false;
        while self.pieces(side).contains(&p) {
            self.relocate(side, p, BASE);
            captured = true;
        }
        captured
    }

    fn set_die(&mut self, die: u8) {
        self.hash ^= die_key(self.die) ^ die_key(die);
        self.die = die;
    }

    fn set_sixes(&mut self, sixes: u8) {
        self.hash ^= sixes_key(self.sixes) ^ sixes_key(sixes);
        self.sixes = sixes;
    }

    /// The other side is to roll, with no sixes counted.
    fn end_turn(&mut self) {
        self.side = self.side.other();
        self.hash ^= yellow_key();
        self.set_die(0);
        self.set_sixes(0);
    }

    /// Plays a piece move from `from` to `to` with the pending die (§1.6).
    #[inline(never)]
    fn play_piece(&mut self, from: u8, to: u8) {
        let mover = self.side;
        self.relocate(mover, from, to);
        let captured = to <= LAST_TRACK
            && !is_safe(to)
            && other_frame(to).is_some_and(|q| self.capture(mover.other(), q));
        if self.die == SIX || captured || to == GOAL {
            self.set_die(0); // one extra roll, sixes kept
        } else {
            self.end_turn();
        }
    }
}

impl Game for Ludo {
    type Move = Move;

    fn node(&self) -> Node {
        match self.winner() {
            Some(w) => Node::Terminal(Outcome::Win(w)),
            None if self.die == 0 => Node::Chance,
            None => Node::Turn(self.side),
        }
    }

    fn end_reason(&self) -> Option<EndReason> {
        self.winner().map(|_| super::ALL_HOME)
    }

    fn legal_moves(&self, p: Player, out: &mut MoveList<Move>) {
        out.clear();
        if self.node() != Node::Turn(p) {
            return;
        }
        self.for_each_piece_move(|m| out.push(m));
        if out.is_empty() {
            out.push(Move::Pass);
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(Move, u32)>) {
        out.clear();
        if self.node() == Node::Chance {
            out.extend((1..=SIX).map(|d| (Move::Roll(d), 1)));
        }
    }

    #[inline]
    fn play(&mut self, m: Move) {
        match m {
            Move::Roll(d) => {
                self.set_die(d);
                self.set_sixes(if d == SIX { self.sixes + 1 } else { 0 });
            }
            Move::Enter => self.play_piece(BASE, 0),
            Move::Step { from, to } => self.play_piece(from, to),
            Move::Pass => self.end_turn(),
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// The side to move or to roll: a chance node belongs to the side whose turn it is (so
    /// the protocol shows its score from the roller's view and `p1turn` is true when Red
    /// rolls); `None` once the game is over.
    fn acting_player(&self) -> Option<Player> {
        match self.node() {
            Node::Terminal(_) => None,
            _ => Some(self.side),
        }
    }

    fn count_children(&self) -> u64 {
        match self.node() {
            Node::Terminal(_) => 0,
            Node::Chance => SIX as u64,
            _ => self.move_count(),
        }
    }

    /// A roll's moves are counted without rolling; a move's children are the 6 rolls that
    /// follow it (after an extra roll too), unless it wins.
    #[inline]
    fn count_grandchildren(&self) -> Option<u64> {
        Some(match self.node() {
            Node::Terminal(_) => 0,
            Node::Chance => self.roll_move_count(),
            _ if self.wins_now() => 0,
            _ => SIX as u64 * self.move_count(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::{Action, RuleOptions};
    use quartet_core::notation::Notation;

    fn pos(text: &str) -> Ludo {
        Ludo::parse_position(text, &RuleOptions::default()).expect(text)
    }

    fn pos_with(text: &str, pieces: u8) -> Ludo {
        let rules = RuleOptions::default()
            .with(&crate::ludo::PIECES, i64::from(pieces))
            .expect("a piece count in range");
        Ludo::parse_position(text, &rules).expect(text)
    }

    fn after(text: &str, tokens: &[&str]) -> String {
        let mut p = pos(text);
        for t in tokens {
            let action = p.parse_action(t).expect(t);
            p.apply(action);
        }
        p.format_position()
    }

    fn moves(text: &str) -> Vec<String> {
        let p = pos(text);
        p.actions()
            .into_iter()
            .map(|a| p.format_action(a))
            .collect()
    }

    #[test]
    fn bytes_equal_marks_exactly_the_equal_bytes() {
        let values = [0u8, 1, 6, 55, 56, 57, 127, 128, 200, BASE];
        for a in values {
            for b in values {
                for c in values {
                    let word = u32::from_le_bytes([a, b, c, a]);
                    for v in values {
                        let want = [a, b, c, a].map(|x| x == v);
                        let marks = bytes_equal(word, v);
                        let got = [0, 1, 2, 3].map(|i| marks >> (8 * i + 7) & 1 == 1);
                        assert_eq!(got, want, "{word:08x} {v}");
                        assert_eq!(marks & 0x7f7f_7f7f, 0);
                        assert_eq!(byte_count(marks), want.iter().filter(|&&e| e).count());
                    }
                }
            }
        }
    }

    #[test]
    fn red_rolls_first_and_the_die_is_fair() {
        let p = Ludo::start(&RuleOptions::default());
        assert_eq!(p.node(), Node::Chance);
        assert_eq!(p.side_to_move(), Player::First);
        let mut out = Vec::new();
        p.chance_outcomes(&mut out);
        let want: Vec<(Move, u32)> = (1..=6).map(|d| (Move::Roll(d), 1)).collect();
        assert_eq!(out, want);
    }

    #[test]
    fn the_roller_acts_at_a_chance_node_and_nobody_after_the_end() {
        assert_eq!(
            pos("b,b,b,b/b,b,b,b r - 0").acting_player(),
            Some(Player::First)
        );
        assert_eq!(
            pos("b,b,b,5/b,b,b,7 y - 0").acting_player(),
            Some(Player::Second)
        );
        assert_eq!(
            pos("b,b,b,5/b,b,b,7 y 4 0").acting_player(),
            Some(Player::Second)
        );
        // Red has just won with the extra roll pending: nobody acts.
        assert_eq!(pos("56,56,56,56/b,b,b,b r - 0").acting_player(), None);
    }

    #[test]
    fn a_roll_makes_a_decision_node_for_the_roller() {
        let mut p = pos("b,b,b,5/b,b,b,7 y - 0");
        p.play(Move::Roll(4));
        assert_eq!(p.node(), Node::Turn(Player::Second));
        assert_eq!(p.die(), Some(4));
        let mut out = Vec::new();
        p.chance_outcomes(&mut out);
        assert!(out.is_empty(), "no chance outcomes at a decision node");
    }

    #[test]
    fn sixes_count_consecutive_sixes_and_a_non_six_resets_them() {
        assert_eq!(
            after("b,b,b,5/b,b,b,b r - 2", &["r4"]),
            "b,b,b,5/b,b,b,b r 4 0"
        );
        assert_eq!(
            after("b,b,b,5/b,b,b,b r - 1", &["r6"]),
            "b,b,b,5/b,b,b,b r 6 2"
        );
        assert_eq!(
            after("b,b,b,5/b,b,b,b r - 0", &["r6"]),
            "b,b,b,5/b,b,b,b r 6 1"
        );
    }

    #[test]
    fn entering_needs_a_six() {
        for d in 1..=5 {
            assert_eq!(moves(&format!("b,b,b,b/b,b,b,b r {d} 0")), ["pass"]);
        }
        assert_eq!(moves("b,b,b,b/b,b,b,b r 6 1"), ["b-0"]);
        assert_eq!(
            after("b,b,b,b/b,b,b,b r 6 1", &["b-0"]),
            "b,b,b,0/b,b,b,b r - 1"
        );
    }

    #[test]
    fn the_goal_needs_the_exact_count() {
        assert_eq!(moves("b,b,b,52/b,b,b,b r 5 0"), ["pass"]);
        assert_eq!(moves("b,b,b,52/b,b,b,b r 4 0"), ["52-56"]);
        assert_eq!(moves("b,b,b,52/b,b,b,b r 3 0"), ["52-55"]);
        // A piece at the goal never moves.
        assert_eq!(moves("b,b,b,56/b,b,b,b r 1 0"), ["pass"]);
    }

    #[test]
    fn own_pieces_stack_and_move_once_per_distinct_value() {
        assert_eq!(moves("b,b,3,5/b,b,b,b r 2 0"), ["3-5", "5-7"]);
        assert_eq!(
            after("b,b,3,5/b,b,b,b r 2 0", &["3-5"]),
            "b,b,5,5/b,b,b,b y - 0"
        );
        assert_eq!(moves("5,5,5,5/b,b,b,b r 1 0"), ["5-6"]);
        assert_eq!(
            after("5,5,5,5/b,b,b,b r 1 0", &["5-6"]),
            "5,5,5,6/b,b,b,b y - 0"
        );
    }

    #[test]
    fn a_capture_sends_every_enemy_piece_on_the_square_home() {
        // Yellow 40, 40, 40 stand on A14 = Red 14.
        assert_eq!(
            after("b,b,b,10/b,40,40,40 r 4 0", &["10-14"]),
            "b,b,b,14/b,b,b,b r - 0"
        );
        // Yellow captures a Red stack: Red 35, 35 = A35 = Yellow 9.
        assert_eq!(
            after("b,b,35,35/b,b,b,5 y 4 0", &["5-9"]),
            "b,b,b,b/b,b,b,9 y - 0"
        );
    }

    #[test]
    fn nobody_is_captured_on_any_of_the_eight_safe_squares() {
        for target in [8u8, 13, 21, 26, 34, 39, 47] {
            let enemy = (target + 26) % 52;
            let text = format!("b,b,b,{}/b,b,b,{enemy} r 3 0", target - 3);
            let want = format!("b,b,b,{target}/b,b,b,{enemy} y - 0");
            assert_eq!(after(&text, &[&format!("{}-{target}", target - 3)]), want);
        }
        // Start square 0: a Red piece entering shares it with Yellow 26 (example 6 too).
        assert_eq!(
            after("b,b,b,b/b,b,b,26 r 6 1", &["b-0"]),
            "b,b,b,0/b,b,b,26 r - 1"
        );
    }

    #[test]
    fn home_column_and_unvisited_squares_are_never_shared() {
        // Red to A25: Yellow never stands on A25 (its S-1); Yellow 51 is in its home column.
        assert_eq!(
            after("b,b,b,22/b,b,b,51 r 3 0", &["22-25"]),
            "b,b,b,25/b,b,b,51 y - 0"
        );
        // Red into its home column: Yellow 25 is on A51, not on Red 51.
        assert_eq!(
            after("b,b,b,48/b,b,b,25 r 3 0", &["48-51"]),
            "b,b,b,51/b,b,b,25 y - 0"
        );
    }

    #[test]
    fn a_six_a_capture_or_the_goal_earn_one_extra_roll() {
        // A six alone.
        assert_eq!(
            after("b,b,b,5/b,b,b,b r 6 1", &["5-11"]),
            "b,b,b,11/b,b,b,b r - 1"
        );
        // A capture alone (Red 14 = Yellow 40).
        assert_eq!(
            after("b,b,b,10/b,b,b,40 r 4 0", &["10-14"]),
            "b,b,b,14/b,b,b,b r - 0"
        );
        // The goal alone.
        assert_eq!(
            after("b,b,3,54/b,b,b,b r 2 0", &["54-56"]),
            "b,b,3,56/b,b,b,b r - 0"
        );
        // None of them: the turn passes.
        assert_eq!(
            after("b,b,3,54/b,b,b,b r 1 0", &["54-55"]),
            "b,b,3,55/b,b,b,b y - 0"
        );
    }

    #[test]
    fn several_reasons_still_earn_a_single_roll() {
        // A six that captures and reaches the goal is impossible (the goal is never shared),
        // but a six reaching the goal and a six capturing each give one roll: the position is
        // a chance node of the same side, the die cleared and the six counted once.
        assert_eq!(
            after("b,b,3,50/b,b,b,b r 6 2", &["50-56"]),
            "b,b,3,56/b,b,b,b r - 2"
        );
        assert_eq!(
            after("b,b,b,8/b,b,b,40 r 6 1", &["8-14"]),
            "b,b,b,14/b,b,b,b r - 1"
        );
        let mut p = pos("b,b,b,14/b,b,b,b r - 1");
        p.play(Move::Roll(2));
        assert_eq!(
            p.node(),
            Node::Turn(Player::First),
            "the extra roll is played"
        );
        p.play(Move::Step { from: 14, to: 16 });
        assert_eq!(p.node(), Node::Chance);
        assert_eq!(p.side_to_move(), Player::Second, "no second extra roll");
    }

    #[test]
    fn the_third_six_is_void_and_only_pass_is_legal() {
        assert_eq!(moves("b,b,0,6/b,b,b,b r 6 3"), ["pass"]);
        assert_eq!(
            after("b,b,0,6/b,b,b,b r 6 3", &["pass"]),
            "b,b,0,6/b,b,b,b y - 0"
        );
        // The second six still moves.
        assert_eq!(moves("b,b,0,6/b,b,b,b r 6 2"), ["b-0", "0-6", "6-12"]);
    }

    #[test]
    fn with_no_piece_move_only_pass_is_legal_and_it_ends_the_turn() {
        assert_eq!(moves("b,b,b,b/b,b,b,b r 4 0"), ["pass"]);
        assert_eq!(
            after("b,b,b,b/b,b,b,b r 4 0", &["pass"]),
            "b,b,b,b/b,b,b,b y - 0"
        );
        // A six with no move: pass ends the turn even after the six (§1.6 choice).
        assert_eq!(moves("53,55,56,56/b,b,b,b r 6 2"), ["pass"]);
        assert_eq!(
            after("53,55,56,56/b,b,b,b r 6 2", &["pass"]),
            "53,55,56,56/b,b,b,b y - 0"
        );
    }

    #[test]
    fn a_side_wins_when_all_its_pieces_reach_the_goal() {
        let p = pos("55,56,56,56/b,b,b,b r 1 0");
        assert_eq!(p.node(), Node::Turn(Player::First));
        let mut q = p.clone();
        q.play(Move::Step { from: 55, to: 56 });
        assert_eq!(q.node(), Node::Terminal(Outcome::Win(Player::First)));
        assert!(q.actions().is_empty());
        assert_eq!(q.count_children(), 0);
        let y = pos("b,b,b,b/54,56,56,56 y 2 0");
        assert_eq!(
            after("b,b,b,b/54,56,56,56 y 2 0", &["54-56"]),
            "b,b,b,b/56,56,56,56 y - 0"
        );
        let mut y = y;
        y.play(Move::Step { from: 54, to: 56 });
        assert_eq!(y.node(), Node::Terminal(Outcome::Win(Player::Second)));
    }

    #[test]
    fn the_pieces_option_sets_the_side_size_and_the_win() {
        for n in 1..=4u8 {
            let rules = RuleOptions::default()
                .with(&crate::ludo::PIECES, i64::from(n))
                .expect("a piece count in range");
            let p = Ludo::start(&rules);
            assert_eq!(p.pieces(Player::First).len(), n as usize);
            assert_eq!(p.pieces(Player::Second).len(), n as usize);
            let bs = vec!["b"; n as usize].join(",");
            assert_eq!(p.format_position(), format!("{bs}/{bs} r - 0"));
        }
        let mut p = pos_with("b,54/b,b r 2 0", 2);
        assert_eq!(p.node(), Node::Turn(Player::First));
        p.play(Move::Step { from: 54, to: 56 });
        assert_eq!(p.node(), Node::Chance, "one piece home of two is no win");
        let mut p = pos_with("54/b r 2 0", 1);
        p.play(Move::Step { from: 54, to: 56 });
        assert_eq!(p.node(), Node::Terminal(Outcome::Win(Player::First)));
    }

    #[test]
    fn the_hash_covers_pieces_side_die_and_sixes() {
        let texts = [
            "b,b,b,5/b,b,b,b r - 0",
            "b,b,b,5/b,b,b,b y - 0",
            "b,b,b,5/b,b,b,b r - 1",
            "b,b,b,5/b,b,b,b r 5 0",
            "b,b,b,5/b,b,b,b r 6 1",
            "b,b,b,5/b,b,b,5 r - 0",
            "b,b,5,5/b,b,b,b r - 0",
            "b,5,5,5/b,b,b,b r - 0",
            "5,5,5,5/b,b,b,b r - 0",
            "b,b,b,b/b,b,b,5 r - 0",
        ];
        let mut hashes: Vec<u64> = texts.iter().map(|t| pos(t).hash()).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), texts.len(), "stacks and fields hash apart");
    }

    #[test]
    fn the_incremental_hash_equals_a_fresh_one_after_captures_and_stacks() {
        let mut p = pos("b,b,10,10/b,b,30,30 r - 0");
        let script = [
            ("r6", "b,b,10,10/b,b,30,30 r 6 1"),
            ("10-16", "b,b,10,16/b,b,30,30 r - 1"),
            ("r4", "b,b,10,16/b,b,30,30 r 4 0"),
            ("16-20", "b,b,10,20/b,b,30,30 y - 0"),
            ("r6", "b,b,10,20/b,b,30,30 y 6 1"),
            // Yellow 36 = A10: captures the Red piece at 10.
            ("30-36", "b,b,b,20/b,b,30,36 y - 1"),
            ("r6", "b,b,b,20/b,b,30,36 y 6 2"),
            ("36-42", "b,b,b,20/b,b,30,42 y - 2"),
            ("r4", "b,b,b,20/b,b,30,42 y 4 0"),
            // Yellow 46 = A20: captures the Red piece at 20.
            ("42-46", "b,b,b,b/b,b,30,46 y - 0"),
        ];
        for (token, want) in script {
            let action = p.parse_action(token).expect(token);
            p.apply(action);
            assert_eq!(p.format_position(), want);
            assert_eq!(p.hash(), p.fresh_hash(), "{want}");
        }
    }

    #[test]
    fn count_children_matches_the_actions() {
        for text in [
            "b,b,b,b/b,b,b,b r - 0",
            "b,b,0,6/b,b,b,b r 6 1",
            "b,b,0,6/b,b,b,b r 6 3",
            "b,b,6,6/b,b,b,b r 2 0",
            "b,b,b,b/b,b,b,b r 2 0",
            "56,56,56,56/b,b,b,b r - 0",
        ] {
            let p = pos(text);
            assert_eq!(p.count_children(), p.actions().len() as u64, "{text}");
        }
    }

    #[test]
    fn count_grandchildren_adds_up_the_childrens_children() {
        // By hand: a roll of 1..5 moves 0 or 6 (2 moves each), a third six is void (pass);
        // without the sixes the 6 has b-0, 0-6 and 6-12. The last piece 1 short of the goal
        // wins with a 1: no rolls follow. Any other move is followed by the 6 rolls.
        for (text, want) in [
            ("b,b,0,6/b,b,b,b r - 2", 5 * 2 + 1),
            ("b,b,0,6/b,b,b,b r - 0", 5 * 2 + 3),
            ("55,56,56,56/b,b,b,b r 1 0", 0),
            ("55,56,56,56/b,b,b,b r 6 3", 6),
            ("b,56,56,56/b,b,b,b r 6 1", 6),
            ("b,b,0,6/b,b,b,b r 6 1", 18),
            ("b,b,b,b/b,b,b,b r 4 0", 6),
            ("56,56,56,56/b,b,b,b r - 0", 0),
        ] {
            let p = pos(text);
            let played: u64 = p
                .actions()
                .into_iter()
                .map(|a| {
                    let mut child = p.clone();
                    child.apply(a);
                    child.count_children()
                })
                .sum();
            assert_eq!(p.count_grandchildren(), Some(want), "{text}");
            assert_eq!(played, want, "{text}");
        }
    }

    #[test]
    fn illegal_actions_are_refused_by_try_apply() {
        let mut p = pos("b,b,b,5/b,b,b,b r - 0");
        let before = p.clone();
        assert!(p.try_apply(Action::Single(Move::Enter)).is_err());
        assert!(p.try_apply(Action::Single(Move::Pass)).is_err());
        assert_eq!(p, before);
        assert!(p.try_apply(Action::Single(Move::Roll(3))).is_ok());
        assert!(p.try_apply(Action::Single(Move::Roll(3))).is_err());
        assert!(
            p.try_apply(Action::Single(Move::Step { from: 5, to: 9 }))
                .is_err()
        );
        assert!(
            p.try_apply(Action::Single(Move::Step { from: 5, to: 8 }))
                .is_ok()
        );
    }
}
