//! Checkpoints of a period run: the values so far and the kernel's method, in a file that names
//! the format, the version of takeaway that wrote it and the game's rules (a hash of what every
//! amount may leave), and ends with a checksum of everything before it. A file that does not
//! match the game or the version, is cut short or has a changed byte is refused, never used.

use crate::wording::{give, Argument};
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
pub(crate) struct Checkpoint {
    pub values: Values,
    pub method: MethodState,
}

/// Why a checkpoint could not be read or written.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq)]
pub enum CheckpointError {
    #[error("cannot read the checkpoint {path}: {reason}")]
    #[diagnostic(
        code(takeaway::checkpoint::unreadable),
        help("check the path, or leave out {give_1} to start from pile 0", give_1 = give(Argument::Checkpoint))
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
        help("give {give_1} a file that a `takeaway period` run wrote, or a new path to start one", give_1 = give(Argument::Checkpoint))
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
        help("resume it with the game file and {give_1} values it was written for, or give this game a checkpoint file of its own", give_1 = give(Argument::Set))
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
pub(crate) fn write(
    path: &Path,
    game: &str,
    fingerprint: u64,
    values: &Values,
    method: MethodState,
) -> Result<(), CheckpointError> {
    // Written in three parts, the values between, through a running checksum: a run of 2³²
    // values is never held twice in memory to be written.
    let mut head = Vec::with_capacity(256);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&FORMAT.to_le_bytes());
    put_text(&mut head, VERSION);
    head.extend_from_slice(&fingerprint.to_le_bytes());
    put_text(&mut head, game);
    head.push(values.width());
    head.extend_from_slice(&(values.len() as u64).to_le_bytes());
    let mut tail = Vec::with_capacity(128);
    tail.push(method.sparse_tried as u8);
    let (sparse, mask, parity) = match method.sparse {
        Some((mask, parity)) => (1u8, mask, parity),
        None => (0, 0, [0, 0]),
    };
    tail.push(sparse);
    for x in [mask, parity[0], parity[1]] {
        tail.extend_from_slice(&x.to_le_bytes());
    }
    tail.extend_from_slice(&method.block_work.to_le_bytes());
    tail.extend_from_slice(&method.block_plain.to_le_bytes());
    tail.extend_from_slice(&method.dear_blocks.to_le_bytes());
    tail.extend_from_slice(&method.sparse_retried.to_le_bytes());
    for x in method.witness_choice.to_words() {
        tail.extend_from_slice(&x.to_le_bytes());
    }

    let shown = path.display().to_string();
    let failed = |e: std::io::Error| CheckpointError::Write { path: shown.clone(), reason: e.to_string() };
    crate::files::write_file_with(path, |out| {
        let mut sum = fnv1a(FNV_START, &head);
        out.write_all(&head)?;
        let mut chunk = Vec::with_capacity(CHUNK_VALUES * 4);
        let mut from = 0;
        while from < values.len() {
            let to = (from + CHUNK_VALUES).min(values.len());
            chunk.clear();
            values.write_range(from..to, &mut chunk);
            sum = fnv1a(sum, &chunk);
            out.write_all(&chunk)?;
            from = to;
        }
        sum = fnv1a(sum, &tail);
        out.write_all(&tail)?;
        out.write_all(&sum.to_le_bytes())
    })
    .map_err(failed)
}

/// Values written at a time: the buffer a checkpoint's values pass through.
const CHUNK_VALUES: usize = 1 << 16;

