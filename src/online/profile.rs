//! A player's profile (`online/?player=<name>`, where the server sends `online/@/<name>`): the
//! rating in each kind of game with a small graph of its history, then the latest games, each
//! with links to review it in the app and to its page.

use qi_protocol::{
    AccountError, AccountErrorCode, EndReason, ProfileGame, ProfileRating, ProfileView,
    RatingPoint, START_RATING,
};
use yew::prelude::*;

use super::account;
use super::address::{id_ok, profile_href};
use super::game::{finished_record, review_href, side_of};
use super::labels::{spec_label, variant_label};
use super::texts::shown_text;
use super::texts::{Words, say};
use qi_i18n::text::{Lang, fill_all};

/// How a game ended for the profile's owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The owner won.
    Won,
    /// The owner lost.
    Lost,
    /// A draw.
    Draw,
    /// Aborted: nobody won.
    Aborted,
}

impl Outcome {
    /// The outcome of `game` for the profile's owner (who sat in `game.seat`).
    #[must_use]
    pub fn of(game: &ProfileGame) -> Outcome {
        match (game.result.winner, &game.result.reason) {
            (Some(winner), _) if winner == game.seat => Outcome::Won,
            (Some(_), _) => Outcome::Lost,
            (None, EndReason::Aborted) => Outcome::Aborted,
            (None, _) => Outcome::Draw,
        }
    }

    /// Its word.
    #[must_use]
    pub fn words(self) -> Words {
        match self {
            Outcome::Won => Words::ResultWon,
            Outcome::Lost => Words::ResultLost,
            Outcome::Draw => Words::ResultDraw,
            Outcome::Aborted => Words::ResultAborted,
        }
    }

    /// Its name for styles and tests.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Draw => "draw",
            Outcome::Aborted => "aborted",
        }
    }
}

/// How a game ended, when the result alone does not say it (the rules' own reasons are worded
/// apart, by `qi_i18n::rules::end_reason_for`, and go in a tooltip).
fn reason_words(reason: &EndReason) -> Option<Words> {
    match reason {
        EndReason::Resignation => Some(Words::ByResignation),
        EndReason::Timeout => Some(Words::ByTimeout),
        EndReason::Agreement => Some(Words::ByAgreement),
        EndReason::Abandoned => Some(Words::ByAbandonment),
        EndReason::Rules { .. } | EndReason::Aborted => None,
    }
}

/// A rating history drawn in a box: the points of its line, and the lowest and highest
/// ratings (the vertical axis's ends).
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    /// The line's points, left to right, in the box's units (y grows downwards).
    pub points: Vec<(f64, f64)>,
    /// The lowest rating.
    pub min: u32,
    /// The highest rating.
    pub max: u32,
}

/// Lays `history` out in a `width` × `height` box: one step to the right a game (a single
/// game in the middle), the highest rating at the top and the lowest at the bottom (a flat
/// history along the middle). `None` for an empty history.
#[must_use]
pub fn graph(history: &[RatingPoint], width: f64, height: f64) -> Option<Graph> {
    let min = history.iter().map(|point| point.rating.rating).min()?;
    let max = history.iter().map(|point| point.rating.rating).max()?;
    let steps = history.len().saturating_sub(1);
    let points = history
        .iter()
        .enumerate()
        .map(|(index, point)| {
            let x = if steps == 0 { width / 2.0 } else { width * index as f64 / steps as f64 };
            let y = if max == min {
                height / 2.0
            } else {
                height * f64::from(max - point.rating.rating) / f64::from(max - min)
            };
            (x, y)
        })
        .collect();
    Some(Graph { points, min, max })
}

/// The graph's box, in SVG units: the plot's size and the room left of it for the axis labels.
const PLOT_WIDTH: f64 = 240.0;
const PLOT_HEIGHT: f64 = 60.0;
const AXIS_WIDTH: f64 = 44.0;
const MARGIN: f64 = 6.0;

/// A kind's history as drawn: the start rating first (every history begins there), then the
/// rating after each game.
#[must_use]
pub fn drawn_history(history: &[RatingPoint], since_unix_ms: u64) -> Vec<RatingPoint> {
    if history.is_empty() {
        return Vec::new();
    }
    let start = RatingPoint { unix_ms: since_unix_ms, rating: START_RATING };
    std::iter::once(start).chain(history.iter().copied()).collect()
}

