//! The server's connections: accepted under a cap, each served by hyper with a deadline for
//! its request's headers (which also closes a connection left idle between requests) and a
//! timeout on every read and write, so that slow or idle clients cannot keep the server's
//! sockets. At the cap, or when the process runs out of file descriptors, the connection that
//! has waited longest without a request in progress is closed to make room: idle sockets cannot
//! lock out a client with a question. On shutdown no connection is accepted, the ones with a
//! request in progress get a short grace period, and the rest are closed.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

/// The longest a client may take to send a request's headers, counted from when the server
/// starts waiting for them: a new connection's first request, or the next one on a connection
/// kept alive (so this is the idle timeout too).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(8);

/// The longest a socket may go without a byte written while an answer is under way, or without
/// a byte read while no request is (a question computing, or streaming its progress, reads
/// nothing for as long as its own timeout allows; its body has `BODY_TIMEOUT`).
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
    socket_timeout: Duration,
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
                    tokio::spawn(connection(stream, router.clone(), open.clone(), socket_timeout, stopping.clone()));
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
    socket_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let (id, entry) = open.add();
    let mut stream = TimeoutStream::new(stream);
    stream.set_write_timeout(Some(socket_timeout));
    let watch = ReadWatch {
        inner: Box::pin(stream),
        in_progress: entry.in_progress.clone(),
        timeout: socket_timeout,
        idle: None,
    };
    let io = TokioIo::new(watch);
    let in_progress = entry.in_progress.clone();
    let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
        let busy = InProgress::start(in_progress.clone());
        let router = router.clone();
        async move {
            // In progress until the answer's last byte: a streamed answer outlives the handler.
            let answer = router.oneshot(request.map(axum::body::Body::new)).await;
            answer.map(|response| response.map(|body| axum::body::Body::new(Answering { body, _busy: busy })))
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

/// A socket whose reads time out (after `timeout`) only while no request is in progress on it:
/// a question computing, or streaming its answer, is not waiting for its client.
struct ReadWatch {
    inner: Pin<Box<TimeoutStream<tokio::net::TcpStream>>>,
    in_progress: Arc<AtomicUsize>,
    timeout: Duration,
    /// When a read waiting with no request in progress gives up.
    idle: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl AsyncRead for ReadWatch {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        match this.inner.as_mut().poll_read(cx, buf) {
            Poll::Ready(read) => {
                this.idle = None;
                Poll::Ready(read)
            }
            Poll::Pending if this.in_progress.load(Ordering::Relaxed) > 0 => {
                this.idle = None;
                Poll::Pending
            }
            Poll::Pending => {
                let timeout = this.timeout;
                let idle = this.idle.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                match idle.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(std::io::ErrorKind::TimedOut.into())),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncWrite for ReadWatch {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        self.inner.as_mut().poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.inner.as_mut().poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.inner.as_mut().poll_shutdown(cx)
    }
}

/// An answer's body, which keeps its request in progress until it is sent (or dropped).
struct Answering {
    body: axum::body::Body,
    _busy: InProgress,
}

impl http_body::Body for Answering {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
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
