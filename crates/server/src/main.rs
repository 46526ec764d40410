//! `qi-server`: Qi's online-play server. Serves the built app and the game protocol on one
//! address; keeps games in an SQLite file in the data directory. Bad arguments get one line on
//! stderr and exit status 2.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use qi_server::app;
use qi_server::connection::ConnectionConfig;

/// Exit status for bad arguments, as the command-line convention for usage errors.
const USAGE_ERROR: u8 = 2;

const HELP: &str = "\
qi-server: Qi's online-play server

usage: qi-server [--addr HOST:PORT] [--dist DIR] [--data DIR]

  --addr HOST:PORT  where to listen (default 127.0.0.1:8080)
  --dist DIR        the built app to serve (default dist)
  --data DIR        where games are kept (default $QI_DATA_DIR, else data)

The game protocol is at /ws; every other path is a file of the app.";

/// What the command line asked for.
struct Options {
    addr: SocketAddr,
    dist: PathBuf,
    data: PathBuf,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
        dist: PathBuf::from("dist"),
        data: std::env::var_os("QI_DATA_DIR").map_or_else(|| PathBuf::from("data"), PathBuf::from),
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
        match flag {
            "--addr" => {
                let text = value()?;
                options.addr =
                    text.parse().map_err(|_| format!("--addr {text}: expected HOST:PORT"))?;
            }
            "--dist" => options.dist = PathBuf::from(value()?),
            "--data" => options.data = PathBuf::from(value()?),
            _ => return Err(format!("{arg}: unknown argument (see qi-server --help)")),
        }
    }
    Ok(Some(options))
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
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
    let files = app::raise_fd_limit();
    let (hub, resumed) = match app::open_hub(&options.data).await {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("qi-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(options.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("qi-server: cannot listen on {}: {e}", options.addr);
            return ExitCode::FAILURE;
        }
    };
    if !options.dist.join("index.html").is_file() {
        eprintln!(
            "qi-server: no {}/index.html: build the app first (scripts/run)",
            options.dist.display()
        );
    }
    println!(
        "qi-server: http://{} (app {}, games in {}, {resumed} resumed, {} open files allowed)",
        options.addr,
        options.dist.display(),
        options.data.join(app::DATABASE_FILE).display(),
        files.map_or_else(|| "unlimited".to_owned(), |n| n.to_string()),
    );
    if let Err(e) = app::serve(listener, hub, options.dist, ConnectionConfig::default()).await {
        eprintln!("qi-server: {e}");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
