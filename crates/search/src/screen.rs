//! The root's screen of actions that lose at once: run before the first iteration, from the
//! rules alone (`play`, `node`, no evaluation and no search), and not counted in the node
//! budget, so that no budget, however small, plays such an action when another exists.
//!
//! **At a side's turn** a move loses at once when the game ends with it in the mover's
//! loss, or when the opponent's very next action can end it in the opponent's win: a reply
//! of theirs that wins, or, when a chance node follows the move (Ludo's die), such a reply
//! after every outcome (a loss certain whatever the roll; an outcome after which the
//! opponent cannot win at once, or does not act, makes the move safe). A simultaneous node
//! after the move is not looked into (no game has one there). Such a move is worth the
//! least a move can be worth (a loss as soon as a loss can come), so no other move is worse.
//!
//! **At a simultaneous turn** (Apocalypse, R&B's joint setup) a side's declaration *throws*
//! when every joint turn with it ends the game at once and none in that side's win. A
//! declaration loses at once when it throws and each joint turn with it is lost for its side
//! or drawn against a declaration of the other side that throws too (R&B's setup: an
//! arrangement that breaks the line rule, drawn against another that breaks it). Every
//! declaration that does not lose at once is then at least as good as one that does against
//! every declaration of the other side (against a declaration that does not throw the one
//! that loses at once loses; against one that throws, the other is drawn or won), so leaving
//! them out keeps the value of the root's matrix game and its equilibria.
//!
//! A side whose every action loses at once keeps them all: the guarantee is about a choice.

use quartet_core::game::{Game, MoveList, Node, Outcome, Player};

/// Keeps the items of `items` whose move (`move_of`, a legal move of `p` at the turn node
/// `pos`) does not lose at once, unless every one does (then all stay). The order is kept.
pub(crate) fn keep_safe_moves<G: Game, T>(
    pos: &G,
    p: Player,
    items: &mut Vec<T>,
    move_of: impl Fn(&T) -> G::Move,
) {
    let mut scratch = Scratch {
        replies: MoveList::new(),
        outcomes: Vec::new(),
    };
    let loses: Vec<bool> = items
        .iter()
        .map(|item| move_loses_at_once(pos, p, move_of(item), &mut scratch))
        .collect();
    if loses.iter().all(|&l| l) {
        return;
    }
    let mut keep = loses.iter().map(|&l| !l);
    items.retain(|_| keep.next().unwrap_or(true));
}

/// Buffers of the turn screen, reused across its moves.
struct Scratch<M> {
    replies: MoveList<M>,
    outcomes: Vec<(M, u32)>,
}

/// Whether `m`, a legal move of `p` at the turn node `pos`, loses at once (the module
/// documentation).
fn move_loses_at_once<G: Game>(pos: &G, p: Player, m: G::Move, s: &mut Scratch<G::Move>) -> bool {
    let mut after = pos.clone();
    after.play(m);
    let opponent = p.other();
    match after.node() {
        Node::Chance => {
            after.chance_outcomes(&mut s.outcomes);
            let outcomes = std::mem::take(&mut s.outcomes);
            let certain = !outcomes.is_empty()
                && outcomes.iter().all(|&(o, _)| {
                    let mut rolled = after.clone();
                    rolled.play(o);
                    wins_at_once(&rolled, opponent, &mut s.replies)
                });
            s.outcomes = outcomes;
            certain
        }
        _ => wins_at_once(&after, opponent, &mut s.replies),
    }
}

/// Whether `winner` has won at `pos`, or is to move there and has a move that wins.
fn wins_at_once<G: Game>(pos: &G, winner: Player, replies: &mut MoveList<G::Move>) -> bool {
    match pos.node() {
        Node::Terminal(outcome) => outcome == Outcome::Win(winner),
        Node::Turn(p) if p == winner => {
            pos.legal_moves(p, replies);
            replies.iter().any(|&r| {
                let mut child = pos.clone();
                child.play(r);
                child.node() == Node::Terminal(Outcome::Win(winner))
            })
        }
        _ => false,
    }
}

/// What a joint turn does at once.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Immediate {
    /// The game goes on.
    GoesOn,
    /// The game ends so.
    Ends(Outcome),
}

/// The joint turn (`first`, `second`) at `pos`, by what it does at once.
fn joint<G: Game>(pos: &G, first: G::Move, second: G::Move) -> Immediate {
    let mut child = pos.clone();
    child.play_legal_joint(first, second);
    match child.node() {
        Node::Terminal(outcome) => Immediate::Ends(outcome),
        _ => Immediate::GoesOn,
    }
}

