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
        /// Which of that node's outboxes for the socket sent them (a new one after one closed).
        ghost: u64,
        /// This packet's number in that outbox's stream, from 0: a gap means frames were lost.
        seq: u64,
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

/// The order of the frame packets one socket gets from each node: a packet that does not come
/// next in its stream (one was lost: a publish failed on the way) means the socket must
/// reconnect and resume, since some of its frames are gone.
#[derive(Debug, Default)]
pub(crate) struct FrameOrder {
    /// Per sending node: its current outbox and the next packet number expected from it.
    streams: std::collections::HashMap<u32, (u64, u64)>,
}

impl FrameOrder {
    /// Whether packet `seq` of outbox `ghost` of node `from` comes in order (then it is
    /// counted). A new outbox's stream starts at 0.
    pub(crate) fn next(&mut self, from: u32, ghost: u64, seq: u64) -> bool {
        let expected = match self.streams.get(&from) {
            Some(&(current, next)) if current == ghost => next,
            _ => 0,
        };
        if seq != expected {
            return false;
        }
        self.streams.insert(from, (ghost, seq + 1));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_frame_packet_is_noticed() {
        let mut order = FrameOrder::default();
        assert!(order.next(1, 7, 0));
        assert!(order.next(1, 7, 1));
        // Another node's stream is its own.
        assert!(order.next(2, 4, 0));
        // Packet 2 of node 1 was lost.
        assert!(!order.next(1, 7, 3));
        // A new outbox of node 1 (the old one closed) starts again at 0; not in the middle.
        let mut order = FrameOrder::default();
        assert!(order.next(1, 7, 0));
        assert!(order.next(1, 8, 0));
        assert!(order.next(1, 8, 1));
        assert!(!order.next(1, 9, 5), "a stream seen from its middle lost its start");
        assert!(!order.next(3, 1, 1));
    }

    #[test]
    fn packets_read_back_and_garbage_is_refused() {
        let packets = [
            Packet::Attach {
                req: 1,
                from: 2,
                conn: 3 << 40,
                address: "2001:db8::1".parse().unwrap(),
                game: "abc".into(),
                how: Attach::Invite {
                    invite: "i".into(),
                    player: crate::session::Player::anonymous("Bo".into()),
                },
                have_plies: Some(4),
            },
            Packet::Command {
                req: 2,
                from: 1,
                conn: 9,
                address: "10.0.0.1".parse().unwrap(),
                game: "abc".into(),
                command: Forwarded::Act {
                    action: Action::Game(qi_protocol::GameAction::OfferDraw),
                },
            },
            Packet::Reply {
                req: 2,
                reply: Reply::Denied { code: ErrorCode::RateLimited, detail: "x".into() },
            },
            Packet::Frames { from: 1, conn: 9, ghost: 3, seq: 0, texts: vec!["{}".into()] },
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
