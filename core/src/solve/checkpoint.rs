//! Checkpoints of a period run: the values so far and the kernel's method, in a file that names
//! the format, the version of takeaway that wrote it and the game's rules (a hash of what every
//! amount may leave), and ends with a checksum of everything before it. A file that does not
//! match the game or the version, is cut short or has a changed byte is refused, never used.

use std::path::Path;

use miette::Diagnostic;
use thiserror::Error;

use super::fnv::{fnv1a, FNV_START};
use super::heap::{MethodState, Values, WitnessChoice};

const MAGIC: &[u8] = b"takeaway period checkpoint\n";
/// The layout below; a file of another layout is refused.
const FORMAT: u32 = 2;
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What a checkpoint holds.
#[derive(Debug)]
pub struct Checkpoint {
    pub values: Values,
    pub method: MethodState,
}

/// Why a checkpoint could not be read or written.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum CheckpointError {
    #[error("cannot read the checkpoint {path}: {reason}")]
    #[diagnostic(
        code(takeaway::checkpoint::unreadable),
        help("check the path, or leave out --checkpoint to start from pile 0")
    )]
    /// Reported as “cannot read the checkpoint {path}: {reason}”.
    Unreadable {
        /// The file's path.
        path: String,
        /// Why it failed.
        reason: String,
    },

    #[error("cannot write the checkpoint {path}: {reason}")]
    #[diagnostic(
        code(takeaway::checkpoint::write),
        help("check that the folder exists and can be written, and that the disk has room")
    )]
    /// Reported as “cannot write the checkpoint {path}: {reason}”.
    Write {
        /// The file's path.
        path: String,
        /// Why it failed.
        reason: String,
    },

    #[error("{path} is not a takeaway checkpoint")]
    #[diagnostic(
        code(takeaway::checkpoint::not_a_checkpoint),
        help("give --checkpoint a file that a `takeaway period` run wrote, or a new path to start one")
    )]
    /// Reported as “{path} is not a takeaway checkpoint”.
    NotACheckpoint {
        /// The file's path.
        path: String,
    },

    #[error("the checkpoint {path} was written by takeaway {found} (checkpoint format {format}); this is takeaway {VERSION} (format {FORMAT})")]
    #[diagnostic(
        code(takeaway::checkpoint::version),
        help("resume it with the version that wrote it, or start again with a new checkpoint file")
    )]
    /// Reported as “the checkpoint {path} was written by takeaway {found} (checkpoint format {format}); this is takeaway {VERSION} (format {FORMAT})”.
    Version {
        /// The file's path.
        path: String,
        /// What was found.
        found: String,
        /// The checkpoint format number it has.
        format: u32,
    },

    #[error("the checkpoint {path} is of another game: {found} (its rules differ from those of {game})")]
    #[diagnostic(
        code(takeaway::checkpoint::other_game),
        help("resume it with the game file and --set values it was written for, or give this game a checkpoint file of its own")
    )]
    /// Reported as “the checkpoint {path} is of another game: {found} (its rules differ from those of {game})”.
    OtherGame {
        /// The file's path.
        path: String,
        /// What was found.
        found: String,
        /// The game's name.
        game: String,
    },

    #[error("the checkpoint {path} is damaged: {what}")]
    #[diagnostic(
        code(takeaway::checkpoint::corrupt),
        help("the file was cut short or changed since it was written: delete it (or give a new path) and start again")
    )]
    /// Reported as “the checkpoint {path} is damaged: {what}”.
    Corrupt {
        /// The file's path.
        path: String,
        /// What the problem concerns, in words.
        what: String,
    },
}

