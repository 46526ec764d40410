//! What the server sends with the app's files: precompressed copies when the browser takes
//! them, cache headers, each page's security headers, and the websocket's origin check.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;

use common::{start_server_settings, temp_dir};
use qi_server::app::Settings;
use qi_server::limits::Limit;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A response: status line, headers (lower-case names; repeated ones joined with `, `), body.
struct Answer {
    status: String,
    headers: HashMap<String, String>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }
}

async fn request(addr: SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut text = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in extra {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().unwrap_or_default().to_owned();
    let mut headers: HashMap<String, String> = HashMap::new();
    for line in lines {
        let (name, value) = line.split_once(':').unwrap();
        headers
            .entry(name.trim().to_ascii_lowercase())
            .and_modify(|v| *v = format!("{v}, {}", value.trim()))
            .or_insert_with(|| value.trim().to_owned());
    }
    Answer { status, headers, body: raw[split + 4..].to_vec() }
}

const APP_SCRIPT: &str = "if (location.search) console.log('app')";
const WASM: &str = "qi-app-0123456789abcdef_bg.wasm";

/// A small built app: three pages with inline scripts, a fingerprinted wasm with its
/// compressed copies, an unfingerprinted worker script.
fn dist(dir: &std::path::Path) {
    std::fs::create_dir_all(dir.join("embed")).unwrap();
    std::fs::create_dir_all(dir.join("online")).unwrap();
    let page = |title: &str, script: &str| {
        format!("<!doctype html><title>{title}</title><script>{script}</script>")
    };
    std::fs::write(dir.join("index.html"), page("Qi", APP_SCRIPT)).unwrap();
    std::fs::write(dir.join("embed/index.html"), page("embed", "1")).unwrap();
    std::fs::write(dir.join("online/index.html"), page("online", "2")).unwrap();
    std::fs::write(dir.join(WASM), b"\0asm plain").unwrap();
    std::fs::write(dir.join(format!("{WASM}.br")), b"brotli bytes").unwrap();
    std::fs::write(dir.join(format!("{WASM}.gz")), b"gzip bytes").unwrap();
    std::fs::write(dir.join("qi-worker.js"), b"importScripts()").unwrap();
}

async fn server(tag: &str, origins: &[&str]) -> common::Server {
    let data = temp_dir(tag);
    dist(&data.join("dist"));
    let mut settings = Settings::new(data.join("dist"));
    settings.allowed_origins = origins.iter().map(|o| (*o).to_owned()).collect();
    start_server_settings(data, settings).await
}

fn common_headers(answer: &Answer) {
    assert_eq!(answer.header("x-content-type-options"), "nosniff", "{}", answer.status);
    assert_eq!(answer.header("referrer-policy"), "no-referrer");
}

#[tokio::test]
async fn pages_carry_their_policy_and_revalidate() {
    let server = server("pages", &[]).await;
    let app = request(server.addr, "/?game=xiangqi", &[]).await;
    assert!(app.status.starts_with("HTTP/1.1 200"), "{}", app.status);
    common_headers(&app);
    let csp = app.header("content-security-policy");
    let digest = Sha256::digest(APP_SCRIPT.as_bytes());
    let hash = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, digest);
    assert!(csp.contains(&format!("'sha256-{hash}'")), "{csp}");
    for part in [
        "default-src 'self'",
        "'wasm-unsafe-eval'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors *",
    ] {
        assert!(csp.contains(part), "{part} in {csp}");
    }
    assert!(csp.contains(&format!("ws://{}", server.addr)), "{csp}");
    assert!(!csp.contains("'unsafe-eval'") && !csp.contains("script-src 'self' 'unsafe-inline'"));
    assert_eq!(app.header("x-frame-options"), "");
    assert_eq!(app.header("cache-control"), "no-cache");
    let etag = app.header("etag").to_owned();
    assert!(etag.starts_with("W/\""), "{etag}");
    let again = request(server.addr, "/", &[("If-None-Match", &etag)]).await;
    assert!(again.status.starts_with("HTTP/1.1 304"), "{}", again.status);
    assert!(again.body.is_empty());
    // The app's pages carry the server's mark (its "watch live" corner connects only then).
    for response in [&app, &again] {
        assert!(
            response.header("server-timing").starts_with("qi;"),
            "{}",
            response.header("server-timing")
        );
    }

    let online = request(server.addr, "/online/?game=abc", &[]).await;
    common_headers(&online);
    assert!(online.header("content-security-policy").contains("frame-ancestors 'none'"));
    assert_eq!(online.header("x-frame-options"), "DENY");
    assert_eq!(online.header("server-timing"), "");
    let embed = request(server.addr, "/embed/?g=x", &[]).await;
    assert!(embed.header("content-security-policy").contains("frame-ancestors *"));
    assert_eq!(embed.header("x-frame-options"), "");
    // The app is cross-origin isolated (its worker's search stops in place); the embed, which
    // the app frames, declares the same embedder policy; the online page keeps its opener
    // policy.
    assert_eq!(app.header("cross-origin-opener-policy"), "same-origin");
    assert_eq!(app.header("cross-origin-embedder-policy"), "require-corp");
    assert_eq!(embed.header("cross-origin-embedder-policy"), "require-corp");
    assert_eq!(online.header("cross-origin-opener-policy"), "same-origin");
    let bare = request(server.addr, "/online?game=abc", &[]).await;
    assert!(bare.status.starts_with("HTTP/1.1 308"), "{}", bare.status);
    assert_eq!(bare.header("location"), "online/?game=abc");
    // However the path is spelled, the online page keeps its frame rules, and a redirect
    // never leaves the site.
    let doubled = request(server.addr, "//online/", &[]).await;
    assert_eq!(doubled.header("x-frame-options"), "DENY");
    let sneaky = request(server.addr, "//online", &[]).await;
    assert_eq!(sneaky.header("location"), "online/");
    let missing = request(server.addr, "/missing.js", &[]).await;
    assert!(missing.status.starts_with("HTTP/1.1 404"));
    common_headers(&missing);
    assert!(request(server.addr, "/../Cargo.toml", &[]).await.status.starts_with("HTTP/1.1 404"));
}

