//! One online game as this page knows it: what the server said (the start, the moves, the
//! players, the clocks) and the local board kept in step with it, an [`PlayState`] that the
//! board, the move list and the reducer's move input (click, drag, promotion) work on.
//!
//! Everything the server sends is checked before it is taken: the start must set up, every move
//! must be legal in the local game, and a banqi move that turns a piece up must say which piece
//! (and that piece must still be face down somewhere). A message that fails changes nothing.

use std::rc::Rc;

use qi_protocol::{
    CHAT_MAX_CHARS, CHAT_ROOM_MAX_LINES, ChatBody, ChatLine, Clocks, GameResult, GameSpec,
    GameView, NAME_MAX_CHARS, PlayedMove, PlayerView, Seat, Status,
};
use qi_rules::any::{AnyGame, StartFrom};
use qi_rules::banqi::{Banqi, BanqiMove, Piece, Square};
use qi_rules::{Cell, Game, GameKind, IllegalReason, Side};

use super::texts::Words;
use crate::state::{Action, Mode, Notice, PlayState, Settings, TreeAction};
use qi_play::record::{EndedBy, Ending, GameRecord, Start};

/// The most moves a game may have here; a server that sends more has gone wrong.
pub const MAX_PLIES: usize = 20_000;

/// How a record says a game ended that its moves do not show (a resignation, a flag, an agreed
/// draw); `None` when the moves show it, or it was not played out.
#[must_use]
pub fn ending_of(result: &GameResult) -> Option<Ending> {
    let by = match result.reason {
        qi_protocol::EndReason::Resignation => EndedBy::Resignation,
        qi_protocol::EndReason::Timeout => EndedBy::Time,
        qi_protocol::EndReason::Agreement => EndedBy::Agreement,
        _ => return None,
    };
    Some(Ending { winner: result.winner.map(side_of), by })
}

/// A finished game as a record for the app: `spec`'s game from `start` (a position string or
/// `startpos[:seed]`), the moves, and how it ended. `None` when it does not replay.
#[must_use]
pub fn finished_record(
    spec: &GameSpec,
    start: &str,
    moves: Vec<String>,
    result: &GameResult,
) -> Option<GameRecord> {
    let from = StartFrom::parse(start).ok()?;
    let game = AnyGame::with_rules(spec.rules, &from).ok()?;
    let start = match from {
        StartFrom::Start { seed } => Start::Seed(seed),
        StartFrom::Position(position) => Start::Position(position.to_owned()),
    };
    let mut record = GameRecord::from_parts(game.kind(), game.rules_list(), start, moves);
    record.ending = ending_of(result);
    record.replay(usize::MAX).error.is_none().then_some(record)
}

/// The address, relative to the online page, that opens `record` in the app's review, with
/// `bottom`'s pieces at the bottom.
#[must_use]
pub fn review_href(record: &GameRecord, bottom: Side) -> String {
    let view = qi_play::link::View { orientation: Some(bottom), at: None };
    format!("../?{}", qi_play::link::compact(record, &view))
}

/// The rules' side for a seat.
#[must_use]
pub const fn side_of(seat: Seat) -> Side {
    match seat {
        Seat::First => Side::First,
        Seat::Second => Side::Second,
    }
}

/// What the page tells the player about the game, besides the board's own notices.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// The rules forbid the move, for this reason (worded by [`qi_i18n::rules`]).
    Rules(IllegalReason),
    /// One of the page's own sentences.
    Say(Words),
    /// One of the page's sentences, with the server's own words (English) beside it.
    Server(Words, String),
}

/// The player's move on its way to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The ply it is for.
    pub ply: usize,
    /// The move, in canonical coordinates.
    pub text: String,
    /// Whether the board shows it already (a banqi flip of an unknown piece cannot be shown
    /// before the server says what it turned up).
    pub shown: bool,
}

