//! Messages a broken or hostile server might send: none may panic or change anything.

use qi_protocol::{EndReason, GameResult, GameView, Refusal, Seat, SeatChoice, ServerMessage};

use super::{CHESS_START, played, ready, seated, snapshot, spec, view};
use crate::online::session::{Intent, Opening};

#[test]
fn hostile_messages_change_nothing() {
    let mut session = seated(Seat::First, &["e2e4", "e7e5"]);
    let long = "x".repeat(100_000);
    let texts = [
        "",
        "null",
        "{",
        "[1,2]",
        r#"{"type":"moved"}"#,
        r#"{"type":"moved","game":"g","mv":{"ply":-1,"text":"e2e4"}}"#,
        r#"{"type":"moved","game":"g","mv":{"ply":99999999999,"text":"e2e4"}}"#,
        r#"{"type":"state","view":{}}"#,
        r#"{"type":"teleport","to":"e8"}"#,
        r#"{"type":"presence","game":"g","seat":"third","connected":true}"#,
        "\u{0}\u{ffff}",
        &long,
    ];
    let before = snapshot(&session);
    for text in texts {
        assert!(session.receive_text(text, 0.0).is_empty(), "{text:.40}");
        assert_eq!(snapshot(&session), before, "{text:.40}");
    }
    let other = "elsewhere".to_owned();
    let messages = [
        ServerMessage::Moved { game: other.clone(), mv: played(2, "g1f3"), clocks: None },
        ServerMessage::Refused { game: other.clone(), ply: 2, reason: Refusal::NotAPlayer },
        ServerMessage::Ended {
            game: other.clone(),
            result: GameResult { winner: None, reason: EndReason::Agreement },
            deal: None,
        },
        ServerMessage::Presence { game: other.clone(), seat: Seat::First, connected: false },
        ServerMessage::Watchers { game: other.clone(), count: u32::MAX },
        ServerMessage::DrawOffered { game: other.clone(), by: Seat::Second },
        ServerMessage::State { view: view(&other, CHESS_START, &[], None) },
        // Not expected: a seat in some game nobody asked for.
        ServerMessage::Seated {
            game: other.clone(),
            token: "t".into(),
            seat: Seat::First,
            invite: None,
        },
        // Our game, but nonsense: a start that does not set up, moves that do not play.
        ServerMessage::State { view: view("g", "not a position", &[], Some(Seat::First)) },
        ServerMessage::State { view: view("g", CHESS_START, &["e2e4", "e2e4"], Some(Seat::First)) },
        ServerMessage::State {
            view: GameView { from_ply: 40, ..view("g", CHESS_START, &["a2a3"], Some(Seat::First)) },
        },
        ServerMessage::RematchOffered { game: "g".into(), by: Seat::Second },
        ServerMessage::Refused { game: "g".into(), ply: u32::MAX, reason: Refusal::NotPlaying },
        ServerMessage::Seeking { spec: spec("chess") },
        ServerMessage::Unknown,
    ];
    for message in messages {
        let shown = format!("{message:?}");
        let effects = session.receive(message, 0.0);
        assert!(effects.is_empty(), "{shown}: {effects:?}");
        let after = snapshot(&session).replace("note: Some(Say(ServerNonsense))", "note: None");
        assert_eq!(after, before, "{shown}");
    }
    // Ids that could not go into a link are never taken.
    let (mut lobby, _) = ready(Opening::Lobby);
    lobby.intent(
        Intent::Create { spec: spec("chess"), seat: SeatChoice::Random, listed: false },
        0.0,
    );
    let sneaky = ServerMessage::Seated {
        game: "a&invite=x".into(),
        token: "t".into(),
        seat: Seat::First,
        invite: None,
    };
    assert!(lobby.receive(sneaky, 0.0).is_empty());
    assert!(lobby.focus.is_none());
}
