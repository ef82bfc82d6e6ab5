//! `takeaway fmt`: game files laid out the one way the engine's formatter lays them out,
//! rewritten in place (never clobbered: a complete new file replaces the old), checked with
//! `--check` for CI, or read from standard input with `-` for an editor's format command.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;
use takeaway_core::render::printable;
use takeaway_core::{read_game_text, Failure, Source};

use crate::terminal::Failed;

// `takeaway fmt`'s arguments (a plain comment: clap would make a doc comment the verb's about).
#[derive(Args, Debug)]
pub struct FmtArgs {
    /// the game files to format (`-`: read standard input, write the result to standard output)
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// change nothing: name each file that is not formatted, and fail if there is one
    #[arg(long)]
    check: bool,
}

/// Formats every file named; a file that does not parse gets its diagnostic and is left alone.
pub(crate) fn main(args: FmtArgs, color: bool) -> Result<(), Failed> {
    let mut failed = false;
    for path in &args.files {
        let stdin = path.as_os_str() == "-";
        let shown = if stdin { "<stdin>".to_string() } else { path.display().to_string() };
        let text = if stdin {
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("cannot read standard input: {e}");
                failed = true;
                continue;
            }
            text
        } else {
            match read_game_text(path) {
                Ok(text) => text,
                Err(e) => {
                    eprint!("{}", Failure::one(e, None).render(color));
                    failed = true;
                    continue;
                }
            }
        };
        let formatted = match takeaway_core::text::format(&text) {
            Ok(formatted) => formatted,
            Err(e) => {
                eprint!("{}", Failure::one(e, Some(&Source::new(shown.as_str(), text.as_str()))).render(color));
                failed = true;
                continue;
            }
        };
        if stdin {
            if args.check {
                failed |= formatted != text;
            } else {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(formatted.as_bytes()).and_then(|_| out.flush());
            }
        } else if formatted != text {
            if args.check {
                println!("{} is not formatted", printable(&shown));
                failed = true;
            } else if let Err(e) = takeaway_core::write_file(path, formatted.as_bytes()) {
                eprintln!("cannot write {}: {e}", printable(&shown));
                failed = true;
            }
        }
    }
    if failed {
        Err(Failed)
    } else {
        Ok(())
    }
}