/// One kind's rating history as an inline SVG line from the start rating, with its summary
/// for screen readers.
fn rating_graph(lang: Lang, kind: &str, history: &[RatingPoint], since_unix_ms: u64) -> Html {
    let games = history.len();
    let history = drawn_history(history, since_unix_ms);
    let Some(graph) = graph(&history, PLOT_WIDTH, PLOT_HEIGHT) else { return Html::default() };
    let (first, last) = (history[0].rating, history[history.len() - 1].rating);
    let words = if games == 1 { Words::RatingGraphLabelOne } else { Words::RatingGraphLabel };
    let label = fill_all(
        say(lang, words),
        &[
            ("game", &variant_label(lang, kind)),
            ("from", &first.to_string()),
            ("to", &last.to_string()),
            ("n", &games.to_string()),
        ],
    );
    let points = graph
        .points
        .iter()
        .map(|(x, y)| format!("{:.1},{:.1}", x + AXIS_WIDTH, y + MARGIN))
        .collect::<Vec<_>>()
        .join(" ");
    let dots = graph.points.iter().map(|(x, y)| {
        html! { <circle cx={format!("{:.1}", x + AXIS_WIDTH)} cy={format!("{:.1}", y + MARGIN)} r="2.5" /> }
    });
    let view_box =
        format!("0 0 {} {}", AXIS_WIDTH + PLOT_WIDTH + MARGIN, PLOT_HEIGHT + 2.0 * MARGIN);
    let axis_x = format!("{:.1}", AXIS_WIDTH - 6.0);
    html! {
        <svg class="rating-graph" role="img" aria-label={label} viewBox={view_box} data-testid="rating-graph">
            <line class="axis" x1={AXIS_WIDTH.to_string()} y1={MARGIN.to_string()}
                  x2={AXIS_WIDTH.to_string()} y2={(PLOT_HEIGHT + MARGIN).to_string()} />
            <text class="axis-label" x={axis_x.clone()} y={(MARGIN + 4.0).to_string()} text-anchor="end">{ graph.max.to_string() }</text>
            if graph.max != graph.min {
                <text class="axis-label" x={axis_x} y={(PLOT_HEIGHT + MARGIN + 2.0).to_string()} text-anchor="end">{ graph.min.to_string() }</text>
            }
            <polyline class="line" points={points} />
            { for dots }
        </svg>
    }
}

/// A date in the reader's language, from milliseconds since the Unix epoch.
fn date(lang: Lang, unix_ms: u64) -> String {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(unix_ms as f64));
    date.to_locale_date_string(lang.tag(), &wasm_bindgen::JsValue::UNDEFINED).into()
}

/// A kind of game's rating on the profile.
fn rating_card(lang: Lang, rating: &ProfileRating, since_unix_ms: u64) -> Html {
    let kind = &rating.now.kind;
    let games = rating.now.games;
    html! {
        <li class="rating-card" data-testid="rating" data-kind={kind.clone()} data-games={games.to_string()}
            data-rating={rating.now.rating.to_string()}>
            <span class="rating-kind">{ variant_label(lang, kind) }</span>
            if games == 0 {
                <span class="rating-none">{ say(lang, Words::NoRatedGames) }</span>
            } else {
                <span class="rating-now">{ rating.now.rating.to_string() }</span>
                <span class="rating-games">{ if games == 1 { say(lang, Words::RatedGameOne).to_owned() } else { fill_all(say(lang, Words::RatedGamesCount), &[("n", &games.to_string())]) } }</span>
                { rating_graph(lang, kind, &rating.history, since_unix_ms) }
            }
        </li>
    }
}

