//! The computer's moves and hints: asked of the worker when it is the computer's turn, taken
//! back when the game changes, and the ponder on the person's time.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use qi_tasks::think::{PonderRequest, ThinkReply, ThinkRequest, WorkerReply, WorkerRequest};

use crate::components::StateCell;
use crate::state::{Action, EngineAction, Mode, SearchSummary, WATCH_DELAYS_MS};
use crate::web;

/// What the page has asked the engine and may take back: the computer's move (or a hint), and
/// the ponder after the computer's move.
#[derive(Default)]
struct EngineAsks {
    /// Counts the changes of the game that make earlier asks stale (see the computer's turn
    /// effect): an ask made after a pause checks it has not moved meanwhile.
    turn: u64,
    /// The request for the computer's move or a hint, while it may be unanswered.
    move_seq: Option<u64>,
    /// The ponder under way.
    ponder_seq: Option<u64>,
    /// What to ponder once the computer's move is on the board: the game with the reply the
    /// engine expects played last, at the level it played.
    expected: Option<PonderRequest>,
}

/// Sends a request to the worker and dispatches its answer; in watch mode after a pause, so
/// the moves can be followed.
fn ask_computer(state: &UseReducerHandle<StateCell>, asks: &Rc<RefCell<EngineAsks>>, hint: bool) {
    let id = state.engine.next_request;
    state.dispatch(Action::Engine(EngineAction::StartThinking { id, hint }));
    let level = if hint { 5 } else { state.settings.level };
    let request =
        ThinkRequest { id, level, seed: web::random_seed(), record: (*state.record).clone() };
    let watching = state.settings.mode == Mode::Watch;
    let pause = if watching && !hint {
        WATCH_DELAYS_MS[state.settings.watch_speed.min(WATCH_DELAYS_MS.len() - 1)]
    } else {
        0
    };
    // Against a person, a low level still takes a moment (see `least_answer_ms`).
    let least = if hint || watching { 0 } else { qi_settings::least_answer_ms(level) };
    // The engine thinks on the person's time against the person only.
    let may_ponder = !hint
        && matches!(state.settings.mode, Mode::VsComputer { .. })
        && qi_tasks::think::ponders(state.record.kind, level);
    let (dispatcher, asks) = (state.dispatcher(), asks.clone());
    let turn = asks.borrow().turn;
    yew::platform::spawn_local(async move {
        if pause > 0 {
            yew::platform::time::sleep(std::time::Duration::from_millis(u64::from(pause))).await;
            if asks.borrow().turn != turn {
                // The game changed during the pause: this move is not wanted. (An answer with
                // no move frees the state if it still waits for this one.)
                let search = SearchSummary { depth: 0, nodes: 0, time_ms: 0 };
                let now = web::now_ms();
                dispatcher.dispatch(Action::Engine(EngineAction::ComputerAnswer {
                    id,
                    best: None,
                    search,
                    now,
                }));
                return;
            }
        }
        let asked_at = web::now_ms();
        let record = request.record.clone();
        let mut reply = None;
        // No answer, and not cancelled (a cancel takes `move_seq` first): the worker failed (it
        // trapped, or could not load) and was dropped. A new one is asked once more, so a
        // worker's fault does not leave the computer's turn waiting for ever.
        for _ in 0..2 {
            let asked = crate::worker::ask(WorkerRequest::Think(request.clone()));
            let seq = asked.seq();
            asks.borrow_mut().move_seq = Some(seq);
            let answer = asked.answer().await;
            let failed = answer.is_none() && asks.borrow().move_seq == Some(seq);
            reply = answer.and_then(WorkerReply::think);
            if !failed {
                break;
            }
        }
        let reply = reply.unwrap_or(ThinkReply::none(id));
        let left = f64::from(least) - (web::now_ms() - asked_at);
        if left >= 1.0 {
            yew::platform::time::sleep(std::time::Duration::from_millis(left as u64)).await;
        }
        if may_ponder && let (Some(best), Some(expected)) = (&reply.best, &reply.ponder) {
            let mut record = record;
            // Into the record, which holds moves as records write them.
            record.moves.extend([best.to_string(), expected.to_string()]);
            record.ending = None;
            let seed = web::random_seed();
            asks.borrow_mut().expected = Some(PonderRequest { id, level, seed, record });
        }
        let search =
            SearchSummary { depth: reply.depth, nodes: reply.nodes, time_ms: reply.time_ms };
        dispatcher.dispatch(Action::Engine(EngineAction::ComputerAnswer {
            id,
            best: reply.best,
            search,
            now: web::now_ms(),
        }));
    });
}

