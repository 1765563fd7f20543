//! The engine's UCI options: their declarations for `uci`, their values, and how a
//! `setoption` changes them. The rule options of every game (as the games declare them)
//! are options too.

use super::eval_file::{self, CHECKED_IN, EvalSource};
use quartet_core::eval::nnue::Choice;
use quartet_core::game::RuleOptions;
use quartet_engine::skill::{ELO_MAX, ELO_MIN, MAX_LEVEL, Strength};
use quartet_engine::{GameKind, rule_option, rule_options};
use quartet_search::players::PlayerKind;
use quartet_search::tt::MAX_HASH_MB;

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// The largest `MultiPV`.
pub const MAX_MULTIPV: u64 = 256;
/// The largest `Threads`.
pub const MAX_THREADS: u64 = 256;
/// The largest `Move Overhead` in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The largest `Seed`: spin bounds must fit a signed 32-bit integer (cutechess reads them
/// with `toInt`).
pub const MAX_SEED: u64 = i32::MAX as u64;

/// Every option's current value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The game being played.
    pub game: GameKind,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines reported per search.
    pub multipv: usize,
    /// Seed of random choices (mixed strategies, engine rolls, baselines).
    pub seed: u64,
    /// Time kept back per move for the GUI and the pipe, in ms.
    pub move_overhead_ms: u64,
    /// Name the expected reply in `bestmove M ponder P` (UCI's `Ponder`).
    pub ponder: bool,
    /// At a chance node, `go` answers a seeded roll token (for runners without dice).
    pub engine_rolls: bool,
    /// Rule options of the games.
    pub rules: RuleOptions,
    /// Who chooses the moves: the engine's search or a built-in baseline.
    pub player: PlayerKind,
    /// `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`.
    pub strength: Strength,
    /// `Eval`: how the games that have a network (`Evaluate::NNUE`) evaluate.
    pub eval: Choice,
    /// `UCI_ShowWDL`: `info` lines carry `wdl W D L` where the game's scores are win
    /// probabilities.
    pub show_wdl: bool,
}

impl EngineOptions {
    /// The defaults, playing `game`.
    pub fn new(game: GameKind) -> Self {
        EngineOptions {
            game,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            seed: 0,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            ponder: false,
            engine_rolls: false,
            rules: RuleOptions::default(),
            player: PlayerKind::Search,
            strength: Strength::default(),
            eval: Choice::Auto,
            show_wdl: false,
        }
    }
}

/// What the session must do after an option changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond storing the value (also: the value was the current one).
    None,
    /// Switch to the new game at its start position and clear the hash table.
    NewGame,
    /// Reallocate the hash table.
    ResizeHash,
    /// Clear the hash table.
    ClearHash,
    /// The rules of the current game changed: restart it at its start position.
    NewRules,
    /// `EvalFile`: read these weights (off the reader's thread), load them and clear the
    /// hash table.
    LoadEvalFile(EvalSource),
}

/// The `option` lines of the `uci` answer, in a fixed order; each `default` is the value
/// the session started with (`defaults`: the command line's `--game` and `--player`).
pub fn declarations(defaults: &EngineOptions) -> Vec<String> {
    let games: Vec<String> = GameKind::ALL
        .iter()
        .map(|g| format!("var {}", g.name()))
        .collect();
    let players: Vec<String> = PlayerKind::ALL
        .iter()
        .map(|p| format!("var {}", p.name()))
        .collect();
    let mut lines = vec![
        format!(
            "option name Game type combo default {} {}",
            defaults.game.name(),
            games.join(" ")
        ),
        format!(
            "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
            defaults.hash_mb
        ),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            defaults.threads
        ),
        format!(
            "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
            defaults.multipv
        ),
        format!(
            "option name Seed type spin default {} min 0 max {MAX_SEED}",
            defaults.seed
        ),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            defaults.move_overhead_ms
        ),
        format!("option name Ponder type check default {}", defaults.ponder),
        format!(
            "option name EngineRolls type check default {}",
            defaults.engine_rolls
        ),
        format!(
            "option name Skill Level type spin default {} min 0 max {MAX_LEVEL}",
            defaults.strength.level
        ),
        format!(
            "option name UCI_LimitStrength type check default {}",
            defaults.strength.limit
        ),
        format!(
            "option name UCI_Elo type spin default {} min {ELO_MIN} max {ELO_MAX}",
            defaults.strength.elo
        ),
        format!(
            "option name UCI_ShowWDL type check default {}",
            defaults.show_wdl
        ),
    ];
    lines.extend(rule_options().iter().map(|o| o.uci_line()));
    lines.push(format!(
        "option name Player type combo default {} {}",
        defaults.player.name(),
        players.join(" ")
    ));
    let evals: Vec<String> = Choice::ALL
        .iter()
        .map(|c| format!("var {}", c.name()))
        .collect();
    lines.push(format!(
        "option name Eval type combo default {} {}",
        defaults.eval.name(),
        evals.join(" ")
    ));
    lines.push(format!(
        "option name EvalFile type string default {CHECKED_IN}"
    ));
    lines
}

