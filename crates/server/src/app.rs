//! The HTTP side: `/ws` upgrades to the game protocol (for pages of this site, or of the
//! origins allowed), `/healthz` and `/metrics` tell how the server is, and every other path
//! serves the built app ([`crate::assets`]); connections are accepted by [`crate::listener`].

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::assets::{Assets, add_common_headers};
use crate::clock::MonotonicClock;
use crate::connection::{self, ConnectionConfig, Frame, FrameError};
use crate::hub::Hub;
use crate::limits::{AddressCounts, Limit, Limits, client_address};
use crate::listener::{AcceptOptions, BecameSocket, Peer};
use crate::origins::{normalize_origin, origin_allowed};
use crate::storage::{SqliteStorage, StorageError, StorageHandle};

/// The largest frame the WebSocket layer reads at all. Frames between the protocol's 8 KiB and
/// this reach the connection, which closes with 1009; larger ones fail in the WebSocket layer,
/// and the connection closes with 1009 too.
const WS_FRAME_LIMIT: usize = 16 * 1024;
/// How long a stopping server waits for its connections to close.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// The file of the SQLite database in the data directory.
pub const DATABASE_FILE: &str = "qi.sqlite";

/// How the server is set up, beside its hub.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The built app to serve.
    pub dist: PathBuf,
    /// Timing of each game socket's liveness checks.
    pub connection: ConnectionConfig,
    /// The limits.
    pub limits: Limits,
    /// Reverse proxies whose `X-Forwarded-For` is believed (`--trust-proxy`).
    pub trusted_proxies: Vec<IpAddr>,
    /// Origins whose pages may open game sockets besides the server's own
    /// (`--allowed-origin`), as `scheme://host[:port]`.
    pub allowed_origins: Vec<String>,
    /// Whether tournaments run: their routes (`/api/tournaments…`) and the driver that starts
    /// them and their games. On by default; `--no-tournaments` turns them off.
    pub tournaments: bool,
}

impl Settings {
    /// The defaults, serving `dist`.
    #[must_use]
    pub fn new(dist: PathBuf) -> Settings {
        Settings {
            dist,
            connection: ConnectionConfig::default(),
            limits: Limits::default(),
            trusted_proxies: Vec::new(),
            allowed_origins: Vec::new(),
            tournaments: true,
        }
    }
}

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    config: ConnectionConfig,
    assets: Assets,
    /// Game sockets open per client address.
    sockets: Arc<AddressCounts>,
    trusted: Arc<[IpAddr]>,
    origins: Arc<[String]>,
    shutdown: CancellationToken,
    tracker: TaskTracker,
    /// The last storage probe of `/healthz` and when it was made: at most one a second reaches
    /// storage, however often `/healthz` is asked.
    health: Arc<tokio::sync::Mutex<Option<Probe>>>,
}

/// A storage probe of `/healthz`: when, and what it found.
type Probe = (std::time::Instant, Result<(), String>);

/// Opens the database in `data` (creating the directory), starts the hub with the real clock
/// and resumes every unfinished game. Returns the hub and how many games were resumed.
///
/// The directory is made (or set) mode 0700 and the database files 0600: only the server's
/// user may read them.
///
/// # Errors
/// [`StorageError`] when the directory or the database cannot be opened or read.
pub async fn open_hub(data: &Path) -> Result<(Arc<Hub>, usize), StorageError> {
    open_hub_with(data, Limits::default()).await
}

/// [`open_hub`] with other limits.
///
/// # Errors
/// As [`open_hub`].
pub async fn open_hub_with(data: &Path, limits: Limits) -> Result<(Arc<Hub>, usize), StorageError> {
    crate::storage::private_dir(data)?;
    let storage = SqliteStorage::open(&data.join(DATABASE_FILE))?;
    let hub =
        Hub::with_limits(StorageHandle::spawn(storage)?, Arc::new(MonotonicClock::new()), limits);
    let resumed = hub.restore().await?;
    Ok((hub, resumed))
}

/// Opens the hub of one node of a cluster (several nodes sharing PostgreSQL and Redis, see
/// [`crate::cluster`]); its work starts at once and stops with `shutdown`.
///
/// # Errors
/// [`StorageError`] when PostgreSQL or Redis cannot be reached.
pub async fn open_cluster_hub(
    config: crate::cluster::ClusterConfig,
    limits: Limits,
    shutdown: CancellationToken,
) -> Result<Arc<Hub>, StorageError> {
    let (cluster, storage) = crate::cluster::Cluster::join(config).await?;
    let storage = StorageHandle::spawn(storage)?;
    let hub =
        Hub::clustered(storage, Arc::new(MonotonicClock::new()), limits, Arc::clone(&cluster));
    let node: Arc<dyn crate::cluster::NodeGames> = hub.clone();
    cluster.start(&node, shutdown);
    Ok(hub)
}

