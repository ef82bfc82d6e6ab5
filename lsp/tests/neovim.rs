//! A smoke test in a real editor: Debian's Neovim, headless, starts `takeaway lsp` with its
//! built-in client on a game file with a mistake, and the diagnostic it shows is read back.
//! Needs `nvim` (`.ci/install-neovim`) and the `takeaway` binary built beside this test
//! (`cargo test` at the top builds it); `.ci/run` runs it after both.

use std::path::PathBuf;
use std::process::Command;

/// The `takeaway` binary of this build: this test runs from `target/<profile>/deps/`.
fn takeaway() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's own path");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps");
    let binary = dir.join("takeaway");
    assert!(
        binary.is_file(),
        "{} is not built: run `cargo test` (or `cargo build`) at the top first",
        binary.display()
    );
    binary
}

#[test]
fn neovim_shows_the_servers_diagnostic_at_its_place() {
    let dir = std::env::temp_dir().join(format!("takeaway-neovim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let game = dir.join("typo.game");
    std::fs::write(&game, "game \"Typo\"\npile\nmove: take 1..kk\n").expect("the game file");
    let out = dir.join("diagnostics.txt");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../editors/neovim/smoke.lua");
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .arg(&game)
        .current_dir(&dir)
        .env("TAKEAWAY", takeaway())
        .env("OUT", &out)
        .status()
        .expect("nvim runs: install it with .ci/install-neovim");
    assert!(status.success(), "{status}");
    let shown = std::fs::read_to_string(&out).expect("Neovim wrote the diagnostics");
    let lines: Vec<&str> = shown.lines().collect();
    // Line 3, column 15 (counted from 0 by Neovim): `kk`.
    assert_eq!(lines.len(), 1, "{shown}");
    assert!(lines[0].starts_with("2:14:takeaway::check::unknown_name:unknown name `kk`"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}
