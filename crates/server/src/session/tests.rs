use qi_protocol::{
    CHAT_MAX_CHARS, CHAT_RATE_MAX, CHAT_RATE_WINDOW_MS, CHAT_ROOM_MAX_LINES, ChatBody, ChatLine,
    ChatRoom, ClockSpec, EndReason, ErrorCode, GameAction, GameSpec, IllegalReason, QuickMessage,
    Refusal, RulesEnd, Seat, ServerMessage, Status,
};
use qi_rules::any::{AnyGame, StartFrom};

use super::*;
use crate::storage::{GameRecord, MemoryStorage, MoveRecord, Storage, StoredGame, Write};
use crate::tokens::{hash_token, invite_for};

const A: ConnId = 1;
const B: ConnId = 2;
const WATCHER: ConnId = 3;

fn stored(variant: &str, rules: &str, clock: Option<ClockSpec>, seed: u64) -> StoredGame {
    let game = AnyGame::new(variant, rules, &StartFrom::Start { seed }).unwrap();
    StoredGame {
        game: GameRecord {
            id: "g".into(),
            spec: GameSpec {
                rules: qi_protocol::AnyRules::parse(
                    qi_protocol::Variant::parse(variant).unwrap(),
                    rules,
                )
                .unwrap(),
                clock,
                rated: false,
            },
            start: game.position(),
            invite_hash: hash_token(&invite_for("token-a")),
            token_hashes: [hash_token("token-a"), hash_token("nobody has this")],
            names: [Some("Ann".into()), None],
            accounts: [None, None],
            created_unix_ms: 0,
            rematch_of: None,
            listed: false,
            tournament: None,
        },
        moves: Vec::new(),
        result: None,
        final_clocks: None,
        chat: Vec::new(),
    }
}

/// The `Seated` among `effects`: the token, the seat and the invite.
fn seated(effects: &Effects) -> (String, Seat, Option<String>) {
    let found = effects.out.iter().find_map(|out| match out {
        Outgoing::To(_, ServerMessage::Seated { token, seat, invite, .. }) => {
            Some((token.clone(), *seat, invite.clone()))
        }
        _ => None,
    });
    found.expect("a Seated")
}

/// A's game as just created: the server knows A's token.
fn created(variant: &str, clock: Option<ClockSpec>) -> Session {
    created_with(variant, "", clock)
}

/// [`created`] under these rules.
fn created_with(variant: &str, rules: &str, clock: Option<ClockSpec>) -> Session {
    let tokens = [Some("token-a".into()), None];
    Session::created(&stored(variant, rules, clock, 7), tokens, 0).unwrap()
}

/// A game with A in the first seat and B in the second, both connected.
fn started(variant: &str, clock: Option<ClockSpec>) -> Session {
    started_with(variant, "", clock)
}

/// [`started`] under these rules.
fn started_with(variant: &str, rules: &str, clock: Option<ClockSpec>) -> Session {
    let mut session = created_with(variant, rules, clock);
    session.attach(A, Attach::Seat(Seat::First), None, 0).unwrap();
    let join =
        Attach::Invite { invite: invite_for("token-a"), player: Player::anonymous("Bo".into()) };
    let effects = session.attach(B, join, None, 0).unwrap();
    let (token, seat, invite) = seated(&effects);
    assert_eq!((seat, invite), (Seat::Second, None));
    let token_hash = hash_token(&token);
    let take = Write::TakeSeat {
        game: "g".into(),
        seat: Seat::Second,
        name: "Bo".into(),
        account: None,
        token_hash,
    };
    assert_eq!(effects.writes, vec![take]);
    assert!(session.is_playing());
    session
}

fn play(session: &mut Session, conn: ConnId, text: &str, now: u64) -> Effects {
    let ply = session.plies();
    session.play(conn, ply, text, 0, now).unwrap()
}

fn ended(effects: &Effects) -> Option<&GameResult> {
    effects.out.iter().find_map(|out| match out {
        Outgoing::All(ServerMessage::Ended { result, .. }) => Some(result),
        _ => None,
    })
}

#[test]
fn fools_mate_ends_the_game_with_the_rules_reason() {
    let mut session = started("chess", None);
    for (conn, mv) in [(A, "f2f3"), (B, "e7e5"), (A, "g2g4")] {
        let effects = play(&mut session, conn, mv, 0);
        assert!(matches!(effects.writes[0], Write::Move { .. }));
    }
    let effects = play(&mut session, B, "d8h4", 0);
    let result = ended(&effects).unwrap();
    assert_eq!(result.winner, Some(Seat::Second));
    assert_eq!(result.reason, EndReason::Rules { reason: RulesEnd::Checkmate });
    assert!(matches!(effects.writes[1], Write::Finish { .. }));
    assert_eq!(session.play(A, 4, "e2e4", 0, 0), Err(Refusal::NotPlaying));
}

