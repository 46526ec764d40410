//! Time on the server: a clock source that tests can drive by hand, the players' game clocks, and
//! the bounded lag compensation.
//!
//! # Lag compensation
//! The server measures each connection's lag as half the round trip of its protocol `Ping`
//! (sent by the server every few seconds) and the `Pong` that answers it. A client can only make
//! that figure larger, never smaller, so it could fake lag to win time; hence each player has a
//! [`LagQuota`]: up to [`LAG_QUOTA_MAX_MS`] of credit, refilled by [`LAG_REFILL_MS`] after every
//! move. A move is charged its thinking time less the measured lag, but never less than the
//! credit allows. An honest player with up to 100 ms of lag is compensated in full for ever; a
//! cheat gains at most 500 ms once and 100 ms a move after that.

use std::sync::atomic::{AtomicU64, Ordering};

use qi_protocol::{ClockSpec, Clocks, Seat};

/// A monotonic time source in milliseconds, injectable so tests of the game logic need not wait.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since some fixed point (the server's start).
    fn now_ms(&self) -> u64;
}

/// The real monotonic clock (tokio's, so that tests that pause tokio's time see it too).
#[derive(Debug)]
pub struct MonotonicClock {
    origin: tokio::time::Instant,
}

impl MonotonicClock {
    /// A clock reading 0 now.
    #[must_use]
    pub fn new() -> MonotonicClock {
        MonotonicClock { origin: tokio::time::Instant::now() }
    }
}

impl Default for MonotonicClock {
    fn default() -> Self {
        MonotonicClock::new()
    }
}

impl Clock for MonotonicClock {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// A clock that moves only when told: for tests.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: AtomicU64,
}

impl ManualClock {
    /// A clock reading `ms`.
    #[must_use]
    pub fn at(ms: u64) -> ManualClock {
        ManualClock { now: AtomicU64::new(ms) }
    }

    /// Moves the clock on by `ms`.
    pub fn advance(&self, ms: u64) {
        self.now.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }
}

/// The most lag credit a player can hold, in milliseconds.
pub const LAG_QUOTA_MAX_MS: u64 = 500;
/// The credit a player gets back after each of their moves, in milliseconds.
pub const LAG_REFILL_MS: u64 = 100;

/// A player's lag credit (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagQuota {
    credit_ms: u64,
}

impl Default for LagQuota {
    fn default() -> Self {
        LagQuota { credit_ms: LAG_QUOTA_MAX_MS }
    }
}

impl LagQuota {
    /// The credit left, in milliseconds.
    #[must_use]
    pub fn credit_ms(self) -> u64 {
        self.credit_ms
    }

    /// How much of `measured_lag_ms` may be given back now.
    #[must_use]
    pub fn allowance(self, measured_lag_ms: u64) -> u64 {
        measured_lag_ms.min(self.credit_ms)
    }

    /// Takes `used` ms of credit (at most the allowance) and refills for the move.
    pub fn spend(&mut self, used: u64) {
        self.credit_ms =
            (self.credit_ms.saturating_sub(used) + LAG_REFILL_MS).min(LAG_QUOTA_MAX_MS);
    }
}

/// A flag fell: the seat ran out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged(pub Seat);

/// The two players' clocks: time left, whose runs since when, and their lag credit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    remaining_ms: [u64; 2],
    increment_ms: u64,
    running: Option<(Seat, u64)>,
    lag: [LagQuota; 2],
}

impl GameClock {
    /// Fresh clocks for `spec`, neither running.
    #[must_use]
    pub fn new(spec: ClockSpec) -> GameClock {
        let base = u64::from(spec.base_secs) * 1000;
        GameClock::restored(spec, [base, base])
    }

    /// Clocks with the time left as stored, neither running.
    #[must_use]
    pub fn restored(spec: ClockSpec, remaining_ms: [u64; 2]) -> GameClock {
        GameClock {
            remaining_ms,
            increment_ms: u64::from(spec.increment_secs) * 1000,
            running: None,
            lag: [LagQuota::default(); 2],
        }
    }

