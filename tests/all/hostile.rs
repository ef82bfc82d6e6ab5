//! Hostile input: every crash and hang the mutation probe found, as a regression test with its
//! minimal input, and a mutation fuzzer over `games/` that runs a bounded number of cases here
//! (`TAKEAWAY_FUZZ_CASES=5000 cargo test hostile::` runs more).
//!
//! For every case: no panic, no abort, exit code 0, 1 or 2, and an answer. The deadline below
//! only tells a hang from an answer (a case that needs it is a bug whatever the machine); speed
//! is measured in the benchmark, not here.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far beyond any answer's time: only a hang reaches it.
#[path = "../../core/tests/engine/common/mutate.rs"]
mod mutate;
use crate::common;
use mutate::{bundled_games, mutate, Rng};

const HANG: Duration = Duration::from_secs(60);

struct Run {
    code: Option<i32>,
    stderr: String,
    stdout_len: usize,
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("takeaway-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the binary; a run past `HANG` is killed and reported as a hang.
fn run(args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Read both pipes while waiting, so that a large output cannot block the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        out.read_to_end(&mut buf).ok();
        buf.len()
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        err.read_to_end(&mut buf).ok();
        String::from_utf8_lossy(&buf).into_owned()
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > HANG {
            child.kill().ok();
            child.wait().ok();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout_len = reader.join().unwrap();
    let stderr = err_reader.join().unwrap();
    match status {
        Some(s) => Run { code: s.code(), stderr, stdout_len },
        None => panic!("{args:?} did not answer within {HANG:?}"),
    }
}

/// The diagnostic expected for a text: past the longest text read, that one comes first.
fn or_too_long(text: &str, code: &'static str) -> &'static str {
    if text.len() as u64 > takeaway_core::MOST_GAME_FILE_BYTES {
        // Not read at all: larger than any game file needs.
        "takeaway::file::too_large"
    } else if text.len() > takeaway_core::MOST_GAME_TEXT_BYTES {
        "takeaway::parse::too_long"
    } else {
        code
    }
}

/// Asserts the run ended with a diagnostic (exit 1) of this code, and returns stderr.
fn refused(args: &[&str], code: &str) -> String {
    let r = run(args);
    assert_eq!(r.code, Some(1), "{args:?}: exit code\n{}", r.stderr);
    assert!(r.stderr.starts_with(code), "{args:?}: expected {code}, got:\n{}", cut(&r.stderr));
    r.stderr
}

fn cut(s: &str) -> String {
    s.chars().take(2000).collect()
}

// ---- the renderer ------------------------------------------------------------------------------

#[test]
fn a_long_line_is_shown_cut_to_a_window_and_never_crashes_the_renderer() {
    for len in [65_000usize, 100_000, 1_000_000] {
        let path = scratch(&format!("spaces-{len}.game"), &format!("{}zz\n", " ".repeat(len)));
        let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::parse::unexpected");
        assert!(stderr.len() < 4000, "the diagnostic shows a window, not the line: {} bytes", stderr.len());
        assert!(stderr.contains(" │ …") && stderr.contains("zz\n"), "{}", cut(&stderr));
        // A long word is quoted cut short in the message too.
        let path = scratch(&format!("word-{len}.game"), &format!("{}\n", "x".repeat(len)));
        let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::parse::unexpected");
        assert!(stderr.len() < 4000, "{} bytes", stderr.len());
    }
}

#[test]
fn a_file_of_a_million_lines_points_at_the_right_one() {
    let path = scratch("million-lines.game", &format!("{}pile\nmove: tkae 1\n", "\n".repeat(1_000_000)));
    let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::parse::unexpected");
    assert!(stderr.contains(":1000002:7]"), "{}", cut(&stderr));
}

#[test]
fn a_text_of_megabytes_is_refused_before_it_is_parsed() {
    let path = scratch("huge.game", &format!("pile\n{}", "move: take 1..3\n".repeat(100_000)));
    let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::parse::too_long");
    insta::assert_snapshot!(stderr.replace(path.to_str().unwrap(), "huge.game"));
}

// ---- nesting and chains ------------------------------------------------------------------------

#[test]
fn long_chains_of_operators_are_refused_with_the_limit_not_a_stack_overflow() {
    for n in [10_000usize, 100_000, 1_000_000] {
        let chains = [
            ("minus", format!("pile\nmove: take 1..{}1\n", "-".repeat(n))),
            ("not", format!("pile\nmove: take 1..3 where {}t > 1\n", "not ".repeat(n))),
            ("plus", format!("pile\nmove: take 1..{}\n", vec!["1"; n].join("+"))),
            ("and", format!("pile\nmove: take 1..3 where {}\n", vec!["t > 0"; n].join(" and "))),
        ];
        for (name, text) in chains {
            let path = scratch(&format!("{name}-{n}.game"), &text);
            let code = or_too_long(&text, "takeaway::parse::too_many_operators");
            let stderr = refused(&["table", path.to_str().unwrap(), "--upto", "5"], code);
            assert!(stderr.len() < 4000, "{name} {n}: {} bytes", stderr.len());
        }
    }
    let path = scratch("minus-snapshot.game", &format!("pile\nmove: take 1..{}1\n", "-".repeat(300)));
    insta::assert_snapshot!(refused(&["check", path.to_str().unwrap()], "takeaway::parse::too_many_operators")
        .replace(path.to_str().unwrap(), "minus.game"));
}

#[test]
fn chains_within_the_limit_are_solved_by_every_stage() {
    // 200 minus signs: an even number, so the bound is 3 (take 1..3 where 3 is written -…-3).
    let even = format!("pile\nmove: take 1..{}3\n", "-".repeat(200));
    let path = scratch("minus-200.game", &even);
    for args in [vec!["table", "--upto", "8"], vec!["solve", "7"], vec!["explain", "7"]] {
        let mut all = vec![args[0], path.to_str().unwrap()];
        all.extend(&args[1..]);
        let r = run(&all);
        assert_eq!(r.code, Some(0), "{all:?}\n{}", r.stderr);
    }
    let nested = format!("pile\nmove: take 1..{}3{}\n", "(-(".repeat(32), "))".repeat(32));
    let r = run(&["table", scratch("nested.game", &nested).to_str().unwrap(), "--upto", "8"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn deep_brackets_are_refused_before_the_parser_recurses() {
    for n in [10_000usize, 100_000, 1_000_000] {
        let text = format!("pile\nmove: take 1..{}1{}\n", "(".repeat(n), ")".repeat(n));
        let path = scratch(&format!("brackets-{n}.game"), &text);
        refused(&["check", path.to_str().unwrap()], or_too_long(&text, "takeaway::parse::too_deep"));
    }
}

// ---- hangs -------------------------------------------------------------------------------------

#[test]
fn a_coin_far_out_in_ruler_is_refused_from_the_estimate() {
    // Every move of coin n turns up to n coins: the moves of the piles below 10^12 were listed
    // without counting the coins they turn, and without an estimate of where that would end.
    refused(&["solve", "games/ruler.game", "1000000000000"], "takeaway::solve::too_much_work");
}

#[test]
fn a_misere_table_does_not_grow_the_quotient_past_its_allowance() {
    // Misère Nim's quotient doubles at every power of two: looking past the table for a period
    // built it to heap 256 and beyond.
    let r = run(&["table", "games/misere-nim.game", "--upto", "50"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn a_move_turning_a_hundred_thousand_coins_is_bounded() {
    let path = scratch("turn-many.game", "coins\nmove: turn 100000 coins\n");
    let r = run(&["solve", path.to_str().unwrap(), "100001"]);
    assert!(matches!(r.code, Some(0 | 1)), "{}", cut(&r.stderr));
    assert!(!r.stderr.contains("panicked"), "{}", cut(&r.stderr));
}

// ---- the mutation fuzzer -----------------------------------------------------------------------

#[test]
fn mutated_game_files_never_crash_or_hang() {
    let cases: usize = std::env::var("TAKEAWAY_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(60);
    let seed: u64 = std::env::var("TAKEAWAY_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5eed);
    let files = bundled_games();
    let mut rng = Rng(seed | 1);
    let positions = [&["10"][..], &["3", "4"], &["5", "5", "5"], &["1000000000000"], &["2", "18446744073709551615"]];
    for case in 0..cases {
        let original = &files[rng.below(files.len())];
        let text = mutate(&std::fs::read_to_string(original).unwrap(), &mut rng);
        let path = scratch(&format!("case-{case}.game"), &text);
        let file = path.to_str().unwrap();
        let position = positions[rng.below(positions.len())];
        // Lower limits than the defaults keep each case short; a hang ignores limits either way.
        let mut solve = vec!["solve", file, "--max-states", "500000"];
        solve.extend_from_slice(position);
        for args in [vec!["check", file], vec!["table", file, "--upto", "50", "--max-states", "500000"], solve] {
            let r = run(&args);
            let from = original.file_name().unwrap().to_string_lossy();
            assert!(
                matches!(r.code, Some(0..=2)),
                "case {case} (seed {seed}, from {from}): {args:?} exited {:?}\n{}\n--- the text ---\n{}",
                r.code,
                cut(&r.stderr),
                cut(&text)
            );
            assert!(!r.stderr.contains("panicked"), "case {case} (from {from}): {args:?}\n{}", cut(&r.stderr));
            assert!(r.stderr.len() < 100_000 && r.stdout_len < 10_000_000, "case {case}: {args:?}: output too long");
        }
    }
}

// ---- round two ------------------------------------------------------------------------------

#[test]
fn a_shift_past_the_largest_pile_is_refused_not_wrapped() {
    for (b, shift) in [
        ("games/take-at-most-last.game", "18446744073709551615"),
        ("games/fibonacci-nim.game", "9223372036854775808"),
        ("games/mem.game", "9223372036854775900"),
    ] {
        let stderr = refused(&["compare", "games/nim.game", b, "--shift", shift], "takeaway::compare::shift_too_large");
        assert!(stderr.contains("give a shift of at most 9223372036854775707"), "{}", cut(&stderr));
    }
}

#[test]
fn what_is_not_a_regular_file_is_refused_before_it_is_read() {
    let stderr = refused(&["check", "/dev/zero"], "takeaway::file::not_a_file");
    assert!(stderr.contains("it is a device"), "{}", cut(&stderr));
    let stderr =
        refused(&["period", "games/octal-0.16.game", "--checkpoint", "/dev/zero"], "takeaway::checkpoint::unreadable");
    assert!(stderr.contains("not a regular file"), "{}", cut(&stderr));
    refused(&["period", "games/octal-0.16.game", "--checkpoint", "/dev/full"], "takeaway::checkpoint::unreadable");
    // A named pipe with no writer would block a read for ever.
    let fifo = std::env::temp_dir().join(format!("takeaway-fifo-{}", std::process::id()));
    let made = Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    if made {
        let stderr = refused(&["check", fifo.to_str().unwrap()], "takeaway::file::not_a_file");
        assert!(stderr.contains("named pipe"), "{}", cut(&stderr));
        std::fs::remove_file(&fifo).ok();
    }
}

#[test]
fn a_file_larger_than_any_game_is_refused_unread() {
    let path = scratch("large.game", &"# a comment line of padding\n".repeat(200_000));
    let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::file::too_large");
    assert!(stderr.contains("4194304"), "{}", cut(&stderr));
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let path = scratch("bom.game", "\u{feff}game \"BOM\"\npile\nmove: take 1..3\n");
    let r = run(&["table", path.to_str().unwrap(), "--upto", "8"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn a_timeout_must_be_a_time() {
    for bad in ["-1", "nan", "inf", "soon"] {
        let r = run(&["solve", "games/nim.game", "3", "4", &format!("--timeout={bad}")]);
        assert_eq!(r.code, Some(2), "--timeout {bad}: {}", r.stderr);
        assert!(r.stderr.contains("--timeout"), "{}", cut(&r.stderr));
    }
}

#[test]
fn many_wrong_lines_give_twenty_diagnostics_and_a_count() {
    let text = format!("piles\n{}", "move: take 1..kk\n".repeat(5000));
    let path = scratch("many-wrong.game", &text);
    let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::check::");
    assert_eq!(stderr.matches("takeaway::check::").count(), 20, "{}", cut(&stderr));
    assert!(stderr.contains("… and 4980 more errors like these"), "{}", cut(&stderr));
}

#[test]
fn save_refuses_an_empty_name_and_a_folder_at_once() {
    let dir = std::env::temp_dir().join(format!("takeaway-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = "game \"T\"\npile\nmove: take 1..3\n\n:save \"\"\n:save .\n:save kept.game\n";
    let out = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .arg("repl")
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .expect("the REPL runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`\"\"` is an empty file name"), "{stderr}");
    assert!(stderr.contains("`.` is a folder"), "{stderr}");
    assert!(!dir.join("\"\"").exists(), "no file named by two quotes");
    assert_eq!(std::fs::read_to_string(dir.join("kept.game")).unwrap(), "game \"T\"\npile\nmove: take 1..3\n");
    // The write goes through a temporary file: none is left beside the game.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn plot_of_a_huge_board_is_refused_before_allocating() {
    for upto in ["1000000", "100000000000000"] {
        refused(&["plot", "games/chomp.game", "--upto", upto], "takeaway::table::picture_too_large");
    }
}

#[test]
fn a_partizan_misere_search_counts_the_options_it_keeps_and_stops_before_a_gigabyte() {
    // Twenty piles of 7: each position keeps the positions both players move to, about 16 KB
    // of options each; the search grew to 3.9 GB and aborted before it counted them. The
    // positions alone are C(27, 7) = 888,030 multisets, with about 40 moves each: refused
    // before the search starts.
    let mut args = vec!["solve", "games/partizan-misere.game"];
    args.extend(["7"; 20]);
    let stderr = refused(&args, "takeaway::solve::too_many_positions");
    assert!(stderr.contains("at least 888030 positions") || stderr.contains("moves examined"), "{}", cut(&stderr));
}

#[test]
fn a_nul_byte_is_named_and_old_mac_line_ends_are_counted_as_lines() {
    let path = scratch("nul.game", "game \"N\"\npile\nmove: take 1..3\0\n");
    let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::parse::control_character");
    assert!(stderr.contains("U+0000, NUL: the file may not be text"), "{}", cut(&stderr));
    // CR alone ends the lines, with and without a byte-order mark: the header and the snippet
    // both say line 3, and no raw CR reaches the terminal.
    for (name, text) in [
        ("cr.game", "game \"C\"\rpile\rmove: tkae 1..3\r"),
        ("cr-bom.game", "\u{feff}game \"C\"\rpile\rmove: tkae 1..3\r"),
    ] {
        let path = scratch(name, text);
        let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::parse::unexpected");
        assert!(stderr.contains(&format!("{name}:3:7]")), "{}", cut(&stderr));
        assert!(stderr.contains(" 3 │ move: tkae 1..3"), "{}", cut(&stderr));
        assert!(!stderr.contains('\r'), "{}", cut(&stderr));
    }
}

#[test]
fn files_of_twenty_thousand_rules_are_checked_and_solved_within_the_limits() {
    // A product takes its moves from its games: each of 20,000 move lines is refused, and the
    // diagnostics stop at twenty with a count.
    let tartan =
        format!("game \"T\"\ntartan product of \"twins\" and \"twins\"\n{}", "move: turn 1 coins\n".repeat(20_000));
    let path = scratch("tartan-20k.game", &tartan);
    let stderr = refused(&["check", path.to_str().unwrap()], "takeaway::");
    assert!(stderr.contains("more errors like these"), "{}", cut(&stderr));
    // 20,000 right rules are checked, and a position solved.
    let octal = format!("game \"O\"\npiles\nmove: octal 0.376\n{}", "move: take any from 2 piles\n".repeat(20_000));
    let path = scratch("octal-20k.game", &octal);
    let r = run(&["check", path.to_str().unwrap()]);
    assert_eq!(r.code, Some(0), "{}", cut(&r.stderr));
    // Fibonacci Nim with 20,000 more rules, each allowing one amount: every rule is work at
    // every position, so a large pile is refused at the bound on work (counted, the same on
    // every machine: here a few seconds), and a plot of piles 0
    // and 1 is drawn.
    let base = std::fs::read_to_string("games/fibonacci-nim.game").unwrap();
    let extra: String = (1..=20_000).map(|k| format!("move: take {k} where {k} ≤ 2·last\n")).collect();
    let path = scratch("fibonacci-20k.game", &format!("{base}{extra}"));
    refused(&["solve", path.to_str().unwrap(), "710"], "takeaway::solve::work_limit");
    let r = run(&["plot", path.to_str().unwrap(), "--upto", "1"]);
    assert_eq!(r.code, Some(0), "{}", cut(&r.stderr));
    assert!(r.stdout_len > 0, "the plot was drawn");
}

/// A game file or an argument carrying escape sequences (a title, a cleared screen, the
/// clipboard through OSC 52): nothing of them reaches the terminal, from any verb or the REPL,
/// and the diagnostic names the character.
#[test]
fn no_escape_sequence_from_a_file_or_an_argument_reaches_the_terminal() {
    let raw = |text: &str| text.contains('\u{1b}') || text.contains('\u{7}') || text.contains('\u{9b}');
    let in_name = scratch("escape-name.game", "game \"evil\u{1b}]0;TITLE\u{7}\u{1b}[2J\"\npile\nmove: take 1..3\n");
    let in_comment =
        scratch("escape-comment.game", "game \"x\"\npile\nmove: take 1..3 # \u{1b}]52;c;aGVsbG8=\u{7}\u{9b}2J\n");
    let nim = common::games_dir().join("nim.game");
    let (name, comment, nim) = (in_name.to_str().unwrap(), in_comment.to_str().unwrap(), nim.to_str().unwrap());
    for args in [
        vec!["solve", name, "5"],
        vec!["check", comment],
        vec!["table", comment, "--upto", "5"],
        vec!["compare", nim, comment, "--upto", "5"],
        vec!["solve", nim, "3\u{1b}[2J"],
        vec!["solve", nim, "3\u{9b}2J", "--format", "json"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_takeaway")).args(&args).env("NO_COLOR", "1").output().unwrap();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(!out.status.success(), "{args:?} is refused");
        assert!(!raw(&stdout) && !raw(&stderr), "{args:?} printed a control character:\n{stdout}\n{stderr}");
        if args[1].ends_with(".game") && !args.contains(&nim) || args[0] == "compare" {
            assert!(stderr.contains("takeaway::parse::control_character"), "{args:?}: {stderr}");
            assert!(stderr.contains("U+001B, ESC") || stderr.contains("U+009B"), "{args:?}: {stderr}");
        }
    }
    // The REPL: `:load` of the file, and a definition typed with the character in its name.
    let mut child = common::spawn(&[], Stdio::piped());
    let script = format!(":load {name}\ngame \"a\u{1b}[2Jb\"\npile\nmove: take 1\n:games\n:quit\n");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), script.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!raw(&stdout) && !raw(&stderr), "the REPL printed a control character:\n{stdout}\n{stderr}");
    assert_eq!(stderr.matches("takeaway::parse::control_character").count(), 2, "{stderr}");
    // A game file whose name holds the character is never suggested for a near miss.
    let dir = in_name.parent().unwrap().join("suggest");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kay\u{1b}[2Jles.game"), "game \"k\"\npile\nmove: take 1\n").unwrap();
    let wanted = dir.join("kay[2Jles.game");
    let out = Command::new(env!("CARGO_BIN_EXE_takeaway"))
        .args(["solve", wanted.to_str().unwrap(), "3"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!raw(&String::from_utf8_lossy(&out.stderr)), "{}", String::from_utf8_lossy(&out.stderr));
}
