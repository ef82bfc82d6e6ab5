//! Every writer of the front ends (`:save F --force`, `plot -o F`, `period --checkpoint F`) over
//! a symbolic link, a pipe, a device node and a file of mode 600: the target is written
//! through, written into or refused, never replaced, and its mode stays; a link planted at a
//! name writers used for their temporary files overwrites nothing.

use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use takeaway::repl::Session;

use crate::common::{games_dir, takeaway};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("takeaway-writes-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().expect("UTF-8")).expect("no NUL");
    // SAFETY: mkfifo reads the NUL-terminated name.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0, "mkfifo {}", path.display());
}

/// A device node like /dev/full (writes fail with no space) in `dir` where the system allows
/// making one (as root), else /dev/full itself.
fn full_device(dir: &Path) -> PathBuf {
    let node = dir.join("full");
    let name = std::ffi::CString::new(node.to_str().expect("UTF-8")).expect("no NUL");
    // SAFETY: mknod reads the NUL-terminated name; 1:7 is /dev/full's device number.
    if unsafe { libc::mknod(name.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 7)) } == 0 {
        node
    } else {
        PathBuf::from("/dev/full")
    }
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A writer: a function from a target to whether it reported success.
type Writer = Box<dyn Fn(&Path) -> bool>;

/// The three writers, by name.
fn writers() -> Vec<(&'static str, Writer)> {
    let save = |target: &Path| {
        let mut session = Session::new(false);
        assert!(!session.feed("game \"T\"\npile\nmove: take 1..3").is_error());
        !session.feed(&format!(":save {} --force", target.display())).is_error()
    };
    let plot = |target: &Path| {
        let game = games_dir().join("kayles.game");
        let run =
            takeaway(&["plot", game.to_str().expect("UTF-8"), "--upto", "20", "-o", target.to_str().expect("UTF-8")]);
        run.code == 0
    };
    let checkpoint = |target: &Path| {
        let game = games_dir().join("tag.game");
        let run = takeaway(&["period", game.to_str().expect("UTF-8"), "--checkpoint", target.to_str().expect("UTF-8")]);
        run.code == 0
    };
    vec![("save", Box::new(save)), ("plot", Box::new(plot)), ("checkpoint", Box::new(checkpoint))]
}

#[test]
fn a_link_is_written_through_and_a_mode_600_file_keeps_its_mode() {
    for (writer, write) in writers() {
        let dir = scratch(&format!("{writer}-link"));
        let target = dir.join("target");
        let link = dir.join("link");
        std::os::unix::fs::symlink("target", &link).expect("a link");
        assert!(write(&link), "{writer} through a link to nothing yet");
        assert!(is_link(&link), "{writer}: the link became a file");
        let first = fs::read(&target).expect("the target was made");
        assert!(!first.is_empty());
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).expect("chmod");
        assert!(write(&link), "{writer} through a link again");
        assert!(is_link(&link), "{writer}: the link became a file");
        assert_eq!(mode(&target), 0o600, "{writer} changed the mode");
        assert!(write(&target), "{writer} over the file itself");
        assert_eq!(mode(&target), 0o600, "{writer} changed the mode");
        assert_eq!(fs::read(&target).expect("the target"), first, "{writer} wrote something else");
    }
}

#[test]
fn a_pipe_nobody_reads_and_a_full_device_are_refused_and_stay_what_they_are() {
    for (writer, write) in writers() {
        let dir = scratch(&format!("{writer}-special"));
        let fifo = dir.join("pipe");
        mkfifo(&fifo);
        let started = Instant::now();
        assert!(!write(&fifo), "{writer} wrote into a pipe nobody reads");
        assert!(started.elapsed() < Duration::from_secs(10), "{writer} waited on the pipe");
        assert!(fs::symlink_metadata(&fifo).expect("the pipe").file_type().is_fifo(), "{writer} replaced the pipe");
        let device = full_device(&dir);
        assert!(!write(&device), "{writer} wrote into a full device");
        assert!(
            fs::symlink_metadata(&device).expect("the device").file_type().is_char_device(),
            "{writer} replaced {}",
            device.display()
        );
    }
}

#[test]
fn plot_writes_into_dev_stdout_where_a_user_means_it() {
    let game = games_dir().join("kayles.game");
    let run = takeaway(&["plot", game.to_str().expect("UTF-8"), "--upto", "5", "-o", "/dev/stdout"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("<svg") || run.stdout.contains("<svg"), "{}", run.stdout);
    assert!(fs::symlink_metadata("/dev/stdout").expect("/dev/stdout").file_type().is_symlink());
}

#[test]
fn links_planted_at_the_names_writers_used_overwrite_nothing() {
    for (writer, write) in writers() {
        let dir = scratch(&format!("{writer}-planted"));
        let victim = dir.join("victim");
        fs::write(&victim, "precious").expect("the victim");
        let target = dir.join("out");
        let this_process = format!(".out.takeaway-{}.tmp", std::process::id());
        for planted in [this_process, "out.writing".into(), "out.tmp".into(), ".out.takeaway-tmp".into()] {
            std::os::unix::fs::symlink(&victim, dir.join(planted)).expect("a planted link");
        }
        assert!(write(&target), "{writer}");
        assert!(write(&target), "{writer} again");
        assert_eq!(fs::read_to_string(&victim).expect("the victim"), "precious", "{writer}");
    }
}
