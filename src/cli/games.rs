//! `quartet games`: the registry as data, so that scripts and tests outside the crate
//! (`scripts/*.py`, `tests/python`) list the games, their node kinds and rule options from
//! the binary instead of writing them out.

use clap::Args;
use quartet_core::declaration::{RuleKind, RuleOption};
use quartet_core::eval::Evaluate;
use quartet_core::game::{Node, RuleOptions};
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_protocol::output::say;
use serde_json::{Value, json};

/// `quartet games`.
#[derive(Args)]
pub struct GamesArgs {
    /// Print only the names, one per line, in the `Game` option's order (for shell scripts).
    #[arg(long)]
    pub names: bool,
}

/// Prints every game of the registry: one line of JSON (an array), or the names.
pub fn run(args: &GamesArgs) -> Result<(), String> {
    if args.names {
        for game in GameKind::ALL {
            say(game.name());
        }
        return Ok(());
    }
    let games: Vec<Value> = GameKind::ALL.iter().map(|g| g.visit(Describe)).collect();
    say(Value::Array(games));
    Ok(())
}

/// One game as JSON: `name`, `title`, `default` (whether it is the default game), `nodes`
/// (`turns`, `simultaneous`, `chance`), `start` (the node kind of its start position under
/// the default rules: `turn`, `simultaneous` or `chance`), `rule_options`, `solver` (has
/// `quartet solve`), `tunable` (has Texel weights for `quartet tune`), `end_reasons`
/// (each `{"token", "words"}`, as `query reason` answers them) and `skill_elo` (the
/// measured `[level, Elo]` pairs, or `null` for a game on the provisional scale).
struct Describe;

impl GameVisitor for Describe {
    type Output = Value;
    fn visit<G: Evaluate + Notation>(self) -> Value {
        let d = &G::DECLARATION;
        let start = match G::start(&RuleOptions::default()).node() {
            Node::Turn(_) => "turn",
            Node::Simultaneous => "simultaneous",
            Node::Chance => "chance",
            Node::Terminal(_) => "over",
        };
        json!({
            "name": d.name,
            "title": d.title,
            "default": GameKind::DEFAULT.name() == d.name,
            "nodes": {
                "turns": d.nodes.turns,
                "simultaneous": d.nodes.simultaneous,
                "chance": d.nodes.chance.is_some(),
            },
            "start": start,
            "rule_options": d.rule_options.iter().map(option).collect::<Vec<_>>(),
            "solver": G::SOLVER.is_some(),
            "tunable": G::TUNABLE.is_some(),
            "end_reasons": d
                .end_reasons
                .iter()
                .map(|r| json!({"token": r.token, "words": r.words}))
                .collect::<Vec<_>>(),
            "skill_elo": d.skill_elo,
        })
    }
}

/// A rule option as JSON: its UCI `name`, command-line `flag`, UCI `type` (`check`,
/// `combo`, `spin`), `default` as UCI writes it, and its `values` (combo) or `min`/`max`.
fn option(o: &RuleOption) -> Value {
    let default = o.format_value(o.default_value());
    match o.kind {
        RuleKind::Check { .. } => {
            json!({"name": o.name, "flag": o.flag(), "type": "check", "default": default})
        }
        RuleKind::Combo { values, .. } => json!({
            "name": o.name, "flag": o.flag(), "type": "combo", "default": default, "values": values
        }),
        RuleKind::Spin { min, max, .. } => json!({
            "name": o.name, "flag": o.flag(), "type": "spin", "default": default,
            "min": min, "max": max
        }),
    }
}
