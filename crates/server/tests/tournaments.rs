//! Tournaments over real HTTP (on by default; off with `--no-tournaments`): a signed-in player
//! creates one (its settings checked, the limits per account kept), everyone lists and reads
//! it, players join (password, rating bounds, room) and withdraw; a stored tournament keeps
//! every join when several come at once; the driver plays a whole Swiss over real sockets, and
//! its records download.

mod common;

use common::{register, request, signed_in_client, start_server_with_tournaments};
use qi_protocol::AccountErrorCode;
use qi_protocol::{ClientMessage, ErrorCode, GameAction, ServerMessage};
use qi_server::tournaments::{TournamentLists, TournamentView};

fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()
}

fn spec(name: &str, extra: serde_json::Value) -> String {
    let mut spec = serde_json::json!({
        "name": name,
        "family": "Xiangqi",
        "rules": "",
        "starts_at": now() + 3600,
        "clock": { "initial_seconds": 180, "increment_seconds": 2 },
        "format": { "format": "swiss", "rounds": 5, "pause_seconds": 60 },
        "rated": true,
        "password": null,
        "min_rating": null,
        "max_rating": null,
        "max_players": 50
    });
    for (key, value) in extra.as_object().unwrap() {
        spec[key] = value.clone();
    }
    spec.to_string()
}

