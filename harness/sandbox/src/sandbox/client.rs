//! The judge's side of the sandbox: a pool of zygotes (one per worker running at once), and
//! running one program through one of them while this thread polls the program's pipes, as
//! the plain runner does.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::cgroup::WorkerCgroup;
use super::outcome::Supervised;
use super::outcome::{Capture, LimitHit, OutputFileError};
use super::process::{self, Streams};
use super::request::{Limits, RunRequest, Scope, Stdin};
use super::scratch;
use super::watch::{self, Probe, Sample, Sampling, Schedstat, Watch};
use super::wire::{self, Exec, Finished, Launch, Outcome, Reply, ZygoteConfig};
use super::{helper, tree, view, zygote};

/// The id a program runs as when the judge is root and can map one: `nobody`.
const NOBODY: u32 = 65534;
/// The cgroup cap above the memory limit: a run that reaches it is killed by the kernel, and
/// its peak is then above the limit, so it is MLE.
const CAP_SLACK: u64 = 16 << 20;
/// Environment variables passed into the sandbox, when set; everything else is left behind
/// (paths of the project and of `$HOME` included).
const PASSED_ENV: [&str; 6] = ["LANG", "LC_ALL", "LC_CTYPE", "TZ", "RUST_BACKTRACE", "TERM"];
const SANDBOX_PATH: &str = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// A running zygote and the socket to its init.
struct Zygote {
    child: Child,
    socket: OwnedFd,
    /// The init's pid here: every process of a run descends from it.
    init: libc::pid_t,
    /// The schedstat files of the init's threads here, kept open: its main one and the one
    /// that runs what the syscall filter refuses the main one (starting an unfiltered program,
    /// sizing the run's folder).
    init_threads: Vec<tree::SchedstatFile>,
    /// The worker's folder, /tmp of runs that bring none: a tmpfs in the sandbox, sized and
    /// emptied by the init for each run; read here for the room its files take.
    scratch: Option<OwnedFd>,
    prefixes: Vec<PathBuf>,
    /// Where no cgroup charges the runs' kernel memory: the worker's network namespace's
    /// `sockstat`, read for the sockets a run holds.
    sockstat: Option<File>,
    /// Kept for the zygote's lifetime: Ctrl-C kills its group: the zygote, its init, and so every run.
    _registered: crate::sandbox::interrupt::Registered,
    _cgroup: Option<WorkerCgroup>,
}

/// How long a zygote is given to end by itself once told to.
const STOP_GRACE: Duration = Duration::from_secs(2);

