//! Qi's browser app: chess, xiangqi, banqi and gomoku on one page.

mod app;
mod board;
mod board_model;
mod components;
mod i18n;
mod i18n_rules;
mod pieces;
mod record;
mod state;
mod web;

fn main() {
    yew::Renderer::<app::App>::new().render();
}
