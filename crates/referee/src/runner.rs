//! Running a whole match or tournament: K worker threads, each with its own engine
//! processes (started when a game first needs them, kept for its later games), take games
//! from a shared queue; the calling thread gathers the results, writes the records and
//! files, keeps the statistics and stops the match on an SPRT decision or an engine
//! failure.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::thread;
use std::time::{Duration, Instant};

use quartet_core::game::{Player, RuleOptions};
use quartet_core::notation::Notation;
use quartet_games::GameKind;

use super::MatchError;
use super::book::{Book, OpeningSource};
use super::config::{MatchConfig, rule_tags, setup_options};
use super::distinct::{Counter, DistinctCount};
use super::engine::Engine;
use super::gather::Gather;
use super::logs::{EngineSink, Logs};
use super::play::{PlayedGame, Settings, play_game};
use super::progress::Progress;
use super::provenance::{self, Hasher, Identity};
use super::report::{MatchReport, StopReason};
use super::results::{ResultsFile, read_results};
use super::resume::{self, Restored};
use super::resume_state::ResumeState;
use super::schedule::{GameSpec, Shard, schedule};
use super::stats::Tally;

/// What a worker tells the gathering thread.
enum Event {
    /// A game ended.
    Finished(Box<(GameSpec, PlayedGame)>),
    /// A game was abandoned before its end.
    Abandoned,
    /// An engine crashed or hung and the match may not recover.
    EngineDown(String),
    /// The match cannot go on.
    Fatal(MatchError),
}

/// How the gathering thread stops the workers.
#[derive(Default)]
struct Flags {
    /// Abandon the games in flight (a signal, a decided SPRT, an engine failure without
    /// `--recover`).
    abandon: AtomicBool,
    /// Start no more games (the above, or the stop marker: the games in flight finish).
    halt: AtomicBool,
}

