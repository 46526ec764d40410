//! Accounts over real HTTP and WebSockets: registering (names unique ignoring case and
//! compatibility forms), signing in and out, the same answer for an unknown name and a wrong
//! password, the limits on guessing, forged cookies, changing the password and logging out
//! everywhere; then two accounts play a rated game over the socket and both ratings and
//! profiles change, while an anonymous player is kept out of rated games and nobody takes back
//! a move in one.

mod common;

use qi_protocol::GameAction;
use std::time::{Duration, Instant};

use common::{
    Client, login, register, request, request_headers, signed_in_client, spec, start_server,
};
use qi_protocol::{
    AccountErrorCode, ClientMessage, ErrorCode, GameSpec, ProfileView, SeatChoice, ServerMessage,
};

#[tokio::test]
async fn accounts_register_sign_in_and_out_and_refuse_what_breaks_the_rules() {
    let server = start_server("accounts-http").await;
    let addr = server.addr;
    let made = register(addr, "Ann_1", "correct horse").await;
    assert_eq!(made.status, 200, "{made:?}");
    let cookie = made.cookie();
    let set = made.set_cookie.clone().unwrap();
    assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
    assert_eq!(made.account().name, "Ann_1");
    assert_eq!(made.account().ratings.len(), 5);
    assert!(made.account().ratings.iter().all(|r| r.rating.to_string() == "1500?"));
    let me = request(addr, "GET", "/api/account", Some(&cookie), None).await;
    assert_eq!((me.status, me.account().name), (200, "Ann_1".to_owned()));

    // The same name in another case or compatibility form is taken.
    for taken in ["ann_1", "ＡＮＮ_１"] {
        let again = register(addr, taken, "another password").await;
        assert_eq!((again.status, again.error()), (409, AccountErrorCode::NameTaken), "{taken}");
    }
    // Names and passwords that break the rules, each named.
    assert_eq!(register(addr, "a b", "long enough").await.error(), AccountErrorCode::BadUsername);
    assert_eq!(
        register(addr, "zw\u{200b}j", "long enough").await.error(),
        AccountErrorCode::BadUsername
    );
    assert_eq!(register(addr, "Bo", "long enough").await.error(), AccountErrorCode::BadUsername);
    assert_eq!(register(addr, "Bobby", "").await.error(), AccountErrorCode::BadPassword);
    let huge = register(addr, "Bobby", &"p".repeat(10_000)).await;
    assert_eq!((huge.status, huge.error()), (400, AccountErrorCode::BadPassword));
    assert!(huge.body.contains("at most 128"), "{huge:?}");
    let not_json = request(addr, "POST", "/api/account/login", None, Some("name=ann")).await;
    assert_eq!(not_json.error(), AccountErrorCode::BadRequest);

    // An unknown name and a wrong password get the same answer, in about the same time.
    let started = Instant::now();
    let wrong = login(addr, "Ann_1", "wrong horse").await;
    let wrong_took = started.elapsed();
    let started = Instant::now();
    let nobody = login(addr, "Nobody", "wrong horse").await;
    let nobody_took = started.elapsed();
    assert_eq!((wrong.status, &wrong.body), (nobody.status, &nobody.body));
    assert_eq!(wrong.error(), AccountErrorCode::WrongCredentials);
    // Both ran one Argon2 check (tens of milliseconds): not a fast "no such user".
    let (fast, slow) = (wrong_took.min(nobody_took), wrong_took.max(nobody_took));
    assert!(
        fast * 4 >= slow || slow < Duration::from_millis(5),
        "{wrong_took:?} vs {nobody_took:?}"
    );

    // Signing in by another case of the name works, and sets a new session.
    let again = login(addr, "ANN_1", "correct horse").await;
    assert_eq!(again.status, 200, "{again:?}");
    let second = again.cookie();
    assert_ne!(second, cookie);

    // A forged cookie counts for nothing and is cleared.
    let forged =
        request(addr, "GET", "/api/account", Some("qi_session=AAAAAAAAAAAAAAAAAAAAAA"), None).await;
    assert_eq!((forged.status, forged.body.as_str()), (200, "null"), "signed out");
    assert!(forged.set_cookie.unwrap().contains("Max-Age=0"));
    let (socket, account) =
        signed_in_client(addr, "qi_session=AAAAAAAAAAAAAAAAAAAAAA", "Eve").await;
    assert_eq!(account, None, "a forged cookie plays anonymously");
    socket.close().await;

    // Change the password: other sessions end, this one goes on with a new cookie.
    let change = serde_json::json!({ "old": "wrong", "new": "battery staple" }).to_string();
    let refused =
        request(addr, "POST", "/api/account/password", Some(&second), Some(&change)).await;
    assert_eq!(refused.error(), AccountErrorCode::WrongCredentials);
    let change = serde_json::json!({ "old": "correct horse", "new": "battery staple" }).to_string();
    let changed =
        request(addr, "POST", "/api/account/password", Some(&second), Some(&change)).await;
    assert_eq!(changed.status, 200, "{changed:?}");
    let third = changed.cookie();
    assert_eq!(request(addr, "GET", "/api/account", Some(&cookie), None).await.body, "null");
    assert_eq!(request(addr, "GET", "/api/account", Some(&third), None).await.status, 200);
    assert_eq!(login(addr, "Ann_1", "correct horse").await.status, 401);
    let fourth = login(addr, "Ann_1", "battery staple").await.cookie();

    // Log out here, then everywhere.
    let out = request(addr, "POST", "/api/account/logout", Some(&third), Some("{}")).await;
    assert_eq!(out.status, 204);
    assert_eq!(request(addr, "GET", "/api/account", Some(&third), None).await.body, "null");
    let fifth = login(addr, "Ann_1", "battery staple").await.cookie();
    let all =
        request(addr, "POST", "/api/account/logout-everywhere", Some(&fourth), Some("{}")).await;
    assert_eq!(all.status, 204);
    for gone in [&fourth, &fifth] {
        assert_eq!(request(addr, "GET", "/api/account", Some(gone), None).await.body, "null");
    }
}

