//! The rules interface every game implements (after OpenSpiel's `State`).
//!
//! A [`Game`] value is one position together with everything the rules need to continue
//! from it (side to move, counters, rule options). The kind of a node is a property of the
//! position, not of the game: see [`Node`]. Values are always seen from [`Player::First`].
//!
//! Repetition draws are *not* part of [`Game::node`]: they depend on the history of the game,
//! which a position does not hold. [`Game::repetition_window`] tells the history keeper
//! (the protocol session, the referee, the search) how far back a repetition may reach; see
//! `crate::history`.

use std::fmt::Debug;
use std::hash::Hash;

/// One of the two players. `First` moves first (the first of the game's declared `sides`)
/// and is the maximising side of every value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who starts; values are from this player's point of view.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The opponent of `self`.
    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    pub fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// +1 for `First`, -1 for `Second`: turns a first-player value into this player's.
    pub fn sign(self) -> i32 {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The named player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

/// Why a finished game ended: one of the reasons its game declares (see
/// [`crate::declaration`]).
pub use crate::declaration::EndReason;

/// What happens next at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// The named player chooses one move.
    Turn(Player),
    /// Both players choose a move at once, without seeing the other's (Apocalypse).
    Simultaneous,
    /// Nature draws one outcome of [`Game::chance_outcomes`] (Ludo's die).
    Chance,
    /// The game is over (judged without history; see the module documentation).
    Terminal(Outcome),
}

/// A buffer of moves. Callers keep one per ply and reuse it, so move generation does not
/// allocate once the buffers have grown.
pub type MoveList<M> = Vec<M>;

/// The values of the rule options a game reads (declared by each game; see
/// [`crate::declaration`]).
pub use crate::declaration::RuleOptions;

/// One step of a game as it appears in a move list: a move of one player, a chance outcome
/// (also a `Move` value, e.g. a Ludo roll) or a joint turn of a simultaneous node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action<M> {
    /// A move at a `Turn` node, or an outcome at a `Chance` node.
    Single(M),
    /// The two declarations of a `Simultaneous` node: first player's, then second's.
    Joint(M, M),
}

/// The error of [`Game::try_apply`]: the action is not legal in the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal action")]
pub struct IllegalAction;

