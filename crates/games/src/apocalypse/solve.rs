//! An exact solver for small Apocalypse positions: backward induction over the whole
//! simultaneous game tree, solving the matrix game of every node with
//! [`quartet_core::matrix`]. Values are from White's view: win +1, loss -1, draw 0.
//!
//! The no-progress counter bounds every game, and it is part of the state here: positions are
//! memoised by (board hash, counter), where `Apocalypse::board_hash` leaves the counter out.
//! A value whose subtree never reached the counter limit holds for every smaller counter too
//! (the same tree with smaller counters), so such values are also kept by board hash alone,
//! under the largest counter they were found at. That makes positions
//! that end well before the limit cost one solve instead of one per counter value.
//!
//! By default the players choose among their legal declarations, as in the game tree of
//! `Game::actions` that the search sees; [`solve_exact_with_voids`] also lets either side
//! declare VOID (a pass that costs a penalty point), which the rules allow.
//!
//! [`ExactProver`] is the referee's adjudication by this solver (`quartet match
//! --adjudicate exact`): it proves a small position's result, solving under a work budget
//! per call whose finished subtrees stay memoised for the next call.

use super::board::{NO_PROGRESS_LIMIT, SQUARES};
use super::{Apocalypse, Move, Piece};
use quartet_core::exact::{Prover, SolveRequest};
use quartet_core::game::{Game, Node, Outcome, Player, RuleOptions};
use quartet_core::matrix::MatrixSolver;
use quartet_core::notation::Notation;
use std::collections::HashMap;

/// The value and optimal root strategies of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSolution {
    /// The game value from White's view (+1 win, -1 loss, 0 draw, or in between under mixed
    /// play).
    pub value: f64,
    /// White's optimal mixed strategy at the root: each declaration with its probability
    /// (empty if the game is over).
    pub white_strategy: Vec<(Move, f64)>,
    /// Black's optimal mixed strategy at the root.
    pub black_strategy: Vec<(Move, f64)>,
    /// The number of non-terminal positions solved (matrix games).
    pub nodes: u64,
}

/// `quartet solve` for Apocalypse (the game's [`quartet_core::exact::Solver`]): the exact value
/// from White's view, both sides' optimal root strategies and the work done.
pub fn solve_for_command(
    pos: &Apocalypse,
    _rules: &RuleOptions,
    request: &SolveRequest,
    _progress: &mut dyn FnMut(&str),
) -> Result<Vec<String>, String> {
    let started = std::time::Instant::now();
    let s = if request.void {
        solve_exact_with_voids(pos)
    } else {
        solve_exact(pos)
    };
    let strategy = |moves: &[(Move, f64)]| {
        moves
            .iter()
            .map(|&(m, p)| format!("{}={p:.6}", pos.format_move(m)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    Ok(vec![
        format!("value {:.6} (White's view: +1 a win, -1 a loss)", s.value),
        format!("white {}", strategy(&s.white_strategy)),
        format!("black {}", strategy(&s.black_strategy)),
        format!(
            "positions {} in {:.3} s",
            s.nodes,
            started.elapsed().as_secs_f64()
        ),
    ])
}

/// The most pieces on the board for which [`exact_value`] solves a position: four solve
/// within seconds from a fresh no-progress counter (`2n2/1p3/5/3P1/2N2 00 0`: 0.5 s with the
/// release build), six take minutes.
pub const EXACT_PIECES: u32 = 4;

/// White's exact expected score (a win 1, a draw ½) at `pos` when at most [`EXACT_PIECES`]
/// pieces are on the board, by [`solve_exact`]; `None` for other positions. The game's
/// [`quartet_core::notation::Notation::EXACT`].
pub fn exact_value(pos: &Apocalypse, _rules: &RuleOptions) -> Option<f64> {
    let pieces: u32 = [Player::First, Player::Second]
        .into_iter()
        .flat_map(|p| [Piece::Pawn, Piece::Knight].map(|k| pos.pieces_of(p, k).count_ones()))
        .sum();
    (pieces <= EXACT_PIECES).then(|| (solve_exact(pos).value + 1.0) / 2.0)
}

/// Solves `pos` exactly over the players' legal declarations. The work grows quickly with the
/// material: meant for a few pieces (see the module documentation).
pub fn solve_exact(pos: &Apocalypse) -> ExactSolution {
    solve_on_big_stack(pos, false)
}

/// Like [`solve_exact`], but either side may also declare VOID at every node.
pub fn solve_exact_with_voids(pos: &Apocalypse) -> ExactSolution {
    solve_on_big_stack(pos, true)
}

/// The stack for the recursion: a game can last hundreds of turns (50 per reset).
const STACK_BYTES: usize = 256 << 20;

fn solve_on_big_stack(pos: &Apocalypse, include_void: bool) -> ExactSolution {
    let solve = || ExactSolver::new(include_void).solve_root(pos);
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, solve)
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had: try on the caller's stack.
            Err(_) => solve(),
        }
    })
}