#[tokio::test]
async fn guessing_is_limited_per_account_and_per_address() {
    let server = start_server("accounts-guessing").await;
    let addr = server.addr;
    assert_eq!(register(addr, "Target", "the real one").await.status, 200);
    let mut answers = Vec::new();
    for _ in 0..11 {
        answers.push(login(addr, "target", "a guess here").await);
    }
    assert!(answers[..10].iter().all(|a| a.error() == AccountErrorCode::WrongCredentials));
    assert_eq!(answers[10].status, 429);
    assert_eq!(answers[10].error(), AccountErrorCode::TooManyAttempts);
    assert!(answers[10].body.contains("try again in"), "{:?}", answers[10]);
    // Even the right password waits now: the limit is the account's.
    assert_eq!(
        login(addr, "Target", "the real one").await.error(),
        AccountErrorCode::TooManyAttempts
    );
    // An unknown name fails as a wrong password does, counted the same way.
    // So far this address made 13 attempts (a registration, 12 sign-ins): 7 more are let in.
    for _ in 0..7 {
        assert_eq!(
            login(addr, "ghost", "a guess").await.error(),
            AccountErrorCode::WrongCredentials
        );
    }
    // Then the address waits, whatever name it tries.
    let next = login(addr, "someone", "a guess").await;
    assert_eq!((next.status, next.error()), (429, AccountErrorCode::TooManyAttempts));
}

fn rated(variant: &str) -> GameSpec {
    GameSpec { rated: true, ..spec(variant, "") }
}

