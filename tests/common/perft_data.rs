//! The one reader of the perft data files `crates/games/src/<game>/perft.data` (std only, so that the
//! independent reference generators can use it as well as the engine's runner).
//!
//! Format: `id <name>` starts a block; then an optional `rules <Option>=<value> ...` line
//! (UCI option names, e.g. `DoubleStep=false`, `Pieces=2`), one `pos <position string>`, and
//! one or more `perft <depth> <count>` lines. `#` starts a comment. A `perft` line whose
//! comment is `slow` is slow: it runs only in `cargo test --release -- --ignored` (the one
//! rule for slow rows, for the engine and the references alike). A whole-line comment
//! `# from <id> by <token> ...` before an `id` says the block's position is what those
//! tokens give from block `<id>`'s position; the references check it.

/// One `perft <depth> <count>` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftRow {
    /// Plies below the position.
    pub depth: u32,
    /// Leaves at that depth.
    pub count: u64,
    /// Marked `# slow`: checked only by an `#[ignore]` test.
    pub slow: bool,
    /// 1-based line number, for error messages.
    pub line: usize,
}

/// One `id` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftBlock {
    /// The block's name (unique in its file).
    pub id: String,
    /// The `rules` settings as written, e.g. `("DoubleStep", "false")`.
    pub rules: Vec<(String, String)>,
    /// The position string, in the game's notation.
    pub pos: String,
    /// The perft rows, in file order.
    pub rows: Vec<PerftRow>,
    /// From `# from <id> by <tokens>`: the base block and the tokens played from it.
    pub derivation: Option<(String, Vec<String>)>,
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

/// Reads `crates/games/src/<game>/perft.data`; panics naming the file and the fault.
pub fn load(game: &str) -> Vec<PerftBlock> {
    let path = format!(
        "{}/crates/games/src/{game}/perft.data",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_perft_file(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Parses a perft data file (see the module documentation). Errors name the line.
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftBlock>, String> {
    let mut blocks: Vec<PerftBlock> = Vec::new();
    let mut derivation = None;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let (content, comment) = match raw.split_once('#') {
            Some((content, comment)) => (content.trim(), comment.trim()),
            None => (raw.trim(), ""),
        };
        if content.is_empty() {
            if let Some(rest) = comment.strip_prefix("from ") {
                let (base, tokens) = rest
                    .split_once(" by ")
                    .ok_or_else(|| format!("line {line}: expected `# from <id> by <tokens>`"))?;
                let tokens = tokens.split_whitespace().map(str::to_string).collect();
                derivation = Some((base.trim().to_string(), tokens));
            }
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
                derivation: derivation.take(),
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
                block.rows.push(PerftRow {
                    depth,
                    count,
                    slow: comment == "slow",
                    line,
                });
            }
            other => return Err(format!("line {line}: unknown keyword {other:?}")),
        }
    }
    if derivation.is_some() {
        return Err("a `# from` comment after the last block".to_string());
    }
    if let Some(empty) = blocks
        .iter()
        .find(|b| b.pos.is_empty() || b.rows.is_empty())
    {
        return Err(format!("block {:?} lacks a pos or perft rows", empty.id));
    }
    Ok(blocks)
}
