//! The engine's `option` and `info` lines read generically (any UCI/UGI engine), and
//! `setoption` lines built only from a declared option and a checked value.

use serde::Serialize;

use super::request::echo;

/// One `option name ... type ...` line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionDecl {
    /// The option's name as declared (may contain spaces).
    pub name: String,
    /// Its type and values.
    #[serde(flatten)]
    pub kind: OptionKind,
}

/// The five UCI option types with their declared values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// Declared default.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// Declared default.
        default: bool,
    },
    /// One of `vars`.
    Combo {
        /// Declared default.
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// No value: pressing it is the action.
    Button,
    /// Free text (one line).
    String {
        /// Declared default (`<empty>` reads as empty).
        default: String,
    },
}

/// Reads an `option` line; `None` when it is not one or its type is unknown.
pub fn parse_option(line: &str) -> Option<OptionDecl> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"option") {
        return None;
    }
    const KEYS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let mut fields: Vec<(&str, String)> = Vec::new();
    for w in &words[1..] {
        let key_here = KEYS.contains(w)
            // A name may contain key words only before `type`; `var` values too.
            && !(fields.last().is_some_and(|(k, _)| *k == "name") && *w != "type");
        if key_here {
            fields.push((w, String::new()));
        } else if let Some((_, v)) = fields.last_mut() {
            if !v.is_empty() {
                v.push(' ');
            }
            v.push_str(w);
        } else {
            return None;
        }
    }
    let get = |k: &str| fields.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
    let name = get("name").filter(|n| !n.is_empty())?;
    let default = get("default").unwrap_or_default();
    let kind = match get("type")?.as_str() {
        "spin" => OptionKind::Spin {
            default: default.parse().ok()?,
            min: get("min")?.parse().ok()?,
            max: get("max")?.parse().ok()?,
        },
        "check" => OptionKind::Check {
            default: default == "true",
        },
        "combo" => OptionKind::Combo {
            default,
            vars: fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.clone())
                .collect(),
        },
        "button" => OptionKind::Button,
        "string" => OptionKind::String {
            default: if default == "<empty>" {
                String::new()
            } else {
                default
            },
        },
        _ => return None,
    };
    Some(OptionDecl { name, kind })
}

impl OptionDecl {
    /// The declared default as `setoption` takes it; `None` for a button.
    pub fn default_text(&self) -> Option<String> {
        match &self.kind {
            OptionKind::Spin { default, .. } => Some(default.to_string()),
            OptionKind::Check { default } => Some(default.to_string()),
            OptionKind::Combo { default, .. } | OptionKind::String { default } => {
                Some(default.clone())
            }
            OptionKind::Button => None,
        }
    }

    /// The `setoption` line that sets this option to `value` (checked against the
    /// declaration: a spin in range, a check `true`/`false`, a combo value (any case; the
    /// declared spelling is sent), no value for a button, one printable line for a string).
    /// Error: the value does not fit, said for people.
    pub fn setoption(&self, value: Option<&str>) -> Result<String, String> {
        let name = &self.name;
        let bad = |why: String| Err(format!("option {name}: {why}"));
        let v_shown = value.map(echo).unwrap_or_default();
        let value = match (&self.kind, value) {
            (OptionKind::Button, None) => return Ok(format!("setoption name {name}")),
            (OptionKind::Button, Some(_)) => return bad("a button takes no value".into()),
            (_, None) => return bad("a value is needed".into()),
            (OptionKind::Spin { min, max, .. }, Some(v)) => match v.trim().parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => n.to_string(),
                _ => return bad(format!("'{v_shown}' is not a whole number in {min}..{max}")),
            },
            (OptionKind::Check { .. }, Some(v)) => match v {
                "true" | "false" => v.to_string(),
                _ => return bad(format!("'{v_shown}' is not true or false")),
            },
            (OptionKind::Combo { vars, .. }, Some(v)) => {
                match vars.iter().find(|x| x.eq_ignore_ascii_case(v)) {
                    Some(x) => x.clone(),
                    None => {
                        return bad(format!("'{v_shown}' is not one of {}", vars.join(", ")));
                    }
                }
            }
            (OptionKind::String { .. }, Some(v)) => {
                if v.len() > 1024 || v.chars().any(char::is_control) {
                    return bad("a string value is one line of at most 1024 bytes".into());
                }
                if v.is_empty() {
                    "<empty>".to_string()
                } else {
                    v.to_string()
                }
            }
        };
        Ok(format!("setoption name {name} value {value}"))
    }
}

