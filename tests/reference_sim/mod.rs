//! Independent reference referees for the two chance/simultaneous games, written from the rules
//! files alone (std only, no `quartet` code), plus the reader for the perft data files they
//! produce. Used by tests/reference_chance_sim.rs to prove the references against the rules'
//! worked examples and to keep tests/data/{apocalypse,ludo}.perft from drifting.

pub mod apocalypse;
pub mod ludo;

/// One `perft <depth> <count>` line of a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRow {
    pub depth: u32,
    pub count: u64,
    /// The line carries a trailing `# slow` comment: checked only in an `#[ignore]` test.
    pub slow: bool,
    /// 1-based line number, for error messages.
    pub line: usize,
}

/// One `id` block of a data file: its rule options, position and perft rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftBlock {
    pub id: String,
    /// `rules` options as written, e.g. `("DoubleStep", "false")` or `("Pieces", "2")`.
    pub rules: Vec<(String, String)>,
    pub pos: String,
    pub rows: Vec<PerftRow>,
}

impl PerftBlock {
    /// The value of rule option `name`, or `default` when the block does not set it.
    pub fn rule<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.rules
            .iter()
            .find(|(key, _)| key == name)
            .map_or(default, |(_, value)| value.as_str())
    }
}

/// Parses a perft data file:
/// `id <name>` starts a block, then an optional `rules Key=Value ...`, one `pos <position>` and
/// one or more `perft <depth> <count>` lines. `#` starts a comment; a perft line whose comment is
/// `slow` is marked slow. Errors name the line.
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftBlock>, String> {
    let mut blocks: Vec<PerftBlock> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let (content, comment) = match raw.split_once('#') {
            Some((content, comment)) => (content.trim(), comment.trim()),
            None => (raw.trim(), ""),
        };
        if content.is_empty() {
            continue;
        }
        let (keyword, rest) = content.split_once(' ').unwrap_or((content, ""));
        let rest = rest.trim();
        if keyword == "id" {
            if rest.is_empty() {
                return Err(format!("line {line}: id without a name"));
            }
            if blocks.iter().any(|b| b.id == rest) {
                return Err(format!("line {line}: duplicate id {rest:?}"));
            }
            blocks.push(PerftBlock {
                id: rest.to_string(),
                rules: Vec::new(),
                pos: String::new(),
                rows: Vec::new(),
            });
            continue;
        }
        let Some(block) = blocks.last_mut() else {
            return Err(format!("line {line}: {keyword:?} before the first id"));
        };
        match keyword {
            "rules" => {
                for option in rest.split_whitespace() {
                    let Some((key, value)) = option.split_once('=') else {
                        return Err(format!("line {line}: rule option {option:?} lacks '='"));
                    };
                    block.rules.push((key.to_string(), value.to_string()));
                }
            }
            "pos" => {
                if !block.pos.is_empty() {
                    return Err(format!("line {line}: second pos in block {:?}", block.id));
                }
                block.pos = rest.to_string();
            }
            "perft" => {
                let numbers: Vec<&str> = rest.split_whitespace().collect();
                let parsed = match numbers.as_slice() {
                    [depth, count] => depth.parse::<u32>().ok().zip(count.parse::<u64>().ok()),
                    _ => None,
                };
                let Some((depth, count)) = parsed else {
                    return Err(format!("line {line}: expected `perft <depth> <count>`"));
                };
                if block.pos.is_empty() {
                    return Err(format!("line {line}: perft before pos"));
                }
                let slow = comment == "slow";
                block.rows.push(PerftRow {
                    depth,
                    count,
                    slow,
                    line,
                });
            }
            other => return Err(format!("line {line}: unknown keyword {other:?}")),
        }
    }
    if let Some(empty) = blocks
        .iter()
        .find(|b| b.pos.is_empty() || b.rows.is_empty())
    {
        return Err(format!("block {:?} lacks a pos or perft rows", empty.id));
    }
    Ok(blocks)
}
