//! The launcher: a small process, started by re-executing the harness (one per concurrent
//! start), that starts the judge's plain programs — the author's tools (generators,
//! references, validators), compilers, checkers, and programs under test when the sandbox is
//! off — as the judge's own children.
//!
//! Why not fork the judge: a fork copies the judge's page tables and makes every page either
//! process writes afterwards a copy-on-write fault, until the child's exec tears the copy
//! down. In a `perf record` of `harness stress` on king-queens that was most of the judge's
//! own CPU: about 1 ms of an iteration's 1.3 ms, for two tool starts. posix_spawn from the
//! judge avoids the copy but not the judge's memory in the program's `ru_maxrss`, and sets no
//! stack limit before exec (see `spawn`). From this process a child sharing its memory sets
//! its limits and execs, and `CLONE_PARENT` makes it the judge's child: the judge watches it
//! (pidfd, /proc, its process group) and reaps it (`wait4`: status and rusage) exactly as one
//! it had forked, so nothing after the start changes.
//!
//! Protocol (over a `SOCK_SEQPACKET` pair, as `wire` sends): [`Request`] + stdin, stdout and
//! stderr → [`Answer`]. The launcher ends when the judge's end closes.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::process::{ChildIo, Start, Started};
use super::spawn::{self, Identity, Parent, Plan, Target};
use super::wire;

/// The hidden first argument that makes `harness` a launcher (see `sandbox::enter_helper_if_asked`).
pub const LAUNCHER_ARG: &str = "__harness-launcher";

/// One program to start; stdin, stdout and stderr ride along. Sent in a plain binary layout
/// (see `encode`): a run's environment is a few kilobytes, which JSON spells out as arrays
/// of numbers and took a measurable part of a stress iteration to read.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    /// An executable path: the judge has resolved a bare name on `PATH` already.
    path: Vec<u8>,
    argv: Vec<Vec<u8>>,
    env: Vec<Vec<u8>>,
    workdir: Vec<u8>,
    /// `(resource, value)`, soft = hard.
    rlimits: Vec<(i64, u64)>,
}

impl Request {
    /// Each byte string as its length (u32, native order) then its bytes; lists as their
    /// length then their items; the rlimits as a count then pairs of u64.
    fn encode(&self) -> Vec<u8> {
        fn put(out: &mut Vec<u8>, bytes: &[u8]) {
            out.extend((bytes.len() as u32).to_ne_bytes());
            out.extend(bytes);
        }
        fn put_list(out: &mut Vec<u8>, items: &[Vec<u8>]) {
            out.extend((items.len() as u32).to_ne_bytes());
            for item in items {
                put(out, item);
            }
        }
        let mut out = Vec::with_capacity(4096);
        put(&mut out, &self.path);
        put_list(&mut out, &self.argv);
        put_list(&mut out, &self.env);
        put(&mut out, &self.workdir);
        out.extend((self.rlimits.len() as u32).to_ne_bytes());
        for &(resource, value) in &self.rlimits {
            out.extend(resource.to_ne_bytes());
            out.extend(value.to_ne_bytes());
        }
        out
    }

    fn decode(bytes: &[u8]) -> io::Result<Request> {
        let mut reader = Reader { bytes };
        let path = reader.bytes()?;
        let argv = reader.list()?;
        let env = reader.list()?;
        let workdir = reader.bytes()?;
        let count = reader.number()?;
        let mut rlimits = Vec::with_capacity(count.min(16) as usize);
        for _ in 0..count {
            let resource = i64::from_ne_bytes(reader.array()?);
            let value = u64::from_ne_bytes(reader.array()?);
            rlimits.push((resource, value));
        }
        if !reader.bytes.is_empty() {
            return Err(malformed());
        }
        Ok(Request {
            path,
            argv,
            env,
            workdir,
            rlimits,
        })
    }
}

/// Reads what `Request::encode` wrote.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn array<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let (head, rest) = self.bytes.split_first_chunk::<N>().ok_or_else(malformed)?;
        self.bytes = rest;
        Ok(*head)
    }

    fn number(&mut self) -> io::Result<u32> {
        Ok(u32::from_ne_bytes(self.array()?))
    }

    fn bytes(&mut self) -> io::Result<Vec<u8>> {
        let len = self.number()? as usize;
        if len > self.bytes.len() {
            return Err(malformed());
        }
        let (head, rest) = self.bytes.split_at(len);
        self.bytes = rest;
        Ok(head.to_vec())
    }

    fn list(&mut self) -> io::Result<Vec<Vec<u8>>> {
        let count = self.number()?;
        (0..count).map(|_| self.bytes()).collect()
    }
}