/// A finished game on the profile, as a table row.
fn game_row(lang: Lang, game: &ProfileGame) -> Html {
    let outcome = Outcome::of(game);
    let reason = reason_words(&game.result.reason).map(|words| say(lang, words));
    let detail = match &game.result.reason {
        EndReason::Rules { reason } => Some(
            qi_i18n::rules::end_reason_for(lang, game.spec.variant().kind(), *reason).to_owned(),
        ),
        _ => None,
    };
    let opponent_name = shown_text(&game.opponent, qi_protocol::NAME_MAX_CHARS);
    let opponent = if opponent_name.is_empty() {
        html! { { say(lang, Words::Anonymous) } }
    } else if game.opponent_account {
        html! { <a href={profile_href(&opponent_name)} data-action="opponent-profile">{ opponent_name }</a> }
    } else {
        html! { { opponent_name } }
    };
    let review = finished_record(&game.spec, &game.start, game.moves.clone(), &game.result)
        .filter(|_| outcome != Outcome::Aborted)
        .map(|record| review_href(&record, side_of(game.seat)));
    html! {
        <tr data-testid="profile-game" data-game={game.game.clone()} data-result={outcome.code()}
            data-rated={game.spec.rated.to_string()}>
            <td>{ date(lang, game.ended_unix_ms) }</td>
            <td>{ spec_label(lang, &game.spec) }</td>
            <td>{ opponent }</td>
            <td class={classes!("result", outcome.code())} title={detail}>
                { say(lang, outcome.words()) }
                if let Some(reason) = reason { { " · " }{ reason } }
            </td>
            <td class="profile-links">
                if let Some(review) = review {
                    <a href={review} data-action="review">{ say(lang, Words::Review) }</a>
                }
                if id_ok(&game.game) {
                    <a href={format!("?game={}", game.game)} data-action="game-page">{ say(lang, Words::GamePage) }</a>
                }
            </td>
        </tr>
    }
}

/// The profile, once it came.
fn profile_view(lang: Lang, profile: &ProfileView) -> Html {
    let ratings =
        profile.ratings.iter().map(|rating| rating_card(lang, rating, profile.created_unix_ms));
    let games = profile.games.iter().map(|game| game_row(lang, game));
    let provisional = profile.ratings.iter().any(|rating| rating.now.rating.provisional);
    html! {
        <>
            <h2 data-testid="profile-name">{ shown_text(&profile.name, qi_protocol::NAME_MAX_CHARS) }</h2>
            <p class="profile-since">{ fill_all(say(lang, Words::ProfileSince), &[("date", &date(lang, profile.created_unix_ms))]) }</p>
            <h3>{ say(lang, Words::Ratings) }</h3>
            <ul class="rating-cards">{ for ratings }</ul>
            if provisional {
                <p class="muted-note">{ say(lang, Words::ProvisionalNote) }</p>
            }
            <h3>{ say(lang, Words::RecentGames) }</h3>
            if profile.games.is_empty() {
                <p class="empty">{ say(lang, Words::NoGamesYet) }</p>
            } else {
                <div class="profile-games-scroll">
                    <table class="profile-games">
                        <thead><tr>
                            <th scope="col">{ say(lang, Words::ColumnDate) }</th>
                            <th scope="col">{ say(lang, Words::ColumnGame) }</th>
                            <th scope="col">{ say(lang, Words::ColumnOpponent) }</th>
                            <th scope="col">{ say(lang, Words::ColumnResult) }</th>
                            <th scope="col"><span class="visually-hidden">{ say(lang, Words::Review) }</span></th>
                        </tr></thead>
                        <tbody>{ for games }</tbody>
                    </table>
                </div>
            }
        </>
    }
}

/// Properties of [`Profile`].
#[derive(Properties, PartialEq)]
pub struct ProfileProps {
    /// The interface language.
    pub lang: Lang,
    /// The player.
    pub name: String,
}

