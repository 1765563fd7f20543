//! The gathering side of a match: what happens when a game ends. Its score goes into its
//! pairing's tally (and the pair's, when both games are in), its termination and any
//! engine's fault are counted, its opening and its moves into the distinct counts; its
//! record is appended to `--pgnout`, its line to `--jsonl`, and the results file is
//! rewritten with the report and how far the match got (see [`super::resume`]).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use quartet_core::game::{Outcome, Player, RuleOptions};
use quartet_core::notation::Notation;
use quartet_records::Record;

use super::MatchError;
use super::adjudicate::Termination;
use super::config::{MatchConfig, rule_tags};
use super::crosstable::PairingTally;
use super::datetime::{clock, pgn_date, unix_ms};
use super::dice::PER_PLAYER;
use super::distinct::{Counter, DistinctCount, fingerprint};
use super::play::{EngineNote, Note, PlayedGame};
use super::progress::Progress;
use super::provenance::Identity;
use super::record::result_text;
use super::report::{MatchReport, StopReason};
use super::results::{GameLine, RESULTS_FORMAT, ResultsFile, write_atomically};
use super::resume::Output;
use super::resume_state::ResumeState;
use super::schedule::GameSpec;
use super::sprt::SprtDecision;
use super::stats::{GameScore, Tally};

/// The state of a match between games.
pub struct Gather<'a> {
    /// The match.
    pub cfg: &'a MatchConfig,
    /// Its rules.
    pub rules: &'a RuleOptions,
    /// When this session began.
    pub started: Instant,
    /// Milliseconds of earlier sessions.
    pub earlier_ms: u64,
    /// The start position's string (the `FEN` tag of a game from the start).
    pub start_fen: String,
    /// The report so far.
    pub report: MatchReport,
    /// Each pairing's tally, from its first engine's view.
    pub tallies: Vec<Tally>,
    /// Pairs with one game counted: that game's score.
    pub pending: HashMap<u64, GameScore>,
    /// Games counted in this session.
    pub played: u64,
    /// The records file.
    pub pgn: Option<Output>,
    /// The JSON lines file.
    pub jsonl: Option<Output>,
    /// The progress display.
    pub progress: Progress,
    /// What the match is played with.
    pub identity: Identity,
    /// The distinct openings.
    pub openings_seen: Counter,
    /// The distinct games.
    pub games_seen: Counter,
    /// The games finished (all sessions), for `--resume`.
    pub state: ResumeState,
}

