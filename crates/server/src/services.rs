//! For tests and benchmarks, not for production: throwaway PostgreSQL and Redis servers on loopback, each with a temporary data directory and
//! a free port, for the tests and the load benchmark of several nodes. They use Debian's
//! packages (`postgresql`, `redis-server`; `scripts/test` installs them when missing); a missing
//! one is an error that says which package to install, never a silent skip.
//!
//! PostgreSQL refuses to run as root: when this process is root, `initdb` and the server run as
//! the `postgres` user (through `runuser`), in a directory made theirs.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A free TCP port on loopback (free when asked; the caller binds it soon after).
///
/// # Errors
/// When no port can be had.
pub fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// A directory of PostgreSQL's programs (`initdb`, `pg_ctl`): the newest under
/// `/usr/lib/postgresql/*/bin`, else wherever `PATH` has them.
fn postgres_bin() -> Result<PathBuf, String> {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|dir| dir.filter_map(Result::ok).map(|e| e.path().join("bin")).collect())
        .unwrap_or_default();
    versions.retain(|bin| bin.join("initdb").exists());
    versions.sort();
    if let Some(bin) = versions.pop() {
        return Ok(bin);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path).find(|dir| dir.join("initdb").exists()).ok_or_else(|| {
        "PostgreSQL's server is not installed (initdb not found): install Debian's postgresql \
         package (scripts/test does)"
            .to_owned()
    })
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// `program` with `args`, as the `postgres` user when this process is root.
fn as_postgres(program: &Path, args: &[&str]) -> Command {
    if is_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program).args(args);
        command
    } else {
        let mut command = Command::new(program);
        command.args(args);
        command
    }
}

fn run(mut command: Command, what: &str) -> Result<(), String> {
    let output = command.output().map_err(|e| format!("{what}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}): {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

fn temp_dir(tag: &str) -> Result<PathBuf, String> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let count = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let unique = format!("qi-{tag}-{}-{nanos}-{count}", std::process::id());
    let dir = std::env::temp_dir().join(unique);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    Ok(dir)
}

/// A PostgreSQL server of its own, stopped (and its directory deleted) when dropped.
#[derive(Debug)]
pub struct TempPostgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
}

impl TempPostgres {
    /// Makes a database cluster in a new temporary directory and starts its server on a free
    /// loopback port (user `qi`, no password, trusted on loopback only).
    ///
    /// # Errors
    /// When PostgreSQL is not installed or does not start; the text says why.
    pub fn start() -> Result<TempPostgres, String> {
        let bin = postgres_bin()?;
        let dir = temp_dir("pg")?;
        if is_root() {
            run(
                {
                    let mut chown = Command::new("chown");
                    chown.arg("postgres:").arg(&dir);
                    chown
                },
                "chown of the database directory",
            )?;
        }
        let data = dir.join("data");
        let data_arg = data.to_string_lossy().into_owned();
        run(
            as_postgres(
                &bin.join("initdb"),
                &["-D", &data_arg, "-U", "qi", "--auth=trust", "--no-sync", "-E", "UTF8"],
            ),
            "initdb",
        )?;
        let port = free_port()?;
        let postgres = TempPostgres { bin, dir, port };
        postgres.pg_ctl_start()?;
        Ok(postgres)
    }

    fn pg_ctl_start(&self) -> Result<(), String> {
        let data = self.dir.join("data").to_string_lossy().into_owned();
        let log = self.dir.join("server.log").to_string_lossy().into_owned();
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200",
            self.port,
            self.dir.display()
        );
        run(
            as_postgres(
                &self.bin.join("pg_ctl"),
                &["-D", &data, "-l", &log, "-o", &options, "-w", "-t", "60", "start"],
            ),
            "pg_ctl start",
        )
    }

    /// The connection string of its `postgres` database.
    #[must_use]
    pub fn url(&self) -> String {
        format!("host=127.0.0.1 port={} user=qi dbname=postgres connect_timeout=5", self.port)
    }

    /// The server's main process id (its backends are its children), while it runs.
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.dir.join("data").join("postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }

    /// Stops the server at once (`immediate`: like a crash; what was committed stays).
    ///
    /// # Errors
    /// When `pg_ctl` fails.
    pub fn stop(&self) -> Result<(), String> {
        let data = self.dir.join("data").to_string_lossy().into_owned();
        run(
            as_postgres(&self.bin.join("pg_ctl"), &["-D", &data, "-m", "immediate", "-w", "stop"]),
            "pg_ctl stop",
        )
    }

    /// Starts it again after [`TempPostgres::stop`], on the same port.
    ///
    /// # Errors
    /// When it does not start.
    pub fn restart(&self) -> Result<(), String> {
        self.pg_ctl_start()
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        let _ = self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A Redis server of its own (no persistence), killed when dropped.
#[derive(Debug)]
pub struct TempRedis {
    port: u16,
    child: Option<Child>,
    dir: PathBuf,
}

impl TempRedis {
    /// Starts `redis-server` on a free loopback port and waits until it answers.
    ///
    /// # Errors
    /// When Redis is not installed or does not start.
    pub fn start() -> Result<TempRedis, String> {
        let mut redis = TempRedis { port: free_port()?, child: None, dir: temp_dir("redis")? };
        redis.restart()?;
        Ok(redis)
    }

    /// `redis://` URL of the server.
    #[must_use]
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// The server's process id, while it runs.
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// Kills the server (as a crash would; it keeps nothing).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Kills it if it runs, then starts it again on the same port.
    ///
    /// # Errors
    /// When it does not start.
    pub fn restart(&mut self) -> Result<(), String> {
        self.kill();
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", ""])
            .args(["--appendonly", "no", "--dir"])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                format!(
                    "cannot start redis-server ({e}): install Debian's redis-server package \
                     (scripts/test does)"
                )
            })?;
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Err(format!("redis-server did not answer on port {} within 10 s", self.port))
    }
}

impl Drop for TempRedis {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