/// A player's profile: fetched when shown.
#[function_component(Profile)]
pub fn profile(props: &ProfileProps) -> Html {
    let lang = props.lang;
    let answer = use_state(|| None::<Result<ProfileView, AccountError>>);
    {
        let answer = answer.clone();
        use_effect_with(props.name.clone(), move |name| {
            let name = name.clone();
            answer.set(None);
            yew::platform::spawn_local(
                async move { answer.set(Some(account::profile(&name).await)) },
            );
        });
    }
    let content = match &*answer {
        None => html! { <p>{ say(lang, Words::ProfileLoading) }</p> },
        Some(Ok(profile)) => profile_view(lang, profile),
        Some(Err(error)) => {
            let words = if error.code == AccountErrorCode::UnknownPlayer {
                Words::AccountUnknownPlayer
            } else {
                super::account_box::error_words(error.code)
            };
            html! {
                <>
                    <h2>{ shown_text(&props.name, qi_protocol::NAME_MAX_CHARS) }</h2>
                    <p class="profile-error" data-testid="profile-error" data-code={format!("{:?}", error.code)}>{ say(lang, words) }</p>
                </>
            }
        }
    };
    html! {
        <section class="panel profile" data-testid="profile">
            { content }
            <p><a href="./" data-action="lobby">{ say(lang, Words::BackToLobby) }</a></p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use qi_protocol::{GameResult, GameSpec, Seat, ShownRating};

    use super::*;
    use qi_protocol::Variant;

    fn point(rating: u32) -> RatingPoint {
        RatingPoint { unix_ms: 0, rating: ShownRating { rating, provisional: true } }
    }

    fn game(seat: Seat, winner: Option<Seat>, reason: EndReason) -> ProfileGame {
        ProfileGame {
            game: "g1".into(),
            spec: GameSpec { rated: true, ..GameSpec::of(Variant::Gomoku) },
            seat,
            opponent: "Bob".into(),
            opponent_account: true,
            result: GameResult { winner, reason },
            ended_unix_ms: 0,
            start: "startpos".into(),
            moves: vec![],
        }
    }

    #[test]
    fn results_are_the_owners() {
        let rules = || EndReason::Rules { reason: qi_protocol::RulesEnd::FiveInARow };
        assert_eq!(Outcome::of(&game(Seat::First, Some(Seat::First), rules())), Outcome::Won);
        assert_eq!(Outcome::of(&game(Seat::Second, Some(Seat::First), rules())), Outcome::Lost);
        assert_eq!(
            Outcome::of(&game(Seat::Second, Some(Seat::Second), EndReason::Timeout)),
            Outcome::Won
        );
        assert_eq!(Outcome::of(&game(Seat::First, None, EndReason::Agreement)), Outcome::Draw);
        assert_eq!(Outcome::of(&game(Seat::First, None, EndReason::Aborted)), Outcome::Aborted);
        assert_eq!(reason_words(&EndReason::Resignation), Some(Words::ByResignation));
        assert_eq!(reason_words(&rules()), None, "the rules' reason is worded apart, a tooltip");
    }

    #[test]
    fn a_drawn_history_starts_at_the_start_rating() {
        assert!(drawn_history(&[], 5).is_empty());
        let drawn = drawn_history(&[point(1662)], 5);
        assert_eq!(drawn.len(), 2);
        assert_eq!((drawn[0].unix_ms, drawn[0].rating.to_string()), (5, "1500?".to_owned()));
        assert_eq!(drawn[1].rating.rating, 1662);
        // One game is a line from the start, not a lone dot.
        let laid = graph(&drawn, 100.0, 10.0).unwrap();
        assert_eq!(laid.points, [(0.0, 10.0), (100.0, 0.0)]);
    }

    #[test]
    fn graphs_span_the_box() {
        assert_eq!(graph(&[], 100.0, 50.0), None);
        let one = graph(&[point(1500)], 100.0, 50.0).unwrap();
        assert_eq!(one.points, vec![(50.0, 25.0)]);
        assert_eq!((one.min, one.max), (1500, 1500));
        let three = graph(&[point(1500), point(1600), point(1550)], 100.0, 50.0).unwrap();
        assert_eq!(three.points, vec![(0.0, 50.0), (50.0, 0.0), (100.0, 25.0)]);
        assert_eq!((three.min, three.max), (1500, 1600));
        let flat = graph(&[point(1400), point(1400)], 100.0, 50.0).unwrap();
        assert_eq!(flat.points, vec![(0.0, 25.0), (100.0, 25.0)]);
    }

    #[test]
    fn finished_games_open_in_the_review() {
        let mut won = game(Seat::First, Some(Seat::First), EndReason::Resignation);
        won.moves = vec!["h8".into(), "h9".into()];
        let record = finished_record(&won.spec, &won.start, won.moves.clone(), &won.result);
        let record = record.expect("the game replays");
        assert_eq!(record.moves.len(), 2);
        assert!(record.ending.is_some(), "the resignation goes with it");
        let href = review_href(&record, qi_rules::Side::First);
        assert!(href.starts_with("../?"), "{href}");
        won.moves = vec!["h8".into(), "h8".into()];
        let broken = finished_record(&won.spec, &won.start, won.moves.clone(), &won.result);
        assert!(broken.is_none(), "a game that does not replay has no review link");
    }
}
