//! `takeaway serve`: the classroom web page (the crate `takeaway-web`), started on this machine
//! only unless `--host` shares it, and said so.

use std::net::{IpAddr, SocketAddr};

use clap::Args;
use miette::Diagnostic;
use thiserror::Error;

use crate::terminal::Failed;
use takeaway_core::render::diagnostic as render;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// the address to listen on: 127.0.0.1 (this machine only) unless told; 0.0.0.0 shares the
    /// page with every machine on the network, such as a classroom's
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// the port (0 picks a free one)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// the most seconds one question may run before it is stopped, however long a request asks
    /// for [default: the engine's budget of a question, half a minute]
    #[arg(long)]
    timeout: Option<f64>,
    /// positions a search may keep, per question
    #[arg(long)]
    max_states: Option<usize>,
    /// the most connections open at once; past them the one idle longest is closed [default:
    /// 1024, fewer when the process may not open as many files]
    #[arg(long)]
    connections: Option<usize>,
    /// a name of this machine that the page may be opened by, besides its addresses (a request
    /// naming another host is refused, so that other sites cannot reach the server); repeatable
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
}

#[derive(Debug, Error, Diagnostic)]
enum ServeError {
    #[cfg_attr(feature = "serve", allow(dead_code))]
    #[error("this takeaway was built without the web server")]
    #[diagnostic(
        code(takeaway::serve::not_built),
        help("build it with the feature: cargo run --release --features serve -- serve")
    )]
    NotBuilt,

    #[cfg_attr(not(feature = "serve"), allow(dead_code))]
    #[error("cannot serve on {address}: {reason}")]
    #[diagnostic(code(takeaway::serve::bind), help("another program may use the port: try --port 0 for a free one"))]
    Bind { address: SocketAddr, reason: String },

    #[error("--timeout {given} is not a number of seconds above 0")]
    #[diagnostic(code(takeaway::serve::timeout), help("for example --timeout 5"))]
    Timeout { given: f64 },
}

pub(crate) fn main(args: ServeArgs, color: bool) -> Result<(), Failed> {
    let fail = |e: ServeError| {
        eprint!("{}", render(&e, None, color));
        Failed
    };
    if let Some(given) = args.timeout.filter(|t| !(t.is_finite() && *t > 0.0)) {
        return Err(fail(ServeError::Timeout { given }));
    }
    let address = SocketAddr::new(args.host, args.port);
    run(address, args).map_err(fail)
}

#[cfg(feature = "serve")]
fn run(address: SocketAddr, args: ServeArgs) -> Result<(), ServeError> {
    use std::io::Write;
    let defaults = takeaway_web::Config::default();
    let config = takeaway_web::Config {
        timeout: args.timeout.unwrap_or(defaults.timeout),
        max_states: args.max_states,
        allowed_hosts: args.allow_host.clone(),
        connections: args.connections.unwrap_or(defaults.connections),
        ..defaults
    };
    let shared = args.host.is_unspecified() || !args.host.is_loopback();
    takeaway_web::serve_blocking(
        address,
        config,
        |bound| {
            // The address goes to whoever started the server; a closed stdout (`serve | head -1`, a
            // test that read the first line) must not stop it, so write errors are ignored.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "takeaway's page: http://{}", shown(bound));
            if shared {
                let urls = takeaway_web::urls(bound);
                if urls.is_empty() {
                    let _ = writeln!(
                        out,
                        "shared on the network: other machines open http://<this machine's address>:{} (Ctrl-C stops it)",
                        bound.port()
                    );
                } else {
                    let _ = writeln!(out, "shared on the network: a class opens {} (Ctrl-C stops it)", urls.join(" or "));
                    // A phone opens it from the QR code on the projected terminal (the page shows it too).
                    if let Some(qr) = takeaway_web::qr_text(&urls[0]) {
                        let _ = writeln!(out, "{qr}");
                    }
                }
            } else {
                let _ = writeln!(
                    out,
                    "only this machine can open it (--host 0.0.0.0 shares it with a classroom); Ctrl-C stops it"
                );
            }
            let _ = out.flush();
        },
        || eprintln!("stopping: questions in progress have a second to finish (Ctrl-C again ends at once)"),
    )
    .map_err(|e| ServeError::Bind { address, reason: e.to_string() })
}

#[cfg(feature = "serve")]
fn shown(bound: SocketAddr) -> String {
    if bound.ip().is_unspecified() {
        format!("127.0.0.1:{}", bound.port())
    } else {
        bound.to_string()
    }
}

#[cfg(not(feature = "serve"))]
fn run(_address: SocketAddr, _args: ServeArgs) -> Result<(), ServeError> {
    Err(ServeError::NotBuilt)
}
