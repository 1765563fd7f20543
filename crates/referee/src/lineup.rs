//! The engines of a match or tournament from the command line: each `--engine` group of
//! `key=value` words, the `--each` words every engine gets, an engines file
//! (`--engines FILE`, chosen with `conf=NAME`) and the global limit (`--tc`, `--movetime`,
//! `--nodes`, `--depth`).
//!
//! Keys: `cmd=PATH`, `name=NAME`, `dir=DIR`, `args="A B"`, `option.X=Y`, `conf=NAME` and
//! one limit, `tc=[moves/]seconds+increment`, `movetime=MS`, `nodes=N` or `depth=N` (each
//! engine is held to its own). An engine's own words win over its `conf=` entry, which wins
//! over `--each`, which wins over the global limit; options accumulate in that order, a
//! later value of one option replacing the earlier. Every engine ends with a command and
//! exactly one limit.
//!
//! The engines file is JSON: a list of objects with `name` and `cmd`, and optionally
//! `args` (a string split at spaces, or a list), `dir`, `options` (an object of option
//! names and values) and one of `tc`, `movetime`, `nodes`, `depth`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::clock::TimeControl;
use super::engine::EngineSpec;

/// One engine of a match: how to run it and its limit per move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineEntry {
    /// The process and its options.
    pub spec: EngineSpec,
    /// What each of its `go` commands carries.
    pub limit: TimeControl,
}

/// One engine of an engines file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEngine {
    name: String,
    cmd: String,
    #[serde(default)]
    args: Option<Args>,
    #[serde(default)]
    dir: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    tc: Option<String>,
    #[serde(default)]
    movetime: Option<u64>,
    #[serde(default)]
    nodes: Option<u64>,
    #[serde(default)]
    depth: Option<u32>,
}

/// `args` as one string or a list.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum Args {
    Line(String),
    List(Vec<String>),
}

impl FileEngine {
    /// The entry as `--engine` words (without `name=`, which `conf=` chooses by).
    fn words(&self) -> Vec<String> {
        let mut words = vec![format!("cmd={}", self.cmd)];
        match &self.args {
            Some(Args::Line(line)) => words.push(format!("args={line}")),
            Some(Args::List(list)) => words.push(format!("args={}", list.join(" "))),
            None => {}
        }
        if let Some(dir) = &self.dir {
            words.push(format!("dir={dir}"));
        }
        for (k, v) in &self.options {
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            words.push(format!("option.{k}={v}"));
        }
        if let Some(tc) = &self.tc {
            words.push(format!("tc={tc}"));
        }
        if let Some(ms) = self.movetime {
            words.push(format!("movetime={ms}"));
        }
        if let Some(n) = self.nodes {
            words.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            words.push(format!("depth={d}"));
        }
        words
    }
}

/// Reads an engines file.
pub fn read_engines_file(path: &Path) -> Result<Vec<FileEngine>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--engines {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("--engines {}: {e}", path.display()))
}

/// An engine being assembled from its layers of words.
#[derive(Default)]
struct Draft {
    cmd: Option<PathBuf>,
    name: Option<String>,
    dir: Option<PathBuf>,
    args: Option<Vec<String>>,
    options: Vec<(String, String)>,
    limit: Option<TimeControl>,
}

/// Reads a limit key, if `key` is one.
fn limit(key: &str, value: &str) -> Option<Result<TimeControl, String>> {
    let positive = |v: Result<u64, _>, what: &str| {
        v.ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{key}={value}: {what} must be a positive number"))
    };
    Some(match key {
        "tc" => TimeControl::parse_clock(value),
        "movetime" => positive(value.parse(), "the move time")
            .map(|ms| TimeControl::MoveTime(Duration::from_millis(ms))),
        "nodes" => positive(value.parse(), "the node count").map(TimeControl::Nodes),
        "depth" => positive(value.parse(), "the depth")
            .and_then(|d| u32::try_from(d).map_err(|_| format!("depth={value}: too deep")))
            .map(TimeControl::Depth),
        _ => return None,
    })
}

impl Draft {
    /// Applies one layer of words (`what` names the layer in errors).
    fn apply(&mut self, words: &[String], what: &str) -> Result<(), String> {
        let mut layer_limit = None;
        for word in words {
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| format!("{what}: expected key=value, got '{word}'"))?;
            if let Some(parsed) = limit(key, value) {
                let parsed = parsed.map_err(|e| format!("{what}: {e}"))?;
                if let Some(earlier) = layer_limit.replace(parsed) {
                    return Err(format!(
                        "{what}: two limits ({earlier} and {parsed}): give one of tc=, \
                        movetime=, nodes=, depth="
                    ));
                }
                continue;
            }
            match key {
                "cmd" => self.cmd = Some(PathBuf::from(value)),
                "name" => self.name = Some(value.to_string()),
                "dir" => self.dir = Some(PathBuf::from(value)),
                "args" => self.args = Some(value.split_whitespace().map(String::from).collect()),
                "conf" => return Err(format!("{what}: conf= is only for an --engine")),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        match self.options.iter_mut().find(|(n, _)| n == option) {
                            Some(slot) => slot.1 = value.to_string(),
                            None => self.options.push((option.to_string(), value.to_string())),
                        }
                    }
                    _ => return Err(format!("{what}: unknown key '{key}' in '{word}'")),
                },
            }
        }
        if let Some(l) = layer_limit {
            self.limit = Some(l);
        }
        Ok(())
    }
}

