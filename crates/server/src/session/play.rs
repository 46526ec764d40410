//! Moves, the clocks, and the players' other actions: resign, draws, abort, rematch and
//! claiming a win over an absent opponent.

use qi_protocol::{EndReason, ErrorCode, GameResult, PlayedMove, Refusal, Seat, ServerMessage};
use qi_rules::MoveError;

use super::{Denied, Effects, Outgoing, RematchPlan, Session, reveal_of, seat_of_side};
use crate::clock::Flagged;
use crate::session::ConnId;
use crate::storage::{MoveRecord, Write, unix_ms};

/// A player's action other than a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Give up.
    Resign,
    /// Offer a draw, or accept the opponent's offer.
    OfferDraw,
    /// Decline the opponent's offer.
    DeclineDraw,
    /// End the game before both sides have moved; nobody wins.
    Abort,
    /// Ask for a rematch (both asking starts it).
    Rematch,
    /// Win because the opponent has been away past the grace period.
    ClaimWin,
}

fn refusal_of(error: MoveError) -> Refusal {
    match error {
        MoveError::Parse(_) => Refusal::Unreadable,
        // The reason only: it never depends on a face-down banqi piece's identity.
        MoveError::Illegal(illegal) => {
            Refusal::Illegal { detail: illegal.reason.describe().to_owned() }
        }
    }
}

fn not_playing(what: &str) -> Denied {
    Denied::new(ErrorCode::Unexpected, format!("{what}: the game is not being played"))
}

impl Session {
    /// How the rules ended the game, if they have.
    pub(super) fn rules_result(&self) -> Option<GameResult> {
        let outcome = self.game.outcome()?;
        Some(GameResult {
            winner: outcome.winner.map(seat_of_side),
            reason: EndReason::Rules { detail: outcome.reason.describe().to_owned() },
        })
    }

    /// Whether each seat has made a move: clocks run from then on, and abort is too late.
    fn both_have_moved(&self) -> bool {
        self.movers.contains(&Seat::First) && self.movers.contains(&Seat::Second)
    }

    /// Starts the clock of the side to move if the game is under way.
    pub(super) fn start_clock(&mut self, now: u64) {
        let next = self.next_clock();
        if let (Some(clock), Some(seat)) = (&mut self.clock, next) {
            clock.start(seat, now);
        }
    }

    /// Whose clock should run now.
    fn next_clock(&self) -> Option<Seat> {
        (self.is_playing() && self.both_have_moved())
            .then(|| seat_of_side(self.game.side_to_move()))
    }