impl Drop for Zygote {
    fn drop(&mut self) {
        // Told to stop (the socket's end), the init ends and the zygote reaps it, so the CPU
        // time of every program it ran reaches this process's children's too (`wait4`,
        // `getrusage`), as a plain run's does. A zygote that does not end is killed.
        // SAFETY: shutdown on a socket we own.
        unsafe { libc::shutdown(self.socket.as_raw_fd(), libc::SHUT_RDWR) };
        let until = Instant::now() + STOP_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                _ => return,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

static POOL: Mutex<Vec<Zygote>> = Mutex::new(Vec::new());
/// Zygotes started so far: numbers their cgroups.
static STARTED: Mutex<usize> = Mutex::new(0);

/// Stops every idle zygote and removes their cgroups.
pub(crate) fn shutdown() {
    if let Ok(mut pool) = POOL.lock() {
        pool.clear();
    }
}

impl Zygote {
    /// How long the init's threads have waited for a CPU since they started: either holds up
    /// a run while the other waits for it.
    fn init_run_delay(&self) -> Duration {
        if self.init_threads.is_empty() {
            return tree::run_delay(self.init);
        }
        self.init_threads
            .iter()
            .map(tree::SchedstatFile::run_delay)
            .sum()
    }
}

/// Starts a zygote showing `prefixes`; the error says why the sandbox cannot be made.
fn start_zygote(prefixes: Vec<PathBuf>) -> io::Result<Zygote> {
    let (child, ours) = helper::start(zygote::ZYGOTE_ARG)?;
    let number = {
        let mut started = STARTED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *started += 1;
        *started
    };
    if number == 1 {
        super::cgroup::remove_stale();
    }
    let cgroup = WorkerCgroup::create(number);
    let pid = child.id() as libc::pid_t;
    let mut zygote = Zygote {
        child,
        socket: ours,
        init: 0,
        init_threads: Vec::new(),
        scratch: None,
        prefixes,
        sockstat: None,
        _registered: crate::sandbox::interrupt::register_for_life(pid),
        _cgroup: None,
    };
    // SAFETY: geteuid and getegid cannot fail.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let config = ZygoteConfig {
        prefixes: zygote
            .prefixes
            .iter()
            .map(|p| p.as_os_str().as_bytes().to_vec())
            .collect(),
        memory_cgroup: cgroup
            .as_ref()
            .map(|c| c.memory.as_os_str().as_bytes().to_vec()),
        joined_cgroups: cgroup
            .iter()
            .flat_map(|c| &c.joined)
            .map(|p| p.as_os_str().as_bytes().to_vec())
            .collect(),
        program_uid: if uid == 0 { NOBODY } else { 0 },
        program_gid: if uid == 0 { NOBODY } else { 0 },
        scratch_root: scratch::scratch_root().as_os_str().as_bytes().to_vec(),
        user_keyrings_per_namespace: user_keyrings_per_namespace(),
        exit_listener: kernel_at_least(&kernel_release(), (5, 5)),
    };
    zygote._cgroup = cgroup;
    let socket = zygote.socket.as_raw_fd();
    wire::send(socket, &config, &[])?;
    expect_ready(socket)?;
    write_id_maps(pid, uid, gid)?;
    wire::send(socket, &(), &[])?;
    match wire::receive::<Reply>(socket)? {
        Some((Reply::Serving { init }, mut fds)) if fds.len() == 1 => {
            zygote.init = init;
            // Both are started before the init says it serves.
            zygote.init_threads = tree::threads(init)
                .into_iter()
                .filter_map(tree::SchedstatFile::of)
                .collect();
            zygote.scratch = fds.pop();
            if zygote._cgroup.is_none() {
                zygote.sockstat = File::open(format!("/proc/{init}/net/sockstat")).ok();
            }
        }
        Some((Reply::Failed(why), _)) => return Err(io::Error::other(why)),
        Some((other, _)) => return Err(io::Error::other(format!("unexpected {other:?}"))),
        None => return Err(io::Error::other("the sandbox helper exited while starting")),
    }
    Ok(zygote)
}

fn expect_ready(socket: RawFd) -> io::Result<()> {
    match wire::receive::<Reply>(socket)? {
        Some((Reply::Ready, _)) => Ok(()),
        Some((Reply::Failed(why), _)) => Err(io::Error::other(why)),
        Some((other, _)) => Err(io::Error::other(format!("unexpected {other:?}"))),
        None => Err(io::Error::other("the sandbox helper exited while starting")),
    }
}

/// Maps the zygote's namespace ids: as root, 0 to root (for the cgroup files) and `nobody` to
/// itself, for the program; otherwise only our own id, as 0.
fn write_id_maps(pid: libc::pid_t, uid: u32, gid: u32) -> io::Result<()> {
    let proc = PathBuf::from(format!("/proc/{pid}"));
    let write = |file: &str, text: String| {
        std::fs::write(proc.join(file), text)
            .map_err(|e| io::Error::new(e.kind(), format!("write the sandbox's {file}: {e}")))
    };
    if uid == 0 {
        write("uid_map", format!("0 0 1\n{NOBODY} {NOBODY} 1\n"))?;
        write("gid_map", format!("0 {gid} 1\n{NOBODY} {NOBODY} 1\n"))?;
    } else {
        write("setgroups", "deny".into())?;
        write("uid_map", format!("0 {uid} 1\n"))?;
        write("gid_map", format!("0 {gid} 1\n"))?;
    }
    Ok(())
}

/// Takes an idle zygote that shows every one of `prefixes`, or starts one.
fn take(prefixes: &[PathBuf]) -> io::Result<Zygote> {
    {
        let mut pool = POOL
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(at) = pool
            .iter()
            .position(|z| prefixes.iter().all(|p| z.prefixes.contains(p)))
        {
            return Ok(pool.swap_remove(at));
        }
        // One that lacks a prefix is replaced by one that shows it and what it showed.
        if let Some(old) = pool.pop() {
            let mut all = old.prefixes.clone();
            all.extend(
                prefixes
                    .iter()
                    .filter(|p| !old.prefixes.contains(p))
                    .cloned(),
            );
            drop(old);
            drop(pool);
            return start_zygote(all);
        }
    }
    start_zygote(prefixes.to_vec())
}

fn give_back(zygote: Zygote) {
    POOL.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(zygote);
}

/// Whether a zygote can be made here; the reason when not. Tried once.
pub(crate) fn probe() -> Result<(), String> {
    static PROBED: OnceLock<Result<(), String>> = OnceLock::new();
    PROBED
        .get_or_init(|| match start_zygote(Vec::new()) {
            Ok(zygote) => {
                give_back(zygote);
                Ok(())
            }
            Err(error) => Err(error.to_string()),
        })
        .clone()
}

/// RLIMIT_NPROC of a sandboxed program, where the kernel counts it per user namespace: the
/// run's tree (the pids cgroup's limit), and the worker's init and zygote, which share the
/// program's id in the namespace when the judge is not root. Without root there is no pids
/// cgroup, and the plain limit counts every process of the user (4096, since a desktop session
/// has hundreds): a fork bomb grew to thousands of processes and took 53 s to judge.
const NAMESPACE_TASKS: u64 = super::cgroup::TASK_LIMIT as u64 + 2;

/// Descriptors one process of a sandboxed program may have open (RLIMIT_NOFILE): each may hold
/// kernel memory outside its address space (a pipe's pages, a socket's buffers), which no
/// cgroup counts without root. Node.js needs 20 to start; the JVM, CPython, PyPy, Go and C++
/// fewer than 10.
pub(crate) const PROGRAM_FILES: u64 = 64;

/// What each socket in the worker's network namespace counts for in a run's memory where no
/// cgroup charges the kernel's: the most one holds at the default buffer sizes the filter
/// keeps it to. What a socket sends is charged to it until read, up to its send buffer and
/// one more message as large (a datagram may be nearly the whole buffer); a netlink socket's
/// queue is charged to it, up to its receive buffer and one more; and its own structures.
/// Counted while it exists, sent away or closed with data still queued too: a socket is
/// freed only when what it sent has been read or dropped.
pub(crate) fn socket_charge() -> u64 {
    static CHARGE: OnceLock<u64> = OnceLock::new();
    *CHARGE.get_or_init(|| {
        let read = |name: &str| {
            std::fs::read_to_string(format!("/proc/sys/net/core/{name}"))
                .ok()
                .and_then(|text| text.trim().parse::<u64>().ok())
        };
        let buffer = [read("wmem_default"), read("rmem_default")]
            .into_iter()
            .flatten()
            .fold(DEFAULT_SOCKET_BUFFER, u64::max);
        2 * buffer + SOCKET_ITSELF
    })
}

/// Linux's default socket buffer (`net.core.wmem_default`, `rmem_default`), in bytes.
const DEFAULT_SOCKET_BUFFER: u64 = 212_992;
/// A socket's own structures, rounded up: the sock, its inode and file.
const SOCKET_ITSELF: u64 = 4 << 10;

/// The sockets of a network namespace, from its `/proc/net/sockstat` (`sockets: used N`).
fn sockets_used(sockstat: &str) -> Option<u64> {
    sockstat
        .lines()
        .next()?
        .strip_prefix("sockets: used ")?
        .trim()
        .parse()
        .ok()
}

/// Whether RLIMIT_NPROC counts the tasks of the caller's user id in its own user namespace
/// (Linux 5.14 and later: ucounts), not every process of the user on the machine.
fn nproc_counts_namespace() -> bool {
    static COUNTS: OnceLock<bool> = OnceLock::new();
    *COUNTS.get_or_init(|| {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        kernel_at_least(&release, (5, 14))
    })
}

/// Whether user keyrings belong to the user namespace (Linux 5.3 and later), not to the user
/// machine-wide.
fn user_keyrings_per_namespace() -> bool {
    kernel_at_least(&kernel_release(), (5, 3))
}

fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default()
}

