//! `quartet review RECORD [--nodes N | --movetime MS] [--json]`: reviews every game of a
//! records file through an engine (this quartet binary by default), as lichess's analysis
//! and gnubg's batch analysis do; `quartet review --fit-curve DATA` fits a game's
//! win-chance constant to self-play data. The review itself is the crate `quartet-review`
//! (protocol only); this module reads the records with the referee's codec, checks that each one
//! replays, starts the engine and prints what the review found (docs/review.md).

use super::replay::{record_game, record_rules};
use super::rules::RuleArgs;
use clap::Args;
use quartet_core::eval::{Evaluate, MATE_BOUND};
use quartet_core::game::RuleOptions;
use quartet_core::notation::Notation;
use quartet_games::{GameKind, GameVisitor};
use quartet_learn::data::DataFile;
use quartet_protocol::output::say;
use quartet_records::Record;
use quartet_referee::record::{self, RecordError, START_FEN};
use quartet_review::engine::ChildEngine;
use quartet_review::report::{GameReview, Mark, Mover, NodeKind, SideSummary};
use quartet_review::{self as review, Budget, Exact, GameInput, ReviewError, curve};
use serde::Serialize;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

/// The nodes a position when neither `--nodes` nor `--movetime` is given.
pub const DEFAULT_NODES: u64 = 20_000;

/// The arguments of `quartet review`.
#[derive(Args)]
pub struct ReviewArgs {
    /// The records file (`match --pgnout`, the GUI's, or another program's with `--game`).
    #[arg(required_unless_present = "fit_curve")]
    pub file: Option<PathBuf>,
    /// Nodes each search of a position may use (default 20000).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Milliseconds each search of a position takes, instead of nodes.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Print one JSON object a game, one a line (docs/review.md), instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// The engine to review with, a program and its arguments separated by spaces (default:
    /// this quartet binary).
    #[arg(long, value_name = "CMD")]
    pub engine: Option<String>,
    /// The game of records without a `Game` tag (another program's).
    #[arg(long, value_parser = GameKind::parse)]
    pub game: Option<GameKind>,
    /// The rule options of records without rule tags.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Use the games' exact values where their solvers cover a position (Ludo: at most two
    /// pieces a side short of the goal, from the solved 2-piece game, solved once at the
    /// first such position: about 12 s; Apocalypse: at most four pieces on the board).
    #[arg(long)]
    pub exact: bool,
    /// Instead of a review: fit the constant of lichess's win-chance curve to a `quartet
    /// selfplay` data file (its positions' scores against their games' results).
    #[arg(long, value_name = "DATA", conflicts_with_all = ["file", "nodes", "movetime", "json"])]
    pub fit_curve: Option<PathBuf>,
}

/// Reviews every record and prints each review (or its error); the other games go on after
/// a game that cannot be reviewed. Error: the file cannot be read, or some game could not
/// be reviewed (after all were printed).
pub fn run(args: &ReviewArgs) -> Result<(), String> {
    if let Some(data) = &args.fit_curve {
        return fit(data);
    }
    let Some(file) = &args.file else {
        return Err("review: give a records file".into());
    };
    let budget = match (args.nodes, args.movetime) {
        (_, Some(0)) | (Some(0), _) => return Err("review: the budget must be positive".into()),
        (_, Some(ms)) => Budget::Movetime(ms),
        (nodes, None) => Budget::Nodes(nodes.unwrap_or(DEFAULT_NODES)),
    };
    let path = file.display();
    let text = std::fs::read_to_string(file).map_err(|e| format!("{path}: {e}"))?;
    let records = quartet_records::parse_records(&text).map_err(|e| format!("{path}: {e}"))?;
    let started = Instant::now();
    let mut engine = None;
    let (mut failed, mut searches, mut nodes) = (0, 0, 0);
    for (i, rec) in records.iter().enumerate() {
        let index = i + 1;
        let reviewed = input_of(rec, index, args).and_then(|(kind, rules, input)| {
            let engine = match engine.as_mut() {
                Some(e) => e,
                None => engine.insert(start_engine(args.engine.as_deref())?),
            };
            let mut solvers = Solvers {
                game: kind,
                rules,
                start: input.start.clone(),
            };
            let exact = args.exact.then_some(&mut solvers as &mut dyn Exact);
            review::review_game(engine, &input, budget, exact, &mut |_, _| true)
                .map(|r| (kind.name(), r))
        });
        if matches!(reviewed, Err(ReviewError::Engine(_))) {
            // A failed engine is not trusted with the next game: that one starts another.
            engine = None;
        }
        match reviewed {
            Ok((name, review)) => {
                searches += review.searches;
                nodes += review.nodes;
                if args.json {
                    say(game_json(index, name, rec, &review));
                } else {
                    print_summary(index, name, rec, &review);
                }
            }
            Err(error) => {
                failed += 1;
                let ply = match &error {
                    ReviewError::Replay { ply, .. } => *ply,
                    _ => None,
                };
                let why = match &error {
                    ReviewError::Replay { why, .. } => why.clone(),
                    other => other.to_string(),
                };
                if args.json {
                    say(json!({"record": index, "ply": ply, "error": why}));
                } else {
                    say(format!("game {index}: error: {error}"));
                }
            }
        }
    }
    eprintln!(
        "{path}: {} games reviewed, {failed} not, {searches} searches, {nodes} nodes, {:.1} s",
        records.len() - failed,
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        return Err(format!(
            "{path}: {failed} of {} games could not be reviewed",
            records.len()
        ));
    }
    Ok(())
}

