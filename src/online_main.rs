//! The online page (`online/`): live games against other people through the Qi server.

fn main() {
    yew::Renderer::<qi_app::online::Online>::new().render();
    qi_app::web::remove_loading();
}