/// Whether a kernel `release` (`6.18.44-fc-v857`) is at least `major.minor`.
fn kernel_at_least(release: &str, (major, minor): (u32, u32)) -> bool {
    let mut parts = release
        .split(|c: char| !c.is_ascii_digit())
        .map(|part| part.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(got_major), Some(got_minor)) => (got_major, got_minor) >= (major, minor),
        _ => false,
    }
}

/// What the zygote must be told to run `request`.
struct Plan<'a> {
    launch: Launch,
    /// The request's arguments, after the program's name in `launch.argv` once the run's
    /// folder is known (file arguments become private copies in it).
    args: &'a [OsString],
    /// Descriptors after the standard four: copies of file arguments, then the executable.
    extra: Vec<OwnedFd>,
    prefixes: Vec<PathBuf>,
}

/// The project and `$HOME`: folders an install prefix may not reveal. Read once: the judge
/// never changes its folder (only the helpers do), and resolving both took a `getcwd` and
/// six `readlink`s per sandboxed run.
fn hidden_folders() -> &'static [PathBuf] {
    static HIDDEN: OnceLock<Vec<PathBuf>> = OnceLock::new();
    HIDDEN.get_or_init(|| {
        [
            std::env::current_dir().ok(),
            std::env::var_os("HOME").map(PathBuf::from),
        ]
        .into_iter()
        .flatten()
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect()
    })
}

fn plan<'a>(
    request: &RunRequest<'a>,
    limits: &Limits,
    workdir: Option<&Path>,
) -> io::Result<Plan<'a>> {
    let program = resolve(request.program)?;
    // Opened once: the descriptor names the file's real path (one `readlink` where resolving
    // the path took one a component), and is what an unlisted program is run from. One the
    // judge may not read (a system program that is execute-only) is resolved by its path.
    let opened = File::open(&program);
    let canonical = match &opened {
        Ok(file) => std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
            .or_else(|_| std::fs::canonicalize(&program))?,
        Err(_) => std::fs::canonicalize(&program)?,
    };
    let mut prefixes = Vec::new();
    let mut extra = Vec::new();
    let exec;
    let argv0;
    if let Some(inside) = workdir.and_then(|folder| as_seen_inside(program.as_os_str(), folder)) {
        // A program in the run's own folder (a package's `run` script beside its files) is
        // started by the path it has there, so `$0` leads to its folder.
        argv0 = PathBuf::from(std::ffi::OsString::from_vec(inside.clone()));
        exec = Exec::Path(inside);
    } else if view::is_system(&canonical) {
        // Keep the name it was called by when that is visible too (busybox-style programs).
        argv0 = if view::is_system(&program) {
            program.clone()
        } else {
            canonical.clone()
        };
        exec = Exec::Path(canonical.as_os_str().as_bytes().to_vec());
    } else if let Some(prefix) = view::install_prefix(&canonical, hidden_folders()) {
        argv0 = canonical.clone();
        exec = Exec::Path(canonical.as_os_str().as_bytes().to_vec());
        prefixes.push(prefix);
    } else {
        // The name it was called by, as `ps` shows it; the path leads nowhere inside.
        argv0 = program.clone();
        exec = Exec::Fd;
    }
    let argv = vec![argv0.into_os_string().into_vec()];
    let extra_fds = extra.len();
    if matches!(exec, Exec::Fd) {
        extra.push(OwnedFd::from(opened?));
    }
    let mut env = vec![
        SANDBOX_PATH.as_bytes().to_vec(),
        b"HOME=/tmp".to_vec(),
        b"TMPDIR=/tmp".to_vec(),
    ];
    for name in PASSED_ENV {
        if let Some(value) = std::env::var_os(name) {
            let mut pair = format!("{name}=").into_bytes();
            pair.extend_from_slice(value.as_bytes());
            env.push(pair);
        }
    }
    // The judge's own settings for the run (a sanitizer's options), after the fixed ones.
    for (name, value) in request.env {
        let mut pair = name.as_bytes().to_vec();
        pair.push(b'=');
        pair.extend_from_slice(value.as_bytes());
        env.push(pair);
    }
    let rlimits = process::rlimit_plan(limits, Scope::Process, request.address_space_cap)
        .into_iter()
        .flatten()
        .map(|(resource, value)| match resource {
            nix::sys::resource::Resource::RLIMIT_NPROC if nproc_counts_namespace() => {
                (resource as i64, NAMESPACE_TASKS)
            }
            _ => (resource as i64, value),
        })
        .chain([(
            nix::sys::resource::Resource::RLIMIT_NOFILE as i64,
            program_files(),
        )])
        .collect();
    Ok(Plan {
        launch: Launch {
            argv,
            env,
            exec,
            rlimits,
            memory_cap: limits.memory_bytes.saturating_add(CAP_SLACK),
            extra_fds,
            syscall_filter: request.syscall_filter,
            // What it writes in its folder is memory: at most its memory limit of it.
            scratch_room: (limits.memory_bytes < u64::MAX).then_some(limits.memory_bytes),
            files: Vec::new(),
            output_file: None,
            workdir: None,
        },
        args: request.args,
        extra,
        prefixes,
    })
}