/// One worker: plays games from the queue with its own engine processes, one per engine,
/// each started when a game first needs it and restarted after a crash or a hang. Before
/// each game it looks for the stop marker.
fn worker<G: Notation>(
    cfg: &MatchConfig,
    rules: &RuleOptions,
    specs: &[GameSpec],
    next: &AtomicUsize,
    flags: &Flags,
    logs: &Arc<Logs>,
    events: Sender<Event>,
) {
    let setup = setup_options(&G::DECLARATION, rules);
    let stop = &flags.abandon;
    let mut engines: Vec<Option<Engine>> = (0..cfg.engines.len()).map(|_| None).collect();
    'games: loop {
        if cfg.stop_file.as_ref().is_some_and(|p| p.exists()) {
            flags.halt.store(true, Ordering::Relaxed);
        }
        if flags.halt.load(Ordering::Relaxed) {
            break;
        }
        let Some(spec) = specs.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        let log = match logs.game(spec.index) {
            Ok(log) => log,
            Err(why) => {
                let _ = events.send(Event::Fatal(MatchError::Usage(format!("--log: {why}"))));
                flags.halt.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
                break;
            }
        };
        let mut players = Vec::with_capacity(2);
        for &e in &spec.engines {
            let entry = &cfg.engines[e];
            let engine = match engines[e].take() {
                Some(engine) => {
                    engine.sink().set_game(log.clone());
                    engine
                }
                None => match Engine::start(&entry.spec, &setup, cfg.timeout, {
                    let sink = Arc::new(EngineSink::new(&entry.spec.name, Arc::clone(logs)));
                    sink.set_game(log.clone());
                    sink
                }) {
                    Ok(engine) => engine,
                    Err(why) => {
                        let _ = events.send(Event::Fatal(MatchError::Engine {
                            name: entry.spec.name.clone(),
                            why: why.to_string(),
                        }));
                        flags.halt.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                        for (&e, engine) in spec.engines.iter().zip(players) {
                            engines[e] = Some(engine);
                        }
                        break 'games;
                    }
                },
            };
            players.push(engine);
        }
        let (Some(mut second), Some(mut first)) = (players.pop(), players.pop()) else {
            break;
        };
        let [a, b] = spec.engines;
        let settings = Settings {
            tc: [cfg.engines[a].limit, cfg.engines[b].limit],
            margin: cfg.margin,
            timeout: cfg.timeout,
            stop,
            adjudication: cfg.adjudication,
        };
        let names = [
            cfg.engines[a].spec.name.as_str(),
            cfg.engines[b].spec.name.as_str(),
        ];
        // The game's log stays the engines' until their next game: lines an engine wrote
        // near the end, read a little later, still go to it.
        let result = play_game::<G>(&settings, [&mut first, &mut second], names, spec, rules);
        engines[a] = Some(first);
        engines[b] = Some(second);
        match result {
            Ok(Some(played)) => {
                let mut down = false;
                for p in [Player::First, Player::Second] {
                    if played.broken[p.index()] {
                        engines[spec.engines[p.index()]] = None;
                        down = true;
                    }
                }
                let reason = format!("game {}: {}", spec.index + 1, played.verdict.reason);
                let _ = events.send(Event::Finished(Box::new((spec.clone(), played))));
                if down && !cfg.recover {
                    let _ = events.send(Event::EngineDown(reason));
                    flags.halt.store(true, Ordering::Relaxed);
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            Ok(None) => {
                let _ = events.send(Event::Abandoned);
                break;
            }
            Err(e) => {
                let _ = events.send(Event::Fatal(MatchError::Internal(e)));
                flags.halt.store(true, Ordering::Relaxed);
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    }
    for engine in engines.into_iter().flatten() {
        let sink = engine.sink_handle();
        engine.shutdown(Duration::from_millis(500));
        sink.wait_closed(Duration::from_millis(200));
        sink.set_game(None);
    }
}

/// The signal that interrupted a match: its number as `--interrupt` stores it, and its
/// name.
pub fn signal_name(number: usize) -> &'static str {
    match number {
        2 => "SIGINT",
        15 => "SIGTERM",
        _ => "a signal",
    }
}

/// The results file of an earlier session of this match, if there is one to go on from:
/// with `--resume`, the `--results` file when it exists (an unreadable one is an error, and
/// is left as it is); without, none, but an existing file that holds an unfinished match
/// or is not a results file is refused rather than replaced.
fn earlier_session(cfg: &MatchConfig) -> Result<Option<ResultsFile>, MatchError> {
    let Some(path) = &cfg.results else {
        return match cfg.resume {
            true => Err(MatchError::Usage(
                "--resume needs the --results file of the match to resume".to_string(),
            )),
            false => Ok(None),
        };
    };
    if !path.exists() {
        return Ok(None);
    }
    let refuse = |why: String| MatchError::File {
        path: path.clone(),
        why,
    };
    let file = read_results(path).map_err(|e| {
        refuse(format!(
            "is not a results file this version can read ({e}); it is left as it is"
        ))
    })?;
    if file.shard.is_none() && !file.runs.is_empty() {
        return Err(refuse(
            "holds a merge of several runs, not one match; it is left as it is".to_string(),
        ));
    }
    match (cfg.resume, file.report.stop.resumable()) {
        (true, _) => Ok(Some(file)),
        (false, true) => Err(refuse(format!(
            "holds an unfinished match ({}): continue it with --resume, or remove the file",
            file.report.stop
        ))),
        (false, false) => Ok(None),
    }
}

/// Why the command cannot resume the match of `earlier`, or `None` when it can: the
/// engines, limits, book, rules and adjudication ([`Identity`]), the seed, the number of
/// games and the shard must be the same.
fn resume_difference(
    earlier: &ResultsFile,
    cfg: &MatchConfig,
    identity: &Identity,
) -> Option<String> {
    let labels = ("this command", "the results file");
    let Some(theirs) = &earlier.identity else {
        return Some(
            "the results file is of an older version and does not say what the match was \
            played with"
                .to_string(),
        );
    };
    if let Some(why) = provenance::difference(theirs, identity, labels) {
        return Some(why);
    }
    let differ = |what: &str, x: String, y: String| {
        Some(format!(
            "{what}: {y} in this command and {x} in the results file"
        ))
    };
    let shard =
        |s: Option<Shard>| s.map_or("none".to_string(), |s| format!("{}/{}", s.index, s.count));
    if earlier.seed != cfg.seed {
        return differ(
            "another seed",
            earlier.seed.to_string(),
            cfg.seed.to_string(),
        );
    }
    if earlier.games != cfg.games {
        return differ(
            "another number of games",
            earlier.games.to_string(),
            cfg.games.to_string(),
        );
    }
    if earlier.shard != cfg.shard {
        return differ("another shard", shard(earlier.shard), shard(cfg.shard));
    }
    None
}

/// Plays the match described by `cfg` under `rules`: afresh, or (`--resume`) from where
/// its results file says an earlier session stopped.
pub fn run<G: Notation>(cfg: &MatchConfig, rules: &RuleOptions) -> Result<MatchReport, MatchError> {
    if GameKind::from_name(G::DECLARATION.name).is_some_and(|g| g != cfg.game) {
        return Err(MatchError::Usage(format!(
            "the match is for '{}' but the rules are '{}'",
            cfg.game.name(),
            G::DECLARATION.name
        )));
    }
    cfg.adjudication
        .check(
            G::DECLARATION.name,
            G::DECLARATION.draws,
            G::PROVER.is_some(),
        )
        .map_err(MatchError::Usage)?;
    let book = match &cfg.openings {
        OpeningSource::File(file) => {
            Some(Book::load::<G>(file, cfg.seed, rules).map_err(MatchError::Usage)?)
        }
        _ => None,
    };
    let identity = identity::<G>(cfg, rules, book.as_ref());
    let earlier = earlier_session(cfg)?;
    if let Some(earlier) = &earlier {
        if let Some(why) = resume_difference(earlier, cfg, &identity) {
            return Err(MatchError::Usage(format!(
                "cannot resume {}: {why}; nothing was changed",
                cfg.results
                    .as_deref()
                    .map_or(String::new(), |p| p.display().to_string())
            )));
        }
        if !earlier.report.stop.resumable() {
            return Ok(earlier.report.clone());
        }
    }
    let all = schedule::<G>(
        cfg.games,
        &cfg.pairings,
        cfg.seed,
        &cfg.openings,
        book.as_ref(),
        cfg.shard,
        rules,
    )
    .map_err(MatchError::Usage)?;
    let (pgn, jsonl, restored, mut state, report) = match &earlier {
        Some(earlier) => {
            let (pgn, jsonl, restored) = resume::reopen(earlier, &cfg.pgnout, &cfg.jsonl)?;
            let state = earlier.resume.clone().unwrap_or_default();
            (pgn, jsonl, Some(restored), state, earlier.report.clone())
        }
        None => (
            resume::create(&cfg.pgnout)?,
            resume::create(&cfg.jsonl)?,
            None,
            ResumeState::default(),
            MatchReport::default(),
        ),
    };
    let specs: Vec<GameSpec> = all
        .iter()
        .filter(|s| !state.is_done(s.index))
        .cloned()
        .collect();
    state.sessions += 1;
    let workers = cfg.concurrency.clamp(1, specs.len().max(1));
    if let Some(warning) = concurrency_warning(cfg.concurrency) {
        eprintln!("{warning}");
    }
    let mut tallies = vec![Tally::default(); cfg.pairings.len()];
    if cfg.engines.len() == 2 {
        tallies[0] = report.tally;
    } else {
        for (t, p) in tallies.iter_mut().zip(&report.pairings) {
            *t = p.tally;
        }
    }
    let counter = |c: &Option<DistinctCount>| {
        c.as_ref()
            .map_or_else(Counter::default, |c| Counter::resume(c.count, &c.sketch))
    };
    let (openings_seen, games_seen) = match restored {
        Some(Restored {
            openings: Some(o),
            games: Some(g),
        }) => (o, g),
        _ => (
            counter(&report.distinct_openings),
            counter(&report.distinct_games),
        ),
    };
    if earlier.is_some() && cfg.progress {
        eprintln!(
            "Resuming: {} of {} games finished, {} to play (session {})",
            state.done_count(),
            all.len(),
            specs.len(),
            state.sessions
        );
    }
    let mut gather = Gather {
        cfg,
        rules,
        started: Instant::now(),
        earlier_ms: report.elapsed_ms,
        start_fen: G::start(rules).format_position(),
        pending: state.pending.iter().copied().collect(),
        report: MatchReport {
            game: G::DECLARATION.name.to_string(),
            engines: cfg.engines.iter().map(|e| e.spec.name.clone()).collect(),
            tournament: (cfg.engines.len() > 2)
                .then(|| cfg.tournament.name(cfg.engines.len()).to_string()),
            time_control: cfg.time_control(),
            scheduled: all.len() as u64,
            sprt: cfg.sprt,
            stop: StopReason::Running,
            concurrency: workers as u32,
            ..report
        },
        tallies,
        played: 0,
        pgn,
        jsonl,
        progress: Progress::new(specs.len() as u64, cfg.progress),
        identity,
        openings_seen,
        games_seen,
        state,
    };
    gather.write_results()?;
    if let Some(dir) = &cfg.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| MatchError::File {
            path: dir.clone(),
            why: e.to_string(),
        })?;
    }
    let logs = Arc::new(Logs::new(cfg.log_dir.as_deref(), cfg.results.as_deref()));
    let next = AtomicUsize::new(0);
    let flags = Flags::default();
    let (sender, events) = channel();
    let mut fatal = None;
    let mut engine_down = None;
    let mut interrupted = None;
    let mut halted = None;
    let mut abandoned = 0;
    thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (specs, next, flags, logs) = (&specs, &next, &flags, &logs);
            scope.spawn(move || worker::<G>(cfg, rules, specs, next, flags, logs, sender));
        }
        drop(sender);
        loop {
            let event = match events.recv_timeout(POLL) {
                Ok(event) => Some(event),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let signal = cfg
                .interrupt
                .as_ref()
                .map_or(0, |f| f.load(Ordering::Relaxed));
            if signal != 0 && interrupted.is_none() {
                interrupted = Some(signal);
                flags.abandon.store(true, Ordering::Relaxed);
                flags.halt.store(true, Ordering::Relaxed);
            }
            if halted.is_none() {
                halted = marker(cfg);
                if halted.is_some() {
                    flags.halt.store(true, Ordering::Relaxed);
                }
            }
            match event {
                Some(Event::Finished(_) | Event::Abandoned) if interrupted.is_some() => {
                    abandoned += 1;
                }
                Some(Event::Finished(boxed)) => {
                    let (spec, game) = &*boxed;
                    match gather.finished::<G>(spec, game) {
                        Ok(true) => {
                            flags.abandon.store(true, Ordering::Relaxed);
                            flags.halt.store(true, Ordering::Relaxed);
                        }
                        Ok(false) => {}
                        Err(e) => {
                            fatal.get_or_insert(e);
                            flags.abandon.store(true, Ordering::Relaxed);
                            flags.halt.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Some(Event::Abandoned) | None => {}
                Some(Event::EngineDown(why)) => {
                    engine_down.get_or_insert(why);
                }
                Some(Event::Fatal(e)) => {
                    fatal.get_or_insert(e);
                }
            }
        }
    });
    gather.progress.finish();
    gather.report.elapsed_ms = gather.earlier_ms + gather.started.elapsed().as_millis() as u64;
    if let Some(e) = fatal {
        return Err(e);
    }
    let all_done = gather.state.done_count() == gather.report.scheduled;
    let report = &mut gather.report;
    if report.stop == StopReason::Running {
        report.stop = if let Some(signal) = interrupted {
            let games = match abandoned {
                1 => "1 game in flight was".to_string(),
                n => format!("{n} games in flight were"),
            };
            StopReason::Interrupted(format!(
                "{}; {games} abandoned, to be played again by --resume",
                signal_name(signal)
            ))
        } else if let Some(why) = engine_down {
            StopReason::EngineFailure(why)
        } else if let (Some(why), false) = (halted, all_done) {
            StopReason::Halted(why)
        } else {
            StopReason::Completed
        };
    }
    gather.report.stderr = logs
        .stderr_file()
        .map(|p| p.display().to_string())
        .or(gather.report.stderr.take());
    gather.write_results()?;
    Ok(gather.report)
}

/// The warning when `concurrency` games at once exceed the machine's cores (engines then
/// share cores: their speed, and a clock's fairness, suffer).
pub fn concurrency_warning(concurrency: usize) -> Option<String> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (concurrency > cores).then(|| {
        format!(
            "warning: --concurrency {concurrency} exceeds the {cores} cores of this machine: \
            engines will share cores, which slows them and distorts timed games"
        )
    })
}