#[test]
fn moves_are_checked_and_refusals_change_nothing() {
    let mut session = started("chess", None);
    assert_eq!(session.play(B, 0, "e7e5", 0, 0), Err(Refusal::NotYourTurn));
    assert_eq!(session.play(A, 1, "e2e4", 0, 0), Err(Refusal::WrongPly { expected: 0 }));
    assert_eq!(
        session.play(A, 0, "e2e5", 0, 0).unwrap_err(),
        Refusal::Illegal { reason: IllegalReason::WrongMovement }
    );
    assert_eq!(session.play(A, 0, "hello", 0, 0), Err(Refusal::Unreadable));
    assert_eq!(session.play(WATCHER, 0, "e2e4", 0, 0), Err(Refusal::NotAPlayer));
    assert_eq!(session.plies(), 0);
    // Notation is read and stored in coordinates.
    let effects = play(&mut session, A, "Nf3", 0);
    let Outgoing::All(ServerMessage::Moved { mv, .. }) = &effects.out[0] else { panic!() };
    assert_eq!(mv.text, "g1f3");
}

#[test]
fn a_resent_move_is_answered_once_and_a_stale_one_refused() {
    let mut session = started("gomoku", None);
    play(&mut session, A, "h8", 0);
    play(&mut session, B, "h9", 0);
    let again = session.play(A, 0, "h8", 0, 0).unwrap();
    assert_eq!(again.writes, vec![]);
    assert_eq!(again.out, vec![Outgoing::StateTo { conn: A, have_plies: Some(0) }]);
    assert_eq!(session.play(A, 0, "a1", 0, 0), Err(Refusal::WrongPly { expected: 2 }));
    assert_eq!(session.play(B, 0, "h8", 0, 0), Err(Refusal::WrongPly { expected: 2 }));
    assert_eq!(session.play(A, 5, "a1", 0, 0), Err(Refusal::WrongPly { expected: 2 }));
    assert_eq!(session.plies(), 2);
}

#[test]
fn clocks_start_after_both_sides_moved_and_flags_fall() {
    let clock = ClockSpec { base_secs: 10, increment_secs: 0 };
    let mut session = started("chess", Some(clock));
    play(&mut session, A, "e2e4", 5_000);
    assert_eq!(session.next_deadline(), None, "no clock before both have moved");
    play(&mut session, B, "e7e5", 9_000);
    let deadline = session.next_deadline().unwrap();
    assert_eq!(deadline, 9_000 + 10_000 + crate::clock::LAG_QUOTA_MAX_MS);
    assert_eq!(session.tick(deadline - 1), Effects::default());
    let effects = session.tick(deadline);
    let result = ended(&effects).unwrap();
    assert_eq!((result.winner, &result.reason), (Some(Seat::Second), &EndReason::Timeout));
    let view = session.view_for(A, None, deadline + 5);
    assert_eq!(view.clocks.unwrap().remaining_ms, [0, 10_000]);
}

#[test]
fn a_gomoku_opening_choice_is_timed() {
    let clock = ClockSpec { base_secs: 10, increment_secs: 0 };
    let mut session = started_with("gomoku", "opening=swap", Some(clock));
    play(&mut session, A, "h8", 0);
    play(&mut session, A, "i9", 0);
    assert_eq!(session.next_deadline(), None, "the opening stones are the first move's grace");
    play(&mut session, A, "j10", 1_000);
    // The stones are down: the chooser's clock runs while it chooses.
    let deadline = session.next_deadline().expect("the chooser's clock runs");
    assert_eq!(deadline, 1_000 + 10_000 + crate::clock::LAG_QUOTA_MAX_MS);
    play(&mut session, B, "white", 3_000);
    let view = session.view_for(A, None, 3_000);
    assert_eq!(view.clocks.unwrap().remaining_ms, [10_000, 8_000]);
}

#[test]
fn a_move_after_the_flag_loses_on_time() {
    let clock = ClockSpec { base_secs: 1, increment_secs: 0 };
    let mut session = started("gomoku", Some(clock));
    play(&mut session, A, "h8", 0);
    play(&mut session, B, "h9", 0);
    let effects = session.play(A, 2, "a1", 0, 1_200).unwrap();
    assert_eq!(ended(&effects).unwrap().reason, EndReason::Timeout);
    assert_eq!(session.plies(), 2, "the late move is not played");
}

