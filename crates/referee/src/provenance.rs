//! What a match was played with, kept in its results file: Quartet's version, the game and
//! its rules, each engine's program (the sha256 of the resolved command), arguments,
//! options and limit, the openings and the book's content hash, and the adjudication
//! rules. `quartet match merge` refuses files whose test differs (an engine or a book
//! changed under the same name), and `--resume` a command that differs from the one that
//! started the match; both name the difference.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::engine::EngineSpec;

/// The hex sha256 of `bytes` (as `sha256sum` prints it).
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One engine as it was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineIdentity {
    /// Its name in the match.
    pub name: String,
    /// The command as given (`cmd=`).
    pub cmd: String,
    /// The sha256 of the program the command resolved to (through `PATH` for a bare name),
    /// or `None` when it could not be read.
    pub sha256: Option<String>,
    /// Each argument that names a readable file (a script), with the file's sha256.
    #[serde(default)]
    pub files: Vec<(String, String)>,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its `option.X=Y` settings, in order.
    pub options: Vec<(String, String)>,
    /// Its limit per move (`nodes=500`, `10+0.1`).
    pub limit: String,
}

/// Everything that makes two runs one test (their seeds, game counts and shards aside).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Quartet's version (the referee's rules: schedule, dice streams, adjudication).
    pub quartet: String,
    /// The game.
    pub game: String,
    /// Every rule option of the game with its value.
    pub rules: Vec<(String, String)>,
    /// The engines in `--engine` order.
    pub engines: Vec<EngineIdentity>,
    /// The tournament's form (`match` for two engines).
    pub tournament: String,
    /// The `--openings` (`startpos`, `random:N`, `file:PATH order=.. start=..`).
    pub openings: String,
    /// The sha256 of the book file, for a book.
    pub book_sha256: Option<String>,
    /// The adjudication rules (`none`, or `--draw ...`, `--resign ...` as given).
    pub adjudication: String,
}

/// The program `cmd` runs: a path with a `/` as it is (relative to `dir`, else to the
/// current directory), a bare name through `PATH`.
pub fn resolve_command(cmd: &Path, dir: Option<&Path>) -> Option<PathBuf> {
    let in_dir = |p: &Path| match dir {
        Some(d) if p.is_relative() => d.join(p),
        _ => p.to_path_buf(),
    };
    if cmd.components().count() > 1 || cmd.is_absolute() {
        let path = in_dir(cmd);
        return path.is_file().then_some(path);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(cmd))
            .find(|p| p.is_file())
    })
}

/// Hashes files once per path.
#[derive(Default)]
pub struct Hasher {
    known: HashMap<PathBuf, Option<String>>,
}

impl Hasher {
    /// The sha256 of the file at `path`, or `None` when it cannot be read.
    pub fn file(&mut self, path: &Path) -> Option<String> {
        self.known
            .entry(path.to_path_buf())
            .or_insert_with(|| std::fs::read(path).ok().map(|b| sha256_hex(&b)))
            .clone()
    }

    /// The identity of an engine with its limit written as `limit`.
    pub fn engine(&mut self, spec: &EngineSpec, limit: String) -> EngineIdentity {
        let dir = spec.dir.as_deref();
        let sha256 = resolve_command(&spec.cmd, dir).and_then(|p| self.file(&p));
        let files = spec
            .args
            .iter()
            .filter_map(|arg| {
                let path = match dir {
                    Some(d) if Path::new(arg).is_relative() => d.join(arg),
                    _ => PathBuf::from(arg),
                };
                if !path.is_file() {
                    return None;
                }
                self.file(&path).map(|h| (arg.clone(), h))
            })
            .collect();
        EngineIdentity {
            name: spec.name.clone(),
            cmd: spec.cmd.display().to_string(),
            sha256,
            files,
            args: spec.args.clone(),
            options: spec.options.clone(),
            limit,
        }
    }
}

