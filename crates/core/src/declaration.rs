//! How a game declares itself, once (after OpenSpiel's `GameType` and Fairy-Stockfish's
//! variant fields): its name, its kinds of node and its rule options with their type,
//! range and default. The registry (the games crate's `GameKind`) lists the declarations; the `uci`
//! option lines, `setoption`, the subcommands' rule flags, the referee's set-up, the perft
//! data files' `rules` lines and the fuzz selectors all read them, so none of those knows a
//! game by name. Its end reasons ([`EndReason`]) are declared the same way: `query reason`,
//! `query position` and the referee's records read them.
//!
//! [`RuleOptions`] holds the values of rule options by name: only values that differ from
//! their declared default are stored, so the default value of every game is
//! `RuleOptions::default()` and two equal settings compare equal.

/// Everything the code outside a game's folder needs to know about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameDeclaration {
    /// The name the `Game` option and `--game` use (`duell`), lower case.
    pub name: &'static str,
    /// The game's name for people (`Duell`).
    pub title: &'static str,
    /// Which kinds of node the game has.
    pub nodes: NodeKinds,
    /// The rule options, in the order `uci` lists them.
    pub rule_options: &'static [RuleOption],
    /// Every reason a game of it can end for, [`EndReason::REPETITION`] among them when
    /// the game draws by repetition.
    pub end_reasons: &'static [EndReason],
    /// Whether a game of it can end in a draw (by a rule or by repetition). The referee
    /// refuses draw adjudication for a game without draws, and reads its engines' winning
    /// chances (`wdl`) to adjudicate a resignation.
    pub draws: bool,
    /// The measured Elo of some skill levels, `(level, Elo)` ascending in both, level 0
    /// and level 20 among them (`scripts/skill_ladder.py` measures them); the levels
    /// between are interpolated. `None`: not measured yet, and the levels follow a
    /// provisional scale (`quartet_engine::skill`), weaker below 20 all the same.
    pub skill_elo: Option<&'static [(u8, i32)]>,
    /// What `quartet bench` searches for this game.
    pub bench: BenchSpec,
    /// The sides' names for people, the first player's first (`["White", "Black"]`), as
    /// messages, `d` and `query position` (its `sides`) name them.
    pub sides: [&'static str; 2],
    /// How the engine's `score cp` for this game reads as the scored side's expected score
    /// (`query winchance` answers it, and the review uses it).
    pub win_chance: WinChance,
}

impl GameDeclaration {
    /// What a game need not write, `..GameDeclaration::DEFAULT` after what it declares:
    /// turns only, no rule options, draws possible, no measured skill levels and the sides
    /// "First" and "Second". Its name, title, end reasons and bench are placeholders that
    /// every game replaces (the registry refuses to compile a game without a name, an end
    /// reason or a bench position).
    pub const DEFAULT: GameDeclaration = GameDeclaration {
        name: "",
        title: "",
        nodes: NodeKinds::TURNS,
        rule_options: &[],
        end_reasons: &[],
        draws: true,
        skill_elo: None,
        bench: BenchSpec {
            depth: 1,
            perft_depth: 1,
            positions: &[],
            signature: 0,
        },
        sides: ["First", "Second"],
        win_chance: WinChance::LICHESS,
    };
}

/// How a game's `score cp` reads as the expected score (0..1) of the side it is from: the
/// winning-chance curve that lichess keeps for Stockfish's centipawns, declared per game
/// because each game's scores have their own unit. A `mate` score is a certain result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WinChance {
    /// The score is a probability: `P = (1 + cp / full) / 2`, and `cp = ±full` is certain.
    Probability {
        /// The score of a certain win.
        full: i32,
    },
    /// lichess's curve: `P = 1 / (1 + exp(-k * cp))`.
    Logistic {
        /// Per unit of `cp`, positive.
        k: f64,
    },
}

impl WinChance {
    /// lichess's constant for Stockfish's centipawns (scalachess,
    /// `WinPercent.winningChances`: `2 / (1 + exp(-0.00368208 * cp)) - 1`): the curve of
    /// a game that has not measured its own.
    pub const LICHESS: WinChance = WinChance::Logistic { k: 0.003_682_08 };