#[test]
fn draws_are_offered_declined_lapsed_and_accepted() {
    let mut session = started("chess", None);
    let denied = session.act(A, Action::Game(GameAction::DeclineDraw), 0).unwrap_err();
    assert_eq!(denied.code, ErrorCode::Unexpected);
    session.act(A, Action::Game(GameAction::OfferDraw), 0).unwrap();
    assert_eq!(session.act(A, Action::Game(GameAction::OfferDraw), 0).unwrap(), Effects::default());
    // The offerer's own move keeps the offer; the other side's move lapses it.
    play(&mut session, A, "e2e4", 0);
    assert_eq!(session.view_for(B, None, 0).draw_offer, Some(Seat::First));
    let effects = play(&mut session, B, "e7e5", 0);
    assert!(effects.out.contains(&Outgoing::All(ServerMessage::DrawDeclined { game: "g".into() })));
    session.act(B, Action::Game(GameAction::OfferDraw), 0).unwrap();
    session.act(A, Action::Game(GameAction::DeclineDraw), 0).unwrap();
    session.act(B, Action::Game(GameAction::OfferDraw), 0).unwrap();
    let effects = session.act(A, Action::Game(GameAction::OfferDraw), 0).unwrap();
    assert_eq!(ended(&effects).unwrap().reason, EndReason::Agreement);
    assert_eq!(ended(&effects).unwrap().winner, None);
}

#[test]
fn abort_only_before_both_sides_moved() {
    let mut session = started("xiangqi", None);
    play(&mut session, A, "h3e3", 0);
    let effects = session.act(B, Action::Game(GameAction::Abort), 0).unwrap();
    assert_eq!(ended(&effects).unwrap().reason, EndReason::Aborted);

    let mut session = started("xiangqi", None);
    play(&mut session, A, "h3e3", 0);
    play(&mut session, B, "h10g8", 0);
    assert!(session.act(A, Action::Game(GameAction::Abort), 0).is_err());
    assert!(session.is_playing());
}

#[test]
fn rematch_needs_both_and_swaps_the_seats() {
    let mut session = started("gomoku", None);
    assert!(session.act(A, Action::Game(GameAction::Rematch), 0).is_err(), "not while playing");
    session.act(A, Action::Game(GameAction::Resign), 0).unwrap();
    let first = session.act(A, Action::Game(GameAction::Rematch), 0).unwrap();
    assert_eq!(first.rematch, None);
    let second = session.act(B, Action::Game(GameAction::Rematch), 0).unwrap();
    let plan = second.rematch.unwrap();
    assert_eq!(plan.players.map(|p| p.name), ["Bo".to_owned(), "Ann".to_owned()]);
    assert_eq!(plan.conns, [vec![B], vec![A]]);
    assert!(session.act(A, Action::Game(GameAction::Rematch), 0).is_err(), "only one rematch");
}

#[test]
fn a_rematch_offer_lapses_when_its_player_leaves() {
    let mut session = started("gomoku", None);
    session.act(A, Action::Game(GameAction::Resign), 0).unwrap();
    session.act(A, Action::Game(GameAction::Rematch), 0).unwrap();
    session.detach(A, 10);
    let alone = session.act(B, Action::Game(GameAction::Rematch), 10).unwrap();
    assert_eq!(alone.rematch, None, "A's offer left with A");
    // A comes back: a fresh offer from A now starts it, with both connected.
    session.attach(A, Attach::Token("token-a".into()), None, 20).unwrap();
    let plan = session.act(A, Action::Game(GameAction::Rematch), 20).unwrap().rematch.unwrap();
    assert_eq!(plan.conns, [vec![B], vec![A]]);
}

#[test]
fn spectators_and_strangers_cannot_act() {
    let mut session = started("chess", None);
    session.attach(WATCHER, Attach::Watch, None, 0).unwrap();
    for action in [
        Action::Game(GameAction::Resign),
        Action::Game(GameAction::OfferDraw),
        Action::Game(GameAction::Abort),
        Action::Game(GameAction::ClaimWin),
        Action::Game(GameAction::ProposeTakeback),
        Action::Game(GameAction::AcceptTakeback),
    ] {
        assert!(session.act(WATCHER, action.clone(), 0).is_err());
        assert!(session.act(99, action, 0).is_err());
    }
    assert_eq!(session.play(WATCHER, 0, "e2e4", 0, 0), Err(Refusal::NotAPlayer));
    assert!(session.is_playing());
    // Another seat's token, the invite again, or a guess give no seat.
    let guess = Attach::Token("token-x".into());
    assert_eq!(session.attach(WATCHER, guess, None, 0).unwrap_err().code, ErrorCode::BadToken);
    let invite =
        Attach::Invite { invite: invite_for("token-a"), player: Player::anonymous("Cy".into()) };
    assert_eq!(session.attach(WATCHER, invite, None, 0).unwrap_err().code, ErrorCode::SeatTaken);
    assert_eq!(session.view_for(WATCHER, None, 0).you, None);
}

