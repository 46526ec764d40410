//! The "watch live" page (`tv/`): the most watched game on this server, live, for the app to
//! frame when a Qi server serves it.

fn main() {
    yew::Renderer::<qi_app::online::featured::Tv>::new().render();
}