/// Backward induction with memoisation; reusable across positions of one game and rules.
#[derive(Debug)]
pub struct ExactSolver {
    include_void: bool,
    /// The values of the ends, from White's view: White wins, a draw, Black wins.
    ends: [f64; 3],
    /// The matrix games to solve at most (counting from the start); past it the search
    /// gives up, `aborted` is set and nothing more is memoised.
    budget: u64,
    aborted: bool,
    /// Off only in tests, to check the reuse of counter-free values against plain memoisation.
    no_reuse_across_counters: bool,
    /// Values whose subtree reached the counter limit: valid for this counter only.
    by_counter: HashMap<(u64, u16), f64>,
    /// Values whose subtree never reached the limit: valid for counters up to the one stored.
    by_hash: HashMap<u64, (u16, f64)>,
    nodes: u64,
}

impl Default for ExactSolver {
    fn default() -> Self {
        ExactSolver {
            include_void: false,
            ends: [1.0, 0.0, -1.0],
            budget: u64::MAX,
            aborted: false,
            no_reuse_across_counters: false,
            by_counter: HashMap::new(),
            by_hash: HashMap::new(),
            nodes: 0,
        }
    }
}

impl ExactSolver {
    /// An empty solver; `include_void` adds VOID to each side's declarations.
    pub fn new(include_void: bool) -> Self {
        ExactSolver {
            include_void,
            ..ExactSolver::default()
        }
    }

    /// An empty solver over the legal declarations whose ends are worth `ends` to White
    /// (White wins, a draw, Black wins) instead of +1, 0 and −1: with `[1, 1, 0]` the
    /// value is the chance White can make sure of not losing.
    pub fn valuing(ends: [f64; 3]) -> Self {
        ExactSolver {
            ends,
            ..ExactSolver::default()
        }
    }

    /// The value of `pos` from White's view, or `None` when `more` matrix games were not
    /// enough. What was solved stays memoised, so a later call goes on from there.
    pub fn value_within(&mut self, pos: &Apocalypse, more: u64) -> Option<f64> {
        self.budget = self.nodes.saturating_add(more);
        self.aborted = false;
        let (value, _) = self.search(pos);
        (!self.aborted).then_some(value)
    }

    /// The exact value of `pos` from White's view. Recursive: the depth is the game length.
    pub fn value(&mut self, pos: &Apocalypse) -> f64 {
        self.search(pos).0
    }

    /// The number of matrix games solved so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The declarations `p` chooses among at `pos`.
    pub fn declarations(&self, pos: &Apocalypse, p: Player) -> Vec<Move> {
        let mut moves = Vec::new();
        pos.legal_moves(p, &mut moves);
        if self.include_void && !moves.is_empty() {
            moves.push(Move::VOID);
        }
        moves
    }