/// The score of the pairing's first engine in a game.
pub fn score_of(spec: &GameSpec, outcome: Outcome) -> GameScore {
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

/// The players at fault in a game that ended by `termination` with `outcome`: the loser
/// of a crash, a stall, a time forfeit or an illegal move, both players when both failed
/// (a draw), nobody otherwise.
fn culprits(termination: Termination, outcome: Outcome) -> Vec<Player> {
    match termination {
        Termination::IllegalMove
        | Termination::Crash
        | Termination::TimeForfeit
        | Termination::Stall => match outcome {
            Outcome::Win(p) => vec![p.other()],
            Outcome::Draw => vec![Player::First, Player::Second],
        },
        _ => Vec::new(),
    }
}

/// Puts the pairings' tallies into the report: a match's one tally, or a tournament's
/// pairings with the first engine's total over its own.
pub fn summarise(cfg: &MatchConfig, tallies: &[Tally], report: &mut MatchReport) {
    if cfg.engines.len() == 2 {
        report.tally = tallies[0];
        return;
    }
    let name = |e: usize| cfg.engines[e].spec.name.clone();
    report.pairings = cfg
        .pairings
        .iter()
        .zip(tallies)
        .map(|(&[a, b], t)| PairingTally {
            engines: [name(a), name(b)],
            tally: *t,
        })
        .collect();
    let mut first = Tally::default();
    for (pairing, t) in cfg.pairings.iter().zip(tallies) {
        if pairing[0] == 0 {
            first.merge(t);
        }
    }
    report.tally = first;
}

/// The record of a finished game.
fn record<G: Notation>(
    cfg: &MatchConfig,
    rules: &RuleOptions,
    fen: &str,
    spec: &GameSpec,
    g: &PlayedGame,
) -> Record {
    let [white, black] = spec.engines.map(|e| &cfg.engines[e]);
    let v = &g.verdict;
    // The seven-tag roster in its order, then Quartet's own.
    let mut tags = vec![
        ("Event", cfg.event.clone()),
        ("Site", cfg.site.clone()),
        ("Date", pgn_date(g.started_ms)),
        ("Round", (spec.index + 1).to_string()),
        ("White", white.spec.name.clone()),
        ("Black", black.spec.name.clone()),
        ("Result", result_text(v.outcome).to_string()),
        ("Game", G::DECLARATION.name.to_string()),
    ];
    tags.extend(rule_tags(&G::DECLARATION, rules));
    tags.push(("Termination", v.termination.to_string()));
    if !v.reason.is_empty() {
        tags.push(("Reason", v.reason.clone()));
    }
    if white.limit == black.limit {
        tags.push(("TimeControl", white.limit.to_string()));
    } else {
        tags.push(("WhiteTimeControl", white.limit.to_string()));
        tags.push(("BlackTimeControl", black.limit.to_string()));
    }
    if G::DECLARATION.nodes.chance.is_some() {
        tags.push(("Dice", PER_PLAYER.to_string()));
    }
    tags.extend([
        ("Seed", spec.seed.to_string()),
        ("FEN", fen.to_string()),
        ("OpeningPlies", g.opening_plies.to_string()),
        ("PlyCount", g.moves.len().to_string()),
    ]);
    Record {
        tags: tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        moves: g.moves.clone(),
        comments: g.notes.iter().map(comment).collect(),
        clocks: Vec::new(),
        result: result_text(v.outcome).to_string(),
    }
}

/// The comment after a token: `book` for the opening's, none for a chance outcome, and
/// for an engine's move `{score/depth time}` with the declaration's probability (a
/// simultaneous turn's policy) and the clock after the move (`[%clk h:mm:ss]`), the two
/// halves of a joint turn separated by ` / ` as in its token.
fn comment(note: &Note) -> Option<String> {
    match note {
        Note::Book => Some("book".to_string()),
        Note::Chance => None,
        Note::Engines(engines) => Some(
            engines
                .iter()
                .map(engine_comment)
                .collect::<Vec<_>>()
                .join(" / "),
        ),
    }
}

/// One engine's part of a comment.
fn engine_comment(e: &EngineNote) -> String {
    let mut parts = Vec::with_capacity(4);
    if let Some(score) = e.info.score {
        parts.push(format!("{score}/{}", e.info.depth.unwrap_or(0)));
    }
    parts.push(format!("{:.3}s", e.elapsed.as_secs_f64()));
    if let Some(p) = e.info.probability(&e.token) {
        parts.push(format!("p={p:.3}"));
    }
    if let Some(left) = e.clock {
        parts.push(format!("[%clk {}]", clock(left)));
    }
    parts.join(" ")
}

/// Appends `text` to an output file and counts its bytes.
fn append(out: &mut Option<Output>, text: &str) -> Result<(), MatchError> {
    if let Some(o) = out.as_mut() {
        o.file
            .write_all(text.as_bytes())
            .and_then(|()| o.file.flush())
            .map_err(|e| MatchError::File {
                path: o.path.clone(),
                why: e.to_string(),
            })?;
        o.bytes += text.len() as u64;
    }
    Ok(())
}

impl Gather<'_> {
    /// Counts, records and reports one finished game; returns whether its SPRT decided.
    pub fn finished<G: Notation>(
        &mut self,
        spec: &GameSpec,
        game: &PlayedGame,
    ) -> Result<bool, MatchError> {
        let (cfg, report) = (self.cfg, &mut self.report);
        self.played += 1;
        let score = score_of(spec, game.verdict.outcome);
        let tally = &mut self.tallies[spec.pairing];
        tally.add_game(score);
        if let Some(other) = self.pending.remove(&spec.pair) {
            tally.add_pair(other, score);
        } else {
            self.pending.insert(spec.pair, score);
        }
        summarise(cfg, &self.tallies, report);
        let v = &game.verdict;
        *report
            .terminations
            .entry(v.termination.to_string())
            .or_insert(0) += 1;
        for culprit in culprits(v.termination, v.outcome) {
            let name = &cfg.engines[spec.engines[culprit.index()]].spec.name;
            *report
                .faults
                .entry(name.clone())
                .or_default()
                .entry(v.termination.to_string())
                .or_insert(0) += 1;
        }
        let fen = spec.opening.fen.as_deref().unwrap_or(&self.start_fen);
        let opening_id = fingerprint(Some(fen), &spec.opening.moves);
        let game_id = fingerprint(Some(fen), &game.moves);
        self.openings_seen.add(opening_id);
        self.games_seen.add(game_id);
        report.distinct_openings = Some(DistinctCount::of(&self.openings_seen));
        report.distinct_games = Some(DistinctCount::of(&self.games_seen));
        report.engine_ms += game.engine_time.as_millis() as u64;
        report.wall_ms += game.wall_time.as_millis() as u64;
        report.elapsed_ms = self.earlier_ms + self.started.elapsed().as_millis() as u64;
        let rec = record::<G>(cfg, self.rules, fen, spec, game);
        append(&mut self.pgn, &rec.to_text())?;
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
            opening_id: Some(format!("{opening_id:016x}")),
            game_id: Some(format!("{game_id:016x}")),
            started_ms: Some(game.started_ms),
            ended_ms: Some(unix_ms()),
        };
        let json = serde_json::to_string(&line).map_err(|e| MatchError::Internal(e.to_string()))?;
        append(&mut self.jsonl, &(json + "\n"))?;
        self.state.add_done(spec.index);
        let decided = match report.sprt_status() {
            Some((_, SprtDecision::AcceptH0)) => Some(StopReason::SprtH0),
            Some((_, SprtDecision::AcceptH1)) => Some(StopReason::SprtH1),
            _ => None,
        };
        let decided = decided.filter(|_| report.stop == StopReason::Running);
        if let Some(reason) = &decided {
            report.stop = reason.clone();
        }
        self.write_results()?;
        let report = &self.report;
        let mut what = format!(
            "Finished game {} of {} ({} vs {}): {} {{{}",
            spec.index + 1,
            cfg.total_games(),
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
        let last = self.state.done_count() == report.scheduled;
        if cfg.report_every > 0 && self.played.is_multiple_of(cfg.report_every) && !last {
            self.progress.print(&report.to_string());
        }
        Ok(decided.is_some())
    }

    /// Rewrites the `--results` file with the current report and how far the match got.
    pub fn write_results(&mut self) -> Result<(), MatchError> {
        let Some(path) = &self.cfg.results else {
            return Ok(());
        };
        self.state.pending = self.pending.iter().map(|(&p, &s)| (p, s)).collect();
        self.state.pending.sort_by_key(|&(p, _)| p);
        self.state.pgnout = self.pgn.as_ref().map(Output::mark);
        self.state.jsonl = self.jsonl.as_ref().map(Output::mark);
        let cfg = self.cfg;
        let file = ResultsFile {
            format: RESULTS_FORMAT.to_string(),
            seed: cfg.seed,
            games: cfg.games,
            shard: cfg.shard,
            openings: Some(cfg.openings.to_string()),
            runs: Vec::new(),
            identity: Some(self.identity.clone()),
            resume: Some(self.state.clone()),
            report: self.report.clone(),
        };
        let json =
            serde_json::to_string_pretty(&file).map_err(|e| MatchError::Internal(e.to_string()))?;
        write_atomically(Path::new(path), &(json + "\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::book::Opening;

    #[test]
    fn scores_follow_the_colours() {
        let spec = |swapped| GameSpec {
            index: 0,
            pair: 0,
            pairing: 0,
            engines: if swapped { [1, 0] } else { [0, 1] },
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

    #[test]
    fn faults_fall_on_the_loser_or_on_both() {
        let win = Outcome::Win(Player::First);
        assert_eq!(culprits(Termination::Crash, win), [Player::Second]);
        assert_eq!(
            culprits(Termination::IllegalMove, Outcome::Draw),
            [Player::First, Player::Second]
        );
        assert!(culprits(Termination::Normal, win).is_empty());
        assert!(culprits(Termination::Repetition, Outcome::Draw).is_empty());
    }
}
