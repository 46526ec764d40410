//! What the player does, turned into messages for the server.

use qi_protocol::GameAction;
use qi_protocol::{ChatBody, ClientMessage, Status, clean_chat};

use super::{Effect, Focus, Intent, Link, Session, clean_name, id_ok};
use crate::online::game::Note;
use crate::online::texts::Words;

impl Session {
    /// Something the player did.
    pub fn intent(&mut self, intent: Intent, _now: f64) -> Vec<Effect> {
        match intent {
            Intent::SetName(name) => {
                self.name = clean_name(&name);
                Vec::new()
            }
            Intent::SetLanguage(lang) => {
                self.settings.lang = lang;
                if let Some(game) = self.focus.as_mut().and_then(|focus| focus.game.as_mut()) {
                    std::rc::Rc::make_mut(&mut game.board).settings.lang = lang;
                }
                Vec::new()
            }
            Intent::Create { spec, seat, listed } => {
                self.note = None;
                self.expecting_seat = true;
                if listed {
                    self.request(ClientMessage::Challenge { spec, seat })
                } else {
                    self.request(ClientMessage::Create { spec, seat })
                }
            }
            Intent::Accept(game) => {
                if !id_ok(&game) {
                    return Vec::new();
                }
                self.note = None;
                self.seeking = None;
                let mut focus = Focus::new(game.clone(), None);
                focus.joining = true;
                self.focus = Some(focus);
                self.expecting_seat = true;
                let mut out = self.send_now(ClientMessage::LeaveLobby);
                out.extend(self.request(ClientMessage::Accept { game }));
                // Back in the lobby (the challenge was gone), it is followed again.
                self.following = None;
                out
            }
            Intent::FollowLobby { variant, seek } => {
                let wanted = Some((variant, seek));
                if wanted == self.following {
                    return Vec::new();
                }
                self.following = wanted;
                match self.follow_message() {
                    Some(message) => self.send_now(message),
                    None => Vec::new(),
                }
            }
            Intent::Seek(spec) => {
                self.note = None;
                self.expecting_seat = true;
                self.seeking = Some(spec.clone());
                self.request(ClientMessage::Seek { spec })
            }
            Intent::CancelSeek => {
                self.seeking = None;
                self.expecting_seat = false;
                self.queued.retain(|m| !matches!(m, ClientMessage::Seek { .. }));
                self.send_now(ClientMessage::CancelSeek)
            }
            Intent::Join => {
                let Some((game, invite)) = self.invite.take() else { return Vec::new() };
                let mut focus = Focus::new(game.clone(), None);
                focus.joining = true;
                self.focus = Some(focus);
                self.expecting_seat = true;
                self.request(ClientMessage::Join { game, invite })
            }
            Intent::Board(action) => {
                let ready = self.link == Link::Ready;
                let Some(online) = self.focus.as_mut().and_then(|f| f.game.as_mut()) else {
                    return Vec::new();
                };
                let Some(text) = online.board_action(*action) else { return Vec::new() };
                let ply = online.moves.len() as u32;
                let message = ClientMessage::Move { game: online.id.clone(), ply, text };
                // Not connected: the move goes when the connection is back (see `welcome`).
                if ready { vec![Effect::Send(message)] } else { Vec::new() }
            }
            Intent::Act(action) => self.game_intent(action),
            Intent::Chat(body) => self.chat(body),
            Intent::ToggleMute => match &mut self.focus {
                Some(focus) => {
                    focus.muted = !focus.muted;
                    vec![Effect::SaveMute { game: focus.id.clone(), muted: focus.muted }]
                }
                None => Vec::new(),
            },
            Intent::Retry => match self.link {
                Link::Retrying { .. } => {
                    self.link = Link::Connecting;
                    vec![Effect::Connect { after_ms: 0 }]
                }
                _ => Vec::new(),
            },
        }
    }

    fn game_intent(&mut self, action: GameAction) -> Vec<Effect> {
        let ready = self.link == Link::Ready;
        let Some(online) = self.focus.as_mut().and_then(|f| f.game.as_mut()) else {
            return Vec::new();
        };
        let Some(you) = online.you else { return Vec::new() };
        if !ready {
            return Vec::new();
        }
        let game = online.id.clone();
        let playing = online.status == Status::Playing;
        let sent = match action {
            GameAction::Resign if playing => true,
            GameAction::OfferDraw if playing => {
                if online.draw_offer.is_none() {
                    online.draw_offer = Some(you);
                }
                true
            }
            GameAction::DeclineDraw if playing => {
                online.draw_offer = None;
                true
            }
            GameAction::Abort if playing || online.status == Status::Waiting => true,
            GameAction::ClaimWin if playing => true,
            GameAction::ProposeTakeback if online.can_ask_takeback() => {
                online.takeback_offer = Some(you);
                true
            }
            GameAction::AcceptTakeback if playing && online.takeback_offer == Some(you.other()) => {
                online.takeback_offer = None;
                true
            }
            GameAction::DeclineTakeback
                if playing && online.takeback_offer == Some(you.other()) =>
            {
                online.takeback_offer = None;
                true
            }
            GameAction::Rematch if matches!(online.status, Status::Ended { .. }) => {
                if online.rematch_offer.is_none() {
                    online.rematch_offer = Some(you);
                }
                self.expecting_seat = true;
                true
            }
            _ => false,
        };
        if !sent {
            return Vec::new();
        }
        vec![Effect::Send(ClientMessage::Act { game, action })]
    }

    /// A line for the chat of the game shown (a player's or a spectator's): checked here first,
    /// so that a line the server would refuse says why at once.
    fn chat(&mut self, body: ChatBody) -> Vec<Effect> {
        let ready = self.link == Link::Ready;
        let Some(online) = self.focus.as_mut().and_then(|f| f.game.as_mut()) else {
            return Vec::new();
        };
        let body = match body {
            ChatBody::Text { text } => match clean_chat(&text) {
                Ok(text) => ChatBody::Text { text },
                Err(refused) => {
                    online.note = Some(Note::Server(Words::ErrorBadChat, refused.to_string()));
                    return Vec::new();
                }
            },
            ChatBody::Quick { code: qi_protocol::QuickMessage::Unknown } | ChatBody::Unknown => {
                return Vec::new();
            }
            quick @ ChatBody::Quick { .. } => quick,
        };
        if !ready {
            return Vec::new();
        }
        vec![Effect::Send(ClientMessage::Chat { game: online.id.clone(), body })]
    }
}
