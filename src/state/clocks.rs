//! The hot-seat clocks: both sides' time, pressed by each move, run down by the page's ticks.

use qi_play::record::EndedBy;
use qi_rules::{BySide, Side};

use super::{AppState, Beside, ClockConfig, PlayState};

/// Both sides' clocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Clocks {
    /// The setting they started from.
    pub config: ClockConfig,
    /// Time left for each side when its clock last stopped, in milliseconds.
    pub remaining_ms: BySide<f64>,
    /// The side whose clock runs and since when (ms); `None` before the first move.
    pub running: Option<(Side, f64)>,
    /// Whether each side's clock has warned it is running low (once a game, a sound).
    pub low_time_warned: BySide<bool>,
}

impl Clocks {
    pub(super) fn new(config: ClockConfig) -> Clocks {
        let base = f64::from(config.base_secs) * 1000.0;
        Clocks {
            config,
            remaining_ms: BySide::new(base, base),
            running: None,
            low_time_warned: BySide::default(),
        }
    }

    /// Below this much time left (ms), the clock is running low.
    #[must_use]
    pub fn low_time_ms(&self) -> f64 {
        qi_settings::low_time_ms(self.config.base_secs)
    }

    /// Marks `side`'s clock as having warned, the first time its running clock is low at
    /// `now`; returns whether it warned now.
    pub(super) fn warn_low_time(&mut self, side: Side, now: f64) -> bool {
        let running = self.running.is_some_and(|(running, _)| running == side);
        let low = self.remaining_at(side, now) <= self.low_time_ms();
        let warn = running && low && !self.low_time_warned[side];
        if warn {
            self.low_time_warned[side] = true;
        }
        warn
    }

    /// Time left for `side` at `now`, in milliseconds (never below zero).
    #[must_use]
    pub fn remaining_at(&self, side: Side, now: f64) -> f64 {
        let mut left = self.remaining_ms[side];
        if let Some((running, since)) = self.running
            && running == side
        {
            left -= (now - since).max(0.0);
        }
        left.max(0.0)
    }
}

impl PlayState {
    /// Whether the mover's clock had run out before a move of the game as it stands (moves
    /// into the tree from an earlier position are not timed): the game then ends on time, and
    /// the move is not played.
    pub(super) fn flag_fell(&mut self, beside: Beside) -> bool {
        if self.explored.is_some() {
            return false;
        }
        let mover = self.game.side_to_move();
        let fell = beside.out_of_time == Some(mover);
        if fell {
            self.end(mover.other(), EndedBy::Time);
        }
        fell
    }
}

impl AppState {
    /// Time passes: a flag may fall, or the person's clock warn it is running low.
    pub(super) fn tick(&mut self, now: f64) {
        if self.result().is_none() {
            let to_move = self.game.side_to_move();
            if self.clock_has_run_out(to_move, now) {
                let winner = to_move.other();
                let happened = self.play_mut().reporting(|play| play.end(winner, EndedBy::Time));
                self.follow(happened, Some(now));
            } else if !self.settings.computer_plays(to_move)
                && let Some(clocks) = &mut self.clocks
            {
                // The person's clock running low: warned once (a sound).
                clocks.warn_low_time(to_move, now);
            }
        }
    }

    pub(super) fn clock_has_run_out(&self, side: Side, now: f64) -> bool {
        self.clocks
            .as_ref()
            .is_some_and(|c| c.running.is_some() && c.remaining_at(side, now) <= 0.0)
    }

    /// Stops the mover's clock (adding the increment) and starts the opponent's. The clocks
    /// start with the first move.
    pub(super) fn press_clock(&mut self, mover: Side, now: f64) {
        let to_move = self.game.side_to_move();
        let Some(clocks) = &mut self.clocks else { return };
        if clocks.running.is_some() {
            clocks.remaining_ms[mover] =
                clocks.remaining_at(mover, now) + f64::from(clocks.config.increment_secs) * 1000.0;
        }
        clocks.running = Some((to_move, now));
    }

    /// After moves were taken back or put back: the running clock stops (the time used stays
    /// used) and the side to move now has the clock.
    pub(super) fn hand_clock_to_side_to_move(&mut self, now: f64) {
        let to_move = self.game.side_to_move();
        if let Some(clocks) = &mut self.clocks
            && let Some((running, _)) = clocks.running
        {
            clocks.remaining_ms[running] = clocks.remaining_at(running, now);
            clocks.running = Some((to_move, now));
        }
    }
}