    /// The value and both optimal strategies at `pos`.
    pub fn solve_root(&mut self, pos: &Apocalypse) -> ExactSolution {
        let white = self.declarations(pos, Player::First);
        let black = self.declarations(pos, Player::Second);
        if pos.node() != Node::Simultaneous {
            let value = self.value(pos);
            return self.solution(value, Vec::new(), Vec::new());
        }
        let payoff = self.payoff(pos, &white, &black).0;
        self.nodes += 1;
        let mut matrix = MatrixSolver::new();
        let value = matrix.solve(&payoff, white.len(), black.len());
        let zip = |moves: Vec<Move>, probabilities: &[f64]| {
            moves
                .into_iter()
                .zip(probabilities.iter().copied())
                .collect()
        };
        let white_strategy = zip(white, matrix.row_strategy());
        let black_strategy = zip(black, matrix.col_strategy());
        self.solution(value, white_strategy, black_strategy)
    }

    fn solution(
        &self,
        value: f64,
        white_strategy: Vec<(Move, f64)>,
        black_strategy: Vec<(Move, f64)>,
    ) -> ExactSolution {
        ExactSolution {
            value,
            white_strategy,
            black_strategy,
            nodes: self.nodes,
        }
    }

    /// The value of `pos` and whether it depends on the counter limit having been reached
    /// somewhere in its subtree.
    fn search(&mut self, pos: &Apocalypse) -> (f64, bool) {
        if let Node::Terminal(outcome) = pos.node() {
            let value = match outcome {
                Outcome::Win(Player::First) => self.ends[0],
                Outcome::Draw => self.ends[1],
                Outcome::Win(Player::Second) => self.ends[2],
            };
            return (value, pos.no_progress() >= NO_PROGRESS_LIMIT);
        }
        if self.aborted {
            return (0.0, false);
        }
        let (hash, counter) = (pos.board_hash(), pos.no_progress());
        if let Some(&(largest, value)) = self.by_hash.get(&hash)
            && counter <= largest
        {
            return (value, false);
        }
        if let Some(&value) = self.by_counter.get(&(hash, counter)) {
            return (value, true);
        }
        let white = self.declarations(pos, Player::First);
        let black = self.declarations(pos, Player::Second);
        let (payoff, reached_limit) = self.payoff(pos, &white, &black);
        if self.aborted {
            return (0.0, false);
        }
        let value = MatrixSolver::new().solve(&payoff, white.len(), black.len());
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
        }
        if reached_limit || self.no_reuse_across_counters {
            self.by_counter.insert((hash, counter), value);
        } else {
            let entry = self.by_hash.entry(hash).or_insert((counter, value));
            if counter >= entry.0 {
                *entry = (counter, value);
            }
        }
        (value, reached_limit)
    }

    /// The matrix of child values (White's declarations are rows) and whether any child's
    /// value depends on the counter limit.
    fn payoff(&mut self, pos: &Apocalypse, white: &[Move], black: &[Move]) -> (Vec<f64>, bool) {
        let mut payoff = Vec::with_capacity(white.len() * black.len());
        let mut reached_limit = false;
        for &w in white {
            for &b in black {
                let mut child = pos.clone();
                child.play_joint(w, b);
                let (value, limit) = self.search(&child);
                payoff.push(value);
                reached_limit |= limit;
            }
        }
        (payoff, reached_limit)
    }
}

/// Pieces on the board at most for [`ExactProver`] to try: four pieces from a fresh
/// no-progress counter take about 340,000 matrix games to solve (a few seconds), five
/// already more than a minute.
pub const PROVER_PIECES: usize = 4;

/// Matrix games [`ExactProver`] solves per position at most, for each of its three values.
pub const PROVER_BUDGET: u64 = 20_000;

/// Proves the results of small positions of one game: a certain win for one side (the
/// game value is +1 or −1: a strategy wins against every answer), or a certain draw (each
/// side can make sure of not losing). One prover serves one game: its solvers keep what
/// they solved from one position to the next.
#[derive(Debug)]
pub struct ExactProver {
    /// +1 a White win, 0 a draw, −1 a Black win.
    value: ExactSolver,
    /// White's chance of not losing.
    not_lose: ExactSolver,
    /// White's chance of winning.
    win: ExactSolver,
    /// The budget of each solve.
    budget: u64,
}