#[tokio::test]
async fn two_accounts_play_a_rated_game_and_their_ratings_and_profiles_change() {
    let server = start_server("accounts-rated").await;
    let addr = server.addr;
    let ann = register(addr, "Ann", "password one").await.cookie();
    let bo = register(addr, "Bo_B", "password two").await.cookie();

    // Anonymous players cannot make or take a rated game.
    let mut guest = Client::hello(addr, "Guest").await;
    guest.send(&ClientMessage::Challenge { spec: rated("gomoku"), seat: SeatChoice::First }).await;
    assert_eq!(guest.error().await, ErrorCode::NeedsAccount);

    let (mut first, account) = signed_in_client(addr, &ann, "not my name").await;
    assert_eq!(account.as_deref(), Some("Ann"));
    first.send(&ClientMessage::Challenge { spec: rated("gomoku"), seat: SeatChoice::First }).await;
    let game = first
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await;
    guest.send(&ClientMessage::Accept { game: game.clone() }).await;
    assert_eq!(guest.error().await, ErrorCode::NeedsAccount);
    let (mut second, _) = signed_in_client(addr, &bo, "").await;
    second.send(&ClientMessage::Accept { game: game.clone() }).await;
    let view = second.state().await;
    assert!(view.spec.rated);
    assert_eq!(
        view.players.each_ref().map(|p| p.name.clone()),
        [Some("Ann".into()), Some("Bo_B".into())]
    );

    // Five in a row for Ann; a takeback is refused on the way.
    let moves = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"];
    for (ply, text) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut first } else { &mut second };
        let ply = u32::try_from(ply).unwrap();
        mover.send(&ClientMessage::Move { game: game.clone(), ply, text: (*text).into() }).await;
        first.moved(ply).await;
        second.moved(ply).await;
    }
    second
        .send(&ClientMessage::Act { game: game.clone(), action: GameAction::ProposeTakeback })
        .await;
    assert_eq!(second.error().await, ErrorCode::NoTakeback);
    first.send(&ClientMessage::Move { game: game.clone(), ply: 8, text: "l8".into() }).await;
    let (result, _) = first.ended().await;
    assert_eq!(result.winner, Some(qi_protocol::Seat::First));

    let ann_now = request(addr, "GET", "/api/account", Some(&ann), None).await.account();
    let gomoku = ann_now.ratings.iter().find(|r| r.kind == "gomoku").unwrap();
    assert!(gomoku.rating.rating > 1500 && gomoku.rating.provisional, "{gomoku:?}");
    assert_eq!(gomoku.games, 1);
    for (name, up) in [("Ann", true), ("bo_b", false)] {
        let page = request(addr, "GET", &format!("/api/profile/{name}"), None, None).await;
        assert_eq!(page.status, 200, "{page:?}");
        let profile: ProfileView = serde_json::from_str(&page.body).unwrap();
        let rating = profile.ratings.iter().find(|r| r.now.kind == "gomoku").unwrap();
        assert_eq!(rating.history.len(), 1);
        assert_eq!(rating.now.rating.rating > 1500, up, "{profile:?}");
        assert_eq!(profile.games.len(), 1);
        assert_eq!(profile.games[0].game, game);
        assert_eq!(profile.games[0].moves.len(), 9);
        assert!(profile.games[0].opponent_account);
    }
    let missing = request(addr, "GET", "/api/profile/nobody", None, None).await;
    assert_eq!((missing.status, missing.error()), (404, AccountErrorCode::UnknownPlayer));
    // The profile's stable address leads to the online page's view of it.
    let page = request(addr, "GET", "/online/@/Bo_B", None, None).await;
    assert_eq!(page.status, 303);
}

