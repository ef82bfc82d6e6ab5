//! The `takeaway` command's front ends over the engine (`takeaway-core`): the command line,
//! the REPL, play in a terminal and the progress bar. Everything they show comes from the
//! engine's typed answers, rendered here for a terminal.
// Outside tests, a bare `unwrap` hides which invariant it relies on: every place that cannot fail
// says why in an `expect` (or handles the failure), and clippy keeps it so.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod cli;
pub mod fmt;
pub mod interrupt;
pub mod play;
pub mod progress_bar;
pub mod repl;
pub mod serve;
pub mod sweep;
pub mod terminal;
pub mod verbs;