impl ExactProver {
    /// A prover giving each solve `budget` matrix games per position.
    pub fn new(budget: u64) -> Self {
        ExactProver {
            value: ExactSolver::default(),
            not_lose: ExactSolver::valuing([1.0, 1.0, 0.0]),
            win: ExactSolver::valuing([1.0, 0.0, 0.0]),
            budget,
        }
    }
}

impl Prover<Apocalypse> for ExactProver {
    fn prove(&mut self, pos: &Apocalypse) -> Option<Outcome> {
        let pieces = (0..SQUARES as u8)
            .filter(|&sq| pos.cell(sq).is_some())
            .count();
        if pieces > PROVER_PIECES || pos.node() != Node::Simultaneous {
            return None;
        }
        let certain = |v: f64, target: f64| (v - target).abs() < 1e-9;
        let value = self.value.value_within(pos, self.budget)?;
        if certain(value, 1.0) {
            return Some(Outcome::Win(Player::First));
        }
        if certain(value, -1.0) {
            return Some(Outcome::Win(Player::Second));
        }
        if !certain(value, 0.0) {
            return None;
        }
        let not_lose = self.not_lose.value_within(pos, self.budget)?;
        let win = self.win.value_within(pos, self.budget)?;
        (certain(not_lose, 1.0) && certain(win, 0.0)).then_some(Outcome::Draw)
    }
}