impl EngineOptions {
    /// Applies `setoption name <name> value <value>` (names are case-insensitive). On an
    /// error nothing changes; setting an option to its current value changes nothing
    /// either ([`Effect::None`]).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let before = *self;
        let effect = self.apply(name, value)?;
        let always = matches!(effect, Effect::ClearHash | Effect::LoadEvalFile(_));
        Ok(if *self == before && !always {
            Effect::None
        } else {
            effect
        })
    }

    fn apply(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let key = name.to_ascii_lowercase();
        match key.as_str() {
            "game" => {
                let v = need(name, value)?;
                self.game = GameKind::parse(v).map_err(|e| format!("Game: {e}"))?;
                Ok(Effect::NewGame)
            }
            "hash" => {
                self.hash_mb = spin(name, need(name, value)?, 1, MAX_HASH_MB as u64)? as usize;
                Ok(Effect::ResizeHash)
            }
            "clear hash" => Ok(Effect::ClearHash),
            "threads" => {
                self.threads = spin(name, need(name, value)?, 1, MAX_THREADS)? as usize;
                Ok(Effect::None)
            }
            "multipv" => {
                self.multipv = spin(name, need(name, value)?, 1, MAX_MULTIPV)? as usize;
                Ok(Effect::None)
            }
            "seed" => {
                self.seed = spin(name, need(name, value)?, 0, MAX_SEED)?;
                Ok(Effect::None)
            }
            "move overhead" => {
                self.move_overhead_ms = spin(name, need(name, value)?, 0, MAX_MOVE_OVERHEAD_MS)?;
                Ok(Effect::None)
            }
            "ponder" => {
                self.ponder = check(name, need(name, value)?)?;
                Ok(Effect::None)
            }
            "enginerolls" => {
                self.engine_rolls = check(name, need(name, value)?)?;
                Ok(Effect::None)
            }
            "skill level" => {
                let level = spin(name, need(name, value)?, 0, u64::from(MAX_LEVEL))?;
                self.strength.level = level as u8;
                Ok(Effect::None)
            }
            "uci_limitstrength" => {
                self.strength.limit = check(name, need(name, value)?)?;
                Ok(Effect::None)
            }
            "uci_elo" => {
                self.strength.elo = signed_spin(name, need(name, value)?, ELO_MIN, ELO_MAX)?;
                Ok(Effect::None)
            }
            "uci_showwdl" => {
                self.show_wdl = check(name, need(name, value)?)?;
                Ok(Effect::None)
            }
            "player" => {
                self.player = need(name, value)?
                    .parse()
                    .map_err(|e| format!("Player: {e}"))?;
                Ok(Effect::None)
            }
            "eval" => {
                let v = need(name, value)?;
                let Some(eval) = Choice::parse(v) else {
                    return Err(format!("Eval: '{v}' is not auto, classical or network"));
                };
                if eval == self.eval {
                    return Ok(Effect::None);
                }
                quartet_engine::choose_eval(eval);
                self.eval = eval;
                Ok(Effect::ClearHash)
            }
            // Checked from the file's metadata now; read by the session off the reader.
            "evalfile" => Ok(Effect::LoadEvalFile(eval_file::check(value)?)),
            _ => self.set_rule(name, value),
        }
    }

    /// Sets a rule option of any game; only a rule of the game being played restarts it.
    fn set_rule(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let option = rule_option(name)
            .ok_or_else(|| format!("unknown option '{name}' (see 'uci' for the list)"))?;
        let value = option.parse_value(need(name, value)?)?;
        self.rules = self.rules.with(option, value)?;
        Ok(if self.game.declares(option.name) {
            Effect::NewRules
        } else {
            Effect::None
        })
    }
}