fn router(
    hub: Arc<Hub>,
    settings: &Settings,
    shutdown: CancellationToken,
    tracker: TaskTracker,
) -> Router {
    let limits = &settings.limits;
    let trusted: Arc<[IpAddr]> = settings.trusted_proxies.clone().into();
    let cluster = hub.cluster().cloned();
    let origins: Arc<[String]> =
        settings.allowed_origins.iter().map(|o| normalize_origin(o)).collect();
    let made = crate::accounts::Accounts::new(
        hub.storage().clone(),
        Arc::clone(&trusted),
        Arc::clone(&origins),
        cluster,
    )
    .map(|accounts| accounts.with_puzzles(crate::puzzles::PuzzleBook::load(&settings.dist)));
    let accounts = match made {
        Ok(accounts) => Some(Arc::new(accounts)),
        Err(e) => {
            tracing::error!(error = %e, "accounts are off: the decoy hash could not be made");
            None
        }
    };
    let state = AppState {
        hub,
        config: settings.connection,
        assets: Assets::new(settings.dist.clone()),
        sockets: AddressCounts::new(limits.max_sockets_per_address, usize::MAX),
        trusted,
        origins,
        shutdown,
        tracker,
        health: Arc::default(),
    };
    let tournaments = settings.tournaments;
    let account_routes = accounts
        .map(|accounts| crate::accounts::AccountRoutes::new(accounts).router(tournaments))
        .unwrap_or_default();
    Router::new()
        .route("/ws", get(upgrade))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(account_routes)
        .fallback(files)
        .layer(axum::middleware::map_response(|mut response: Response| async move {
            add_common_headers(response.headers_mut());
            response
        }))
        .with_state(state)
}

/// Serves until `shutdown` is cancelled: then stops accepting, lets HTTP requests in flight
/// finish, and closes every game socket with 1012 (the client reconnects). Returns once every
/// connection is closed (or after [`DRAIN_TIMEOUT`]).
///
/// # Errors
/// The listener's I/O error.
pub async fn serve(
    listener: TcpListener,
    hub: Arc<Hub>,
    settings: Settings,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let tracker = TaskTracker::new();
    let router = router(Arc::clone(&hub), &settings, shutdown.clone(), tracker.clone());
    let sweeper = tokio::spawn(Arc::clone(&hub).sweep_every(shutdown.clone()));
    let lobby = tokio::spawn(Arc::clone(&hub).lobby_every(shutdown.clone()));
    let pairing = tokio::spawn(Arc::clone(&hub).pair_every(shutdown.clone()));
    let driver = settings.tournaments.then(|| {
        tokio::spawn(crate::tournaments::driver::drive_every(Arc::clone(&hub), shutdown.clone()))
    });
    let options = AcceptOptions {
        limits: settings.limits.clone(),
        trusted_proxies: settings.trusted_proxies.into(),
    };
    let accepted = crate::listener::accept(
        listener,
        router,
        options,
        hub.metrics().clone(),
        shutdown,
        tracker.clone(),
    )
    .await;
    tracker.close();
    if tokio::time::timeout(DRAIN_TIMEOUT, tracker.wait()).await.is_err() {
        tracing::warn!("connections still open after {DRAIN_TIMEOUT:?}; stopping anyway");
    }
    sweeper.abort();
    lobby.abort();
    pairing.abort();
    if let Some(driver) = driver {
        driver.abort();
    }
    accepted
}

/// The app's files.
async fn files(State(state): State<AppState>, request: Request) -> Response {
    let uri = request.uri();
    state.assets.respond(request.method(), uri.path(), uri.query(), request.headers()).await
}

/// `ok` while storage answers (probed at most once a second).
async fn healthz(State(state): State<AppState>) -> Response {
    let mut last = state.health.lock().await;
    let fresh = last.as_ref().filter(|(at, _)| at.elapsed() < Duration::from_secs(1));
    let outcome = match fresh {
        Some((_, outcome)) => outcome.clone(),
        None => {
            let probe = state.hub.storage().load(String::new());
            let outcome = match tokio::time::timeout(Duration::from_secs(2), probe).await {
                Ok(Ok(_)) => Ok(()),
                Ok(Err(e)) => Err(e.to_string()),
                Err(_) => Err("storage does not answer".to_owned()),
            };
            *last = Some((std::time::Instant::now(), outcome.clone()));
            outcome
        }
    };
    match outcome {
        Ok(()) => (StatusCode::OK, "ok\n").into_response(),
        Err(e) => (StatusCode::SERVICE_UNAVAILABLE, format!("{e}\n")).into_response(),
    }
}

