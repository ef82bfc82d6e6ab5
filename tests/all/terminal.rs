//! The REPL in a real (pseudo-)terminal: a multi-line definition, tab completion, Ctrl-C at the
//! prompt and during a long computation (with its progress bar), Ctrl-D, and history kept in the
//! data directory.
#![cfg(unix)]

use std::process::Command;
use std::time::Duration;

use rexpect::session::spawn_command;

#[test]
fn an_interactive_session_in_a_terminal() -> Result<(), rexpect::error::Error> {
    let data = std::env::temp_dir().join(format!("takeaway-pty-{}", std::process::id()));
    std::fs::create_dir_all(&data).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_takeaway"));
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env("TERM", "xterm")
        .env("HOME", &data)
        .env("XDG_DATA_HOME", &data);
    let mut p = spawn_command(cmd, Some(30_000))?;
    p.exp_string("takeaway> ")?;

    // A definition over three lines: a prompt of its own until it is complete.
    p.send_line("game \"pty\"")?;
    p.exp_string("...> ")?;
    p.send_line("pile")?;
    p.exp_string("...> ")?;
    p.send_line("move: take 1..3")?;
    p.exp_string("defined pty (one pile)")?;
    p.exp_string("takeaway> ")?;

    // Tab completes `tab` to `table`.
    p.send("tab")?;
    p.send("\t")?;
    p.flush()?;
    p.exp_string("table")?;
    p.send(" 8\r")?;
    p.flush()?;
    p.exp_string("P-positions: 0, 4, 8")?;
    p.exp_string("takeaway> ")?;

    // Ctrl-C at the prompt clears the line: what was typed before it is not run.
    p.send("solve 99999")?;
    p.flush()?;
    p.send_control('c')?;
    p.exp_string("takeaway> ")?;
    p.send_line("solve 4")?;
    p.exp_string("pty, position 4")?;
    p.exp_string("takeaway> ")?;

    // Ctrl-C during a long computation cancels it and the session goes on.
    p.send_line(":load games/three-pile-wythoff.game")?;
    p.exp_string("loaded Three-pile Wythoff (3 piles)")?; // rexpect reads bytes as Latin-1: match ASCII only
    p.exp_string("takeaway> ")?;
    p.send_line("solve 300 310 320 --max-states 1000000000")?;
    // The REPL shows the command line's progress bar (after half a second); once it shows, the
    // computation has started, and a Ctrl-C cancels it rather than being read at the prompt.
    p.exp_string("moves examined")?;
    std::thread::sleep(Duration::from_millis(300));
    p.send_control('c')?;
    p.exp_string("the computation was cancelled")?;
    p.exp_string("takeaway> ")?;
    p.send_line("solve 1 1 1")?;
    p.exp_string("outcome: P")?;

    // Ctrl-C during a long table: a short summary of the rows it has, not every row.
    p.exp_string("takeaway> ")?;
    // (Not Nim: its values are known at once, by Bouton; these are computed pile by pile.)
    p.send_line(":load games/all-but-subtraction.game")?;
    // The prompt is redrawn as the line is typed (with the history's hint): wait for the load's
    // answer first, so that the next line is not typed before the REPL reads it.
    p.exp_string("loaded All but 2, 3 and 7")?;
    p.exp_string("takeaway> ")?;
    p.send_line("table 300000 --max-states 1000000000")?;
    p.exp_string("Grundy values of one pile")?;
    std::thread::sleep(Duration::from_millis(300));
    p.send_control('c')?;
    p.exp_string("stopped by Ctrl-C: ")?;
    p.exp_string("every row: `table ")?;
    p.exp_string("the table stops after n = ")?;

    // Ctrl-D ends the session; the history was saved in the data directory.
    p.exp_string("takeaway> ")?;
    p.send_control('d')?;
    p.exp_eof()?;
    let history = std::fs::read_to_string(data.join("takeaway").join("history.txt")).expect("history saved");
    assert!(history.contains("solve 4"), "{history}");
    assert!(!std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("history.txt").exists());
    std::fs::remove_dir_all(&data).ok();
    Ok(())
}
