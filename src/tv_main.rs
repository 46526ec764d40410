//! The "watch live" page (`tv/`): the most watched game on this server, live, for the app to
//! frame when a Qi server serves it; with `?tournament=<id>`, a tournament's live standings
//! for a blog's frame.

fn main() {
    yew::Renderer::<qi_app::online::featured::TvPage>::new().render();
}