/// Starts the engine and shakes hands with it.
fn start_engine(command: Option<&str>) -> Result<ChildEngine, ReviewError> {
    let (program, args) = match command {
        Some(text) => {
            let mut words = text.split_whitespace().map(str::to_string);
            let program = words
                .next()
                .ok_or_else(|| ReviewError::Engine("--engine names no program".into()))?;
            (program, words.collect())
        }
        None => {
            let me = std::env::current_exe()
                .map_err(|e| ReviewError::Engine(format!("this program's path: {e}")))?;
            (me.display().to_string(), Vec::new())
        }
    };
    let mut engine = ChildEngine::start(&program, &args).map_err(ReviewError::Engine)?;
    review::handshake(&mut engine)?;
    Ok(engine)
}

/// The review's input of record `index`, checked by the rules, with its game and rules.
fn input_of(
    rec: &Record,
    index: usize,
    args: &ReviewArgs,
) -> Result<(GameKind, RuleOptions, GameInput), ReviewError> {
    let not_replayed = |why: String| ReviewError::Replay { ply: None, why };
    let game = record_game(rec, args.game).map_err(not_replayed)?;
    let rules = record_rules(rec, game, &args.rules).map_err(not_replayed)?;
    game.visit(Check {
        record: rec,
        index,
        rules,
    })?;
    let declared = game.declaration();
    let result = match rec.result.as_str() {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    };
    Ok((
        game,
        rules,
        GameInput {
            game: declared.name.to_string(),
            rules: declared
                .rule_options
                .iter()
                .map(|o| (o.name.to_string(), o.format_value(rules.get(o))))
                .collect(),
            start: rec
                .tag("FEN")
                .filter(|f| *f != START_FEN)
                .map(str::to_string),
            tokens: rec.moves.clone(),
            result,
        },
    ))
}

/// The games' own exact values ([`Notation::EXACT`]) at the positions of one game.
struct Solvers {
    game: GameKind,
    rules: RuleOptions,
    start: Option<String>,
}

impl Exact for Solvers {
    fn value(&mut self, tokens: &[String]) -> Option<f64> {
        self.game.visit(Lookup {
            rules: &self.rules,
            start: self.start.as_deref(),
            tokens,
        })
    }
}

/// One position's exact value: the game replayed to it, then its solver asked.
struct Lookup<'a> {
    rules: &'a RuleOptions,
    start: Option<&'a str>,
    tokens: &'a [String],
}

impl GameVisitor for Lookup<'_> {
    type Output = Option<f64>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let exact = G::EXACT?;
        let mut pos = match self.start {
            Some(fen) => G::parse_position(fen, self.rules).ok()?,
            None => G::start(self.rules),
        };
        for token in self.tokens {
            let action = pos.parse_action(token).ok()?;
            pos.apply(action);
        }
        exact(&pos, self.rules)
    }
}

/// The rules' check of one record (`referee::record::check_record`).
struct Check<'a> {
    record: &'a Record,
    index: usize,
    rules: RuleOptions,
}

impl GameVisitor for Check<'_> {
    type Output = Result<(), ReviewError>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        match record::check_record::<G>(self.record, self.index, &self.rules) {
            Ok(_) => Ok(()),
            Err(RecordError::Check { ply, why, .. }) => Err(ReviewError::Replay { ply, why }),
            Err(other) => Err(ReviewError::Replay {
                ply: None,
                why: other.to_string(),
            }),
        }
    }
}

