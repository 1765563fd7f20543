//! What a `go` will do, resolved once from the request and the node before anything runs:
//! the game is over, the engine rolls, a baseline player chooses, or the search runs with
//! its final limits, settings, root moves and skill level.

use super::skill::{Method, Skill};
use super::{SearchRequest, mix_seed, side_salt};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Action, Node, Outcome};
use quartet_core::notation::Notation;
use quartet_search::players::{Baseline, PlayerKind};
use quartet_search::{Limits, Settings};

/// What a `go` at one node does.
pub(crate) enum Plan<M> {
    /// Nothing: the game is over.
    Over(Outcome),
    /// A roll drawn from the seed (`EngineRolls` at a chance node).
    Roll,
    /// A baseline player's choice.
    Baseline(Baseline),
    /// The engine's search.
    Search(SearchPlan<M>),
}

/// A search, resolved: everything the request said, with the skill level applied.
pub(crate) struct SearchPlan<M> {
    /// The limits, a skill level's depth included.
    pub limits: Limits,
    /// The settings, the seed mixed with the position and side, a skill level's extra
    /// MultiPV candidates included.
    pub settings: Settings,
    /// The lines the client asked to see (`MultiPV`): a skill level's extra candidates
    /// are searched but not shown.
    pub shown_lines: usize,
    /// The only root moves to search (`go searchmoves`); empty for all.
    pub searchmoves: Vec<M>,
    /// The weakened level to choose with; `None` at full strength.
    pub skill: Option<Skill>,
    /// Whether the `info` lines carry `wdl` (`UCI_ShowWDL`).
    pub show_wdl: bool,
}

/// The plan of `request` at `root`, whose node (repetition included) is `node`.
pub(crate) fn resolve<G: Evaluate + Notation>(
    root: &G,
    node: Node,
    request: &SearchRequest,
) -> Plan<G::Move> {
    if let Node::Terminal(outcome) = node {
        return Plan::Over(outcome);
    }
    if node == Node::Chance && request.engine_rolls {
        return Plan::Roll;
    }
    if let Some(baseline) = request.player.baseline() {
        return Plan::Baseline(baseline);
    }
    let side = request.settings.side;
    let mut plan = SearchPlan {
        limits: request.limits,
        settings: Settings {
            seed: mix_seed(request.settings.seed, root.hash() ^ side_salt(side)),
            ..request.settings
        },
        shown_lines: request.settings.multipv,
        searchmoves: searchmoves(root, &request.searchmoves),
        skill: skill::<G>(request, node),
        show_wdl: request.show_wdl,
    };
    if let Some(skill) = &plan.skill {
        let moves = match node {
            Node::Turn(p) if plan.searchmoves.is_empty() => {
                let mut moves = Vec::new();
                root.legal_moves(p, &mut moves);
                moves.len()
            }
            Node::Turn(_) => plan.searchmoves.len(),
            _ => usize::MAX,
        };
        plan.settings.multipv = plan.settings.multipv.max(skill.candidates(moves));
        if skill.method == Method::PickBest {
            let depth = skill.depth();
            plan.limits.depth = Some(plan.limits.depth.map_or(depth, |d| d.min(depth)));
        }
    }
    Plan::Search(plan)
}

/// The weakened level the request asks for at this node: only for the search's own
/// player, at a side's turn or a side's declaration; `None` at full strength.
fn skill<G: Evaluate + Notation>(request: &SearchRequest, node: Node) -> Option<Skill> {
    let method = match node {
        Node::Turn(_) if G::DECLARATION.nodes.chance.is_some() => Method::Softmax,
        Node::Turn(_) => Method::PickBest,
        Node::Simultaneous if request.settings.side.is_some() => Method::Softmax,
        _ => return None,
    };
    if request.player != PlayerKind::Search {
        return None;
    }
    Skill::new(
        G::DECLARATION.skill_elo,
        G::SKILL_UNIT,
        request.strength,
        method,
    )
}

/// The root moves `tokens` name (already checked by `check_searchmoves`).
fn searchmoves<G: Notation>(root: &G, tokens: &[String]) -> Vec<G::Move> {
    tokens
        .iter()
        .filter_map(|t| match root.parse_action(t) {
            Ok(Action::Single(m)) => Some(m),
            _ => None,
        })
        .collect()
}
