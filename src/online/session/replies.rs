//! The session's answers to the server's messages that need more than a line: a seat, a game's
//! state, a refused move, an error.

use qi_protocol::{ClientMessage, ErrorCode, GameView, Refusal, Seat};

use super::{DETAIL_MAX_CHARS, Effect, Focus, Link, Session, id_ok};
use crate::online::game::{Note, OnlineGame};
use crate::online::texts::Words;
use crate::online::texts::shown_text;

/// Whether a `bad_name` error's detail says that the name is a registered player's (or looks
/// like one): the code alone does not tell it from a name with characters that may not be in
/// one, so the server's detail is read (crates/server/src/connection/mod.rs, `hello`).
fn names_an_account(detail: &str) -> bool {
    detail.contains("registered player")
}

impl Session {
    /// The server refused the name `Hello` gave, and waits for another hello on the same
    /// socket. What was asked under that name is dropped (an invite goes back to its card, a
    /// challenge accepted back to the lobby), the name is cleared, and the page says hello
    /// without one: the lobby works while the note says why and the player types another name.
    fn name_refused(&mut self) -> Vec<Effect> {
        for message in std::mem::take(&mut self.queued) {
            if let ClientMessage::Join { game, invite } = message {
                self.invite = Some((game, invite));
            }
        }
        if self.focus.as_ref().is_some_and(|focus| focus.joining && focus.game.is_none()) {
            self.focus = None;
        }
        self.expecting_seat = false;
        self.seeking = None;
        self.name.clear();
        self.opened()
    }

    pub(super) fn seated(
        &mut self,
        game: String,
        token: String,
        seat: Seat,
        invite: Option<String>,
    ) -> Vec<Effect> {
        let current = self.focus.as_ref().is_some_and(|focus| focus.id == game);
        if !id_ok(&game) || !id_ok(&token) || !(current || self.expecting_seat) {
            return Vec::new();
        }
        self.expecting_seat = false;
        self.seeking = None;
        self.invite = None;
        self.note = None;
        if !current {
            self.focus = Some(Focus::new(game.clone(), None));
        }
        if let Some(focus) = &mut self.focus {
            focus.token = Some(token.clone());
            focus.invite = invite.filter(|invite| id_ok(invite));
            focus.joining = false;
            focus.seat = Some(seat);
            if let Some(online) = &mut focus.game
                && online.you != Some(seat)
            {
                online.you = Some(seat);
                std::rc::Rc::make_mut(&mut online.board).flipped = seat == Seat::Second;
                online.sync_board();
            }
        }
        let mut out =
            vec![Effect::SaveSeat { game: game.clone(), token }, Effect::ShowAddress(Some(game))];
        // Out of the lobby now: its rows would only be thrown away.
        if self.following.take().is_some() && self.link == Link::Ready {
            out.push(Effect::Send(ClientMessage::LeaveLobby));
        }
        out
    }

    pub(super) fn state(&mut self, view: &GameView, now: f64) -> Vec<Effect> {
        let settings = self.settings.clone();
        let Some(focus) = self.focus.as_mut().filter(|focus| focus.id == view.game) else {
            return Vec::new();
        };
        // A player's view names their seat; should it not, the seat the server gave stands.
        let mut view = view.clone();
        if view.you.is_none() && focus.token.is_some() {
            view.you = focus.seat;
        }
        let view = &view;
        let taken = match &mut focus.game {
            Some(online) => online.merge_view(view, now),
            None if view.from_ply == 0 => match OnlineGame::from_view(view, &settings, now) {
                Some(online) => {
                    focus.game = Some(online);
                    true
                }
                None => false,
            },
            None => {
                // Moves from a ply this page does not have: ask for the whole game.
                self.resync_asked = false;
                let token = focus.token.clone();
                let message = self.enter_message(view.game.clone(), token.as_ref(), None);
                return self.send_now(message);
            }
        };
        if taken {
            self.resync_asked = false;
            if let Some(focus) = &mut self.focus {
                focus.joining = false;
            }
        } else {
            self.note = Some(Note::Say(Words::ServerNonsense));
        }
        Vec::new()
    }