fn malformed() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "a malformed launch request")
}

#[derive(Debug, Serialize, Deserialize)]
enum Answer {
    /// Running, as the judge's child, in a process group of its own with this id.
    Started { pid: i32 },
    /// exec failed with `errno`; the child has exited and the judge reaps `pid`.
    ExecFailed { pid: i32, errno: i32 },
    /// Nothing was started; the text says why.
    Failed(String),
}

/// Entry point of `harness __harness-launcher FD`. Never returns.
pub fn main(socket_arg: Option<&std::ffi::OsStr>) -> ! {
    let socket = wire::socket_or_exit(socket_arg);
    let code = match serve(socket) {
        Ok(()) => 0,
        Err(_) => 1,
    };
    std::process::exit(code);
}

fn serve(socket: RawFd) -> io::Result<()> {
    while let Some((bytes, fds)) = wire::receive_bytes(socket)? {
        let answer = match Request::decode(&bytes) {
            Ok(request) => launch(&request, &fds),
            Err(error) => Answer::Failed(error.to_string()),
        };
        // Ours closed here: the program holds the copies it needs.
        drop(fds);
        wire::send(socket, &answer, &[])?;
    }
    Ok(())
}

fn launch(request: &Request, fds: &[OwnedFd]) -> Answer {
    if fds.len() != 3 {
        return Answer::Failed(format!("expected 3 descriptors, got {}", fds.len()));
    }
    let plan = match plan(request) {
        Ok(plan) => plan,
        Err(error) => return Answer::Failed(error.to_string()),
    };
    let raw: Vec<RawFd> = fds.iter().map(AsRawFd::as_raw_fd).collect();
    match spawn::spawn(&plan, &raw, Parent::CallersParent) {
        Ok(spawned) => match spawned.exec_errno {
            None => Answer::Started { pid: spawned.pid },
            Some(errno) => Answer::ExecFailed {
                pid: spawned.pid,
                errno,
            },
        },
        Err(error) => Answer::Failed(error.to_string()),
    }
}

fn plan(request: &Request) -> io::Result<Plan> {
    let c = |bytes: &Vec<u8>| spawn::c_string(bytes);
    Ok(Plan {
        argv: request.argv.iter().map(c).collect::<io::Result<_>>()?,
        env: request.env.iter().map(c).collect::<io::Result<_>>()?,
        target: Target::Path(c(&request.path)?),
        workdir: c(&request.workdir)?,
        rlimits: request.rlimits.clone(),
        identity: Identity::Caller,
        own_group: true,
        cgroup_tasks: Vec::new(),
        shell_fallback: true,
        keyrings: spawn::Keyrings::Inherited,
    })
}

/// A launcher and the judge's end of its socket.
struct Launcher {
    child: std::process::Child,
    socket: OwnedFd,
}

impl Drop for Launcher {
    fn drop(&mut self) {
        // Its end of the socket closes: it exits, and is reaped here.
        // SAFETY: shutdown on a socket we own.
        unsafe { libc::shutdown(self.socket.as_raw_fd(), libc::SHUT_RDWR) };
        let _ = self.child.wait();
    }
}

/// Idle launchers: a start takes one (or starts one) and gives it back, so concurrent starts
/// each have their own and a launcher is started once per level of concurrency.
static POOL: Mutex<Vec<Launcher>> = Mutex::new(Vec::new());
/// A launcher could not be started from the harness binary: every start forks the judge
/// instead, as before. (With no binary given yet, as in unit tests, starts fork until one is.)
static UNAVAILABLE: AtomicBool = AtomicBool::new(false);

