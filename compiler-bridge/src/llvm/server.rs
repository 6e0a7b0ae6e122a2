//! The client of the compile server, `softnavi-llvmd` ([`Backend::Server`]): libLLVM 19
//! runs in helper processes, so that nothing LLVM does (a fatal error, an abort, a crash,
//! a hang) can end the application. A [`Pool`] keeps idle servers and starts one when none
//! is idle, so compiles from several threads run in parallel as in-process ones do. A
//! server that dies or overruns the timeout costs only the compile it was doing: the error
//! names LLVM's message or the signal, the server is reaped, and the next compile starts a
//! new one.
//!
//! [`Backend::Server`]: super::Backend::Server

use std::io::Read;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use llvm::host::HostTarget;

use super::{wire, CodegenOptions};
use crate::CompileError;

/// The server executable's name; the ICD's build puts it next to `libsoftnavi_icd.so`.
pub const SERVER_NAME: &str = "softnavi-llvmd";

/// How long a starting server may take to load libLLVM and greet (a loaded machine can
/// take seconds; a server that never greets is broken).
const START_TIMEOUT: Duration = Duration::from_secs(60);

/// The default of `SOFTNAVI_LLVM_TIMEOUT_MS`: ten minutes. The slowest shader of the
/// corpus compiles in about 0.1 s, so only a compiler that loops forever reaches it; a
/// shorter limit risks failing a legitimate, very large shader on a loaded machine.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(600);

/// At most this many idle servers are kept (each holds libLLVM's working memory, tens of
/// MB); more concurrent compiles start servers that end after their compile.
fn max_idle() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(8)
}

/// Why a compile through the pool did not produce a code object.
#[derive(Debug)]
pub enum Failure {
    /// No server could be started (the caller may compile another way).
    Start(String),
    /// The compile failed: LLVM's diagnostics, a fatal error, a crash or a timeout.
    Compile(CompileError),
}

/// Servers of one executable.
pub struct Pool {
    program: PathBuf,
    /// What a server must greet with: the libLLVM this process would load
    /// ([`super::library_identity`]), so that cache keys name the compiler that ran.
    expected: String,
    timeout: Option<Duration>,
    idle: Mutex<Vec<Server>>,
    /// Set when a server could not be started: later compiles do not try again.
    broken: OnceLock<String>,
}

impl Pool {
    /// A pool of `program --serve` servers, which must greet with `expected`; a compile
    /// that takes longer than `timeout` (`None`: no limit) kills its server.
    pub fn new(program: PathBuf, expected: String, timeout: Option<Duration>) -> Pool {
        Pool { program, expected, timeout, idle: Mutex::new(Vec::new()), broken: OnceLock::new() }
    }

    /// The process's pool: [`locate`]'s server, `SOFTNAVI_LLVM_TIMEOUT_MS` (read once).
    pub fn global() -> Result<&'static Pool, String> {
        static POOL: OnceLock<Result<Pool, String>> = OnceLock::new();
        POOL.get_or_init(|| {
            let program = locate()?;
            let lib = llvm::Library::get()?;
            Ok(Pool::new(program, super::library_identity(lib), timeout_from_env()))
        })
        .as_ref()
        .map_err(Clone::clone)
    }

    /// Compiles `ir` for gfx1100 in a server.
    pub fn compile(&self, ir: &str, opts: &CodegenOptions) -> Result<Vec<u8>, Failure> {
        let flags = if opts.wave64 { wire::WAVE64 } else { 0 };
        self.request(&wire::frame(wire::COMPILE, &[&[flags], ir.as_bytes()]))
    }

    /// Compiles `ir` with `passes` into a host object for `target` in a server
    /// (`llvm::host::compile` there).
    pub fn compile_host(&self, ir: &str, passes: &str, target: &HostTarget) -> Result<Vec<u8>, Failure> {
        self.request(&wire::host_compile(ir, passes, target))
    }

    /// Sends one compile request to a server: an idle one, else a new one. A server that
    /// died while idle is replaced before the request is sent.
    fn request(&self, request: &[u8]) -> Result<Vec<u8>, Failure> {
        let mut server = match self.take_idle() {
            Some(s) => s,
            None => self.start()?,
        };
        let result = server.request(request, self.timeout);
        if server.alive {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < max_idle() {
                idle.push(server);
            }
        }
        result.map_err(Failure::Compile)
    }

    fn take_idle(&self) -> Option<Server> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(mut s) = idle.pop() {
            if s.child.try_wait().is_ok_and(|status| status.is_none()) {
                return Some(s);
            }
            tracing::warn!("{SERVER_NAME} (pid {}) ended while idle; starting another", s.child.id());
        }
        None
    }

    fn start(&self) -> Result<Server, Failure> {
        if let Some(why) = self.broken.get() {
            return Err(Failure::Start(why.clone()));
        }
        Server::start(&self.program, &self.expected).map_err(|why| {
            let why = format!("cannot start {}: {why}", self.program.display());
            if self.broken.set(why.clone()).is_ok() {
                tracing::warn!(
                    "{why}; from now on shaders are compiled by the clang-19 / ld.lld-19 processes, \
                     and the translation tier compiles in this process"
                );
            }
            Failure::Start(why)
        })
    }
}

