//! Bundles the repository's `games/` into the server, so that the page's menu and the games a
//! product names work offline and never read the disk at a request's say-so.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("games");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the games folder beside web/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// (file stem, text) of every bundled game, by name.\npub const BUNDLED: &[(&str, &str)] = &[\n",
    );
    for path in files {
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a file name in UTF-8");
        writeln!(out, "    ({stem:?}, include_str!({:?})),", path.canonicalize().expect("a game file").display())
            .expect("a string takes any write");
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("games.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
