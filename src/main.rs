//! The page: mounts the app.

fn main() {
    yew::Renderer::<qi_app::app::App>::new().render();
    qi_app::web::remove_loading();
}
