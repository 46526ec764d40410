//! The hot-seat clocks: each side's time, the running one highlighted.

use qi_rules::Side;
use yew::prelude::*;

use super::status::{side_class, side_label};
use crate::state::AppState;

/// What the clocks show, from [`clocks_view`].
#[derive(Clone, Debug, PartialEq)]
pub struct ClocksView {
    /// The clocks.
    pub clocks: crate::state::Clocks,
    /// The side whose clock runs (none once the game is over).
    pub running: Option<Side>,
    /// The side whose flag fell, if any.
    pub flagged: Option<Side>,
    /// Each side's colour class and name (the first side's first).
    pub sides: [(&'static str, &'static str); 2],
}

/// The clocks of `state`'s game, when it is played on the clock.
#[must_use]
pub fn clocks_view(state: &AppState) -> Option<ClocksView> {
    let clocks = state.clocks.clone()?;
    let side = |side| (side_class(state, side), side_label(state, side));
    Some(ClocksView {
        running: clocks.running.map(|(side, _)| side).filter(|_| state.result().is_none()),
        clocks,
        flagged: state.flagged(),
        sides: [side(Side::First), side(Side::Second)],
    })
}

/// Properties of [`Clocks`].
#[derive(Properties, PartialEq)]
pub struct ClocksProps {
    /// What to show; nothing without clocks.
    pub view: Option<ClocksView>,
    /// The time now (ms), refreshed by the app's timer while a clock runs.
    pub now: f64,
}

/// `m:ss`, or `s.t` under ten seconds, as game sites show it.
#[must_use]
pub fn format_time(ms: f64) -> String {
    let ms = ms.max(0.0);
    if ms < 10_000.0 {
        let tenths = (ms / 100.0).floor() as u64;
        return format!("0:0{}.{}", tenths / 10, tenths % 10);
    }
    let seconds = (ms / 1000.0).ceil() as u64;
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// Both clocks, the second side's first (it sits at the top of the unflipped board).
#[function_component(Clocks)]
pub fn clocks(props: &ClocksProps) -> Html {
    let Some(view) = &props.view else { return Html::default() };
    let clock = |side: Side| {
        let left = view.clocks.remaining_at(side, props.now);
        let (class, label) = view.sides[usize::from(side == Side::Second)];
        html! {
            <div class={classes!("clock", (view.running == Some(side)).then_some("running"), (view.flagged == Some(side)).then_some("flagged"))}
                 data-clock={if side == Side::First { "first" } else { "second" }}>
                <span class={classes!("side-dot", class)}></span>
                <span class="clock-side">{ label }</span>
                <span class="clock-time">{ format_time(left) }</span>
            </div>
        }
    };
    html! { <div class="clocks">{ clock(Side::Second) }{ clock(Side::First) }</div> }
}

#[cfg(test)]
mod tests {
    use super::format_time;

    #[test]
    fn times_read_like_a_clock() {
        assert_eq!(format_time(300_000.0), "5:00");
        assert_eq!(format_time(61_000.0), "1:01");
        assert_eq!(format_time(10_000.0), "0:10");
        assert_eq!(format_time(9_950.0), "0:09.9");
        assert_eq!(format_time(-5.0), "0:00.0");
    }
}