/// `SOFTNAVI_LLVM_TIMEOUT_MS`: milliseconds, `0` for no limit; unset or unreadable gives
/// [`DEFAULT_TIMEOUT`] (the latter with a warning).
fn timeout_from_env() -> Option<Duration> {
    let Ok(var) = std::env::var("SOFTNAVI_LLVM_TIMEOUT_MS") else { return Some(DEFAULT_TIMEOUT) };
    match var.trim().parse::<u64>() {
        Ok(0) => None,
        Ok(ms) => Some(Duration::from_millis(ms)),
        Err(_) => {
            tracing::warn!("SOFTNAVI_LLVM_TIMEOUT_MS={var}: not a number of milliseconds; using the default");
            Some(DEFAULT_TIMEOUT)
        }
    }
}

/// Where the server is: `$SOFTNAVI_LLVMD`, else `softnavi-llvmd` in the directory of the
/// file this code was loaded from (the ICD's shared library, or an executable linking
/// this crate), or the directory above it when that is cargo's `deps/` (test binaries).
/// Read once.
pub fn locate() -> Result<PathBuf, String> {
    static PATH: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("SOFTNAVI_LLVMD").filter(|p| !p.is_empty()) {
            let p = PathBuf::from(p);
            return if p.is_file() { Ok(p) } else { Err(format!("SOFTNAVI_LLVMD={} is not a file", p.display())) };
        }
        let here = own_file().ok_or("cannot tell which file this code was loaded from")?;
        let dir = here.parent().ok_or("no directory")?;
        let mut dirs = vec![dir];
        if dir.file_name().is_some_and(|n| n == "deps") {
            dirs.extend(dir.parent());
        }
        let candidates: Vec<PathBuf> = dirs.iter().map(|d| d.join(SERVER_NAME)).collect();
        candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
            let tried: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
            format!("{SERVER_NAME} not found (looked for {})", tried.join(", "))
        })
    })
    .clone()
}

/// The file mapped at this function's address, from `/proc/self/maps`.
fn own_file() -> Option<PathBuf> {
    let addr = own_file as fn() -> Option<PathBuf> as usize;
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines().find_map(|line| mapping_file(line, addr))
}

/// The file of one `/proc/self/maps` line (`start-end perms offset dev inode path`) when
/// its range holds `addr`.
fn mapping_file(line: &str, addr: usize) -> Option<PathBuf> {
    let (range, rest) = line.split_once(' ')?;
    let (start, end) = range.split_once('-')?;
    let (start, end) = (usize::from_str_radix(start, 16).ok()?, usize::from_str_radix(end, 16).ok()?);
    if !(start..end).contains(&addr) {
        return None;
    }
    // Skip perms, offset, dev and inode; the path may contain spaces.
    let mut rest = rest.trim_start();
    for _ in 0..4 {
        rest = rest.split_once(' ')?.1.trim_start();
    }
    let path = rest.strip_suffix(" (deleted)").unwrap_or(rest);
    path.starts_with('/').then(|| PathBuf::from(path))
}

/// One running server.
struct Server {
    child: Child,
    sock: UnixStream,
    /// The end of what the server wrote to stderr (LLVM's messages before a crash).
    stderr: Arc<Mutex<Vec<u8>>>,
    drain: Option<std::thread::JoinHandle<()>>,
    /// False once the server died or was killed.
    alive: bool,
}