/// Reads a checkpoint for a game whose rules hash to `fingerprint`. The file is read once,
/// through a running checksum, its values straight into their table: a checkpoint of 2³²
/// values needs no second copy. No field is used before the checksum has matched; until then
/// the sizes it gives are only checked against the file's length.
pub(crate) fn read(path: &Path, game: &str, fingerprint: u64) -> Result<Checkpoint, CheckpointError> {
    let shown = path.display().to_string();
    let unreadable = |e: std::io::Error| CheckpointError::Unreadable { path: shown.clone(), reason: e.to_string() };
    let meta = regular_file(path)?;
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let corrupt = |what: &str| CheckpointError::Corrupt { path: shown.clone(), what: what.to_string() };
    let short = || corrupt("it ends before its last field");
    let mut magic = vec![0; MAGIC.len()];
    let mut r = Reader { inner: std::io::BufReader::with_capacity(1 << 16, file), sum: FNV_START, left: meta.len() };
    if r.fill(&mut magic).is_err() || magic != MAGIC {
        return Err(CheckpointError::NotACheckpoint { path: shown });
    }
    // The checksum's eight bytes end the file: the fields are what comes before them.
    r.left = r.left.checked_sub(8).ok_or_else(short)?;
    let format = r.u32().ok_or_else(short)?;
    let version = r.text().ok_or_else(short)?;
    let found_fingerprint = r.u64().ok_or_else(short)?;
    let found_game = r.text().ok_or_else(short)?;
    let width = r.u8().ok_or_else(short)?;
    let count = r.u64().ok_or_else(short)?;
    let len = count.checked_mul(width as u64).filter(|&l| l <= r.left).ok_or_else(short)?;
    let values = r.values(width, len).ok_or_else(short)?;
    let sparse_tried = r.u8().ok_or_else(short)? != 0;
    let sparse = r.u8().ok_or_else(short)? != 0;
    let (mask, p0, p1) = (r.u32().ok_or_else(short)?, r.u32().ok_or_else(short)?, r.u32().ok_or_else(short)?);
    let block_work = r.u64().ok_or_else(short)?;
    let block_plain = r.u64().ok_or_else(short)?;
    let dear_blocks = r.u32().ok_or_else(short)?;
    let sparse_retried = r.u64().ok_or_else(short)?;
    let witness_words = r.words().ok_or_else(short)?;
    let fields_end = r.left == 0;
    let computed = r.sum;
    let mut stored = [0u8; 8];
    r.left = 8;
    r.fill(&mut stored).map_err(|_| short())?;
    // The checksum covers everything before it: checked before any field is trusted.
    if !fields_end || u64::from_le_bytes(stored) != computed {
        return Err(corrupt("its checksum does not match its contents"));
    }
    if format != FORMAT || version != VERSION {
        return Err(CheckpointError::Version { path: shown, found: version, format });
    }
    if found_fingerprint != fingerprint {
        return Err(CheckpointError::OtherGame { path: shown, found: found_game, game: game.to_string() });
    }
    let values = values.ok_or_else(|| corrupt("its values have no valid width"))?;
    let method = MethodState {
        sparse_tried,
        sparse: sparse.then_some((mask, [p0, p1])),
        block_work,
        block_plain,
        dear_blocks,
        sparse_retried,
        witness_choice: WitnessChoice::from_words(witness_words),
    };
    if p0 > 1 || p1 > 1 {
        return Err(corrupt("its fields do not fit together"));
    }
    Ok(Checkpoint { values, method })
}

/// The metadata of a checkpoint to read, refused unless it is a regular file: a device or a
/// pipe named as a checkpoint would be read for ever (/dev/zero) or block.
pub(crate) fn regular_file(path: &Path) -> Result<std::fs::Metadata, CheckpointError> {
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path)
        .map_err(|e| CheckpointError::Unreadable { path: shown.clone(), reason: e.to_string() })?;
    if !meta.is_file() {
        let reason = "it is not a regular file (a folder, a device or a pipe); name a file".to_string();
        return Err(CheckpointError::Unreadable { path: shown, reason });
    }
    Ok(meta)
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// Reads a checkpoint's fields in order, each through the running checksum, never past the
/// `left` bytes the fields may fill.
struct Reader {
    inner: std::io::BufReader<std::fs::File>,
    sum: u64,
    left: u64,
}

impl Reader {
    fn fill(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        use std::io::Read;
        if buf.len() as u64 > self.left {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        self.inner.read_exact(buf)?;
        self.left -= buf.len() as u64;
        self.sum = fnv1a(self.sum, buf);
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let mut bytes = [0; N];
        self.fill(&mut bytes).ok()?;
        Some(bytes)
    }

    fn u8(&mut self) -> Option<u8> {
        self.array::<1>().map(|b| b[0])
    }

    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
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
        let mut bytes = vec![0; len];
        self.fill(&mut bytes).ok()?;
        String::from_utf8(bytes).ok()
    }

    /// `len` bytes of values `width` bytes each, read into their table a chunk at a time:
    /// `Some(None)` when the width is not 1, 2 or 4 or the bytes are not whole values (the
    /// bytes are read all the same, for the checksum).
    fn values(&mut self, width: u8, len: u64) -> Option<Option<Values>> {
        let mut values = Values::with_room(width, len).filter(|_| len.is_multiple_of(width as u64));
        let mut chunk = vec![0u8; CHUNK_VALUES * 4];
        let mut left = len;
        while left > 0 {
            let take = left.min(chunk.len() as u64) as usize;
            self.fill(&mut chunk[..take]).ok()?;
            left -= take as u64;
            if let Some(values) = &mut values {
                values.push_le_bytes(&chunk[..take]);
            }
        }
        Some(values)
    }
}
