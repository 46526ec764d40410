//! Qi's browser app. A placeholder until the app issue: it proves the rules crate links into the
//! root package, which Trunk builds for the browser.

fn main() {
    let games: Vec<&str> = qi_rules::GameKind::ALL.iter().map(|kind| kind.name()).collect();
    println!("Qi: {}", games.join(", "));
}