/// One game's JSON line: the record's index, game and players, then the review.
#[derive(Serialize)]
struct GameLine<'a> {
    record: usize,
    game: &'a str,
    first: Option<&'a str>,
    second: Option<&'a str>,
    #[serde(flatten)]
    review: &'a GameReview,
}

/// One game's JSON line as text.
fn game_json(index: usize, game: &str, rec: &Record, review: &GameReview) -> String {
    let line = GameLine {
        record: index,
        game,
        first: rec.tag("White"),
        second: rec.tag("Black"),
        review,
    };
    serde_json::to_string(&line)
        .unwrap_or_else(|e| json!({"record": index, "error": e.to_string()}).to_string())
}

/// A percentage of an expected score.
fn percent(p: f64) -> String {
    format!("{:.1} %", 100.0 * p)
}

/// The review for people: the game, its marked plies and each side's summary.
fn print_summary(index: usize, game: &str, rec: &Record, review: &GameReview) {
    let name = |tag: &str| rec.tag(tag).unwrap_or("?").to_string();
    say(format!(
        "game {index}: {game}, {} - {}, {} ({} plies, {} searches, {} nodes)",
        name("White"),
        name("Black"),
        rec.result,
        review.plies.len(),
        review.searches,
        review.nodes
    ));
    say(format!(
        "  start {}{}, luck {:+.3} (the first player's expected score), {} exact positions",
        percent(review.start_value),
        if review.start_exact { " (exact)" } else { "" },
        review.luck,
        review.exact_positions
    ));
    for ply in &review.plies {
        let Some(mark) = ply.mark else { continue };
        let mark = match mark {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        };
        let who = match ply.mover {
            Mover::First => "first",
            Mover::Second => "second",
            Mover::Both => "joint",
        };
        let loss = match (ply.node, &ply.first, &ply.second) {
            (NodeKind::Joint, Some(a), Some(b)) => format!("{:.3}/{:.3}", a.loss, b.loss),
            _ => format!("{:.3}", ply.loss.unwrap_or(0.0)),
        };
        say(format!(
            "  {:>4}. {} {mark:<2} {who:<6} loss {loss}, best {}, after {}",
            ply.ply,
            ply.token,
            ply.best.as_deref().unwrap_or("-"),
            percent(ply.value)
        ));
    }
    let side = |label: &str, s: &SideSummary| {
        let optional =
            |x: Option<f64>, digits: usize| x.map_or("-".to_string(), |v| format!("{v:.digits$}"));
        say(format!(
            "  {label:<6} accuracy {}, average loss {} over {} decisions, luck {:+.3}, \
             {} ?!, {} ?, {} ??{}",
            optional(s.accuracy, 1),
            optional(s.average_loss, 4),
            s.decisions,
            s.luck,
            s.inaccuracies,
            s.mistakes,
            s.blunders,
            s.luck_adjusted_result
                .map_or(String::new(), |r| format!(", luck-adjusted result {r:.3}"))
        ));
    };
    side("first", &review.sides.first);
    side("second", &review.sides.second);
}

/// `--fit-curve DATA`: fits lichess's curve to the data's (score, result) pairs, scores
/// from the first player's view; forced wins and losses are left out.
fn fit(data: &PathBuf) -> Result<(), String> {
    let path = data.display();
    let text = std::fs::read_to_string(data).map_err(|e| format!("{path}: {e}"))?;
    let file = DataFile::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    let samples: Vec<(f64, f64)> = file
        .samples
        .iter()
        .filter(|s| s.score.abs() < MATE_BOUND)
        .map(|s| (f64::from(s.score), s.result.first_score()))
        .collect();
    let fit = curve::fit_logistic(&samples)
        .ok_or_else(|| format!("{path}: no position with a non-zero score"))?;
    let game = file.header.get("game").unwrap_or("?");
    say(format!(
        "{game}: k = {:.8} per unit of score ({} positions of {} games; cross-entropy {:.5}, \
         with lichess's {} {:.5})",
        fit.k,
        fit.samples,
        file.summary.games,
        fit.loss,
        curve::LICHESS_K,
        curve::cross_entropy(&samples, curve::LICHESS_K)
    ));
    Ok(())
}
