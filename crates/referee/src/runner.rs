//! Running a whole match: K worker threads, each with its own pair of engine processes,
//! take games from a shared queue; the calling thread gathers the results, writes the
//! records and files, keeps the statistics and stops the match on an SPRT decision or an
//! engine failure.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use quartet_core::declaration::GameDeclaration;
use quartet_core::game::{Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;
use quartet_games::GameKind;

use super::MatchError;
use super::clock::TimeControl;
use super::engine::{Engine, EngineSpec};
use super::play::{PlayedGame, Settings, play_game};
use super::progress::Progress;
use super::record::{PgnRecord, result_text};
use super::report::{MatchReport, StopReason};
use super::results::{GameLine, RESULTS_FORMAT, ResultsFile, write_atomically};
use super::schedule::{GameSpec, OpeningSource, Shard, schedule};
use super::sprt::{Sprt, SprtDecision};
use super::stats::{GameScore, Tally};

/// A checked match configuration (built from [`super::MatchArgs`]).
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game the command line chose; [`run`] refuses a registered game other than the
    /// one it plays (a toy game of the tests is played whatever this says).
    pub game: GameKind,
    /// The two engines; the first is the one the statistics speak for.
    pub engines: [EngineSpec; 2],
    /// Games in the whole match (all shards).
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// The limit of every `go`.
    pub tc: TimeControl,
    /// Clock tolerance (see [`Settings::margin`]).
    pub margin: Duration,
    /// Wait limit for handshakes, `isready` and searches without a clock.
    pub timeout: Duration,
    /// The match seed (openings and chance outcomes).
    pub seed: u64,
    /// Where games start.
    pub openings: OpeningSource,
    /// The SPRT to stop on, if any.
    pub sprt: Option<Sprt>,
    /// Restart crashed or hung engines and go on, instead of stopping the match.
    pub recover: bool,
    /// The slice of the match to play.
    pub shard: Option<Shard>,
    /// The game records file (`--pgnout`), replaced.
    pub pgnout: Option<PathBuf>,
    /// The per-game JSON lines file (`--jsonl`), replaced.
    pub jsonl: Option<PathBuf>,
    /// The results summary (`--results`), rewritten after every game.
    pub results: Option<PathBuf>,
    /// Print a report every this many games (0: never).
    pub report_every: u64,
    /// Show the progress line (on a terminal).
    pub progress: bool,
}

/// The `setoption` pairs every engine gets before the user's options: the game, then each
/// rule option the game declares whose value differs from its default.
pub fn setup_options(game: &GameDeclaration, rules: &RuleOptions) -> Vec<(String, String)> {
    let mut out = vec![("Game".to_string(), game.name.to_string())];
    out.extend(
        changed_rules(game, rules)
            .into_iter()
            .map(|(name, value)| (name.to_string(), value)),
    );
    out
}

/// Each rule option `game` declares whose value in `rules` differs from its default, with
/// that value as UCI writes it (`("Placement", "together")`), in declaration order.
pub fn changed_rules(game: &GameDeclaration, rules: &RuleOptions) -> Vec<(&'static str, String)> {
    game.rule_options
        .iter()
        .filter(|option| rules.get(option) != option.default_value())
        .map(|option| (option.name, option.format_value(rules.get(option))))
        .collect()
}

/// Every rule option `game` declares with its value in `rules`, as UCI writes it, in
/// declaration order: the tags that make a record replay without rule flags.
pub fn rule_tags(game: &GameDeclaration, rules: &RuleOptions) -> Vec<(&'static str, String)> {
    game.rule_options
        .iter()
        .map(|option| (option.name, option.format_value(rules.get(option))))
        .collect()
}

/// What a worker tells the gathering thread.
enum Event {
    /// A game ended.
    Finished(Box<(GameSpec, PlayedGame)>),
    /// An engine crashed or hung and the match may not recover.
    EngineDown(String),
    /// The match cannot go on.
    Fatal(MatchError),
}

