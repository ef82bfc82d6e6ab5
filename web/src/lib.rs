//! takeaway's classroom web page: a local server with the page (served from the binary, no
//! outside resources) and a JSON API under `/api/` that answers with the engine's typed answers
//! rendered as the command line's `--format json`. Every request runs under its own budget (the
//! default limits and a timeout), on the blocking pool, cancelled when its client goes away.

mod error;
mod library;
mod questions;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;

pub use error::WebError;
pub use library::bundled;

/// The largest request body accepted: a game file is a few lines.
pub const MOST_BODY_BYTES: usize = 1 << 20;

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seconds a question may run before it is stopped (and answered with a timeout).
    pub timeout: f64,
    /// Positions a search may keep, per question (the engine's default unless set).
    pub max_states: Option<usize>,
    /// Questions computed at once; more wait for a turn.
    pub workers: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            timeout: takeaway_core::Budget::DEFAULT_SECONDS,
            max_states: None,
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()).max(2),
        }
    }
}

/// What every request handler shares.
struct App {
    config: Config,
    /// One permit per question computing: slow questions take turns instead of piling up.
    slots: Arc<Semaphore>,
}

/// The page and the API.
pub fn router(config: Config) -> Router {
    let app = Arc::new(App { slots: Arc::new(Semaphore::new(config.workers.max(1))), config });
    Router::new()
        .route("/", get(page))
        .route("/index.html", get(page))
        .route("/api/games", get(questions::games))
        .route("/api/{verb}", post(questions::ask))
        .layer(DefaultBodyLimit::max(MOST_BODY_BYTES))
        .with_state(app)
}

async fn page() -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "no-cache"), (header::X_CONTENT_TYPE_OPTIONS, "nosniff")],
        Html(include_str!("../assets/index.html")),
    )
}

/// Serves until `shutdown` completes; `ready` hears the address bound (port 0 picks a free one).
pub async fn serve(
    address: SocketAddr,
    config: Config,
    ready: impl FnOnce(SocketAddr),
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(address).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, router(config)).with_graceful_shutdown(shutdown).await
}

/// A server on its own runtime, for the command line: blocks until Ctrl-C.
pub fn serve_blocking(address: SocketAddr, config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(serve(address, config, ready, async {
        // Without a signal handler (it cannot fail on the platforms served), run until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }))?;
    // Questions still running stop at their own timeout; do not wait longer than that.
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}