#[tokio::test]
async fn the_wasm_goes_compressed_when_taken_and_is_immutable() {
    let server = server("wasm", &[]).await;
    let path = format!("/{WASM}");
    let br = request(server.addr, &path, &[("Accept-Encoding", "gzip, deflate, br, zstd")]).await;
    assert!(br.status.starts_with("HTTP/1.1 200"));
    assert_eq!(br.header("content-encoding"), "br");
    assert_eq!(br.body, b"brotli bytes");
    assert_eq!(br.header("content-type"), "application/wasm");
    assert_eq!(br.header("vary"), "Accept-Encoding");
    assert_eq!(br.header("cache-control"), "public, max-age=31536000, immutable");
    common_headers(&br);
    let gzip = request(server.addr, &path, &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(gzip.header("content-encoding"), "gzip");
    assert_eq!(gzip.body, b"gzip bytes");
    let plain = request(server.addr, &path, &[]).await;
    assert_eq!(plain.header("content-encoding"), "");
    assert_eq!(plain.body, b"\0asm plain");
    let refused = request(server.addr, &path, &[("Accept-Encoding", "br;q=0, gzip;q=0")]).await;
    assert_eq!(refused.body, b"\0asm plain");
    // A worker script has no fingerprint in its name: it revalidates.
    let worker = request(server.addr, "/qi-worker.js", &[("Accept-Encoding", "br")]).await;
    assert_eq!(worker.header("cache-control"), "no-cache");
    assert_eq!(worker.header("content-encoding"), "");
    assert_eq!(worker.header("content-type"), "text/javascript; charset=utf-8");
}

#[tokio::test]
async fn health_and_metrics_answer() {
    let server = server("health", &[]).await;
    let health = request(server.addr, "/healthz", &[]).await;
    assert!(health.status.starts_with("HTTP/1.1 200"));
    assert_eq!(health.body, b"ok\n");
    let metrics = request(server.addr, "/metrics", &[]).await;
    let text = String::from_utf8_lossy(&metrics.body);
    for name in [
        "qi_connections",
        "qi_sockets",
        "qi_live_games",
        "qi_moves_relayed_total",
        "qi_relay_seconds_bucket",
        "qi_storage_commit_seconds_bucket",
        "qi_refusals_total{limit=\"origin\"}",
    ] {
        assert!(text.contains(name), "{name} in {text}");
    }
}

/// Asks for a websocket with `origin` (if any); the status line.
async fn upgrade(addr: SocketAddr, origin: Option<&str>) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut text = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    );
    if let Some(origin) = origin {
        text.push_str(&format!("Origin: {origin}\r\n"));
    }
    text.push_str("\r\n");
    stream.write_all(text.as_bytes()).await.unwrap();
    let mut buffer = vec![0u8; 1024];
    let n = stream.read(&mut buffer).await.unwrap();
    String::from_utf8_lossy(&buffer[..n]).lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn the_websocket_takes_only_this_sites_pages_and_the_allowed_origins() {
    let server = server("origin", &["https://blog.example.org"]).await;
    let own = format!("http://{}", server.addr);
    assert!(upgrade(server.addr, Some(&own)).await.starts_with("HTTP/1.1 101"));
    assert!(upgrade(server.addr, None).await.starts_with("HTTP/1.1 101"), "not a browser");
    assert!(upgrade(server.addr, Some("https://blog.example.org")).await.contains(" 101"));
    for other in ["https://evil.example", "null", "http://127.0.0.1.evil.example", "file://"] {
        assert!(upgrade(server.addr, Some(other)).await.starts_with("HTTP/1.1 403"), "{other}");
    }
    let other_port = format!("http://{}:1", server.addr.ip());
    assert!(upgrade(server.addr, Some(&other_port)).await.starts_with("HTTP/1.1 403"));
    assert!(server.hub.metrics().refusals(Limit::Origin) >= 5);
}