/// [`PROGRAM_FILES`], or the judge's own hard limit when that is lower (an unprivileged
/// process cannot go above it).
fn program_files() -> u64 {
    static FILES: OnceLock<u64> = OnceLock::new();
    *FILES.get_or_init(|| {
        let hard = nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE)
            .map_or(u64::MAX, |(_, hard)| hard);
        PROGRAM_FILES.min(hard)
    })
}

/// The program as a path: a bare name is looked up in `PATH` (ours: the sandbox's is a subset).
fn resolve(program: &Path) -> io::Result<PathBuf> {
    if program.components().nth(1).is_some() || program.is_absolute() {
        let path = if program.is_absolute() {
            program.to_path_buf()
        } else {
            std::env::current_dir()?.join(program)
        };
        // A version manager's shim (pyenv, rbenv, asdf: `…/shims/python3`, a shell script
        // calling the manager under `$HOME`) cannot work inside: the system's program of that
        // name stands in for it.
        if path.parent().and_then(Path::file_name) == Some("shims".as_ref()) {
            if let Some(name) = path.file_name() {
                return resolve(Path::new(name));
            }
        }
        return Ok(path);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not found in PATH"))?;
    // A version manager's shim (pyenv's `python3` is a shell script calling `pyenv` under
    // `$HOME`) cannot work inside: take the system's program of that name when there is one.
    let usable = std::fs::canonicalize(&found).is_ok_and(|real| {
        view::is_system(&real) || view::install_prefix(&real, hidden_folders()).is_some()
    });
    if !usable {
        let system = SANDBOX_PATH
            .trim_start_matches("PATH=")
            .split(':')
            .map(|dir| Path::new(dir).join(program))
            .find(|candidate| candidate.is_file());
        if let Some(system) = system {
            return Ok(system);
        }
    }
    Ok(found)
}

/// `path` as the program sees it when it names something in the run's folder `workdir` (its
/// `/tmp`): `/tmp/feedback/` for `WORKDIR/feedback/`, a trailing slash kept. Compared as
/// written: the judge names such paths from the folder it made.
fn as_seen_inside(path: &std::ffi::OsStr, workdir: &Path) -> Option<Vec<u8>> {
    let folder = workdir.as_os_str().as_bytes();
    let rest = path.as_bytes().strip_prefix(folder)?;
    if !rest.starts_with(b"/") || rest.split(|&b| b == b'/').any(|part| part == b"..") {
        return None;
    }
    let mut inside = b"/tmp".to_vec();
    inside.extend_from_slice(rest);
    Some(inside)
}

/// The file `arg` names when it is a regular file the sandbox does not show (a submission's
/// source, for an interpreter), to be copied into the run's own folder (its `/tmp`), where
/// the program reads the copy by an ordinary path (Node.js resolves its script's real path,
/// which a memfd has not) and can change nothing of the original. With its file name.
fn source_to_copy(arg: &OsString) -> io::Result<Option<(PathBuf, File)>> {
    let path = Path::new(arg);
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(None);
    };
    if !meta.is_file() {
        return Ok(None);
    }
    if std::fs::canonicalize(path).is_ok_and(|c| view::is_system(&c)) {
        return Ok(None);
    }
    let name = PathBuf::from(path.file_name().unwrap_or("file".as_ref()));
    Ok(Some((name, File::open(path)?)))
}

/// What [`sealed_copy`] copies: a file's bytes, or bytes at hand.
enum Source<'a> {
    File(File),
    Bytes(&'a [u8]),
}

