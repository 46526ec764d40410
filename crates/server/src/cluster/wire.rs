//! What nodes say to each other over Redis: one JSON [`Packet`] a message, published on the
//! channel of the node it is for (`qi:n:{node}`). Redis is inside the site's network, reached by
//! nodes alone; still, a packet that does not read is logged and dropped, never trusted.

use std::net::IpAddr;

use qi_protocol::{ErrorCode, Seat};
use serde::{Deserialize, Serialize};

use crate::session::{Action, Attach, ConnId};

/// A command other than coming into the game, forwarded to the game's node.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Forwarded {
    /// A move.
    Move {
        /// The ply.
        ply: u32,
        /// The move.
        text: String,
        /// The socket's measured lag.
        lag_ms: u64,
    },
    /// Another action.
    Act {
        /// What.
        action: Action,
    },
}

/// The game's node's answer to [`Packet::Attach`] and [`Packet::Command`].
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reply {
    /// Done (a command: queued for the game).
    Done,
    /// Turned down, with the error for the socket.
    Denied {
        /// The code.
        code: ErrorCode,
        /// Details for people.
        detail: String,
    },
    /// The game's task was stopping: look it up again.
    Retry,
    /// That node does not run the game (any more).
    NotOwner,
    /// No answer came (never sent: what the asker concludes).
    Unreachable,
}

/// One message between nodes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Packet {
    /// Socket `conn` of node `from` comes into `game`; answered with [`Packet::Reply`].
    Attach {
        /// The request, for the reply.
        req: u64,
        /// The asking node.
        from: u32,
        /// Its socket.
        conn: ConnId,
        /// The socket's client address (for the limits per address).
        address: IpAddr,
        /// The game.
        game: String,
        /// As what.
        how: Attach,
        /// How many moves the page has.
        have_plies: Option<u32>,
    },
    /// A move or action of socket `conn` of node `from` in `game`; answered with
    /// [`Packet::Reply`].
    Command {
        /// The request, for the reply.
        req: u64,
        /// The asking node.
        from: u32,
        /// Its socket.
        conn: ConnId,
        /// The socket's client address.
        address: IpAddr,
        /// The game.
        game: String,
        /// What.
        command: Forwarded,
    },
    /// Socket `conn` leaves `game` (it let the game go to make room).
    Detach {
        /// The socket.
        conn: ConnId,
        /// The game.
        game: String,
    },
    /// Socket `conn` closed: it leaves every game of the node.
    Disconnect {
        /// The socket.
        conn: ConnId,
    },
    /// The answer to request `req`.
    Reply {
        /// The request.
        req: u64,
        /// The answer.
        reply: Reply,
    },
    /// Frames for socket `conn`, from games of node `from`.
    Frames {
        /// The node they come from.
        from: u32,
        /// The socket.
        conn: ConnId,
        /// The frames' texts, in order.
        texts: Vec<String>,
    },
    /// The game's node dropped socket `conn` (it did not read, or the node gave up its games):
    /// close it with `code`.
    Close {
        /// The node it comes from.
        from: u32,
        /// The socket.
        conn: ConnId,
        /// The close code.
        code: u16,
    },
    /// Is seeker `conn` of this node still waiting with `entry`? If so it is taken for a game
    /// (answered `Done`), else `Retry`.
    TakeSeeker {
        /// The request, for the reply.
        req: u64,
        /// The asking node.
        from: u32,
        /// The seeker's socket.
        conn: ConnId,
        /// Its queue entry, as popped.
        entry: String,
    },
    /// Seeker `conn`, taken, gets no game after all: it is told why.
    SeekRefused {
        /// The seeker's socket.
        conn: ConnId,
        /// The error's code.
        code: ErrorCode,
        /// Why.
        detail: String,
    },
    /// Seeker `conn` was paired into `game`, run by node `owner`, in `seat`.
    Paired {
        /// The node that made the game.
        owner: u32,
        /// The game.
        game: String,
        /// The seeker's socket.
        conn: ConnId,
        /// Its seat.
        seat: Seat,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_read_back_and_garbage_is_refused() {
        let packets = [
            Packet::Attach {
                req: 1,
                from: 2,
                conn: 3 << 40,
                address: "2001:db8::1".parse().unwrap(),
                game: "abc".into(),
                how: Attach::Invite { invite: "i".into(), name: "Bo".into() },
                have_plies: Some(4),
            },
            Packet::Command {
                req: 2,
                from: 1,
                conn: 9,
                address: "10.0.0.1".parse().unwrap(),
                game: "abc".into(),
                command: Forwarded::Act { action: Action::OfferDraw },
            },
            Packet::Reply {
                req: 2,
                reply: Reply::Denied { code: ErrorCode::RateLimited, detail: "x".into() },
            },
            Packet::Frames { from: 1, conn: 9, texts: vec!["{}".into(), "[]".into()] },
            Packet::Paired { owner: 1, game: "g".into(), conn: 5, seat: Seat::Second },
        ];
        for packet in packets {
            let text = serde_json::to_string(&packet).unwrap();
            assert_eq!(serde_json::from_str::<Packet>(&text).unwrap(), packet, "{text}");
        }
        for garbage in ["", "{}", r#"{"type":"attach"}"#, r#"{"type":"reply","req":-1}"#] {
            assert!(serde_json::from_str::<Packet>(garbage).is_err(), "{garbage}");
        }
    }
}
