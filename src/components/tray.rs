//! Banqi's tray: for each colour, the pieces captured so far and how many are still face down
//! (both public in banqi: every capture is seen, and each colour has sixteen pieces).

use qi_rules::any::AnyGame;
use qi_rules::banqi::{Colour, Piece};
use qi_rules::{GameKind, Side};
use yew::prelude::*;

use crate::state::PlayState;
use qi_i18n::text::{Lang, Text, fill, side_name, t};

/// One colour's row of the tray.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrayRow {
    /// `red` or `black`, for styling and tests.
    pub colour: &'static str,
    /// The colour's name in the interface language.
    pub name: &'static str,
    /// The piece codes captured (`rP`, `bC`...), highest rank first.
    pub captured: Vec<String>,
    /// How many of the colour's pieces are still face down.
    pub face_down: u8,
}

/// The tray of the banqi position shown; `None` in the other games.
#[must_use]
pub fn tray_view(state: &PlayState) -> Option<[TrayRow; 2]> {
    let AnyGame::Banqi(game) = state.board_game() else { return None };
    let lang = state.settings.lang;
    let captured = game.captured();
    let face_down = game.face_down_pool();
    let row = |colour: Colour| {
        let pieces = Piece::ALL.into_iter().filter(|piece| piece.colour == colour);
        let red = colour == Colour::Red;
        let code = |piece: Piece| format!("{}{}", if red { 'r' } else { 'b' }, piece.role.letter());
        TrayRow {
            colour: if red { "red" } else { "black" },
            // Named as xiangqi names its sides: Red and Black.
            name: side_name(
                lang,
                GameKind::Xiangqi,
                if red { Side::First } else { Side::Second },
                None,
            ),
            captured: pieces
                .clone()
                .flat_map(|piece| {
                    std::iter::repeat_n(code(piece), usize::from(captured[piece.index()]))
                })
                .collect(),
            face_down: pieces.map(|piece| face_down[piece.index()]).sum(),
        }
    };
    Some([row(Colour::Red), row(Colour::Black)])
}

/// Properties of [`BanqiTray`].
#[derive(Properties, PartialEq)]
pub struct TrayProps {
    /// What to show; nothing outside banqi.
    pub view: Option<[TrayRow; 2]>,
    /// The interface language.
    pub lang: Lang,
    /// Pieces as symbols rather than characters.
    pub symbols: bool,
}

/// The tray, beside the board.
#[function_component(BanqiTray)]
pub fn banqi_tray(props: &TrayProps) -> Html {
    let Some(rows) = &props.view else { return Html::default() };
    let lang = props.lang;
    let rows = rows.iter().map(|row| {
        let pieces = row.captured.iter().map(|code| {
            html! {
                <span class="tray-piece" data-piece={code.clone()}>
                    { crate::board::piece_image(code, crate::board::Style::Squares, props.symbols) }
                </span>
            }
        });
        html! {
            <div class={classes!("tray-row", row.colour)} data-colour={row.colour}>
                <span class="tray-name">{ row.name }</span>
                <span class="tray-pieces" role="group" aria-label={t(lang, Text::Captured)}>{ for pieces }</span>
                <span class="tray-hidden" data-face-down={row.face_down.to_string()}>
                    { fill(t(lang, Text::FaceDownCount), "n", &row.face_down.to_string()) }
                </span>
            </div>
        }
    });
    html! { <section class="banqi-tray" data-testid="banqi-tray">{ for rows }</section> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::AppState;
    use crate::state::{Action, Settings};

    #[test]
    fn the_tray_counts_captures_and_face_down_pieces() {
        let mut settings = Settings::new(Lang::En);
        settings.kind = GameKind::Chess;
        assert_eq!(tray_view(&AppState::new(settings.clone(), 0)), None);
        settings.kind = GameKind::Banqi;
        let mut state = AppState::new(settings, 0);
        let [red, black] = tray_view(&state).expect("a banqi tray");
        assert_eq!((red.face_down, black.face_down), (16, 16));
        assert!(red.captured.is_empty() && black.captured.is_empty());
        let mut record = qi_play::record::GameRecord::new(GameKind::Banqi, "", 0);
        record.start = qi_play::record::Start::Position("K*n6/8/8/6Pk 1 r 0 - -".into());
        state.apply(Action::Open { record, bottom: None, at: None, notice: None });
        let [red, black] = tray_view(&state).expect("a banqi tray");
        assert_eq!((red.face_down, black.face_down), (0, 1));
        assert_eq!(red.captured.len(), 14);
        assert_eq!(red.captured.iter().filter(|c| *c == "rP").count(), 4);
        assert_eq!((red.name, black.name), ("Red", "Black"));
    }
}
