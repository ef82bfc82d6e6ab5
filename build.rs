//! The tests embed Python (the conformance test asks every question through the Python package
//! too): they find the interpreter's own shared library at run time, the one pyo3 linked them
//! against, rather than whichever the system's loader finds first.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PYO3_PYTHON");
    let python = std::env::var("PYO3_PYTHON").unwrap_or_else(|_| "python3".into());
    let libdir = Command::new(python)
        .args(["-c", "import sysconfig; print(sysconfig.get_config_var('LIBDIR') or '')"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string());
    if let Some(dir) = libdir.filter(|d| !d.is_empty()) {
        println!("cargo:rustc-link-arg-tests=-Wl,-rpath,{dir}");
    }
}