/// A memfd holding `source`'s bytes, sealed against any change.
fn sealed_copy(source: Source<'_>, name: &str) -> io::Result<OwnedFd> {
    use nix::sys::memfd::{memfd_create, MFdFlags};
    let name = if name.contains('\0') { "file" } else { name };
    let fd = memfd_create(name, MFdFlags::MFD_CLOEXEC | MFdFlags::MFD_ALLOW_SEALING)?;
    let mut file = File::from(fd);
    match source {
        Source::File(mut from) => {
            if !send_whole(&from, &file)? {
                io::copy(&mut from, &mut file)?;
            }
        }
        Source::Bytes(bytes) => io::Write::write_all(&mut file, bytes)?,
    }
    let seals = libc::F_SEAL_WRITE | libc::F_SEAL_GROW | libc::F_SEAL_SHRINK | libc::F_SEAL_SEAL;
    // SAFETY: fcntl on a descriptor we own, integer argument.
    if unsafe { libc::fcntl(file.as_raw_fd(), libc::F_ADD_SEALS, seals) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // A fresh open file description reads from the start.
    let reopened = File::open(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    Ok(OwnedFd::from(reopened))
}

/// Copies the rest of `from` to `to` in the kernel, as every case's input is copied: `false`
/// when `from` cannot be sent that way (a pipe), with nothing copied. `io::copy` tries
/// `copy_file_range` first, which a memfd never takes from another file system, after a
/// `statx` of each file: three calls a run for nothing.
fn send_whole(from: &File, to: &File) -> io::Result<bool> {
    let mut sent_any = false;
    loop {
        // SAFETY: two descriptors we hold; no offset pointer, so each file's own advances.
        let n = unsafe {
            libc::sendfile(
                to.as_raw_fd(),
                from.as_raw_fd(),
                std::ptr::null_mut(),
                1 << 30,
            )
        };
        match n {
            0 => return Ok(true),
            1.. => sent_any = true,
            _ => {
                let error = io::Error::last_os_error();
                match error.raw_os_error() {
                    Some(libc::EINTR) => {}
                    Some(libc::EINVAL | libc::ENOSYS) if !sent_any => return Ok(false),
                    _ => return Err(error),
                }
            }
        }
    }
}

/// Why a sandboxed run has no result.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The program could not be started (not found, not executable).
    Start(io::Error),
    /// The sandbox itself failed.
    Lost(io::Error),
    /// The input file could not be opened.
    Stdin(PathBuf, io::Error),
}

/// Runs `request` in a sandbox with `workdir` as its working folder and /tmp (`None`: the
/// worker's own folder, emptied after the run).
pub(crate) fn run(
    request: &RunRequest<'_>,
    workdir: Option<&Path>,
    capture: &mut Capture,
) -> Result<Supervised, Failure> {
    // The input first, as the plain runner opens it: a missing one is said before a
    // missing program. Opened once, straight into its copy.
    let stdin = match request.stdin {
        Stdin::File(path) => File::open(path)
            .map_err(|source| Failure::Stdin(path.to_path_buf(), source))
            .and_then(|file| sealed_copy(Source::File(file), "stdin").map_err(Failure::Lost))?,
        Stdin::Bytes(bytes) => sealed_copy(Source::Bytes(bytes), "stdin").map_err(Failure::Lost)?,
        // `run` sends only these three here; anything else is read as nothing.
        Stdin::Null | Stdin::Fd(_) => File::open("/dev/null")
            .map(OwnedFd::from)
            .map_err(Failure::Lost)?,
    };
    let plan = plan(request, &request.limits, workdir).map_err(Failure::Start)?;
    run_planned(request, plan, stdin, workdir, capture)
}

fn run_planned(
    request: &RunRequest<'_>,
    plan: Plan<'_>,
    stdin: OwnedFd,
    workdir: Option<&Path>,
    capture: &mut Capture,
) -> Result<Supervised, Failure> {
    let lost = Failure::Lost;
    let (stdout_read, stdout_write) =
        nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(|e| lost(e.into()))?;
    let (stderr_read, stderr_write) =
        nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(|e| lost(e.into()))?;
    let moved = Moved {
        files: request.files,
        output_file: request.output_file,
    };
    let launched = launch(plan, workdir, moved, [stdin, stdout_write, stderr_write])?;
    let streams = Streams::new(File::from(stdout_read), File::from(stderr_read)).map_err(lost)?;
    let mut launched = launched;
    let measured = supervise(&mut launched, &request.limits, streams, capture).map_err(lost)?;
    let Launched { zygote, .. } = launched;
    // The zygote answered in full: it can take the next run.
    give_back(zygote);
    measured.map_err(Failure::Start)
}

/// A run a zygote's init has started: the program's pidfd, and when the judge asked for it.
pub(crate) struct Launched {
    zygote: Zygote,
    pidfd: OwnedFd,
    started: Instant,
    /// The worker's `cpuacct` counter before the run, where there is one.
    cpu_before: Option<Duration>,
    /// How long the init had waited for a CPU before it was sent the run: what it waits from
    /// then on (to start the program, to take in its end) is the machine's, not the program's.
    init_delay_before: Duration,
    /// Bytes of the worker's folder in use before the program started (its placed files).
    scratch_base: u64,
}

impl Launched {
    /// What the sockets of the worker's network namespace count for now, where no cgroup
    /// charges them (0 where one does): every one there is the run's, since nothing else
    /// makes sockets in it.
    fn socket_bytes(&self) -> u64 {
        let Some(sockstat) = &self.zygote.sockstat else {
            return 0;
        };
        let mut buf = [0u8; 64];
        let used = super::sys::read_small(sockstat, &mut buf)
            .ok()
            .and_then(|n| sockets_used(&String::from_utf8_lossy(&buf[..n])));
        used.unwrap_or(0).saturating_mul(socket_charge())
    }

    /// Bytes of files the program has in its folder now, above those placed there.
    fn scratch_bytes(&self) -> u64 {
        self.zygote.scratch.as_ref().map_or(0, |folder| {
            super::init::used_bytes(folder).saturating_sub(self.scratch_base)
        })
    }
}

impl Launched {
    /// The watch of a sandboxed run: its wall bound pushed back by the time its tree waited
    /// for a CPU; where a cgroup counts the tree, its CPU counter read, else its memory and
    /// CPU time sampled from /proc every few milliseconds.
    pub(super) fn plan(&self, limits: &Limits) -> watch::Plan {
        let cgroup = self.zygote._cgroup.is_some();
        watch::Plan {
            wall: Some(limits.wall_time),
            push_back: true,
            cpu_limit: limits.cpu_time,
            // What one process may use under its own RLIMIT_CPU: the tree, however it is
            // counted, is stopped past it.
            cpu_stop: process::cpu_backstop(limits.cpu_time),
            sampling: (!cgroup).then_some(Sampling {
                limit: limits.memory_bytes,
                first: watch::FIRST_SAMPLE,
                every: watch::SAMPLE_EVERY,
            }),
            counter: (cgroup && self.cpu_before.is_some()).then(cores),
        }
    }
}

/// What the watch reads of a sandboxed run: its tree under the worker's init, in the judge's
/// /proc, its folder's use, and the worker's `cpuacct` counter.
impl Probe for Launched {
    fn schedstat(&mut self) -> Schedstat {
        let tree = tree::schedstat(self.zygote.init);
        let init = self
            .zygote
            .init_run_delay()
            .saturating_sub(self.init_delay_before);
        Schedstat {
            cpu_time: tree.cpu_time,
            // The init works before the program starts and after it ends, while the program
            // waits for it or is gone: its waits come on top of the program's.
            run_delay: tree.run_delay + init,
        }
    }

    fn ended(&mut self) -> bool {
        super::sys::readable_now(self.pidfd.as_raw_fd())
    }

    fn sample(&mut self) -> Option<Sample> {
        let mut sample = tree::sample(self.zygote.init, process::page_size());
        // Its folder is memory too: the files it wrote count with its processes'.
        sample.files = self.scratch_bytes();
        // And, where no cgroup charges them, what its sockets may hold, any process's.
        sample.sockets = self.socket_bytes();
        Some(sample)
    }

    fn cpu_used(&mut self) -> Option<Duration> {
        let total = self.zygote._cgroup.as_ref()?.cpu_used()?;
        Some(total.saturating_sub(self.cpu_before?))
    }
}

/// The CPUs this process may run on, read once.
fn cores() -> u32 {
    static CORES: OnceLock<u32> = OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(1))
    })
}

