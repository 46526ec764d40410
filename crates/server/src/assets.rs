//! The built app's files (`dist/`): the precompressed `.br` or `.gz` beside a file when the
//! browser takes it, cache headers (fingerprinted files are immutable for a year, pages and
//! other files revalidate with an `ETag`), and each page's security headers: a
//! Content-Security-Policy allowing exactly what the pages use, and who may frame them (the
//! app and the embed: any page; the online page: nobody).

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, Response, StatusCode};
use base64::Engine;
use sha2::{Digest, Sha256};

/// `Cache-Control` of fingerprinted files: their name changes with their content.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of everything else: use a copy only after asking whether it changed.
const REVALIDATE: &str = "no-cache";

/// Which of the three pages a path belongs to; they differ in who may frame them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Page {
    /// The app (`/`): any page may frame it, as the README promises.
    App,
    /// The embed (`/embed/`): made to be framed by any page.
    Embed,
    /// The online page (`/online/`): holds a seat, so no page may frame it (clickjacking).
    Online,
}

impl Page {
    /// The page of a file, from its path under the root (decoded and without empty segments,
    /// so that `//online/` or `/%6Fnline/` are the online page too).
    #[must_use]
    pub fn of(relative: &Path) -> Page {
        match relative.components().next().and_then(|first| first.as_os_str().to_str()) {
            Some("online") => Page::Online,
            Some("embed") => Page::Embed,
            _ => Page::App,
        }
    }
}

/// A file's representation as sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    fn suffix(self) -> &'static str {
        match self {
            Coding::Brotli => ".br",
            Coding::Gzip => ".gz",
            Coding::Identity => "",
        }
    }

    fn header(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }
}

/// The largest file kept in memory once read.
const MAX_CACHED_FILE: u64 = 8 * 1024 * 1024;

/// A file's bytes as last read, with the validator of the file they were read from.
type Cached = (String, axum::body::Bytes);

/// The files of a built app.
#[derive(Clone, Debug)]
pub struct Assets {
    root: PathBuf,
    /// Files read, shared by every response that sends them (a thousand slow downloads of the
    /// wasm hold one copy, not a thousand); read again when the file changes.
    cache: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<PathBuf, Cached>>>,
}

impl Assets {
    /// The files under `root`.
    #[must_use]
    pub fn new(root: PathBuf) -> Assets {
        Assets { root, cache: std::sync::Arc::default() }
    }

    /// The bytes of `file` (kept in memory while it does not change), or `None` when it cannot
    /// be read.
    async fn read(&self, file: &Path) -> Option<axum::body::Bytes> {
        let metadata = tokio::fs::metadata(file).await.ok()?;
        let tag = etag_of(&metadata);
        let lock = || self.cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((cached_tag, bytes)) = lock().get(file)
            && *cached_tag == tag
        {
            return Some(bytes.clone());
        }
        let bytes = axum::body::Bytes::from(tokio::fs::read(file).await.ok()?);
        if metadata.len() <= MAX_CACHED_FILE {
            lock().insert(file.to_owned(), (tag, bytes.clone()));
        }
        Some(bytes)
    }