#[tokio::test]
async fn rated_seeks_are_paired_with_rated_ones_only() {
    let server = start_server("accounts-pairing").await;
    let addr = server.addr;
    let mut sockets = Vec::new();
    for name in ["Ann", "Bo_B", "Cy_C"] {
        let cookie = register(addr, name, "a password").await.cookie();
        sockets.push(signed_in_client(addr, &cookie, "").await.0);
    }
    // Everyone starts at 1500: the first two seekers are paired at once, the third waits. The
    // first seek is acknowledged before the second is sent: sockets are not ordered among
    // themselves, and the test means the first two.
    let seeking = |m: &ServerMessage| matches!(m, ServerMessage::Seeking { .. }).then_some(());
    sockets[0].send(&ClientMessage::Seek { spec: rated("chess") }).await;
    sockets[0].until(seeking).await;
    sockets[1].send(&ClientMessage::Seek { spec: rated("chess") }).await;
    let seated = |m: &ServerMessage| match m {
        ServerMessage::Seated { game, .. } => Some(game.clone()),
        _ => None,
    };
    let game_a = sockets[0].until(seated).await;
    let game_b = sockets[1].until(seated).await;
    assert_eq!(game_a, game_b);
    sockets[2].send(&ClientMessage::Seek { spec: rated("chess") }).await;
    sockets[2].until(seeking).await;
    // A casual seeker of the same game is not paired with a rated one.
    let mut casual = Client::hello(addr, "Dee").await;
    casual.send(&ClientMessage::Seek { spec: spec("chess", "") }).await;
    casual.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;
}

#[tokio::test]
async fn account_posts_come_from_this_sites_pages_as_json() {
    let server = start_server("accounts-cross-site").await;
    let addr = server.addr;
    let body = r#"{"name":"Ann_1","password":"correct horse"}"#;
    let json = ("Content-Type", "application/json");
    // Each: the path, the request's headers, the status expected.
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], u16);
    let cases: [Case; 5] = [
        ("/api/account/register", &[json, ("Origin", "https://evil.example")], 403),
        ("/api/account/register", &[json, ("Origin", "null")], 403),
        ("/api/account/register", &[("Content-Type", "text/plain")], 415),
        ("/api/account/logout", &[("Content-Type", "application/x-www-form-urlencoded")], 415),
        ("/api/account/logout-everywhere", &[json, ("Origin", "http://other.example")], 403),
    ];
    for (path, headers, status) in cases {
        let answer = request_headers(addr, "POST", path, headers, Some(body)).await;
        assert_eq!(
            (answer.status, answer.error()),
            (status, AccountErrorCode::BadRequest),
            "{path}"
        );
    }
    // This host's own page (its Origin is the Host) is let in.
    let own = request_headers(
        addr,
        "POST",
        "/api/account/register",
        &[json, ("Origin", "http://localhost")],
        Some(body),
    )
    .await;
    assert_eq!(own.status, 200, "{own:?}");
    // A client (not a trusted proxy) that says the request came over HTTPS is not believed:
    // the cookie is not marked Secure on its word.
    let claimed = request_headers(
        addr,
        "POST",
        "/api/account/login",
        &[json, ("X-Forwarded-Proto", "https")],
        Some(body),
    )
    .await;
    assert_eq!(claimed.status, 200);
    assert!(!claimed.set_cookie.unwrap().contains("Secure"));
}

#[tokio::test]
async fn guesses_sent_at_once_are_counted_before_they_are_checked() {
    let server = start_server("accounts-parallel").await;
    let addr = server.addr;
    assert_eq!(register(addr, "Target", "the real one").await.status, 200);
    let guesses = (0..19).map(|_| login(addr, "target", "a wrong guess"));
    let answers = futures_util::future::join_all(guesses).await;
    let wrong = answers.iter().filter(|a| a.error() == AccountErrorCode::WrongCredentials).count();
    let waited = answers.iter().filter(|a| a.error() == AccountErrorCode::TooManyAttempts).count();
    assert_eq!((wrong, waited), (10, 9), "{answers:?}");
}

