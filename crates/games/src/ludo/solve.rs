//! Exact solutions of the 1- and 2-piece games (rule option `Pieces` = 1 or 2).
//!
//! A chance node is stored mover-relative: `V[s][m][o]` is the probability that the side to
//! roll wins, with its pieces `m`, the opponent's pieces `o` (each a multiset, in its own
//! frame) and `s` sixes already rolled this turn (0 to 2). The frames make the rules
//! colour-symmetric, so one table serves both colours and a position and its colour-swapped
//! mirror get values summing to 1 by construction. Decision nodes are not stored: their value
//! is the best successor (the mover maximises its own win probability).
//!
//! Captures make the state graph cyclic, so the table is found by Gauss–Seidel value iteration.
//! Sweeps visit states by decreasing total progress (without captures every move increases
//! progress, so one sweep would be exact), and a state is solved together with its mirror
//! (pieces swapped), which it reaches by a pass: the pair's two linear equations are solved
//! exactly instead of iterating the 5/6 pass loop. Sweeps stop when no value changes by more
//! than [`TOLERANCE`].

use super::board::{is_safe, other_frame};
use super::rules::{SIX, VOID_SIXES};
use super::{BASE, GOAL, LAST_TRACK, Ludo, Move, order_key};
use quartet_core::exact::SolveRequest;
use quartet_core::game::{Game, MoveList, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Sweeps stop once the largest change of a value in a sweep is below this.
pub const TOLERANCE: f64 = 1e-13;

/// Piece values in key form: 0 = base, 1..=57 = progress 0..=56.
const KEYS: usize = GOAL as usize + 2;

/// Marks "no capture" in the capture table.
const NONE: u32 = u32::MAX;

/// One piece move of a side for one die value: the progress reached and the side's new set.
#[derive(Clone, Copy, Default)]
struct Step {
    to: u8,
    next: u32,
}

/// Every multiset of `count` piece values for one side, with its transitions.
struct Sets {
    count: usize,
    /// The piece values of each set, in notation order.
    pieces: Vec<[u8; 2]>,
    /// The set of a key tuple `k0 * KEYS + k1` (or `k0` for one piece).
    rank: Vec<u32>,
    /// Piece moves per (set, die - 1), in notation order; `steps_len` holds how many.
    steps: Vec<[Step; 2]>,
    steps_len: Vec<u8>,
    /// The set after all pieces at progress q go to base, per (set, q <= 50); NONE if none.
    capture: Vec<u32>,
    /// Whether all pieces of the set are at the goal.
    done: Vec<bool>,
    /// Sum of piece keys: total progress, for the sweep order.
    progress: Vec<u16>,
}

impl Sets {
    fn new(count: usize) -> Sets {
        let mut pieces = Vec::new();
        let mut rank = vec![NONE; KEYS.pow(count as u32)];
        for k0 in 0..KEYS {
            for k1 in k0..if count == 2 { KEYS } else { k0 + 1 } {
                let keys = [k0, k1];
                rank[Self::slot(&keys[..count])] = pieces.len() as u32;
                pieces.push(keys.map(|k| (k as u8).wrapping_sub(1)));
            }
        }
        let mut sets = Sets {
            count,
            pieces,
            rank,
            steps: Vec::new(),
            steps_len: Vec::new(),
            capture: Vec::new(),
            done: Vec::new(),
            progress: Vec::new(),
        };
        for i in 0..sets.pieces.len() {
            let values = sets.pieces[i];
            let values = &values[..count];
            for die in 1..=SIX {
                let mut row = [Step::default(); 2];
                let mut n = 0;
                for (j, &v) in values.iter().enumerate() {
                    if j > 0 && values[j - 1] == v {
                        continue;
                    }
                    let to = match v {
                        BASE if die == SIX => 0,
                        BASE => continue,
                        _ if v + die <= GOAL => v + die,
                        _ => continue,
                    };
                    row[n] = Step {
                        to,
                        next: sets.replace(values, |w, first| w == v && first, to),
                    };
                    n += 1;
                }
                sets.steps.push(row);
                sets.steps_len.push(n as u8);
            }
            for q in 0..=LAST_TRACK {
                let next = if values.contains(&q) {
                    sets.replace(values, |w, _| w == q, BASE)
                } else {
                    NONE
                };
                sets.capture.push(next);
            }
            sets.done.push(values.iter().all(|&v| v == GOAL));
            let progress = values.iter().map(|&v| u16::from(order_key(v))).sum();
            sets.progress.push(progress);
        }
        sets
    }

    fn slot(keys: &[usize]) -> usize {
        keys.iter().fold(0, |acc, &k| acc * KEYS + k)
    }

    /// The set of the piece values `values`, in any order.
    fn index_of(&self, values: &[u8]) -> usize {
        let mut keys = [0usize; 2];
        for (k, &v) in keys.iter_mut().zip(values) {
            *k = usize::from(order_key(v));
        }
        keys[..self.count].sort_unstable();
        self.rank[Self::slot(&keys[..self.count])] as usize
    }

    /// The set after replacing the values selected by `pick(value, first_match)` with `to`.
    fn replace(&self, values: &[u8], pick: impl Fn(u8, bool) -> bool, to: u8) -> u32 {
        let mut out = [0u8; 2];
        let mut replaced = false;
        for (o, &v) in out.iter_mut().zip(values) {
            let chosen = pick(v, !replaced);
            replaced |= chosen;
            *o = if chosen { to } else { v };
        }
        self.index_of(&out[..self.count]) as u32
    }

    fn len(&self) -> usize {
        self.pieces.len()
    }

    fn steps(&self, set: usize, die: u8) -> &[Step] {
        let i = set * SIX as usize + usize::from(die - 1);
        &self.steps[i][..usize::from(self.steps_len[i])]
    }
}

/// Where a piece move leads, for the mover.
enum Next {
    /// All its pieces are home.
    Won,
    /// It rolls again: the state index (its set, the opponent's set).
    Again(usize),
    /// The opponent rolls: the state index (the opponent's set, its set).
    Turn(usize),
}

/// The chance node (m, o) at each sixes count `s`, its value being
/// `(moved[s] + passes[s] * (1 - V0(o, m))) / 6`.
struct Split {
    /// Sum over the dice with a piece move of the best successor value.
    moved: [f64; LAYERS],
    /// The number of dice with only `pass` (which hands the same sets to the opponent).
    passes: [f64; LAYERS],
}

/// Sixes counts a chance node can have (0 to 2).
const LAYERS: usize = VOID_SIXES as usize;

/// `quartet solve` for Ludo (the game's [`quartet_core::exact::Solver`]): solves the 1- or 2-piece
/// game whole, then prints the position's value and, at a decision node, every move's.
pub fn solve_for_command(
    pos: &Ludo,
    rules: &RuleOptions,
    request: &SolveRequest,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<String>, String> {
    if request.void {
        return Err("--void is an Apocalypse option".to_string());
    }
    let pieces = rules.get(&super::PIECES);
    if !(1..=2).contains(&pieces) {
        return Err(format!(
            "only the 1- and 2-piece Ludo games can be solved (--pieces), not {pieces}"
        ));
    }
    let s = LudoSolution::solve_reporting(pieces as u8, &mut |sweep, residual| {
        progress(&format!(
            "sweep {sweep}, largest change {residual:.1e} (done below {TOLERANCE:.0e})"
        ));
    });
    let mut lines = vec![
        format!(
            "solved the {pieces}-piece game: {} sweeps, residual {:.1e}, {:.1} MiB, {:.3} s",
            s.iterations,
            s.residual,
            s.memory_bytes() as f64 / (1 << 20) as f64,
            s.elapsed.as_secs_f64()
        ),
        format!("value {:.6} (P(Red wins))", s.value(pos)),
    ];
    let moves = s.move_values(pos);
    if !moves.is_empty() {
        let listed: Vec<String> = moves
            .iter()
            .map(|&(m, v)| format!("{}={v:.6}", pos.format_move(m)))
            .collect();
        lines.push(format!("moves {}", listed.join(" ")));
        lines.push(format!("best {}", pos.format_move(s.best_move(pos))));
    }
    Ok(lines)
}

/// The solved 1- and 2-piece games, each solved once in a process, when first needed.
static TABLES: [OnceLock<LudoSolution>; 2] = [OnceLock::new(), OnceLock::new()];

/// The exact P(Red wins) at `pos` when at most two pieces of each side are still short of
/// the goal, from the solved game of that many pieces (a piece at the goal takes no
/// further part in the game, so the rest is that game); `None` for other positions. The
/// first call solves the table (the 2-piece game: about 12 s with the release build, 68
/// MiB). The game's [`quartet_core::notation::Notation::EXACT`].
pub fn exact_value(pos: &Ludo, _rules: &RuleOptions) -> Option<f64> {
    let count = usize::from(pos.piece_count());
    let out = |side: Player| pos.pieces(side).iter().filter(|&&v| v != GOAL).count();
    let pieces = out(Player::First).max(out(Player::Second)).max(1);
    if pieces > 2 {
        return None;
    }
    // The position string with `count - pieces` pieces at the goal left out of each side
    // (a side's values are sorted, the goal last).
    let text = pos.format_position();
    let (lists, rest) = text.split_once(' ')?;
    let (red, yellow) = lists.split_once('/')?;
    let keep = |list: &str| -> Option<String> {
        let values: Vec<&str> = list.split(',').collect();
        let goal = GOAL.to_string();
        let dropped = values.len().checked_sub(pieces)?;
        let (kept, gone) = values.split_at(pieces);
        (gone.len() == dropped && gone.iter().all(|v| *v == goal)).then(|| kept.join(","))
    };
    let reduced = format!("{}/{} {rest}", keep(red)?, keep(yellow)?);
    debug_assert!(count >= pieces);
    let rules = RuleOptions::default()
        .with(&super::PIECES, pieces as i64)
        .ok()?;
    let small = Ludo::parse_position(&reduced, &rules).ok()?;
    let table = TABLES[pieces - 1].get_or_init(|| LudoSolution::solve(pieces as u8));
    Some(table.value(&small))
}

/// The exact values of every state of the `pieces`-piece game (see the module documentation).
pub struct LudoSolution {
    sets: Sets,
    /// `values[m * n + o][s]`: P(the side to roll wins) with its set `m`, the opponent's set
    /// `o` and `s` sixes (the layers of one state share a cache line).
    values: Vec<[f64; LAYERS]>,
    /// Gauss–Seidel sweeps until convergence.
    pub iterations: u32,
    /// The largest change of a value in the last sweep (below [`TOLERANCE`]).
    pub residual: f64,
    /// Wall time of [`LudoSolution::solve`].
    pub elapsed: Duration,
}

impl LudoSolution {
    /// Solves the game with `pieces` pieces per side.
    ///
    /// # Panics
    /// Unless `pieces` is 1 or 2 (the 3-piece table would need about 28 GB).
    pub fn solve(pieces: u8) -> LudoSolution {
        Self::solve_reporting(pieces, &mut |_, _| {})
    }

    /// [`LudoSolution::solve`], calling `report(sweeps, largest change)` after each sweep
    /// (the sweeps stop when the change is below the tolerance).
    ///
    /// # Panics
    /// Unless `pieces` is 1 or 2.
    pub fn solve_reporting(pieces: u8, report: &mut dyn FnMut(u32, f64)) -> LudoSolution {
        assert!(
            (1..=2).contains(&pieces),
            "only the 1- and 2-piece games can be solved, not {pieces}"
        );
        let clock = Instant::now();
        let sets = Sets::new(usize::from(pieces));
        let n = sets.len();
        let values = (0..n * n)
            .map(|i| match (sets.done[i / n], sets.done[i % n]) {
                (true, _) => [1.0; LAYERS],
                (false, true) => [0.0; LAYERS],
                (false, false) => [0.5; LAYERS],
            })
            .collect();
        let mut solution = LudoSolution {
            values,
            sets,
            iterations: 0,
            residual: f64::INFINITY,
            elapsed: Duration::ZERO,
        };
        let order = solution.sweep_order();
        while solution.residual >= TOLERANCE {
            solution.residual = solution.sweep(&order);
            solution.iterations += 1;
            report(solution.iterations, solution.residual);
        }
        solution.elapsed = clock.elapsed();
        solution
    }

    /// The bytes held by the value and transition tables.
    pub fn memory_bytes(&self) -> usize {
        let s = &self.sets;
        self.values.len() * std::mem::size_of::<[f64; LAYERS]>()
            + s.pieces.len() * 2
            + s.rank.len() * 4
            + s.steps.len() * std::mem::size_of::<[Step; 2]>()
            + s.steps_len.len()
            + s.capture.len() * 4
            + s.done.len()
            + s.progress.len() * 2
    }

    /// Unordered pairs {m, o} of unfinished sets, by decreasing total progress.
    fn sweep_order(&self) -> Vec<(u32, u32)> {
        let s = &self.sets;
        let mut pairs: Vec<(u32, u32)> = (0..s.len())
            .filter(|&m| !s.done[m])
            .flat_map(|m| {
                (m..s.len())
                    .filter(|&o| !s.done[o])
                    .map(move |o| (m as u32, o as u32))
            })
            .collect();
        pairs.sort_by_key(|&(m, o)| {
            std::cmp::Reverse(s.progress[m as usize] + s.progress[o as usize])
        });
        pairs
    }

    fn index(&self, m: usize, o: usize) -> usize {
        m * self.sets.len() + o
    }

    /// Where the mover's piece move `step` with die `die` leads when the opponent has `o`.
    fn next(&self, o: usize, step: Step, die: u8) -> Next {
        let mine = step.next as usize;
        if self.sets.done[mine] {
            return Next::Won;
        }
        let to = step.to;
        let captured = if to <= LAST_TRACK && !is_safe(to) {
            other_frame(to)
                .map(|q| self.sets.capture[o * (LAST_TRACK as usize + 1) + usize::from(q)])
                .filter(|&c| c != NONE)
        } else {
            None
        };
        let theirs = captured.map_or(o, |c| c as usize);
        if die == SIX || captured.is_some() || to == GOAL {
            Next::Again(self.index(mine, theirs))
        } else {
            Next::Turn(self.index(theirs, mine))
        }
    }

    /// The mover's value at `next`, reading an extra roll at sixes count `layer`.
    fn value_at(&self, next: Next, layer: usize) -> f64 {
        match next {
            Next::Won => 1.0,
            Next::Again(i) => self.values[i][layer],
            Next::Turn(i) => 1.0 - self.values[i][0],
        }
    }

    /// The chance node (m, o) split into moves and passes at every sixes count. Rolls 1 to
    /// 5 do not depend on the sixes count (they reset it); a 6 at sixes s leads to extra
    /// rolls at sixes s + 1 and is void at s = 2.
    fn split(&self, m: usize, o: usize) -> Split {
        let mut low = 0.0;
        let mut low_passes = 0.0;
        for die in 1..SIX {
            let best = self
                .sets
                .steps(m, die)
                .iter()
                .map(|&step| self.value_at(self.next(o, step, die), 0))
                .reduce(f64::max);
            match best {
                Some(v) => low += v,
                None => low_passes += 1.0,
            }
        }
        let mut six = [f64::NEG_INFINITY; 2];
        for &step in self.sets.steps(m, SIX) {
            for (layer, best) in six.iter_mut().enumerate() {
                *best = best.max(self.value_at(self.next(o, step, SIX), layer + 1));
            }
        }
        if six[0] == f64::NEG_INFINITY {
            let passes = low_passes + 1.0;
            Split {
                moved: [low; LAYERS],
                passes: [passes; LAYERS],
            }
        } else {
            Split {
                moved: [low + six[0], low + six[1], low],
                passes: [low_passes, low_passes, low_passes + 1.0],
            }
        }
    }

    /// One Gauss–Seidel sweep; returns the largest change of a value.
    fn sweep(&mut self, order: &[(u32, u32)]) -> f64 {
        let mut change: f64 = 0.0;
        for &(m, o) in order {
            let (m, o) = (m as usize, o as usize);
            let a = self.split(m, o);
            let b = self.split(o, m);
            // x = V0(m, o) and y = V0(o, m) pass to each other:
            // x = rx + cx (1 - y), y = ry + cy (1 - x), solved exactly.
            let (rx, cx) = (a.moved[0] / 6.0, a.passes[0] / 6.0);
            let (ry, cy) = (b.moved[0] / 6.0, b.passes[0] / 6.0);
            let x = (rx + cx - cx * ry - cx * cy) / (1.0 - cx * cy);
            let y = ry + cy * (1.0 - x);
            for (split, mine, theirs, other) in [(a, m, o, y), (b, o, m, x)] {
                let i = self.index(mine, theirs);
                let new: [f64; LAYERS] = std::array::from_fn(|s| {
                    (split.moved[s] + split.passes[s] * (1.0 - other)) / 6.0
                });
                for (old, v) in self.values[i].iter().zip(new) {
                    change = change.max((old - v).abs());
                }
                self.values[i] = new;
            }
        }
        change
    }

    /// Calls `f(mover, opponent, sixes, value)` for every chance node whose game is not over:
    /// the pieces of the side to roll and of its opponent (each in its own frame, notation
    /// order), the sixes already rolled this turn (0 to 2) and P(the side to roll wins).
    pub fn for_each_chance_node(&self, mut f: impl FnMut(&[u8], &[u8], u8, f64)) {
        let s = &self.sets;
        for m in (0..s.len()).filter(|&m| !s.done[m]) {
            for o in (0..s.len()).filter(|&o| !s.done[o]) {
                let values = &self.values[self.index(m, o)];
                for (sixes, &v) in values.iter().enumerate() {
                    f(
                        &s.pieces[m][..s.count],
                        &s.pieces[o][..s.count],
                        sixes as u8,
                        v,
                    );
                }
            }
        }
    }

    /// P(Red wins) at `pos`, which must have this solution's number of pieces.
    ///
    /// # Panics
    /// If `pos` has another number of pieces per side.
    pub fn value(&self, pos: &Ludo) -> f64 {
        assert_eq!(
            usize::from(pos.piece_count()),
            self.sets.count,
            "the position has another number of pieces than the solution"
        );
        match pos.node() {
            Node::Terminal(Outcome::Win(Player::First)) => 1.0,
            Node::Terminal(_) => 0.0,
            Node::Chance => {
                let mover = pos.side_to_move();
                let m = self.sets.index_of(pos.pieces(mover));
                let o = self.sets.index_of(pos.pieces(mover.other()));
                let v = self.values[self.index(m, o)][usize::from(pos.sixes())];
                if mover == Player::First { v } else { 1.0 - v }
            }
            _ => {
                let values = self.move_values(pos);
                let pick = if pos.side_to_move() == Player::First {
                    f64::max
                } else {
                    f64::min
                };
                values.iter().map(|&(_, v)| v).reduce(pick).unwrap_or(0.5)
            }
        }
    }

    /// Each legal move at the decision node `pos` with P(Red wins) after it, in the order of
    /// `legal_moves`; empty at other nodes.
    pub fn move_values(&self, pos: &Ludo) -> Vec<(Move, f64)> {
        let mut moves = MoveList::new();
        pos.legal_moves(pos.side_to_move(), &mut moves);
        moves
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play(m);
                (m, self.value(&child))
            })
            .collect()
    }

    /// The move that maximises the mover's win probability at the decision node `pos` (the
    /// first such in `legal_moves` order); `Move::Pass` at other nodes.
    pub fn best_move(&self, pos: &Ludo) -> Move {
        let sign = f64::from(pos.side_to_move().sign());
        self.move_values(pos)
            .into_iter()
            .fold(None, |best: Option<(Move, f64)>, (m, v)| match best {
                Some((_, b)) if sign * v <= sign * b => best,
                _ => Some((m, v)),
            })
            .map_or(Move::Pass, |(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;
    use rand::{RngExt, SeedableRng};
    use std::sync::OnceLock;

    fn one_piece() -> &'static LudoSolution {
        static SOLUTION: OnceLock<LudoSolution> = OnceLock::new();
        SOLUTION.get_or_init(|| LudoSolution::solve(1))
    }

    fn pos(text: &str, pieces: u8) -> Ludo {
        let rules = RuleOptions::default()
            .with(&crate::ludo::PIECES, i64::from(pieces))
            .expect("a piece count in range");
        Ludo::parse_position(text, &rules).expect(text)
    }

    #[test]
    fn pieces_at_the_goal_leave_the_smaller_game_s_exact_value() {
        // Three pieces of each side at the goal: the 1-piece game of the fourth ones, with
        // the die and sixes as they are (values by hand from the 1-piece table itself).
        let rules = RuleOptions::default();
        for (four, one) in [
            ("10,56,56,56/30,56,56,56 r - 0", "10/30 r - 0"),
            ("b,56,56,56/55,56,56,56 y 6 1", "b/55 y 6 1"),
            ("56,56,56,56/b,56,56,56 r - 0", "56/b r - 0"),
        ] {
            let got = exact_value(&pos(four, 4), &rules).expect("covered");
            assert_eq!(got, one_piece().value(&pos(one, 1)), "{four}");
        }
        // Pieces is the game's rule, not a limit of the table: a 2-piece game's position
        // with one piece each left is the 1-piece game's too.
        let two = exact_value(&pos("40,56/b,56 r - 0", 2), &rules).expect("covered");
        assert_eq!(two, one_piece().value(&pos("40/b r - 0", 1)));
        // Three pieces short of the goal: not covered (and nothing is solved to say so).
        assert_eq!(
            exact_value(&pos("1,2,3,56/b,56,56,56 r - 0", 4), &rules),
            None
        );
    }

    fn all_values() -> impl Iterator<Item = u8> {
        std::iter::once(BASE).chain(0..=GOAL)
    }

    /// The chance-node value recomputed from the rules engine: the average over the six
    /// rolls of the mover's best successor, each successor valued by `solution`.
    fn bellman(solution: &LudoSolution, pos: &Ludo) -> f64 {
        let mut total = 0.0;
        for d in 1..=SIX {
            let mut rolled = pos.clone();
            rolled.play(Move::Roll(d));
            let mut moves = MoveList::new();
            rolled.legal_moves(rolled.side_to_move(), &mut moves);
            let children = moves.iter().map(|&m| {
                let mut child = rolled.clone();
                child.play(m);
                solution.value(&child)
            });
            total += if pos.side_to_move() == Player::First {
                children.fold(f64::NEG_INFINITY, f64::max)
            } else {
                children.fold(f64::INFINITY, f64::min)
            };
        }
        total / 6.0
    }

    /// Checks the Bellman equation and the range at every chance node whose sets are listed.
    fn check_all_states(solution: &LudoSolution, sets: &[Vec<u8>]) {
        let mut worst: f64 = 0.0;
        for red in sets {
            for yellow in sets {
                for side in [Player::First, Player::Second] {
                    for sixes in 0..VOID_SIXES {
                        let p = Ludo::from_parts(red, yellow, side, 0, sixes);
                        if p.node() != Node::Chance {
                            continue;
                        }
                        let v = solution.value(&p);
                        assert!((0.0..=1.0).contains(&v), "{v}");
                        worst = worst.max((v - bellman(solution, &p)).abs());
                    }
                }
            }
        }
        assert!(worst < 1e-10, "largest Bellman residual {worst}");
    }

    #[test]
    fn one_piece_solution_satisfies_the_bellman_equations_everywhere() {
        let solution = one_piece();
        assert!(solution.residual < TOLERANCE);
        let sets: Vec<Vec<u8>> = all_values().map(|v| vec![v]).collect();
        check_all_states(solution, &sets);
    }

    #[test]
    fn one_piece_values_derived_by_hand() {
        let s = one_piece();
        let v = |text: &str| s.value(&pos(text, 1));
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // Both need one exact roll and nothing interacts: p = 1/6 + 5/6 (1 - p) = 6/11.
        assert!(close(v("55/55 r - 0"), 6.0 / 11.0));
        assert!(close(v("55/55 y - 0"), 5.0 / 11.0));
        // Red needing k <= 5 in its home column (or 6 from 50) still has 6/11 (see notes).
        for red in 50..=55 {
            assert!(close(v(&format!("{red}/55 r - 0")), 6.0 / 11.0), "{red}");
        }
        // Red at 50 needs a 6; with two sixes rolled the 6 is void: 5/6 * 5/11 + 1/6 * 5/11.
        assert!(close(v("50/55 r - 2"), 5.0 / 11.0));
        assert!(close(v("50/55 r - 1"), 6.0 / 11.0));
        assert!(close(v("50/55 r 6 3"), 5.0 / 11.0));
        assert!(close(v("50/55 r 6 2"), 1.0));
        assert!(close(v("56/55 r - 0"), 1.0));
    }

    #[test]
    fn optimal_self_play_wins_as_often_as_the_start_value_says() {
        let s = one_piece();
        let rules = RuleOptions::default()
            .with(&crate::ludo::PIECES, i64::from(1))
            .expect("a piece count in range");
        let start = Ludo::start(&rules);
        let expected = s.value(&start);
        let games = 4_000;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut red_wins = 0;
        for _ in 0..games {
            let mut p = start.clone();
            while let Some(m) = match p.node() {
                Node::Chance => Some(Move::Roll(rng.random_range(1..=SIX))),
                Node::Turn(_) => Some(s.best_move(&p)),
                _ => None,
            } {
                p.play(m);
            }
            red_wins += u32::from(p.winner() == Some(Player::First));
        }
        let rate = f64::from(red_wins) / f64::from(games);
        let sigma = (expected * (1.0 - expected) / f64::from(games)).sqrt();
        assert!(
            (rate - expected).abs() < 4.0 * sigma,
            "{rate} vs {expected}"
        );
        assert!(expected > 0.5, "moving first is an advantage: {expected}");
    }

    #[test]
    fn every_unfinished_chance_node_is_listed_once_with_its_value() {
        let s = one_piece();
        let mut seen = std::collections::HashSet::new();
        s.for_each_chance_node(|mover, opponent, sixes, v| {
            let p = Ludo::from_parts(mover, opponent, Player::First, 0, sixes);
            assert_eq!(p.node(), Node::Chance);
            assert_eq!(v, s.value(&p));
            assert!(seen.insert((mover.to_vec(), opponent.to_vec(), sixes)));
        });
        // One piece per side: b and 0..=55 are unfinished (57 values), 3 sixes counts.
        assert_eq!(seen.len(), 57 * 57 * 3);
    }

    #[test]
    #[should_panic(expected = "only the 1- and 2-piece games")]
    fn three_pieces_are_refused() {
        let _ = LudoSolution::solve(3);
    }

    #[test]
    #[ignore = "solves the 2-piece game: about a minute in a debug build"]
    fn two_piece_solution_satisfies_the_bellman_equations_everywhere() {
        let solution = LudoSolution::solve(2);
        eprintln!(
            "2 pieces: {} sweeps, {:?}, {} MB",
            solution.iterations,
            solution.elapsed,
            solution.memory_bytes() >> 20
        );
        let mut sets = Vec::new();
        let values: Vec<u8> = all_values().collect();
        for (i, &a) in values.iter().enumerate() {
            for &b in &values[i..] {
                sets.push(vec![a, b]);
            }
        }
        check_all_states(&solution, &sets);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(
            solution.value(&pos("55,56/55,56 r - 0", 2)),
            6.0 / 11.0
        ));
        // Die 1 with 54 and 55: 55-56 reaches the goal and rolls again needing 2 against 1
        // (6/11); 54-55 leaves two exact 1s to Yellow's turn: f = 1/6 * 6/11 + 25/36 f gives
        // f = 36/121, and Yellow rolls first: 5/6 * 36/121 = 30/121.
        let p = pos("54,55/55,56 r 1 0", 2);
        let values = solution.move_values(&p);
        assert_eq!(values.len(), 2);
        assert_eq!(values[0].0, Move::Step { from: 54, to: 55 });
        assert!(close(values[0].1, 30.0 / 121.0), "{values:?}");
        assert!(close(values[1].1, 6.0 / 11.0), "{values:?}");
        assert_eq!(solution.best_move(&p), Move::Step { from: 55, to: 56 });
    }
}
