//! The new-game dialog: the game, who plays, the level, the rules and the clock, chosen in one
//! place that fits a phone's screen, then one button to play. The choices are a draft until
//! then: the game on the board goes on if the dialog is closed.

use qi_rules::GameKind;
use yew::prelude::*;

use super::setup_fields::SetupFields;
use super::share::DialogFrame;
use crate::state::{Action, Settings, SetupChoice};
use crate::web::random_seed;
use qi_i18n::text::{Text, game_name, t};

/// Properties of [`NewGameDialog`].
#[derive(Properties, PartialEq)]
pub struct NewGameProps {
    /// The settings the choices start from (the game being played).
    pub settings: Settings,
    /// Where the new game goes.
    pub dispatch: Callback<Action>,
    /// Closes the dialog.
    pub close: Callback<()>,
}

/// The new-game dialog.
#[function_component(NewGameDialog)]
pub fn new_game_dialog(props: &NewGameProps) -> Html {
    let draft = use_state(|| props.settings.clone());
    let lang = draft.lang;
    let on_choose = {
        let draft = draft.clone();
        Callback::from(move |choice: SetupChoice| {
            let mut next = (*draft).clone();
            if next.choose(choice) {
                draft.set(next);
            }
        })
    };
    let games = GameKind::ALL.iter().map(|&kind| {
        let on_choose = on_choose.clone();
        let onclick = Callback::from(move |_: MouseEvent| on_choose.emit(SetupChoice::Game(kind)));
        let current = draft.kind == kind;
        html! {
            <button type="button" class={classes!("game-tab", current.then_some("current"))}
                    data-new-game={kind.name()} aria-pressed={current.to_string()} {onclick}>
                { game_name(lang, kind) }
            </button>
        }
    });
    let start = {
        let (draft, dispatch, close) = (draft.clone(), props.dispatch.clone(), props.close.clone());
        Callback::from(move |_: MouseEvent| {
            dispatch
                .emit(Action::StartGame { setup: Box::new((*draft).clone()), seed: random_seed() });
            close.emit(());
        })
    };
    html! {
        <DialogFrame {lang} class="new-game" title={Text::NewGame} close={props.close.clone()}>
            <div class="game-picker" role="group" aria-label={t(lang, Text::Game)}>{ for games }</div>
            <div class="options">
                <SetupFields settings={(*draft).clone()} {on_choose} />
            </div>
            <button type="button" class="start" data-action="start-game" onclick={start}>
                { t(lang, Text::StartGame) }
            </button>
        </DialogFrame>
    }
}