/// Whether a joint turn that does `i` at once is one of the joint turns of a declaration
/// of `p` that throws (the game ends, not in `p`'s win).
fn throws_in(i: Immediate, p: Player) -> bool {
    matches!(i, Immediate::Ends(o) if o != Outcome::Win(p))
}

/// Which of the declarations `rows` (the first player's) and `cols` (the second's) at the
/// simultaneous node `pos` lose at once (the module documentation), from every joint turn
/// played once: for a node whose matrix the search builds (at most
/// `simultaneous::wide::WIDE_CELLS` joint turns). Each side's flags are all false when every one of
/// its declarations loses at once (the guarantee is about a choice).
pub(crate) fn declarations_that_lose<G: Game>(
    pos: &G,
    rows: &[G::Move],
    cols: &[G::Move],
) -> (Vec<bool>, Vec<bool>) {
    let m = cols.len();
    let cells: Vec<Immediate> = rows
        .iter()
        .flat_map(|&a| cols.iter().map(move |&b| joint(pos, a, b)))
        .collect();
    let cell = |i: usize, j: usize| cells[i * m + j];
    let row_throws: Vec<bool> = (0..rows.len())
        .map(|i| (0..m).all(|j| throws_in(cell(i, j), Player::First)))
        .collect();
    let col_throws: Vec<bool> = (0..m)
        .map(|j| (0..rows.len()).all(|i| throws_in(cell(i, j), Player::Second)))
        .collect();
    let draw = Immediate::Ends(Outcome::Draw);
    let mut first: Vec<bool> = (0..rows.len())
        .map(|i| row_throws[i] && (0..m).all(|j| cell(i, j) != draw || col_throws[j]))
        .collect();
    let mut second: Vec<bool> = (0..m)
        .map(|j| col_throws[j] && (0..rows.len()).all(|i| cell(i, j) != draw || row_throws[i]))
        .collect();
    for flags in [&mut first, &mut second] {
        if flags.iter().all(|&l| l) {
            flags.fill(false);
        }
    }
    (first, second)
}