#[test]
fn a_win_is_claimed_only_after_the_grace_period() {
    let mut session = started("chess", None);
    assert!(session.act(A, Action::Game(GameAction::ClaimWin), 0).is_err(), "the opponent is here");
    let effects = session.detach(B, 1_000);
    let gone = ServerMessage::Presence { game: "g".into(), seat: Seat::Second, connected: false };
    assert_eq!(effects.out, vec![Outgoing::All(gone)]);
    assert!(session.act(A, Action::Game(GameAction::ClaimWin), 30_999).is_err());
    let effects = session.act(A, Action::Game(GameAction::ClaimWin), 31_000).unwrap();
    let result = ended(&effects).unwrap();
    assert_eq!((result.winner, &result.reason), (Some(Seat::First), &EndReason::Abandoned));
}

#[test]
fn views_carry_the_moves_from_the_ply_asked_for() {
    let mut session = started("gomoku", None);
    for (conn, mv) in [(A, "h8"), (B, "h9"), (A, "g8")] {
        play(&mut session, conn, mv, 0);
    }
    let view = session.view_for(A, Some(2), 0);
    assert_eq!((view.from_ply, view.moves.len()), (2, 1));
    assert_eq!(view.you, Some(Seat::First));
    let view = session.view_for(B, Some(9), 0);
    assert_eq!((view.from_ply, view.moves.len()), (0, 3), "more than there are: all");
    assert_eq!(view.status, Status::Playing);
}

#[test]
fn banqi_views_never_show_the_deal_until_the_end() {
    let mut session = started("banqi", None);
    let view = session.view_for(A, None, 0);
    assert!(!view.start.contains('*'), "{}", view.start);
    let effects = play(&mut session, A, "a1", 0);
    let Outgoing::All(ServerMessage::Moved { mv, .. }) = &effects.out[0] else { panic!() };
    let reveal = mv.reveal.clone().unwrap();
    let view = session.view_for(B, None, 0);
    assert_eq!(view.moves[0].reveal.as_deref(), Some(reveal.as_str()));
    assert!(!view.start.contains('*'));
    assert_eq!(view.deal, None, "no deal while playing");
    let effects = session.act(B, Action::Game(GameAction::Resign), 0).unwrap();
    let deal = effects.out.iter().find_map(|out| match out {
        Outgoing::All(ServerMessage::Ended { deal, .. }) => deal.clone(),
        _ => None,
    });
    let deal = deal.unwrap();
    assert_eq!(session.view_for(WATCHER, None, 0).deal.as_deref(), Some(deal.as_str()));
    let rank_1 = deal.split(' ').next().unwrap().rsplit('/').next().unwrap();
    assert!(rank_1.starts_with(&format!("*{reveal}")), "a1 begins rank 1 of {deal}");
}

#[test]
fn restoring_replays_moves_and_charges_nobody_for_the_downtime() {
    let clock = ClockSpec { base_secs: 60, increment_secs: 0 };
    let mut game = stored("chess960", "", Some(clock), 123);
    game.game.names[1] = Some("Bo".into());
    let moves = ["b1c3", "b8c6", "c3b1"];
    for (ply, text) in moves.iter().enumerate() {
        let seat = if ply % 2 == 0 { Seat::First } else { Seat::Second };
        let remaining = [50_000 - ply as u64, 40_000];
        game.moves.push(MoveRecord {
            ply: ply as u32,
            seat,
            text: (*text).to_owned(),
            unix_ms: 0,
            remaining_ms: Some(remaining),
        });
    }
    // Chess960 position 123 may not have those knights: pick legal moves instead.
    let mut replay = AnyGame::new("chess960", "", &StartFrom::Position(&game.game.start)).unwrap();
    for record in &mut game.moves {
        record.text = replay.legal_moves()[0].clone();
        replay.play(&record.text).unwrap();
    }
    let session = Session::restore(&game, 1_000_000).unwrap();
    assert_eq!(session.plies(), 3);
    assert!(session.is_playing());
    let view = session.view_for(A, None, 1_000_000 + 2_000);
    let clocks = view.clocks.unwrap();
    assert_eq!(clocks.running, Some(Seat::Second));
    assert_eq!(clocks.remaining_ms, [49_998, 38_000]);
}

#[test]
fn a_corrupt_record_does_not_restore() {
    let mut game = stored("chess", "", None, 0);
    let bad = MoveRecord {
        ply: 0,
        seat: Seat::First,
        text: "e2e5".into(),
        unix_ms: 0,
        remaining_ms: None,
    };
    game.moves.push(bad);
    assert!(Session::restore(&game, 0).is_err());
}

