//! The embed page (`embed/`): a board alone, for other people's pages.

fn main() {
    yew::Renderer::<qi_app::embed::Embed>::new().render();
    qi_app::web::remove_loading();
}