/// A declaration of `p` at the wide simultaneous node `pos` (`rows` the first player's
/// declarations, `cols` the second's) that does not lose at once, found by a joint turn
/// with it that goes on or is won for `p` (so the declaration does not even throw): the
/// other side's declarations in order, each against all of `p`'s, until one is found.
/// Far cheaper than judging every joint turn: at R&B's setup any arrangement that keeps
/// the line rule goes on or wins against any declaration, so the first such arrangement is
/// found against the other side's first, after at most the 2,100 that break it. At most
/// `rows.len() + cols.len()` joint turns (one round of the double oracle's cells) are
/// played; `None` when none was found within them.
pub(crate) fn safe_wide_declaration<G: Game>(
    pos: &G,
    p: Player,
    rows: &[G::Move],
    cols: &[G::Move],
) -> Option<usize> {
    let (own, other) = match p {
        Player::First => (rows, cols),
        Player::Second => (cols, rows),
    };
    let budget = rows.len() + cols.len();
    let pairs = other
        .iter()
        .flat_map(|&o| own.iter().enumerate().map(move |(k, &d)| (k, d, o)));
    for (k, d, o) in pairs.take(budget) {
        let i = match p {
            Player::First => joint(pos, d, o),
            Player::Second => joint(pos, o, d),
        };
        if !throws_in(i, p) {
            return Some(k);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use quartet_core::game::RuleOptions;
    use quartet_core::notation::Notation;
    use quartet_games::apocalypse::Apocalypse;
    use quartet_games::rnb::Rnb;
    use quartet_testkit::toys::{
        DiceRace, TicTacToe, WIDE_SIZE, dominant, matching_pennies, wide_dominant,
    };

    /// The moves of the side to move at `pos` that the screen keeps.
    fn kept<G: Game>(pos: &G) -> Vec<G::Move> {
        let Node::Turn(p) = pos.node() else {
            panic!("a turn node");
        };
        let mut moves = MoveList::new();
        pos.legal_moves(p, &mut moves);
        keep_safe_moves(pos, p, &mut moves, |&m| m);
        moves
    }

    fn played<G: Game>(mut pos: G, moves: &[G::Move]) -> G {
        for &m in moves {
            pos.play(m);
        }
        pos
    }

    #[test]
    fn a_move_that_lets_the_opponent_complete_a_line_loses_at_once() {
        // X on 0 1, O on 3 4, X to move: 2 wins and 5 blocks; 6, 7 and 8 let O play 5.
        let pos = played(TicTacToe::new(), &[0, 3, 1, 4]);
        assert_eq!(kept(&pos), vec![2, 5]);
    }

    #[test]
    fn when_every_move_loses_at_once_all_stay() {
        // X on 0 1 8, O on 2 3 4 threatening 5 and 6, X to move without a win of its own.
        let pos = played(TicTacToe::new(), &[0, 2, 1, 3, 8, 4]);
        assert_eq!(kept(&pos), vec![5, 6, 7]);
    }

    #[test]
    fn after_a_die_only_a_loss_certain_whatever_the_roll_counts() {
        // The first player at 2 with a roll of 1 to play, the second at 6 of 7: advancing
        // leaves it at 6, and every roll then wins; pushing it back to 5 leaves it a roll
        // of 1 that does not.
        let rolls = |r: u8| 100 + r;
        let at_six = played(
            DiceRace::new(),
            &[rolls(1), 0, rolls(3), 0, rolls(1), 0, rolls(3), 0, rolls(1)],
        );
        assert_eq!(kept(&at_six), vec![1]);
        // At 5, a roll of 1 does not win: neither move loses at once.
        let at_five = played(
            DiceRace::new(),
            &[rolls(1), 0, rolls(2), 0, rolls(1), 0, rolls(3), 0, rolls(1)],
        );
        assert_eq!(kept(&at_five), vec![0, 1]);
    }

    #[test]
    fn a_move_that_leaves_the_enemy_king_its_way_to_the_base_loses_at_once() {
        // R&B: North's king on d2 steps onto South's empty base next; only the soldier
        // stepping onto d1 stops it (a quiet move, which quiescence does not look at).
        let pos = Rnb::parse_position("6/6/6/6/3k2/K3R1 s 0000 0", &RuleOptions::default())
            .expect("a position");
        let kept: Vec<String> = kept(&pos).iter().map(|&m| pos.format_move(m)).collect();
        assert_eq!(kept, ["e1d1"]);
    }

    #[test]
    fn apocalypse_declarations_that_only_draw_against_one_that_throws_lose_at_once() {
        // White's one declaration, d3d4, leaves it no legal move (a draw) unless d5d4 meets
        // it and the collision takes White's last pawn.
        let pos = Apocalypse::parse_position("2pp1/5/3P1/p4/1n3 00 1", &RuleOptions::default())
            .expect("a position");
        let (mut rows, mut cols) = (MoveList::new(), MoveList::new());
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        let (first, second) = declarations_that_lose(&pos, &rows, &cols);
        assert_eq!(first, [false], "White's only declaration stays");
        let safe: Vec<String> = cols
            .iter()
            .zip(&second)
            .filter(|&(_, &l)| !l)
            .map(|(&m, _)| pos.format_move(m))
            .collect();
        assert_eq!(safe, ["d5d4"]);
    }

    #[test]
    fn a_dominated_declaration_that_ends_the_game_loses_at_once() {
        let pos = dominant();
        let (mut rows, mut cols) = (MoveList::new(), MoveList::new());
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        let (first, second) = declarations_that_lose(&pos, &rows, &cols);
        assert_eq!(first, vec![true, true, false]);
        assert_eq!(second, vec![true, true, false]);
        // Matching pennies: every declaration throws, but each wins against one: none
        // loses at once.
        let pos = matching_pennies();
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        let (first, second) = declarations_that_lose(&pos, &rows, &cols);
        assert_eq!((first, second), (vec![false, false], vec![false, false]));
    }

    #[test]
    fn the_wide_screen_finds_the_declaration_that_does_not_throw() {
        let pos = wide_dominant();
        let (mut rows, mut cols) = (MoveList::new(), MoveList::new());
        pos.legal_moves(Player::First, &mut rows);
        pos.legal_moves(Player::Second, &mut cols);
        let last = usize::from(WIDE_SIZE - 1);
        assert_eq!(
            safe_wide_declaration(&pos, Player::First, &rows, &cols),
            Some(last)
        );
        assert_eq!(
            safe_wide_declaration(&pos, Player::Second, &rows, &cols),
            Some(last)
        );
    }
}