/// A game followed through the server.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    /// The game id.
    pub id: String,
    /// What is played.
    pub spec: GameSpec,
    /// The start position as the server sent it (banqi: face-down pieces unknown).
    start: String,
    /// Banqi: the face-down pieces the moves have turned up, by square.
    learned: Vec<(Cell, Piece)>,
    /// Every move played, confirmed by the server (`moves[i].ply == i`).
    pub moves: Vec<PlayedMove>,
    /// The game after the confirmed moves.
    pub game: AnyGame,
    /// The two players.
    pub players: [PlayerView; 2],
    /// The receiver's seat, if a player.
    pub you: Option<Seat>,
    /// Where the game stands.
    pub status: Status,
    /// How many watch.
    pub watchers: u32,
    /// A draw offer standing, by whom.
    pub draw_offer: Option<Seat>,
    /// A rematch offer standing, by whom.
    pub rematch_offer: Option<Seat>,
    /// A takeback request standing, by whom.
    pub takeback_offer: Option<Seat>,
    /// The chat this receiver reads (a player the players' room, a spectator the
    /// spectators'), oldest first.
    pub chat: Vec<ChatLine>,
    /// The server's clocks, and when they came (ms on the page's clock).
    pub clocks: Option<(Clocks, f64)>,
    /// Banqi, after the end: the whole deal.
    pub deal: Option<String>,
    /// The tournament the game is played in (an id as addresses take them), if any.
    pub tournament: Option<String>,
    /// The player's move on its way.
    pub pending: Option<Pending>,
    /// The latest thing to tell the player.
    pub note: Option<Note>,
    /// The local board: the confirmed moves, and the pending one when it is shown.
    pub board: Rc<PlayState>,
    /// Whether the player's own clock has warned that it runs low (once a game, a sound).
    pub low_time_warned: bool,
}

/// The square whose face-down piece `mv` turns up, if it turns one up.
fn revealed_cell(game: &Banqi, mv: BanqiMove) -> Option<Cell> {
    let cell = match mv {
        BanqiMove::Flip(cell) | BanqiMove::Step { to: cell, .. } => cell,
        BanqiMove::Stop => return None,
    };
    game.square(cell).is_face_down().then_some(cell)
}

/// Plays a move as the server gives it; returns the banqi piece it taught (its square and
/// identity), or `None` when the move is not legal here or its reveal does not fit.
fn play_on(game: &mut AnyGame, mv: &PlayedMove) -> Option<Option<(Cell, Piece)>> {
    let AnyGame::Banqi(banqi) = game else {
        return match mv.reveal {
            None => game.play(&mv.text).ok().map(|_| None),
            Some(_) => None,
        };
    };
    let parsed = banqi.parse_move(&mv.text).ok()?;
    let target = revealed_cell(banqi, parsed);
    let Some(letter) = &mv.reveal else {
        // Without a reveal, a move that turns up an unknown piece is refused by the rules.
        return banqi.apply(parsed).ok().map(|()| None);
    };
    let mut letters = letter.chars();
    let piece = match (letters.next(), letters.next()) {
        (Some(letter), None) => Piece::from_letter(letter)?,
        _ => return None,
    };
    let cell = target?;
    let unknown = banqi.square(cell) == Square::Unknown;
    banqi.apply_revealing(parsed, piece).ok()?;
    Some(unknown.then_some((cell, piece)))
}

