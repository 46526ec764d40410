//! The lobby over real WebSockets: open challenges seen and accepted (two accepting at once:
//! one wins), games being played listed with their position (banqi's face-down pieces unknown),
//! the quick-pairing count, private games unlisted, and the limits on following.

mod common;

use std::time::{Duration, Instant};

use common::{Client, LobbySeen, spec, start_server};
use qi_protocol::{ClientMessage, ErrorCode, GameSpec, SeatChoice, ServerMessage};

async fn follow(client: &mut Client, variant: Option<&str>, seek: Option<GameSpec>) {
    let variant = variant.map(|name| qi_protocol::Variant::parse(name).expect("a variant"));
    client.send(&ClientMessage::Lobby { variant, seek }).await;
}

async fn seated_in(client: &mut Client) -> String {
    client
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_challenge_is_seen_within_a_second_and_accepted_by_exactly_one() {
    let server = start_server("lobby-accept").await;
    let mut viewer = Client::hello(server.addr, "Vi").await;
    follow(&mut viewer, Some("chess"), None).await;
    let mut seen = LobbySeen::default();
    seen.until(&mut viewer, |_| true).await;
    // A private game is never listed; a challenge is, within a second.
    let mut hidden = Client::hello(server.addr, "Hid").await;
    hidden.send(&ClientMessage::Create { spec: spec("chess", ""), seat: SeatChoice::First }).await;
    seated_in(&mut hidden).await;
    let mut bo = Client::hello(server.addr, "Bo").await;
    let posted = Instant::now();
    bo.send(&ClientMessage::Challenge { spec: spec("chess", ""), seat: SeatChoice::Second }).await;
    let game = seated_in(&mut bo).await;
    seen.until(&mut viewer, |seen| seen.challenges.contains_key(&game)).await;
    assert!(posted.elapsed() < Duration::from_secs(1), "seen after {:?}", posted.elapsed());
    assert_eq!(seen.challenges.len(), 1, "the private game is not listed");
    let row = &seen.challenges[&game];
    assert_eq!((row.name.as_str(), row.seat), ("Bo", qi_protocol::Seat::Second));
    // The creator cannot accept their own challenge.
    bo.send(&ClientMessage::Accept { game: game.clone() }).await;
    assert_eq!(bo.error().await, ErrorCode::Unexpected);
    // Two accept at once: exactly one is seated, the other hears the seat is taken.
    let mut ann = Client::hello(server.addr, "Ann").await;
    let mut cy = Client::hello(server.addr, "Cy").await;
    let accept = ClientMessage::Accept { game: game.clone() };
    tokio::join!(ann.send(&accept), cy.send(&accept));
    let answers = [accepted(&mut ann).await, accepted(&mut cy).await];
    assert_eq!(answers.iter().filter(|a| a.is_ok()).count(), 1, "{answers:?}");
    assert!(answers.contains(&Err(ErrorCode::SeatTaken)), "{answers:?}");
    // The challenge goes; the game shows among those being played, with both names.
    seen.until(&mut viewer, |seen| {
        !seen.challenges.contains_key(&game) && seen.games.contains_key(&game)
    })
    .await;
    let live = &seen.games[&game];
    assert_eq!(live.names[1], "Bo");
    assert!(["Ann", "Cy"].contains(&live.names[0].as_str()));
    // A challenge whose creator left is not open any more.
    let mut gone = Client::hello(server.addr, "Go").await;
    gone.send(&ClientMessage::Challenge { spec: spec("gomoku", ""), seat: SeatChoice::First })
        .await;
    let left = seated_in(&mut gone).await;
    gone.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    cy.send(&ClientMessage::Accept { game: left }).await;
    let code = cy
        .until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await;
    assert!(matches!(code, ErrorCode::SeatTaken | ErrorCode::UnknownGame), "{code:?}");
    // Accepting a game that was never listed is refused: it needs its invite.
    let hidden_game = hidden.state().await.game;
    cy.send(&ClientMessage::Accept { game: hidden_game }).await;
    assert_eq!(cy.error().await, ErrorCode::BadToken);
}

#[tokio::test]
async fn banqi_previews_never_show_a_face_down_piece() {
    let server = start_server("lobby-banqi").await;
    let mut viewer = Client::hello(server.addr, "Vi").await;
    follow(&mut viewer, Some("banqi"), None).await;
    let mut seen = LobbySeen::default();
    let mut ann = Client::hello(server.addr, "Ann").await;
    ann.send(&ClientMessage::Challenge { spec: spec("banqi", ""), seat: SeatChoice::First }).await;
    let game = seated_in(&mut ann).await;
    let mut bo = Client::hello(server.addr, "Bo").await;
    bo.send(&ClientMessage::Accept { game: game.clone() }).await;
    seated_in(&mut bo).await;
    ann.send(&ClientMessage::Move { game: game.clone(), ply: 0, text: "a1".into() }).await;
    let flipped = ann.moved(0).await;
    let piece = flipped.reveal.expect("a flip turns a piece up");
    seen.until(&mut viewer, |seen| seen.games.get(&game).is_some_and(|g| g.plies == 1)).await;
    let position = &seen.games[&game].position;
    assert!(!position.contains('*'), "no face-down piece named: {position}");
    assert!(position.contains(&piece), "the piece turned up shows: {position}");
    assert_eq!(position.matches('?').count(), 31, "{position}");
}

#[tokio::test]
async fn the_quick_pairing_count_and_the_limit_on_following() {
    let server = start_server("lobby-count").await;
    let gomoku = spec("gomoku", "");
    let mut viewer = Client::hello(server.addr, "Vi").await;
    follow(&mut viewer, None, Some(gomoku.clone())).await;
    let mut seen = LobbySeen::default();
    seen.until(&mut viewer, |seen| seen.waiting == Some(0)).await;
    let mut seeker = Client::hello(server.addr, "Se").await;
    seeker.send(&ClientMessage::Seek { spec: gomoku.clone() }).await;
    seen.until(&mut viewer, |seen| seen.waiting == Some(1)).await;
    seeker.send(&ClientMessage::CancelSeek).await;
    seen.until(&mut viewer, |seen| seen.waiting == Some(0)).await;
    // Following anew floods nobody: past the limit it is refused with the rule.
    let mut flood = Client::hello(server.addr, "Fl").await;
    // Following anew (each change of filter, or leaving and coming back) is limited.
    for n in 0..qi_lobby_limit() {
        follow(&mut flood, Some(if n % 2 == 0 { "chess" } else { "xiangqi" }), None).await;
    }
    flood.send(&ClientMessage::LeaveLobby).await;
    follow(&mut flood, None, None).await;
    let detail = flood
        .until(|m| match m {
            ServerMessage::Error { code: ErrorCode::RateLimited, detail } => Some(detail.clone()),
            _ => None,
        })
        .await;
    assert!(detail.contains("lobby"), "{detail}");
    // A filter by a game that does not exist is no message the server reads.
    let bad = format!(r#"{{"type":"lobby","variant":"{}"}}"#, "x".repeat(64));
    flood.send_text(bad).await;
    let code = flood
        .until(|m| match m {
            ServerMessage::Error { code, .. } if *code != ErrorCode::RateLimited => Some(*code),
            _ => None,
        })
        .await;
    assert_eq!(code, ErrorCode::BadMessage);
}

/// Whether `client`'s accept seated it, or the error it got.
async fn accepted(client: &mut Client) -> Result<(), ErrorCode> {
    client
        .until(|m| match m {
            ServerMessage::Seated { .. } => Some(Ok(())),
            ServerMessage::Error { code, .. } => Some(Err(*code)),
            _ => None,
        })
        .await
}

fn qi_lobby_limit() -> usize {
    qi_server::lobby::FOLLOWS_PER_WINDOW
}