    /// Starts `seat`'s clock at `now` (stopping any other without charging it).
    pub fn start(&mut self, seat: Seat, now: u64) {
        self.running = Some((seat, now));
    }

    /// Stops the running clock at `now`, charging it the time used.
    pub fn stop(&mut self, now: u64) {
        self.remaining_ms = self.remaining_at(now);
        self.running = None;
    }

    /// Time left for each seat at `now`, the running one charged so far (without compensation).
    #[must_use]
    pub fn remaining_at(&self, now: u64) -> [u64; 2] {
        let mut remaining = self.remaining_ms;
        if let Some((seat, since)) = self.running {
            let left = &mut remaining[seat.index()];
            *left = left.saturating_sub(now.saturating_sub(since));
        }
        remaining
    }

    /// The clocks as sent to clients.
    #[must_use]
    pub fn view(&self, now: u64) -> Clocks {
        Clocks { remaining_ms: self.remaining_at(now), running: self.running.map(|(seat, _)| seat) }
    }

    /// The seat whose clock runs.
    #[must_use]
    pub fn running(&self) -> Option<Seat> {
        self.running.map(|(seat, _)| seat)
    }

    /// Charges `mover` for a move made at `now`, less its measured lag within its quota, adds
    /// the increment if its clock was running, and starts `next`'s clock (if any).
    ///
    /// # Errors
    /// [`Flagged`] when the mover's time ran out before the move, even with compensation;
    /// nothing changes then.
    pub fn punch(
        &mut self,
        mover: Seat,
        now: u64,
        measured_lag_ms: u64,
        next: Option<Seat>,
    ) -> Result<(), Flagged> {
        if let Some((seat, since)) = self.running
            && seat == mover
        {
            let quota = &mut self.lag[mover.index()];
            let compensation = quota.allowance(measured_lag_ms);
            let charged = now.saturating_sub(since).saturating_sub(compensation);
            let left = self.remaining_ms[mover.index()];
            if charged > left {
                return Err(Flagged(mover));
            }
            quota.spend(compensation);
            self.remaining_ms[mover.index()] = left - charged + self.increment_ms;
        }
        self.running = next.map(|seat| (seat, now));
        Ok(())
    }

    /// When the running clock's flag falls, if one runs: its time left plus the lag credit its
    /// player could still be given for a move arriving late.
    #[must_use]
    pub fn flag_deadline(&self) -> Option<u64> {
        let (seat, since) = self.running?;
        let credit = self.lag[seat.index()].credit_ms();
        Some(since.saturating_add(self.remaining_ms[seat.index()]).saturating_add(credit))
    }

    /// The seat whose flag has fallen by `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: u64) -> Option<Seat> {
        let (seat, _) = self.running?;
        self.flag_deadline().is_some_and(|deadline| now >= deadline).then_some(seat)
    }

    /// Empties `seat`'s clock and stops it: its flag fell.
    pub fn fall(&mut self, seat: Seat) {
        self.remaining_ms[seat.index()] = 0;
        self.running = None;
    }
}