impl Launched {
    /// Kills the program, and has the init kill every other process of the run at once.
    fn stop(&self) {
        crate::sandbox::sys::pidfd_kill(self.pidfd.as_raw_fd());
        // A lost init ends its namespace with it: nothing to stop then.
        let _ = wire::send_bytes(self.zygote.socket.as_raw_fd(), wire::STOP, &[]);
    }
}

/// The files a run brings into the worker's folder and takes out of it.
#[derive(Clone, Copy, Default)]
struct Moved<'a> {
    files: &'a [(&'a str, &'a Path)],
    output_file: Option<&'a str>,
}

/// Sends the run to a zygote with `stdio` (stdin, stdout, stderr; closed here once sent), in
/// `workdir` or the worker's own folder.
fn launch(
    plan: Plan<'_>,
    workdir: Option<&Path>,
    moved: Moved<'_>,
    stdio: [OwnedFd; 3],
) -> Result<Launched, Failure> {
    let lost = Failure::Lost;
    let mut plan = plan;
    if let Some(workdir) = workdir {
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            // The program runs as `nobody`: let it write in its folder.
            std::os::unix::fs::chown(workdir, Some(NOBODY), Some(NOBODY)).map_err(lost)?;
        }
        let relative = workdir.strip_prefix(scratch::scratch_root()).map_err(|_| {
            lost(io::Error::other(format!(
                "the working folder `{}` is not under the scratch root `{}`",
                workdir.display(),
                scratch::scratch_root().display()
            )))
        })?;
        plan.launch.workdir = Some(relative.as_os_str().as_bytes().to_vec());
    }

    // The init copies these into the run's folder: the request's files (a caller's own
    // folder has them already), then private copies of file arguments.
    let mut names: Vec<PathBuf> = Vec::new();
    let mut placed: Vec<File> = Vec::new();
    if workdir.is_none() {
        for &(name, source) in moved.files {
            let plain = !name.is_empty() && name != "." && name != ".." && !name.contains('/');
            let file = if plain {
                File::open(source)
            } else {
                Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a plain file name",
                ))
            };
            let file = file.map_err(|error| {
                Failure::Start(io::Error::new(
                    error.kind(),
                    format!(
                        "cannot put `{}` in its folder as `{name}`: {error}",
                        source.display()
                    ),
                ))
            })?;
            names.push(PathBuf::from(name));
            placed.push(file);
        }
        plan.launch.output_file = moved.output_file.map(|name| name.as_bytes().to_vec());
    }
    for arg in plan.args {
        // A path in the run's own folder (a package validator's feedback folder) is named as
        // the program sees it.
        if let Some(inside) = workdir.and_then(|folder| as_seen_inside(arg, folder)) {
            plan.launch.argv.push(inside);
            continue;
        }
        let Some((name, file)) = source_to_copy(arg).map_err(Failure::Start)? else {
            plan.launch.argv.push(arg.as_bytes().to_vec());
            continue;
        };
        let taken = |candidate: &Path| {
            names.iter().any(|n| n == candidate)
                || workdir.is_some_and(|folder| folder.join(candidate).exists())
        };
        let mut copy_name = name.clone();
        let mut n = 1;
        while taken(&copy_name) {
            n += 1;
            copy_name = PathBuf::from(format!("{n}-{}", name.display()));
        }
        plan.launch.argv.push(
            Path::new("/tmp")
                .join(&copy_name)
                .into_os_string()
                .into_vec(),
        );
        names.push(copy_name);
        placed.push(file);
    }
    plan.launch.files = names
        .into_iter()
        .map(|name| name.into_os_string().into_vec())
        .collect();

    let zygote = take(&plan.prefixes).map_err(lost)?;
    let socket = zygote.socket.as_raw_fd();
    let [stdin, stdout, stderr] = &stdio;
    let mut fds = wire::raw(&[stdin, stdout, stderr]);
    fds.extend(plan.extra.iter().map(std::os::fd::AsRawFd::as_raw_fd));
    fds.extend(placed.iter().map(std::os::fd::AsRawFd::as_raw_fd));
    let cpu_before = zygote._cgroup.as_ref().and_then(WorkerCgroup::cpu_used);
    let init_delay_before = zygote.init_run_delay();
    let started = Instant::now();
    wire::send(socket, &plan.launch, &fds).map_err(lost)?;
    drop((stdio, plan.extra, placed));
    match wire::receive::<Reply>(socket).map_err(lost)? {
        Some((Reply::Started { scratch_base }, mut fds)) if fds.len() == 1 => Ok(Launched {
            zygote,
            pidfd: fds.remove(0),
            started,
            cpu_before,
            init_delay_before,
            scratch_base,
        }),
        // The init ends after a failed run: this zygote is dropped, not given back.
        Some((Reply::Failed(why), _)) => Err(lost(io::Error::other(why))),
        _ => Err(lost(io::Error::other(
            "the sandbox helper stopped answering",
        ))),
    }
}

