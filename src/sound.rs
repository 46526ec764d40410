//! Sounds: which one a change of the game calls for ([`sound_for`], plain Rust, tested
//! natively) and playing it ([`play`]), synthesised with Web Audio — short tones and clicks of
//! our own, no files to download.
//!
//! Tests observe what is played: when the page defines an array `window.qiSoundLog`, each sound
//! played (not a muted one) is pushed onto it by name (`move`, `capture`, ...).

use qi_rules::GameKind;
use wasm_bindgen::JsCast;

use crate::state::{AppState, Clocks, PlayState};

/// A sound the app makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A move (a banqi flip, a gomoku stone).
    Move,
    /// A move that took a piece.
    Capture,
    /// A move that gives check.
    Check,
    /// The game is over.
    GameEnd,
    /// A move the rules refused.
    Refused,
    /// The player's clock is running low.
    LowTime,
}

impl Sound {
    /// Its name, for the test log.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Sound::Move => "move",
            Sound::Capture => "capture",
            Sound::Check => "check",
            Sound::GameEnd => "game-end",
            Sound::Refused => "refused",
            Sound::LowTime => "low-time",
        }
    }

    /// The tones: (frequency in Hz, start in s, length in s, oscillator shape), at the volume.
    fn tones(self) -> &'static [(f32, f64, f64, &'static str)] {
        match self {
            // A short wooden knock.
            Sound::Move => &[(520.0, 0.0, 0.07, "triangle")],
            // Two knocks, the second lower: something left the board.
            Sound::Capture => &[(620.0, 0.0, 0.06, "triangle"), (380.0, 0.05, 0.09, "triangle")],
            // A bright rising pair.
            Sound::Check => &[(660.0, 0.0, 0.08, "square"), (880.0, 0.07, 0.12, "square")],
            // Three notes down to rest.
            Sound::GameEnd => &[
                (784.0, 0.0, 0.14, "sine"),
                (659.0, 0.13, 0.14, "sine"),
                (523.0, 0.26, 0.3, "sine"),
            ],
            // A low buzz.
            Sound::Refused => &[(150.0, 0.0, 0.12, "sawtooth")],
            // Two quick high pips: look at the clock.
            Sound::LowTime => &[(1175.0, 0.0, 0.06, "sine"), (1175.0, 0.12, 0.06, "sine")],
        }
    }
}

/// The number of pieces on the board of `state`'s game as it stands.
fn pieces(state: &PlayState) -> usize {
    let game = &state.game;
    let (files, ranks) = game.board_size();
    (0..files)
        .flat_map(|file| (0..ranks).map(move |rank| qi_rules::Cell::new(file, rank)))
        .filter(|&cell| game.piece_code(cell).is_some())
        .count()
}

/// The sound for going from `before` to `after` (one action's change), if any: a move played
/// on the game (its end, a check, a capture, or a plain move, in that order), or a move
/// refused. Stepping through the game, editing notes and the like are silent.
#[must_use]
pub fn sound_for(before: &PlayState, after: &PlayState) -> Option<Sound> {
    // A new or opened game (a finished record too) is no move, no ending and no refusal.
    if after.game_number != before.game_number {
        return None;
    }
    // One move, or two at once: a reply and the move queued for it (a premove), online.
    let added = after.record.moves.len().saturating_sub(before.record.moves.len());
    let moved = after.game.kind() == before.game.kind()
        && (1..=2).contains(&added)
        && after.record.moves.starts_with(&before.record.moves);
    if moved {
        if after.result().is_some() {
            return Some(Sound::GameEnd);
        }
        if after.game.in_check() {
            return Some(Sound::Check);
        }
        // A gomoku stone only ever adds a piece; a banqi flip keeps the count.
        if after.game.kind() != GameKind::Gomoku && pieces(after) < pieces(before) {
            return Some(Sound::Capture);
        }
        return Some(Sound::Move);
    }
    if after.result().is_some() && before.result().is_none() {
        // A resignation or a flag.
        return Some(Sound::GameEnd);
    }
    if after.refusals != before.refusals {
        return Some(Sound::Refused);
    }
    None
}

/// A state whose changes make sounds: the play slice's ([`sound_for`]), and on the main page
/// its clocks' low-time warning.
pub trait Heard: 'static {
    /// The play slice.
    fn play(&self) -> &PlayState;
    /// The page's own clocks, if it has them.
    fn clocks(&self) -> Option<&Clocks> {
        None
    }
}