#[test]
fn the_creator_gets_the_invite_and_comes_back_to_it_with_their_token() {
    let mut session = created("chess", None);
    let (token, seat, invite) =
        seated(&session.attach(A, Attach::Seat(Seat::First), None, 0).unwrap());
    assert_eq!((token.as_str(), seat), ("token-a", Seat::First));
    assert_eq!(invite, Some(invite_for("token-a")));
    // After a restart (or the task stopped when idle) the session knows no plaintext token.
    let mut reloaded = Session::restore(&stored("chess", "", None, 7), 0).unwrap();
    let denied = reloaded.attach(A, Attach::Seat(Seat::First), None, 0).unwrap_err();
    assert_eq!(denied.code, ErrorCode::Unexpected, "no token to hand out");
    let back = reloaded.attach(A, Attach::Token("token-a".into()), None, 0).unwrap();
    assert_eq!(seated(&back), ("token-a".into(), Seat::First, Some(invite_for("token-a"))));
    // The free seat's stored hash is of a token nobody has, and no token seats a free seat.
    let free = Attach::Token("nobody has this".into());
    assert_eq!(reloaded.attach(B, free, None, 0).unwrap_err().code, ErrorCode::BadToken);
    // The stored hashes are no tokens or invites.
    let hash = Attach::Token(hash_token("token-a"));
    assert_eq!(reloaded.attach(B, hash, None, 0).unwrap_err().code, ErrorCode::BadToken);
    let hash = Attach::Invite {
        invite: hash_token(&invite_for("token-a")),
        player: Player::anonymous("Cy".into()),
    };
    assert_eq!(reloaded.attach(B, hash, None, 0).unwrap_err().code, ErrorCode::BadToken);
}

#[test]
fn a_joiner_of_a_reloaded_game_gets_a_new_token_that_is_stored_and_works() {
    let mut session = Session::restore(&stored("gomoku", "", None, 7), 0).unwrap();
    let join =
        Attach::Invite { invite: invite_for("token-a"), player: Player::anonymous("Bo".into()) };
    let effects = session.attach(B, join, None, 0).unwrap();
    let (token, seat, _) = seated(&effects);
    assert_eq!(seat, Seat::Second);
    assert_ne!(token, "nobody has this");
    let Write::TakeSeat { token_hash, .. } = &effects.writes[0] else { panic!() };
    assert_eq!(*token_hash, hash_token(&token));
    // Stored and loaded again: the token holds the seat.
    let mut record = stored("gomoku", "", None, 7);
    record.game.names[1] = Some("Bo".into());
    record.game.token_hashes[1].clone_from(token_hash);
    let mut reloaded = Session::restore(&record, 0).unwrap();
    let back = reloaded.attach(B, Attach::Token(token.clone()), None, 0).unwrap();
    assert_eq!(seated(&back), (token, Seat::Second, None));
    // And the invite is spent.
    let again =
        Attach::Invite { invite: invite_for("token-a"), player: Player::anonymous("Cy".into()) };
    assert_eq!(reloaded.attach(WATCHER, again, None, 0).unwrap_err().code, ErrorCode::SeatTaken);
}

#[test]
fn a_game_waiting_since_before_hashing_seats_its_joiner_but_echoes_no_invite() {
    // Schema 1 kept a random invite; the migration hashed it in place.
    let mut old = stored("chess", "", None, 7);
    old.game.invite_hash = hash_token("old-random-invite");
    let mut session = Session::restore(&old, 0).unwrap();
    let back = session.attach(A, Attach::Token("token-a".into()), None, 0).unwrap();
    assert_eq!(seated(&back), ("token-a".into(), Seat::First, None), "not derived: not echoed");
    let join = Attach::Invite {
        invite: "old-random-invite".into(),
        player: Player::anonymous("Bo".into()),
    };
    let (_, seat, _) = seated(&session.attach(B, join, None, 0).unwrap());
    assert_eq!(seat, Seat::Second);
}

#[test]
fn a_created_game_refuses_tokens_that_are_not_its_own() {
    let tokens = [Some("token-x".into()), None];
    assert!(Session::created(&stored("chess", "", None, 7), tokens, 0).is_err());
}

/// The chat lines in `effects`' messages, with the room they go to.
fn said(effects: &Effects) -> Vec<(ChatRoom, ChatLine)> {
    effects
        .out
        .iter()
        .filter_map(|out| match out {
            Outgoing::Room(room, ServerMessage::Chat { line, .. }) => Some((*room, line.clone())),
            _ => None,
        })
        .collect()
}

fn text(text: &str) -> Action {
    Action::Chat { name: "ignored for players".into(), body: ChatBody::Text { text: text.into() } }
}