/// A sandboxed program whose pipes its caller serves itself (an interactive submission, whose
/// stdin and stdout the judge relays): the caller polls [`Started::socket`], which turns
/// readable once the run has ended, then calls [`Started::finish`].
pub(crate) struct Started {
    launched: Option<Launched>,
}

impl Started {
    pub(crate) fn launched(&self) -> &Launched {
        self.launched.as_ref().expect("only `finish` takes it")
    }

    /// The zygote's socket: readable when the run has ended.
    pub(crate) fn socket(&self) -> RawFd {
        self.launched().zygote.socket.as_raw_fd()
    }

    /// Kills the whole run: its program, and with it (the init sees to that) every process
    /// of its namespace.
    pub(crate) fn kill(&self) {
        self.launched().stop();
    }

    /// What the watch reads of it.
    pub(crate) fn launched_mut(&mut self) -> &mut Launched {
        self.launched.as_mut().expect("only `finish` takes it")
    }

    /// What the zygote measured, once [`Started::socket`] is readable.
    pub(crate) fn finish(mut self) -> io::Result<Finished> {
        let launched = self.launched.take().expect("finished once");
        match wire::receive::<Reply>(launched.zygote.socket.as_raw_fd())? {
            Some((Reply::Finished(finished), _)) => {
                give_back(launched.zygote);
                Ok(finished)
            }
            Some((Reply::Failed(why), _)) => Err(io::Error::other(why)),
            Some((other, _)) => Err(io::Error::other(format!("unexpected {other:?}"))),
            None => Err(io::Error::other("the sandbox helper died")),
        }
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        // Given up on before it ended (the judge's error, Ctrl-C): nothing of it stays.
        if let Some(launched) = &self.launched {
            crate::sandbox::sys::pidfd_kill(launched.pidfd.as_raw_fd());
        }
    }
}

/// Starts `request` in a sandbox with the caller's `stdin`, `stdout` and `stderr` (pipes it
/// serves), in `workdir`, which must be under the scratch root (`None`: the worker's folder).
pub(crate) fn start(
    request: &RunRequest<'_>,
    workdir: Option<&Path>,
    stdio: [OwnedFd; 3],
) -> Result<Started, Failure> {
    let plan = plan(request, &request.limits, workdir).map_err(Failure::Start)?;
    let launched = launch(plan, workdir, Moved::default(), stdio)?;
    Ok(Started {
        launched: Some(launched),
    })
}

/// What the watch reads of a run this thread serves: the run's own readings, and this
/// thread's waits for a CPU since it started, for while the judge is late to drain the
/// program's pipes the program waits for the judge, not for its own work.
struct Served<'a> {
    launched: &'a mut Launched,
    judge_delay_before: Duration,
}

impl Probe for Served<'_> {
    fn schedstat(&mut self) -> Schedstat {
        let run = self.launched.schedstat();
        let judge = tree::own_run_delay().saturating_sub(self.judge_delay_before);
        Schedstat {
            cpu_time: run.cpu_time,
            run_delay: run.run_delay + judge,
        }
    }

    fn sample(&mut self) -> Option<Sample> {
        self.launched.sample()
    }

    fn cpu_used(&mut self) -> Option<Duration> {
        self.launched.cpu_used()
    }

    fn ended(&mut self) -> bool {
        self.launched.ended()
    }
}

/// Watches one run; the inner error is an exec that failed (the program never started).
fn supervise(
    launched: &mut Launched,
    limits: &Limits,
    mut streams: Streams,
    capture: &mut Capture,
) -> io::Result<io::Result<Supervised>> {
    let started = launched.started;
    // A cancelled task of `harness serve` kills its program as the watch would.
    let _task = crate::sandbox::interrupt::register_pidfd(launched.pidfd.as_fd());
    let socket_fd = launched.zygote.socket.as_raw_fd();
    // SAFETY: a borrowed view of the socket for poll; `ManuallyDrop` never closes it.
    let socket = std::mem::ManuallyDrop::new(unsafe { OwnedFd::from_raw_fd(socket_fd) });
    let mut watch = Watch::new(launched.plan(limits), started);
    let judge_delay_before = tree::own_run_delay();
    let (exited_at, finished, mut fds) = loop {
        let now = Instant::now();
        let mut probe = Served {
            launched: &mut *launched,
            judge_delay_before,
        };
        if watch.look(now, &mut probe).is_some() {
            launched.stop();
        }
        let ready = streams.poll(Some(&socket), watch.wake(now))?;
        if streams.service(ready, capture)? && watch.hit().is_none() {
            launched.stop();
            watch.stopped(LimitHit::Output);
        }
        if ready.pidfd {
            let at = Instant::now();
            match wire::receive::<Reply>(socket_fd)? {
                Some((Reply::Finished(finished), fds)) => break (at, finished, fds),
                Some((Reply::Failed(why), _)) => return Err(io::Error::other(why)),
                Some((other, _)) => return Err(io::Error::other(format!("unexpected {other:?}"))),
                None => return Err(io::Error::other("the sandbox helper died")),
            }
        }
    };
    streams.drain(capture)?;
    let mut limit_hit = streams.settled(watch.hit(), capture);
    if finished.hit_memory_cap {
        limit_hit.get_or_insert(LimitHit::Memory);
    }
    let termination = match finished.outcome {
        Outcome::Status(status) => process::termination(status),
        Outcome::ExecFailed(errno) => return Ok(Err(io::Error::from_raw_os_error(errno))),
    };
    let (peak_memory_bytes, resident_peak_bytes) = memory_figures(&finished, watch.peak());
    // Passed back by the init, opened without following it: a regular file of the run's.
    let output_file = finished.output_file.clone().map(|opened| {
        opened.and_then(|()| {
            let fd = fds.pop().ok_or_else(|| {
                OutputFileError::Io("the sandbox passed no output file".to_owned())
            })?;
            super::beneath::read_bounded(File::from(fd), limits.output_bytes)
        })
    });
    Ok(Ok(Supervised {
        termination,
        limit_hit,
        scratch_bytes: watch.files_peak().max(finished.scratch_bytes),
        socket_bytes: watch.sockets_peak(),
        output_file,
        // The counter's (or the samples') last reading is the floor: a tree stopped for it is
        // over the limit.
        cpu_time: finished_cpu(&finished).max(watch.cpu_seen()),
        wall_time: exited_at.saturating_duration_since(started),
        peak_memory_bytes,
        resident_peak_bytes,
    }))
}

