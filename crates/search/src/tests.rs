//! The search core against plain minimax / expectimax on the toy games and on short
//! positions of R&B and Duell: with the value-changing pruning switched off, every pruning
//! search must return exactly the plain value (design.md §3), over the root moves that do
//! not lose at once (`screen.rs`).

use super::searcher::Searcher;
use super::tt::TranspositionTable;
use super::{Features, Info, Limits, Root, SearchResult, Settings, search, search_root};
use quartet_core::eval::{Evaluate, MATE};
use quartet_core::game::RuleOptions;
use quartet_core::game::{Action, EndReason, Game, MoveList, Node, Player};
use quartet_core::notation::Notation;
use quartet_games::duell::Duell;
use quartet_games::rnb::Rnb;
use quartet_testkit::toys::{DiceRace, Nim, NimMove, TicTacToe};
use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicBool;

/// Plain minimax / expectimax with the search's depth rules: turn nodes cost a ply,
/// chance edges are free, values at depth 0 are static, chance values are rounded
/// weighted means of the children's (integer) values, halves away from zero.
pub(super) fn plain<G: Evaluate>(pos: &G, depth: i32, ply: u32) -> i32 {
    match pos.node() {
        Node::Terminal(o) => pos.terminal_value(o, ply),
        _ if depth <= 0 => pos.evaluate(),
        Node::Turn(p) => {
            let mut moves = Vec::new();
            pos.legal_moves(p, &mut moves);
            let values = moves.iter().map(|&m| {
                let mut c = pos.clone();
                c.play(m);
                p.sign() * plain(&c, depth - 1, ply + 1)
            });
            p.sign() * values.max().unwrap_or(-MATE)
        }
        Node::Chance => {
            let mut outs = Vec::new();
            pos.chance_outcomes(&mut outs);
            let total: i64 = outs.iter().map(|&(_, w)| i64::from(w)).sum();
            let sum: i64 = outs
                .iter()
                .map(|&(m, w)| {
                    let mut c = pos.clone();
                    c.play(m);
                    i64::from(w) * i64::from(plain(&c, depth, ply + 1))
                })
                .sum();
            (sum as f64 / total as f64).round() as i32
        }
        Node::Simultaneous => pos.evaluate(),
    }
}

/// [`plain`] at a root: a turn root leaves out the moves that lose at once while another
/// exists, as the search's screen does (`screen.rs`), so that depth 1 sees a reply that
/// wins at once.
fn plain_root<G: Evaluate>(pos: &G, depth: i32) -> i32 {
    let Node::Turn(p) = pos.node() else {
        return plain(pos, depth, 0);
    };
    let mut moves = Vec::new();
    pos.legal_moves(p, &mut moves);
    super::screen::keep_safe_moves(pos, p, &mut moves, |&m| m);
    let values = moves.iter().map(|&m| {
        let mut c = pos.clone();
        c.play(m);
        p.sign() * plain(&c, depth - 1, 1)
    });
    p.sign() * values.max().unwrap_or(-MATE)
}

fn exact_features() -> Settings {
    Settings {
        multipv: 1,
        features: Features {
            reductions: false,
            quiescence: false,
            tt_cutoffs: false,
        },
        ..Settings::default()
    }
}

/// The searched value at `depth`, from the first player's view.
/// A search of `pos` with a fresh 1 MiB table, passing each report to `info`.
fn run<G: Evaluate>(
    pos: &G,
    limits: &Limits,
    settings: &Settings,
    info: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let tt = TranspositionTable::new(1).expect("table");
    search(
        &Root::of(pos),
        limits,
        settings,
        &tt,
        &AtomicBool::new(false),
        info,
    )
}

/// Limits of `depth` iterations.
fn depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

/// Limits of `nodes` nodes.
fn nodes(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        ..Limits::default()
    }
}

fn searched<G: Evaluate>(pos: &G, plies: u32, settings: &Settings) -> i32 {
    let r = run(pos, &depth(plies), settings, &mut |_| {});
    match pos.node() {
        Node::Turn(p) => p.sign() * r.score,
        _ => r.score,
    }
}

/// Positions reached by playing the first `k` actions in a fixed pseudo-random way.
fn sample_positions<G: Game>(start: &G, count: usize, max_plies: usize) -> Vec<G> {
    let mut out = Vec::new();
    let mut seed = 12345u64;
    for _ in 0..count {
        let mut pos = start.clone();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let plies = (seed >> 33) as usize % max_plies;
        for _ in 0..plies {
            let actions = pos.actions();
            if actions.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.apply(actions[(seed >> 33) as usize % actions.len()]);
        }
        out.push(pos);
    }
    out
}