/// Asks the worker to ponder `expected` if it is still the game (the computer's move is the last
/// on the board) against a person at a level that ponders, the page is visible and the battery
/// is not low.
fn start_pondering(
    state: &UseReducerHandle<StateCell>,
    asks: &Rc<RefCell<EngineAsks>>,
    expected: PonderRequest,
) {
    let still = matches!(state.settings.mode, Mode::VsComputer { .. })
        && state.settings.level == expected.level
        && qi_tasks::think::ponders(state.record.kind, expected.level);
    let on_board = still
        && state.viewing.is_none()
        && state.result().is_none()
        && expected.record.moves.len() == state.record.moves.len() + 1
        && expected.record.moves.starts_with(&state.record.moves)
        && expected.record.start == state.record.start;
    if on_board && !web::page_hidden() && !web::battery_low() {
        let asked = crate::worker::ask(WorkerRequest::Ponder(expected));
        asks.borrow_mut().ponder_seq = Some(asked.seq());
        // Its answer says only how deep it went: nothing to wait for.
        drop(asked);
    }
}

/// The computer's turn: ask the worker. Any change of the game or the mode takes back what was
/// asked (a move no longer wanted, a ponder); the person's turn after the computer's move
/// starts a ponder at the levels that ponder.
/// Returns the hint button's callback.
#[hook]
pub fn use_computer(state: &UseReducerHandle<StateCell>) -> Callback<()> {
    let asks = use_mut_ref(EngineAsks::default);
    {
        // The game, the mode or the result changed: what was asked for the game as it was
        // is not wanted any more.
        let game = (
            state.record.moves.len(),
            state.record.start.clone(),
            state.settings.mode,
            state.result().is_some(),
        );
        let asks = asks.clone();
        use_effect_with(game, move |_| {
            let (move_seq, ponder_seq) = {
                let mut asks = asks.borrow_mut();
                asks.turn += 1;
                (asks.move_seq.take(), asks.ponder_seq.take())
            };
            for seq in move_seq.into_iter().chain(ponder_seq) {
                crate::worker::cancel(seq);
            }
        });
    }
    {
        let should = state.computer_to_be_asked();
        let trigger =
            (should, state.record.moves.len(), state.record.start.clone(), state.settings.mode);
        let (state, asks) = (state.clone(), asks.clone());
        use_effect_with(trigger, move |(should, ..)| {
            let expected = asks.borrow_mut().expected.take();
            if *should {
                ask_computer(&state, &asks, false);
            } else if let Some(expected) = expected {
                start_pondering(&state, &asks, expected);
            }
        });
    }
    // A hidden page does not ponder.
    {
        let asks = asks.clone();
        use_effect_with((), move |()| {
            web::watch_battery();
            let stop = web::on_visibility_change(move || {
                if web::page_hidden()
                    && let Some(seq) = asks.borrow_mut().ponder_seq.take()
                {
                    crate::worker::cancel(seq);
                }
            });
            move || {
                if let Some(stop) = stop {
                    stop();
                }
            }
        });
    }
    {
        let (state, asks) = (state.clone(), asks.clone());
        Callback::from(move |()| ask_computer(&state, &asks, true))
    }
}