#[tokio::test]
async fn an_account_never_accepts_its_own_challenge_and_an_ended_session_plays_as_a_guest() {
    let server = start_server("accounts-own").await;
    let addr = server.addr;
    let cookie = register(addr, "Ann", "password one").await.cookie();
    let (mut tab, _) = signed_in_client(addr, &cookie, "Annie").await;
    tab.send(&ClientMessage::Challenge { spec: spec("chess", ""), seat: SeatChoice::First }).await;
    let game = tab
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await;
    let (mut other_tab, _) = signed_in_client(addr, &cookie, "Annie").await;
    other_tab.send(&ClientMessage::Accept { game }).await;
    assert_eq!(other_tab.error().await, ErrorCode::Unexpected, "not against oneself");
    // Logged out everywhere while the socket is open: a rated game is refused, and a casual
    // one is played as a guest under the name the page said, not the username.
    let out =
        request(addr, "POST", "/api/account/logout-everywhere", Some(&cookie), Some("{}")).await;
    assert_eq!(out.status, 204);
    let rated = GameSpec { rated: true, ..spec("gomoku", "") };
    other_tab.send(&ClientMessage::Create { spec: rated, seat: SeatChoice::First }).await;
    assert_eq!(other_tab.error().await, ErrorCode::NeedsAccount);
    other_tab
        .send(&ClientMessage::Create { spec: spec("gomoku", ""), seat: SeatChoice::First })
        .await;
    let view = other_tab.state().await;
    assert_eq!(view.players[0].name.as_deref(), Some("Annie"));
    assert_eq!(view.players[0].rating, None);
}

/// A rated gomoku game between the accounts of `first` and `second` (cookies), Ann first.
async fn rated_game(
    addr: std::net::SocketAddr,
    first: &str,
    second: &str,
) -> (Client, Client, String) {
    let (mut creator, _) = signed_in_client(addr, first, "").await;
    creator
        .send(&ClientMessage::Challenge { spec: rated("gomoku"), seat: SeatChoice::First })
        .await;
    let game = creator
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await;
    let (mut joiner, _) = signed_in_client(addr, second, "").await;
    joiner.send(&ClientMessage::Accept { game: game.clone() }).await;
    assert!(joiner.state().await.spec.rated);
    (creator, joiner, game)
}

/// Issue 46: two accounts farmed 1500 → 1806 by resigning rated games at once.
#[tokio::test]
async fn a_rated_game_ended_before_both_sides_moved_is_aborted_and_unrated() {
    let server = start_server("accounts-early-end").await;
    let addr = server.addr;
    let ann = register(addr, "Ann", "password one").await.cookie();
    let bo = register(addr, "Bo_B", "password two").await.cookie();
    let aborted = qi_protocol::GameResult { winner: None, reason: qi_protocol::EndReason::Aborted };

    // Resigned before any move.
    let (mut first, mut second, game) = rated_game(addr, &ann, &bo).await;
    second.send(&ClientMessage::Act { game, action: GameAction::Resign }).await;
    assert_eq!(first.ended().await.0, aborted);
    // Drawn by agreement after one side's move only.
    let (mut first, mut second, game) = rated_game(addr, &ann, &bo).await;
    first.send(&ClientMessage::Move { game: game.clone(), ply: 0, text: "h8".into() }).await;
    second.moved(0).await;
    first.send(&ClientMessage::Act { game: game.clone(), action: GameAction::OfferDraw }).await;
    second.send(&ClientMessage::Act { game: game.clone(), action: GameAction::OfferDraw }).await;
    assert_eq!(second.ended().await.0, aborted);
    // Resigned by the side that moved, before the other did.
    let (mut first, mut second, game) = rated_game(addr, &ann, &bo).await;
    first.send(&ClientMessage::Move { game: game.clone(), ply: 0, text: "h8".into() }).await;
    second.moved(0).await;
    first.send(&ClientMessage::Act { game, action: GameAction::Resign }).await;
    assert_eq!(second.ended().await.0, aborted);
    for cookie in [&ann, &bo] {
        let account = request(addr, "GET", "/api/account", Some(cookie), None).await.account();
        let gomoku = account.ratings.iter().find(|r| r.kind == "gomoku");
        assert!(gomoku.is_none_or(|r| r.games == 0 && r.rating.rating == 1500), "{account:?}");
    }

    // Once both have moved, a resignation is rated.
    let (mut first, mut second, game) = rated_game(addr, &ann, &bo).await;
    first.send(&ClientMessage::Move { game: game.clone(), ply: 0, text: "h8".into() }).await;
    second.moved(0).await;
    second.send(&ClientMessage::Move { game: game.clone(), ply: 1, text: "a1".into() }).await;
    first.moved(1).await;
    second.send(&ClientMessage::Act { game, action: GameAction::Resign }).await;
    let (result, _) = first.ended().await;
    assert_eq!(result.winner, Some(qi_protocol::Seat::First));
    let account = request(addr, "GET", "/api/account", Some(&ann), None).await.account();
    let gomoku = account.ratings.iter().find(|r| r.kind == "gomoku").unwrap();
    assert_eq!(gomoku.games, 1, "{gomoku:?}");
    assert!(gomoku.rating.rating > 1500, "{gomoku:?}");
}

