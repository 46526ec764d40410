//! Whole games of each of the four games over real WebSockets, with a spectator; quick pairing,
//! draws and rematches.

mod common;

use common::{Client, Dice, Table, banqi_from_view, play_seen, spec, start_server};
use qi_protocol::{
    ClientMessage, EndReason, GameAction, GameResult, RulesEnd, Seat, ServerMessage,
};
use qi_rules::Side;

fn by_rules(winner: Option<Seat>, reason: RulesEnd) -> GameResult {
    GameResult { winner, reason: EndReason::Rules { reason } }
}

/// Plays `line` alternately from the first seat and checks the end everyone hears.
async fn play_line(variant: &str, line: &[&str], expected: GameResult) {
    let server = start_server(variant).await;
    let mut table = Table::new(server.addr, spec(variant, "")).await;
    table.watch(server.addr).await;
    for (ply, text) in line.iter().enumerate() {
        let seat = if ply % 2 == 0 { Seat::First } else { Seat::Second };
        table.play(seat, text).await;
    }
    let (result, deal) = table.ended().await;
    assert_eq!(result, expected);
    assert_eq!(deal, None);
}

#[tokio::test]
async fn chess_fools_mate() {
    let line = ["f2f3", "e7e5", "g2g4", "d8h4"];
    play_line("chess", &line, by_rules(Some(Seat::Second), RulesEnd::Checkmate)).await;
}

#[tokio::test]
async fn gomoku_five_in_a_row() {
    let line = ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"];
    play_line("gomoku", &line, by_rules(Some(Seat::First), RulesEnd::FiveInARow)).await;
}

#[tokio::test]
async fn xiangqi_quick_mate() {
    let line = ["b3b6", "h8h1", "b6g6", "d10e9", "g6g10"];
    play_line("xiangqi", &line, by_rules(Some(Seat::First), RulesEnd::Checkmate)).await;
}

/// Banqi to the end by two bots that see only what the server sends; with a no-progress count
/// of 10 plies a random game ends soon. The deal at the end must agree with every reveal.
#[tokio::test]
async fn banqi_played_out_by_bots() {
    let server = start_server("banqi").await;
    let rules = "draw=10";
    let mut table = Table::new(server.addr, spec("banqi", rules)).await;
    table.watch(server.addr).await;
    let mut seen = banqi_from_view(rules, &table.start, &[]);
    let mut dice = Dice(0x9E37_79B9);
    let mut played = Vec::new();
    while seen.outcome().is_none() {
        let moves = seen.legal_moves();
        let text = &moves[dice.below(moves.len())];
        let seat = if seen.side_to_move() == Side::First { Seat::First } else { Seat::Second };
        let mv = table.play(seat, text).await;
        play_seen(&mut seen, &mv);
        played.push(mv);
    }
    let (result, deal) = table.ended().await;
    assert!(matches!(result.reason, EndReason::Rules { .. }), "{result:?}");
    // The deal, replayed with the same moves, turns up the same pieces.
    let deal = deal.expect("the deal comes with the end");
    let mut real =
        qi_rules::any::AnyGame::new("banqi", rules, &qi_rules::any::StartFrom::Position(&deal))
            .unwrap();
    for mv in &played {
        if let Some(letter) = &mv.reveal {
            let cell = mv.text.split(['-', 'x']).next_back().unwrap().parse().unwrap();
            let code = real.piece_code(cell).unwrap();
            assert_eq!(code, "?", "{} was face down", mv.text);
            let AnyGame::Banqi(banqi) = &real else { unreachable!() };
            let qi_rules::banqi::Square::Hidden(piece) = banqi.square(cell) else { panic!() };
            assert_eq!(piece.letter().to_string(), *letter);
        }
        real.play(&mv.text).unwrap();
    }
    assert_eq!(real.outcome(), seen.outcome());
}

use qi_rules::any::AnyGame;

#[tokio::test]
async fn quick_pairing_seats_both_seekers() {
    let server = start_server("seek").await;
    let mut ann = Client::hello(server.addr, "Ann").await;
    let mut bo = Client::hello(server.addr, "Bo").await;
    let mut cy = Client::hello(server.addr, "Cy").await;
    let gomoku = spec("gomoku", "");
    ann.send(&ClientMessage::Seek { spec: gomoku.clone() }).await;
    ann.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;
    // Someone seeking another game is not paired with Ann.
    cy.send(&ClientMessage::Seek { spec: spec("chess", "") }).await;
    cy.until(|m| matches!(m, ServerMessage::Seeking { .. }).then_some(())).await;
    bo.send(&ClientMessage::Seek { spec: gomoku }).await;
    let mut seats = Vec::new();
    for client in [&mut ann, &mut bo] {
        let (game, seat) = client
            .until(|m| match m {
                ServerMessage::Seated { game, seat, invite: None, .. } => {
                    Some((game.clone(), *seat))
                }
                _ => None,
            })
            .await;
        let view = client.state().await;
        assert_eq!(view.you, Some(seat));
        assert_eq!(view.status, qi_protocol::Status::Playing);
        seats.push((game, seat));
    }
    assert_eq!(seats[0].0, seats[1].0);
    assert_ne!(seats[0].1, seats[1].1);
    cy.send(&ClientMessage::CancelSeek).await;
}

