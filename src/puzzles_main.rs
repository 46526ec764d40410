//! The puzzle page (`puzzles/`): puzzles for the four games, and a puzzle alone for a frame.

fn main() {
    // The engine's worker is the app's, one folder up.
    qi_app::worker::set_root("../");
    yew::Renderer::<qi_app::puzzles::PuzzlesApp>::new().render();
    qi_app::web::remove_loading();
}