/// Issue 46: `admin` and `аdmin` (a Cyrillic а), `pop` and `pοp` (a Greek ο) and `Ρaypal` (a
/// Greek Ρ) all registered.
#[tokio::test]
async fn names_that_look_alike_are_one_name_and_mixed_scripts_are_refused() {
    let server = start_server("accounts-look-alike").await;
    let addr = server.addr;
    for name in ["admin", "pop", "Paypal"] {
        assert_eq!(register(addr, name, "password one").await.status, 200, "{name}");
    }
    // Latin mixed with Cyrillic or Greek: refused as such, whatever exists.
    for name in ["аdmin", "pοp", "Ρaypal", "Ρaypal2"] {
        let refused = register(addr, name, "password two").await;
        assert_eq!(
            (refused.status, refused.error()),
            (400, AccountErrorCode::BadUsername),
            "{name}"
        );
        assert!(refused.body.contains("one script"), "{refused:?}");
    }
    // One script, but looking like a name that exists: taken.
    for name in ["рор", "ADMIN", "adrnin", "PAYPAL"] {
        let taken = register(addr, name, "password two").await;
        assert_eq!((taken.status, taken.error()), (409, AccountErrorCode::NameTaken), "{name}");
    }
    // Two look-alikes registering at once: one account.
    let racing = futures_util::future::join_all(
        ["modern", "rnodern"].map(|name| register(addr, name, "password three")),
    )
    .await;
    let statuses: Vec<u16> = racing.iter().map(|answer| answer.status).collect();
    assert!(statuses == [200, 409] || statuses == [409, 200], "{racing:?}");
    // The app's languages keep their names.
    for name in ["张小伟", "Nguyễn_Văn_An", "山田たろう"] {
        assert_eq!(register(addr, name, "password four").await.status, 200, "{name}");
    }
}

/// Issue 46: a guest could call itself by a registered account's name.
#[tokio::test]
async fn a_guest_may_not_take_an_accounts_name_or_one_like_it() {
    let server = start_server("accounts-guest-name").await;
    let addr = server.addr;
    let cookie = register(addr, "Ann_Lee", "password one").await.cookie();
    for name in ["Ann_Lee", "ann_lee", "Аnn_Lee"] {
        let mut guest = Client::connect(addr).await;
        guest
            .send(&ClientMessage::Hello { version: qi_protocol::VERSION, name: name.into() })
            .await;
        let detail = guest
            .until(|m| match m {
                ServerMessage::Error { code: ErrorCode::BadName, detail } => Some(detail.clone()),
                ServerMessage::Welcome { .. } => Some("welcomed".into()),
                _ => None,
            })
            .await;
        assert!(detail.contains("registered player's name"), "{name}: {detail}");
        // The same socket may go on under another name.
        guest
            .send(&ClientMessage::Hello { version: qi_protocol::VERSION, name: "Ann L.".into() })
            .await;
        guest
            .until(|m| matches!(m, ServerMessage::Welcome { account: None, .. }).then_some(()))
            .await;
    }
    // The account itself, signed in, says hello under any name and plays under its own.
    let (_, account) = signed_in_client(addr, &cookie, "Ann_Lee").await;
    assert_eq!(account.as_deref(), Some("Ann_Lee"));
}
