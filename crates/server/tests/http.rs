//! The same address serves the built app's files.

mod common;

use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn get(addr: std::net::SocketAddr, path: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    response
}

#[tokio::test]
async fn the_app_is_served_beside_the_socket() {
    let server = common::start_server("http").await;
    let dist = server.data.join("dist");
    std::fs::create_dir_all(dist.join("embed")).unwrap();
    std::fs::write(dist.join("index.html"), "<title>Qi</title>").unwrap();
    std::fs::write(dist.join("embed/index.html"), "<title>embed</title>").unwrap();
    let root = get(server.addr, "/?game=xiangqi").await;
    assert!(root.starts_with("HTTP/1.1 200") && root.ends_with("<title>Qi</title>"), "{root}");
    let embed = get(server.addr, "/embed/").await;
    assert!(embed.ends_with("<title>embed</title>"), "{embed}");
    assert!(get(server.addr, "/missing.js").await.starts_with("HTTP/1.1 404"));
    assert!(get(server.addr, "/../Cargo.toml").await.starts_with("HTTP/1.1 4"));
    // A plain GET of /ws is not an upgrade.
    assert!(get(server.addr, "/ws").await.starts_with("HTTP/1.1 4"));
}
