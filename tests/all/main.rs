//! Every integration test in one binary, so that the crates are linked once, not once a file.

mod common;

mod api;
mod big;
mod cli;
mod codes;
mod diagnostics;
mod games;
mod heap_library;
mod hostile;
mod kernels;
mod limits;
mod loopy;
mod misere;
mod partizan;
mod play;
mod products;
mod properties;
mod records;
mod repl;
mod terminal;
mod theory;
