//! Accepting connections: HTTP/1.1 (hyper) with a timer, so that a request head must arrive
//! within [`Limits::head_timeout`] (which also closes idle keep-alive connections) and a write
//! may not stay blocked past [`Limits::write_timeout`]; a cap on open connections per address
//! and in all, past which a connection gets a short `503` and is closed (rather than the
//! process running out of descriptors); and a graceful stop.
//!
//! Every connection's place ([`Slot`]) travels with its socket, so a connection upgraded to a
//! websocket keeps counting until the websocket closes.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

use crate::limits::{AddressCounts, Limit, Limits, Slot};
use crate::metrics::Metrics;

/// The largest request head read: a link to a game carries the whole game in its query (the
/// app reads up to 64 KiB of it), so room for that and ordinary headers; a longer head gets
/// `431` and costs no more than this while it arrives.
const MAX_HEAD_BYTES: usize = 80 * 1024;
/// The kernel send buffer asked for each socket (Linux doubles it). Messages are small; a small
/// buffer keeps memory low with thousands of sockets and lets the outbox limit find a client
/// that does not read soon.
const SOCKET_SEND_BUFFER: usize = 8 * 1024;
/// How long a refused connection is given to read its `503`.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(1);
/// How long the accept loop pauses when accepting fails (out of descriptors, say), so it does
/// not spin.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// The address of the connection's peer, put in each request's extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub SocketAddr);

/// How connections are accepted.
#[derive(Clone, Debug)]
pub struct AcceptOptions {
    /// The limits (timeouts and connection caps).
    pub limits: Limits,
    /// Reverse proxies whose `X-Forwarded-For` is believed; their own connections are exempt
    /// from the per-address cap.
    pub trusted_proxies: Arc<[IpAddr]>,
}

/// Accepts and serves connections with `router` until `shutdown` is cancelled; then stops
/// accepting and lets each HTTP connection finish the request it is on. Connection tasks are
/// spawned on `tracker`, so the caller can wait for them.
///
/// # Errors
/// Never, today: accept errors are logged and retried. (The `Result` leaves room for errors
/// that must stop the server.)
pub async fn accept(
    listener: TcpListener,
    router: Router,
    options: AcceptOptions,
    metrics: Metrics,
    shutdown: CancellationToken,
    tracker: TaskTracker,
) -> io::Result<()> {
    let limits = &options.limits;
    let counts = AddressCounts::new(limits.max_connections_per_address, limits.max_connections);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        .keep_alive(true);
    loop {
        let accepted = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                if !is_connection_error(&error) {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                }
                continue;
            }
        };
        let exempt = options.trusted_proxies.contains(&peer.ip());
        let slot = match counts.admit((!exempt).then_some(peer.ip())) {
            Ok(slot) => slot,
            Err(limit) => {
                metrics.refused(limit);
                tracing::debug!(%peer, limit = limit.name(), "connection refused");
                tracker.spawn(refuse(tcp, limit));
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let _ = socket2::SockRef::from(&tcp).set_send_buffer_size(SOCKET_SEND_BUFFER);
        let io = GuardedStream::new(tcp, slot, limits.write_timeout, metrics.clone());
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(Peer(peer));
            router.clone().oneshot(request.map(Body::new))
        });
        let connection = http.serve_connection(TokioIo::new(io), service).with_upgrades();
        let (shutdown, metrics) = (shutdown.clone(), metrics.clone());
        tracker.spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let served = tokio::select! {
                served = connection.as_mut() => served,
                () = shutdown.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = served {
                if error.is_timeout() {
                    metrics.refused(Limit::HeadTimeout);
                }
                tracing::debug!(%peer, %error, "connection ended");
            }
        });
    }
    Ok(())
}

/// Errors of one connection that say nothing about the listener.
fn is_connection_error(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Tells a connection over a cap why it is closed, briefly.
async fn refuse(mut tcp: TcpStream, limit: Limit) {
    let body = match limit {
        Limit::ConnectionsPerAddress => "Too many connections from your address; try again soon.\n",
        _ => "The server is busy; try again soon.\n",
    };
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Retry-After: 10\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIMEOUT, async {
        tcp.write_all(response.as_bytes()).await?;
        tcp.shutdown().await?;
        // Read what the client sent, so closing does not reset the connection before it read
        // the answer.
        let mut sink = [0u8; 4096];
        while tcp.read(&mut sink).await? > 0 {}
        io::Result::Ok(())
    })
    .await;
}

/// A TCP stream that holds its connection's [`Slot`] and counts in the open-connections gauge
/// for as long as it lives, and fails a write that stays blocked past its timeout.
struct GuardedStream {
    tcp: TcpStream,
    _slot: Slot,
    write_timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
    metrics: Metrics,
}

impl GuardedStream {
    fn new(tcp: TcpStream, slot: Slot, write_timeout: Duration, metrics: Metrics) -> Self {
        metrics.connections.inc();
        GuardedStream { tcp, _slot: slot, write_timeout, stalled: None, metrics }
    }

    /// Passes a write's outcome on, timing how long it has been blocked.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.write_timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        if stalled.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            )));
        }
        Poll::Pending
    }
}

impl Drop for GuardedStream {
    fn drop(&mut self) {
        self.metrics.connections.dec();
    }
}

impl AsyncRead for GuardedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.tcp).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.tcp).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}
