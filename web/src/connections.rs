//! The server's connections: accepted under a cap, each served by hyper with a deadline for
//! its request's headers (which also closes a connection left idle between requests) and a
//! timeout on every read and write, so that slow or idle clients cannot keep the server's
//! sockets. At the cap, or when the process runs out of file descriptors, the connection that
//! has waited longest without a request in progress is closed to make room: idle sockets cannot
//! lock out a client with a question. On shutdown no connection is accepted, the ones with a
//! request in progress get a short grace period, and the rest are closed.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

/// The longest a client may take to send a request's headers, counted from when the server
/// starts waiting for them: a new connection's first request, or the next one on a connection
/// kept alive (so this is the idle timeout too).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(8);

/// The longest a socket may go without a byte read or written while a request or its answer
/// is under way.
pub const SOCKET_TIMEOUT: Duration = Duration::from_secs(8);

/// How long requests in progress may go on after the server is told to stop.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// File descriptors the process keeps for itself beyond its connections (the listener, the
/// runtime, files the engine may open).
const SPARE_DESCRIPTORS: u64 = 64;

/// Serves `router` on `listener` until `shutdown` completes, then stops as the module says.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    most_connections: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let cap = most_connections.min(descriptors_for_connections()).max(1);
    let open = Arc::new(Open::default());
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    if open.count() >= cap && !open.close_the_longest_idle() {
                        // Every connection is busy with a request: this one cannot be served.
                        drop(stream);
                        continue;
                    }
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(connection(stream, router.clone(), open.clone(), stopping.clone()));
                }
                Err(e) => {
                    // Out of descriptors (or a connection reset before it was accepted): make
                    // room if there is an idle connection, and do not spin on the error.
                    if is_out_of_descriptors(&e) {
                        open.close_the_longest_idle();
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
        }
    }
    drop(listener);
    let _ = stop.send(true);
    // Requests in progress finish within the grace period, or are dropped with their
    // connections (which cancels their questions).
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, open.all_closed()).await;
    open.close_all();
    Ok(())
}

/// One connection, from its accept to its close.
async fn connection(
    stream: tokio::net::TcpStream,
    router: Router,
    open: Arc<Open>,
    mut stopping: watch::Receiver<bool>,
) {
    let (id, entry) = open.add();
    let mut stream = TimeoutStream::new(stream);
    stream.set_read_timeout(Some(SOCKET_TIMEOUT));
    stream.set_write_timeout(Some(SOCKET_TIMEOUT));
    let io = TokioIo::new(Box::pin(stream));
    let in_progress = entry.in_progress.clone();
    let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
        let busy = InProgress::start(in_progress.clone());
        let router = router.clone();
        async move {
            let answer = router.oneshot(request.map(axum::body::Body::new)).await;
            drop(busy);
            answer
        }
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(io, service);
    tokio::pin!(served);
    tokio::select! {
        _ = served.as_mut() => {}
        () = entry.close.notified() => {}
        _ = async { stopping.wait_for(|stop| *stop).await.is_ok() } => {
            served.as_mut().graceful_shutdown();
            tokio::select! {
                _ = served.as_mut() => {}
                () = entry.close.notified() => {}
            }
        }
    }
    open.remove(id);
}

/// The descriptors this process may open for connections: its soft limit raised to the hard
/// one (as servers do; the soft limit is often 1024), less what it keeps for itself.
fn descriptors_for_connections() -> usize {
    // SAFETY: getrlimit and setrlimit read and write the struct given, nothing else.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return usize::MAX;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
        // `rlim_t` is u64 on Linux, not on every Unix.
        #[allow(clippy::unnecessary_cast)]
        let soft = limit.rlim_cur as u64;
        usize::try_from(soft.saturating_sub(SPARE_DESCRIPTORS)).unwrap_or(usize::MAX)
    }
}

fn is_out_of_descriptors(e: &std::io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE) | Some(libc::ENFILE))
}

/// Counts a request in progress on a connection while it lives.
struct InProgress(Arc<AtomicUsize>);

impl InProgress {
    fn start(count: Arc<AtomicUsize>) -> InProgress {
        count.fetch_add(1, Ordering::Relaxed);
        InProgress(count)
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One open connection, as the registry sees it.
struct Entry {
    in_progress: Arc<AtomicUsize>,
    close: Arc<Notify>,
}

/// The open connections, oldest first (ids only grow).
#[derive(Default)]
struct Open {
    connections: Mutex<BTreeMap<u64, Entry>>,
    next: AtomicUsize,
    changed: Notify,
}

impl Open {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Entry>> {
        // The map stays whole if a holder panicked: it only inserts and removes.
        self.connections.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn count(&self) -> usize {
        self.lock().len()
    }

    fn add(&self) -> (u64, EntryHandle) {
        let id = self.next.fetch_add(1, Ordering::Relaxed) as u64;
        let in_progress = Arc::new(AtomicUsize::new(0));
        let close = Arc::new(Notify::new());
        self.lock().insert(id, Entry { in_progress: in_progress.clone(), close: close.clone() });
        (id, EntryHandle { in_progress, close })
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
        self.changed.notify_waiters();
    }

    /// Closes the connection that has been open longest with no request in progress; false
    /// when every connection has one.
    fn close_the_longest_idle(&self) -> bool {
        let mut connections = self.lock();
        let idle = connections.iter().find(|(_, e)| e.in_progress.load(Ordering::Relaxed) == 0).map(|(id, _)| *id);
        match idle.and_then(|id| connections.remove(&id)) {
            Some(entry) => {
                entry.close.notify_one();
                true
            }
            None => false,
        }
    }

    fn close_all(&self) {
        for (_, entry) in std::mem::take(&mut *self.lock()) {
            entry.close.notify_one();
        }
    }

    async fn all_closed(&self) {
        loop {
            let changed = self.changed.notified();
            if self.count() == 0 {
                return;
            }
            changed.await;
        }
    }
}

/// What a connection's task keeps of its own entry.
struct EntryHandle {
    in_progress: Arc<AtomicUsize>,
    close: Arc<Notify>,
}