/// A score as the engine gave it, from the point of view of the player to act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawn-like units (per game: protocol.md §6).
    Cp(i64),
    /// A forced win in N own moves (negative: a forced loss).
    Mate(i64),
}

/// The numbers of one `info` line of a search.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: Option<u64>,
    /// Selective depth.
    pub seldepth: Option<u64>,
    /// Which of the best lines (1 = best).
    pub multipv: u64,
    /// The line's score.
    pub score: Option<Score>,
    /// Win / draw / loss in per mille, when given.
    pub wdl: Option<[u64; 3]>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds.
    pub time: Option<u64>,
    /// Transposition table use in per mille.
    pub hashfull: Option<u64>,
    /// The principal variation's tokens.
    pub pv: Vec<String>,
}

/// What an `info` line says.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Info {
    /// Search numbers.
    Search(SearchInfo),
    /// A mixed strategy: `info string policy <token>=<p> ...`.
    Policy {
        /// Declarations and their probabilities, as listed.
        entries: Vec<(String, f64)>,
    },
    /// Any other `info string` text.
    Text {
        /// The text.
        text: String,
    },
}

/// Reads an `info` line; `None` when it is not one or carries nothing we show.
pub fn parse_info(line: &str) -> Option<Info> {
    let rest = line.strip_prefix("info ")?;
    if let Some(text) = rest.strip_prefix("string ") {
        if let Some(policy) = text.strip_prefix("policy ") {
            let entries = policy
                .split_whitespace()
                .filter_map(|e| {
                    let (tok, p) = e.rsplit_once('=')?;
                    Some((tok.to_string(), p.parse().ok()?))
                })
                .collect();
            return Some(Info::Policy { entries });
        }
        return Some(Info::Text {
            text: text.to_string(),
        });
    }
    let mut info = SearchInfo {
        multipv: 1,
        ..SearchInfo::default()
    };
    let mut words = rest.split_whitespace();
    let num = |w: Option<&str>| w.and_then(|w| w.parse::<u64>().ok());
    while let Some(w) = words.next() {
        match w {
            "depth" => info.depth = num(words.next()),
            "seldepth" => info.seldepth = num(words.next()),
            "multipv" => info.multipv = num(words.next()).unwrap_or(1),
            "nodes" => info.nodes = num(words.next()),
            "nps" => info.nps = num(words.next()),
            "time" => info.time = num(words.next()),
            "hashfull" => info.hashfull = num(words.next()),
            "score" => {
                let kind = words.next();
                let v = words.next().and_then(|v| v.parse::<i64>().ok());
                info.score = match (kind, v) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
            }
            "wdl" => {
                let (w, d, l) = (num(words.next()), num(words.next()), num(words.next()));
                info.wdl = w.zip(d).zip(l).map(|((w, d), l)| [w, d, l]);
            }
            "pv" => {
                info.pv = words.by_ref().map(String::from).collect();
            }
            _ => {}
        }
    }
    if info.depth.is_none() && info.score.is_none() && info.pv.is_empty() {
        return None;
    }
    Some(Info::Search(info))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_type_of_the_protocol() {
        let spin = parse_option("option name Move Overhead type spin default 10 min 0 max 5000");
        assert_eq!(
            spin,
            Some(OptionDecl {
                name: "Move Overhead".into(),
                kind: OptionKind::Spin {
                    default: 10,
                    min: 0,
                    max: 5000
                }
            })
        );
        let combo =
            parse_option("option name Game type combo default duell var rnb var duell var chess")
                .unwrap();
        assert_eq!(
            combo.kind,
            OptionKind::Combo {
                default: "duell".into(),
                vars: vec!["rnb".into(), "duell".into(), "chess".into()]
            }
        );
        let check = parse_option("option name DoubleStep type check default true").unwrap();
        assert_eq!(check.kind, OptionKind::Check { default: true });
        let button = parse_option("option name Clear Hash type button").unwrap();
        assert_eq!(button.name, "Clear Hash");
        assert_eq!(button.kind, OptionKind::Button);
        let string = parse_option("option name Book File type string default <empty>").unwrap();
        assert_eq!(
            string.kind,
            OptionKind::String {
                default: String::new()
            }
        );
        // Multi-word combo values and a name with a key word in it.
        let c =
            parse_option("option name Style type combo default Very Solid var Very Solid var Wild")
                .unwrap();
        assert_eq!(
            c.kind,
            OptionKind::Combo {
                default: "Very Solid".into(),
                vars: vec!["Very Solid".into(), "Wild".into()]
            }
        );
        let n = parse_option("option name Use default book type check default false").unwrap();
        assert_eq!(n.name, "Use default book");
        assert_eq!(parse_option("id name Quartet"), None);
        assert_eq!(
            parse_option("option name X type spin default a min 0 max 1"),
            None
        );
        assert_eq!(parse_option("option name X type colour"), None);
    }

    #[test]
    fn setoption_only_with_values_that_fit() {
        let spin = parse_option("option name Hash type spin default 16 min 1 max 16384").unwrap();
        assert_eq!(
            spin.setoption(Some("64")).unwrap(),
            "setoption name Hash value 64"
        );
        assert!(spin.setoption(Some("0")).is_err());
        assert!(spin.setoption(Some("16385")).is_err());
        assert!(spin.setoption(Some("8\nquit")).is_err());
        assert!(spin.setoption(None).is_err());
        let combo =
            parse_option("option name Player type combo default search var search var mcts")
                .unwrap();
        assert_eq!(
            combo.setoption(Some("MCTS")).unwrap(),
            "setoption name Player value mcts"
        );
        assert!(combo.setoption(Some("random")).is_err());
        let check = parse_option("option name DoubleStep type check default true").unwrap();
        assert!(check.setoption(Some("yes")).is_err());
        assert_eq!(
            check.setoption(Some("false")).unwrap(),
            "setoption name DoubleStep value false"
        );
        let button = parse_option("option name Clear Hash type button").unwrap();
        assert_eq!(button.setoption(None).unwrap(), "setoption name Clear Hash");
        assert!(button.setoption(Some("1")).is_err());
        let s = parse_option("option name Path type string default x").unwrap();
        assert!(s.setoption(Some("a\nquit")).is_err());
        assert!(s.setoption(Some("a\rb")).is_err());
        assert_eq!(
            s.setoption(Some("")).unwrap(),
            "setoption name Path value <empty>"
        );
    }

    #[test]
    fn info_lines_of_the_protocol() {
        let line = "info depth 6 seldepth 11 multipv 2 score cp -35 nodes 81234 nps 2412000 \
                    hashfull 12 time 33 pv d1d7 e8e7";
        let Some(Info::Search(i)) = parse_info(line) else {
            panic!()
        };
        assert_eq!(i.depth, Some(6));
        assert_eq!(i.seldepth, Some(11));
        assert_eq!(i.multipv, 2);
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.nodes, Some(81234));
        assert_eq!(i.nps, Some(2412000));
        assert_eq!(i.hashfull, Some(12));
        assert_eq!(i.time, Some(33));
        assert_eq!(i.pv, ["d1d7", "e8e7"]);
        let ludo = "info depth 3 seldepth 5 multipv 1 score cp 1743 wdl 587 0 413 nodes 53 \
                    nps 53000 hashfull 0 time 0 pv 0-3";
        let Some(Info::Search(i)) = parse_info(ludo) else {
            panic!()
        };
        assert_eq!(i.wdl, Some([587, 0, 413]));
        assert_eq!(i.pv, ["0-3"]);
        let Some(Info::Search(m)) = parse_info("info depth 3 score mate -2 pv a1a2") else {
            panic!()
        };
        assert_eq!(m.score, Some(Score::Mate(-2)));
        assert_eq!(m.multipv, 1);
        assert_eq!(
            parse_info("info string policy c1c3=0.451187 e1d3=0.548813"),
            Some(Info::Policy {
                entries: vec![("c1c3".into(), 0.451187), ("e1d3".into(), 0.548813)]
            })
        );
        assert_eq!(
            parse_info("info string chance node: no move"),
            Some(Info::Text {
                text: "chance node: no move".into()
            })
        );
        assert_eq!(parse_info("info currmove a1a2"), None);
        assert_eq!(parse_info("bestmove a1a2"), None);
    }
}