/// How much of a server's stderr is kept for its crash report.
const STDERR_TAIL: usize = 16 << 10;

impl Server {
    fn start(program: &Path, expected: &str) -> Result<Server, String> {
        let (ours, theirs) = UnixStream::pair().map_err(|e| format!("socketpair: {e}"))?;
        let theirs_out = theirs.try_clone().map_err(|e| format!("socket: {e}"))?;
        let mut cmd = Command::new(program);
        cmd.arg("--serve")
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::from(OwnedFd::from(theirs_out)))
            .stderr(Stdio::piped());
        let spawned = cmd.spawn();
        // The command holds our copies of the server's socket end: drop them, so that the
        // server's death reads as the end of the stream.
        drop(cmd);
        let mut child = spawned.map_err(|e| e.to_string())?;
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let drain = child.stderr.take().map(|pipe| {
            let tail = stderr.clone();
            std::thread::Builder::new().name("softnavi-llvmd-stderr".into()).spawn(move || drain(pipe, &tail))
        });
        let drain = match drain.transpose() {
            Ok(d) => d,
            Err(e) => {
                let _ = (child.kill(), child.wait());
                return Err(format!("cannot start a thread: {e}"));
            }
        };
        let mut server = Server { child, sock: ours, stderr, drain, alive: true };
        server.greet(expected).inspect_err(|_| server.reap())?;
        Ok(server)
    }

    /// Reads the server's greeting and checks that it loaded the expected libLLVM.
    fn greet(&mut self, expected: &str) -> Result<(), String> {
        self.sock.set_read_timeout(Some(START_TIMEOUT)).map_err(|e| e.to_string())?;
        match wire::read_frame(&mut self.sock) {
            Ok(Some((wire::HELLO, id))) if id == expected.as_bytes() => Ok(()),
            Ok(Some((wire::HELLO, id))) => {
                Err(format!("it loaded {}, this process would load {expected}", String::from_utf8_lossy(&id)))
            }
            Ok(Some((wire::NO_LLVM, why))) => Err(format!("libLLVM 19: {}", String::from_utf8_lossy(&why))),
            Ok(Some((tag, _))) => Err(format!("unexpected greeting {tag:#04x}")),
            Ok(None) | Err(_) => {
                let why = self.death();
                Err(format!("it did not greet: {why}"))
            }
        }
    }

    /// One compile request (a whole frame). Any failure but LLVM's diagnostics of an
    /// invalid module leaves the server dead and reaped.
    fn request(&mut self, request: &[u8], timeout: Option<Duration>) -> Result<Vec<u8>, CompileError> {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).clear();
        if let Err(e) = send(&self.sock, request) {
            let why = self.death();
            return Err(crashed(format!("the request could not be sent ({e}): {why}")));
        }
        if let Err(e) = self.sock.set_read_timeout(timeout) {
            self.reap();
            return Err(CompileError::Tool(format!("{SERVER_NAME}: {e}")));
        }
        match wire::read_frame(&mut self.sock) {
            Ok(Some((wire::OBJECT, elf))) => Ok(elf),
            Ok(Some((wire::LLVM_ERROR, payload))) => Err(llvm_error(&payload)),
            Ok(Some((wire::FATAL, reason))) => {
                self.reap();
                Err(CompileError::Llvm {
                    tool: format!("libLLVM ({SERVER_NAME})"),
                    log: format!("LLVM fatal error: {}", String::from_utf8_lossy(&reason)),
                })
            }
            Ok(Some((tag, _))) => {
                self.reap();
                Err(crashed(format!("it sent an unexpected reply {tag:#04x}")))
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                self.reap();
                let ms = timeout.map_or(0, |t| t.as_millis());
                Err(crashed(format!("no answer after {ms} ms (SOFTNAVI_LLVM_TIMEOUT_MS); it was killed")))
            }
            Ok(None) | Err(_) => {
                let why = self.death();
                Err(crashed(why))
            }
        }
    }

    /// Kills and reaps a server that is of no further use.
    fn reap(&mut self) {
        if self.alive {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.alive = false;
        }
    }

    /// Reaps a server whose socket ended, and says how it died, with the end of its stderr.
    fn death(&mut self) -> String {
        let _ = self.child.kill(); // in case it only closed the socket
        let status = self.child.wait();
        self.alive = false;
        // The drain thread ends at the stderr pipe's end, which the exit closed.
        if let Some(d) = self.drain.take() {
            let _ = d.join();
        }
        let how = match status {
            Ok(s) => match (s.code(), s.signal()) {
                (Some(code), _) => format!("it exited with status {code}"),
                (_, Some(sig)) => format!("it was killed by {}", signal_name(sig)),
                _ => format!("it ended ({s})"),
            },
            Err(e) => format!("it ended (wait: {e})"),
        };
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut text = String::from_utf8_lossy(&tail).into_owned();
        // LLVM's crash report (stack dump, bug report plea) adds nothing for the user.
        if let Some(end) = text.find("PLEASE submit a bug report") {
            text.truncate(end);
        }
        let text = text.trim();
        if text.is_empty() {
            format!("{how}, without a message")
        } else {
            format!("{how}; it said: {text}")
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.reap();
    }
}

