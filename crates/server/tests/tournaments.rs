//! Tournaments over real HTTP (served with `--tournaments`): a signed-in player creates one (its settings checked, the
//! limits per account kept), everyone lists and reads it, players join (password, rating
//! bounds, room) and withdraw; a stored tournament keeps every join when several come at once.

mod common;

use common::{register, request, start_server, start_server_with_tournaments};
use qi_protocol::AccountErrorCode;
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
    // Off by default: no routes.
    let plain = start_server("tournaments-off").await;
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
