//! `qi-server`: Qi's online-play server. Serves the built app and the game protocol on one
//! address; keeps games in an SQLite file in the data directory. Bad arguments get one line on
//! stderr and exit status 2. SIGTERM or Ctrl-C stops it gracefully: no new connections, the
//! requests in flight finished, every game socket told to reconnect (close code 1012), every
//! write stored.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use qi_server::app::{self, Settings};
use qi_server::cluster::ClusterConfig;
use qi_server::limits::Limits;
use tokio_util::sync::CancellationToken;

/// Exit status for bad arguments, as the command-line convention for usage errors.
const USAGE_ERROR: u8 = 2;
/// Open files kept back from the connection cap: the database, the app's files being read,
/// the listener.
const RESERVED_FILES: u64 = 64;

const HELP: &str = "\
qi-server: Qi's online-play server

usage: qi-server [--addr HOST:PORT] [--dist DIR] [--data DIR] [options]

  --addr HOST:PORT            where to listen (default 127.0.0.1:8080)
  --dist DIR                  the built app to serve (default dist)
  --data DIR                  where games are kept (default $QI_DATA_DIR, else data)
  --trust-proxy ADDR[,ADDR]   reverse proxies whose X-Forwarded-For is believed (repeatable)
  --allowed-origin ORIGIN     another site whose pages may open game sockets, as
                              https://example.org (repeatable; the server's own always may)
  --log-format human|json     how log lines look (default human; RUST_LOG filters them)
  --no-tournaments            run no tournaments: neither their API (/api/tournaments) nor
                              the driver that starts them and their games (on by default;
                              --tournaments is accepted as the default)
  --max-connections N         open connections in all (default 10000, at most the open-file
                              limit less a reserve)
  --max-connections-per-address N   (default 128; a trusted proxy's own are exempt)
  --max-sockets-per-address N       game sockets per client address (default 64)
  --games-per-minute N        new games per client address a minute (default 30)
  --aborts-per-minute N       aborted games per client address a minute (default 15)
  --unfinished-per-address N  unfinished games per client address (default 64)
  --open-challenges-per-address N  open challenges in the lobby per client address (default 5)
  --retention-days N          aborted and never-started games kept in storage (default 7)

Several nodes (any node serves any player; see docs/server.md):
  --database-url URL          PostgreSQL for the games, instead of SQLite in --data
                              (default $QI_DATABASE_URL); needs --redis-url
  --redis-url URL             Redis between the nodes, redis://HOST:PORT/ (default $QI_REDIS_URL)
  --node-name NAME            this node's name in logs (default $QI_NODE_NAME, else the address)
  --lease-ttl-ms N            a silent node's games are taken over after this (default 4000)

The game protocol is at /ws, /healthz says whether the server works, /metrics gives its
metrics (Prometheus text); every other path is a file of the app.";

/// How log lines look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LogFormat {
    Human,
    Json,
}

/// What the command line asked for.
struct Options {
    addr: SocketAddr,
    dist: PathBuf,
    data: PathBuf,
    log: LogFormat,
    limits: Limits,
    max_connections_given: bool,
    trusted_proxies: Vec<IpAddr>,
    allowed_origins: Vec<String>,
    database_url: Option<String>,
    redis_url: Option<String>,
    node_name: Option<String>,
    lease_ttl_ms: u64,
    tournaments: bool,
}

fn count(flag: &str, text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{flag} {text}: expected a whole number above 0")),
    }
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
        dist: PathBuf::from("dist"),
        data: std::env::var_os("QI_DATA_DIR").map_or_else(|| PathBuf::from("data"), PathBuf::from),
        log: LogFormat::Human,
        limits: Limits::default(),
        max_connections_given: false,
        trusted_proxies: Vec::new(),
        allowed_origins: Vec::new(),
        database_url: std::env::var("QI_DATABASE_URL").ok().filter(|url| !url.is_empty()),
        redis_url: std::env::var("QI_REDIS_URL").ok().filter(|url| !url.is_empty()),
        node_name: std::env::var("QI_NODE_NAME").ok().filter(|name| !name.is_empty()),
        lease_ttl_ms: 4_000,
        tournaments: true,
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag, Some(value.to_owned())),
            _ => (arg.as_str(), None),
        };
        if flag == "--help" || flag == "-h" {
            return Ok(None);
        }
        let mut value = || {
            inline.clone().or_else(|| iter.next().cloned()).ok_or(format!("{flag}: needs a value"))
        };
        let limits = &mut options.limits;
        match flag {
            "--addr" => {
                let text = value()?;
                options.addr =
                    text.parse().map_err(|_| format!("--addr {text}: expected HOST:PORT"))?;
            }
            "--dist" => options.dist = PathBuf::from(value()?),
            "--data" => options.data = PathBuf::from(value()?),
            "--trust-proxy" => {
                for text in value()?.split(',') {
                    let address = text
                        .trim()
                        .parse()
                        .map_err(|_| format!("--trust-proxy {text}: expected an IP address"))?;
                    options.trusted_proxies.push(address);
                }
            }
            "--allowed-origin" => {
                let text = value()?;
                let host = text
                    .strip_prefix("https://")
                    .or_else(|| text.strip_prefix("http://"))
                    .filter(|host| !host.is_empty() && !host.contains(['/', ' ']))
                    .ok_or(format!("--allowed-origin {text}: expected https://HOST[:PORT]"))?;
                let _ = host;
                options.allowed_origins.push(text);
            }
            "--tournaments" => options.tournaments = true,
            "--no-tournaments" => options.tournaments = false,
            "--log-format" => {
                options.log = match value()?.as_str() {
                    "human" => LogFormat::Human,
                    "json" => LogFormat::Json,
                    other => return Err(format!("--log-format {other}: expected human or json")),
                };
            }
            "--max-connections" => {
                limits.max_connections = count(flag, &value()?)?;
                options.max_connections_given = true;
            }
            "--max-connections-per-address" => {
                limits.max_connections_per_address = count(flag, &value()?)?;
            }
            "--max-sockets-per-address" => {
                limits.max_sockets_per_address = count(flag, &value()?)?;
            }
            "--games-per-minute" => limits.games_per_minute = count(flag, &value()?)?,
            "--aborts-per-minute" => limits.aborts_per_minute = count(flag, &value()?)?,
            "--unfinished-per-address" => {
                limits.unfinished_per_address = count(flag, &value()?)?;
            }
            "--open-challenges-per-address" => {
                limits.open_challenges_per_address = count(flag, &value()?)?;
            }
            "--retention-days" => {
                let days = u64::try_from(count(flag, &value()?)?).unwrap_or(u64::MAX);
                limits.retention = std::time::Duration::from_secs(days.saturating_mul(86_400));
            }
            "--database-url" => options.database_url = Some(value()?),
            "--redis-url" => options.redis_url = Some(value()?),
            "--node-name" => options.node_name = Some(value()?),
            "--lease-ttl-ms" => {
                let ms = count(flag, &value()?)?;
                if ms < 400 {
                    return Err(format!("{flag} {ms}: at least 400"));
                }
                options.lease_ttl_ms = u64::try_from(ms).unwrap_or(u64::MAX);
            }
            _ => return Err(format!("{arg}: unknown argument (see qi-server --help)")),
        }
    }
    match (&options.database_url, &options.redis_url) {
        (Some(_), None) => return Err("--database-url needs --redis-url too".into()),
        (None, Some(_)) => return Err("--redis-url needs --database-url too".into()),
        _ => {}
    }
    Ok(Some(options))
}

