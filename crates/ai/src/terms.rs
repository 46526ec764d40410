//! How a hand-written evaluation is counted. Every number the four games' evaluations add
//! is one of their weights, counted some number of times by a position's terms; an evaluation
//! reports the terms to a [`Terms`]. The search's `Terms` sums the weights; the lab's tuner
//! (`crates/lab`) records the counts instead, so the weights it fits are exactly those the
//! engine adds up.

/// Where one side's terms go: each weight used, and how many times.
pub trait Terms {
    /// Counts weight `param` `count` times (negative: taken away).
    fn add(&mut self, param: usize, count: i32);
}