impl Heard for PlayState {
    fn play(&self) -> &PlayState {
        self
    }
}

impl Heard for AppState {
    fn play(&self) -> &PlayState {
        &self.play
    }

    fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }
}

/// The sound for going from `before` to `after`: the play slice's ([`sound_for`]), else the
/// person's clock newly warning it runs low, within one game.
#[must_use]
pub fn sound_between<S: Heard>(before: &S, after: &S) -> Option<Sound> {
    let (play_before, play_after) = (before.play(), after.play());
    if let Some(sound) = sound_for(play_before, play_after) {
        return Some(sound);
    }
    let warned = |clocks: Option<&Clocks>| clocks.map(|c| c.low_time_warned);
    let newly_warned = play_after.game_number == play_before.game_number
        && matches!((warned(before.clocks()), warned(after.clocks())), (Some(b), Some(a)) if a != b);
    newly_warned.then_some(Sound::LowTime)
}

/// Plays the sound each change of `state` calls for ([`sound_for`]: a move, a capture, check,
/// the end, a refused move, a clock running low), at the state's volume, when `on`.
#[yew::hook]
pub fn use_game_sounds<S: Heard>(state: std::rc::Rc<S>, on: bool) {
    let previous = yew::use_mut_ref(|| state.clone());
    yew::use_effect(move || {
        let before = std::mem::replace(&mut *previous.borrow_mut(), state.clone());
        if on
            && !std::rc::Rc::ptr_eq(&before, &state)
            && let Some(sound) = sound_between(&*before, &*state)
        {
            play(sound, state.play().settings.volume);
        }
    });
}

/// Plays `sound` at `volume` (0 to 100; 0 plays nothing). A browser that has no Web Audio, or
/// has not yet let the page make a sound (before the first click), stays silent.
pub fn play(sound: Sound, volume: u8) {
    if volume == 0 {
        return;
    }
    log(sound);
    let _ = synthesise(sound, f32::from(volume.min(100)) / 100.0);
}

/// Pushes the sound's name onto `window.qiSoundLog` when the page has one (tests).
fn log(sound: Sound) {
    let Some(window) = web_sys::window() else { return };
    let Ok(list) = js_sys::Reflect::get(&window, &"qiSoundLog".into()) else { return };
    if let Ok(list) = list.dyn_into::<js_sys::Array>() {
        list.push(&sound.name().into());
    }
}

thread_local! {
    /// One audio context for the page (browsers limit how many there may be).
    static CONTEXT: std::cell::RefCell<Option<web_sys::AudioContext>> =
        const { std::cell::RefCell::new(None) };
}

