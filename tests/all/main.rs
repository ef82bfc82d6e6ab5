//! The front ends' tests: the command line, the REPL and play in a terminal, through the built
//! binary, in one test binary. The engine's own tests are in `core/tests/`.

mod common;

mod cli;
mod cli_answers;
mod conformance;
mod defaults;
mod diagnostics;
mod editors;
mod files;
mod hostile;
mod layout;
mod limits;
mod lsp;
mod play;
mod records;
mod repl;
#[cfg(feature = "serve")]
mod serve;
mod sweep;
mod terminal;
