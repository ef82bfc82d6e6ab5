//! The `takeaway` command's front ends over the engine (`takeaway-core`): the command line,
//! the REPL, play in a terminal and the progress bar. Everything they show comes from the
//! engine's typed answers, rendered here for a terminal.

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
