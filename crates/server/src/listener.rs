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

use crate::limits::{AddressCounts, Limit, Limits, Slot, address_key};
use crate::metrics::Metrics;

/// The largest request head read: a link to a game carries the whole game in its query (the
/// app reads up to 64 KiB of it), so room for that and ordinary headers; a longer head gets
/// `431` and costs no more than this while it arrives.
const MAX_HEAD_BYTES: usize = 80 * 1024;
/// The kernel send buffer asked for each game socket once upgraded (Linux doubles it). Messages
/// are small; a small buffer keeps memory low with thousands of sockets and lets the outbox
/// limit find a client that does not read soon. HTTP downloads keep the kernel's own
/// autotuned buffer: a small one would cap a download at a buffer per round trip.
const SOCKET_SEND_BUFFER: usize = 8 * 1024;
/// How many refused connections may be waiting to read their `503` at once; past that, a
/// refused connection is closed without one, so a flood of connections cannot hold descriptors.
const MAX_REFUSALS_IN_FLIGHT: usize = 256;
/// How long a refused connection is given to read its `503`.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(1);
/// How long the accept loop pauses when accepting fails (out of descriptors, say), so it does
/// not spin.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// The address of the connection's peer, put in each request's extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub SocketAddr);

/// Put in each request's extensions: the request handler sets it when the connection becomes
/// a game socket, and the connection then takes the small send buffer of game sockets.
#[derive(Clone, Debug, Default)]
pub struct BecameSocket(Arc<std::sync::atomic::AtomicBool>);

impl BecameSocket {
    /// Marks the connection as a game socket.
    pub fn mark(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn is_marked(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

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
    let refusing = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .max_buf_size(MAX_HEAD_BYTES)
        // The buffer's cap alone is not the head's: one read may take in more than the cap
        // (the buffer grows by doubling), and a head that came whole in it was taken, so the
        // parsed head is measured too.
        .max_header_size(MAX_HEAD_BYTES)
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
        let peer = SocketAddr::new(peer.ip().to_canonical(), peer.port());
        let exempt = options.trusted_proxies.contains(&peer.ip());
        let slot = match counts.admit((!exempt).then_some(address_key(peer.ip()))) {
            Ok(slot) => slot,
            Err(limit) => {
                metrics.refused(limit);
                tracing::debug!(%peer, limit = limit.name(), "connection refused");
                let waiting = Arc::clone(&refusing);
                if waiting.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                    < MAX_REFUSALS_IN_FLIGHT
                {
                    tracker.spawn(async move {
                        refuse(tcp, limit).await;
                        waiting.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                    });
                } else {
                    waiting.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                    drop(tcp);
                }
                continue;
            }
        };
        let _ = tcp.set_nodelay(true);
        let became_socket = BecameSocket::default();
        let io = GuardedStream::new(tcp, slot, limits.write_timeout, metrics.clone())
            .with_socket_mark(became_socket.clone());
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(Peer(peer));
            request.extensions_mut().insert(became_socket.clone());
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
    /// Set once the connection is a game socket; `None` once its buffer is made small.
    became_socket: Option<BecameSocket>,
}

impl GuardedStream {
    fn new(tcp: TcpStream, slot: Slot, write_timeout: Duration, metrics: Metrics) -> Self {
        metrics.connections.inc();
        GuardedStream {
            tcp,
            _slot: slot,
            write_timeout,
            stalled: None,
            metrics,
            became_socket: None,
        }
    }

    fn with_socket_mark(mut self, mark: BecameSocket) -> Self {
        self.became_socket = Some(mark);
        self
    }

    /// Gives a game socket its small send buffer, the first time it writes as one.
    fn shrink_if_socket(&mut self) {
        if self.became_socket.as_ref().is_some_and(BecameSocket::is_marked) {
            self.became_socket = None;
            let _ = socket2::SockRef::from(&self.tcp).set_send_buffer_size(SOCKET_SEND_BUFFER);
        }
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
        self.shrink_if_socket();
        let poll = Pin::new(&mut self.tcp).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.shrink_if_socket();
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