/// How often the gathering thread looks for a signal and the stop marker while it waits.
const POLL: Duration = Duration::from_millis(100);

/// What the stop marker (`--stop-file`) says, once it exists: its path and first line.
fn marker(cfg: &MatchConfig) -> Option<String> {
    let path = cfg.stop_file.as_ref()?;
    let text = std::fs::read_to_string(path).ok()?;
    let first = text.lines().next().unwrap_or("").trim();
    Some(format!(
        "the stop marker {} appeared: {first}",
        path.display()
    ))
}

/// What the match is played with (see [`Identity`]).
fn identity<G: Notation>(cfg: &MatchConfig, rules: &RuleOptions, book: Option<&Book>) -> Identity {
    let mut hasher = Hasher::default();
    Identity {
        quartet: env!("CARGO_PKG_VERSION").to_string(),
        game: G::DECLARATION.name.to_string(),
        rules: rule_tags(&G::DECLARATION, rules)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        engines: cfg
            .engines
            .iter()
            .map(|e| hasher.engine(&e.spec, e.limit.to_string()))
            .collect(),
        tournament: cfg.tournament.name(cfg.engines.len()).to_string(),
        openings: cfg.openings.to_string(),
        book_sha256: book.map(|b| b.sha256.clone()),
        adjudication: cfg.adjudication.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
