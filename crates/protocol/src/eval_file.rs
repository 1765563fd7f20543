//! The `EvalFile` option's weights file. Its type and size are checked from its metadata
//! when the line comes ([`check`]: nothing is opened, so a FIFO or a device cannot block
//! and `/dev/zero` cannot fill the memory); only a regular file of a size a network file
//! can have is then read, off the reader's thread ([`read`]), and loaded into the game its
//! first bytes name ([`install`]).

use quartet_core::eval::Evaluate;
use quartet_core::eval::nnue::Quantized;
use quartet_core::notation::Notation;
use quartet_engine::{GameKind, GameVisitor};
use std::io::Read;
use std::path::PathBuf;

/// `EvalFile`'s value for the checked-in weights.
pub const CHECKED_IN: &str = "<empty>";

/// Where the weights `EvalFile` names come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalSource {
    /// Every game's checked-in weights (`<empty>`).
    CheckedIn,
    /// A file whose metadata said it is a regular file of at most [`max_file_bytes`].
    File(PathBuf),
}

/// The weights of one game's network, read from a file.
pub struct Weights {
    game: GameKind,
    net: Quantized,
}

/// The largest weights file read: twice the largest network file of this build with an
/// empty header, which leaves a header as long as the weights themselves.
pub fn max_file_bytes() -> u64 {
    let largest = GameKind::ALL
        .iter()
        .filter_map(|g| g.visit(FileBytes))
        .max()
        .unwrap_or(0);
    2 * largest as u64
}

/// `EvalFile`'s `value` checked from the file's metadata only: the checked-in weights
/// (no value, empty or `<empty>`), or a regular file of at most [`max_file_bytes`]. The
/// error says why not (`EvalFile: <path>: ...`).
pub fn check(value: Option<&str>) -> Result<EvalSource, String> {
    let path = value.unwrap_or("").trim();
    if path.is_empty() || path == CHECKED_IN {
        return Ok(EvalSource::CheckedIn);
    }
    let refuse = |why: String| format!("EvalFile: {path}: {why}");
    let meta = std::fs::metadata(path).map_err(|e| refuse(e.to_string()))?;
    regular_and_sane(&meta).map_err(refuse)?;
    Ok(EvalSource::File(PathBuf::from(path)))
}

/// Why a file of this metadata is not read: not a regular file, or larger than any
/// network file can be.
fn regular_and_sane(meta: &std::fs::Metadata) -> Result<(), String> {
    if meta.is_dir() {
        return Err("a directory, not a network file".to_string());
    }
    if !meta.is_file() {
        return Err(
            "not a regular file (a pipe, a device or a socket), so not a network file".to_string(),
        );
    }
    let max = max_file_bytes();
    if meta.len() > max {
        return Err(format!(
            "{} bytes, more than a network file of this build can have (at most {max})",
            meta.len()
        ));
    }
    Ok(())
}

/// Reads and decodes the weights `source` names (the checked-in weights: `None`). The
/// opened file is checked again (it may have changed since [`check`]) and at most
/// [`max_file_bytes`] are read. The error says why it is refused (`EvalFile: <path>:
/// ...`); nothing is loaded.
pub fn read(source: &EvalSource) -> Result<Option<Weights>, String> {
    let EvalSource::File(path) = source else {
        return Ok(None);
    };
    let refuse = |why: String| format!("EvalFile: {}: {why}", path.display());
    let file = std::fs::File::open(path).map_err(|e| refuse(e.to_string()))?;
    let meta = file.metadata().map_err(|e| refuse(e.to_string()))?;
    regular_and_sane(&meta).map_err(refuse)?;
    let max = max_file_bytes();
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(refuse(format!(
            "grew while read, past what a network file of this build can have ({max} bytes)"
        )));
    }
    for &game in GameKind::ALL {
        if let Some(decoded) = game.visit(Decode(&bytes)) {
            return decoded
                .map(|net| Some(Weights { game, net }))
                .map_err(refuse);
        }
    }
    Err(refuse(
        "not a network file of any game (no known magic at its start)".to_string(),
    ))
}

/// Makes `weights` its game's network (`None`: every game's checked-in weights), in this
/// process: a running search reads them at its next evaluation.
pub fn install(weights: Option<Weights>) {
    match weights {
        None => {
            for game in GameKind::ALL {
                game.visit(Install(None));
            }
        }
        Some(w) => w.game.visit(Install(Some(w.net))),
    }
}

