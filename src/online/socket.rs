//! The WebSocket to the server: opened on the page's own host at `/ws` (`wss:` when the page is
//! `https:`), text frames in and out, and one event when it closes or fails to open.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, MessageEvent, WebSocket};
use yew::Callback;

/// What the socket reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SocketEvent {
    /// It is open.
    Opened,
    /// A text frame came.
    Text(String),
    /// It closed, or could not open.
    Closed,
}

/// The server's WebSocket address for the page at `protocol` (`http:`, `https:`) and `host`.
#[must_use]
pub fn server_url(protocol: &str, host: &str) -> String {
    let scheme = if protocol == "https:" { "wss" } else { "ws" };
    format!("{scheme}://{host}/ws")
}

/// An open (or opening) socket; closing it and dropping it are the same.
pub struct Socket {
    socket: WebSocket,
    _on_open: Closure<dyn FnMut()>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
}

impl Socket {
    /// Opens a socket to the page's server; its events go to `report`. `None` when the browser
    /// refuses to (no window, a bad address).
    pub fn open(report: &Callback<SocketEvent>) -> Option<Socket> {
        let location = web_sys::window()?.location();
        let url = server_url(&location.protocol().ok()?, &location.host().ok()?);
        let socket = WebSocket::new(&url).ok()?;
        let on_open = {
            let report = report.clone();
            Closure::<dyn FnMut()>::new(move || report.emit(SocketEvent::Opened))
        };
        let on_message = {
            let report = report.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                // Text frames only: the protocol has no binary ones.
                if let Some(text) = event.data().as_string() {
                    report.emit(SocketEvent::Text(text));
                }
            })
        };
        let on_close = {
            let report = report.clone();
            Closure::<dyn FnMut(CloseEvent)>::new(move |_: CloseEvent| {
                report.emit(SocketEvent::Closed);
            })
        };
        socket.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        socket.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        socket.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        Some(Socket { socket, _on_open: on_open, _on_message: on_message, _on_close: on_close })
    }

    /// Sends a text frame; false when the socket is not open.
    pub fn send(&self, text: &str) -> bool {
        self.socket.ready_state() == WebSocket::OPEN && self.socket.send_with_str(text).is_ok()
    }
}

impl Drop for Socket {
    fn drop(&mut self) {
        // No more events from it (the closures are about to go), then close it.
        self.socket.set_onopen(None);
        self.socket.set_onmessage(None);
        self.socket.set_onclose(None);
        let _ = self.socket.close();
    }
}

#[cfg(test)]
mod tests {
    use super::server_url;

    #[test]
    fn the_server_is_on_the_pages_host() {
        assert_eq!(server_url("http:", "127.0.0.1:8080"), "ws://127.0.0.1:8080/ws");
        assert_eq!(server_url("https:", "qi.example"), "wss://qi.example/ws");
    }
}
