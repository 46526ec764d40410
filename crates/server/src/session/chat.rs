//! A game's chat: the players' room and the spectators' room, each line checked, rate-limited
//! and stored with the game before anyone reads it.

use qi_protocol::{
    CHAT_RATE_MAX, CHAT_RATE_WINDOW_MS, CHAT_ROOM_MAX_LINES, ChatBody, ChatLine, ChatRoom,
    ErrorCode, QuickMessage, Seat, ServerMessage, clean_chat,
};

use std::net::IpAddr;

use super::{ConnId, Denied, Effects, Outgoing, Session};
use crate::limits::address_key;
use crate::storage::{Write, unix_ms};

/// Who a chat rate window counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Writer {
    /// A player, by seat (its index), so that reconnecting does not reset the window.
    Seat(usize),
    /// A spectator, by client address ([`address_key`]), so that opening more sockets does
    /// not either.
    Address(IpAddr),
    /// A spectator whose address is not known (the session alone, in tests), by connection.
    Connection(ConnId),
}

fn writer(seat: Option<Seat>, conn: ConnId, address: Option<IpAddr>) -> Writer {
    match (seat, address) {
        (Some(seat), _) => Writer::Seat(seat.index()),
        (None, Some(address)) => Writer::Address(address_key(address)),
        (None, None) => Writer::Connection(conn),
    }
}

/// The newest [`CHAT_ROOM_MAX_LINES`] lines of each room of `lines`, in their order.
pub(super) fn newest(lines: &[ChatLine]) -> Vec<ChatLine> {
    let mut kept = [0_usize; 2];
    let mut newest: Vec<ChatLine> = lines
        .iter()
        .rev()
        .filter(|line| {
            let count = &mut kept[usize::from(line.room == ChatRoom::Spectators)];
            *count += 1;
            *count <= CHAT_ROOM_MAX_LINES
        })
        .cloned()
        .collect();
    newest.reverse();
    newest
}

impl Session {
    /// The connections that read `room`.
    #[must_use]
    pub fn room_members(&self, room: ChatRoom) -> Vec<ConnId> {
        match room {
            ChatRoom::Players => {
                self.seats.iter().flat_map(|seat| seat.conns.iter()).copied().collect()
            }
            ChatRoom::Spectators => self.spectators.iter().copied().collect(),
        }
    }

    /// The room `conn` reads and writes, if it is in the game.
    fn room_of(&self, conn: ConnId) -> Option<ChatRoom> {
        if self.seat_of(conn).is_some() {
            Some(ChatRoom::Players)
        } else if self.spectators.contains(&conn) {
            Some(ChatRoom::Spectators)
        } else {
            None
        }
    }

    /// The chat `conn` may read: its own room's lines.
    pub(super) fn chat_for(&self, conn: ConnId) -> Vec<ChatLine> {
        let Some(room) = self.room_of(conn) else { return Vec::new() };
        self.chat.iter().filter(|line| line.room == room).cloned().collect()
    }

    /// Writes a line from `conn` (called `name`, at client `address` when known) in its room.
    ///
    /// # Errors
    /// [`Denied`] when `conn` is not in the game, the line does not read as a line (see
    /// [`clean_chat`]), the writer (a player's seat, a spectator's address) wrote
    /// [`CHAT_RATE_MAX`] lines within the last [`CHAT_RATE_WINDOW_MS`], or a spectator writes
    /// after the end; nothing changes.
    pub fn say(
        &mut self,
        conn: ConnId,
        address: Option<IpAddr>,
        name: &str,
        body: ChatBody,
        now: u64,
    ) -> Result<Effects, Denied> {
        let Some(room) = self.room_of(conn) else {
            return Err(Denied::new(ErrorCode::Unexpected, "you are not in this game"));
        };
        let body = match body {
            ChatBody::Text { text } => ChatBody::Text {
                text: clean_chat(&text)
                    .map_err(|error| Denied::new(ErrorCode::BadChat, error.to_string()))?,
            },
            ChatBody::Quick { code: QuickMessage::Unknown } | ChatBody::Unknown => {
                return Err(Denied::new(ErrorCode::BadChat, "not a message this server knows"));
            }
            quick @ ChatBody::Quick { .. } => quick,
        };
        // Spectators talk while the game is on; after it, the players may still say "good
        // game", but a finished game's page is not a notice board for anyone passing by.
        if room == ChatRoom::Spectators && self.result.is_some() {
            return Err(Denied::new(
                ErrorCode::BadChat,
                "the game is over: its spectators' chat is closed",
            ));
        }
        let seat = self.seat_of(conn);
        // Windows that have run out go, so that spectators who came and went leave nothing.
        self.chat_times.retain(|_, times| {
            times.back().is_some_and(|&last| now.saturating_sub(last) < CHAT_RATE_WINDOW_MS)
        });
        let times = self.chat_times.entry(writer(seat, conn, address)).or_default();
        while times.front().is_some_and(|&t| now.saturating_sub(t) >= CHAT_RATE_WINDOW_MS) {
            times.pop_front();
        }
        if times.len() >= CHAT_RATE_MAX {
            let wait = times.front().map_or(0, |&t| CHAT_RATE_WINDOW_MS - now.saturating_sub(t));
            let detail = format!(
                "at most {CHAT_RATE_MAX} messages in {} s; try again in {} s",
                CHAT_RATE_WINDOW_MS / 1000,
                wait.div_ceil(1000)
            );
            return Err(Denied::new(ErrorCode::BadChat, detail));
        }
        times.push_back(now);
        let name = match seat {
            Some(seat) => self.seats[seat.index()].name.clone().unwrap_or_default(),
            None => name.to_owned(),
        };
        let line = ChatLine { room, seat, name, body, unix_ms: unix_ms() };
        let chat = std::sync::Arc::make_mut(&mut self.chat);
        chat.push(line.clone());
        // A full room lets its oldest line go (it stays stored with the game).
        if chat.iter().filter(|kept| kept.room == room).count() > CHAT_ROOM_MAX_LINES
            && let Some(oldest) = chat.iter().position(|kept| kept.room == room)
        {
            chat.remove(oldest);
        }
        let game = self.id.clone();
        Ok(Effects {
            writes: vec![Write::Chat { game: game.clone(), line: line.clone() }],
            out: vec![Outgoing::Room(room, ServerMessage::Chat { game, line })],
            rematch: None,
        })
    }
}
