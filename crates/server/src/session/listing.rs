//! How a game shows in the lobby: an open challenge while its creator waits for an opponent,
//! then a game being played.

use qi_protocol::{ChallengeRow, LiveRow, Seat};
use qi_rules::Game;
use qi_rules::any::AnyGame;

use super::Session;

/// A game's row in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Waiting for anyone to accept.
    Challenge(ChallengeRow),
    /// Being played.
    Live(LiveRow),
}

impl Listing {
    /// The game id.
    #[must_use]
    pub fn game(&self) -> &str {
        match self {
            Listing::Challenge(row) => &row.game,
            Listing::Live(row) => &row.game,
        }
    }
}

impl Session {
    /// The game's row in the lobby now, if it has one: a listed game with a free seat whose
    /// creator is there, or a listed game being played with a player there.
    #[must_use]
    pub fn listing(&self) -> Option<Listing> {
        if !self.listed || self.result.is_some() {
            return None;
        }
        let name = |seat: Seat| self.seats[seat.index()].name.clone().unwrap_or_default();
        if self.is_playing() {
            // A game both players left is not shown as being played (nor featured).
            if self.seats.iter().all(|seat| seat.conns.is_empty()) {
                return None;
            }
            // Banqi: the position as everyone sees it, every face-down piece unknown.
            let position = match &self.game {
                AnyGame::Banqi(banqi) => banqi.conceal().position(),
                other => other.position(),
            };
            return Some(Listing::Live(LiveRow {
                game: self.id.clone(),
                spec: self.spec.clone(),
                names: [name(Seat::First), name(Seat::Second)],
                ratings: [self.seats[0].rating, self.seats[1].rating],
                watchers: self.watchers(),
                position,
                plies: self.plies(),
                last: self.moves.last().map(|mv| mv.text.clone()),
            }));
        }
        let creator = [Seat::First, Seat::Second].into_iter().find(|&seat| {
            let state = &self.seats[seat.index()];
            state.name.is_some() && !state.conns.is_empty()
        })?;
        Some(Listing::Challenge(ChallengeRow {
            game: self.id.clone(),
            spec: self.spec.clone(),
            seat: creator,
            name: name(creator),
            rating: self.seats[creator.index()].rating,
            created_unix_ms: self.created_unix_ms,
        }))
    }
}
