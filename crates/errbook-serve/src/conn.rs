//! The connections of `serve`: the accept loop, how many may be open, and how long one may sit
//! idle, so that no client (a forgotten tab, a port scanner, a slowloris) can hold the server.
//! Each connection is hyper's HTTP/1, and each request on it is answered by the axum `Router` of
//! `http`.
//!
//! Why by hand, and not `axum::serve`: it has no bound on the connections, no header read
//! timeout, and no write timeout, and no tower layer can add them (a layer sees requests, and
//! these bounds are about connections: before a request head is whole, between requests, and
//! while an answer is being written). So this file keeps the accept loop, the table of open
//! connections with what each is doing, and a stream that fails a stalled write.
//!
//! - At most `MAX_CONNECTIONS` are open. When one more arrives, the connection idle the longest
//!   (no request being answered: a keep-alive waiting, or a client that never finished its request
//!   head) is closed to make room; only when every connection is answering a request is the new
//!   one refused.
//! - A request head must arrive whole within `HEAD_TIMEOUT` of connecting or of the previous
//!   answer (hyper's header read timeout), so idle and half-open connections are closed.
//! - A write that makes no progress for `WRITE_TIMEOUT` (a client that stopped reading) closes
//!   the connection.
//! - An accept that fails (out of file descriptors) waits a little and goes on; it never stops
//!   the server.

use axum::Router;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Sleep;
use tower::ServiceExt;

pub(super) const MAX_CONNECTIONS: usize = 512;
pub(super) const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
pub(super) const WRITE_TIMEOUT: Duration = Duration::from_secs(20);

/// One open connection, as the table sees it.
struct Slot {
    /// Requests being answered on it now.
    busy: Arc<AtomicUsize>,
    /// Milliseconds since the server started, at its last request's end (or its opening).
    last: Arc<AtomicU64>,
    close: Arc<Notify>,
}

/// The open connections.
#[derive(Default)]
struct Table {
    slots: Mutex<HashMap<u64, Slot>>,
    next: AtomicU64,
}

impl Table {
    /// Room for one more: true when there is (closing the longest-idle connection if needed).
    fn make_room(&self) -> bool {
        let Ok(mut slots) = self.slots.lock() else {
            return false;
        };
        if slots.len() < MAX_CONNECTIONS {
            return true;
        }
        let idle = slots
            .iter()
            .filter(|(_, s)| s.busy.load(Ordering::Acquire) == 0)
            .min_by_key(|(_, s)| s.last.load(Ordering::Acquire))
            .map(|(id, _)| *id);
        // Out of the table at once: it no longer counts, and is not chosen twice.
        match idle.and_then(|id| slots.remove(&id)) {
            Some(s) => {
                s.close.notify_one();
                true
            }
            None => false,
        }
    }

    fn open(&self, started: Instant) -> (u64, Arc<AtomicUsize>, Arc<AtomicU64>, Arc<Notify>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let busy = Arc::new(AtomicUsize::new(0));
        let last = Arc::new(AtomicU64::new(millis(started)));
        let close = Arc::new(Notify::new());
        if let Ok(mut slots) = self.slots.lock() {
            slots.insert(
                id,
                Slot {
                    busy: busy.clone(),
                    last: last.clone(),
                    close: close.clone(),
                },
            );
        }
        (id, busy, last, close)
    }

    fn closed(&self, id: u64) {
        if let Ok(mut slots) = self.slots.lock() {
            slots.remove(&id);
        }
    }
}

fn millis(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Accept connections on `listener` forever, each served by `app` on its own task.
pub(super) async fn accept_loop(listener: TcpListener, app: Router) {
    let table = Arc::new(Table::default());
    let started = Instant::now();
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        if !table.make_room() {
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        let (id, busy, last, close) = table.open(started);
        let (table, app) = (table.clone(), app.clone());
        tokio::spawn(async move {
            serve_one(stream, app, busy, last, &close, started).await;
            table.closed(id);
        });
    }
}

/// A request being answered on a connection: counted busy until the answer is made (or the
/// request is dropped), then the connection's idle time starts.
struct Answering {
    busy: Arc<AtomicUsize>,
    last: Arc<AtomicU64>,
    started: Instant,
}

impl Answering {
    fn start(busy: &Arc<AtomicUsize>, last: &Arc<AtomicU64>, started: Instant) -> Self {
        busy.fetch_add(1, Ordering::AcqRel);
        Answering {
            busy: busy.clone(),
            last: last.clone(),
            started,
        }
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.last.store(millis(self.started), Ordering::Release);
        self.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One connection, until it ends, times out or is told to close: hyper's HTTP/1 with its header
/// read timeout, each request handed to the axum `app`.
async fn serve_one(
    stream: TcpStream,
    app: Router,
    busy: Arc<AtomicUsize>,
    last: Arc<AtomicU64>,
    close: &Notify,
    started: Instant,
) {
    let service = service_fn(move |req: Request<Incoming>| {
        let answering = Answering::start(&busy, &last, started);
        let app = app.clone();
        async move {
            let reply = app.oneshot(req).await;
            drop(answering);
            reply
        }
    });
    let io = TokioIo::new(WriteTimeout::new(stream));
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .keep_alive(true)
        .serve_connection(io, service);
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => {}
        () = close.notified() => {
            conn.as_mut().graceful_shutdown();
            // A connection closed for room has no request running; a few seconds bound the rest.
            let _ = tokio::time::timeout(Duration::from_secs(2), conn).await;
        }
    }
}

/// A stream whose writes fail when they make no progress for `WRITE_TIMEOUT`.
struct WriteTimeout {
    inner: TcpStream,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl WriteTimeout {
    fn new(inner: TcpStream) -> Self {
        WriteTimeout {
            inner,
            stalled: None,
        }
    }

    /// `poll` made progress: forget the stall; it did not: fail once the stall is too long.
    fn check<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_TIMEOUT)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for WriteTimeout {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteTimeout {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.check(cx, poll)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.check(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.check(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