    /// `query winchance`'s answer: `probability <full>` or `logistic <k>` (`k` printed so
    /// that it reads back to the same `f64`).
    pub fn answer(self) -> String {
        match self {
            WinChance::Probability { full } => format!("probability {full}"),
            WinChance::Logistic { k } => format!("logistic {k}"),
        }
    }
}

/// Why a finished game ended: the rule that ended it, declared by the game (its
/// declaration's `end_reasons`). `query reason` answers the token and the words; the
/// referee's records and `query position` carry them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndReason {
    /// The token `query reason` answers: lower case, words joined by `-` (`key-captured`).
    pub token: &'static str,
    /// The reason for people, a phrase without a final stop (`a key piece was captured`).
    pub words: &'static str,
    /// A game that ends by it, from the rules file's worked examples: `None` only for
    /// [`EndReason::REPETITION`], shared by every game with a repetition window.
    /// `tests/protocol_queries.rs` plays each one and checks the reason it ends by.
    pub example: Option<EndExample>,
}

/// A finished game by one end rule: a position, and the moves that end the game from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndExample {
    /// Where the example comes from (`R&B example 7`, `Duell rule 1.12 b`).
    pub source: &'static str,
    /// The position string the game starts from.
    pub position: &'static str,
    /// The moves, space-separated, after which the game is over by the rule (empty when the
    /// position is already over).
    pub moves: &'static str,
}

impl EndReason {
    /// The third occurrence of a position: the end that no position shows, judged by the
    /// history keeper (`crate::history`) for games with a repetition window.
    pub const REPETITION: EndReason = EndReason {
        token: "repetition",
        words: "the same position occurred for the third time",
        example: None,
    };
}

/// A game's bench: fixed positions searched to a fixed depth (the node count is the
/// search's signature), and a perft from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchSpec {
    /// The search depth of each position.
    pub depth: u32,
    /// Perft depth from the start position.
    pub perft_depth: u32,
    /// The positions searched (the start and middle games), under the default rules.
    pub positions: &'static [&'static str],
    /// The node signature (Stockfish's `signature.sh`): the nodes `quartet bench
    /// --untimed` searches over the positions. Any change to the search, the evaluation or
    /// the move ordering changes it, and `tests/bench_signature.rs` fails until it is
    /// updated here; a change that should not alter the search (a refactoring) must leave
    /// it as it is. Say the new value in the commit message of a change that alters it.
    pub signature: u64,
}

/// The kinds of node a game's positions can be (besides finished ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeKinds {
    /// A side to move chooses one move (R&B, Duell, Ludo's decisions).
    pub turns: bool,
    /// Both players declare at once (Apocalypse; R&B's setup under its rule option
    /// `Placement together`). `true` when any rule setting has such nodes.
    pub simultaneous: bool,
    /// Nature draws an outcome; the text says what a client must send there (Ludo: "the die
    /// must be rolled first: send a roll token r1..r6"). `None`: no chance nodes.
    pub chance: Option<&'static str>,
}

impl NodeKinds {
    /// A side to move at every node: no simultaneous or chance nodes.
    pub const TURNS: NodeKinds = NodeKinds {
        turns: true,
        simultaneous: false,
        chance: None,
    };
}

/// One rule option: a UCI option and a command-line flag of every subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOption {
    /// The UCI name (`DoubleStep`); the flag is its kebab-case form (`--double-step`).
    pub name: &'static str,
    /// What it changes, for `--help` and protocol.md.
    pub help: &'static str,
    /// Its type, range and default.
    pub kind: RuleKind,
}

/// The type of a rule option, with its default (and range).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// `true` or `false` (stored as 1 or 0).
    Check {
        /// The default.
        default: bool,
    },
    /// One of a list of words (a UCI `combo`), stored as its index in `values`.
    Combo {
        /// The index of the default in `values`.
        default: usize,
        /// The words, in the order `uci` lists them (lower case).
        values: &'static [&'static str],
    },
    /// A whole number in `min..=max`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
}

impl RuleOption {
    /// The default value (a check as 1 or 0).
    pub const fn default_value(&self) -> i64 {
        match self.kind {
            RuleKind::Check { default } => default as i64,
            RuleKind::Combo { default, .. } => default as i64,
            RuleKind::Spin { default, .. } => default,
        }
    }