/// What differs between engine `a` and engine `b` of the same name, if anything.
fn engine_difference(
    a: &EngineIdentity,
    b: &EngineIdentity,
    (here, there): (&str, &str),
) -> Option<String> {
    let name = &a.name;
    let short = |h: &Option<String>| {
        h.as_deref().map_or("unreadable".to_string(), |h| {
            h[..h.len().min(12)].to_string()
        })
    };
    if a.sha256.is_some() && b.sha256.is_some() && a.sha256 != b.sha256 {
        return Some(format!(
            "engine '{name}' is another program: its command '{}' has sha256 {} in {here} and {} \
            in {there}",
            b.cmd,
            short(&b.sha256),
            short(&a.sha256)
        ));
    }
    if (a.sha256.is_none() || b.sha256.is_none()) && a.cmd != b.cmd {
        return Some(format!(
            "engine '{name}' runs another command: '{}' in {here} and '{}' in {there}",
            b.cmd, a.cmd
        ));
    }
    if a.args != b.args {
        return Some(format!(
            "engine '{name}' has other arguments: '{}' in {here} and '{}' in {there}",
            b.args.join(" "),
            a.args.join(" ")
        ));
    }
    if a.files != b.files {
        let changed = b
            .files
            .iter()
            .find(|f| !a.files.contains(f))
            .or_else(|| a.files.iter().find(|f| !b.files.contains(f)))
            .map_or(String::new(), |(arg, _)| arg.clone());
        return Some(format!(
            "engine '{name}' reads another file: '{changed}' differs between {here} and {there} \
            (sha256)"
        ));
    }
    if a.options != b.options {
        let text = |o: &[(String, String)]| {
            o.iter()
                .map(|(k, v)| format!("option.{k}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        return Some(format!(
            "engine '{name}' has other options: '{}' in {here} and '{}' in {there}",
            text(&b.options),
            text(&a.options)
        ));
    }
    if a.limit != b.limit {
        return Some(format!(
            "engine '{name}' has another limit: {} in {here} and {} in {there}",
            b.limit, a.limit
        ));
    }
    None
}

/// The first thing that makes `here` another test than `there`, said for people with the
/// names of the two (`labels`: how to name `here`, then `there`, e.g. `this command` and
/// `the results file`), or `None` when they are one test.
pub fn difference(there: &Identity, here: &Identity, labels: (&str, &str)) -> Option<String> {
    let (h, t) = labels;
    let pair =
        |what: &str, x: &str, y: &str| Some(format!("{what}: '{y}' in {h} and '{x}' in {t}"));
    if there.game != here.game {
        return pair("another game", &there.game, &here.game);
    }
    if there.rules != here.rules {
        let (k, v) = here
            .rules
            .iter()
            .find(|r| !there.rules.contains(r))
            .cloned()
            .unwrap_or_default();
        let before = there
            .rules
            .iter()
            .find(|(n, _)| *n == k)
            .map_or("unset", |(_, v)| v.as_str());
        return Some(format!(
            "other rules: {k} is '{v}' in {h} and '{before}' in {t}"
        ));
    }
    let names = |i: &Identity| {
        i.engines
            .iter()
            .map(|e| e.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if there.engines.len() != here.engines.len()
        || there
            .engines
            .iter()
            .zip(&here.engines)
            .any(|(a, b)| a.name != b.name)
    {
        return pair("other engines", &names(there), &names(here));
    }
    if let Some(why) = there
        .engines
        .iter()
        .zip(&here.engines)
        .find_map(|(a, b)| engine_difference(a, b, labels))
    {
        return Some(why);
    }
    if there.tournament != here.tournament {
        return pair("another tournament", &there.tournament, &here.tournament);
    }
    if there.openings != here.openings {
        return pair("other openings", &there.openings, &here.openings);
    }
    if there.book_sha256 != here.book_sha256 {
        return Some(format!(
            "another book under the same name: '{}' has sha256 {} in {h} and {} in {t}",
            here.openings,
            here.book_sha256.as_deref().unwrap_or("none"),
            there.book_sha256.as_deref().unwrap_or("none")
        ));
    }
    if there.adjudication != here.adjudication {
        return pair(
            "other adjudication rules",
            &there.adjudication,
            &here.adjudication,
        );
    }
    if there.quartet != here.quartet {
        return pair("another Quartet version", &there.quartet, &here.quartet);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-2's example "abc".
    #[test]
    fn sha256_of_abc() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    fn engine(name: &str) -> EngineIdentity {
        EngineIdentity {
            name: name.to_string(),
            cmd: "quartet".to_string(),
            sha256: Some("ab".repeat(32)),
            files: Vec::new(),
            args: Vec::new(),
            options: vec![("Hash".to_string(), "16".to_string())],
            limit: "nodes=100".to_string(),
        }
    }

    fn identity() -> Identity {
        Identity {
            quartet: "0.1.0".to_string(),
            game: "duell".to_string(),
            rules: Vec::new(),
            engines: vec![engine("a"), engine("b")],
            tournament: "match".to_string(),
            openings: "file:book.txt order=random start=1".to_string(),
            book_sha256: Some("cd".repeat(32)),
            adjudication: "none".to_string(),
        }
    }

    const L: (&str, &str) = ("this run", "that run");

    #[test]
    fn every_difference_is_named() {
        let base = identity();
        assert_eq!(difference(&base, &base, L), None);
        let mut other = base.clone();
        other.engines[1].sha256 = Some("ef".repeat(32));
        let why = difference(&base, &other, L).unwrap();
        assert!(why.contains("engine 'b' is another program"), "{why}");
        let mut other = base.clone();
        other.engines[0].cmd = "/elsewhere/quartet".to_string();
        assert_eq!(difference(&base, &other, L), None, "same binary elsewhere");
        other.engines[0].options[0].1 = "64".to_string();
        let why = difference(&base, &other, L).unwrap();
        assert!(why.contains("option.Hash=64"), "{why}");
        let mut other = base.clone();
        other.book_sha256 = Some("00".repeat(32));
        let why = difference(&base, &other, L).unwrap();
        assert!(why.contains("another book under the same name"), "{why}");
        let mut other = base.clone();
        other.engines.reverse();
        assert!(
            difference(&base, &other, L)
                .unwrap()
                .contains("other engines")
        );
        let mut other = base.clone();
        other.engines[0].limit = "nodes=200".to_string();
        assert!(
            difference(&base, &other, L)
                .unwrap()
                .contains("another limit")
        );
        let mut other = base.clone();
        other.rules.push(("Pieces".to_string(), "2".to_string()));
        assert!(difference(&base, &other, L).unwrap().contains("Pieces"));
        let mut other = base.clone();
        other.engines[0].files = vec![("e.py".to_string(), "11".repeat(32))];
        assert!(difference(&base, &other, L).unwrap().contains("'e.py'"));
    }

    #[test]
    fn commands_resolve_through_path_and_dir() {
        let sh = resolve_command(Path::new("sh"), None).expect("sh on PATH");
        assert!(sh.is_absolute());
        assert_eq!(
            resolve_command(Path::new("no-such-program-here"), None),
            None
        );
        let dir = std::env::temp_dir();
        let file = dir.join(format!("quartet-provenance-{}", std::process::id()));
        std::fs::write(&file, b"abc").unwrap();
        let name = file.file_name().unwrap().to_owned();
        let relative = Path::new(".").join(&name);
        assert_eq!(
            resolve_command(&relative, Some(&dir)),
            Some(dir.join(&relative))
        );
        let mut hasher = Hasher::default();
        assert_eq!(hasher.file(&file).as_deref(), Some(&*sha256_hex(b"abc")));
        std::fs::remove_file(&file).unwrap();
        // Known paths are hashed once.
        assert!(hasher.file(&file).is_some());
    }
}
