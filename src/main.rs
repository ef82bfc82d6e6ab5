//! The `takeaway` command: everything happens in the library's `cli` module.

fn main() -> std::process::ExitCode {
    takeaway::cli::main(std::env::args_os())
}