/// The metrics, in Prometheus (OpenMetrics) text.
async fn metrics(State(state): State<AppState>) -> Response {
    let text = state.hub.render_metrics();
    let content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

async fn upgrade(
    State(state): State<AppState>,
    peer: Option<Extension<Peer>>,
    became_socket: Option<Extension<BecameSocket>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let peer = peer.map_or(IpAddr::from([127, 0, 0, 1]), |Extension(Peer(addr))| addr.ip());
    let forwarded: Vec<&str> =
        headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
    let client = client_address(peer, &forwarded, &state.trusted);
    let metrics = state.hub.metrics();
    if !origin_allowed(&headers, &state.origins, state.trusted.contains(&peer)) {
        metrics.refused(Limit::Origin);
        let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()).unwrap_or("?");
        tracing::debug!(%client, origin, "websocket from another origin refused");
        return (StatusCode::FORBIDDEN, "game sockets are for this site's own pages\n")
            .into_response();
    }
    let slot = match state.sockets.admit(Some(client)) {
        Ok(slot) => slot,
        Err(_) => {
            metrics.refused(Limit::SocketsPerAddress);
            return (StatusCode::TOO_MANY_REQUESTS, "too many game sockets from your address\n")
                .into_response();
        }
    };
    // Several nodes: the address's sockets on all of them count.
    let shared = match state.hub.cluster() {
        Some(cluster) => {
            match cluster.admit_socket(client, state.hub.limits().max_sockets_per_address).await {
                Ok(shared) => shared,
                Err(()) => {
                    metrics.refused(Limit::SocketsPerAddress);
                    return (
                        StatusCode::TOO_MANY_REQUESTS,
                        "too many game sockets from your address\n",
                    )
                        .into_response();
                }
            }
        }
        None => None,
    };
    if let Some(Extension(mark)) = became_socket {
        mark.mark();
    }
    let tracked = state.tracker.token();
    let session = crate::accounts::session_hash(&headers);
    ws.max_frame_size(WS_FRAME_LIMIT)
        .max_message_size(WS_FRAME_LIMIT)
        .read_buffer_size(WS_FRAME_LIMIT)
        .on_upgrade(move |socket| async move {
            let _tracked = tracked;
            let _slot = slot;
            let _shared = shared;
            serve_socket(state, socket, client, session).await;
        })
}

async fn serve_socket(state: AppState, socket: WebSocket, client: IpAddr, session: Option<String>) {
    let (sink, stream) = socket.split();
    let sink = sink.with(|frame: Frame| std::future::ready(Ok::<_, axum::Error>(message(frame))));
    let stream = stream.map(|item| item.map(frame).map_err(frame_error));
    let peer = connection::Peer { address: client, shutdown: state.shutdown.clone(), session };
    connection::serve_peer(peer, state.hub, state.config, Box::pin(sink), stream).await;
}

fn message(frame: Frame) -> Message {
    match frame {
        Frame::Text(text) => Message::Text(text.into()),
        Frame::Binary(bytes) => Message::Binary(bytes.into()),
        Frame::Ping(bytes) => Message::Ping(bytes.into()),
        Frame::Pong(bytes) => Message::Pong(bytes.into()),
        Frame::Close(code) => {
            Message::Close(code.map(|code| CloseFrame { code, reason: "".into() }))
        }
    }
}

fn frame(message: Message) -> Frame {
    match message {
        Message::Text(text) => Frame::Text(text.as_str().to_owned()),
        Message::Binary(bytes) => Frame::Binary(bytes.to_vec()),
        Message::Ping(bytes) => Frame::Ping(bytes.to_vec()),
        Message::Pong(bytes) => Frame::Pong(bytes.to_vec()),
        Message::Close(close) => Frame::Close(close.map(|c| c.code)),
    }
}

fn frame_error(error: axum::Error) -> FrameError {
    let inner = error.into_inner();
    match inner.downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Capacity(_)) => FrameError::TooBig,
        Some(tungstenite::Error::Utf8(_)) => FrameError::BadUtf8,
        _ => FrameError::Broken,
    }
}

/// Raises this process's open-file limit to the hard limit, so that thousands of sockets fit;
/// returns the limit in force.
#[must_use]
pub fn raise_fd_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current < limit.maximum {
        let raised = rustix::process::Rlimit { current: limit.maximum, maximum: limit.maximum };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            return limit.maximum;
        }
    }
    limit.current
}
