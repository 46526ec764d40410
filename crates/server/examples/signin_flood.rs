//! Sign-in flood benchmark for `qi-server`: many failed sign-ins at once on loopback, and the
//! server's resident memory (RSS) before, at its peak and a few seconds after.
//!
//! ```text
//! cargo build --release -p qi-server --bin qi-server --example signin_flood
//! target/release/examples/signin_flood --requests 200 --settle 5
//! ```
//!
//! It starts `qi-server` from beside its own directory (`target/release/`) on a free loopback
//! port with a temporary data directory, sends `--requests` sign-ins with wrong credentials all
//! at once (each from one of the loopback addresses 127.0.3.1-127.0.3.250 and under its own
//! name, so that the per-address and per-name attempt limits let them through to the password
//! check), samples the server's RSS every 10 ms until the last answer, waits `--settle`
//! seconds and reads it once more. It prints the answers by status and the three figures.
//! Everything is bounded: at most 1,000 requests, each given 60 s.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// The most requests one run may send.
const MAX_REQUESTS: usize = 1000;
/// How long one request may take before it counts as unanswered.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Requests from one source address: below the server's 20 sign-in attempts an address.
const PER_ADDRESS: usize = 10;

struct Options {
    requests: usize,
    settle: u64,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options { requests: 200, settle: 5 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut iter = args.iter();
    while let Some(flag) = iter.next() {
        let value = iter.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || value.parse::<u64>().map_err(|e| format!("{flag} {value}: {e}"));
        match flag.as_str() {
            "--requests" => options.requests = usize::try_from(number()?).unwrap_or(usize::MAX),
            "--settle" => options.settle = number()?.min(60),
            _ => return Err(format!("unknown flag {flag} (--requests N, --settle SECONDS)")),
        }
    }
    if options.requests == 0 || options.requests > MAX_REQUESTS {
        return Err(format!("--requests must be 1 to {MAX_REQUESTS}"));
    }
    Ok(options)
}

/// The resident memory of a process in KiB, from /proc.
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

fn mib(kib: u64) -> String {
    format!("{:.0} MiB", kib as f64 / 1024.0)
}

/// Starts `qi-server` over a fresh data directory in `dir` on a free loopback port.
async fn spawn_server(
    dir: &std::path::Path,
) -> Result<(tokio::process::Child, SocketAddr), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let server =
        exe.parent().and_then(|p| p.parent()).map(|p| p.join("qi-server")).ok_or("no qi-server")?;
    let addr = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| e.to_string())?;
    let mut child = tokio::process::Command::new(&server)
        .args(["--addr", &addr.to_string(), "--dist"])
        .arg(dir.join("dist"))
        .arg("--data")
        .arg(dir.join("data"))
        .stdout(Stdio::piped())
        .env("RUST_LOG", "warn")
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| {
            format!("{}: {e} (build it: cargo build --release -p qi-server)", server.display())
        })?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    // The first line says the server listens.
    let line = BufReader::new(stdout).lines().next_line().await.map_err(|e| e.to_string())?;
    println!("server: {}", line.unwrap_or_default());
    Ok((child, addr))
}

/// One failed sign-in from `source`; its status code, or what went wrong.
async fn sign_in(addr: SocketAddr, source: IpAddr, index: usize) -> Result<u16, String> {
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket.bind(SocketAddr::new(source, 0)).map_err(|e| e.to_string())?;
    let mut stream = socket.connect(addr).await.map_err(|e| e.to_string())?;
    let body = format!(r#"{{"name":"flood{index}","password":"not-the-password-{index}"}}"#);
    let request = format!(
        "POST /api/account/login HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| format!("no status in {:?}", text.lines().next().unwrap_or("")))
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let options = parse_options()?;
    let dir = std::env::temp_dir().join(format!("qi-signin-flood-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("dist")).map_err(|e| e.to_string())?;
    let (child, addr) = spawn_server(&dir).await?;
    let pid = child.id().ok_or("the server is gone")?;
    // Let start-up's own work (the decoy hash, the database) settle first.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = rss_kib(pid).ok_or("no RSS")?;

    let peak = Arc::new(AtomicU64::new(before));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = {
        let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
        tokio::spawn(async move {
            while !done.load(Ordering::Relaxed) {
                if let Some(now) = rss_kib(pid) {
                    peak.fetch_max(now, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
    };
    let started = Instant::now();
    let mut requests = Vec::with_capacity(options.requests);
    for index in 0..options.requests {
        let n = index / PER_ADDRESS;
        let source = IpAddr::from([127, 0, 3 + (n / 250) as u8, 1 + (n % 250) as u8]);
        requests.push(tokio::spawn(tokio::time::timeout(
            REQUEST_TIMEOUT,
            sign_in(addr, source, index),
        )));
    }
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    for request in requests {
        let answer = match request.await {
            Ok(Ok(Ok(status))) => status.to_string(),
            Ok(Ok(Err(e))) => format!("error: {e}"),
            Ok(Err(_)) => "no answer in 60 s".to_owned(),
            Err(e) => format!("task: {e}"),
        };
        *answers.entry(answer).or_default() += 1;
    }
    let took = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = sampler.await;
    tokio::time::sleep(Duration::from_secs(options.settle)).await;
    let after = rss_kib(pid).ok_or("no RSS after")?;
    drop(child);
    let _ = std::fs::remove_dir_all(&dir);

    println!(
        "{} failed sign-ins at once, answered in {:.2} s: {answers:?}",
        options.requests,
        took.as_secs_f64()
    );
    println!(
        "server RSS: before {}, peak {}, {} s after {}",
        mib(before),
        mib(peak.load(Ordering::Relaxed)),
        options.settle,
        mib(after)
    );
    println!(
        "command: target/release/examples/signin_flood --requests {} --settle {}",
        options.requests, options.settle
    );
    Ok(())
}