#[test]
fn players_and_spectators_chat_in_rooms_of_their_own() {
    let mut session = started("chess", None);
    session.attach(WATCHER, Attach::Watch, None, 0).unwrap();
    let effects = session.act(A, text("  good luck! "), 0).unwrap();
    let [(room, line)] = said(&effects).try_into().unwrap();
    assert_eq!(room, ChatRoom::Players);
    assert_eq!((line.seat, line.name.as_str()), (Some(Seat::First), "Ann"), "the seat's name");
    assert_eq!(line.body, ChatBody::Text { text: "good luck!".into() });
    assert!(matches!(&effects.writes[..], [Write::Chat { .. }]));
    assert_eq!(session.room_members(ChatRoom::Players), vec![A, B]);
    let quick = ChatBody::Quick { code: QuickMessage::Hello };
    let effects = session.act(WATCHER, Action::Chat { name: "Cy".into(), body: quick }, 0).unwrap();
    let [(room, line)] = said(&effects).try_into().unwrap();
    assert_eq!((room, line.seat, line.name.as_str()), (ChatRoom::Spectators, None, "Cy"));
    assert_eq!(session.room_members(ChatRoom::Spectators), vec![WATCHER]);
    // Each reads their own room only.
    assert_eq!(session.view_for(B, None, 0).chat.len(), 1);
    assert_eq!(session.view_for(B, None, 0).chat[0].room, ChatRoom::Players);
    assert_eq!(session.view_for(WATCHER, None, 0).chat.len(), 1);
    assert_eq!(session.view_for(WATCHER, None, 0).chat[0].room, ChatRoom::Spectators);
    assert_eq!(session.act(9, text("hi"), 0).unwrap_err().code, ErrorCode::Unexpected);
}

#[test]
fn chat_lines_are_checked_rate_limited_and_bounded() {
    let mut session = started("gomoku", None);
    for (bad, code) in [
        ("", ErrorCode::BadChat),
        (&"x".repeat(CHAT_MAX_CHARS + 1)[..], ErrorCode::BadChat),
        ("a\u{202E}b", ErrorCode::BadChat),
        ("line\nbreak", ErrorCode::BadChat),
    ] {
        assert_eq!(session.act(A, text(bad), 0).unwrap_err().code, code, "{bad:?}");
    }
    for n in 0..CHAT_RATE_MAX {
        session.act(A, text(&format!("{n}")), 1_000).unwrap();
    }
    let flood = session.act(A, text("one more"), 2_000).unwrap_err();
    assert_eq!(flood.code, ErrorCode::BadChat);
    assert!(flood.detail.contains("try again in 9 s"), "{}", flood.detail);
    // A reconnect does not reset a player's window; the other player has their own.
    session.detach(A, 2_000);
    session.attach(A, Attach::Token("token-a".into()), None, 2_000).unwrap();
    let again = session.act(A, text("again"), 2_000).unwrap_err();
    assert!(again.detail.starts_with("at most"), "{}", again.detail);
    session.act(B, text("hi"), 2_000).unwrap();
    session.act(A, text("later"), 1_000 + CHAT_RATE_WINDOW_MS).unwrap();
    assert_eq!(session.view_for(A, None, 0).chat.len(), CHAT_RATE_MAX + 2);
    // A full room lets its oldest line go.
    let mut now = 100_000;
    for n in 0..CHAT_ROOM_MAX_LINES {
        now += CHAT_RATE_WINDOW_MS;
        session.act(B, text(&format!("x{n}")), now).unwrap();
    }
    let chat = session.view_for(A, None, 0).chat;
    assert_eq!(chat.len(), CHAT_ROOM_MAX_LINES);
    assert_eq!(chat[0].body, ChatBody::Text { text: "x0".into() }, "the oldest went");
    // After the end, players may still talk; spectators may not.
    session.attach(WATCHER, Attach::Watch, None, now).unwrap();
    session.act(A, Action::Game(GameAction::Resign), now).unwrap();
    now += CHAT_RATE_WINDOW_MS;
    session.act(B, text("gg"), now).unwrap();
    let closed = session.act(WATCHER, text("boo"), now).unwrap_err();
    assert_eq!(closed.code, ErrorCode::BadChat);
    assert!(closed.detail.contains("over"), "{}", closed.detail);
}

#[test]
fn chat_is_kept_with_the_game() {
    let mut storage = MemoryStorage::new();
    let game = stored("chess", "", None, 1);
    storage.write(&[Write::Create(game.game.clone())]).unwrap();
    let mut session = Session::created(&game, [Some("token-a".into()), None], 0).unwrap();
    session.attach(A, Attach::Seat(Seat::First), None, 0).unwrap();
    let effects = session.act(A, text("anyone?"), 0).unwrap();
    storage.write(&effects.writes).unwrap();
    let restored = Session::restore(&storage.load("g").unwrap().unwrap(), 0).unwrap();
    let mut restored = restored;
    restored.attach(A, Attach::Token("token-a".into()), None, 0).unwrap();
    let chat = restored.view_for(A, None, 0).chat;
    assert_eq!(chat.len(), 1);
    assert_eq!(chat[0].body, ChatBody::Text { text: "anyone?".into() });
}