/// The referee's prover for Apocalypse (the game's [`quartet_core::exact::MakeProver`]).
pub fn prover(_rules: &RuleOptions) -> Box<dyn Prover<Apocalypse>> {
    Box::new(ExactProver::new(PROVER_BUDGET))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;

    fn parse(text: &str) -> Apocalypse {
        Apocalypse::parse_position(text, &RuleOptions::default()).unwrap()
    }

    #[test]
    fn exact_values_cover_four_pieces_and_no_more() {
        let rules = RuleOptions::default();
        // White's expected score is the solved value (-1..+1) moved to 0..1.
        let four = parse("2n2/1p3/5/3P1/2N2 00 45");
        let want = (solve_exact(&four).value + 1.0) / 2.0;
        assert_eq!(exact_value(&four, &rules), Some(want));
        // Six pieces: not covered (and not solved: that takes minutes).
        assert_eq!(
            exact_value(&parse("1nn2/1pp2/5/3PP/2NN1 00 0"), &rules),
            None
        );
    }

    fn probability(strategy: &[(Move, f64)], pos: &Apocalypse, token: &str) -> f64 {
        strategy
            .iter()
            .find(|&&(m, _)| pos.format_move(m) == token)
            .map_or(0.0, |&(_, p)| p)
    }

    /// The largest gain of a pure deviation from the root strategies, with child values from
    /// a separate solver (so the root matrix is rebuilt independently of `solution`).
    fn root_equilibrium_gap(pos: &Apocalypse, solution: &ExactSolution, voids: bool) -> f64 {
        // The strategies list every declaration (weight 0 included), so trying each entry
        // tries every pure deviation; without voids that is every legal declaration.
        if !voids {
            for (p, strategy) in [
                (Player::First, &solution.white_strategy),
                (Player::Second, &solution.black_strategy),
            ] {
                let mut legal = quartet_core::game::MoveList::new();
                pos.legal_moves(p, &mut legal);
                assert_eq!(strategy.len(), legal.len(), "{p:?}");
            }
        }
        let mut solver = ExactSolver::new(voids);
        let value_of = |solver: &mut ExactSolver, w: Move, b: Move| {
            let mut child = pos.clone();
            child.play_joint(w, b);
            solver.value(&child)
        };
        let mut gap: f64 = 0.0;
        for &(w, _) in &solution.white_strategy {
            let payoff: f64 = solution
                .black_strategy
                .iter()
                .map(|&(b, q)| q * value_of(&mut solver, w, b))
                .sum();
            gap = gap.max(payoff - solution.value);
        }
        for &(b, _) in &solution.black_strategy {
            let payoff: f64 = solution
                .white_strategy
                .iter()
                .map(|&(w, p)| p * value_of(&mut solver, w, b))
                .sum();
            gap = gap.max(solution.value - payoff);
        }
        gap
    }

    #[test]
    fn a_forced_pawn_collision_is_a_draw() {
        // Each side's only declaration is a2a3 / a4a3: the pawns collide, nobody has a pawn.
        let pos = parse("5/p4/5/P4/5 00 0");
        let s = solve_exact(&pos);
        assert_eq!(s.value, 0.0);
        assert_eq!(s.nodes, 1);
        assert_eq!(s.white_strategy.len(), 1);
    }

    #[test]
    fn a_finished_game_has_its_result_as_value() {
        let s = solve_exact(&parse("4n/2p2/5/5/N4 00 0"));
        assert_eq!(s.value, -1.0);
        assert!(s.white_strategy.is_empty() && s.black_strategy.is_empty());
        assert_eq!(s.nodes, 0);
    }

    #[test]
    fn guessing_the_pawn_is_worth_a_half() {
        // Counter 49: every quiet turn ends the game in a draw. Black: c4c3 or e5d3. White
        // wins with a5c4 if the pawn stays (capture) and with e2c3 if it steps (the knight
        // beats the pawn on c3); every other pair is quiet. So the game is [[1,0],[0,1]]
        // plus rows of zeros: value 1/2, each side mixing its two choices evenly.
        let pos = parse("N3n/2p2/5/P3N/5 00 49");
        let s = solve_exact(&pos);
        assert!((s.value - 0.5).abs() < 1e-12);
        for (token, expected) in [("a5c4", 0.5), ("e2c3", 0.5), ("a2a3", 0.0)] {
            let p = probability(&s.white_strategy, &pos, token);
            assert!((p - expected).abs() < 1e-12, "{token}: {p}");
        }
        for token in ["c4c3", "e5d3"] {
            let q = probability(&s.black_strategy, &pos, token);
            assert!((q - 0.5).abs() < 1e-12, "{token}: {q}");
        }
        assert_eq!(s.white_strategy.len(), 7); // a5b3 a5c4 e2c1 e2c3 e2d4 a2a3 a2a4
        assert!(root_equilibrium_gap(&pos, &s, false) < 1e-9);
    }

    #[test]
    fn two_more_turns_let_white_force_the_win() {
        // As above with counter 48: e2c3 wins at once if the pawn steps (knight beats pawn);
        // if Black plays e5d3 instead, the c4 pawn is blocked by the knight on c3 and has no
        // other step, so Black must move the knight and a5c4 takes the last pawn next turn.
        let pos = parse("N3n/2p2/5/P3N/5 00 48");
        let mut solver = ExactSolver::new(false);
        let e2c3 = Move::new(9, 12, None).unwrap();
        let c4c3 = Move::new(17, 12, None).unwrap();
        let e5d3 = Move::new(24, 13, None).unwrap();
        for (b, token) in [(c4c3, "c4c3"), (e5d3, "e5d3")] {
            let mut child = pos.clone();
            child.play_joint(e2c3, b);
            assert_eq!(solver.value(&child), 1.0, "e2c3/{token}");
        }
    }

    #[test]
    fn voids_are_declarations_when_asked_for() {
        // Each side may push its pawn to a3 or declare VOID. Pushing together collides (draw),
        // a lone void gives the voider its second point (loss), two voids give both their
        // second point (draw): [[0, 1], [-1, 0]], a saddle point at the two pushes.
        let pos = parse("5/p4/5/P4/5 11 0");
        let s = solve_exact_with_voids(&pos);
        assert_eq!(s.value, 0.0);
        assert_eq!(s.white_strategy.len(), 2);
        assert_eq!(probability(&s.white_strategy, &pos, "a2a3"), 1.0);
        assert_eq!(probability(&s.black_strategy, &pos, "a4a3"), 1.0);
        // From 00 every pair ends the game except two voids, which lead to the position
        // above: two matrix games in all, and one without voids.
        let start = parse("5/p4/5/P4/5 00 0");
        let s = solve_exact_with_voids(&start);
        assert_eq!((s.value, s.nodes), (0.0, 2));
        assert_eq!(solve_exact(&start).nodes, 1);
    }

    #[test]
    fn reusing_counter_free_values_changes_no_value() {
        let pos = parse("2n2/1p3/5/3P1/2N2 00 40");
        let mut reusing = ExactSolver::new(false);
        let mut plain = ExactSolver::new(false);
        plain.no_reuse_across_counters = true;
        assert!((reusing.value(&pos) - plain.value(&pos)).abs() < 1e-9);
        assert!(reusing.nodes() < plain.nodes());
        assert!(plain.by_hash.is_empty());
        // Every (position, counter) the plain solver met has the same value in the other.
        let mut compared = 0;
        for (&(hash, counter), &value) in &plain.by_counter {
            let reused = match reusing.by_hash.get(&hash) {
                Some(&(largest, v)) if counter <= largest => Some(v),
                _ => reusing.by_counter.get(&(hash, counter)).copied(),
            };
            if let Some(reused) = reused {
                assert!(
                    (reused - value).abs() < 1e-9,
                    "hash {hash:x} counter {counter}"
                );
                compared += 1;
            }
        }
        assert!(compared > 100);
    }

    #[test]
    fn root_strategies_of_a_deeper_position_are_an_equilibrium() {
        let pos = parse("2n2/1p3/5/3P1/2N2 00 45");
        let s = solve_exact(&pos);
        assert!(s.value.abs() <= 1.0);
        assert!(s.nodes > 100);
        assert!(root_equilibrium_gap(&pos, &s, false) < 1e-9);
    }

    /// Solves larger positions and prints value, nodes and time.
    /// `cargo test --release --lib -- --ignored --nocapture solve::tests::solve_larger`
    #[test]
    #[ignore]
    fn solve_larger() {
        for text in ["N3n/2p2/5/P3N/5 00 48", "2n2/1p3/5/3P1/2N2 00 0"] {
            let started = std::time::Instant::now();
            let s = solve_exact(&parse(text));
            println!(
                "{text}: value {:.6}, {} nodes, {:.2} s",
                s.value,
                s.nodes,
                started.elapsed().as_secs_f64()
            );
        }
    }

    #[test]
    fn the_prover_proves_certain_results_only() {
        let mut prover = ExactProver::new(u64::MAX);
        // White's knight on d3 and pawn on a1 against Black's pawn on c5: a solved win
        // (`quartet solve` gives +1), and the same turned round for Black.
        assert_eq!(
            prover.prove(&parse("2p2/5/3N1/5/P4 00 0")),
            Some(Outcome::Win(Player::First))
        );
        assert_eq!(
            ExactProver::new(u64::MAX).prove(&parse("4p/5/1n3/5/2P2 00 0")),
            Some(Outcome::Win(Player::Second))
        );
        // The forced pawn collision: nobody keeps a pawn, a draw whatever is played.
        assert_eq!(
            ExactProver::new(u64::MAX).prove(&parse("5/p4/5/P4/5 00 0")),
            Some(Outcome::Draw)
        );
        // Value 0, but by a guess: White wins or loses with a half each (its chance of not
        // losing is 1/2), so no certain draw.
        let guess = parse("n4/PP3/p4/5/5 00 46");
        assert_eq!(ExactSolver::default().value(&guess), 0.0);
        assert_eq!(ExactProver::new(u64::MAX).prove(&guess), None);
        // Five pieces: not tried.
        assert_eq!(
            ExactProver::new(u64::MAX).prove(&parse("N3n/2p2/5/P3N/5 00 49")),
            None
        );
    }

    #[test]
    fn a_proof_too_big_for_one_budget_goes_on_at_the_next_call() {
        // The won position takes 39 matrix games: 10 per call are not enough at first.
        let pos = parse("2p2/5/3N1/5/P4 00 0");
        let mut prover = ExactProver::new(10);
        let results: Vec<Option<Outcome>> = (0..8).map(|_| prover.prove(&pos)).collect();
        assert_eq!(results[0], None);
        assert_eq!(results[7], Some(Outcome::Win(Player::First)));
        // An unbudgeted solver agrees with what was memoised under the budget.
        assert_eq!(ExactSolver::default().value(&pos), 1.0);
    }
}