fn need<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
    value.ok_or_else(|| format!("{name}: no value (setoption name {name} value <value>)"))
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name}: '{value}' is not true or false")),
    }
}

/// The error for a `value` that is not a number of the range `min..=max`: a whole number
/// too large for 64 bits is out of range, like any other.
fn not_a_number(
    name: &str,
    value: &str,
    min: impl std::fmt::Display,
    max: impl std::fmt::Display,
) -> String {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("{name}: {value} is out of range {min}..{max}")
    } else {
        format!("{name}: '{value}' is not a whole number")
    }
}

fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    let n: u64 = value
        .parse()
        .map_err(|_| not_a_number(name, value, min, max))?;
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{name}: {value} is out of range {min}..{max}"))
    }
}

/// A spin whose range may include negative numbers (`UCI_Elo`).
fn signed_spin(name: &str, value: &str, min: i32, max: i32) -> Result<i32, String> {
    let n: i64 = value
        .parse()
        .map_err(|_| not_a_number(name, value, min, max))?;
    if (i64::from(min)..=i64::from(max)).contains(&n) {
        Ok(n as i32)
    } else {
        Err(format!("{name}: {value} is out of range {min}..{max}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_combo_lists_every_game() {
        // The registry's games in its order (a literal list would be one more place a new
        // game touches; protocol.md's example keeps the literal one).
        let vars: String = GameKind::ALL
            .iter()
            .map(|g| format!(" var {}", g.name()))
            .collect();
        assert_eq!(
            declarations(&EngineOptions::new(GameKind::Duell))[0],
            format!("option name Game type combo default duell{vars}")
        );
    }

    #[test]
    fn the_player_combo_lists_every_player() {
        assert_eq!(
            declarations(&EngineOptions::new(GameKind::Duell))
                .iter()
                .find(|l| l.starts_with("option name Player "))
                .map(String::as_str),
            Some(
                "option name Player type combo default search var search var random var greedy \
                 var mcts"
            )
        );
    }

    #[test]
    fn setting_options() {
        let mut o = EngineOptions::new(GameKind::Duell);
        assert_eq!(o.set("hash", Some("64")), Ok(Effect::ResizeHash));
        assert_eq!(o.hash_mb, 64);
        assert_eq!(
            o.set("Hash", Some("64")),
            Ok(Effect::None),
            "no reallocation"
        );
        assert_eq!(o.set("Move Overhead", Some("0")), Ok(Effect::None));
        assert_eq!(o.move_overhead_ms, 0);
        assert_eq!(o.set("Seed", Some("2147483647")), Ok(Effect::None));
        assert_eq!(o.seed, 2_147_483_647);
        assert_eq!(o.set("DoubleStep", Some("FALSE")), Ok(Effect::None));
        assert_eq!(o.rules.settings().collect::<Vec<_>>(), [("DoubleStep", 0)]);
        assert_eq!(o.set("Game", Some("Ludo")), Ok(Effect::NewGame));
        assert_eq!(o.set("Pieces", Some("2")), Ok(Effect::NewRules));
        assert_eq!(
            o.set("Pieces", Some("2")),
            Ok(Effect::None),
            "the current value"
        );
        assert_eq!(
            o.set("Game", Some("ludo")),
            Ok(Effect::None),
            "the current game"
        );
        assert_eq!(o.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(o.set("player", Some("MCTS")), Ok(Effect::None));
        assert_eq!(o.player, PlayerKind::Mcts);
        assert!(!o.show_wdl, "wdl is off unless asked for, as in Stockfish");
        assert_eq!(o.set("uci_showwdl", Some("TRUE")), Ok(Effect::None));
        assert!(o.show_wdl);
        assert_eq!(
            o.set("EvalFile", Some("<empty>")),
            Ok(Effect::LoadEvalFile(EvalSource::CheckedIn)),
            "every EvalFile is loaded again, even the same"
        );
    }

    #[test]
    fn setting_the_strength_options() {
        let mut o = EngineOptions::new(GameKind::Duell);
        assert_eq!(o.strength, Strength::default());
        assert_eq!(o.set("skill level", Some("0")), Ok(Effect::None));
        assert_eq!(o.set("Skill Level", Some("20")), Ok(Effect::None));
        assert_eq!(o.strength.level, 20);
        assert_eq!(o.set("uci_limitstrength", Some("TRUE")), Ok(Effect::None));
        assert!(o.strength.limit);
        let max = ELO_MAX.to_string();
        assert_eq!(o.set("UCI_Elo", Some(&max)), Ok(Effect::None));
        assert_eq!(o.strength.elo, ELO_MAX);
        // Refused values: `bad_values_change_nothing`.
        assert_eq!(
            o.set("Skill Level", Some("21")),
            Err("Skill Level: 21 is out of range 0..20".into())
        );
    }

    #[test]
    fn defaults_are_the_starting_values_and_every_spin_fits_32_bits() {
        let ludo = EngineOptions {
            player: PlayerKind::Mcts,
            ..EngineOptions::new(GameKind::Ludo)
        };
        let lines = declarations(&ludo);
        assert!(lines[0].starts_with("option name Game type combo default ludo "));
        let player = lines.iter().find(|l| l.starts_with("option name Player "));
        assert!(player.is_some_and(|l| l.contains("default mcts ")));
        let eval = EngineOptions {
            eval: Choice::Network,
            ..ludo
        };
        let line = "option name Eval type combo default network var auto var classical var network";
        assert!(declarations(&eval).contains(&line.to_string()));
        for line in lines.iter().filter(|l| l.contains(" type spin ")) {
            let max: i64 = line
                .rsplit(' ')
                .next()
                .and_then(|m| m.parse().ok())
                .expect("a max");
            assert!(max <= i64::from(i32::MAX), "{line}");
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = EngineOptions::new(GameKind::Duell);
        let before = o;
        let (above, below) = (
            (i64::from(ELO_MAX) + 1).to_string(),
            (i64::from(ELO_MIN) - 1).to_string(),
        );
        for (name, value) in [
            ("Skill Level", Some("21")),
            ("Skill Level", Some("-1")),
            ("Skill Level", None),
            ("UCI_LimitStrength", Some("1")),
            ("UCI_Elo", Some(above.as_str())),
            ("UCI_Elo", Some(below.as_str())),
            ("UCI_Elo", Some("99999999999999999999")),
            ("UCI_Elo", Some("1e3")),
            ("Hash", Some("999999999")),
            ("Hash", Some("0")),
            ("Hash", Some("-1")),
            ("Hash", None),
            ("MultiPV", Some("x")),
            ("Seed", Some("2147483648")),
            ("DoubleStep", Some("yes")),
            ("Pieces", Some("5")),
            ("Game", Some("chess")),
            ("Player", Some("oracle")),
            ("Colour", Some("red")),
            ("Eval", Some("nnue")),
            ("Eval", None),
            ("EvalFile", Some("no-such-weights.bin")),
            ("UCI_ShowWDL", Some("1")),
        ] {
            assert!(o.set(name, value).is_err(), "{name} {value:?}");
            assert_eq!(o, before);
        }
        assert_eq!(
            o.set("Hash", Some("999999999")),
            Err("Hash: 999999999 is out of range 1..16384".into())
        );
        for huge in ["999999999999999999999999", "-999999999999999999999999"] {
            assert_eq!(
                o.set("Hash", Some(huge)),
                Err(format!("Hash: {huge} is out of range 1..16384"))
            );
        }
        assert_eq!(
            o.set("Hash", Some("1e3")),
            Err("Hash: '1e3' is not a whole number".into())
        );
        assert_eq!(
            o.set("Hash", None),
            Err("Hash: no value (setoption name Hash value <value>)".into())
        );
    }
}