#[tokio::test]
async fn tournaments_are_created_listed_joined_and_left() {
    // Turned off (`--no-tournaments`): no routes.
    let data = common::temp_dir("tournaments-off");
    let mut settings = qi_server::app::Settings::new(data.join("dist"));
    settings.tournaments = false;
    let plain = common::start_server_settings(data, settings).await;
    assert_eq!(request(plain.addr, "GET", "/api/tournaments", None, None).await.status, 404);
    plain.shutdown.cancel();

    let server = start_server_with_tournaments("tournaments").await;
    let addr = server.addr;
    let ada = register(addr, "ada", "correct horse battery").await.cookie();
    let bo = register(addr, "bobo", "correct horse battery").await.cookie();

    // Signed out: refused; a bad spec: refused with what was wrong.
    let anonymous =
        request(addr, "POST", "/api/tournaments", None, Some(&spec("Open", serde_json::json!({}))))
            .await;
    assert_eq!((anonymous.status, anonymous.error()), (401, AccountErrorCode::NotSignedIn));
    let nameless = request(
        addr,
        "POST",
        "/api/tournaments",
        Some(&ada),
        Some(&spec("", serde_json::json!({}))),
    )
    .await;
    assert_eq!(nameless.status, 400);
    assert!(nameless.body.contains("name"), "{}", nameless.body);
    let bad_rules = serde_json::json!({ "rules": "board=99" });
    let refused =
        request(addr, "POST", "/api/tournaments", Some(&ada), Some(&spec("Odd", bad_rules))).await;
    assert_eq!(refused.status, 400, "{}", refused.body);
    let garbage = request(addr, "POST", "/api/tournaments", Some(&ada), Some("{\"name\":")).await;
    assert_eq!(garbage.status, 400);

    // Created: the creator sees it, not yet a member.
    let created = request(
        addr,
        "POST",
        "/api/tournaments",
        Some(&ada),
        Some(&spec("Friday Swiss", serde_json::json!({}))),
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let view: TournamentView = serde_json::from_str(&created.body).unwrap();
    assert_eq!(
        (view.summary.name.as_str(), view.summary.stage.as_str(), view.summary.format.as_str()),
        ("Friday Swiss", "upcoming", "swiss")
    );
    assert!(!view.joined);
    let id = view.summary.id.clone();

    // A private one, rating-bounded.
    let private = serde_json::json!({ "password": "club", "format": { "format": "arena", "minutes": 30, "berserk": true, "streaks": true }, "min_rating": 1600 });
    let club =
        request(addr, "POST", "/api/tournaments", Some(&ada), Some(&spec("Club arena", private)))
            .await;
    assert_eq!(club.status, 201, "{}", club.body);
    let club: TournamentView = serde_json::from_str(&club.body).unwrap();
    assert!(club.summary.private);
    assert_eq!(club.spec.password, None, "the password is never shown");

    // Listed for everyone.
    let lists = request(addr, "GET", "/api/tournaments", None, None).await;
    let lists: TournamentLists = serde_json::from_str(&lists.body).unwrap();
    assert_eq!(lists.upcoming.len(), 2);
    assert!(lists.running.is_empty() && lists.finished.is_empty());

    // Joining: both players; the list and the page count them.
    for cookie in [&ada, &bo] {
        let joined =
            request(addr, "POST", &format!("/api/tournaments/{id}/join"), Some(cookie), Some("{}"))
                .await;
        assert_eq!(joined.status, 200, "{}", joined.body);
        assert!(serde_json::from_str::<TournamentView>(&joined.body).unwrap().joined);
    }
    let page = request(addr, "GET", &format!("/api/tournaments/{id}"), Some(&bo), None).await;
    let page: TournamentView = serde_json::from_str(&page.body).unwrap();
    assert_eq!(page.members.len(), 2);
    assert_eq!(page.members[0].rating, 1500, "no xiangqi rating yet: 1500");
    assert_eq!(page.standings.len(), 2);
    assert!(page.joined);

    // The club's: a wrong password, then a rating below its floor.
    let club_join = format!("/api/tournaments/{}/join", club.summary.id);
    let wrong = request(addr, "POST", &club_join, Some(&bo), Some("{\"password\":\"nope\"}")).await;
    assert_eq!((wrong.status, wrong.error()), (403, AccountErrorCode::Refused));
    assert!(wrong.body.contains("password"), "{}", wrong.body);
    let stored = server.hub.storage().tournament(club.summary.id.clone()).await.unwrap().unwrap();
    assert!(!stored.document.contains("\"club\""), "only the password's hash is kept");
    let low = request(addr, "POST", &club_join, Some(&bo), Some("{\"password\":\"club\"}")).await;
    assert_eq!(low.status, 403);
    assert!(low.body.contains("rating bounds"), "no rating in the game yet: {}", low.body);

    // Withdrawing: a member may, a stranger may not; an unknown tournament is 404.
    let left =
        request(addr, "POST", &format!("/api/tournaments/{id}/withdraw"), Some(&bo), Some("{}"))
            .await;
    assert_eq!(left.status, 200, "{}", left.body);
    let again = request(
        addr,
        "POST",
        &format!("/api/tournaments/{}/withdraw", club.summary.id),
        Some(&bo),
        Some("{}"),
    )
    .await;
    assert_eq!((again.status, again.error()), (409, AccountErrorCode::Refused));
    let missing = request(addr, "GET", "/api/tournaments/nosuch1", None, None).await;
    assert_eq!((missing.status, missing.error()), (404, AccountErrorCode::NotFound));
    let odd = request(addr, "GET", "/api/tournaments/..%2Fetc", None, None).await;
    assert_eq!(odd.status, 404);

    // Any of the game's rule options: a renju event under the RIF's opening rule (created by
    // Bo, so that Ada's count below stays hers).
    let renju = serde_json::json!({ "family": "Gomoku", "rules": "rule=renju,opening=soosorv8" });
    let renju =
        request(addr, "POST", "/api/tournaments", Some(&bo), Some(&spec("Renju open", renju)))
            .await;
    assert_eq!(renju.status, 201, "{}", renju.body);
    let renju: TournamentView = serde_json::from_str(&renju.body).unwrap();
    assert_eq!(
        (renju.summary.game.as_str(), renju.spec.rules.as_str()),
        ("gomoku", "rule=renju,opening=soosorv8")
    );

    // The limit: three open tournaments per creator.
    let third = request(
        addr,
        "POST",
        "/api/tournaments",
        Some(&ada),
        Some(&spec("Third", serde_json::json!({}))),
    )
    .await;
    assert_eq!(third.status, 201);
    let fourth = request(
        addr,
        "POST",
        "/api/tournaments",
        Some(&ada),
        Some(&spec("Fourth", serde_json::json!({}))),
    )
    .await;
    assert_eq!((fourth.status, fourth.error()), (429, AccountErrorCode::TooManyAttempts));

    // Open tournaments count however long ago they were made.
    let cyd = register(addr, "cyd", "correct horse battery").await.cookie();
    let long_ago = (now() - 3 * 24 * 3600) * 1000;
    for k in 0..3 {
        let record = qi_server::storage::TournamentRecord {
            id: format!("old{k}"),
            creator: qi_protocol::username_key("cyd"),
            stage: "upcoming".into(),
            starts_at: now() + 7 * 24 * 3600,
            created_unix_ms: long_ago,
            version: 1,
            document: "{}".into(),
        };
        server
            .hub
            .storage()
            .write(vec![qi_server::storage::Write::Tournament(record)])
            .await
            .unwrap();
    }
    let more = request(
        addr,
        "POST",
        "/api/tournaments",
        Some(&cyd),
        Some(&spec("More", serde_json::json!({}))),
    )
    .await;
    assert_eq!((more.status, more.error()), (429, AccountErrorCode::TooManyAttempts));
    server.shutdown.cancel();
}

#[tokio::test]
async fn joins_at_once_all_count() {
    let server = start_server_with_tournaments("tournament-joins").await;
    let addr = server.addr;
    let creator = register(addr, "host", "correct horse battery").await.cookie();
    let created = request(
        addr,
        "POST",
        "/api/tournaments",
        Some(&creator),
        Some(&spec("Rush", serde_json::json!({}))),
    )
    .await;
    let id = serde_json::from_str::<TournamentView>(&created.body).unwrap().summary.id;
    let mut cookies = Vec::new();
    for k in 0..8 {
        cookies.push(register(addr, &format!("player{k}"), "correct horse battery").await.cookie());
    }
    let joins = cookies.iter().map(|cookie| {
        let path = format!("/api/tournaments/{id}/join");
        let cookie = cookie.clone();
        tokio::spawn(
            async move { request(addr, "POST", &path, Some(&cookie), Some("{}")).await.status },
        )
    });
    for join in joins {
        assert_eq!(join.await.unwrap(), 200);
    }
    let page = request(addr, "GET", &format!("/api/tournaments/{id}"), None, None).await;
    let page: TournamentView = serde_json::from_str(&page.body).unwrap();
    assert_eq!(page.members.len(), 8, "every join kept");
    server.shutdown.cancel();
}

/// Reads a tournament as `cookie`'s account sees it.
async fn page(addr: std::net::SocketAddr, id: &str, cookie: &str) -> TournamentView {
    let answer = request(addr, "GET", &format!("/api/tournaments/{id}"), Some(cookie), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    serde_json::from_str(&answer.body).unwrap()
}

/// Sits `client` in `game` by its account; returns its seat.
async fn sit(client: &mut common::Client, game: &str) -> qi_protocol::Seat {
    client.send(&ClientMessage::Sit { game: game.into(), have_plies: None }).await;
    client
        .until(|m| match m {
            ServerMessage::Seated { seat, .. } => Some(*seat),
            ServerMessage::Error { detail, .. } => panic!("not seated: {detail}"),
            _ => None,
        })
        .await
}

/// A whole Swiss over real sockets: started on time by the driver, every pairing's game
/// created for its two accounts, who come into it by their account alone; the results
/// counted; the next round after the pause; the end.
#[tokio::test]
async fn a_swiss_is_played_to_its_end_by_the_driver() {
    let server = start_server_with_tournaments("tournaments-swiss-played").await;
    let addr = server.addr;
    let names = ["ada", "bobo", "cyd"];
    let mut cookies = Vec::new();
    for name in names {
        cookies.push(register(addr, name, "correct horse battery").await.cookie());
    }
    let swiss = serde_json::json!({
        "family": "Gomoku",
        "starts_at": now() + 2,
        "clock": { "initial_seconds": 300, "increment_seconds": 0 },
        "format": { "format": "swiss", "rounds": 3, "pause_seconds": 10 },
        "max_players": 8
    });
    let created =
        request(addr, "POST", "/api/tournaments", Some(&cookies[0]), Some(&spec("Quick", swiss)))
            .await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = serde_json::from_str::<TournamentView>(&created.body).unwrap().summary.id;
    for cookie in &cookies {
        let path = format!("/api/tournaments/{id}/join");
        assert_eq!(request(addr, "POST", &path, Some(cookie), Some("{}")).await.status, 200);
    }
    let mut sockets = Vec::new();
    for cookie in &cookies {
        sockets.push(signed_in_client(addr, cookie, "").await.0);
    }
    // A guest cannot take an account's seat: it watches.
    let mut guest = common::Client::hello(addr, "Guest").await;

    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut played = std::collections::HashSet::new();
    loop {
        let view = page(addr, &id, &cookies[0]).await;
        assert!(std::time::Instant::now() < deadline, "the Swiss never finished: {view:?}");
        if view.summary.stage == "finished" {
            break;
        }
        let Some(game) = view.playing.iter().find(|g| !played.contains(&g.id)).cloned() else {
            // Reads are limited per address (120 a minute): once a second.
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            continue;
        };
        played.insert(game.id.clone());
        let white = names.iter().position(|n| *n == game.white).unwrap();
        let black = names.iter().position(|n| *n == game.black).unwrap();
        if played.len() == 1 {
            // Each sees the game as theirs.
            let mine = |view: TournamentView| view.my_game;
            assert_eq!(mine(page(addr, &id, &cookies[white]).await).as_deref(), Some(&*game.id));
            assert_eq!(mine(page(addr, &id, &cookies[black]).await).as_deref(), Some(&*game.id));
            guest.send(&ClientMessage::Sit { game: game.id.clone(), have_plies: None }).await;
            assert_eq!(guest.state().await.you, None, "a guest watches");
        }
        assert_eq!(sit(&mut sockets[white], &game.id).await, qi_protocol::Seat::First);
        assert_eq!(sit(&mut sockets[black], &game.id).await, qi_protocol::Seat::Second);
        // No abort, and no rematch, in a tournament.
        let abort = ClientMessage::Act { game: game.id.clone(), action: GameAction::Abort };
        sockets[black].send(&abort).await;
        assert_eq!(sockets[black].error().await, ErrorCode::Unexpected);
        // Five in a row for White.
        let moves = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
        for (ply, text) in moves.iter().enumerate() {
            let mover = if ply % 2 == 0 { white } else { black };
            let ply = u32::try_from(ply).unwrap();
            let message = ClientMessage::Move { game: game.id.clone(), ply, text: (*text).into() };
            sockets[mover].send(&message).await;
            sockets[white].moved(ply).await;
            sockets[black].moved(ply).await;
        }
        assert_eq!(sockets[black].ended().await.0.winner, Some(qi_protocol::Seat::First));
    }

    let view = page(addr, &id, &cookies[1]).await;
    // Three players: two rounds (no more than a field can play without meeting twice), one
    // game and one bye in each.
    assert_eq!(played.len(), 2, "{view:?}");
    assert!(view.playing.is_empty() && view.my_game.is_none());
    assert_eq!(view.finished.len(), 2);
    assert!(view.finished.iter().all(|g| g.result.as_deref() == Some("1-0")), "{view:?}");
    // A win and a bye for whoever won both: 2 points; every game counted.
    let points: u32 = view.standings.iter().map(|row| row.points).sum();
    assert_eq!(points, 2 * 2 + 2 * 2, "two wins and two byes, in half points: {view:?}");
    // Rated: the winners' gomoku ratings moved.
    let winner = &view.finished[0].white;
    let cookie = &cookies[names.iter().position(|n| n == winner).unwrap()];
    let account = request(addr, "GET", "/api/account", Some(cookie), None).await.account();
    let gomoku = account.ratings.iter().find(|r| r.kind == "gomoku").unwrap();
    assert!(gomoku.games >= 1 && gomoku.rating.rating > 1500, "{gomoku:?}");

    // The records: both games in one file, read back game by game with their tags; the
    // results as FIDE's TRF, one line a player.
    let file = request(addr, "GET", &format!("/api/tournaments/{id}/games"), None, None).await;
    assert_eq!(file.status, 200, "{}", file.body);
    let spans = qi_play::records::games(&file.body);
    assert_eq!(spans.len(), 2, "{}", file.body);
    for (span, game) in spans.iter().zip(&view.finished.iter().rev().collect::<Vec<_>>()) {
        let tag = |name: &str| span.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        assert_eq!(tag("Event").as_deref(), Some("Quick"));
        assert_eq!(tag("White"), Some(game.white.clone()));
        assert_eq!(tag("Black"), Some(game.black.clone()));
        assert_eq!(tag("Result").as_deref(), Some("1-0"));
        assert_eq!(tag("Round"), game.round.map(|r| r.to_string()));
        let text = &file.body[span.range.clone()];
        let record = qi_play::records::import(text, Some(qi_rules::GameKind::Gomoku)).unwrap();
        assert_eq!(record.record.moves.len(), 9, "{text}");
    }
    let trf = request(addr, "GET", &format!("/api/tournaments/{id}/trf"), None, None).await;
    assert_eq!(trf.status, 200, "{}", trf.body);
    assert!(trf.body.lines().any(|l| l.starts_with("012 Quick")), "{}", trf.body);
    assert_eq!(trf.body.lines().filter(|l| l.starts_with("001 ")).count(), 3, "{}", trf.body);
    server.shutdown.cancel();
}
