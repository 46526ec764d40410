//! Swiss.