/// Stops every idle launcher.
pub(crate) fn shutdown() {
    let idle = std::mem::take(
        &mut *POOL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    drop(idle);
}

/// Starts `start` through a launcher; hands `start` back when there is none to use, for the
/// caller to fork instead.
pub(super) fn start(start: Start<'_>) -> Result<io::Result<Started>, Start<'_>> {
    if UNAVAILABLE.load(Ordering::Relaxed) || super::helper::helper().is_none() {
        return Err(start);
    }
    let Some(launcher) = take() else {
        UNAVAILABLE.store(true, Ordering::Relaxed);
        return Err(start);
    };
    match start_with(&launcher, &start) {
        Ok(started) => {
            give_back(launcher);
            Ok(started)
        }
        Err(Fork::TooLong) => {
            give_back(launcher);
            Err(start)
        }
        Err(Fork::Lost) => {
            // The launcher is gone (killed, or the protocol broke): this start forks, and the
            // next one starts a fresh launcher.
            drop(launcher);
            Err(start)
        }
    }
}

/// Why a start falls back to a fork of the judge.
enum Fork {
    /// The command line and environment do not fit one message.
    TooLong,
    /// The launcher stopped answering.
    Lost,
}

fn start_with(launcher: &Launcher, start: &Start<'_>) -> Result<io::Result<Started>, Fork> {
    /// How long, at most, to keep retrying an exec that found its file busy.
    const BUSY_FOR: Duration = Duration::from_millis(100);
    let request = match request(start) {
        Ok(request) => request.encode(),
        Err(error) => return Ok(Err(error)),
    };
    if request.len() > wire::MAX_MESSAGE {
        return Err(Fork::TooLong);
    }
    let first = Instant::now();
    loop {
        let (stdin, _judge_writes) = match child_end(&start.stdin, false) {
            Ok(ends) => ends,
            Err(error) => return Ok(Err(error)),
        };
        let (stdout, stdout_kept) = match child_end(&start.stdout, true) {
            Ok(ends) => ends,
            Err(error) => return Ok(Err(error)),
        };
        let (stderr, stderr_kept) = match child_end(&start.stderr, true) {
            Ok(ends) => ends,
            Err(error) => return Ok(Err(error)),
        };
        let started = Instant::now();
        let fds = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
        let socket = launcher.socket.as_raw_fd();
        wire::send_bytes(socket, &request, &fds).map_err(|_| Fork::Lost)?;
        // The child has its copies (or never will): only the ends the judge reads stay open.
        drop((stdin, stdout, stderr));
        let Ok(Some((answer, _))) = wire::receive::<Answer>(socket) else {
            return Err(Fork::Lost);
        };
        return Ok(match answer {
            Answer::Started { pid } => Ok(Started {
                pid,
                started,
                stdout: stdout_kept.map(std::fs::File::from),
                stderr: stderr_kept.map(std::fs::File::from),
            }),
            Answer::ExecFailed { pid, errno } => {
                reap(pid);
                // A file this process has just written (a script, a fixture) is busy while a
                // child forked meanwhile still holds the writing descriptor, until it execs.
                if errno == libc::ETXTBSY && first.elapsed() < BUSY_FOR {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                }
                Err(io::Error::from_raw_os_error(errno))
            }
            Answer::Failed(why) => Err(io::Error::other(why)),
        });
    }
}

/// The child's end of one of its standard streams, and the judge's end when it is a pipe the
/// judge reads (`output`) or writes.
fn child_end(io: &ChildIo, output: bool) -> io::Result<(OwnedFd, Option<OwnedFd>)> {
    Ok(match io {
        ChildIo::Null => {
            let null = std::fs::OpenOptions::new()
                .read(!output)
                .write(output)
                .open("/dev/null")?;
            (OwnedFd::from(null), None)
        }
        ChildIo::Fd(fd) => (fd.try_clone()?, None),
        ChildIo::Pipe => {
            let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
            if output {
                (write, Some(read))
            } else {
                (read, Some(write))
            }
        }
    })
}

/// Reaps a child whose exec failed: it is ours (`CLONE_PARENT`), and exits at once.
fn reap(pid: libc::pid_t) {
    let mut status = 0;
    // SAFETY: a valid pointer; the pid is our own child.
    while unsafe { libc::waitpid(pid, &raw mut status, 0) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

fn request(start: &Start<'_>) -> io::Result<Request> {
    let env = environment(start.env);
    let path = executable(start.program, &env)?;
    let argv = std::iter::once(start.program.as_os_str().to_os_string())
        .chain(start.args.iter().cloned())
        .map(OsString::into_vec)
        .collect();
    let workdir = if start.workdir.is_absolute() {
        start.workdir.to_path_buf()
    } else {
        std::env::current_dir()?.join(start.workdir)
    };
    Ok(Request {
        path: path.into_os_string().into_vec(),
        argv,
        env: env
            .into_iter()
            .map(|(name, value)| {
                let mut entry = name.into_vec();
                entry.push(b'=');
                entry.extend(value.into_vec());
                entry
            })
            .collect(),
        workdir: workdir.into_os_string().into_vec(),
        rlimits: super::process::rlimit_plan(start.limits, start.scope, start.address_space_cap)
            .into_iter()
            .flatten()
            .map(|(resource, value)| (resource as i64, value))
            .collect(),
    })
}

/// The judge's environment with the run's variables set over it, as `Command::envs` gives.
/// The judge's own is read once: the harness never changes its environment.
fn environment(overrides: &[(OsString, OsString)]) -> Vec<(OsString, OsString)> {
    static JUDGES: OnceLock<Vec<(OsString, OsString)>> = OnceLock::new();
    let judges = JUDGES.get_or_init(|| std::env::vars_os().collect());
    let mut env: Vec<(OsString, OsString)> = judges
        .iter()
        .filter(|(name, _)| !overrides.iter().any(|(over, _)| over == name))
        .cloned()
        .collect();
    env.extend(overrides.iter().cloned());
    env
}

/// The file exec runs: a path with a folder in it as it is (made absolute, since the child
/// changes folder first), a bare name looked up on the run's `PATH` as `execvp` looks it up.
fn executable(program: &Path, env: &[(OsString, OsString)]) -> io::Result<PathBuf> {
    if program.components().count() > 1 || program.as_os_str().as_bytes().contains(&b'/') {
        return Ok(if program.is_absolute() {
            program.to_path_buf()
        } else {
            std::env::current_dir()?.join(program)
        });
    }
    let path = env
        .iter()
        .find(|(name, _)| name == "PATH")
        .map(|(_, value)| value.clone())
        .unwrap_or_else(|| OsString::from("/usr/local/bin:/usr/bin:/bin"));
    // ENOENT, as exec reports it, so that the message is the one a fork gave.
    super::process::find_on_path(program, &path)
        .ok_or_else(|| io::Error::from_raw_os_error(libc::ENOENT))
}

fn take() -> Option<Launcher> {
    let idle = POOL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .pop();
    idle.or_else(|| start_launcher().ok())
}

fn give_back(launcher: Launcher) {
    POOL.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(launcher);
}

fn start_launcher() -> io::Result<Launcher> {
    let (child, socket) = super::helper::start(LAUNCHER_ARG)?;
    Ok(Launcher { child, socket })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> Request {
        Request {
            path: b"/usr/bin/env".to_vec(),
            argv: vec![b"env".to_vec(), Vec::new(), vec![0xff, b' ', b'x']],
            env: vec![b"PATH=/usr/bin".to_vec(), b"EMPTY=".to_vec()],
            workdir: b"/tmp/run folder".to_vec(),
            rlimits: vec![(3, 1 << 40), (7, u64::MAX)],
        }
    }

    #[test]
    fn a_request_reads_back_as_written() {
        let request = request();
        assert_eq!(Request::decode(&request.encode()).unwrap(), request);
    }

    #[test]
    fn a_cut_or_padded_request_is_refused() {
        let bytes = request().encode();
        for len in [0, 3, 4, bytes.len() / 2, bytes.len() - 1] {
            let error = Request::decode(&bytes[..len]).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::InvalidData, "cut at {len}");
        }
        let mut padded = bytes.clone();
        padded.push(0);
        assert!(Request::decode(&padded).is_err());
        // A length beyond the message is refused, not allocated.
        let mut huge = bytes;
        huge[..4].copy_from_slice(&u32::MAX.to_ne_bytes());
        assert!(Request::decode(&huge).is_err());
    }

    #[test]
    fn a_bare_name_is_found_on_the_runs_path() {
        let env = [(
            OsString::from("PATH"),
            OsString::from("/nonexistent:/bin:/usr/bin"),
        )];
        let found = executable(Path::new("sh"), &env).unwrap();
        assert!(found.is_absolute() && found.ends_with("sh"), "{found:?}");
        let missing = executable(Path::new("no-such-program-here"), &env).unwrap_err();
        assert_eq!(missing.raw_os_error(), Some(libc::ENOENT));
        // With a folder in it, the path is taken as it is, made absolute.
        let relative = executable(Path::new("bin/tool"), &env).unwrap();
        assert_eq!(relative, std::env::current_dir().unwrap().join("bin/tool"));
    }

    #[test]
    fn the_runs_variables_replace_the_judges() {
        let env = environment(&[(OsString::from("PATH"), OsString::from("/only"))]);
        let paths: Vec<_> = env.iter().filter(|(name, _)| name == "PATH").collect();
        assert_eq!(paths, [&(OsString::from("PATH"), OsString::from("/only"))]);
    }
}