fn init_logging(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour);
    match format {
        LogFormat::Human => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

/// Cancels `shutdown` on SIGTERM or Ctrl-C.
async fn stop_on_signal(shutdown: CancellationToken) {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    tokio::select! {
        () = terminate => tracing::info!("SIGTERM: stopping"),
        _ = tokio::signal::ctrl_c() => tracing::info!("interrupted: stopping"),
    }
    shutdown.cancel();
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut options = match parse(&args) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("qi-server: {message}");
            return ExitCode::from(USAGE_ERROR);
        }
    };
    init_logging(options.log);
    let files = app::raise_fd_limit();
    // Connections past the open-file limit would fail at accept; refused with a 503 instead.
    if let Some(files) = files {
        let room = usize::try_from(files.saturating_sub(RESERVED_FILES).max(1)).unwrap_or(1);
        if options.max_connections_given && options.limits.max_connections > room {
            tracing::warn!(room, "--max-connections is above the open-file limit; lowered");
        }
        options.limits.max_connections = options.limits.max_connections.min(room);
    }
    let shutdown = CancellationToken::new();
    let opened = match (&options.database_url, &options.redis_url) {
        (Some(database_url), Some(redis_url)) => {
            let config = ClusterConfig {
                database_url: database_url.clone(),
                redis_url: redis_url.clone(),
                node_name: options.node_name.clone().unwrap_or_else(|| options.addr.to_string()),
                lease_ttl: Duration::from_millis(options.lease_ttl_ms),
            };
            app::open_cluster_hub(config, options.limits.clone(), shutdown.clone())
                .await
                .map(|hub| (hub, 0))
        }
        _ => app::open_hub_with(&options.data, options.limits.clone()).await,
    };
    let (hub, resumed) = match opened {
        Ok(opened) => opened,
        Err(e) => {
            tracing::error!(error = %e, "cannot open the games");
            return ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(options.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            tracing::error!(addr = %options.addr, error = %e, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    if !options.dist.join("index.html").is_file() {
        tracing::warn!(dist = %options.dist.display(), "no index.html: build the app first (scripts/run)");
    }
    tracing::info!(
        url = %format!("http://{}", options.addr),
        app = %options.dist.display(),
        games = %match &options.database_url {
            Some(_) => "PostgreSQL".to_owned(),
            None => options.data.join(app::DATABASE_FILE).display().to_string(),
        },
        resumed,
        max_connections = options.limits.max_connections,
        "qi-server listening"
    );
    // Scripts and tests wait for this line on stdout.
    println!("qi-server: http://{}", options.addr);
    tokio::spawn(stop_on_signal(shutdown.clone()));
    let settings = Settings {
        limits: options.limits,
        trusted_proxies: options.trusted_proxies,
        allowed_origins: options.allowed_origins,
        tournaments: options.tournaments,
        ..Settings::new(options.dist)
    };
    let served = app::serve(listener, hub.clone(), settings, shutdown).await;
    // Every game socket is closed; what the games asked to store is stored before exiting.
    if let Err(e) = hub.storage().flush().await {
        tracing::error!(error = %e, "the last writes may not be stored");
        return ExitCode::FAILURE;
    }
    if let Some(cluster) = hub.cluster() {
        cluster.leave().await;
    }
    if let Err(e) = served {
        tracing::error!(error = %e, "serving failed");
        return ExitCode::FAILURE;
    }
    tracing::info!("stopped");
    ExitCode::SUCCESS
}