/// Writes the whole request without SIGPIPE: the application may not ignore that signal,
/// and a server that died while idle must not take it down.
fn send(sock: &UnixStream, mut bytes: &[u8]) -> std::io::Result<()> {
    while !bytes.is_empty() {
        // SAFETY: a live socket and a live buffer of `bytes.len()` bytes.
        let n = unsafe { libc::send(sock.as_raw_fd(), bytes.as_ptr().cast(), bytes.len(), libc::MSG_NOSIGNAL) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        bytes = &bytes[n as usize..];
    }
    Ok(())
}

/// Keeps the last [`STDERR_TAIL`] bytes the server writes to stderr, and passes its lines
/// to the log at debug level.
fn drain(mut pipe: impl Read, tail: &Mutex<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = pipe.read(&mut buf) {
        for line in String::from_utf8_lossy(&buf[..n]).lines() {
            tracing::debug!(target: "softnavi-llvmd", "{line}");
        }
        let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
        t.extend_from_slice(&buf[..n]);
        let excess = t.len().saturating_sub(STDERR_TAIL);
        t.drain(..excess);
    }
}

fn llvm_error(payload: &[u8]) -> CompileError {
    let (tool, log) = match payload.iter().position(|&b| b == 0) {
        Some(i) => (&payload[..i], &payload[i + 1..]),
        None => (&b"libLLVM"[..], payload),
    };
    CompileError::Llvm {
        tool: String::from_utf8_lossy(tool).into_owned(),
        log: String::from_utf8_lossy(log).into_owned(),
    }
}

fn crashed(why: String) -> CompileError {
    CompileError::Llvm { tool: SERVER_NAME.into(), log: why }
}

/// The name of a signal that can end a compiler.
fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGTRAP => "SIGTRAP",
        _ => return format!("signal {sig}"),
    };
    format!("{name} (signal {sig})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lines_name_the_file_holding_an_address() {
        let line = "7f00a000-7f00b000 r-xp 00001000 08:01 1234      /opt/soft navi/libsoftnavi_icd.so";
        assert_eq!(mapping_file(line, 0x7f00a800), Some(PathBuf::from("/opt/soft navi/libsoftnavi_icd.so")));
        assert_eq!(mapping_file(line, 0x7f00b000), None);
        let deleted = "1000-2000 r-xp 00000000 08:01 1 /t/libx.so (deleted)";
        assert_eq!(mapping_file(deleted, 0x1000), Some(PathBuf::from("/t/libx.so")));
        assert_eq!(mapping_file("1000-2000 rw-p 00000000 00:00 0 [heap]", 0x1000), None);
        assert!(own_file().is_some_and(|p| p.is_file()), "this test binary is mapped");
    }

    #[test]
    fn signals_are_named() {
        assert_eq!(signal_name(libc::SIGSEGV), "SIGSEGV (signal 11)");
        assert_eq!(signal_name(64), "signal 64");
    }

    #[test]
    fn a_missing_server_is_a_start_failure_and_is_not_retried() {
        let pool = Pool::new("/nonexistent/softnavi-llvmd".into(), String::new(), None);
        let opts = CodegenOptions::default();
        assert!(matches!(pool.compile("", &opts), Err(Failure::Start(w)) if w.contains("/nonexistent")));
        assert!(matches!(pool.compile("", &opts), Err(Failure::Start(_))));
    }
}
