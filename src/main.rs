//! The `takeaway` command: everything happens in the library's `cli` module.
// Outside tests, a bare `unwrap` hides which invariant it relies on: every place that cannot fail
// says why in an `expect` (or handles the failure), and clippy keeps it so.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

fn main() -> std::process::ExitCode {
    takeaway::cli::main(std::env::args_os())
}
