//! The code blocks of a Markdown text: indented ones (4 spaces, after a blank line) and
//! fenced ones (between lines starting with three backticks).

/// One code block.
#[derive(Debug, Clone)]
pub struct Block {
    /// The line number of its first line (1-based).
    pub line: usize,
    /// Its lines, without the indentation (blank lines inside kept as "").
    pub lines: Vec<String>,
    /// A fenced block's info string (`sh`, `bash`...), empty for an indented block.
    pub info: String,
    /// The last non-blank line before the block.
    pub before: String,
}

/// Every code block of `text`, in order.
pub fn blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let before = |i: usize| {
        lines[..i]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map_or(String::new(), |l| l.trim().to_string())
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(info) = lines[i].trim_start().strip_prefix("```") {
            let start = i;
            i += 1;
            let mut block = Vec::new();
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                block.push(lines[i].to_string());
                i += 1;
            }
            found.push(Block {
                line: start + 2,
                lines: block,
                info: info.trim().to_string(),
                before: before(start),
            });
            i += 1;
            continue;
        }
        if !lines[i].starts_with("    ") || (i > 0 && !lines[i - 1].trim().is_empty()) {
            i += 1;
            continue;
        }
        // Indented lines, and blank lines followed by more of them.
        let start = i;
        let mut block = Vec::new();
        while i < lines.len() {
            if let Some(l) = lines[i].strip_prefix("    ") {
                block.push(l.to_string());
            } else if lines[i].trim().is_empty()
                && lines.get(i + 1).is_some_and(|n| n.starts_with("    "))
            {
                block.push(String::new());
            } else {
                break;
            }
            i += 1;
        }
        found.push(Block {
            line: start + 1,
            lines: block,
            info: String::new(),
            before: before(start),
        });
    }
    found
}
