//! A server on a free port of this machine, for the tests of one binary.

#![allow(dead_code)] // each test binary uses a part

pub mod browser;

use std::net::SocketAddr;
use std::sync::OnceLock;

use takeaway_web::Config;

/// The address of a server started once per test binary, on its own runtime and thread.
pub fn server() -> SocketAddr {
    static ADDRESS: OnceLock<SocketAddr> = OnceLock::new();
    // Room enough that a slow search meets the timeout before the limit on its work.
    *ADDRESS.get_or_init(|| {
        start("127.0.0.1:0", Config { timeout: 3.0, workers: 4, max_states: Some(50_000_000), ..Config::default() })
    })
}

/// A server listening on `address` (port 0: a free one), on its own runtime and thread, for
/// the rest of the test binary; its bound address.
pub fn start(address: &str, config: Config) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    let address: SocketAddr = address.parse().expect("an address");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        runtime
            .block_on(takeaway_web::serve(
                address,
                config,
                move |bound| tx.send(bound).expect("the test waits"),
                std::future::pending(),
            ))
            .expect("the server runs");
    });
    rx.recv().expect("the server starts")
}

pub fn game(file: &str) -> String {
    std::fs::read_to_string(format!("{}/../games/{file}", env!("CARGO_MANIFEST_DIR"))).expect("a bundled game")
}