/// The rules of one game. Implementations hold no I/O and no search code.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move, a chance outcome, or a declaration (for joint turns, one half).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// What kind of node this position is. Never reports repetition draws.
    fn node(&self) -> Node;

    /// Clears `out` and fills it with the legal moves of `p`, in a stable order (the same
    /// position always gives the same list). Empty unless `node()` is `Turn(p)` or
    /// `Simultaneous`.
    fn legal_moves(&self, p: Player, out: &mut MoveList<Self::Move>);

    /// Clears `out` and fills it with the outcomes of a `Chance` node and their positive
    /// integer weights, in a stable order. Empty at other nodes. The default, for a game
    /// without chance nodes, only clears `out`.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, u32)>) {
        out.clear();
    }

    /// Plays a legal move at a `Turn` node or a chance outcome at a `Chance` node.
    /// Unchecked: the search path. Behaviour for anything else is unspecified (no panic
    /// is promised either way), so callers outside the search use [`Game::try_apply`].
    fn play(&mut self, m: Self::Move);

    /// Plays a joint turn at a `Simultaneous` node (first player's declaration, then
    /// second's). Unchecked, like [`Game::play`]. Only games with simultaneous nodes
    /// override it; the others never reach one and keep this default, which does nothing.
    fn play_joint(&mut self, first: Self::Move, second: Self::Move) {
        let _ = (first, second);
    }

    /// Plays a joint turn of two declarations that [`Game::legal_moves`] gave for this
    /// position: the search's path. The default is [`Game::play_joint`]; a game whose
    /// `play_joint` judges each declaration (to play an illegal one as a forfeit, as the
    /// record of a game may hold) skips that work here.
    fn play_legal_joint(&mut self, first: Self::Move, second: Self::Move) {
        self.play_joint(first, second);
    }

    /// Why the game is over, when [`Game::node`] is `Terminal`: one of the reasons the
    /// game declares (never [`EndReason::REPETITION`], which needs the history); `None`
    /// while it goes on.
    fn end_reason(&self) -> Option<EndReason>;

    /// The Zobrist hash of the position (everything [`Game::node`] and the legal moves depend
    /// on), maintained incrementally by `play`.
    fn hash(&self) -> u64;

    /// Plies since the last irreversible event, if the game draws by repetition: a repeated
    /// position can only lie within this many plies back. `None` when the game has no
    /// repetition rule.
    fn repetition_window(&self) -> Option<u32> {
        None
    }

    /// The player whose turn it is in the everyday sense: the mover at a `Turn` node, the
    /// player about to roll at a `Chance` node (games with a side to roll override this),
    /// `None` at simultaneous and terminal nodes. Scores shown to users are from this
    /// player's view.
    fn acting_player(&self) -> Option<Player> {
        match self.node() {
            Node::Turn(p) => Some(p),
            _ => None,
        }
    }

    /// The number of children of this node (tokens in perft): legal moves, chance
    /// outcomes, or joint turns. Games override it with a faster count (bulk perft).
    fn count_children(&self) -> u64 {
        match self.node() {
            Node::Terminal(_) => 0,
            Node::Turn(p) => {
                let mut moves = MoveList::new();
                self.legal_moves(p, &mut moves);
                moves.len() as u64
            }
            Node::Chance => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                outcomes.len() as u64
            }
            Node::Simultaneous => {
                let mut a = MoveList::new();
                let mut b = MoveList::new();
                self.legal_moves(Player::First, &mut a);
                self.legal_moves(Player::Second, &mut b);
                (a.len() * b.len()) as u64
            }
        }
    }

    /// The number of grandchildren of this node (perft 2: the sum of the children's
    /// [`Game::count_children`]), when the game can count them without building the
    /// children; `None`, the default, makes the caller play each child. Ludo counts a roll's
    /// moves without rolling, and a move's rolls without moving.
    fn count_grandchildren(&self) -> Option<u64> {
        None
    }

    /// Every child action of this node in a stable order: moves at a `Turn` node, outcomes
    /// at a `Chance` node, all joint turns (first player's moves outer) at a `Simultaneous`
    /// node; nothing at a terminal. Allocates: for perft roots, protocol and tests.
    fn actions(&self) -> Vec<Action<Self::Move>> {
        match self.node() {
            Node::Terminal(_) => Vec::new(),
            Node::Turn(p) => {
                let mut moves = MoveList::new();
                self.legal_moves(p, &mut moves);
                moves.into_iter().map(Action::Single).collect()
            }
            Node::Chance => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                outcomes
                    .into_iter()
                    .map(|(m, _)| Action::Single(m))
                    .collect()
            }
            Node::Simultaneous => {
                let mut a = MoveList::new();
                let mut b = MoveList::new();
                self.legal_moves(Player::First, &mut a);
                self.legal_moves(Player::Second, &mut b);
                a.iter()
                    .flat_map(|&x| b.iter().map(move |&y| Action::Joint(x, y)))
                    .collect()
            }
        }
    }

    /// The child action of index `n` in the order of [`Game::actions`] (below
    /// [`Game::count_children`]), without listing them all: a simultaneous node's joint
    /// turns are the product of two lists (R&B's joint setup has 133,402,500). `None` past
    /// the end.
    fn nth_action(&self, n: u64) -> Option<Action<Self::Move>> {
        if self.node() != Node::Simultaneous {
            return self.actions().get(usize::try_from(n).ok()?).copied();
        }
        let mut a = MoveList::new();
        let mut b = MoveList::new();
        self.legal_moves(Player::First, &mut a);
        self.legal_moves(Player::Second, &mut b);
        let m = b.len() as u64;
        if m == 0 {
            return None;
        }
        let first = *a.get(usize::try_from(n / m).ok()?)?;
        Some(Action::Joint(first, b[(n % m) as usize]))
    }

    /// Whether `action` may be played here. The default accepts exactly the members of
    /// [`Game::actions`]; a game whose rules accept more (Apocalypse's void declarations)
    /// overrides it.
    fn is_legal(&self, action: Action<Self::Move>) -> bool {
        match (self.node(), action) {
            (Node::Turn(p), Action::Single(m)) => {
                let mut moves = MoveList::new();
                self.legal_moves(p, &mut moves);
                moves.contains(&m)
            }
            (Node::Chance, Action::Single(m)) => {
                let mut outcomes = Vec::new();
                self.chance_outcomes(&mut outcomes);
                outcomes.iter().any(|&(o, _)| o == m)
            }
            (Node::Simultaneous, Action::Joint(a, b)) => {
                let mut moves = MoveList::new();
                self.legal_moves(Player::First, &mut moves);
                let first_ok = moves.contains(&a);
                self.legal_moves(Player::Second, &mut moves);
                first_ok && moves.contains(&b)
            }
            _ => false,
        }
    }

    /// Plays `action` if [`Game::is_legal`] accepts it; otherwise leaves the position
    /// unchanged and returns [`IllegalAction`]. The path for referees and the protocol.
    fn try_apply(&mut self, action: Action<Self::Move>) -> Result<(), IllegalAction> {
        if !self.is_legal(action) {
            return Err(IllegalAction);
        }
        self.apply(action);
        Ok(())
    }

    /// Plays an action without checking it (a `Single` through `play`, a `Joint` through
    /// `play_joint`).
    fn apply(&mut self, action: Action<Self::Move>) {
        match action {
            Action::Single(m) => self.play(m),
            Action::Joint(a, b) => self.play_joint(a, b),
        }
    }
}
