//! Moves, the clocks, and the players' other actions: resign, draws, takebacks, abort, rematch,
//! claiming a win over an absent opponent, and chat.

use qi_protocol::{
    ChatBody, EndReason, ErrorCode, GameAction, GameResult, PlayedMove, Refusal, Seat,
    ServerMessage,
};
use qi_rules::MoveError;
use qi_rules::gomoku::Phase;

use super::{Denied, Effects, Outgoing, Player, RematchPlan, Session, reveal_of, seat_of_side};
use crate::clock::Flagged;
use crate::session::ConnId;
use crate::storage::{MoveRecord, Write, unix_ms};

/// A player's action other than a move (or, for chat, a spectator's).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// One of the protocol's game actions (resign, a draw, a takeback, a rematch ...).
    Game(GameAction),
    /// Write in the chat.
    Chat {
        /// The writer's display name (a spectator's; a player's comes from the seat).
        name: String,
        /// What.
        body: ChatBody,
    },
    /// A tournament game's first-move deadline passed (the server's own action, never a
    /// client's): if a side has not made its first move, it loses by forfeit.
    NoShow,
}

fn no_takeback(detail: &str) -> Denied {
    Denied::new(ErrorCode::NoTakeback, detail)
}

fn refusal_of(error: MoveError) -> Refusal {
    match error {
        MoveError::Parse(_) => Refusal::Unreadable,
        // The reason only: it never depends on a face-down banqi piece's identity.
        MoveError::Illegal(illegal) => Refusal::Illegal { reason: illegal.reason },
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
            reason: EndReason::Rules { reason: outcome.reason },
        })
    }

    /// A tournament game's first-move deadline: the side that has not made its first move
    /// loses, as lichess's tournaments forfeit a player who does not start — Black when White
    /// has moved, White when Black is there and White never moved; when nobody moved and Black
    /// is not there either, nobody wins (both forfeit). A game under way, or over, is left
    /// alone.
    fn no_show(&mut self, now: u64) -> Effects {
        let mut effects = Effects::default();
        if self.result.is_some() || self.both_have_moved() || self.tournament.is_none() {
            return effects;
        }
        let winner = if self.movers.contains(&Seat::First) {
            Some(Seat::First)
        } else if !self.seats[Seat::Second.index()].conns.is_empty() {
            Some(Seat::Second)
        } else {
            None
        };
        let result = GameResult { winner, reason: EndReason::Abandoned };
        self.finish(result, now, &mut effects);
        effects
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
        (self.is_playing() && (self.both_have_moved() || self.choosing()))
            .then(|| seat_of_side(self.game.side_to_move()))
    }

    /// When the running clock's flag falls, if one runs.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        self.clock.as_ref().filter(|_| self.is_playing())?.flag_deadline()
    }

    /// Ends the game: stores the result and tells everyone (banqi: with the whole deal).
    ///
    /// A rated game that ends before each side has moved (resigned, agreed drawn, claimed)
    /// is aborted instead, as on lichess: unrated, so two accounts cannot trade rating
    /// points by resigning at once. A tournament's game keeps its result (the tournament
    /// scores it as a forfeit); the store leaves it unrated all the same.
    fn finish(&mut self, result: GameResult, now: u64, effects: &mut Effects) {
        let result = if self.spec.rated && !self.both_have_moved() && self.tournament.is_none() {
            GameResult { winner: None, reason: EndReason::Aborted }
        } else {
            result
        };
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
        // A move answers a standing takeback request with no, and lets either side ask again.
        if self.takeback_offer.take().is_some() {
            let declined = ServerMessage::TakebackDeclined { game: self.id.clone() };
            effects.out.push(Outgoing::All(declined));
        }
        self.takeback_declined = [false; 2];
        if let Some(result) = over {
            self.finish(result, now, &mut effects);
        }
        Ok(effects)
    }

    /// Whose clock runs after `mover`'s move, the move already played on the board. Each
    /// seat's first move is free, as on the big sites — except a gomoku opening's choices:
    /// once the opening stones are down, the one who must choose is timed.
    fn next_clock_after(&self, mover: Seat) -> Option<Seat> {
        let other_moved = self.movers.contains(&mover.other());
        (other_moved || self.choosing()).then(|| seat_of_side(self.game.side_to_move()))
    }

    /// Whether a gomoku opening waits for a choice after the first player's opening stones
    /// (a colour, swap2's two more stones, or any of Soosõrv-8's later steps).
    fn choosing(&self) -> bool {
        matches!(
            &self.game,
            qi_rules::any::AnyGame::Gomoku(game)
                if !matches!(game.phase(), Phase::FirstThree | Phase::Play)
        )
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
        self.act_from(conn, None, action, now)
    }

    /// [`Session::act`] for a connection from client `address` (when known): a spectator's
    /// chat lines are counted by address, however many sockets it opens.
    ///
    /// # Errors
    /// As [`Session::act`].
    pub fn act_from(
        &mut self,
        conn: ConnId,
        address: Option<std::net::IpAddr>,
        action: Action,
        now: u64,
    ) -> Result<Effects, Denied> {
        // Spectators chat too: the one action that needs no seat.
        if let Action::Chat { name, body } = action {
            return self.say(conn, address, &name, body, now);
        }
        if action == Action::NoShow {
            return Ok(self.no_show(now));
        }
        let Some(seat) = self.seat_of(conn) else {
            return Err(Denied::new(ErrorCode::Unexpected, "you hold no seat in this game"));
        };
        let mut effects = Effects::default();
        let game = self.id.clone();
        match action {
            Action::Game(GameAction::Resign) => {
                if !self.is_playing() {
                    return Err(not_playing("resign"));
                }
                let result =
                    GameResult { winner: Some(seat.other()), reason: EndReason::Resignation };
                self.finish(result, now, &mut effects);
            }
            Action::Game(GameAction::OfferDraw) => {
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
            Action::Game(GameAction::DeclineDraw) => {
                if self.draw_offer != Some(seat.other()) || !self.is_playing() {
                    return Err(Denied::new(ErrorCode::Unexpected, "no draw offer to decline"));
                }
                self.draw_offer = None;
                effects.out.push(Outgoing::All(ServerMessage::DrawDeclined { game }));
            }
            Action::Game(GameAction::Abort) => {
                if self.tournament.is_some() {
                    return Err(Denied::new(
                        ErrorCode::Unexpected,
                        "a tournament game cannot be aborted: a side that does not move loses",
                    ));
                }
                if self.result.is_some() || self.both_have_moved() {
                    return Err(Denied::new(
                        ErrorCode::Unexpected,
                        "a game can be aborted only before both sides have moved",
                    ));
                }
                let result = GameResult { winner: None, reason: EndReason::Aborted };
                self.finish(result, now, &mut effects);
            }
            Action::Game(GameAction::Rematch) if self.tournament.is_some() => {
                return Err(Denied::new(
                    ErrorCode::Unexpected,
                    "no rematch in a tournament: the next pairing comes by itself",
                ));
            }
            Action::Game(GameAction::Rematch) => return self.ask_rematch(seat),
            Action::Game(GameAction::ProposeTakeback) => return self.propose_takeback(seat),
            Action::Game(GameAction::AcceptTakeback) => return self.accept_takeback(seat, now),
            Action::Game(GameAction::DeclineTakeback) => {
                if self.takeback_offer != Some(seat.other()) || !self.is_playing() {
                    return Err(no_takeback("there is no takeback request to decline"));
                }
                self.takeback_offer = None;
                self.takeback_declined[seat.other().index()] = true;
                effects.out.push(Outgoing::All(ServerMessage::TakebackDeclined { game }));
            }
            // Handled before the seat is asked for (spectators chat too); here only so that
            // the match is whole.
            Action::Chat { name, body } => return self.say(conn, address, &name, body, now),
            Action::NoShow => return Ok(self.no_show(now)),
            Action::Game(GameAction::ClaimWin) => {
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

    /// How many moves a takeback by `seat` takes back: its last move and every move after it.
    fn takeback_plies(&self, seat: Seat) -> Option<usize> {
        let last = self.movers.iter().rposition(|&mover| mover == seat)?;
        Some(self.movers.len() - last)
    }

    fn propose_takeback(&mut self, seat: Seat) -> Result<Effects, Denied> {
        if !self.is_playing() {
            return Err(no_takeback("the game is not being played"));
        }
        if self.spec.rated {
            return Err(no_takeback("rated games have no takebacks"));
        }
        if self.takeback_offer.is_some() {
            return Err(no_takeback("a takeback request is already waiting for an answer"));
        }
        if self.takeback_declined[seat.index()] {
            return Err(no_takeback(
                "your last takeback request was declined; ask again after the next move",
            ));
        }
        let Some(plies) = self.takeback_plies(seat) else {
            return Err(no_takeback("you have not moved yet"));
        };
        self.check_takeback_reveals(plies)?;
        self.takeback_offer = Some(seat);
        let offered = ServerMessage::TakebackOffered { game: self.id.clone(), by: seat };
        Ok(Effects { out: vec![Outgoing::All(offered)], ..Effects::default() })
    }

    /// Banqi: a move that turned a piece up cannot be taken back, since everyone has seen the
    /// piece.
    fn check_takeback_reveals(&self, plies: usize) -> Result<(), Denied> {
        let taken = &self.moves[self.moves.len() - plies..];
        if taken.iter().any(|mv| mv.reveal.is_some()) {
            return Err(no_takeback(
                "a move that turned a piece up cannot be taken back: the piece is known",
            ));
        }
        Ok(())
    }

    /// Takes the moves back: nobody's clock gets time back or loses any (the clocks stay as they
    /// are), and the clock of the side to move then runs.
    fn accept_takeback(&mut self, seat: Seat, now: u64) -> Result<Effects, Denied> {
        let asker = seat.other();
        if self.takeback_offer != Some(asker) || !self.is_playing() {
            return Err(no_takeback("there is no takeback request to accept"));
        }
        let plies =
            self.takeback_plies(asker).ok_or_else(|| no_takeback("nothing to take back"))?;
        self.check_takeback_reveals(plies)?;
        for _ in 0..plies {
            self.game.undo();
            self.moves.pop();
            self.movers.pop();
            self.sent.pop();
        }
        self.takeback_offer = None;
        self.draw_offer = None;
        let clocks = self.clock.as_mut().map(|clock| {
            clock.stop(now);
            clock.remaining_at(now)
        });
        self.start_clock(now);
        let game = self.id.clone();
        let mut writes = vec![Write::Takeback { game: game.clone(), plies: self.plies() }];
        // The clocks as they stand are stored on the last move kept, so that a restart does not
        // give back the time spent on the moves taken back.
        if let (Some(remaining), Some(last)) = (clocks, self.moves.last()) {
            writes.push(Write::Clocks { game, ply: last.ply, remaining_ms: remaining });
        }
        Ok(Effects { writes, out: vec![Outgoing::StateToAll], rematch: None })
    }

    fn ask_rematch(&mut self, seat: Seat) -> Result<Effects, Denied> {
        let players: Vec<Player> = self
            .seats
            .iter()
            .filter_map(|s| {
                let ratings = s
                    .rating
                    .map(|r| (self.spec.variant().name().to_owned(), r))
                    .into_iter()
                    .collect();
                Some(Player { name: s.name.clone()?, account: s.account.clone(), ratings })
            })
            .collect();
        let [first, second] = players.as_slice() else {
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
                players: [second.clone(), first.clone()],
                conns: [conns(Seat::Second), conns(Seat::First)],
                listed: self.listed,
            });
        }
        Ok(effects)
    }
}
