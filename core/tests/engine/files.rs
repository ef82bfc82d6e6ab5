//! `write_file` never clobbers what a name means: a link is written through, a device or a pipe
//! is written into (never replaced), a pipe nobody reads is refused at once, a mode is kept, and
//! a link planted where a writer used to put its temporary file overwrites nothing.

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use takeaway_core::write_file;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("takeaway-files-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

#[test]
fn a_regular_file_is_replaced_whole_and_keeps_its_mode() {
    let dir = scratch("mode");
    let file = dir.join("secret.game");
    fs::write(&file, "old").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    write_file(&file, b"new text").unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), "new text");
    assert_eq!(mode(&file), 0o600);
    fs::set_permissions(&file, fs::Permissions::from_mode(0o751)).unwrap();
    write_file(&file, b"again").unwrap();
    assert_eq!(mode(&file), 0o751);
    // Nothing is left beside it.
    let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("secret.game")]);
}

#[test]
fn a_new_file_gets_the_usual_mode() {
    let dir = scratch("new");
    let file = dir.join("fresh.svg");
    write_file(&file, b"<svg/>").unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), "<svg/>");
    // 0666 less the umask, never the temporary file's 0600.
    // SAFETY: umask only reads and sets this process's mask; it is set back at once.
    let umask = unsafe {
        let m = libc::umask(0o022);
        libc::umask(m);
        m
    } as u32;
    assert_eq!(mode(&file), 0o666 & !umask);
}

#[test]
fn a_link_is_written_through_and_stays_a_link() {
    let dir = scratch("link");
    let target = dir.join("target.game");
    fs::write(&target, "old").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.game");
    std::os::unix::fs::symlink("target.game", &link).unwrap();
    let chain = dir.join("chain.game");
    std::os::unix::fs::symlink(&link, &chain).unwrap();
    write_file(&chain, b"through two links").unwrap();
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(fs::symlink_metadata(&chain).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&target).unwrap(), "through two links");
    assert_eq!(mode(&target), 0o640);
    // A link to a file not made yet makes it.
    let dangling = dir.join("dangling.game");
    std::os::unix::fs::symlink("later.game", &dangling).unwrap();
    write_file(&dangling, b"made").unwrap();
    assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(dir.join("later.game")).unwrap(), "made");
    // A loop of links is refused, and stays as it was.
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert!(write_file(&a, b"x").is_err());
    assert!(fs::symlink_metadata(&a).unwrap().file_type().is_symlink());
}

#[test]
fn a_pipe_is_written_into_and_one_nobody_reads_is_refused_at_once() {
    let dir = scratch("fifo");
    let fifo = dir.join("pipe");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo reads the NUL-terminated name.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let started = std::time::Instant::now();
    let err = write_file(&fifo, b"nobody").unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(1));
    assert!(err.to_string().contains("no program reads"), "{err}");
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read_to_string(&fifo).unwrap())
    };
    // The reader opens the pipe; the writer finds it there (it tries again until it does).
    let mut written = write_file(&fifo, b"through the pipe");
    for _ in 0..200 {
        if written.is_ok() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        written = write_file(&fifo, b"through the pipe");
    }
    written.unwrap();
    assert_eq!(reader.join().unwrap(), "through the pipe");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
}

#[test]
fn a_device_is_written_into_never_replaced() {
    // /dev/null takes the text; /dev/full refuses it (no space): both stay devices.
    write_file(Path::new("/dev/null"), b"gone").unwrap();
    let err = write_file(Path::new("/dev/full"), b"no room").unwrap_err();
    assert_eq!(err.raw_os_error(), Some(libc::ENOSPC), "{err}");
    for device in ["/dev/null", "/dev/full"] {
        assert!(fs::symlink_metadata(device).unwrap().file_type().is_char_device(), "{device}");
    }
    // A device node in a folder the writer may write (made where the system allows it: as
    // root) is written into, not replaced by a regular file.
    let dir = scratch("device");
    let node = dir.join("full");
    let name = std::ffi::CString::new(node.to_str().unwrap()).unwrap();
    // SAFETY: mknod reads the NUL-terminated name; 1:7 is /dev/full's device number.
    if unsafe { libc::mknod(name.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 7)) } == 0 {
        assert!(write_file(&node, b"no room").is_err());
        assert!(fs::symlink_metadata(&node).unwrap().file_type().is_char_device());
    }
}

#[test]
fn folders_and_sockets_are_refused() {
    let dir = scratch("refused");
    assert!(write_file(&dir, b"x").is_err());
    assert!(dir.is_dir());
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let err = write_file(&socket, b"x").unwrap_err();
    assert!(err.to_string().contains("socket"), "{err}");
    assert!(fs::symlink_metadata(&socket).unwrap().file_type().is_socket());
    assert!(write_file(Path::new(""), b"x").is_err());
}

#[test]
fn links_planted_where_writers_put_their_temporary_files_overwrite_nothing() {
    let dir = scratch("planted");
    let victim = dir.join("victim");
    fs::write(&victim, "precious").unwrap();
    let file = dir.join("out.svg");
    // The names earlier versions used (predictable from the name and the process id).
    for planted in [
        format!(".out.svg.takeaway-{}.tmp", std::process::id()),
        "out.svg.writing".to_string(),
        "out.txt.tmp".to_string(),
        ".out.svg.takeaway-tmp".to_string(),
    ] {
        std::os::unix::fs::symlink(&victim, dir.join(planted)).unwrap();
    }
    for _ in 0..20 {
        write_file(&file, b"<svg/>").unwrap();
    }
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(fs::read_to_string(&file).unwrap(), "<svg/>");
}
