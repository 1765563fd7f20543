//! A review run: the `quartet-review` crate's review of the main line (the code `quartet
//! review` runs) in a thread of its own, with an engine of its own started from the
//! server's engine command, so that the game and its analysis go on meanwhile. The run
//! asks about the positions not yet known (a review cut short goes on where it stopped),
//! says its progress and every line exchanged with its engine (for the console), and ends
//! with what it found: its facts, and the review or why not. Dropping the run, or
//! cancelling it, stops it within `SLICE`, and its engine ends (`quit`, then a kill).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use quartet_review::decompose::{self, Played};
use quartet_review::engine::{ChildEngine, Engine};
use quartet_review::facts::Facts;
use quartet_review::probe::{Node, Probe};
use quartet_review::report::{GameReview, OutcomeValue};
use quartet_review::{Budget, GameInput, ReviewError};
use tokio::sync::mpsc;

use super::engine::EngineCommand;

/// How often a waiting run looks whether it was cancelled.
const SLICE: Duration = Duration::from_millis(50);

/// What a run tells its session.
#[derive(Debug)]
pub enum ReviewEvent {
    /// Positions done (of the tokens plus one).
    Progress(usize),
    /// A line to its engine (`>`) or from it (`<`).
    Line(char, String),
    /// The run ended: its facts (those it was given and those it found) and the review,
    /// or why not (`ReviewError::Cancelled` when it was cancelled).
    Done(Vec<Facts>, Box<Result<GameReview, ReviewError>>),
    /// A temperature map's run ended: each outcome's value, or why not.
    Map(Result<Vec<OutcomeValue>, ReviewError>),
}

/// A running review; see the module doc.
pub struct ReviewRun {
    /// The id of the session's review it runs.
    pub id: u64,
    /// The tokens it reviews.
    pub tokens: Vec<String>,
    /// What it says.
    pub events: mpsc::UnboundedReceiver<ReviewEvent>,
    cancel: Arc<AtomicBool>,
}

impl ReviewRun {
    /// Starts review `id` of `input` with an engine started by `command`, each search at
    /// `budget`, knowing `facts` of its first positions already.
    pub fn start(
        id: u64,
        command: &EngineCommand,
        input: GameInput,
        budget: Budget,
        facts: Vec<Facts>,
    ) -> ReviewRun {
        let (tx, events) = mpsc::unbounded_channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let tokens = input.tokens.clone();
        let (program, args) = (
            command.program.to_string_lossy().into_owned(),
            command.args.clone(),
        );
        let stop = Arc::clone(&cancel);
        std::thread::spawn(move || {
            let mut facts = facts;
            let outcome = review(&program, &args, &input, budget, &mut facts, &stop, &tx);
            let _ = tx.send(ReviewEvent::Done(facts, Box::new(outcome)));
        });
        ReviewRun {
            id,
            tokens,
            events,
            cancel,
        }
    }

    /// Starts gnubg's temperature map of the chance node after `tokens` (of `input`'s game,
    /// whose own tokens are not used) with an engine started by `command`, each outcome
    /// searched at `budget`.
    pub fn temperature(
        command: &EngineCommand,
        input: GameInput,
        tokens: Vec<String>,
        budget: Budget,
    ) -> ReviewRun {
        let (tx, events) = mpsc::unbounded_channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let (program, args) = (
            command.program.to_string_lossy().into_owned(),
            command.args.clone(),
        );
        let (stop, position) = (Arc::clone(&cancel), tokens.clone());
        std::thread::spawn(move || {
            let outcome = ChildEngine::start(&program, &args)
                .map_err(ReviewError::Engine)
                .and_then(|child| {
                    let mut engine = Watched {
                        child,
                        cancel: &stop,
                        tx: &tx,
                    };
                    quartet_review::handshake(&mut engine)?;
                    quartet_review::temperature_map(&mut engine, &input, &position, budget)
                });
            let _ = tx.send(ReviewEvent::Map(outcome));
        });
        ReviewRun {
            id: 0,
            tokens,
            events,
            cancel,
        }
    }

    /// Stops the run: it ends within `SLICE` of its engine's next line, with what it has.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl Drop for ReviewRun {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// The next event of a session's review run; never, without one.
pub async fn next_event(run: &mut Option<ReviewRun>) -> Option<ReviewEvent> {
    match run.as_mut() {
        Some(r) => r.events.recv().await,
        None => std::future::pending().await,
    }
}

/// The run's engine: the child, watched for the cancel, its lines told to the session.
struct Watched<'a> {
    child: ChildEngine,
    cancel: &'a AtomicBool,
    tx: &'a mpsc::UnboundedSender<ReviewEvent>,
}

/// The error of an engine the run cancelled.
const CANCELLED: &str = "the review was stopped";

impl Engine for Watched<'_> {
    fn send(&mut self, line: &str) -> Result<(), String> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(CANCELLED.into());
        }
        let _ = self.tx.send(ReviewEvent::Line('>', line.to_string()));
        self.child.send(line)
    }

    fn read_line(&mut self, deadline: Instant) -> Result<String, String> {
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Err(CANCELLED.into());
            }
            let slice = deadline.min(Instant::now() + SLICE);
            match self.child.read_line(slice) {
                Ok(line) => {
                    let _ = self.tx.send(ReviewEvent::Line('<', line.clone()));
                    return Ok(line);
                }
                // Only this slice's wait ended: wait on until the deadline.
                Err(_) if slice < deadline && Instant::now() >= slice => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// The review of `input` as `quartet_review::review_game` makes it, from the facts known
/// (`facts`, which gains those found): the last position first (the whole game must
/// replay), then each position not yet known, then the values, luck and losses.
fn review(
    program: &str,
    args: &[String],
    input: &GameInput,
    budget: Budget,
    facts: &mut Vec<Facts>,
    cancel: &AtomicBool,
    tx: &mpsc::UnboundedSender<ReviewEvent>,
) -> Result<GameReview, ReviewError> {
    let child = ChildEngine::start(program, args).map_err(ReviewError::Engine)?;
    let mut engine = Watched { child, cancel, tx };
    let outcome = (|| {
        quartet_review::handshake(&mut engine)?;
        let mut probe = Probe::new(&mut engine, input, budget, None)?;
        let tokens = &input.tokens;
        let total = tokens.len() + 1;
        let end = probe.describe(tokens)?;
        let over = end.node == Node::Over;
        let result = if over { end.result } else { input.result };
        facts.truncate(tokens.len());
        for k in facts.len()..tokens.len() {
            let _ = tx.send(ReviewEvent::Progress(k));
            let described = probe.describe(&tokens[..k])?;
            facts.push(probe.facts(tokens, k, &described)?);
        }
        let _ = tx.send(ReviewEvent::Progress(tokens.len()));
        let last = probe.evaluate(tokens, Some(end))?;
        let (searches, nodes) = (probe.searches, probe.nodes);
        let played = Played {
            tokens,
            facts,
            last,
            over,
            result,
        };
        let review = decompose::review(&played, searches, nodes).map_err(ReviewError::Engine)?;
        let _ = tx.send(ReviewEvent::Progress(total));
        Ok(review)
    })();
    match outcome {
        Err(_) if cancel.load(Ordering::Relaxed) => Err(ReviewError::Cancelled),
        other => other,
    }
}