    /// When the running clock's flag falls, if one runs.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        self.clock.as_ref().filter(|_| self.is_playing())?.flag_deadline()
    }

    /// Ends the game: stores the result and tells everyone (banqi: with the whole deal).
    fn finish(&mut self, result: GameResult, now: u64, effects: &mut Effects) {
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
        self.draw_offer = None;
        self.result = Some(result.clone());
        effects.writes.push(Write::Finish {
            game: self.id.clone(),
            result: result.clone(),
            clocks: self.clock.as_ref().map(|clock| clock.remaining_at(now)),
            unix_ms: unix_ms(),
        });
        let ended = ServerMessage::Ended { game: self.id.clone(), result, deal: self.deal.clone() };
        effects.out.push(Outgoing::All(ended));
    }

    /// Plays a move from `conn` for `ply`, charging its clock less `lag_ms` within its quota.
    ///
    /// The same move again for a ply already played is answered with the state from that ply
    /// and changes nothing.
    ///
    /// # Errors
    /// A [`Refusal`]; nothing changes then.
    pub fn play(
        &mut self,
        conn: ConnId,
        ply: u32,
        text: &str,
        lag_ms: u64,
        now: u64,
    ) -> Result<Effects, Refusal> {
        let seat = self.seat_of(conn).ok_or(Refusal::NotAPlayer)?;
        let expected = self.plies();
        if ply < expected {
            let index = ply as usize;
            let same = self.movers[index] == seat
                && (self.moves[index].text == text || self.sent[index] == text);
            if same {
                let state = Outgoing::StateTo { conn, have_plies: Some(ply) };
                return Ok(Effects { out: vec![state], ..Effects::default() });
            }
            return Err(Refusal::WrongPly { expected });
        }
        if !self.is_playing() {
            return Err(Refusal::NotPlaying);
        }
        if ply != expected {
            return Err(Refusal::WrongPly { expected });
        }
        if seat_of_side(self.game.side_to_move()) != seat {
            return Err(Refusal::NotYourTurn);
        }
        let canonical = self.game.canonical_move(text).map_err(refusal_of)?;
        let reveal = reveal_of(&self.game, &canonical);
        self.game.play(&canonical).map_err(refusal_of)?;
        let mut effects = Effects::default();
        let over = self.rules_result();
        let next = if over.is_some() { None } else { self.next_clock_after(seat) };
        if let Some(clock) = &mut self.clock
            && let Err(Flagged(flagged)) = clock.punch(seat, now, lag_ms, next)
        {
            self.game.undo();
            clock.fall(flagged);
            let result = GameResult { winner: Some(flagged.other()), reason: EndReason::Timeout };
            self.finish(result, now, &mut effects);
            return Ok(effects);
        }
        self.moves.push(PlayedMove { ply, text: canonical.clone(), reveal: reveal.clone() });
        self.movers.push(seat);
        self.sent.push(text.to_owned());
        let clocks = self.clock.as_ref().map(|clock| clock.view(now));
        let record = MoveRecord {
            ply,
            seat,
            text: canonical.clone(),
            unix_ms: unix_ms(),
            remaining_ms: clocks.map(|c| c.remaining_ms),
        };
        effects.writes.push(Write::Move { game: self.id.clone(), mv: record });
        let mv = PlayedMove { ply, text: canonical, reveal };
        effects.out.push(Outgoing::All(ServerMessage::Moved { game: self.id.clone(), mv, clocks }));
        if self.draw_offer == Some(seat.other()) {
            self.draw_offer = None;
            effects.out.push(Outgoing::All(ServerMessage::DrawDeclined { game: self.id.clone() }));
        }
        if let Some(result) = over {
            self.finish(result, now, &mut effects);
        }
        Ok(effects)
    }

    /// Whose clock runs after `mover`'s move, the move already played on the board.
    fn next_clock_after(&self, mover: Seat) -> Option<Seat> {
        let other_moved = self.movers.contains(&mover.other());
        other_moved.then(|| seat_of_side(self.game.side_to_move()))
    }

    /// Ends the game if the running clock's flag has fallen by `now` (whether or not its player
    /// is connected).
    pub fn tick(&mut self, now: u64) -> Effects {
        let mut effects = Effects::default();
        if !self.is_playing() {
            return effects;
        }
        let Some(clock) = &mut self.clock else { return effects };
        if let Some(seat) = clock.flagged(now) {
            clock.fall(seat);
            let result = GameResult { winner: Some(seat.other()), reason: EndReason::Timeout };
            self.finish(result, now, &mut effects);
        }
        effects
    }

    /// Carries out a player's action.
    ///
    /// # Errors
    /// [`Denied`] when `conn` holds no seat or the action does not fit now; nothing changes.
    pub fn act(&mut self, conn: ConnId, action: Action, now: u64) -> Result<Effects, Denied> {
        let Some(seat) = self.seat_of(conn) else {
            return Err(Denied::new(ErrorCode::Unexpected, "you hold no seat in this game"));
        };
        let mut effects = Effects::default();
        let game = self.id.clone();
        match action {
            Action::Resign => {
                if !self.is_playing() {
                    return Err(not_playing("resign"));
                }
                let result =
                    GameResult { winner: Some(seat.other()), reason: EndReason::Resignation };
                self.finish(result, now, &mut effects);
            }
            Action::OfferDraw => {
                if !self.is_playing() {
                    return Err(not_playing("offer a draw"));
                }
                if self.draw_offer == Some(seat.other()) {
                    let result = GameResult { winner: None, reason: EndReason::Agreement };
                    self.finish(result, now, &mut effects);
                } else if self.draw_offer.is_none() {
                    self.draw_offer = Some(seat);
                    effects.out.push(Outgoing::All(ServerMessage::DrawOffered { game, by: seat }));
                }
            }
            Action::DeclineDraw => {
                if self.draw_offer != Some(seat.other()) || !self.is_playing() {
                    return Err(Denied::new(ErrorCode::Unexpected, "no draw offer to decline"));
                }
                self.draw_offer = None;
                effects.out.push(Outgoing::All(ServerMessage::DrawDeclined { game }));
            }
            Action::Abort => {
                if self.result.is_some() || self.both_have_moved() {
                    return Err(Denied::new(
                        ErrorCode::Unexpected,
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                let result = GameResult { winner: None, reason: EndReason::Aborted };
                self.finish(result, now, &mut effects);
            }
            Action::Rematch => return self.ask_rematch(seat),
            Action::ClaimWin => {
                if !self.is_playing() {
                    return Err(not_playing("claim the win"));
                }
                let opponent = &self.seats[seat.other().index()];
                let away = now.saturating_sub(opponent.away_since);
                if !opponent.conns.is_empty() || away < self.grace_ms {
                    let detail = format!(
                        "the opponent must be away for {} s first",
                        self.grace_ms.div_ceil(1000)
                    );
                    return Err(Denied::new(ErrorCode::Unexpected, detail));
                }
                let result = GameResult { winner: Some(seat), reason: EndReason::Abandoned };
                self.finish(result, now, &mut effects);
            }
        }
        Ok(effects)
    }

    fn ask_rematch(&mut self, seat: Seat) -> Result<Effects, Denied> {
        let names: Vec<String> = self.seats.iter().filter_map(|s| s.name.clone()).collect();
        let [first, second] = names.as_slice() else {
            return Err(Denied::new(ErrorCode::Unexpected, "a rematch needs two players"));
        };
        if self.result.is_none() || self.rematch_started {
            return Err(Denied::new(ErrorCode::Unexpected, "no rematch now"));
        }
        let mut effects = Effects::default();
        if !self.rematch[seat.index()] {
            self.rematch[seat.index()] = true;
            let offer = ServerMessage::RematchOffered { game: self.id.clone(), by: seat };
            effects.out.push(Outgoing::All(offer));
        }
        let connected = self.seats.iter().all(|seat| !seat.conns.is_empty());
        if self.rematch == [true, true] && connected {
            self.rematch_started = true;
            let conns = |seat: Seat| self.seats[seat.index()].conns.iter().copied().collect();
            effects.rematch = Some(RematchPlan {
                of: self.id.clone(),
                spec: self.spec.clone(),
                names: [second.clone(), first.clone()],
                conns: [conns(Seat::Second), conns(Seat::First)],
            });
        }
        Ok(effects)
    }
}
