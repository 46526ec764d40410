//! A connection's outbox: the bounded queue of frames waiting to be written to it, and the way
//! to have it closed. Games write to it without ever waiting: a client that does not read is
//! dropped once [`OUTBOX_MAX`] messages wait for it, so it can slow nobody else down.

use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};

use qi_protocol::{OUTBOX_MAX, ServerMessage};
use tokio::sync::{Notify, mpsc};

/// Close code: the client broke a rule (too many messages, did not read its messages).
pub const CLOSE_POLICY: u16 = 1008;
/// Close code: a frame was larger than the protocol allows.
pub const CLOSE_TOO_BIG: u16 = 1009;
/// Close code: a text frame was not UTF-8.
pub const CLOSE_BAD_DATA: u16 = 1007;
/// Close code: the client speaks another version of the protocol.
pub const CLOSE_PROTOCOL: u16 = 1002;
/// Close code: the server is restarting; the client should reconnect.
pub const CLOSE_RESTART: u16 = 1012;
/// Close code: the peer stopped answering.
pub const CLOSE_GOING_AWAY: u16 = 1001;

/// The request to close a connection, with its close code, seen by its send task.
#[derive(Debug, Default)]
pub struct Closer {
    code: AtomicU16,
    notify: Notify,
}

impl Closer {
    /// Asks for the connection to be closed with `code` (the first request wins).
    pub fn close(&self, code: u16) {
        if self.code.compare_exchange(0, code, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            self.notify.notify_one();
        }
    }

    /// The close code asked for, if any.
    #[must_use]
    pub fn code(&self) -> Option<u16> {
        Some(self.code.load(Ordering::SeqCst)).filter(|&code| code != 0)
    }

    /// Waits until a close is asked for.
    pub async fn closed(&self) {
        while self.code().is_none() {
            self.notify.notified().await;
        }
    }
}

/// Where to put messages for one connection; clones share it.
#[derive(Clone, Debug)]
pub struct Outbox {
    queue: mpsc::Sender<Arc<str>>,
    closer: Arc<Closer>,
}

impl Outbox {
    /// A new outbox and the receiving end its send task reads.
    #[must_use]
    pub fn new() -> (Outbox, mpsc::Receiver<Arc<str>>) {
        let (queue, frames) = mpsc::channel(OUTBOX_MAX);
        (Outbox { queue, closer: Arc::new(Closer::default()) }, frames)
    }

    /// Queues a frame's text without waiting. Returns false if the connection is gone or has
    /// just been dropped for not reading (its queue was full).
    pub fn send_text(&self, text: Arc<str>) -> bool {
        match self.queue.try_send(text) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close(CLOSE_POLICY);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Queues a message; as [`Outbox::send_text`].
    pub fn send(&self, message: &ServerMessage) -> bool {
        self.send_text(message.to_json().into())
    }

    /// Asks for the connection to be closed with `code`.
    pub fn close(&self, code: u16) {
        self.closer.close(code);
    }

    /// Whether the connection is closed or closing.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.queue.is_closed() || self.closer.code().is_some()
    }

    /// The close request shared with the connection's send task.
    #[must_use]
    pub fn closer(&self) -> Arc<Closer> {
        Arc::clone(&self.closer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_outbox_closes_the_connection() {
        let (outbox, mut frames) = Outbox::new();
        for _ in 0..OUTBOX_MAX {
            assert!(outbox.send_text("x".into()));
        }
        assert!(!outbox.is_closed());
        assert!(!outbox.send_text("one too many".into()));
        assert_eq!(outbox.closer().code(), Some(CLOSE_POLICY));
        assert!(outbox.is_closed());
        assert_eq!(frames.try_recv().ok().as_deref(), Some("x"));
    }

    #[test]
    fn the_first_close_code_wins() {
        let (outbox, _frames) = Outbox::new();
        outbox.close(CLOSE_TOO_BIG);
        outbox.close(CLOSE_POLICY);
        assert_eq!(outbox.closer().code(), Some(CLOSE_TOO_BIG));
    }
}
