//! A tournament's records for arbiters' and players' tools: its finished games as one
//! multi-game record (`GET /api/tournaments/{id}/games`, PGN and the other games' PGN-style
//! records, each game with its tags) and a Swiss's results as FIDE's TRF-16
//! (`GET /api/tournaments/{id}/trf`).

use axum::Extension;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use qi_play::record::{EndedBy, Ending, GameRecord, Start};
use qi_play::records::{Format, export_all};
use qi_protocol::{EndReason, GameResult, Seat};
use qi_rules::Side;
use qi_tournament::event::Play;
use qi_tournament::swiss::trf;

use super::{Kept, read_tournament};
use crate::accounts::{AccountRoutes, Refused, refusal, unavailable};
use crate::listener::Peer;
use crate::storage::StoredGame;

/// The most games one export holds (an arena's busiest day is well under it).
pub const MAX_EXPORTED_GAMES: usize = 5_000;

/// The ending a stored result describes, when the moves do not say it themselves.
fn ending(result: &GameResult) -> Option<Ending> {
    let winner = result.winner.map(|seat| match seat {
        Seat::First => Side::First,
        Seat::Second => Side::Second,
    });
    let by = match result.reason {
        // The rules' end follows from the moves.
        EndReason::Rules { .. } => return None,
        EndReason::Resignation => EndedBy::Resignation,
        EndReason::Timeout => EndedBy::Time,
        EndReason::Agreement => EndedBy::Agreement,
        EndReason::Aborted | EndReason::Abandoned => EndedBy::Recorded,
    };
    Some(Ending { winner, by })
}

/// `YYYY.MM.DD` of a time in milliseconds since the Unix epoch (UTC).
fn pgn_date(unix_ms: u64) -> String {
    // Days to a civil date (Howard Hinnant's algorithm).
    let days = i64::try_from(unix_ms / 86_400_000).unwrap_or(0);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// One stored game of a tournament as a record with its tags.
fn game_record(kept: &Kept, round: Option<u32>, stored: &StoredGame) -> GameRecord {
    let game = &stored.game;
    let mut record = GameRecord::from_parts(
        game.spec.rules.kind(),
        game.spec.rules.to_list(),
        Start::Position(game.start.clone()),
        stored.moves.iter().map(|mv| mv.text.clone()).collect(),
    );
    let name = |index: usize| game.names[index].clone().unwrap_or_else(|| "?".into());
    record.tags = vec![
        ("Event".into(), kept.tournament.spec.name.clone()),
        ("Site".into(), "Qi".into()),
        ("Date".into(), pgn_date(game.created_unix_ms)),
        ("Round".into(), round.map_or_else(|| "-".into(), |r| r.to_string())),
        ("White".into(), name(0)),
        ("Black".into(), name(1)),
    ];
    record.ending = stored.result.as_ref().and_then(ending);
    record
}

/// A file to download: its type, its name (ids only: nothing to quote), its text.
fn attachment(content_type: &'static str, file: &str, body: String) -> Response {
    let disposition = format!("attachment; filename=\"{file}\"");
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response()
}

/// `GET /api/tournaments/{id}/games`: the finished games, oldest first, as one record file.
pub(crate) async fn games(
    State(routes): State<AccountRoutes>,
    Path(id): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let (id, kept) = read_tournament(&routes, peer.as_ref(), &headers, &id).await?;
    let storage = &routes.accounts.storage;
    let mut records = Vec::new();
    for game in kept.games.iter().filter(|g| g.result.is_some()).take(MAX_EXPORTED_GAMES) {
        let loaded = storage.load(game.id.clone()).await.map_err(|e| unavailable(&e))?;
        // A forfeit's game has no moves worth a record; one not stored is left out.
        if let Some(stored) = loaded.filter(|s| s.result.is_some() && !s.moves.is_empty()) {
            records.push(game_record(&kept, game.round, &stored));
        }
    }
    let kind = records.first().map(|r| r.kind);
    let format = kind
        .map_or(Format::for_game(qi_rules::GameKind::Chess)[0], |kind| Format::for_game(kind)[0]);
    let body = export_all(&records, format);
    Ok(attachment(
        "application/x-chess-pgn; charset=utf-8",
        &format!("qi-tournament-{id}.pgn"),
        body,
    ))
}

/// `GET /api/tournaments/{id}/trf`: a Swiss's finished rounds as FIDE's TRF-16.
pub(crate) async fn trf(
    State(routes): State<AccountRoutes>,
    Path(id): Path<String>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
) -> Result<Response, Refused> {
    let (id, kept) = read_tournament(&routes, peer.as_ref(), &headers, &id).await?;
    let Play::Swiss { swiss, .. } = &kept.tournament.play else {
        return Err(refusal(
            StatusCode::NOT_FOUND,
            qi_protocol::AccountErrorCode::NotFound,
            "only a Swiss has a TRF here",
        ));
    };
    let start = pgn_date(kept.tournament.spec.starts_at.saturating_mul(1000)).replace('.', "/");
    let event =
        trf::Event { name: kept.tournament.spec.name.clone(), start: Some(start), arbiter: None };
    let body = trf::write(swiss, &event, false);
    Ok(attachment("text/plain; charset=utf-8", &format!("qi-tournament-{id}.trf"), body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_utc_calendar_day() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
        assert_eq!(pgn_date(1_796_574_886_000), "2026.12.06");
    }

    #[test]
    fn endings_the_moves_do_not_show_are_written() {
        let result = |winner, reason| GameResult { winner, reason };
        let resigned = ending(&result(Some(Seat::Second), EndReason::Resignation)).unwrap();
        assert_eq!((resigned.winner, resigned.by), (Some(Side::Second), EndedBy::Resignation));
        let flagged = ending(&result(Some(Seat::First), EndReason::Timeout)).unwrap();
        assert_eq!(flagged.by, EndedBy::Time);
        let rules = EndReason::Rules { reason: qi_protocol::RulesEnd::FiveInARow };
        assert_eq!(ending(&result(Some(Seat::First), rules)), None);
    }
}
