//! The HTTP side: `/ws` upgrades to the game protocol, every other path serves the built app
//! (`index.html` for a directory), so online play works from one address.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use axum::serve::ListenerExt;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tower_http::services::ServeDir;

use crate::clock::MonotonicClock;
use crate::connection::{self, ConnectionConfig, Frame, FrameError};
use crate::hub::Hub;
use crate::storage::{SqliteStorage, StorageError, StorageHandle};

/// The largest frame the WebSocket layer reads at all. Frames between the protocol's 8 KiB and
/// this reach the connection, which closes with 1009; larger ones fail in the WebSocket layer,
/// and the connection closes with 1009 too.
const WS_FRAME_LIMIT: usize = 16 * 1024;
/// The kernel send buffer asked for each socket (Linux doubles it). Messages are small; a small
/// buffer keeps memory low with thousands of sockets and lets the outbox limit find a client
/// that does not read soon.
const SOCKET_SEND_BUFFER: usize = 8 * 1024;
/// The file of the SQLite database in the data directory.
pub const DATABASE_FILE: &str = "qi.sqlite";

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    config: ConnectionConfig,
}

/// Opens the database in `data` (creating the directory), starts the hub with the real clock
/// and resumes every unfinished game. Returns the hub and how many games were resumed.
///
/// The directory is made (or set) mode 0700 and the database files 0600: only the server's
/// user may read them.
///
/// # Errors
/// [`StorageError`] when the directory or the database cannot be opened or read.
pub async fn open_hub(data: &Path) -> Result<(Arc<Hub>, usize), StorageError> {
    crate::storage::private_dir(data)?;
    let storage = SqliteStorage::open(&data.join(DATABASE_FILE))?;
    let hub = Hub::new(StorageHandle::spawn(storage)?, Arc::new(MonotonicClock::new()));
    let resumed = hub.restore().await?;
    Ok((hub, resumed))
}

/// The routes: `/ws` and the files of `dist`.
pub fn router(hub: Arc<Hub>, dist: PathBuf, config: ConnectionConfig) -> Router {
    Router::new()
        .route("/ws", get(upgrade))
        .fallback_service(ServeDir::new(dist).append_index_html_on_directories(true))
        .with_state(AppState { hub, config })
}

/// Serves until the listener fails.
///
/// # Errors
/// The listener's I/O error.
pub async fn serve(
    listener: TcpListener,
    hub: Arc<Hub>,
    dist: PathBuf,
    config: ConnectionConfig,
) -> std::io::Result<()> {
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
        let _ = socket2::SockRef::from(&*tcp).set_send_buffer_size(SOCKET_SEND_BUFFER);
    });
    axum::serve(listener, router(hub, dist, config)).await
}

async fn upgrade(State(state): State<AppState>, ws: WebSocketUpgrade) -> Response {
    ws.max_frame_size(WS_FRAME_LIMIT)
        .max_message_size(WS_FRAME_LIMIT)
        .read_buffer_size(WS_FRAME_LIMIT)
        .on_upgrade(move |socket| serve_socket(state, socket))
}

async fn serve_socket(state: AppState, socket: WebSocket) {
    let (sink, stream) = socket.split();
    let sink = sink.with(|frame: Frame| std::future::ready(Ok::<_, axum::Error>(message(frame))));
    let stream = stream.map(|item| item.map(frame).map_err(frame_error));
    connection::serve(state.hub, state.config, Box::pin(sink), stream).await;
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