/// The banqi position `start` with each learned piece written on its square (`*X` in place of
/// `?`) and taken out of the pool of unknown pieces; `None` when that does not fit the text.
#[must_use]
pub fn reveal_start(start: &str, learned: &[(Cell, Piece)]) -> Option<String> {
    let mut fields: Vec<String> = start.split_whitespace().map(str::to_owned).collect();
    // The 32 squares, ranks 4 to 1; an empty square as "".
    let mut squares: Vec<String> = Vec::with_capacity(32);
    let mut chars = fields.first()?.chars();
    while let Some(c) = chars.next() {
        match c {
            '1'..='8' => squares.extend((b'1'..=c as u8).map(|_| String::new())),
            '*' => squares.push(format!("*{}", chars.next()?)),
            '/' => {}
            c => squares.push(c.to_string()),
        }
    }
    if squares.len() != 32 || fields.len() < 5 {
        return None;
    }
    let mut pool: Vec<char> = fields[4].chars().filter(|&c| c != '-').collect();
    for &(cell, piece) in learned {
        let index = usize::from(3u8.checked_sub(cell.rank)?) * 8 + usize::from(cell.file);
        let square = squares.get_mut(index).filter(|s| s.as_str() == "?")?;
        *square = format!("*{}", piece.letter());
        pool.remove(pool.iter().position(|&c| c == piece.letter())?);
    }
    let ranks: Vec<String> = squares
        .chunks(8)
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for square in rank {
                if square.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push_str(square);
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    fields[0] = ranks.join("/");
    fields[4] = if pool.is_empty() { "-".to_owned() } else { pool.into_iter().collect() };
    Some(fields.join(" "))
}

impl OnlineGame {
    /// The game of a whole [`GameView`] (`from_ply` 0), with the board in `settings`' language
    /// and theme; `None` when the view does not make a game (an unknown variant, a start that
    /// does not set up, a move that cannot be played).
    #[must_use]
    pub fn from_view(view: &GameView, settings: &Settings, now: f64) -> Option<OnlineGame> {
        if view.from_ply != 0 || view.moves.len() > MAX_PLIES {
            return None;
        }
        let start = StartFrom::parse(&view.start).ok()?;
        let mut game = AnyGame::with_rules(view.spec.rules, &start).ok()?;
        let mut learned = Vec::new();
        for (ply, mv) in view.moves.iter().enumerate() {
            if usize::try_from(mv.ply).ok() != Some(ply) {
                return None;
            }
            learned.extend(play_on(&mut game, mv)?);
        }
        let mut online = OnlineGame {
            id: view.game.clone(),
            spec: view.spec.clone(),
            start: view.start.clone(),
            learned,
            moves: view.moves.clone(),
            game,
            players: view.players.clone(),
            you: view.you,
            status: view.status.clone(),
            watchers: view.watchers,
            draw_offer: view.draw_offer,
            rematch_offer: None,
            takeback_offer: view.takeback_offer,
            chat: view.chat.iter().rev().take(CHAT_ROOM_MAX_LINES).rev().cloned().collect(),
            clocks: view.clocks.map(|clocks| (clocks, now)),
            // A finished banqi game's view carries the deal (for a reload, a late spectator).
            deal: view
                .deal
                .clone()
                .filter(|deal| matches!(view.status, Status::Ended { .. }) && deal.len() <= 200),
            tournament: view.tournament.clone().filter(|id| super::address::id_ok(id)),
            pending: None,
            note: None,
            board: Rc::new(PlayState::new(settings.clone(), 0)),
            low_time_warned: false,
        };
        // Players see their own side at the bottom; spectators the first player's.
        Rc::make_mut(&mut online.board).flipped = view.you == Some(Seat::Second);
        online.sync_board().then_some(online)
    }

    /// Takes a later view of the same game: the whole game again (`from_ply` 0) or the moves
    /// from a ply this page has. Keeps the orientation, the pending move when it is still
    /// ahead, and the rematch offer. Returns whether it was taken.
    pub fn merge_view(&mut self, view: &GameView, now: f64) -> bool {
        let Ok(from) = usize::try_from(view.from_ply) else { return false };
        if view.game != self.id || from > self.moves.len() {
            return false;
        }
        let mut whole = view.clone();
        whole.moves = self.moves[..from].iter().chain(&view.moves).cloned().collect();
        whole.from_ply = 0;
        let Some(mut next) = OnlineGame::from_view(&whole, &self.board.settings, now) else {
            return false;
        };
        Rc::make_mut(&mut next.board).flipped = self.board.flipped;
        let viewing = self.board.viewing_main_ply().filter(|&ply| ply < next.moves.len());
        Rc::make_mut(&mut next.board).apply(Action::Tree(TreeAction::View(viewing)));
        next.pending = self.pending.take().filter(|p| p.ply == next.moves.len());
        next.rematch_offer =
            self.rematch_offer.filter(|_| matches!(next.status, Status::Ended { .. }));
        next.deal = next.deal.or_else(|| self.deal.take());
        next.note = self.note.take();
        next.low_time_warned = self.low_time_warned;
        next.sync_board();
        *self = next;
        true
    }

    /// Takes a line of chat from the server: its name and text cut to what they may be (a
    /// server never sends more; this page shows no more), the oldest line dropped once the room
    /// holds as many as a room keeps.
    pub fn hear(&mut self, mut line: ChatLine) {
        line.name = crate::online::texts::shown_text(&line.name, NAME_MAX_CHARS);
        if let ChatBody::Text { text } = &mut line.body {
            *text = crate::online::texts::shown_text(text, CHAT_MAX_CHARS);
        }
        self.chat.push(line);
        if self.chat.len() > CHAT_ROOM_MAX_LINES {
            self.chat.remove(0);
        }
    }

    /// Whether the player may ask to take a move back now: playing, with a move of their own
    /// to take back, and no request standing.
    #[must_use]
    pub fn can_ask_takeback(&self) -> bool {
        let Some(you) = self.you else { return false };
        // The first seat makes ply 0 and the second ply 1 in every game, so a seat has moved
        // once the moves reach past its index. (Banqi's refusal of a move that turned a piece up
        // comes from the server, with its reason.)
        self.status == Status::Playing
            && self.takeback_offer.is_none()
            && self.pending.is_none()
            && self.moves.len() > you.index()
    }

    /// Plays the server's move for the next ply. A pending move for that ply is settled: by
    /// this move. Returns whether it was taken (false: illegal here, or not the next ply).
    pub fn play(&mut self, mv: &PlayedMove) -> bool {
        if usize::try_from(mv.ply).ok() != Some(self.moves.len()) || self.moves.len() >= MAX_PLIES {
            return false;
        }
        let mut game = self.game.clone();
        let Some(learned) = play_on(&mut game, mv) else { return false };
        self.game = game;
        self.learned.extend(learned);
        self.moves.push(mv.clone());
        if self.pending.as_ref().is_some_and(|p| p.ply < self.moves.len()) {
            self.pending = None;
        }
        self.sync_board();
        true
    }

    /// Rebuilds the board from the confirmed moves (and the pending one when shown), keeping
    /// its orientation and the ply being looked at. Returns whether every move replayed.
    pub fn sync_board(&mut self) -> bool {
        let kind = self.game.kind();
        let rules = self.game.rules_list();
        let start = if kind == GameKind::Banqi && !self.learned.is_empty() {
            match reveal_start(&self.start, &self.learned) {
                Some(start) => Start::Position(start),
                None => return false,
            }
        } else {
            match StartFrom::parse(&self.start) {
                Ok(StartFrom::Start { seed }) => Start::Seed(seed),
                _ => Start::Position(self.start.clone()),
            }
        };
        let mut texts: Vec<String> = self.moves.iter().map(|mv| mv.text.clone()).collect();
        if let Some(pending) = self.pending.as_ref().filter(|p| p.shown) {
            texts.push(pending.text.clone());
        }
        let wanted = texts.len();
        let record = GameRecord::from_parts(kind, rules, start, texts);
        let bottom = if self.board.flipped { Side::Second } else { Side::First };
        let viewing = self.board.viewing.clone();
        // A queued move outlives the opponent's move it waits for (while the game goes on).
        let premove = self.board.premove.filter(|_| self.status == Status::Playing);
        // The same game, however often it is rebuilt: its moves make sounds, not a new game.
        let game_number = self.board.game_number;
        Rc::make_mut(&mut self.board).settings.mode = match (self.you, &self.status) {
            (Some(seat), Status::Playing) => Mode::VsComputer { human: side_of(seat) },
            _ => Mode::Watch,
        };
        Rc::make_mut(&mut self.board).apply(Action::Open {
            record,
            bottom: Some(bottom),
            at: viewing,
            notice: None,
        });
        Rc::make_mut(&mut self.board).premove = premove;
        Rc::make_mut(&mut self.board).game_number = game_number;
        if let Status::Ended { result } = &self.status
            && let Some(ending) = ending_of(result)
        {
            Rc::make_mut(&mut Rc::make_mut(&mut self.board).record).ending = Some(ending);
        }
        self.board.record.moves.len() == wanted
    }

    /// Whether the player may move now: seated, the game on, their turn, nothing on its way.
    #[must_use]
    pub fn can_move(&self) -> bool {
        self.you.is_some_and(|seat| self.game.side_to_move() == side_of(seat))
            && self.status == Status::Playing
            && self.pending.is_none()
            && self.game.outcome().is_none()
    }

    /// Whether both sides have moved: aborting is allowed before. (Sides alternate until a
    /// banqi chain capture, which needs earlier moves of both.)
    #[must_use]
    pub fn both_have_moved(&self) -> bool {
        // Under a gomoku opening rule the first player puts three stones before the second acts.
        let first_moves = match &self.game {
            qi_rules::any::AnyGame::Gomoku(game)
                if qi_rules::Game::rules(game).opening != qi_rules::gomoku::OpeningRule::None =>
            {
                3
            }
            _ => 1,
        };
        self.moves.len() > first_moves
    }

    /// A board action of the player: selecting, dragging, promoting, looking at past moves,
    /// turning the board. Returns the move to send when it made one (which the board then
    /// shows at once, except a banqi flip of an unknown piece).
    pub fn board_action(&mut self, action: Action) -> Option<String> {
        let moves = matches!(
            action,
            Action::ClickCell { .. }
                | Action::Pick { .. }
                | Action::Drop { .. }
                | Action::Promote { .. }
                | Action::EndChain { .. }
                | Action::TakeColour { .. }
                | Action::DeclareOffers { .. }
                | Action::TypeMove { .. }
                | Action::PlayPremove { .. }
        );
        if !moves {
            if matches!(
                action,
                Action::Tree(TreeAction::View(_))
                    | Action::Tree(TreeAction::Go(_))
                    | Action::Tree(TreeAction::First)
                    | Action::Tree(TreeAction::Last)
                    | Action::Tree(TreeAction::StepBack)
                    | Action::Tree(TreeAction::StepForward)
                    | Action::Tree(TreeAction::FlipBoard)
                    | Action::CancelPromotion
                    | Action::Cancel
            ) {
                Rc::make_mut(&mut self.board).apply(action);
            }
            return None;
        }
        // Online, the game is the server's: no side lines while stepping back.
        if self.board.viewing.is_some() {
            return None;
        }
        if !self.can_move() {
            // The opponent's turn: the board queues the move (a premove, shown on it), played
            // when the opponent's move comes ([`Action::PlayPremove`]).
            if self.board.premove_allowed() && !matches!(action, Action::PlayPremove { .. }) {
                Rc::make_mut(&mut self.board).apply(action);
            }
            return None;
        }
        // A queued move's cells, for a banqi flip only the server can play.
        let queued = self.board.premove;
        let before = self.board.record.moves.len();
        let mut trial = (*self.board).clone();
        trial.apply(action.clone());
        let (text, shown) = if trial.record.moves.len() > before {
            (trial.record.moves.last().cloned()?, true)
        } else if trial.notice == Some(Notice::Illegal(IllegalReason::FlipResultUnknown)) {
            // A legal banqi move that turns up an unknown piece: only the server can play it.
            // The local board's "refusal" is no refusal (no sound).
            trial.notice = None;
            trial.refusals = self.board.refusals;
            let text = match action {
                Action::ClickCell { cell, .. } => self.game.move_text_between(cell, cell, None),
                Action::Drop { from, to, .. } => self.game.move_text_between(from, to, None),
                Action::PlayPremove { .. } => {
                    let queued = queued?;
                    self.game.move_text_between(queued.from, queued.to, None)
                }
                // The screen-reader field's `flip b3`: the text as typed.
                Action::TypeMove { text, .. } => text,
                _ => return None,
            };
            (text, false)
        } else {
            self.board = Rc::new(trial);
            return None;
        };
        let text = self.game.canonical_move(&text).unwrap_or(text);
        self.board = Rc::new(trial);
        self.note = None;
        self.pending = Some(Pending { ply: self.moves.len(), text: text.clone(), shown });
        Some(text)
    }

    /// Takes back the pending move the server refused, saying why (`note`).
    pub fn take_back(&mut self, note: Note) {
        if self.pending.take().is_none() {
            return;
        }
        self.note = Some(note);
        self.sync_board();
    }

    /// The game is over: the result stands, the clocks stop, nothing waits any more.
    pub fn end(&mut self, result: GameResult, deal: Option<String>, now: f64) {
        for seat in [Seat::First, Seat::Second] {
            let left = self.remaining_ms(seat, now);
            if let (Some((clocks, _)), Some(left)) = (&mut self.clocks, left) {
                clocks.remaining_ms[seat.index()] = left as u64;
            }
        }
        if let Some((clocks, at)) = &mut self.clocks {
            clocks.running = None;
            *at = now;
        }
        self.status = Status::Ended { result };
        self.deal = deal.filter(|deal| deal.len() <= 200);
        self.pending = None;
        self.draw_offer = None;
        self.sync_board();
    }

    /// The time `seat` has left at `now` (ms): the server's figure counted down locally while
    /// its clock runs. `None` for a game without a clock.
    #[must_use]
    pub fn remaining_ms(&self, seat: Seat, now: f64) -> Option<f64> {
        let Some((clocks, at)) = &self.clocks else {
            return self.spec.clock.map(|clock| f64::from(clock.base_secs) * 1000.0);
        };
        let mut left = clocks.remaining_ms[seat.index()] as f64;
        if clocks.running == Some(seat) && self.status == Status::Playing {
            left -= (now - at).max(0.0);
        }
        Some(left.max(0.0))
    }

    /// Marks the player's clock as having warned, the first time it runs low (see
    /// [`qi_settings::low_time_ms`]) while it runs; returns whether it warned now.
    pub fn warn_low_time(&mut self, now: f64) -> bool {
        let (Some(seat), Some(clock)) = (self.you, self.spec.clock) else { return false };
        if self.low_time_warned || self.running_clock() != Some(seat) {
            return false;
        }
        let low = qi_settings::low_time_ms(clock.base_secs);
        self.low_time_warned = self.remaining_ms(seat, now).is_some_and(|left| left <= low);
        self.low_time_warned
    }

    /// The seat whose clock runs, while the game is on.
    #[must_use]
    pub fn running_clock(&self) -> Option<Seat> {
        let (clocks, _) = self.clocks.as_ref()?;
        clocks.running.filter(|_| self.status == Status::Playing)
    }

    /// The finished game as a record for the app (banqi with the whole deal, when the server
    /// gave one that fits the moves); `None` when it does not replay.
    #[must_use]
    pub fn review_record(&self) -> Option<GameRecord> {
        let kind = self.game.kind();
        let start = if kind == GameKind::Banqi {
            let deal = self.deal.as_ref()?;
            let _ =
                AnyGame::new("banqi", &self.game.rules_list(), &StartFrom::Position(deal)).ok()?;
            Start::Position(deal.clone())
        } else {
            self.board.record.start.clone()
        };
        let texts = self.moves.iter().map(|mv| mv.text.clone()).collect();
        let mut record = GameRecord::from_parts(kind, self.game.rules_list(), start, texts);
        // A resignation, a flag or an agreed draw goes with it, as the board shows it.
        record.ending = self.board.record.ending;
        record.replay(usize::MAX).error.is_none().then_some(record)
    }
}