    /// Answers a request for `path` (as in the request line, percent-encoded) with `query`.
    /// `host` is the request's `Host`, for the websocket in the page's policy.
    pub async fn respond(
        &self,
        method: &Method,
        path: &str,
        query: Option<&str>,
        headers: &HeaderMap,
    ) -> Response<Body> {
        if method != Method::GET && method != Method::HEAD {
            let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "only GET and HEAD");
            response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
            return response;
        }
        let Some(relative) = safe_relative_path(path) else {
            return plain(StatusCode::NOT_FOUND, "no such file");
        };
        let mut file = self.root.join(&relative);
        if path.ends_with('/') {
            file.push("index.html");
        } else if tokio::fs::metadata(&file).await.is_ok_and(|m| m.is_dir()) {
            // `/online` → `/online/`, so that the page's relative links resolve. The location
            // is relative (`online/`), so it stays on this host whatever the path held and
            // works under a proxy's sub-path.
            let last = path.rsplit('/').next().unwrap_or_default();
            let location = match query {
                Some(query) => format!("{last}/?{query}"),
                None => format!("{last}/"),
            };
            return redirect(&location);
        }
        let Ok(metadata) = tokio::fs::metadata(&file).await else {
            return plain(StatusCode::NOT_FOUND, "no such file");
        };
        if !metadata.is_file() {
            return plain(StatusCode::NOT_FOUND, "no such file");
        }
        let etag = etag_of(&metadata);
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let content_type = content_type(&name);
        let compressible = is_compressible(&name);
        let mut response_headers = HeaderMap::new();
        response_headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        let cache = if is_fingerprinted(&name) { IMMUTABLE } else { REVALIDATE };
        response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        if let Ok(value) = HeaderValue::from_str(&etag) {
            response_headers.insert(header::ETAG, value);
        }
        if compressible {
            response_headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        let is_page = name.ends_with(".html");
        if is_page {
            page_headers(&mut response_headers, Page::of(&relative), None);
        }
        if if_none_match(headers, &etag) {
            let mut response = Response::new(Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            response.headers_mut().extend(response_headers);
            return response;
        }
        if is_page {
            // The policy lists the page's own inline scripts by hash.
            let Some(html) = self.read(&file).await else {
                return plain(StatusCode::NOT_FOUND, "no such file");
            };
            let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
            page_headers(&mut response_headers, Page::of(&relative), Some((&html, host)));
        }
        let coding = if compressible {
            choose_coding(headers, &file, &metadata).await
        } else {
            Coding::Identity
        };
        let mut sent = file.clone().into_os_string();
        sent.push(coding.suffix());
        let Some(bytes) = self.read(Path::new(&sent)).await else {
            return plain(StatusCode::NOT_FOUND, "no such file");
        };
        if let Some(encoding) = coding.header() {
            response_headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        response_headers.insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
        let mut response = Response::new(Body::from(bytes));
        response.headers_mut().extend(response_headers);
        response
    }
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

fn redirect(location: &str) -> Response<Body> {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
    if let Ok(value) = HeaderValue::from_str(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// The request path as a path under the root, or `None` when it tries to leave it or is not
/// plain text: no `..`, no hidden files, no backslashes or NULs, valid UTF-8 once decoded.
fn safe_relative_path(path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(path.strip_prefix('/')?)?;
    let mut relative = PathBuf::new();
    for segment in decoded.split('/') {
        if segment.is_empty() {
            continue;
        }
        if segment.starts_with('.') || segment.contains(['\\', '\0', ':']) {
            return None;
        }
        relative.push(segment);
    }
    Some(relative)
}

/// `%XX` decoded; `None` for a broken escape or bytes that are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let digits = bytes.get(i + 1..i + 3)?;
            if !digits.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            out.push(u8::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A weak validator from the file's size and modification time (the same for its compressed
/// copies, which a weak `ETag` allows).
fn etag_of(metadata: &std::fs::Metadata) -> String {
    let modified = metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("W/\"{:x}-{:x}\"", metadata.len(), modified)
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks for it).
fn if_none_match(headers: &HeaderMap, etag: &str) -> bool {
    let bare = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    let ours = bare(etag);
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|value| value.split(',').any(|tag| tag.trim() == "*" || bare(tag) == ours))
}

/// Whether the client takes `coding` (`q=0` refuses; `*` stands for codings not named).
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    let mut named = None;
    let mut star = None;
    for value in headers.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()) {
        for item in value.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let quality = parts
                .find_map(|p| {
                    p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok())
                })
                .unwrap_or(1.0);
            if name == coding {
                named = Some(quality > 0.0);
            } else if name == "*" {
                star = Some(quality > 0.0);
            }
        }
    }
    named.or(star).unwrap_or(false)
}

/// The best coding the client takes that has a copy beside the file, no older than the file
/// (a copy left from before a rebuild would be another file's content).
async fn choose_coding(headers: &HeaderMap, file: &Path, original: &std::fs::Metadata) -> Coding {
    let written = original.modified().ok();
    for coding in [Coding::Brotli, Coding::Gzip] {
        let name = coding.header().unwrap_or_default();
        if accepts(headers, name) {
            let mut compressed = file.as_os_str().to_owned();
            compressed.push(coding.suffix());
            let fresh = tokio::fs::metadata(&compressed).await.is_ok_and(|m| {
                m.is_file()
                    && m.modified().ok().zip(written).is_none_or(|(copy, file)| copy >= file)
            });
            if fresh {
                return coding;
            }
        }
    }
    Coding::Identity
}

fn extension(name: &str) -> &str {
    name.rsplit_once('.').map_or("", |(_, ext)| ext)
}

fn content_type(name: &str) -> &'static str {
    match extension(name) {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Whether the build writes compressed copies of such a file (scripts/precompress.mjs).
fn is_compressible(name: &str) -> bool {
    matches!(
        extension(name),
        "html" | "js" | "mjs" | "wasm" | "css" | "svg" | "json" | "map" | "webmanifest" | "txt"
    )
}

/// Whether the name carries Trunk's content hash (`qi-app-0123456789abcdef.js`,
/// `qi-app-0123456789abcdef_bg.wasm`): 16 hex digits after a `-`, before `.` or `_`.
fn is_fingerprinted(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.iter().enumerate().any(|(i, &b)| {
        b == b'-'
            && bytes.len() > i + 17
            && bytes[i + 1..i + 17].iter().all(u8::is_ascii_hexdigit)
            && matches!(bytes[i + 17], b'.' | b'_')
    })
}

/// The `sha256-...` sources of the page's inline scripts, so the policy allows exactly them.
/// Line ends are hashed as the browser sees them (the HTML parser turns CR LF and CR into LF);
/// scripts inside comments are not scripts.
fn inline_script_hashes(html: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(html).replace("\r\n", "\n").replace('\r', "\n");
    let lower = text.to_ascii_lowercase();
    let mut hashes = Vec::new();
    let mut at = 0;
    loop {
        let script = lower[at..].find("<script").map(|i| i + at);
        let comment = lower[at..].find("<!--").map(|i| i + at);
        let start = match (script, comment) {
            (Some(script), Some(comment)) if comment < script => {
                let Some(end) = lower[comment..].find("-->") else { break };
                at = comment + end + 3;
                continue;
            }
            (Some(script), _) => script,
            (None, _) => break,
        };
        let Some(open_end) = lower[start..].find('>').map(|i| i + start + 1) else { break };
        let Some(close) = lower[open_end..].find("</script").map(|i| i + open_end) else { break };
        let tag = &lower[start..open_end];
        if !tag.contains(" src=") && !tag.contains("\tsrc=") && !tag.contains("\nsrc=") {
            let digest = Sha256::digest(&text.as_bytes()[open_end..close]);
            let encoded = base64::engine::general_purpose::STANDARD.encode(digest);
            hashes.push(format!("'sha256-{encoded}'"));
        }
        at = close;
    }
    hashes
}

/// The host of the request if it reads as one (a name or address and a port), for the page's
/// `connect-src`; anything else is left out rather than copied into a header.
fn plain_host(host: &str) -> Option<&str> {
    let ok = !host.is_empty()
        && host.len() <= 255
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    ok.then_some(host)
}

/// The Content-Security-Policy of a page whose HTML is `html`, requested at `host`.
#[must_use]
pub fn content_security_policy(page: Page, html: &[u8], host: Option<&str>) -> String {
    let scripts = inline_script_hashes(html).join(" ");
    // `'self'` covers the same-origin websocket in current browsers; the explicit `ws:`/`wss:`
    // sources are for those that predate CSP level 3. The engine's worker starts from a
    // `blob:` shim that loads the worker script (the page's worker bridge, src/worker.rs), hence
    // `blob:` for workers.
    let sockets =
        host.and_then(plain_host).map(|h| format!(" ws://{h} wss://{h}")).unwrap_or_default();
    let ancestors = match page {
        Page::Online => "'none'",
        Page::App | Page::Embed => "*",
    };
    format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {scripts}; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
         connect-src 'self'{sockets}; worker-src 'self' blob:; frame-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors {ancestors}"
    )
}

/// The headers that depend on the page: who may frame it, and (given the HTML and the host)
/// its Content-Security-Policy.
fn page_headers(headers: &mut HeaderMap, page: Page, html: Option<(&[u8], Option<&str>)>) {
    if page == Page::App {
        // The app's mark that a Qi server serves it (its "watch live" corner then connects;
        // on a static host it does not). Read from the navigation's `serverTiming`.
        headers.insert(
            header::HeaderName::from_static("server-timing"),
            HeaderValue::from_static("qi;desc=\"Qi server\""),
        );
    }
    if page == Page::App {
        // Cross-origin isolation: the page may share memory with its worker, so a search it no
        // longer wants stops at once and the engine keeps its table (src/worker.rs). Framed on
        // another site the app is not isolated (its parent would have to be), and the worker
        // falls back to being replaced.
        headers.insert(
            header::HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        );
    }
    if matches!(page, Page::App | Page::Embed) {
        // The app frames the embed (its preview): under the app's embedder policy a framed page
        // must declare one too. Every resource of both is same-origin.
        headers.insert(
            header::HeaderName::from_static("cross-origin-embedder-policy"),
            HeaderValue::from_static("require-corp"),
        );
    }
    if page == Page::Online {
        headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
        headers.insert(
            header::HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        );
    }
    if let Some((html, host)) = html
        && let Ok(value) = HeaderValue::from_str(&content_security_policy(page, html, host))
    {
        headers.insert(header::CONTENT_SECURITY_POLICY, value);
    }
}

/// Headers for every response: no content sniffing, no referrer (addresses carry games and
/// invite tokens), and no powerful features.
pub fn add_common_headers(headers: &mut HeaderMap) {
    headers.entry(header::X_CONTENT_TYPE_OPTIONS).or_insert(HeaderValue::from_static("nosniff"));
    headers.entry(header::REFERRER_POLICY).or_insert(HeaderValue::from_static("no-referrer"));
    headers.entry(header::HeaderName::from_static("permissions-policy")).or_insert(
        HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=()"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_under_the_root() {
        assert_eq!(safe_relative_path("/"), Some(PathBuf::new()));
        assert_eq!(
            safe_relative_path("/embed/index.html"),
            Some(PathBuf::from("embed/index.html"))
        );
        assert_eq!(safe_relative_path("/a%20b.js"), Some(PathBuf::from("a b.js")));
        for bad in
            ["/../Cargo.toml", "/%2e%2e/x", "/.git/config", "/a\\b", "/%00", "/%zz", "/%ff", "x"]
        {
            assert_eq!(safe_relative_path(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_page_is_known_however_its_path_is_spelled() {
        for path in ["/online/", "//online/", "/%6Fnline/index.html", "/online//index.html"] {
            let relative = safe_relative_path(path).unwrap();
            assert_eq!(Page::of(&relative), Page::Online, "{path}");
        }
        assert_eq!(Page::of(&safe_relative_path("//embed/").unwrap()), Page::Embed);
        assert_eq!(Page::of(&safe_relative_path("/").unwrap()), Page::App);
        assert_eq!(Page::of(&safe_relative_path("/onlinex/").unwrap()), Page::App);
    }

    #[test]
    fn fingerprinted_names_are_trunks() {
        assert!(is_fingerprinted("qi-app-0123456789abcdef.js"));
        assert!(is_fingerprinted("qi-app-0123456789abcdef_bg.wasm"));
        assert!(is_fingerprinted("qi-fedcba9876543210.css"));
        assert!(!is_fingerprinted("index.html"));
        assert!(!is_fingerprinted("qi-worker.js"));
        assert!(!is_fingerprinted("qi-app-0123456789abcde.js"));
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        let with = |value: &'static str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(value));
            headers
        };
        assert!(accepts(&with("gzip, deflate, br, zstd"), "br"));
        assert!(!accepts(&with("gzip, br;q=0"), "br"));
        assert!(accepts(&with("gzip, br;q=0"), "gzip"));
        assert!(accepts(&with("*"), "br"));
        assert!(!accepts(&with("*, br;q=0"), "br"));
        assert!(!accepts(&HeaderMap::new(), "gzip"));
    }

    #[test]
    fn the_policy_lists_inline_scripts_by_hash_and_only_them() {
        let html = b"<html><script>alert(1)</script><script src=\"a.js\"></script>\
            <SCRIPT type=\"module\">import x from './x.js';</SCRIPT></html>";
        let hashes = inline_script_hashes(html);
        assert_eq!(hashes.len(), 2);
        let digest = Sha256::digest(b"alert(1)");
        let expected = base64::engine::general_purpose::STANDARD.encode(digest);
        assert_eq!(hashes[0], format!("'sha256-{expected}'"));
        // CR LF as the browser sees it (LF); a script in a comment is not one.
        let crlf = inline_script_hashes(b"<!-- <script>no()</script> --><script>a\r\nb</script>");
        let digest = Sha256::digest(b"a\nb");
        let expected = base64::engine::general_purpose::STANDARD.encode(digest);
        assert_eq!(crlf, vec![format!("'sha256-{expected}'")]);
        let policy = content_security_policy(Page::Online, html, Some("example.org:8080"));
        assert!(policy.contains(&hashes[1]), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(policy.contains("connect-src 'self' ws://example.org:8080 wss://example.org:8080"));
        let embed = content_security_policy(Page::Embed, html, Some("bad\"host"));
        assert!(embed.contains("frame-ancestors *") && embed.contains("connect-src 'self';"));
    }

    #[test]
    fn revalidation_matches_weak_tags() {
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"x\", W/\"1-2\""));
        assert!(if_none_match(&headers, "W/\"1-2\""));
        assert!(!if_none_match(&headers, "W/\"1-3\""));
    }
}
