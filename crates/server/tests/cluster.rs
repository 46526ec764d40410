//! Three `qi-server` nodes over one PostgreSQL and one Redis (real servers from Debian's
//! packages, on loopback, with temporary data directories): players and spectators on different
//! nodes play whole games of all four kinds; the node running a game is killed with SIGKILL and
//! the game is finished through the others; Redis and PostgreSQL go away mid-game; quick pairing
//! pairs across nodes.

mod common;

use qi_protocol::GameAction;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{Client, Dice, LobbySeen, banqi_from_view, play_seen, spec, temp_dir, timed};
use qi_protocol::{
    ClientMessage, EndReason, GameSpec, GameView, Seat, SeatChoice, ServerMessage, Status,
};
use qi_rules::Side;
use qi_rules::any::{AnyGame, StartFrom};
use qi_server::services::{TempPostgres, TempRedis, free_port};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// How long a silent node keeps its games in these tests.
const LEASE_TTL_MS: u64 = 1_200;

/// The services and three nodes.
struct Site {
    postgres: TempPostgres,
    redis: TempRedis,
    nodes: Vec<Option<Child>>,
    addrs: Vec<SocketAddr>,
    dir: PathBuf,
    extra: Vec<String>,
}

impl Site {
    async fn start(tag: &str) -> Site {
        Site::start_with(tag, &[]).await
    }

    /// Three nodes started with `extra` flags.
    async fn start_with(tag: &str, extra: &[&str]) -> Site {
        let postgres = TempPostgres::start().unwrap_or_else(|e| panic!("{e}"));
        let redis = TempRedis::start().unwrap_or_else(|e| panic!("{e}"));
        let extra = extra.iter().map(|s| (*s).to_owned()).collect();
        let mut site = Site {
            postgres,
            redis,
            nodes: Vec::new(),
            addrs: Vec::new(),
            dir: temp_dir(tag),
            extra,
        };
        for index in 0..3 {
            let addr = SocketAddr::from(([127, 0, 0, 1], free_port().unwrap()));
            site.addrs.push(addr);
            let child = site.spawn(index).await;
            site.nodes.push(Some(child));
        }
        site
    }

    async fn spawn(&self, index: usize) -> Child {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qi-server"))
            .args(["--addr", &self.addrs[index].to_string(), "--dist"])
            .arg(self.dir.join("dist"))
            .arg("--data")
            .arg(self.dir.join(format!("unused-{index}")))
            .args(["--database-url", &self.postgres.url(), "--redis-url", &self.redis.url()])
            .args(["--node-name", &format!("node{}", index + 1)])
            .args(["--lease-ttl-ms", &LEASE_TTL_MS.to_string()])
            .args(&self.extra)
            .env("RUST_LOG", std::env::var("QI_CLUSTER_LOG").unwrap_or_else(|_| "info".into()))
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await;
        let line = line.unwrap().unwrap().unwrap();
        assert!(line.starts_with("qi-server: http://"), "{line}");
        child
    }

    /// Sends `signal` (`STOP`, `CONT`) to node `index`.
    fn signal(&self, index: usize, signal: &str) {
        let pid = self.nodes[index].as_ref().unwrap().id().unwrap();
        let status = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Kills node `index` with SIGKILL.
    async fn kill(&mut self, index: usize) {
        let mut child = self.nodes[index].take().unwrap();
        child.start_kill().unwrap();
        child.wait().await.unwrap();
    }
}

/// Says hello on node `addr` as `name`.
async fn hello(addr: SocketAddr, name: &str) -> Client {
    Client::hello(addr, name).await
}

/// A game made by Ann on `creator`, joined by Bo on `joiner`, watched by Cy on `watcher`.
struct Game3 {
    game: String,
    ann: Client,
    bo: Client,
    cy: Client,
    tokens: [String; 2],
    start: String,
}

async fn three_way(
    spec: GameSpec,
    creator: SocketAddr,
    joiner: SocketAddr,
    watcher: SocketAddr,
) -> Game3 {
    let mut ann = hello(creator, "Ann").await;
    ann.send(&ClientMessage::Create { spec, seat: SeatChoice::First }).await;
    let (game, ann_token, invite) = ann
        .until(|m| match m {
            ServerMessage::Seated { game, token, invite, seat: Seat::First } => {
                Some((game.clone(), token.clone(), invite.clone().unwrap()))
            }
            _ => None,
        })
        .await;
    ann.state().await;
    let mut bo = hello(joiner, "Bo").await;
    bo.send(&ClientMessage::Join { game: game.clone(), invite }).await;
    let bo_token = bo
        .until(|m| match m {
            ServerMessage::Seated { token, seat: Seat::Second, .. } => Some(token.clone()),
            _ => None,
        })
        .await;
    let view = bo.state().await;
    assert_eq!(view.status, Status::Playing);
    let mut cy = hello(watcher, "Cy").await;
    cy.send(&ClientMessage::Watch { game: game.clone(), have_plies: None }).await;
    let watched = cy.state().await;
    assert_eq!(watched.start, view.start);
    Game3 { game, ann, bo, cy, tokens: [ann_token, bo_token], start: view.start }
}

impl Game3 {
    fn player(&mut self, seat: Seat) -> &mut Client {
        match seat {
            Seat::First => &mut self.ann,
            Seat::Second => &mut self.bo,
        }
    }