fn takeback_denied(session: &mut Session, conn: ConnId, action: Action) -> String {
    let denied = session.act(conn, action, 0).unwrap_err();
    assert_eq!(denied.code, ErrorCode::NoTakeback);
    denied.detail
}

#[test]
fn a_takeback_is_asked_once_and_answered() {
    let mut session = started("chess", None);
    assert!(
        takeback_denied(&mut session, A, Action::Game(GameAction::ProposeTakeback))
            .contains("not moved")
    );
    play(&mut session, A, "e2e4", 0);
    assert!(
        takeback_denied(&mut session, B, Action::Game(GameAction::AcceptTakeback))
            .contains("no takeback")
    );
    let effects = session.act(A, Action::Game(GameAction::ProposeTakeback), 0).unwrap();
    let offered = ServerMessage::TakebackOffered { game: "g".into(), by: Seat::First };
    assert_eq!(effects.out, vec![Outgoing::All(offered)]);
    assert!(
        takeback_denied(&mut session, A, Action::Game(GameAction::ProposeTakeback))
            .contains("already")
    );
    assert!(
        takeback_denied(&mut session, B, Action::Game(GameAction::ProposeTakeback))
            .contains("already")
    );
    assert!(
        takeback_denied(&mut session, A, Action::Game(GameAction::AcceptTakeback))
            .contains("no takeback")
    );
    // Declined: no asking again until a move is played.
    session.act(B, Action::Game(GameAction::DeclineTakeback), 0).unwrap();
    assert!(
        takeback_denied(&mut session, A, Action::Game(GameAction::ProposeTakeback))
            .contains("declined")
    );
    play(&mut session, B, "e7e5", 0);
    // A asks again with B's reply made: both moves go.
    session.act(A, Action::Game(GameAction::ProposeTakeback), 0).unwrap();
    let effects = session.act(B, Action::Game(GameAction::AcceptTakeback), 0).unwrap();
    assert_eq!(effects.writes, vec![Write::Takeback { game: "g".into(), plies: 0 }]);
    assert_eq!(effects.out, vec![Outgoing::StateToAll]);
    assert_eq!(session.plies(), 0);
    assert_eq!(session.view_for(A, None, 0).takeback_offer, None);
    play(&mut session, A, "d2d4", 0);
    // A move lapses a standing request.
    play(&mut session, B, "d7d5", 0);
    session.act(B, Action::Game(GameAction::ProposeTakeback), 0).unwrap();
    let effects = play(&mut session, A, "c2c4", 0);
    assert!(
        effects.out.contains(&Outgoing::All(ServerMessage::TakebackDeclined { game: "g".into() }))
    );
    session.act(A, Action::Game(GameAction::Resign), 0).unwrap();
    assert!(
        takeback_denied(&mut session, A, Action::Game(GameAction::ProposeTakeback))
            .contains("not being played")
    );
    let stranger = session.act(WATCHER, Action::Game(GameAction::ProposeTakeback), 0).unwrap_err();
    assert_eq!(stranger.code, ErrorCode::Unexpected);
}

#[test]
fn a_takeback_gives_no_time_back_even_after_a_restart() {
    let clock = ClockSpec { base_secs: 60, increment_secs: 0 };
    let mut game = stored("chess", "", Some(clock), 1);
    game.game.names[1] = Some("Bo".into());
    game.game.token_hashes[1] = hash_token("token-b");
    let mut storage = MemoryStorage::new();
    storage.write(&[Write::Create(game.game.clone())]).unwrap();
    let tokens = [Some("token-a".into()), Some("token-b".into())];
    let mut session = Session::created(&game, tokens, 0).unwrap();
    session.attach(A, Attach::Seat(Seat::First), None, 0).unwrap();
    session.attach(B, Attach::Seat(Seat::Second), None, 0).unwrap();
    for (conn, mv, now) in [(A, "e2e4", 1_000), (B, "e7e5", 2_000), (A, "g1f3", 12_000)] {
        let effects = play(&mut session, conn, mv, now);
        storage.write(&effects.writes).unwrap();
    }
    // A spent 10 s on Nf3; taking it back does not give them back.
    session.act(A, Action::Game(GameAction::ProposeTakeback), 13_000).unwrap();
    let effects = session.act(B, Action::Game(GameAction::AcceptTakeback), 13_000).unwrap();
    storage.write(&effects.writes).unwrap();
    let clocks = session.view_for(A, None, 13_000).clocks.unwrap();
    assert_eq!(clocks.remaining_ms, [50_000, 59_000]);
    assert_eq!(clocks.running, Some(Seat::First), "A is to move again");
    let restored = Session::restore(&storage.load("g").unwrap().unwrap(), 100_000).unwrap();
    assert_eq!(restored.plies(), 2);
    let clocks = restored.view_for(A, None, 100_000).clocks.unwrap();
    assert_eq!(clocks.remaining_ms, [50_000, 59_000], "as they were at the takeback");
}

