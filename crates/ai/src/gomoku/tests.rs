//! Tests of the gomoku engine.