    /// `seat` plays `text` at `ply`; all three hear the same move.
    async fn play(&mut self, seat: Seat, ply: u32, text: &str) -> qi_protocol::PlayedMove {
        let game = self.game.clone();
        self.player(seat).send(&ClientMessage::Move { game, ply, text: text.into() }).await;
        let heard = [self.ann.moved(ply).await, self.bo.moved(ply).await, self.cy.moved(ply).await];
        assert!(heard.iter().all(|mv| *mv == heard[0]), "{heard:?}");
        heard[0].clone()
    }

    async fn ended(&mut self) -> (qi_protocol::GameResult, Option<String>) {
        let ends = [self.ann.ended().await, self.bo.ended().await, self.cy.ended().await];
        assert!(ends.iter().all(|end| *end == ends[0]), "{ends:?}");
        ends[0].clone()
    }
}

fn seat_of(side: Side) -> Seat {
    if side == Side::First { Seat::First } else { Seat::Second }
}

/// Plays `game` to its end: the moves of `script`, then legal moves drawn by `dice` (at most
/// `max_plies` in all, kept under the message rate limit; then the side to move resigns).
async fn play_out(
    table: &mut Game3,
    variant: &str,
    script: &[&str],
    dice: &mut Dice,
    max_plies: u32,
) {
    let mut seen = if variant == "banqi" {
        banqi_from_view("", &table.start, &[])
    } else {
        AnyGame::new(variant, "", &StartFrom::Position(&table.start)).unwrap()
    };
    let mut ply = 0;
    while seen.outcome().is_none() && ply < max_plies {
        let text = match script.get(ply as usize) {
            Some(text) => (*text).to_owned(),
            None => {
                let moves = seen.legal_moves();
                moves[dice.below(moves.len())].clone()
            }
        };
        let seat = seat_of(seen.side_to_move());
        let played = table.play(seat, ply, &text).await;
        play_seen(&mut seen, &played);
        ply += 1;
    }
    if seen.outcome().is_none() {
        let seat = seat_of(seen.side_to_move());
        let game = table.game.clone();
        table.player(seat).send(&ClientMessage::Act { game, action: GameAction::Resign }).await;
    }
    table.ended().await;
}

#[tokio::test]
async fn three_nodes_play_all_four_games_with_players_and_spectator_apart() {
    let site = Site::start("cluster-games").await;
    let [n1, n2, n3] = [site.addrs[0], site.addrs[1], site.addrs[2]];
    let mut dice = Dice(0x5eed_cafe);
    // Chess and gomoku end by their rules (fool's mate, five in a row), xiangqi and banqi by
    // random moves then a resignation if their rules have not ended them.
    let games: [(&str, &[&str]); 4] = [
        ("chess", &["f2f3", "e7e5", "g2g4", "d8h4"]),
        ("xiangqi", &[]),
        ("gomoku", &["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]),
        ("banqi", &[]),
    ];
    for (variant, script) in games {
        // Each game made on another node, so that each node runs one.
        let (creator, joiner, watcher) = match variant {
            "chess" | "banqi" => (n1, n2, n3),
            "xiangqi" => (n2, n3, n1),
            _ => (n3, n1, n2),
        };
        let mut table = three_way(spec(variant, ""), creator, joiner, watcher).await;
        play_out(&mut table, variant, script, &mut dice, 150).await;
        let (result, _) = table.ended_deal_again_result();
        if !script.is_empty() {
            assert!(matches!(result.reason, EndReason::Rules { .. }), "{variant}: {result:?}");
        }
        if variant == "banqi" {
            // The deal comes with the end, and not one frame before it on any node.
            let (_, deal) = table.ended_deal_again();
            let deal = deal.expect("banqi's end shows the deal");
            for client in [&table.ann, &table.bo, &table.cy] {
                let before_end = client.log.iter().take_while(|frame| !frame.contains("\"ended\""));
                for frame in before_end {
                    assert!(!frame.contains(&deal), "the deal leaked: {frame}");
                    assert!(!frame.contains("\"deal\":\""), "a deal before the end: {frame}");
                }
            }
        }
    }
    drop(site);
}

impl Game3 {
    /// The result as the spectator heard it (from its log, already read).
    fn ended_deal_again_result(&self) -> (qi_protocol::GameResult, Option<String>) {
        self.cy
            .log
            .iter()
            .rev()
            .find_map(|frame| match ServerMessage::parse(frame) {
                Ok(ServerMessage::Ended { result, deal, .. }) => Some((result, deal)),
                _ => None,
            })
            .expect("an end")
    }

    /// The end as the spectator heard it (from its log, already read).
    fn ended_deal_again(&self) -> (String, Option<String>) {
        let end = self
            .cy
            .log
            .iter()
            .rev()
            .find_map(|frame| match ServerMessage::parse(frame) {
                Ok(ServerMessage::Ended { deal, .. }) => Some(deal),
                _ => None,
            })
            .expect("an end");
        (self.game.clone(), end)
    }
}

/// Resumes `token`'s seat in `game` on `addr`; the state.
async fn resume(addr: SocketAddr, name: &str, game: &str, token: &str) -> (Client, GameView) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut client = hello(addr, name).await;
        let message = ClientMessage::Resume {
            game: game.to_owned(),
            token: token.to_owned(),
            have_plies: None,
        };
        client.send(&message).await;
        let answer = client
            .until(|m| match m {
                ServerMessage::State { view } => Some(Ok(view.clone())),
                ServerMessage::Error { detail, .. } => Some(Err(detail.clone())),
                _ => None,
            })
            .await;
        match answer {
            Ok(view) => return (client, view),
            Err(detail) => {
                assert!(Instant::now() < deadline, "could not resume: {detail}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

#[tokio::test]
async fn killing_the_node_that_runs_a_game_loses_nothing_and_the_game_goes_on() {
    let mut site = Site::start("cluster-kill").await;
    let [n1, n2, n3] = [site.addrs[0], site.addrs[1], site.addrs[2]];
    // Ann makes both games on node 1, which runs them.
    let mut table = three_way(timed("chess", 120, 0), n1, n2, n3).await;
    for (ply, (seat, mv)) in [(Seat::First, "f2f3"), (Seat::Second, "e7e5"), (Seat::First, "g2g4")]
        .into_iter()
        .enumerate()
    {
        table.play(seat, ply as u32, mv).await;
    }
    // A fast game whose flag must fall while its node is dead and nobody is back yet.
    let mut quick = three_way(timed("gomoku", 3, 0), n1, n2, n3).await;
    quick.play(Seat::First, 0, "h8").await;
    quick.play(Seat::Second, 1, "h9").await;

    let killed = Instant::now();
    site.kill(0).await;
    // The sockets on the live nodes that were in node 1's games are told to reconnect.
    assert_eq!(table.bo.close_code().await, Some(1012));
    assert_eq!(table.cy.close_code().await, Some(1012));
    let noticed = killed.elapsed();
    assert!(noticed < Duration::from_secs(10), "noticed after {noticed:?}");

    // Everyone comes back on another node: every acknowledged move is there once.
    let (mut bo, view) = resume(n3, "Bo", &table.game, &table.tokens[1]).await;
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["f2f3", "e7e5", "g2g4"]);
    assert_eq!(view.status, Status::Playing);
    let clocks = view.clocks.unwrap();
    assert_eq!(clocks.running, Some(Seat::Second));
    // Bo's clock paid at most for the time since the takeover, not for the gap: it ran from
    // ply 2 until the kill (a few ms) and from the takeover on.
    let charged = 120_000 - clocks.remaining_ms[1];
    let gap = killed.elapsed().as_millis() as u64;
    assert!(charged < gap, "charged {charged} ms of a {gap} ms gap");
    let (mut ann, _) = resume(n2, "Ann", &table.game, &table.tokens[0]).await;
    let mut cy = hello(n2, "Cy").await;
    cy.send(&ClientMessage::Watch { game: table.game.clone(), have_plies: Some(3) }).await;
    cy.state().await;
    bo.send(&ClientMessage::Move { game: table.game.clone(), ply: 3, text: "d8h4".into() }).await;
    for client in [&mut ann, &mut bo, &mut cy] {
        assert_eq!(client.moved(3).await.text, "d8h4");
        let (result, _) = client.ended().await;
        assert_eq!(result.winner, Some(Seat::Second));
        assert!(matches!(result.reason, EndReason::Rules { .. }), "{result:?}");
    }

    // The quick game's flag fell on another node, though nobody was there.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let mut ann = hello(n3, "Ann").await;
    ann.send(&ClientMessage::Watch { game: quick.game.clone(), have_plies: None }).await;
    let view = ann.state().await;
    match view.status {
        Status::Ended { result } => {
            assert_eq!(result.reason, EndReason::Timeout, "{result:?}");
            assert_eq!(result.winner, Some(Seat::Second), "Ann was to move");
        }
        other => panic!("the flag did not fall: {other:?}"),
    }
    assert_eq!(view.moves.len(), 2, "no move lost, none twice");
}

#[tokio::test]
async fn redis_and_postgres_going_away_make_moves_wait_never_lose_them() {
    let mut site = Site::start("cluster-outage").await;
    let [n1, n2, n3] = [site.addrs[0], site.addrs[1], site.addrs[2]];
    let mut table = three_way(spec("chess", ""), n1, n2, n3).await;
    table.play(Seat::First, 0, "e2e4").await;

    // Redis restarts: the sockets in other nodes' games reconnect, resume, and play on.
    site.redis.restart().unwrap();
    assert_eq!(table.bo.close_code().await, Some(1012));
    let (mut bo, view) = resume(n2, "Bo", &table.game, &table.tokens[1]).await;
    assert_eq!(view.moves.len(), 1);
    let mut cy = hello(n3, "Cy").await;
    cy.send(&ClientMessage::Watch { game: table.game.clone(), have_plies: None }).await;
    cy.state().await;
    let ann = &mut table.ann;
    bo.send(&ClientMessage::Move { game: table.game.clone(), ply: 1, text: "e7e5".into() }).await;
    for client in [&mut *ann, &mut bo, &mut cy] {
        assert_eq!(client.moved(1).await.text, "e7e5");
    }

    // PostgreSQL goes away: a move gets a clear error and is not played; the game's node,
    // unsure what was stored, gives the game up, and everyone in it reconnects. Once the
    // database is back, they resume from what was stored and the move is played once.
    site.postgres.stop().unwrap();
    ann.send(&ClientMessage::Move { game: table.game.clone(), ply: 2, text: "g1f3".into() }).await;
    let refused = ann
        .until_closed_or(|m| match m {
            ServerMessage::Error { detail, .. } => Some(detail.clone()),
            ServerMessage::Moved { .. } => panic!("played without being stored"),
            _ => None,
        })
        .await;
    // (Its lease may have run out first: then it closes without a word.)
    if let Some(detail) = refused {
        assert!(detail.contains("reconnect") || detail.contains("try again"), "{detail}");
        assert_eq!(ann.close_code().await, Some(1012));
    }
    assert_eq!(bo.close_code().await, Some(1012));
    site.postgres.restart().unwrap();
    let (mut ann, view) = resume(n1, "Ann", &table.game, &table.tokens[0]).await;
    assert_eq!(view.moves.len(), 2, "the refused move was not stored");
    let (mut bo, _) = resume(n2, "Bo", &table.game, &table.tokens[1]).await;
    ann.send(&ClientMessage::Move { game: table.game.clone(), ply: 2, text: "g1f3".into() }).await;
    assert_eq!(bo.moved(2).await.text, "g1f3");
    let (_, view) = resume(n3, "Ann", &table.game, &table.tokens[0]).await;
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["e2e4", "e7e5", "g1f3"], "each move once");
}

#[tokio::test]
async fn quick_pairing_pairs_across_nodes_and_nobody_twice() {
    let site = Site::start("cluster-pairing").await;
    let blitz = timed("xiangqi", 300, 3);
    let mut seekers = Vec::new();
    for index in 0..6 {
        let addr = site.addrs[index % 3];
        let mut client = hello(addr, &format!("P{index}")).await;
        client.send(&ClientMessage::Seek { spec: blitz.clone() }).await;
        seekers.push(client);
    }
    let mut seated = Vec::new();
    for client in &mut seekers {
        let (game, seat) = client
            .until(|m| match m {
                ServerMessage::Seated { game, seat, .. } => Some((game.clone(), *seat)),
                _ => None,
            })
            .await;
        seated.push((game, seat));
    }
    let mut games: Vec<&String> = seated.iter().map(|(game, _)| game).collect();
    games.sort();
    games.dedup();
    assert_eq!(games.len(), 3, "six seekers, three games: {seated:?}");
    for game in games {
        let seats: Vec<Seat> =
            seated.iter().filter(|(g, _)| g == game).map(|(_, seat)| *seat).collect();
        assert_eq!(seats.len(), 2, "{seated:?}");
        assert_ne!(seats[0], seats[1]);
    }
    // Pairs from different nodes play: the first game's two players move.
    let (game, _) = seated[0].clone();
    let partner = seated.iter().skip(1).position(|(g, _)| *g == game).unwrap() + 1;
    let first_seat = |index: usize| seated[index].1 == Seat::First;
    let (red, black) = if first_seat(0) { (0, partner) } else { (partner, 0) };
    let opening = AnyGame::new("xiangqi", "", &StartFrom::Start { seed: 0 }).unwrap().legal_moves();
    let first = opening[0].clone();
    seekers[red]
        .send(&ClientMessage::Move { game: game.clone(), ply: 0, text: first.clone() })
        .await;
    assert_eq!(seekers[black].moved(0).await.text, first);
    // A cancelled seek is not paired.
    let mut quitter = hello(site.addrs[0], "Q").await;
    quitter.send(&ClientMessage::Seek { spec: blitz.clone() }).await;
    quitter.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;
    quitter.send(&ClientMessage::CancelSeek).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut late = hello(site.addrs[1], "L").await;
    late.send(&ClientMessage::Seek { spec: blitz.clone() }).await;
    late.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;

    // The lobby spans the nodes: a follower on node 3 counts L (seeking on node 2), sees a
    // challenge posted on node 1, and sees it among the games being played once a player on
    // node 2 accepted it.
    let mut follower = hello(site.addrs[2], "F").await;
    follower.send(&ClientMessage::Lobby { variant: None, seek: Some(blitz) }).await;
    let mut seen = LobbySeen::default();
    seen.until(&mut follower, |seen| seen.waiting == Some(1)).await;
    let mut poster = hello(site.addrs[0], "P").await;
    poster
        .send(&ClientMessage::Challenge { spec: spec("gomoku", ""), seat: SeatChoice::First })
        .await;
    let challenge = poster
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await;
    let id = challenge.clone();
    seen.until(&mut follower, |seen| seen.challenges.contains_key(&id)).await;
    let mut taker = hello(site.addrs[1], "T").await;
    taker.send(&ClientMessage::Accept { game: challenge.clone() }).await;
    taker.until(|m| matches!(m, ServerMessage::Seated { .. }).then_some(())).await;
    let id = challenge.clone();
    seen.until(&mut follower, |seen| {
        !seen.challenges.contains_key(&id) && seen.games.contains_key(&id)
    })
    .await;

    // Rated seeks across nodes (accounts are shared through PostgreSQL): one account's two
    // tabs never meet, a casual seeker never meets a rated one, and another account does.
    let rated = GameSpec { rated: true, ..spec("chess", "") };
    let ann = common::register(site.addrs[0], "Ann", "a password").await.cookie();
    let elsewhere = common::login(site.addrs[1], "ann", "a password").await;
    assert_eq!(elsewhere.status, 200, "signed in on another node: {elsewhere:?}");
    let mut tabs = Vec::new();
    for addr in [site.addrs[0], site.addrs[1]] {
        let (mut tab, account) = common::signed_in_client(addr, &ann, "").await;
        assert_eq!(account.as_deref(), Some("Ann"));
        tab.send(&ClientMessage::Seek { spec: rated.clone() }).await;
        tab.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;
        tabs.push(tab);
    }
    let mut casual = hello(site.addrs[2], "C").await;
    casual.send(&ClientMessage::Seek { spec: spec("chess", "") }).await;
    casual.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;
    let other = common::register(site.addrs[2], "Bo_B", "a password").await.cookie();
    let (mut bo, _) = common::signed_in_client(site.addrs[2], &other, "").await;
    bo.send(&ClientMessage::Seek { spec: rated }).await;
    let game = bo
        .until(|m| match m {
            ServerMessage::Seated { game, .. } => Some(game.clone()),
            _ => None,
        })
        .await;
    let view = bo.state().await;
    assert!(view.spec.rated);
    assert!(view.players.iter().any(|p| p.name.as_deref() == Some("Ann")), "{view:?}");
    assert_eq!(view.game, game);
}

#[tokio::test]
async fn a_node_frozen_past_its_lease_can_change_nothing_when_it_wakes() {
    let site = Site::start("cluster-frozen").await;
    let [n1, n2, n3] = [site.addrs[0], site.addrs[1], site.addrs[2]];
    let mut table = three_way(spec("chess", ""), n1, n2, n3).await;
    table.play(Seat::First, 0, "e2e4").await;
    // Node 1 runs the game; it freezes (a long pause, a cut-off network) past its lease.
    site.signal(0, "STOP");
    assert_eq!(table.bo.close_code().await, Some(1012));
    // Bo takes the game up elsewhere (whoever claims it now holds a newer fencing token).
    let (mut bo, view) = resume(n2, "Bo", &table.game, &table.tokens[1]).await;
    assert_eq!(view.moves.len(), 1);
    let (mut ann, _) = resume(n3, "Ann", &table.game, &table.tokens[0]).await;
    bo.send(&ClientMessage::Move { game: table.game.clone(), ply: 1, text: "e7e5".into() }).await;
    assert_eq!(ann.moved(1).await.text, "e7e5");
    // Node 1 wakes, still thinking it runs the game, with Ann's old socket in it: a move sent
    // there is not played (its write is fenced off), and the socket is sent to reconnect.
    site.signal(0, "CONT");
    let old = &mut table.ann;
    old.send(&ClientMessage::Move { game: table.game.clone(), ply: 1, text: "d7d5".into() }).await;
    let woke = old
        .until_closed_or(|m| match m {
            ServerMessage::Moved { mv, .. } if mv.ply == 1 => Some(mv.text.clone()),
            _ => None,
        })
        .await;
    assert_ne!(woke.as_deref(), Some("d7d5"), "a fenced-off node played a move");
    // The game is as the live nodes made it.
    ann.send(&ClientMessage::Move { game: table.game.clone(), ply: 2, text: "g1f3".into() }).await;
    assert_eq!(bo.moved(2).await.text, "g1f3");
    let (_, view) = resume(n1, "Ann", &table.game, &table.tokens[0]).await;
    let texts: Vec<&str> = view.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["e2e4", "e7e5", "g1f3"]);
}

#[tokio::test]
async fn the_limits_per_address_hold_across_nodes() {
    let flags = [
        "--games-per-minute",
        "5",
        "--max-sockets-per-address",
        "4",
        "--open-challenges-per-address",
        "2",
    ];
    let site = Site::start_with("cluster-limits", &flags).await;
    // Game sockets: four from one address, on three nodes; the fifth is refused anywhere.
    let mut open = Vec::new();
    for addr in [0, 1, 2, 0].map(|node| site.addrs[node]) {
        open.push(Client::connect(addr).await);
    }
    for addr in &site.addrs {
        let refused = tokio_tungstenite::connect_async(format!("ws://{addr}/ws")).await;
        let error = refused.expect_err("a fifth socket from one address");
        assert!(error.to_string().contains("429"), "{error}");
    }
    // One closes: its place is free again, on another node.
    open.pop().unwrap().close().await;
    let deadline = Instant::now() + Duration::from_secs(5);
    while tokio_tungstenite::connect_async(format!("ws://{}/ws", site.addrs[2])).await.is_err() {
        assert!(Instant::now() < deadline, "a closed socket's place was never given back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(open);
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Open challenges: two from one address on two nodes; the third is refused on the third.
    let mut challengers = Vec::new();
    for (index, addr) in site.addrs.iter().enumerate() {
        let mut client = hello(*addr, "Ann").await;
        client
            .send(&ClientMessage::Challenge { spec: spec("gomoku", ""), seat: SeatChoice::First })
            .await;
        let answer = client
            .until(|m| match m {
                ServerMessage::Seated { .. } => Some(None),
                ServerMessage::Error { code, detail } => Some(Some((*code, detail.clone()))),
                _ => None,
            })
            .await;
        if index < 2 {
            assert_eq!(answer, None, "challenge {index}");
        } else {
            let (code, detail) = answer.expect("the third open challenge is refused");
            assert_eq!(code, qi_protocol::ErrorCode::RateLimited);
            assert!(detail.contains("open challenges") && detail.contains("at most 2"), "{detail}");
        }
        challengers.push(client);
    }
    drop(challengers);
    tokio::time::sleep(Duration::from_millis(300)).await;
    // One address (the tests' 127.0.0.1) makes games on all three nodes in turn (two were
    // made above).
    for (index, addr) in site.addrs.iter().chain(&site.addrs[..1]).enumerate() {
        let mut client = hello(*addr, "Ann").await;
        client
            .send(&ClientMessage::Create { spec: spec("gomoku", ""), seat: SeatChoice::First })
            .await;
        let answer = client
            .until(|m| match m {
                ServerMessage::Seated { .. } => Some(None),
                ServerMessage::Error { code, detail } => Some(Some((*code, detail.clone()))),
                _ => None,
            })
            .await;
        if index < 3 {
            assert_eq!(answer, None, "game {index}");
        } else {
            let (code, detail) = answer.expect("the sixth game in a minute is refused");
            assert_eq!(code, qi_protocol::ErrorCode::RateLimited);
            assert!(detail.contains("at most 5 a minute"), "{detail}");
        }
    }
    // Guessing a password is limited per account across the nodes: ten wrong guesses spread
    // over them, and the eleventh waits on any node.
    assert_eq!(common::register(site.addrs[0], "Target", "the real one").await.status, 200);
    for guess in 0..10 {
        let answer = common::login(site.addrs[guess % 3], "target", "a wrong guess").await;
        assert_eq!(answer.error(), qi_protocol::AccountErrorCode::WrongCredentials, "{guess}");
    }
    let next = common::login(site.addrs[1], "Target", "the real one").await;
    assert_eq!(next.error(), qi_protocol::AccountErrorCode::TooManyAttempts);
}

/// A tournament's page as `cookie`'s account reads it on `addr`.
async fn tournament_page(
    addr: SocketAddr,
    id: &str,
    cookie: &str,
) -> qi_server::tournaments::TournamentView {
    let path = format!("/api/tournaments/{id}");
    let answer = common::request(addr, "GET", &path, Some(cookie), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    serde_json::from_str(&answer.body).unwrap()
}

/// A socket on `addr` signed in with `cookie`, sitting in `game`; the game as it stands. Tried
/// again while the game's node is being replaced.
async fn sit(addr: SocketAddr, cookie: &str, game: &str) -> (Client, GameView) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (mut client, account) = common::signed_in_client(addr, cookie, "").await;
        assert!(account.is_some());
        client.send(&ClientMessage::Sit { game: game.to_owned(), have_plies: None }).await;
        let answer = client
            .until(|m| match m {
                ServerMessage::State { view } => Some(Ok(view.clone())),
                ServerMessage::Error { detail, .. } => Some(Err(detail.clone())),
                _ => None,
            })
            .await;
        match answer {
            Ok(view) => return (client, view),
            Err(detail) => {
                assert!(Instant::now() < deadline, "could not sit: {detail}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// Issue 50: a Swiss run by every node at once (each steps it; a write made on a stale read is
/// refused), its players on nodes 2 and 3; node 1 — which steps the tournament too, and runs
/// whichever of its games its own steps created — is killed in the middle of round 2's first
/// game. Every game is created once, every result counted once, nobody meets twice, and the
/// tournament ends.
#[tokio::test]
async fn a_swiss_survives_a_node_killed_in_the_middle_of_a_round() {
    let mut site = Site::start_with("cluster-swiss", &["--tournaments"]).await;
    let n1 = site.addrs[0];
    let names = ["ada", "bobo", "cyd", "dee"];
    let mut cookies = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let made = common::register(site.addrs[i % 3], name, "correct horse battery").await;
        cookies.push(made.cookie());
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let spec = serde_json::json!({
        "name": "Cluster Swiss",
        "family": "Gomoku",
        "rules": "",
        "starts_at": now.as_secs() + 2,
        "clock": { "initial_seconds": 300, "increment_seconds": 0 },
        "format": { "format": "swiss", "rounds": 3, "pause_seconds": 10 },
        "rated": true,
        "password": null,
        "min_rating": null,
        "max_rating": null,
        "max_players": 8
    })
    .to_string();
    let created = common::request(n1, "POST", "/api/tournaments", Some(&cookies[0]), Some(&spec));
    let created = created.await;
    assert_eq!(created.status, 201, "{}", created.body);
    let id = serde_json::from_str::<qi_server::tournaments::TournamentView>(&created.body)
        .unwrap()
        .summary
        .id;
    for (i, cookie) in cookies.iter().enumerate() {
        let path = format!("/api/tournaments/{id}/join");
        let joined = common::request(site.addrs[i % 3], "POST", &path, Some(cookie), Some("{}"));
        assert_eq!(joined.await.status, 200);
    }

    // The players play on nodes 2 and 3; node 1 is killed during round 2.
    let addrs = site.addrs.clone();
    let node_of = |player: usize| addrs[1 + player % 2];
    let deadline = Instant::now() + Duration::from_secs(180);
    let mut played: Vec<(String, usize, usize)> = Vec::new();
    let mut killed = false;
    loop {
        let reader = site.addrs[if killed { 2 } else { 1 }];
        let view = tournament_page(reader, &id, &cookies[0]).await;
        assert!(Instant::now() < deadline, "the Swiss never finished: {view:?}");
        if view.summary.stage == "finished" {
            break;
        }
        let mut fresh = view.playing.iter().filter(|g| !played.iter().any(|(id, ..)| *id == g.id));
        let Some(game) = fresh.next().cloned() else {
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        };
        let white = names.iter().position(|n| *n == game.white).unwrap();
        let black = names.iter().position(|n| *n == game.black).unwrap();
        played.push((game.id.clone(), white, black));
        let (mut w, _) = sit(node_of(white), &cookies[white], &game.id).await;
        let (mut b, _) = sit(node_of(black), &cookies[black], &game.id).await;
        let moves = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
        for (ply, text) in moves.iter().enumerate() {
            if ply == 4 && game.round == Some(2) && !killed {
                // Mid-game, mid-round: node 1 dies. Both players come back on live nodes.
                killed = true;
                site.kill(0).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
                drop((w, b));
                let (again_w, view) = sit(node_of(white), &cookies[white], &game.id).await;
                assert_eq!(view.moves.len(), 4, "every move acknowledged is there");
                w = again_w;
                b = sit(node_of(black), &cookies[black], &game.id).await.0;
            }
            let ply = u32::try_from(ply).unwrap();
            let mover = if ply % 2 == 0 { &mut w } else { &mut b };
            let message = ClientMessage::Move { game: game.id.clone(), ply, text: (*text).into() };
            mover.send(&message).await;
            w.moved(ply).await;
            b.moved(ply).await;
        }
        assert_eq!(b.ended().await.0.winner, Some(Seat::First));
    }
    assert!(killed, "node 1 was killed during round 2");

    let view = tournament_page(site.addrs[2], &id, &cookies[1]).await;
    // Four players, three rounds, two games a round: six games, each created once, each pair
    // once, every result counted.
    assert_eq!(played.len(), 6, "{played:?}");
    assert_eq!(view.finished.len(), 6, "{view:?}");
    assert!(view.playing.is_empty());
    let mut pairs: Vec<(usize, usize)> =
        played.iter().map(|&(_, w, b)| (w.min(b), w.max(b))).collect();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(pairs.len(), 6, "nobody met twice: {played:?}");
    assert!(view.finished.iter().all(|g| g.result.as_deref() == Some("1-0")), "{view:?}");
    let points: u32 = view.standings.iter().map(|row| row.points).sum();
    assert_eq!(points, 6 * 2, "six wins, in half points: {view:?}");
}
