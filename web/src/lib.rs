//! takeaway's classroom web page: a local server with the page (served from the binary, no
//! outside resources) and a JSON API under `/api/` that answers with the engine's typed answers
//! rendered as the command line's `--format json`. Every request runs under its own budget (the
//! default limits and a timeout, from the moment it arrives), in one of two lanes of workers
//! (`lanes`), cancelled when its client goes away; connections are capped and timed out
//! (`connections`), and other sites are kept out (`guard`).
// Outside tests, a bare `unwrap` hides which invariant it relies on: every place that cannot fail
// says why in an `expect` (or handles the failure), and clippy keeps it so.
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod atlas;
mod connections;
mod error;
mod guard;
mod lanes;
mod library;
mod questions;
mod share;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::Router;

pub use connections::{HEADER_TIMEOUT, SHUTDOWN_GRACE, SOCKET_TIMEOUT};
pub use error::WebError;
pub use lanes::QUICK;
pub use library::bundled;
pub use share::{qr_text, urls};

/// The largest request body accepted: a game file is a few lines.
pub const MOST_BODY_BYTES: usize = 1 << 20;

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seconds a question may run before it is stopped (and answered with a timeout).
    pub timeout: f64,
    /// Positions a search may keep, per question (the engine's default unless set).
    pub max_states: Option<usize>,
    /// Questions computed at once in each lane (quick and slow); more wait for a turn.
    pub workers: usize,
    /// Questions that may wait for the slow lane; past them a question is answered 503.
    pub slow_waiting: usize,
    /// Connections open at once; past them the longest idle one is closed to make room.
    pub connections: usize,
    /// Names besides the server's own addresses that a request's `Host` may give (a name the
    /// classroom's network gives this machine).
    pub allowed_hosts: Vec<String>,
    /// The longest a socket may wait to send a byte, or to read one while no request is in
    /// progress on it (`SOCKET_TIMEOUT` unless set).
    pub socket_timeout: Duration,
}

/// Connections a server keeps open at once unless told.
pub const DEFAULT_CONNECTIONS: usize = 1024;

/// How long a request's body may take to arrive, in all.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(8);

impl Default for Config {
    fn default() -> Self {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).max(2);
        Config {
            timeout: takeaway_core::Budget::DEFAULT_SECONDS,
            max_states: None,
            workers,
            slow_waiting: 2 * workers,
            connections: DEFAULT_CONNECTIONS,
            allowed_hosts: Vec::new(),
            socket_timeout: SOCKET_TIMEOUT,
        }
    }
}

/// What every request handler shares.
struct App {
    config: Config,
    /// The quick and the slow lane of workers.
    lanes: Arc<lanes::Lanes>,
    /// The addresses other machines open the page by (none when only this machine can).
    urls: Vec<String>,
}

/// The page and the API of a server bound to `bound`.
fn router(config: Config, bound: SocketAddr) -> Router {
    let hosts = guard::Hosts::of(bound, &config.allowed_hosts);
    let urls = share::urls(bound);
    let app = Arc::new(App { lanes: lanes::Lanes::new(config.workers, config.slow_waiting), config, urls });
    Router::new()
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/page.js", get(script))
        .route("/api/games", get(questions::games))
        .route("/api/atlas", get(atlas::atlas))
        .route("/api/about", get(about))
        .route("/api/{verb}", post(questions::ask))
        .with_state(app)
        .layer(axum::middleware::from_fn_with_state(hosts, guard::guard))
}

async fn page() -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "no-cache"), (header::X_CONTENT_TYPE_OPTIONS, "nosniff")],
        Html(include_str!("../assets/index.html")),
    )
}

async fn script() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        include_str!("../assets/page.js"),
    )
}

/// `GET /api/about`: what the page shows of the server: the most time a question may have (the
/// page's time limit goes up to it), the engine's defaults for the page's fields (by their
/// ids), and the addresses a class opens the page by, with a QR code of the first.
async fn about(axum::extract::State(app): axum::extract::State<Arc<App>>) -> axum::Json<serde_json::Value> {
    let qr = app.urls.first().and_then(|u| share::qr_svg(u));
    axum::Json(serde_json::json!({
        "timeout": app.config.timeout,
        "default_timeout": takeaway_core::Budget::DEFAULT_SECONDS.min(app.config.timeout),
        "defaults": {
            "table-upto": takeaway_core::defaults::TABLE_UPTO,
            "plot-upto": takeaway_core::defaults::PLOT_UPTO,
            "play-strength": takeaway_core::defaults::STRENGTH,
        },
        "urls": app.urls,
        "qr": qr,
    }))
}

/// Serves until `shutdown` completes; `ready` hears the address bound (port 0 picks a free one).
/// Then no connection is accepted, requests in progress have `SHUTDOWN_GRACE` to finish, and
/// the rest are dropped (their questions cancelled).
pub async fn serve(
    address: SocketAddr,
    config: Config,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    ready(bound);
    let most = config.connections;
    let socket_timeout = config.socket_timeout;
    connections::serve(listener, router(config, bound), most, socket_timeout, shutdown).await
}

/// A server on its own runtime, for the command line: blocks until Ctrl-C (or SIGTERM), then
/// stops within `SHUTDOWN_GRACE` and a second; a second Ctrl-C ends the process at once.
/// `stopping` hears when the stop begins.
pub fn serve_blocking(
    address: SocketAddr,
    config: Config,
    ready: impl FnOnce(SocketAddr),
    stopping: impl FnOnce() + Send + 'static,
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(serve(address, config, ready, async {
        stop_signal().await;
        stopping();
        tokio::spawn(async {
            stop_signal().await;
            std::process::exit(130);
        });
    }))?;
    // Questions still computing were cancelled with their connections: they stop at their next
    // step; do not wait for a straggler longer than this.
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}

/// Ctrl-C, or a service manager's SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}