/// Writes a checkpoint, through a file beside it renamed into place: a run stopped while
/// writing leaves the last checkpoint whole.
pub fn write(
    path: &Path,
    game: &str,
    fingerprint: u64,
    values: &Values,
    method: MethodState,
) -> Result<(), CheckpointError> {
    let mut out = Vec::with_capacity(values.len() * values.width() as usize + 256);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    put_text(&mut out, VERSION);
    out.extend_from_slice(&fingerprint.to_le_bytes());
    put_text(&mut out, game);
    out.push(values.width());
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    values.write_bytes(&mut out);
    out.push(method.sparse_tried as u8);
    let (sparse, mask, parity) = match method.sparse {
        Some((mask, parity)) => (1u8, mask, parity),
        None => (0, 0, [0, 0]),
    };
    out.push(sparse);
    for x in [mask, parity[0], parity[1]] {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out.extend_from_slice(&method.block_work.to_le_bytes());
    out.extend_from_slice(&method.block_plain.to_le_bytes());
    out.extend_from_slice(&method.dear_blocks.to_le_bytes());
    out.extend_from_slice(&method.sparse_retried.to_le_bytes());
    for x in method.witness_choice.to_words() {
        out.extend_from_slice(&x.to_le_bytes());
    }
    let sum = fnv1a(FNV_START, &out);
    out.extend_from_slice(&sum.to_le_bytes());

    let shown = path.display().to_string();
    let failed = |e: std::io::Error| CheckpointError::Write { path: shown.clone(), reason: e.to_string() };
    crate::files::write_file(path, &out).map_err(failed)
}

/// Reads a checkpoint for a game whose rules hash to `fingerprint`.
pub fn read(path: &Path, game: &str, fingerprint: u64) -> Result<Checkpoint, CheckpointError> {
    let shown = path.display().to_string();
    // A device or a pipe named as a checkpoint would be read for ever (/dev/zero) or block.
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            let reason = "it is not a regular file (a folder, a device or a pipe); name a file".to_string();
            return Err(CheckpointError::Unreadable { path: shown, reason });
        }
        _ => {}
    }
    let bytes =
        std::fs::read(path).map_err(|e| CheckpointError::Unreadable { path: shown.clone(), reason: e.to_string() })?;
    let corrupt = |what: &str| CheckpointError::Corrupt { path: shown.clone(), what: what.to_string() };
    if !bytes.starts_with(MAGIC) {
        return Err(CheckpointError::NotACheckpoint { path: shown });
    }
    let short = || corrupt("it ends before its last field");
    // The checksum covers everything before it: check it before trusting any field.
    let Some(body) = bytes.len().checked_sub(8).filter(|&b| b >= MAGIC.len()) else { return Err(short()) };
    let sum = u64::from_le_bytes(bytes[body..].try_into().expect("eight bytes"));
    if fnv1a(FNV_START, &bytes[..body]) != sum {
        return Err(corrupt("its checksum does not match its contents"));
    }
    let mut r = Reader { bytes: &bytes[..body], at: MAGIC.len() };
    let format = r.u32().ok_or_else(short)?;
    let version = r.text().ok_or_else(short)?;
    if format != FORMAT || version != VERSION {
        return Err(CheckpointError::Version { path: shown, found: version, format });
    }
    let found_fingerprint = r.u64().ok_or_else(short)?;
    let found_game = r.text().ok_or_else(short)?;
    if found_fingerprint != fingerprint {
        return Err(CheckpointError::OtherGame { path: shown, found: found_game, game: game.to_string() });
    }
    let width = r.u8().ok_or_else(short)?;
    let count = r.u64().ok_or_else(short)?;
    let len = count.checked_mul(width as u64).filter(|&l| l <= (r.bytes.len() - r.at) as u64).ok_or_else(short)?;
    let values = Values::from_bytes(width, r.take(len as usize).ok_or_else(short)?)
        .ok_or_else(|| corrupt("its values have no valid width"))?;
    let sparse_tried = r.u8().ok_or_else(short)? != 0;
    let sparse = r.u8().ok_or_else(short)? != 0;
    let (mask, p0, p1) = (r.u32().ok_or_else(short)?, r.u32().ok_or_else(short)?, r.u32().ok_or_else(short)?);
    let method = MethodState {
        sparse_tried,
        sparse: sparse.then_some((mask, [p0, p1])),
        block_work: r.u64().ok_or_else(short)?,
        block_plain: r.u64().ok_or_else(short)?,
        dear_blocks: r.u32().ok_or_else(short)?,
        sparse_retried: r.u64().ok_or_else(short)?,
        witness_choice: WitnessChoice::from_words(r.words().ok_or_else(short)?),
    };
    if r.at != r.bytes.len() || p0 > 1 || p1 > 1 {
        return Err(corrupt("its fields do not fit together"));
    }
    Ok(Checkpoint { values, method })
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len())?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Some(slice)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4).map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")))
    }

    fn u64(&mut self) -> Option<u64> {
        self.take(8).map(|b| u64::from_le_bytes(b.try_into().expect("eight bytes")))
    }

    fn words<const N: usize>(&mut self) -> Option<[u64; N]> {
        let mut words = [0; N];
        for w in &mut words {
            *w = self.u64()?;
        }
        Some(words)
    }

    fn text(&mut self) -> Option<String> {
        let len = self.u32()? as usize;
        // A version or a game's name: a longer one is not a field of ours.
        if len > 4096 {
            return None;
        }
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}