/// The length of a game's network file with an empty header, if it has a network.
struct FileBytes;

impl GameVisitor for FileBytes {
    type Output = Option<usize>;
    fn visit<G: Evaluate + Notation>(self) -> Option<usize> {
        G::NNUE.map(|nnue| nnue.file_bytes(0))
    }
}

/// Decodes the bytes of a weights file if they start with the game's magic: `None` if the
/// game has no network or another magic.
struct Decode<'a>(&'a [u8]);

impl GameVisitor for Decode<'_> {
    type Output = Option<Result<Quantized, String>>;
    fn visit<G: Evaluate + Notation>(self) -> Self::Output {
        let nnue = G::NNUE?;
        self.0
            .starts_with(nnue.training.magic)
            .then(|| nnue.read(self.0))
    }
}

/// Loads weights into the game's network (`None`: its checked-in weights).
struct Install(Option<Quantized>);

impl GameVisitor for Install {
    type Output = ();
    fn visit<G: Evaluate + Notation>(self) {
        if let Some(nnue) = G::NNUE {
            nnue.in_use.load(self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temporary(name: &str, bytes: &[u8]) -> PathBuf {
        let path = std::env::temp_dir().join(format!(
            "quartet-evalfile-{name}-{}.bin",
            std::process::id()
        ));
        std::fs::write(&path, bytes).expect("a temporary file");
        path
    }

    fn refused(path: &std::path::Path) -> String {
        let source = check(path.to_str()).expect("passes the metadata check");
        match read(&source) {
            Ok(_) => panic!("{} was loaded", path.display()),
            Err(e) => e,
        }
    }

    #[test]
    fn every_checked_in_network_file_is_within_the_bound_and_of_the_computed_length() {
        // The games' folders, beside this crate's.
        let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/src");
        let mut networks = 0;
        for &game in GameKind::ALL {
            let path = games.join(format!("{}/nnue.bin", game.name()));
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            networks += 1;
            assert!(bytes.len() as u64 <= max_file_bytes(), "{}", game.name());
            assert!(matches!(check(path.to_str()), Ok(EvalSource::File(_))));
            let net = read(&EvalSource::File(path)).expect("the checked-in weights");
            let header = net.as_ref().map_or(0, |w| w.net.header().len());
            assert_eq!(
                Some(bytes.len()),
                game.visit(FileBytes).map(|empty| empty + header),
                "{}",
                game.name()
            );
        }
        assert!(networks >= 1);
    }

    #[test]
    fn what_is_not_a_regular_file_of_sane_size_is_refused_from_its_metadata() {
        #[cfg(unix)]
        assert!(check(Some("/dev/zero")).is_err_and(|e| e.contains("not a regular file")));
        let dir = std::env::temp_dir();
        assert!(check(dir.to_str()).is_err_and(|e| e.contains("a directory")));
        assert!(check(Some("no-such-weights.bin")).is_err_and(|e| e.contains("no-such-weights")));
        // One byte more than the bound (a sparse file: nothing is written but its length).
        let path = std::env::temp_dir().join(format!("quartet-big-{}.bin", std::process::id()));
        let file = std::fs::File::create(&path).expect("a temporary file");
        file.set_len(max_file_bytes() + 1).expect("a length");
        let err = check(path.to_str());
        let _ = std::fs::remove_file(&path);
        assert!(err.is_err_and(|e| e.contains("more than a network file")));
        for empty in [None, Some(""), Some(" <empty> ")] {
            assert_eq!(check(empty), Ok(EvalSource::CheckedIn));
        }
    }

    #[test]
    fn a_file_of_no_game_or_of_another_shape_is_refused_with_the_reason() {
        let path = temporary("no-game", b"not a network at all");
        let no_game = refused(&path);
        let _ = std::fs::remove_file(&path);
        assert!(
            no_game.contains("not a network file of any game"),
            "{no_game}"
        );
        let mut shape = b"QRNBNN01".to_vec();
        shape.extend(0u32.to_le_bytes());
        shape.extend([5u32, 32, 2, 127, 64].iter().flat_map(|n| n.to_le_bytes()));
        let path = temporary("shape", &shape);
        let shape = refused(&path);
        let _ = std::fs::remove_file(&path);
        assert!(shape.contains("shape 5x32x2"), "{shape}");
        let _ = std::fs::remove_file(&path);
    }
}