/// Builds the engines from the `--engine` groups, the `--each` words, the engines file (if
/// any) and the global limit (if any). Two engines with the same name are told apart as
/// `NAME-1`, `NAME-2`, ...
pub fn engines(
    groups: &[Vec<String>],
    each: &[String],
    file: Option<&Path>,
    global: Option<TimeControl>,
) -> Result<Vec<EngineEntry>, String> {
    let entries = file.map(read_engines_file).transpose()?;
    let mut out = Vec::with_capacity(groups.len());
    for (n, words) in groups.iter().enumerate() {
        let what = format!("--engine {}", n + 1);
        let mut draft = Draft {
            limit: global,
            ..Draft::default()
        };
        draft.apply(each, "--each")?;
        let (conf, own): (Vec<&String>, Vec<&String>) =
            words.iter().partition(|w| w.starts_with("conf="));
        if let Some(conf) = conf.last() {
            let name = &conf["conf=".len()..];
            let entries = entries
                .as_ref()
                .ok_or_else(|| format!("{what}: conf={name} needs --engines FILE"))?;
            let entry = entries
                .iter()
                .find(|e| e.name == name)
                .ok_or_else(|| format!("{what}: no engine '{name}' in the engines file"))?;
            draft.apply(&entry.words(), &format!("the engines file's '{name}'"))?;
            draft.name.get_or_insert_with(|| name.to_string());
        }
        let own: Vec<String> = own.into_iter().cloned().collect();
        draft.apply(&own, &what)?;
        let cmd = draft
            .cmd
            .ok_or_else(|| format!("{what}: cmd= is missing"))?;
        let limit = draft.limit.ok_or_else(|| {
            format!(
                "{what}: no limit: give --tc, --movetime, --nodes or --depth, or tc=, \
                movetime=, nodes=, depth= to the engine or to --each"
            )
        })?;
        let name = draft.name.unwrap_or_else(|| {
            cmd.file_stem()
                .map_or("engine".to_string(), |s| s.to_string_lossy().into_owned())
        });
        out.push(EngineEntry {
            spec: EngineSpec {
                name,
                cmd,
                args: draft.args.unwrap_or_default(),
                dir: draft.dir,
                options: draft.options,
            },
            limit,
        });
    }
    let names: Vec<String> = out.iter().map(|e| e.spec.name.clone()).collect();
    for (i, e) in out.iter_mut().enumerate() {
        let same = names.iter().filter(|n| **n == names[i]).count();
        if same > 1 {
            let nth = names[..=i].iter().filter(|n| **n == names[i]).count();
            e.spec.name = format!("{}-{nth}", names[i]);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn layers_and_limits() {
        let groups = vec![
            words("cmd=a option.Hash=64 tc=10+0.1"),
            words("cmd=b name=bee"),
            words("cmd=a nodes=500"),
        ];
        let e = engines(
            &groups,
            &words("option.Hash=16 option.Threads=1"),
            None,
            Some(TimeControl::Depth(3)),
        )
        .unwrap();
        assert_eq!(e[0].spec.name, "a-1");
        assert_eq!(e[2].spec.name, "a-2");
        assert_eq!(e[1].spec.name, "bee");
        assert_eq!(e[0].limit.to_string(), "10+0.1");
        assert_eq!(e[1].limit, TimeControl::Depth(3));
        assert_eq!(e[2].limit, TimeControl::Nodes(500));
        // --each first, the engine's own value replacing it in place.
        assert_eq!(
            e[0].spec.options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
        let each_limit = engines(&groups[1..2], &words("movetime=50"), None, None).unwrap();
        assert_eq!(
            each_limit[0].limit,
            TimeControl::MoveTime(Duration::from_millis(50))
        );
        for (group, each) in [
            ("cmd=a", ""),
            ("cmd=a nodes=1 depth=2", ""),
            ("name=x nodes=1", ""),
            ("cmd=a nodes=0", ""),
            ("cmd=a tc=0+1", ""),
            ("cmd=a hash=1 nodes=1", ""),
            ("cmd=a option.=1 nodes=1", ""),
            ("cmd=a conf=x nodes=1", ""),
            ("cmd=a", "conf=x nodes=1"),
        ] {
            let result = engines(&[words(group)], &words(each), None, None);
            assert!(result.is_err(), "accepted: {group} / {each}");
        }
    }

    #[test]
    fn an_engines_file_is_chosen_with_conf() {
        let path =
            std::env::temp_dir().join(format!("quartet-engines-{}.json", std::process::id()));
        std::fs::write(
            &path,
            r#"[
              {"name": "strong", "cmd": "quartet", "args": "--player search",
               "options": {"Skill Level": 20, "Hash": "64"}, "nodes": 2000},
              {"name": "weak", "cmd": "quartet", "args": ["--player", "greedy"], "tc": "5+0.05"}
            ]"#,
        )
        .unwrap();
        let groups = vec![
            words("conf=strong"),
            words("conf=weak name=w2 option.Hash=8"),
        ];
        let e = engines(&groups, &[], Some(&path), Some(TimeControl::Depth(1))).unwrap();
        assert_eq!(e[0].spec.name, "strong");
        assert_eq!(e[0].spec.args, ["--player", "search"]);
        assert_eq!(e[0].limit, TimeControl::Nodes(2000));
        assert_eq!(
            e[0].spec.options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Skill Level".to_string(), "20".to_string())
            ]
        );
        assert_eq!(e[1].spec.name, "w2");
        assert_eq!(e[1].limit.to_string(), "5+0.05");
        assert_eq!(e[1].spec.options, [("Hash".to_string(), "8".to_string())]);
        assert!(engines(&[words("conf=none")], &[], Some(&path), None).is_err());
        assert!(engines(&[words("conf=strong")], &[], None, None).is_err());
        std::fs::write(&path, r#"[{"name": "x", "cmd": "y", "hash": 1}]"#).unwrap();
        let err = engines(&[words("conf=x")], &[], Some(&path), None).unwrap_err();
        assert!(err.contains("unknown field"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }
}