#[test]
fn tictactoe_is_a_draw() {
    let v = searched(&TicTacToe::new(), 9, &Settings::default());
    assert_eq!(v, 0);
}

/// The pruning search equals plain minimax / expectimax at depths 1 to 4 on `count`
/// non-terminal positions sampled from `start`.
fn search_equals_plain<G: Evaluate + std::fmt::Debug>(start: &G, count: usize, plies: usize) {
    search_equals_plain_to(start, count, plies, 4);
}

/// [`search_equals_plain`] at depths 1 to `max_depth`; returns how many positions were
/// compared (so a caller can tell that its sample was not all finished games).
fn search_equals_plain_to<G: Evaluate + std::fmt::Debug>(
    start: &G,
    count: usize,
    plies: usize,
    max_depth: u32,
) -> usize {
    let mut compared = 0;
    for pos in sample_positions(start, count, plies) {
        if matches!(pos.node(), Node::Terminal(_)) {
            continue;
        }
        compared += 1;
        for depth in 1..=max_depth {
            assert_eq!(
                searched(&pos, depth, &exact_features()),
                plain_root(&pos, depth as i32),
                "{pos:?} depth {depth}"
            );
        }
    }
    compared
}

#[test]
fn alphabeta_equals_minimax_on_short_rnb_and_duell_positions() {
    // Real games, not only toys: positions of up to 40 random plies (R&B's placements and
    // its first steps; Duell's opening and middle game), to depth 3 (plain minimax of
    // Duell's 37 moves a ply is 50,000 leaves at depth 3).
    let rules = RuleOptions::default();
    let rnb = search_equals_plain_to(&Rnb::start(&rules), 6, 40, 3);
    let duell = search_equals_plain_to(&Duell::start(&rules), 6, 40, 3);
    assert!(
        rnb >= 3 && duell >= 3,
        "compared {rnb} R&B, {duell} Duell positions"
    );
}

#[test]
fn alphabeta_equals_minimax_on_tictactoe() {
    search_equals_plain(&TicTacToe::new(), 40, 5);
}

#[test]
fn star1_equals_expectimax_on_the_dice_race() {
    search_equals_plain(&DiceRace::new(), 40, 12);
}

#[test]
fn finds_the_quickest_win() {
    // X: 0, 1; O: 3, 4; X to move: 2 wins at once (mate in 1 = MATE - 1).
    let mut pos = TicTacToe::new();
    for m in [0, 3, 1, 4] {
        pos.play(m);
    }
    let r = run(&pos, &depth(5), &Settings::default(), &mut |_| {});
    assert_eq!(r.best, Some(Action::Single(2)));
    assert_eq!(r.score, MATE - 1);
}

#[test]
fn node_limit_is_exact_and_still_gives_a_move() {
    let r = run(
        &TicTacToe::new(),
        &nodes(50),
        &Settings::default(),
        &mut |_| {},
    );
    assert_eq!(r.nodes, 50);
    assert!(r.best.is_some());
}