#[tokio::test]
async fn a_draw_by_agreement_then_a_rematch_with_seats_swapped() {
    let server = start_server("rematch").await;
    let mut table = Table::new(server.addr, spec("chess", "")).await;
    table.play(Seat::First, "e2e4").await;
    let game = table.game.clone();
    table.players[1]
        .send(&ClientMessage::Act { game: game.clone(), action: GameAction::OfferDraw })
        .await;
    table.players[0]
        .until(|m| matches!(m, ServerMessage::DrawOffered { by: Seat::Second, .. }).then_some(()))
        .await;
    table.players[0]
        .send(&ClientMessage::Act { game: game.clone(), action: GameAction::OfferDraw })
        .await;
    let (result, _) = table.ended().await;
    assert_eq!(result, GameResult { winner: None, reason: EndReason::Agreement });

    for seat in [0, 1] {
        table.players[seat]
            .send(&ClientMessage::Act { game: game.clone(), action: GameAction::Rematch })
            .await;
    }
    let mut rematch = Vec::new();
    for (index, player) in table.players.iter_mut().enumerate() {
        let (new_game, seat) = player
            .until(|m| match m {
                ServerMessage::Seated { game: g, seat, .. } if *g != game => {
                    Some((g.clone(), *seat))
                }
                _ => None,
            })
            .await;
        assert_eq!(seat.index(), 1 - index, "seats are swapped");
        let view = player.state().await;
        assert_eq!(view.game, new_game);
        assert_eq!(view.players[0].name.as_deref(), Some("Bo"));
        rematch.push(new_game);
    }
    assert_eq!(rematch[0], rematch[1]);
    // Bo moves first now.
    table.players[1]
        .send(&ClientMessage::Move { game: rematch[0].clone(), ply: 0, text: "d2d4".into() })
        .await;
    table.players[0].moved(0).await;
}

/// Swap online: the first seat puts three stones, the second takes black, and the colours
/// change hands: the first seat plays White from the fourth stone on, and the second seat's
/// black five wins. Everyone hears the choice as a move.
#[tokio::test]
async fn gomoku_swap_opening_between_two_players() {
    let server = start_server("gomoku-swap").await;
    let mut table = Table::new(server.addr, spec("gomoku", "opening=swap")).await;
    table.watch(server.addr).await;
    let line = [
        (Seat::First, "h8"),
        (Seat::First, "a1"),
        (Seat::First, "i8"),
        (Seat::Second, "black"),
        (Seat::First, "a2"),
        (Seat::Second, "j8"),
        (Seat::First, "a3"),
        (Seat::Second, "k8"),
        (Seat::First, "a4"),
        (Seat::Second, "l8"),
    ];
    for (seat, text) in line {
        let mv = table.play(seat, text).await;
        assert_eq!(mv.text, text);
    }
    let (result, _) = table.ended().await;
    assert_eq!(result, by_rules(Some(Seat::Second), RulesEnd::FiveInARow));
}

/// Soosõrv-8 online, watched: the 26-opening stones, both colour choices, White's declaration,
/// Black's offers and White's pick are each a move every client hears; a move out of turn or
/// out of step is refused with the reason, and the game goes on.
#[tokio::test]
async fn gomoku_soosorv8_opening_between_two_players() {
    let server = start_server("gomoku-soosorv8").await;
    let mut table = Table::new(server.addr, spec("gomoku", "rule=renju,opening=soosorv8")).await;
    table.watch(server.addr).await;
    let opening = [
        (Seat::First, "h8"),
        (Seat::First, "i9"),
        (Seat::First, "j10"),
        // The second seat takes black: the first seat holds white and puts the fourth.
        (Seat::Second, "black"),
        (Seat::First, "a1"),
        (Seat::First, "offers=2"),
        // The second seat, holding black, keeps it and offers two fifth stones.
        (Seat::Second, "black"),
        (Seat::Second, "offer=g9"),
    ];
    for (seat, text) in opening {
        let mv = table.play(seat, text).await;
        assert_eq!(mv.text, text);
    }
    // g9's mirror image across the diagonal the stones stand on is not a new offer.
    let refusal = table.refused(Seat::Second, "offer=i7").await;
    assert!(refusal.describe().contains("mirror"), "{refusal:?}");
    for (seat, text) in [(Seat::Second, "offer=k5"), (Seat::First, "k5"), (Seat::First, "l12")] {
        let mv = table.play(seat, text).await;
        assert_eq!(mv.text, text);
    }
}