    /// The smallest and the largest value (0 and 1 for a check, the indices of a combo's
    /// words).
    pub const fn range(&self) -> (i64, i64) {
        match self.kind {
            RuleKind::Check { .. } => (0, 1),
            RuleKind::Combo { values, .. } => (0, values.len() as i64 - 1),
            RuleKind::Spin { min, max, .. } => (min, max),
        }
    }

    /// The command-line flag without its dashes: `DoubleStep` gives `double-step`.
    pub fn flag(&self) -> String {
        let mut flag = String::new();
        for (i, c) in self.name.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                flag.push('-');
            }
            flag.push(c.to_ascii_lowercase());
        }
        flag
    }

    /// Reads a value as UCI and the command line write it: `true`/`false` (any case) for a
    /// check, one of the words (any case) for a combo, a decimal number in range for a spin.
    /// The error says what was wrong.
    pub fn parse_value(&self, text: &str) -> Result<i64, String> {
        let name = self.name;
        match self.kind {
            RuleKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(1),
                "false" => Ok(0),
                _ => Err(format!("{name}: '{text}' is not true or false")),
            },
            RuleKind::Combo { values, .. } => values
                .iter()
                .position(|v| v.eq_ignore_ascii_case(text))
                .map(|i| i as i64)
                .ok_or_else(|| format!("{name}: '{text}' is not one of {}", values.join(", "))),
            RuleKind::Spin { min, max, .. } => {
                let n: i64 = text
                    .parse()
                    .map_err(|_| format!("{name}: '{text}' is not a whole number"))?;
                if (min..=max).contains(&n) {
                    Ok(n)
                } else {
                    Err(format!("{name}: {text} is out of range {min}..{max}"))
                }
            }
        }
    }

    /// A value as UCI and the command line write it (`true`, `together`, `4`); a combo
    /// index out of range is written as its number.
    pub fn format_value(&self, value: i64) -> String {
        match self.kind {
            RuleKind::Check { .. } => (value != 0).to_string(),
            RuleKind::Combo { values, .. } => usize::try_from(value)
                .ok()
                .and_then(|i| values.get(i))
                .map_or_else(|| value.to_string(), |v| v.to_string()),
            RuleKind::Spin { .. } => value.to_string(),
        }
    }

    /// The `option` line of the `uci` answer.
    pub fn uci_line(&self) -> String {
        match self.kind {
            RuleKind::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            RuleKind::Combo { default, values } => {
                let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
                format!(
                    "option name {} type combo default {} {}",
                    self.name,
                    self.format_value(default as i64),
                    vars.join(" ")
                )
            }
            RuleKind::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
        }
    }
}

/// The most rule options set away from their defaults at once.
pub const MAX_RULE_SETTINGS: usize = 8;