#[test]
fn a_set_stop_flag_still_gives_a_legal_move() {
    let tt = TranspositionTable::new(1).expect("table");
    let stop = AtomicBool::new(true);
    let r = search(
        &Root::of(&TicTacToe::new()),
        &Limits::default(),
        &Settings::default(),
        &tt,
        &stop,
        &mut |_| {},
    );
    assert!(matches!(r.best, Some(Action::Single(m)) if m < 9));
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let settings = Settings {
        multipv: 3,
        ..Settings::default()
    };
    let mut last = Vec::new();
    run(&TicTacToe::new(), &depth(3), &settings, &mut |info| {
        if info.depth == 3 {
            last.push((info.multipv, info.score, info.pv[0]));
        }
    });
    assert_eq!(last.len(), 3);
    assert_eq!(last.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(last[0].1 >= last[1].1 && last[1].1 >= last[2].1);
    assert!(last[0].2 != last[1].2 && last[1].2 != last[2].2 && last[0].2 != last[2].2);
}

#[test]
fn two_threads_still_solve_tictactoe_and_find_the_win() {
    let settings = Settings {
        threads: 2,
        ..Settings::default()
    };
    assert_eq!(searched(&TicTacToe::new(), 9, &settings), 0);
    let mut pos = TicTacToe::new();
    for m in [0, 3, 1, 4] {
        pos.play(m);
    }
    let r = run(&pos, &depth(5), &settings, &mut |_| {});
    assert_eq!((r.best, r.score), (Some(Action::Single(2)), MATE - 1));
}

/// A search of `pos` to depth 6 with `threads` threads: its result and the last line it
/// reported.
fn result_and_last_line<G: Evaluate>(
    pos: &G,
    threads: usize,
) -> (SearchResult<G::Move>, Info<G::Move>) {
    let settings = Settings {
        threads,
        ..Settings::default()
    };
    let mut last = None;
    let r = run(pos, &depth(6), &settings, &mut |info| {
        last = Some(info.clone())
    });
    (r, last.expect("a line reported"))
}

#[test]
fn with_threads_the_move_played_is_the_last_line_reported_at_the_depth_asked() {
    // Whichever thread finishes depth 6 first ends the search (a helper skips depths, so
    // it may be first), and its lines are the last reported.
    for threads in [2, 3] {
        for _ in 0..20 {
            let (r, last) = result_and_last_line(&TicTacToe::new(), threads);
            assert_eq!((r.depth, last.depth), (6, 6));
            assert_eq!((r.best, r.score), (Some(last.pv[0]), last.score));
        }
    }
}

#[test]
fn with_threads_a_chance_root_reports_the_value_it_returns_at_the_depth_asked() {
    // The helpers start the root's outcomes elsewhere (smp.rs); whichever thread finishes
    // depth 6 first gives the value.
    for _ in 0..20 {
        let (r, last) = result_and_last_line(&DiceRace::new(), 2);
        assert_eq!((r.depth, last.depth, r.score), (6, 6, last.score));
        assert_eq!(r.best, None);
    }
}

thread_local! {
    /// The position [`Visits`] watches (its hash) and the moves played from it so far, on
    /// this thread.
    static VISITS: RefCell<(u64, Vec<u8>)> = const { RefCell::new((0, Vec::new())) };
}

/// A toy `G` that records, in [`VISITS`], every move played from the watched position:
/// the order in which a search visits that position's children.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Visits<G>(G);

impl<G: Game<Move = u8>> Game for Visits<G> {
    type Move = u8;
    fn node(&self) -> Node {
        self.0.node()
    }
    fn legal_moves(&self, p: Player, out: &mut MoveList<u8>) {
        self.0.legal_moves(p, out);
    }
    fn chance_outcomes(&self, out: &mut Vec<(u8, u32)>) {
        self.0.chance_outcomes(out);
    }
    fn play(&mut self, m: u8) {
        let here = self.0.hash();
        VISITS.with(|v| {
            let mut v = v.borrow_mut();
            if v.0 == here {
                v.1.push(m);
            }
        });
        self.0.play(m);
    }
    fn end_reason(&self) -> Option<EndReason> {
        self.0.end_reason()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
}

impl<G: Evaluate<Move = u8>> Evaluate for Visits<G> {
    const SKILL_UNIT: f64 = G::SKILL_UNIT;
    const MOVE_CODES: usize = G::MOVE_CODES;
    fn evaluate(&self) -> i32 {
        self.0.evaluate()
    }
    fn is_noisy(&self, m: u8) -> bool {
        self.0.is_noisy(m)
    }
    fn order_hint(&self, m: u8) -> i32 {
        self.0.order_hint(m)
    }
    fn move_code(m: u8) -> u32 {
        G::move_code(m)
    }
}

/// The children of `watched` in the order one search thread `thread`, alone, first visits
/// them in a search of `pos` to `plies` (each child once, at its first visit), after
/// `skip` visits (the root screen's, which come first).
fn first_visits<G: Evaluate<Move = u8>>(
    pos: &G,
    watched: &G,
    plies: u32,
    thread: usize,
    skip: usize,
) -> Vec<u8> {
    VISITS.with(|v| *v.borrow_mut() = (watched.hash(), Vec::new()));
    let pos = Visits(pos.clone());
    let (tt, stop) = (
        TranspositionTable::new(1).expect("table"),
        AtomicBool::new(false),
    );
    let (root, limits, settings) = (Root::of(&pos), depth(plies), Settings::default());
    let mut s = Searcher::new(&tt, &stop, None, &limits, settings.features, root.history);
    s.thread = thread;
    search_root(&mut s, &root, &limits, &settings, &mut |_| {});
    let mut firsts = Vec::new();
    for m in VISITS
        .with(|v| std::mem::take(&mut v.borrow_mut().1))
        .split_off(skip)
    {
        if !firsts.contains(&m) {
            firsts.push(m);
        }
    }
    firsts
}

#[test]
fn a_helper_searches_the_root_moves_after_the_first_from_half_way() {
    // TicTacToe's 9 root moves at depth 1 (both threads search that one iteration), after
    // the screen's 9 visits in the main thread's order: the helper keeps the first, then
    // goes on from the fifth of the other 8 (`smp::root_order`, derived by hand:
    // 1 + (4 + i) % 8 for i = 0..8).
    let start = TicTacToe::new();
    let main = first_visits(&start, &start, 1, 0, 9);
    let helper = first_visits(&start, &start, 1, 1, 9);
    assert_eq!(main.len(), 9);
    let expected: Vec<u8> = [0, 5, 6, 7, 8, 1, 2, 3, 4]
        .iter()
        .map(|&i| main[i])
        .collect();
    assert_eq!(helper, expected);
}

#[test]
fn a_helper_starts_the_rolls_of_a_chance_root_and_below_a_turn_root_half_way_round() {
    // DiceRace's rolls are 1, 2 and 3 (moves 101, 102, 103); half-way round three is the
    // second (`smp::start`: 1 * 3 / 2 = 1).
    let start = DiceRace::new();
    assert_eq!(first_visits(&start, &start, 2, 0, 0), vec![101, 102, 103]);
    assert_eq!(first_visits(&start, &start, 2, 1, 0), vec![102, 103, 101]);
    // After a roll of 2: the rolls after the root move 0 (one ply down) are rotated too.
    // The screen plays the first of them once before (after it the opponent cannot win at
    // once, so the move is safe and it looks no further).
    let mut rolled = DiceRace::new();
    rolled.play(102);
    let mut below = rolled.clone();
    below.play(0);
    assert_eq!(first_visits(&rolled, &below, 2, 0, 1), vec![101, 102, 103]);
    assert_eq!(first_visits(&rolled, &below, 2, 1, 1), vec![102, 103, 101]);
}

#[test]
fn with_threads_the_node_limit_counts_every_thread() {
    let settings = Settings {
        threads: 3,
        ..Settings::default()
    };
    let r = run(&DiceRace::new(), &nodes(20_000), &settings, &mut |_| {});
    // Checked at polls (every 1024 nodes per thread): a little over, never far over.
    assert!(
        r.nodes >= 20_000 && r.nodes < 20_000 + 3 * 1024,
        "{}",
        r.nodes
    );
}

thread_local! {
    /// How often [`PassingNim::null_move`] was asked on this thread.
    static NULL_MOVES_ASKED: Cell<u64> = const { Cell::new(0) };
}

/// Toy Nim offering the search a null move everywhere it is a turn node, with a
/// pseudo-random static value: a game that opts in to null-move pruning.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PassingNim(Nim);

impl Game for PassingNim {
    type Move = NimMove;
    fn node(&self) -> Node {
        self.0.node()
    }
    fn legal_moves(&self, p: Player, out: &mut MoveList<NimMove>) {
        self.0.legal_moves(p, out);
    }
    fn play(&mut self, m: NimMove) {
        self.0.play(m);
    }
    fn end_reason(&self) -> Option<EndReason> {
        None
    }
    /// Counts the plies without a take too, so that no position repeats (plain minimax
    /// knows no repetition draws).
    fn hash(&self) -> u64 {
        self.0.hash() ^ u64::from(self.0.since).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn repetition_window(&self) -> Option<u32> {
        self.0.repetition_window()
    }
}

impl Evaluate for PassingNim {
    /// The skill noise scale: a toy: any unit.
    const SKILL_UNIT: f64 = 100.0;
    const MOVE_CODES: usize = 4;
    fn evaluate(&self) -> i32 {
        (self.hash() % 201) as i32 - 100
    }
    fn is_noisy(&self, m: NimMove) -> bool {
        m == NimMove::Take(3)
    }
    fn order_hint(&self, _: NimMove) -> i32 {
        0
    }
    fn move_code(m: NimMove) -> u32 {
        match m {
            NimMove::Take(k) => u32::from(k.min(3)),
            NimMove::Pass => 0,
        }
    }
    fn null_move(&self) -> Option<Self> {
        NULL_MOVES_ASKED.with(|n| n.set(n.get() + 1));
        let mut child = self.clone();
        child.0.play(NimMove::Pass);
        Some(child)
    }
}

#[test]
fn null_moves_are_tried_only_with_reductions() {
    let start = PassingNim(Nim {
        stones: 15,
        side: Player::First,
        since: 0,
    });
    NULL_MOVES_ASKED.with(|n| n.set(0));
    search_equals_plain(&start, 30, 12);
    assert_eq!(NULL_MOVES_ASKED.with(Cell::get), 0);
    let r = run(&start, &depth(8), &Settings::default(), &mut |_| {});
    assert!(NULL_MOVES_ASKED.with(Cell::get) > 0);
    assert!(matches!(r.best, Some(Action::Single(_))));
}

/// Unfinished Duell positions of up to 40 random plies, and unfinished R&B positions of
/// up to 40 past their placements.
fn middle_games() -> (Vec<Duell>, Vec<Rnb>) {
    let rules = RuleOptions::default();
    let duell = sample_positions(&Duell::start(&rules), 12, 40)
        .into_iter()
        .filter(|p| !matches!(p.node(), Node::Terminal(_)))
        .collect();
    let rnb = sample_positions(&Rnb::start(&rules), 12, 40)
        .into_iter()
        .filter(|p| !matches!(p.node(), Node::Terminal(_)) && !p.in_placement())
        .collect();
    (duell, rnb)
}

/// The root's values at depths 4 and 5 with the given number of lines, exact features.
fn last_two_scores<G: Evaluate>(pos: &G, multipv: usize) -> (i32, i32) {
    let settings = Settings {
        multipv,
        ..exact_features()
    };
    let mut scores = [0; 6];
    run(pos, &depth(5), &settings, &mut |info| {
        if info.multipv == 1 {
            scores[info.depth as usize] = info.score;
        }
    });
    (scores[4], scores[5])
}

#[test]
fn aspiration_windows_find_the_values_of_the_whole_window() {
    // One line searches with aspiration windows (from depth 4), two lines with the whole
    // window; the search is exact (no pruning, no table cut-offs), so the first line's
    // value must agree. Where the value moved by more than the window (a quarter of the
    // pruning margin) from depth 4 to 5, a widened re-search was needed.
    let window = Duell::PRUNING.map_or(0, |p| p.margin / 4);
    let mut re_searched = 0;
    let (duell, rnb) = middle_games();
    let mut check = |one: (i32, i32), two: (i32, i32)| {
        assert_eq!(one, two);
        re_searched += usize::from((one.1 - one.0).abs() > window);
    };
    for pos in &duell {
        check(last_two_scores(pos, 1), last_two_scores(pos, 2));
    }
    for pos in &rnb {
        check(last_two_scores(pos, 1), last_two_scores(pos, 2));
    }
    assert!(duell.len() + rnb.len() >= 8, "too few positions");
    assert!(re_searched > 0, "no position needed a wider window");
}

/// The nodes a depth-0 search of `pos` visits with `features`.
fn horizon_nodes<G: Evaluate>(pos: &G, features: Features) -> u64 {
    let tt = TranspositionTable::new(1).expect("table");
    let stop = AtomicBool::new(false);
    let mut s = super::searcher::Searcher::new(&tt, &stop, None, &depth(1), features, &[]);
    s.value(pos, 0, 1, -MATE - 1, MATE + 1);
    s.nodes()
}

#[test]
fn a_node_in_danger_at_the_horizon_is_searched_a_ply_deeper() {
    let rules = RuleOptions::default();
    let parse = |text: &str| Duell::parse_position(text, &rules).expect("a position");
    // A Black die showing 1 on e2 attacks White's key on e1, White to move.
    let danger = parse("4BK4/9/9/9/9/9/4B124/4WK4 w 0 1");
    let calm = parse("4BK4/9/9/9/9/9/9/4WK4 w 0 1");
    let no_quiescence = Features {
        quiescence: false,
        ..Features::default()
    };
    assert!(horizon_nodes(&danger, no_quiescence) > 1);
    assert_eq!(horizon_nodes(&calm, no_quiescence), 1);
    // Only with the selective features, which exact searches switch off.
    let exact = Features {
        reductions: false,
        ..no_quiescence
    };
    assert_eq!(horizon_nodes(&danger, exact), 1);
}

#[test]
fn threats_past_the_horizon_do_not_stop_a_shallow_iteration_from_ending() {
    // Random Duell games leave keys open to threat after threat; each iteration's
    // extensions stop at twice its depth, so 2000 nodes complete the first iterations
    // (a review of a random game searches each position so).
    let rules = RuleOptions::default();
    let mut compared = 0;
    for pos in sample_positions(&Duell::start(&rules), 40, 120) {
        if matches!(pos.node(), Node::Terminal(_)) {
            continue;
        }
        compared += 1;
        let r = run(&pos, &nodes(2000), &Settings::default(), &mut |_| {});
        assert!(r.depth >= 2, "{pos:?}: depth {} in 2000 nodes", r.depth);
    }
    assert!(compared >= 20, "only {compared} positions");
}