/// The CPU time of the whole tree, as the init reaped it.
pub(super) fn finished_cpu(finished: &Finished) -> Duration {
    Duration::from_micros(finished.user_micros + finished.system_micros)
}

/// A sandboxed run's memory: the measure MLE is decided on, and the figure shown.
///
/// A cgroup's peak is the tree's own memory; where there is none, the samples of its
/// processes and the largest `ru_maxrss`, which includes the high-water mark of the init's
/// address space, which the program was exec'd from (a few MiB). What /usr/bin/time shows
/// counts the pages a program shares (libc's), which the cgroup leaves out: the figure shown
/// is the larger of the tree's measure and the `ru_maxrss` of its processes, the program's
/// own (read by the init at its exit) in place of the init's.
pub(super) fn memory_figures(finished: &Finished, sampled_peak: u64) -> (u64, u64) {
    let max_rss = finished.max_rss_kib.saturating_mul(1024);
    let own_max_rss = finished.own_max_rss_kib.saturating_mul(1024);
    let decided = finished
        .cgroup_peak
        .unwrap_or_else(|| sampled_peak.max(max_rss));
    let measured = finished.cgroup_peak.unwrap_or(sampled_peak);
    (decided, measured.max(own_max_rss))
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_input_is_copied_whole_from_a_file_or_a_pipe() {
        use std::io::{Read, Seek, Write};
        // More than one pipe buffer, so neither way can stop after one call.
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let read_back = |fd: std::os::fd::OwnedFd| {
            let mut copy = Vec::new();
            std::fs::File::from(fd).read_to_end(&mut copy).unwrap();
            copy
        };
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bytes).unwrap();
        file.rewind().unwrap();
        let copy = super::sealed_copy(super::Source::File(file), "stdin").unwrap();
        assert!(read_back(copy) == bytes, "from a file");
        // A pipe cannot be sent from: the copy falls back to reading it.
        let (reader, mut writer) = std::io::pipe().unwrap();
        let sent = bytes.clone();
        let writing = std::thread::spawn(move || writer.write_all(&sent));
        let from_pipe = std::fs::File::from(std::os::fd::OwnedFd::from(reader));
        let copy = super::sealed_copy(super::Source::File(from_pipe), "stdin").unwrap();
        writing.join().unwrap().unwrap();
        assert!(read_back(copy) == bytes, "from a pipe");
    }

    #[test]
    fn sockstat_gives_the_sockets_in_use() {
        let table = [
            (
                "sockets: used 17\nTCP: inuse 1 orphan 0 tw 0 alloc 1 mem 0\n",
                Some(17),
            ),
            ("sockets: used 0\n", Some(0)),
            ("sockets: used 8000", Some(8000)),
            ("TCP: inuse 1\nsockets: used 3\n", None),
            ("sockets: used x\n", None),
            ("", None),
        ];
        for (text, expected) in table {
            assert_eq!(super::sockets_used(text), expected, "{text:?}");
        }
        // Two full default buffers and a little: a socket's most at 212,992-byte buffers.
        assert!(super::socket_charge() >= 2 * super::DEFAULT_SOCKET_BUFFER);
    }

    #[test]
    fn paths_in_the_run_folder_are_named_as_inside() {
        use std::ffi::OsStr;
        let folder = std::path::Path::new("/dev/shm/harness-run-1");
        let table: [(&str, Option<&str>); 6] = [
            ("/dev/shm/harness-run-1/feedback/", Some("/tmp/feedback/")),
            (
                "/dev/shm/harness-run-1/program/run",
                Some("/tmp/program/run"),
            ),
            ("/dev/shm/harness-run-1", None),
            ("/dev/shm/harness-run-10/x", None),
            ("/dev/shm/harness-run-1/../x", None),
            ("/etc/passwd", None),
        ];
        for (path, inside) in table {
            assert_eq!(
                super::as_seen_inside(OsStr::new(path), folder),
                inside.map(|i| i.as_bytes().to_vec()),
                "{path}"
            );
        }
    }

    #[test]
    fn kernel_releases_compare_by_major_then_minor() {
        let table = [
            ("6.18.44-fc-v857", true),
            ("5.14.0-362.el9.x86_64", true),
            ("5.13.19", false),
            ("4.19.0-27-amd64", false),
            ("5.15", true),
            ("", false),
            ("weird", false),
        ];
        for (release, expected) in table {
            assert_eq!(
                super::kernel_at_least(release, (5, 14)),
                expected,
                "{release}"
            );
        }
    }
}