/// One worker: plays games from the queue with its own two engines.
fn worker<G: Notation>(
    cfg: &MatchConfig,
    rules: &RuleOptions,
    specs: &[GameSpec],
    next: &AtomicUsize,
    stop: &AtomicBool,
    events: Sender<Event>,
) {
    let setup = setup_options(&G::DECLARATION, rules);
    let settings = Settings {
        tc: cfg.tc,
        margin: cfg.margin,
        timeout: cfg.timeout,
        stop,
    };
    let mut engines: [Option<Engine>; 2] = [None, None];
    while !stop.load(Ordering::Relaxed) {
        let Some(spec) = specs.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        for (slot, spec_e) in engines.iter_mut().zip(&cfg.engines) {
            if slot.is_none() {
                match Engine::start(spec_e, &setup, cfg.timeout) {
                    Ok(e) => *slot = Some(e),
                    Err(e) => {
                        let why = e.to_string();
                        let _ = events.send(Event::Fatal(MatchError::Engine {
                            name: spec_e.name.clone(),
                            why,
                        }));
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                }
            }
        }
        let [Some(a), Some(b)] = &mut engines else {
            return;
        };
        let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
        let (players, names) = if spec.swapped {
            ([b, a], [names[1], names[0]])
        } else {
            ([a, b], names)
        };
        match play_game::<G>(&settings, players, names, spec, rules) {
            Ok(Some(played)) => {
                // Slot of the engine that played player p: swapped games put slot 1 first.
                let slot = |p: Player| p.index() ^ usize::from(spec.swapped);
                let mut down = Vec::new();
                for p in [Player::First, Player::Second] {
                    if played.broken[p.index()] {
                        engines[slot(p)] = None;
                        down.push(cfg.engines[slot(p)].name.clone());
                    }
                }
                let reason = format!("game {}: {}", spec.index + 1, played.verdict.reason);
                let _ = events.send(Event::Finished(Box::new((spec.clone(), played))));
                if !down.is_empty() && !cfg.recover {
                    let _ = events.send(Event::EngineDown(reason));
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            Ok(None) => break,
            Err(e) => {
                let _ = events.send(Event::Fatal(MatchError::Internal(e)));
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
    for engine in engines.into_iter().flatten() {
        engine.shutdown(Duration::from_millis(500));
    }
}

/// Opens an output file (replacing it).
fn create(path: &Option<PathBuf>) -> Result<Option<BufWriter<File>>, MatchError> {
    path.as_ref()
        .map(|p| {
            File::create(p)
                .map(BufWriter::new)
                .map_err(|e| MatchError::File {
                    path: p.clone(),
                    why: e.to_string(),
                })
        })
        .transpose()
}

fn write_out(
    out: &mut Option<BufWriter<File>>,
    path: &Option<PathBuf>,
    text: &str,
) -> Result<(), MatchError> {
    if let (Some(w), Some(p)) = (out.as_mut(), path) {
        w.write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .map_err(|e| MatchError::File {
                path: p.clone(),
                why: e.to_string(),
            })?;
    }
    Ok(())
}

/// The record of a finished game.
fn record<G: Notation>(
    cfg: &MatchConfig,
    rules: &RuleOptions,
    start_fen: &str,
    spec: &GameSpec,
    g: &PlayedGame,
) -> PgnRecord {
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let (white, black) = if spec.swapped {
        (names[1].clone(), names[0].clone())
    } else {
        (names[0].clone(), names[1].clone())
    };
    let v = &g.verdict;
    // The seven-tag roster's tags that apply first, in its order, then Quartet's own.
    let mut tags = vec![
        ("Event", "Quartet match".to_string()),
        ("Round", (spec.index + 1).to_string()),
        ("White", white),
        ("Black", black),
        ("Result", result_text(v.outcome).to_string()),
        ("Game", G::DECLARATION.name.to_string()),
    ];
    tags.extend(rule_tags(&G::DECLARATION, rules));
    tags.push(("Termination", v.termination.to_string()));
    if !v.reason.is_empty() {
        tags.push(("Reason", v.reason.clone()));
    }
    tags.extend([
        ("TimeControl", cfg.tc.to_string()),
        ("Seed", spec.seed.to_string()),
        (
            "FEN",
            spec.opening
                .fen
                .clone()
                .unwrap_or_else(|| start_fen.to_string()),
        ),
        ("OpeningPlies", g.opening_plies.to_string()),
        ("PlyCount", g.moves.len().to_string()),
    ]);
    PgnRecord {
        tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        moves: g.moves.clone(),
        result: result_text(v.outcome).to_string(),
    }
}

/// The first engine's score in a game.
fn score_of(spec: &GameSpec, outcome: Outcome) -> GameScore {
    let first_engine_player = if spec.swapped {
        Player::Second
    } else {
        Player::First
    };
    match outcome {
        Outcome::Draw => GameScore::Draw,
        Outcome::Win(p) if p == first_engine_player => GameScore::Win,
        Outcome::Win(_) => GameScore::Loss,
    }
}

/// The gathering side of a match: statistics and output files.
struct Gather<'a> {
    cfg: &'a MatchConfig,
    rules: &'a RuleOptions,
    started: Instant,
    start_fen: String,
    report: MatchReport,
    pending: HashMap<u64, GameScore>,
    played: u64,
    pgn: Option<BufWriter<File>>,
    jsonl: Option<BufWriter<File>>,
    progress: Progress,
}

impl Gather<'_> {
    /// Counts, records and reports one finished game; asks the match to stop on an SPRT
    /// decision.
    fn finished<G: Notation>(
        &mut self,
        spec: &GameSpec,
        game: &PlayedGame,
        stop: &AtomicBool,
    ) -> Result<(), MatchError> {
        let (cfg, report) = (self.cfg, &mut self.report);
        self.played += 1;
        let score = score_of(spec, game.verdict.outcome);
        report.tally.add_game(score);
        if let Some(other) = self.pending.remove(&spec.pair) {
            report.tally.add_pair(other, score);
        } else {
            self.pending.insert(spec.pair, score);
        }
        *report
            .terminations
            .entry(game.verdict.termination.to_string())
            .or_insert(0) += 1;
        report.engine_ms += game.engine_time.as_millis() as u64;
        report.wall_ms += game.wall_time.as_millis() as u64;
        report.elapsed_ms = self.started.elapsed().as_millis() as u64;
        let rec = record::<G>(cfg, self.rules, &self.start_fen, spec, game);
        write_out(&mut self.pgn, &cfg.pgnout, &rec.to_text())?;
        let line = GameLine {
            game: spec.index + 1,
            pair: spec.pair + 1,
            white: rec.tag("White").unwrap_or_default().to_string(),
            black: rec.tag("Black").unwrap_or_default().to_string(),
            result: rec.result.clone(),
            termination: game.verdict.termination.to_string(),
            reason: game.verdict.reason.clone(),
            plies: game.moves.len(),
            opening_plies: game.opening_plies,
            seed: spec.seed,
            engine_ms: game.engine_time.as_millis() as u64,
            wall_ms: game.wall_time.as_millis() as u64,
        };
        let json = serde_json::to_string(&line).map_err(|e| MatchError::Internal(e.to_string()))?;
        write_out(&mut self.jsonl, &cfg.jsonl, &(json + "\n"))?;
        let decided = match report.sprt_status() {
            Some((_, SprtDecision::AcceptH0)) => Some(StopReason::SprtH0),
            Some((_, SprtDecision::AcceptH1)) => Some(StopReason::SprtH1),
            _ => None,
        };
        if let Some(reason) = decided.filter(|_| report.stop == StopReason::Running) {
            report.stop = reason;
            stop.store(true, Ordering::Relaxed);
        }
        write_results(cfg, report)?;
        let mut what = format!(
            "Finished game {} of {} ({} vs {}): {} {{{}",
            spec.index + 1,
            cfg.games,
            line.white,
            line.black,
            line.result,
            line.termination
        );
        if !line.reason.is_empty() {
            what.push_str(": ");
            what.push_str(&line.reason);
        }
        what.push('}');
        self.progress.game_done(&what, report.short());
        // The last game's report is the final one, which the caller prints.
        let last = self.played == report.scheduled;
        if cfg.report_every > 0 && self.played.is_multiple_of(cfg.report_every) && !last {
            self.progress.print(&report.to_string());
        }
        Ok(())
    }
}

/// Plays the match described by `cfg` under `rules`.
pub fn run<G: Notation>(cfg: &MatchConfig, rules: &RuleOptions) -> Result<MatchReport, MatchError> {
    if GameKind::from_name(G::DECLARATION.name).is_some_and(|g| g != cfg.game) {
        return Err(MatchError::Usage(format!(
            "the match is for '{}' but the rules are '{}'",
            cfg.game.name(),
            G::DECLARATION.name
        )));
    }
    let specs = schedule::<G>(cfg.games, cfg.seed, &cfg.openings, cfg.shard, rules)
        .map_err(MatchError::Usage)?;
    let workers = cfg.concurrency.clamp(1, specs.len().max(1));
    let mut gather = Gather {
        cfg,
        rules,
        started: Instant::now(),
        start_fen: G::start(rules).format_position(),
        report: MatchReport {
            game: G::DECLARATION.name.to_string(),
            engines: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
            time_control: cfg.tc.to_string(),
            scheduled: specs.len() as u64,
            tally: Tally::default(),
            terminations: BTreeMap::new(),
            sprt: cfg.sprt,
            stop: StopReason::Running,
            engine_ms: 0,
            wall_ms: 0,
            elapsed_ms: 0,
            concurrency: workers as u32,
        },
        pending: HashMap::new(),
        played: 0,
        pgn: create(&cfg.pgnout)?,
        jsonl: create(&cfg.jsonl)?,
        progress: Progress::new(specs.len() as u64, cfg.progress),
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, events) = channel();
    let mut fatal = None;
    let mut engine_down = None;
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (specs, next, stop) = (&specs, &next, &stop);
            scope.spawn(move || worker::<G>(cfg, rules, specs, next, stop, sender));
        }
        drop(sender);
        for event in events {
            match event {
                Event::Finished(boxed) => {
                    let (spec, game) = &*boxed;
                    if let Err(e) = gather.finished::<G>(spec, game, &stop) {
                        fatal.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                Event::EngineDown(why) => {
                    engine_down.get_or_insert(why);
                }
                Event::Fatal(e) => {
                    fatal.get_or_insert(e);
                }
            }
        }
    });
    gather.progress.finish();
    gather.report.elapsed_ms = gather.started.elapsed().as_millis() as u64;
    if let Some(e) = fatal {
        return Err(e);
    }
    let mut report = gather.report;
    if let Some(why) = engine_down.filter(|_| report.stop == StopReason::Running) {
        report.stop = StopReason::EngineFailure(why);
    } else if report.stop == StopReason::Running {
        report.stop = StopReason::Completed;
    }
    write_results(cfg, &report)?;
    Ok(report)
}

/// Rewrites the `--results` file with the current report.
fn write_results(cfg: &MatchConfig, report: &MatchReport) -> Result<(), MatchError> {
    let Some(path) = &cfg.results else {
        return Ok(());
    };
    let file = ResultsFile {
        format: RESULTS_FORMAT.to_string(),
        seed: cfg.seed,
        games: cfg.games,
        shard: cfg.shard,
        openings: Some(cfg.openings.to_string()),
        runs: Vec::new(),
        report: report.clone(),
    };
    let json =
        serde_json::to_string_pretty(&file).map_err(|e| MatchError::Internal(e.to_string()))?;
    write_atomically(Path::new(path), &(json + "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::schedule::Opening;

    #[test]
    fn setup_sends_the_game_and_changed_rule_options() {
        use quartet_games::{apocalypse, duell, ludo};
        let default = RuleOptions::default();
        assert_eq!(
            setup_options(&duell::DECLARATION, &default),
            [("Game".to_string(), "duell".to_string())]
        );
        let changed = default
            .with(&apocalypse::DOUBLE_STEP, 0)
            .and_then(|r| r.with(&ludo::PIECES, 2))
            .expect("in range");
        let apocalypse = setup_options(&apocalypse::DECLARATION, &changed);
        assert_eq!(
            apocalypse[1],
            ("DoubleStep".to_string(), "false".to_string())
        );
        assert_eq!(apocalypse.len(), 2);
        assert_eq!(
            setup_options(&ludo::DECLARATION, &changed)[1],
            ("Pieces".to_string(), "2".to_string())
        );
    }

    #[test]
    fn scores_follow_the_colours() {
        let spec = |swapped| GameSpec {
            index: 0,
            pair: 0,
            swapped,
            opening: Arc::new(Opening {
                fen: None,
                moves: Vec::new(),
            }),
            seed: 0,
        };
        let first_wins = Outcome::Win(Player::First);
        assert_eq!(score_of(&spec(false), first_wins), GameScore::Win);
        assert_eq!(score_of(&spec(true), first_wins), GameScore::Loss);
        assert_eq!(
            score_of(&spec(true), Outcome::Win(Player::Second)),
            GameScore::Win
        );
        assert_eq!(score_of(&spec(true), Outcome::Draw), GameScore::Draw);
    }
}