/// How long a player may be away before the opponent can claim the win: 30 s, or a tenth of
/// the clock's base time when that is longer.
#[must_use]
pub fn abandonment_grace_ms(clock: Option<ClockSpec>) -> u64 {
    let base_ms = clock.map_or(0, |spec| u64::from(spec.base_secs) * 1000);
    (base_ms / 10).max(30_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLITZ: ClockSpec = ClockSpec { base_secs: 60, increment_secs: 2 };

    #[test]
    fn a_move_is_charged_its_time_and_gets_the_increment() {
        let mut clock = GameClock::new(BLITZ);
        clock.start(Seat::First, 1_000);
        assert_eq!(clock.remaining_at(6_000), [55_000, 60_000]);
        clock.punch(Seat::First, 6_000, 0, Some(Seat::Second)).unwrap();
        assert_eq!(
            clock.view(6_000),
            Clocks { remaining_ms: [57_000, 60_000], running: Some(Seat::Second) }
        );
        assert_eq!(clock.remaining_at(9_000), [57_000, 57_000]);
    }

    #[test]
    fn a_clock_that_does_not_run_is_not_charged() {
        let mut clock = GameClock::new(BLITZ);
        clock.punch(Seat::First, 50_000, 0, None).unwrap();
        assert_eq!(clock.remaining_at(90_000), [60_000, 60_000]);
        assert_eq!(clock.flag_deadline(), None);
    }

    #[test]
    fn lag_is_given_back_only_within_the_quota() {
        let mut clock = GameClock::new(ClockSpec { base_secs: 60, increment_secs: 0 });
        clock.start(Seat::First, 0);
        // A claimed lag of 5 s is cut to the 500 ms credit.
        clock.punch(Seat::First, 10_000, 5_000, Some(Seat::Second)).unwrap();
        assert_eq!(clock.remaining_at(10_000)[0], 50_500);
        assert_eq!(clock.lag[0].credit_ms(), LAG_REFILL_MS);
        // Next time only the refill is left.
        clock.start(Seat::First, 20_000);
        clock.punch(Seat::First, 30_000, 5_000, Some(Seat::Second)).unwrap();
        assert_eq!(clock.remaining_at(30_000)[0], 40_600);
    }

    #[test]
    fn honest_small_lag_is_compensated_for_ever() {
        let mut quota = LagQuota::default();
        for _ in 0..1_000 {
            assert_eq!(quota.allowance(80), 80);
            quota.spend(80);
        }
    }

    #[test]
    fn the_flag_falls_after_the_time_and_the_credit() {
        let mut clock = GameClock::new(ClockSpec { base_secs: 1, increment_secs: 0 });
        clock.start(Seat::Second, 100);
        assert_eq!(clock.flag_deadline(), Some(100 + 1_000 + LAG_QUOTA_MAX_MS));
        assert_eq!(clock.flagged(1_599), None);
        assert_eq!(clock.flagged(1_600), Some(Seat::Second));
        // A move that comes too late is refused and changes nothing.
        let before = clock.clone();
        assert_eq!(clock.punch(Seat::Second, 1_700, 100, None), Err(Flagged(Seat::Second)));
        assert_eq!(clock, before);
        clock.fall(Seat::Second);
        assert_eq!(clock.view(5_000), Clocks { remaining_ms: [1_000, 0], running: None });
    }

    #[test]
    fn a_late_move_is_saved_by_real_lag() {
        let mut clock = GameClock::new(ClockSpec { base_secs: 1, increment_secs: 0 });
        clock.start(Seat::First, 0);
        clock.punch(Seat::First, 1_300, 400, Some(Seat::Second)).unwrap();
        assert_eq!(clock.remaining_at(1_300)[0], 100);
    }

    #[test]
    fn stopping_charges_the_running_clock() {
        let mut clock = GameClock::new(BLITZ);
        clock.start(Seat::Second, 0);
        clock.stop(4_000);
        assert_eq!(clock.view(9_000), Clocks { remaining_ms: [60_000, 56_000], running: None });
    }

    #[test]
    fn the_grace_period_grows_with_the_clock() {
        assert_eq!(abandonment_grace_ms(None), 30_000);
        assert_eq!(abandonment_grace_ms(Some(BLITZ)), 30_000);
        let long = ClockSpec { base_secs: 3_600, increment_secs: 0 };
        assert_eq!(abandonment_grace_ms(Some(long)), 360_000);
    }

    #[test]
    fn the_manual_clock_moves_when_told() {
        let clock = ManualClock::at(5);
        clock.advance(10);
        assert_eq!(clock.now_ms(), 15);
    }
}
