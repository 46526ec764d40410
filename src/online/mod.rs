//! The online page (`online/`): live games against other people through the Qi server.

pub mod game;
pub mod session;
pub mod texts;