/// The values of rule options, by option name (see the module documentation). Each game
/// reads the options it declares and ignores the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    /// Values that differ from their option's default, sorted by name, then `None`s.
    settings: [Option<(&'static str, i64)>; MAX_RULE_SETTINGS],
}

impl RuleOptions {
    /// Every option at its default (the same as `RuleOptions::default()`, usable in
    /// constants).
    pub const DEFAULT: RuleOptions = RuleOptions {
        settings: [None; MAX_RULE_SETTINGS],
    };

    /// The value of `option`: the one set, or its default.
    pub fn get(&self, option: &RuleOption) -> i64 {
        self.settings
            .iter()
            .flatten()
            .find(|(name, _)| *name == option.name)
            .map_or(option.default_value(), |&(_, v)| v)
    }

    /// The value of the check option `option`.
    pub fn flag(&self, option: &RuleOption) -> bool {
        self.get(option) != 0
    }

    /// These values with `option` set to `value`, which must lie in its range; at most
    /// [`MAX_RULE_SETTINGS`] options may differ from their defaults.
    pub fn with(self, option: &RuleOption, value: i64) -> Result<RuleOptions, String> {
        let (min, max) = option.range();
        if !(min..=max).contains(&value) {
            return Err(format!(
                "{}: {value} is out of range {min}..{max}",
                option.name
            ));
        }
        let mut list: Vec<(&'static str, i64)> = self
            .settings
            .iter()
            .flatten()
            .copied()
            .filter(|(name, _)| *name != option.name)
            .collect();
        if value != option.default_value() {
            list.push((option.name, value));
        }
        list.sort_unstable();
        if list.len() > MAX_RULE_SETTINGS {
            return Err(format!(
                "{}: at most {MAX_RULE_SETTINGS} rule options can differ from their defaults",
                option.name
            ));
        }
        let mut out = RuleOptions::default();
        for (slot, setting) in out.settings.iter_mut().zip(list) {
            *slot = Some(setting);
        }
        Ok(out)
    }

    /// Every option set away from its default, as `(name, value)`, sorted by name.
    pub fn settings(&self) -> impl Iterator<Item = (&'static str, i64)> + '_ {
        self.settings.iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STEP: RuleOption = RuleOption {
        name: "DoubleStep",
        help: "",
        kind: RuleKind::Check { default: true },
    };
    const PIECES: RuleOption = RuleOption {
        name: "Pieces",
        help: "",
        kind: RuleKind::Spin {
            default: 4,
            min: 1,
            max: 4,
        },
    };

    const PLACE: RuleOption = RuleOption {
        name: "Placement",
        help: "",
        kind: RuleKind::Combo {
            default: 0,
            values: &["alternate", "together"],
        },
    };

    #[test]
    fn a_combo_reads_its_words_in_any_case_and_prints_them() {
        assert_eq!(PLACE.parse_value("Together"), Ok(1));
        assert_eq!(PLACE.parse_value("alternate"), Ok(0));
        assert_eq!(
            PLACE.parse_value("both"),
            Err("Placement: 'both' is not one of alternate, together".into())
        );
        assert_eq!(PLACE.format_value(1), "together");
        assert_eq!(PLACE.format_value(7), "7");
        assert_eq!(PLACE.range(), (0, 1));
        assert_eq!(PLACE.default_value(), 0);
        assert_eq!(
            PLACE.uci_line(),
            "option name Placement type combo default alternate var alternate var together"
        );
        let r = RuleOptions::default().with(&PLACE, 1).expect("in range");
        assert_eq!(r.get(&PLACE), 1);
        assert!(RuleOptions::default().with(&PLACE, 2).is_err());
    }

    #[test]
    fn defaults_are_read_from_the_declaration() {
        let r = RuleOptions::default();
        assert!(r.flag(&STEP));
        assert_eq!(r.get(&PIECES), 4);
        assert_eq!(r.settings().count(), 0);
    }

    #[test]
    fn settings_are_canonical_whatever_their_order() {
        let a = RuleOptions::default()
            .with(&PIECES, 2)
            .and_then(|r| r.with(&STEP, 0))
            .expect("in range");
        let b = RuleOptions::default()
            .with(&STEP, 0)
            .and_then(|r| r.with(&PIECES, 2))
            .expect("in range");
        assert_eq!(a, b);
        assert_eq!(a.get(&PIECES), 2);
        assert!(!a.flag(&STEP));
        assert_eq!(
            a.settings().collect::<Vec<_>>(),
            [("DoubleStep", 0), ("Pieces", 2)]
        );
        // Back to the default: the setting is gone, so it equals the default again.
        let back = a
            .with(&PIECES, 4)
            .and_then(|r| r.with(&STEP, 1))
            .expect("in range");
        assert_eq!(back, RuleOptions::default());
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let r = RuleOptions::default();
        assert_eq!(
            r.with(&PIECES, 5),
            Err("Pieces: 5 is out of range 1..4".into())
        );
        assert!(r.with(&STEP, 2).is_err());
    }

    #[test]
    fn values_parse_and_print_as_uci_writes_them() {
        assert_eq!(STEP.parse_value("FALSE"), Ok(0));
        assert_eq!(
            STEP.parse_value("yes"),
            Err("DoubleStep: 'yes' is not true or false".into())
        );
        assert_eq!(PIECES.parse_value("3"), Ok(3));
        assert!(PIECES.parse_value("0").is_err());
        assert!(PIECES.parse_value("x").is_err());
        assert_eq!(STEP.format_value(0), "false");
        assert_eq!(PIECES.format_value(2), "2");
        assert_eq!(STEP.flag(), "double-step");
        assert_eq!(PIECES.flag(), "pieces");
        assert_eq!(
            STEP.uci_line(),
            "option name DoubleStep type check default true"
        );
        assert_eq!(
            PIECES.uci_line(),
            "option name Pieces type spin default 4 min 1 max 4"
        );
    }
}