#[test]
fn banqi_moves_that_turned_a_piece_up_are_not_taken_back() {
    let mut session = started("banqi", None);
    play(&mut session, A, "a1", 0);
    let detail = takeback_denied(&mut session, A, Action::Game(GameAction::ProposeTakeback));
    assert!(detail.contains("turned a piece up"), "{detail}");
}

/// A tournament's game as stored for two accounts, loaded from storage (no token known).
fn tournament_game(rated: bool) -> Session {
    let mut game = stored("gomoku", "", Some(ClockSpec { base_secs: 60, increment_secs: 0 }), 7);
    game.game.names = [Some("Ann".into()), Some("Bo".into())];
    game.game.accounts = [Some("ann".into()), Some("bo".into())];
    game.game.tournament = Some("t1".into());
    game.game.spec.rated = rated;
    Session::restore(&game, 0).unwrap()
}

#[test]
fn a_tournament_game_seats_its_accounts_by_account_alone() {
    let mut session = tournament_game(true);
    // An account without a seat watches.
    let watching = session.attach(WATCHER, Attach::Account("eve".into()), None, 0).unwrap();
    assert!(watching.writes.is_empty());
    assert!(
        !watching.out.iter().any(|o| matches!(o, Outgoing::To(_, ServerMessage::Seated { .. })))
    );
    assert!(session.spectators.contains(&WATCHER));
    let effects = session.attach(A, Attach::Account("bo".into()), None, 0).unwrap();
    let (token, seat, _) = seated(&effects);
    assert_eq!(seat, Seat::Second);
    // Loaded from storage, the seat's token was not known: a new one, stored.
    assert!(matches!(
        effects.writes.as_slice(),
        [Write::TakeSeat { seat: Seat::Second, token_hash, account: Some(a), .. }]
            if *token_hash == hash_token(&token) && a == "bo"
    ));
    // Another tab of the same account gets the same token, and nothing is written.
    let again = session.attach(B, Attach::Account("bo".into()), None, 0).unwrap();
    assert_eq!(seated(&again).0, token);
    assert!(again.writes.is_empty());
    // The token works as any seat's does.
    assert_eq!(seated(&session.attach(WATCHER, Attach::Token(token), None, 0).unwrap()).1, seat);
    assert!(!session.spectators.contains(&WATCHER), "a spectator who sits is one no more");
}

#[test]
fn a_tournament_game_cannot_be_aborted_or_rematched_and_a_side_that_never_moves_forfeits() {
    let mut session = tournament_game(true);
    session.attach(A, Attach::Account("ann".into()), None, 0).unwrap();
    session.attach(B, Attach::Account("bo".into()), None, 0).unwrap();
    assert!(session.act(A, Action::Game(GameAction::Abort), 0).is_err());
    play(&mut session, A, "h8", 1_000);
    // The deadline: Black never moved and loses; rated or not, the result stands as it is
    // (the store leaves a game where a side never moved unrated).
    let effects = session.act(A, Action::NoShow, 61_000).unwrap();
    let result = session.result.clone().unwrap();
    assert_eq!((result.winner, result.reason), (Some(Seat::First), EndReason::Abandoned));
    assert!(effects.writes.iter().any(|w| matches!(w, Write::Finish { .. })));
    assert!(session.act(A, Action::Game(GameAction::Rematch), 62_000).is_err());
    // Said again, or of a game under way: nothing.
    assert_eq!(session.act(A, Action::NoShow, 70_000).unwrap(), Effects::default());
    let mut going = tournament_game(false);
    going.attach(A, Attach::Account("ann".into()), None, 0).unwrap();
    going.attach(B, Attach::Account("bo".into()), None, 0).unwrap();
    play(&mut going, A, "h8", 1_000);
    play(&mut going, B, "a1", 2_000);
    assert_eq!(going.act(A, Action::NoShow, 90_000).unwrap(), Effects::default());
    assert!(going.result.is_none());
    // Nobody moved, Black there: White loses; nobody there: nobody wins.
    let mut empty = tournament_game(false);
    empty.attach(B, Attach::Account("bo".into()), None, 0).unwrap();
    empty.act(A, Action::NoShow, 61_000).unwrap();
    assert_eq!(empty.result.unwrap().winner, Some(Seat::Second));
    let mut deserted = tournament_game(false);
    deserted.act(A, Action::NoShow, 61_000).unwrap();
    assert_eq!(deserted.result.unwrap().winner, None);
}

#[test]
fn a_game_outside_tournaments_ignores_a_no_show() {
    let mut session = started("gomoku", None);
    assert_eq!(session.act(A, Action::NoShow, 999_999).unwrap(), Effects::default());
    assert!(session.result.is_none());
}
