//! Writing a user's file without ever clobbering it: what a name means is decided first (a
//! link is written through to its target, a device or a pipe is written into, a socket or a
//! folder is refused), and a regular file is replaced only by a complete new one, made beside
//! it under a random name that nobody else can have planted, with the old file's mode.

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Links followed at most, as the kernel does, before a loop of links is refused.
const MOST_LINKS: usize = 40;

/// Writes `contents` to the file `path` names.
///
/// - A regular file (or a new one) gets a temporary file beside it, created exclusively under
///   a random name (a link planted at any name the writer may choose is never followed), and
///   renamed over it only when complete: a failed write (a full disk, a size limit) leaves the
///   old file as it was. The new file keeps the old one's mode, and its owner where the system
///   allows; a new file gets the usual mode (`0666` less the umask).
/// - A symbolic link is written through: its target is written, the link stays a link.
/// - A character device or a pipe (`/dev/stdout`, `/dev/null`, a FIFO someone reads) is
///   written into: never replaced. A pipe that nobody reads is refused rather than waited on.
/// - A folder or a socket is refused.
pub fn write_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_file_with(path, |out| out.write_all(contents))
}

/// Writes the file `path` names as `write_file` does, from what `fill` writes into it (through
/// a buffer): a large file is made without its bytes ever held whole in memory.
pub(crate) fn write_file_with(path: &Path, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    if path.as_os_str().is_empty() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "the file name is empty"));
    }
    let target = through_links(path)?;
    match fs::metadata(&target) {
        Ok(meta) if meta.is_file() => replace(&target, fill, Some(meta.permissions()), owner(&meta)),
        Ok(meta) if meta.is_dir() => Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a folder")),
        Ok(meta) => write_into(&target, &meta, fill),
        Err(e) if e.kind() == io::ErrorKind::NotFound => replace(&target, fill, None, None),
        Err(e) => Err(e),
    }
}

/// The path a chain of symbolic links ends at (itself when it is not a link). A link whose
/// target does not exist yet ends at that target, which writing then creates.
fn through_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MOST_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                // A magic link of /proc (`/dev/stdout` → `/proc/self/fd/1` → `pipe:[…]`) names
                // no path: the link itself opens what it stands for.
                if fs::symlink_metadata(resolve(&current, &target)).is_err() && fs::metadata(&current).is_ok() {
                    return Ok(current);
                }
                current = resolve(&current, &target);
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// A link's target, read relative to the folder the link is in.
fn resolve(link: &Path, target: &Path) -> PathBuf {
    match link.parent() {
        Some(folder) if target.is_relative() => folder.join(target),
        _ => target.to_path_buf(),
    }
}

#[cfg(unix)]
fn owner(meta: &fs::Metadata) -> Option<(u32, u32)> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.uid(), meta.gid()))
}

#[cfg(not(unix))]
fn owner(_meta: &fs::Metadata) -> Option<(u32, u32)> {
    None
}

/// Writes a complete new file beside `target` and renames it over `target`.
fn replace(
    target: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    mode: Option<Permissions>,
    owner: Option<(u32, u32)>,
) -> io::Result<()> {
    let folder = match target.parent() {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".takeaway-tmp");
    #[cfg(unix)]
    let usual = {
        use std::os::unix::fs::PermissionsExt;
        Permissions::from_mode(0o666)
    };
    #[cfg(not(unix))]
    let usual = fs::metadata(folder)?.permissions();
    // Created with the mode it ends with (the umask may narrow a new file's, as for any file).
    builder.permissions(mode.clone().unwrap_or(usual));
    let mut temporary = builder.tempfile_in(folder)?;
    {
        let mut buffered = io::BufWriter::with_capacity(1 << 16, temporary.as_file_mut());
        fill(&mut buffered)?;
        buffered.flush()?;
    }
    if let Some(mode) = mode {
        // The umask narrowed it at creation: the old file's mode exactly.
        temporary.as_file().set_permissions(mode)?;
    }
    #[cfg(unix)]
    if let Some((uid, gid)) = owner {
        // Keeps the owner when the writer may (root writing another user's file); else the
        // writer owns the new file, as with any file it makes.
        let _ = std::os::unix::fs::fchown(temporary.as_file(), Some(uid), Some(gid));
    }
    #[cfg(not(unix))]
    let _ = owner;
    temporary.as_file().sync_all()?;
    temporary.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// Writes into a device or a pipe, which is never replaced.
fn write_into(
    target: &Path,
    meta: &fs::Metadata,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
        let kind = meta.file_type();
        if kind.is_socket() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "it is a socket, not a file"));
        }
        if kind.is_fifo() {
            // Opening a pipe that nobody reads would wait for ever: without waiting, it fails.
            let file = fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(target).map_err(|e| {
                if e.raw_os_error() == Some(libc::ENXIO) {
                    io::Error::new(io::ErrorKind::BrokenPipe, "it is a pipe that no program reads")
                } else {
                    e
                }
            })?;
            // The text goes through this very opening, made blocking again: closing it and
            // opening the pipe anew let a reader that had met this one read an empty pipe and
            // leave, and the second opening then waited for ever for another.
            set_blocking(&file)?;
            return fill_and_flush(file, fill);
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let file: File = fs::OpenOptions::new().write(true).open(target)?;
    fill_and_flush(file, fill)
}

/// Writes through a buffer into `file`, and flushes it.
fn fill_and_flush(file: File, fill: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let mut buffered = io::BufWriter::with_capacity(1 << 16, file);
    fill(&mut buffered)?;
    buffered.flush()
}

/// Clears `O_NONBLOCK` on an open file, so that writes wait for a slow reader.
#[cfg(unix)]
fn set_blocking(file: &File) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl reads and sets the flags of a descriptor this function's caller holds open.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// What a name that is not a regular file names, for a diagnostic: "it is a folder", "it is a
/// named pipe (FIFO)", …
pub(crate) fn kind_of(meta: &fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "it is a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() {
            return "it is a device";
        }
        if t.is_fifo() {
            return "it is a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "it is a socket";
        }
    }
    "it is not a file of text"
}
