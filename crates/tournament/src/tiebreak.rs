//! Tie-breaks.