    pub(super) fn refused(&mut self, game: &str, ply: u32, reason: Refusal) -> Vec<Effect> {
        let Some(online) = self.game_mut(game) else { return Vec::new() };
        let known = online.moves.len();
        if online.pending.as_ref().is_none_or(|p| p.ply as u64 != u64::from(ply)) {
            return Vec::new();
        }
        let note = match &reason {
            // The rules' reason, as the server's rules found it (they know what a face-down
            // banqi piece is; the page does not).
            Refusal::Illegal { reason } => Note::Rules(*reason),
            Refusal::Unreadable => Note::Say(Words::RefusedIllegal),
            Refusal::NotYourTurn => Note::Say(Words::RefusedNotYourTurn),
            Refusal::WrongPly { .. } => Note::Say(Words::RefusedWrongPly),
            Refusal::NotPlaying => Note::Say(Words::RefusedNotPlaying),
            Refusal::NotAPlayer => Note::Say(Words::RefusedNotAPlayer),
        };
        online.take_back(note);
        match reason {
            Refusal::WrongPly { expected } if u64::from(expected) != known as u64 => self.resync(),
            _ => Vec::new(),
        }
    }

    pub(super) fn error(&mut self, code: ErrorCode, detail: &str) -> Vec<Effect> {
        let words = match code {
            ErrorCode::VersionMismatch => {
                self.link = Link::Outdated;
                return Vec::new();
            }
            ErrorCode::BadMessage => Words::ErrorBadMessage,
            ErrorCode::Unexpected => Words::ErrorUnexpected,
            ErrorCode::BadName if names_an_account(detail) => Words::ErrorNameTaken,
            ErrorCode::BadName => Words::ErrorBadName,
            ErrorCode::UnknownGame => Words::ErrorUnknownGame,
            ErrorCode::BadToken => Words::ErrorBadToken,
            ErrorCode::SeatTaken => Words::ErrorSeatTaken,
            ErrorCode::BadSpec => Words::ErrorBadSpec,
            ErrorCode::TooManyGames => Words::ErrorTooManyGames,
            ErrorCode::RateLimited => Words::ErrorRateLimited,
            ErrorCode::BadChat => Words::ErrorBadChat,
            ErrorCode::NoTakeback => Words::ErrorNoTakeback,
            ErrorCode::NeedsAccount => Words::ErrorNeedsAccount,
            ErrorCode::Other => Words::ErrorUnexpected,
        };
        let note = Note::Server(words, shown_text(detail, DETAIL_MAX_CHARS));
        self.note = Some(note.clone());
        if code == ErrorCode::BadName && self.link == Link::Greeting {
            return self.name_refused();
        }
        let mut out = Vec::new();
        // A takeback this page asked for and the server refused: no request stands.
        if code == ErrorCode::NoTakeback
            && let Some(online) = self.focus.as_mut().and_then(|focus| focus.game.as_mut())
            && online.takeback_offer.is_some()
            && online.takeback_offer == online.you
        {
            online.takeback_offer = None;
        }
        // An error instead of an answer to the pending move (the server busy, its storage
        // failing): take the move back, and ask for the game again in case it was played.
        let pending = self.focus.as_mut().and_then(|focus| focus.game.as_mut());
        if let Some(online) = pending.filter(|online| online.pending.is_some()) {
            online.take_back(note);
            out.extend(self.resync());
        }
        if let Some(focus) = &mut self.focus
            && focus.game.is_none()
        {
            let game = focus.id.clone();
            match code {
                // No such game: back to the lobby (followed again).
                ErrorCode::UnknownGame => {
                    if focus.token.is_some() {
                        out.push(Effect::ForgetSeat { game });
                    }
                    self.focus = None;
                    self.expecting_seat = false;
                    out.push(Effect::ShowAddress(None));
                    out.extend(self.follow_message().and_then(|m| self.send_now(m).pop()));
                }
                // The invite or the kept seat is not good: come in as the account (its seat, if it
                // holds one — another tab may have been given a new token), else watch.
                ErrorCode::BadToken | ErrorCode::SeatTaken
                    if focus.joining || focus.token.is_some() =>
                {
                    if focus.token.take().is_some() {
                        out.push(Effect::ForgetSeat { game: game.clone() });
                    }
                    focus.joining = false;
                    self.expecting_seat = false;
                    let message = self.enter_message(game, None, None);
                    out.extend(self.send_now(message));
                }
                _ => {}
            }
        }
        out
    }
}
