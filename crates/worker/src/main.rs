//! The Web Worker that runs the computer's search, so the page never freezes while it thinks.

use yew_agent::Registrable;

fn main() {
    qi_tasks::think::Think::registrar().encoding::<qi_tasks::codec::WireCodec>().register();
}