fn synthesise(sound: Sound, gain: f32) -> Option<()> {
    let context = CONTEXT.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.is_none() {
            *cell = web_sys::AudioContext::new().ok();
        }
        cell.clone()
    })?;
    let now = context.current_time();
    for &(frequency, start, length, shape) in sound.tones() {
        let oscillator = context.create_oscillator().ok()?;
        let envelope = context.create_gain().ok()?;
        oscillator.set_type(match shape {
            "square" => web_sys::OscillatorType::Square,
            "sawtooth" => web_sys::OscillatorType::Sawtooth,
            "triangle" => web_sys::OscillatorType::Triangle,
            _ => web_sys::OscillatorType::Sine,
        });
        oscillator.frequency().set_value(frequency);
        // A quick attack and an exponential fall: a knock, not a beep.
        let level = envelope.gain();
        let (from, to) = (now + start, now + start + length);
        level.set_value_at_time(0.0001, from).ok()?;
        level.exponential_ramp_to_value_at_time(0.25 * gain, from + 0.005).ok()?;
        level.exponential_ramp_to_value_at_time(0.0001, to).ok()?;
        oscillator.connect_with_audio_node(&envelope).ok()?;
        envelope.connect_with_audio_node(&context.destination()).ok()?;
        oscillator.start_with_when(from).ok()?;
        oscillator.stop_with_when(to + 0.02).ok()?;
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, Settings, TreeAction};
    use qi_rules::any::AnyGame;

    fn after_drag(state: &AppState, from: &str, to: &str) -> AppState {
        let mut next = state.clone();
        next.apply(Action::Pick { cell: from.parse().unwrap() });
        next.apply(Action::Drop { from: from.parse().unwrap(), to: to.parse().unwrap(), now: 0.0 });
        next
    }

    #[test]
    fn each_change_has_its_sound() {
        let start = AppState::new(Settings::new(qi_i18n::text::Lang::En), 0);
        let e4 = after_drag(&start, "e2", "e4");
        assert_eq!(sound_between(&start, &e4), Some(Sound::Move));
        let d5 = after_drag(&e4, "d7", "d5");
        let takes = after_drag(&d5, "e4", "d5");
        assert_eq!(sound_between(&d5, &takes), Some(Sound::Capture));
        let refused = after_drag(&takes, "d8", "d1");
        assert_eq!(sound_between(&takes, &refused), Some(Sound::Refused));
        // The same refusal again is heard again.
        assert_eq!(
            sound_between(&refused, &after_drag(&refused, "d8", "d1")),
            Some(Sound::Refused)
        );
        // Stepping back is silent.
        let mut back = takes.clone();
        back.apply(Action::Tree(TreeAction::StepBack));
        assert_eq!(sound_between(&takes, &back), None);
        // Check, and the end.
        let mut mate = start.clone();
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4")] {
            mate = after_drag(&mate, from, to);
        }
        let over = after_drag(&mate, "d8", "h4");
        assert_eq!(sound_between(&mate, &over), Some(Sound::GameEnd));
        let mut check = start.clone();
        for (from, to) in [("e2", "e4"), ("f7", "f6")] {
            check = after_drag(&check, from, to);
        }
        assert_eq!(sound_between(&check, &after_drag(&check, "d1", "h5")), Some(Sound::Check));
        let mut resigned = e4.clone();
        resigned.apply(Action::Resign);
        assert_eq!(sound_between(&e4, &resigned), Some(Sound::GameEnd));
        assert!(matches!(*start.game, AnyGame::Chess(_)));
    }

    #[test]
    fn a_clock_running_low_warns_once() {
        let mut start = AppState::new(Settings::new(qi_i18n::text::Lang::En), 0);
        start.apply(Action::SetClock { config: crate::state::ClockConfig::custom(1, 0), seed: 0 });
        let e4 = after_drag(&start, "e2", "e4");
        let running = e4.clone();
        // Black's clock runs from 0 ms: 60 s, low under 10 s.
        let tick = |state: &AppState, now: f64| {
            let mut next = state.clone();
            next.apply(Action::Tick { now });
            next
        };
        let early = tick(&running, 49_000.0);
        assert_eq!(sound_between(&running, &early), None);
        let low = tick(&early, 50_500.0);
        assert_eq!(sound_between(&early, &low), Some(Sound::LowTime));
        assert_eq!(sound_between(&low, &tick(&low, 55_000.0)), None, "once");
        // White's clock has not run low.
        assert!(!low.clocks.as_ref().unwrap().low_time_warned.first);
    }

    #[test]
    fn a_new_or_opened_game_is_silent() {
        let start = AppState::new(Settings::new(qi_i18n::text::Lang::En), 0);
        // After a refusal, a new game keeps the count: no "refused" sound.
        let refused = after_drag(&start, "e2", "e5");
        assert_eq!(sound_between(&start, &refused), Some(Sound::Refused));
        let mut new_game = refused.clone();
        new_game.apply(Action::NewGame { seed: 1 });
        assert_eq!(sound_between(&refused, &new_game), None);
        // Opening a finished record (mate in one move from the start's point of view) is no
        // game end, nor a move.
        let mut mate = start.clone();
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            mate = after_drag(&mate, from, to);
        }
        let mut opened = start.clone();
        opened.apply(Action::Open {
            record: (*mate.record).clone(),
            bottom: None,
            at: None,
            notice: None,
        });
        assert!(opened.result().is_some());
        assert_eq!(sound_between(&start, &opened), None);
        let mut one_move = start.clone();
        let mut e4_record = (*start.record).clone();
        e4_record.moves.push("e2e4".into());
        one_move.apply(Action::Open { record: e4_record, bottom: None, at: None, notice: None });
        assert_eq!(sound_between(&start, &one_move), None, "an opened game of one move is no move");
    }
}
