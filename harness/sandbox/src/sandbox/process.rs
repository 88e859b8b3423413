//! The parts of one child process that every way to run shares: what to start it with
//! ([`Start`], [`ChildIo`]) and its rlimits ([`rlimit_plan`]), what a started one is
//! ([`Started`]), its process group ([`Group`]: killed and reaped), the reading of its pipes
//! ([`Streams`]), and the wait status and rusage read back. The plain runner (`unix`), the
//! `launcher`, the sandbox's `client` and `pair` build on these.

use std::borrow::Cow;
use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::resource::{getrlimit, rlim_t, Resource};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

use super::outcome::{Capture, LimitHit, Termination};
use super::request::{Limits, Scope};

/// Room above the memory limit for the address space. `RLIMIT_AS` only stops a runaway
/// reservation; below this the verdict comes from peak RSS, since an address-space failure
/// looks like a crash.
const ADDRESS_SPACE_SLACK: u64 = 2 << 30;

/// Largest file the program may write: keeps a runaway writer from filling the disk.
pub(super) const FILE_SIZE_LIMIT: u64 = 1 << 30;

/// Processes (threads, in fact) per user. Unenforced for root: the group kill is what cleans up.
const PROCESS_LIMIT: u64 = 4096;

/// How often to look for the exit when there is no pidfd to wake us.
pub(super) const EXIT_TICK: Duration = Duration::from_millis(2);

/// How long to wait for the pipes to close once the group is dead. Only a process that left
/// the group (setsid) can keep them open this long; what it wrote before is kept.
pub(crate) const DRAIN_GRACE: Duration = Duration::from_millis(250);

/// One read per wakeup: a default pipe holds 64 KiB, so this empties it.
pub(super) const READ_CHUNK: usize = 64 * 1024;

/// Everything needed to start one child.
pub(crate) struct Start<'a> {
    pub program: &'a Path,
    pub args: &'a [OsString],
    pub env: &'a [(OsString, OsString)],
    pub workdir: &'a Path,
    pub stdin: ChildIo,
    pub stdout: ChildIo,
    pub stderr: ChildIo,
    pub limits: &'a Limits,
    pub scope: Scope,
    /// `RLIMIT_AS` set (see [`rlimit_plan`]).
    pub address_space_cap: bool,
}

/// What one of the child's standard streams is connected to.
pub(crate) enum ChildIo {
    Null,
    /// A pipe whose other end the runner keeps (stdout and stderr: it reads them).
    Pipe,
    Fd(OwnedFd),
}

impl From<ChildIo> for Stdio {
    fn from(io: ChildIo) -> Stdio {
        match io {
            ChildIo::Null => Stdio::null(),
            ChildIo::Pipe => Stdio::piped(),
            ChildIo::Fd(fd) => Stdio::from(fd),
        }
    }
}

/// A child that runs: its pid (also its process group's id) and the read ends of the pipes
/// the runner captures.
pub(crate) struct Started {
    pub pid: libc::pid_t,
    pub started: Instant,
    pub stdout: Option<File>,
    pub stderr: Option<File>,
}

/// The CPU time at which a run is stopped: the limit in whole seconds, and one more. Verdicts
/// read the CPU time itself; the slack lets a program that is over two limits at once show the
/// first it broke in the order verdicts are checked (a 1 GiB memset is MLE after 0.33 s of CPU
/// on an idle machine and after 1.05 s on a busy one, where page faults cost more).
pub(crate) fn cpu_backstop(limit: Duration) -> Duration {
    Duration::from_secs(limit.as_secs() + u64::from(limit.subsec_nanos() > 0) + 1)
}

/// The rlimits of one run, each as soft = hard. A group's memory is watched as a whole, so its
/// members get no stack or address-space limit of their own (`None`); without
/// `address_space_cap` (a sanitized program) there is no address-space limit either.
pub(crate) fn rlimit_plan(
    limits: &Limits,
    scope: Scope,
    address_space_cap: bool,
) -> [Option<(Resource, rlim_t)>; 6] {
    // Each process's own, where the kernel counts only whole seconds.
    let cpu_seconds = cpu_backstop(limits.cpu_time).as_secs();
    let memory = limits.memory_bytes;
    // `raise`: may go above the harness's own soft limit (up to its hard limit, which an
    // unprivileged process cannot exceed, so the spawn never fails on it).
    let wanted = [
        (Resource::RLIMIT_CPU, cpu_seconds, true),
        // Contest code recurses deeply: the whole memory limit may be stack.
        (Resource::RLIMIT_STACK, memory, true),
        (
            Resource::RLIMIT_AS,
            memory.saturating_add(ADDRESS_SPACE_SLACK),
            true,
        ),
        (Resource::RLIMIT_CORE, 0, false),
        (Resource::RLIMIT_NPROC, PROCESS_LIMIT, false),
        (Resource::RLIMIT_FSIZE, FILE_SIZE_LIMIT, false),
    ];
    wanted.map(|(resource, want, raise)| {
        let per_process_memory = matches!(resource, Resource::RLIMIT_STACK | Resource::RLIMIT_AS);
        if scope == Scope::Group && per_process_memory {
            return None;
        }
        if resource == Resource::RLIMIT_AS && !address_space_cap {
            return None;
        }
        let (soft, hard) = own_rlimit(resource);
        let ceiling = if raise { hard } else { soft };
        Some((resource, rlim_t::min(want, ceiling)))
    })
}

/// This process's own limit of `resource` (soft, hard), read once: the judge never changes
/// its own, and a plan is made for every run.
fn own_rlimit(resource: Resource) -> (rlim_t, rlim_t) {
    const RESOURCES: [Resource; 6] = [
        Resource::RLIMIT_CPU,
        Resource::RLIMIT_STACK,
        Resource::RLIMIT_AS,
        Resource::RLIMIT_CORE,
        Resource::RLIMIT_NPROC,
        Resource::RLIMIT_FSIZE,
    ];
    static OWN: OnceLock<[(rlim_t, rlim_t); 6]> = OnceLock::new();
    let read = |resource| getrlimit(resource).unwrap_or((rlim_t::MAX, rlim_t::MAX));
    match RESOURCES.iter().position(|&known| known == resource) {
        Some(index) => OWN.get_or_init(|| RESOURCES.map(read))[index],
        None => read(resource),
    }
}

/// The child's process group, killed and reaped on drop unless reaped already.
pub(super) struct Group {
    pub(super) pid: libc::pid_t,
    pub(super) reaped: bool,
    /// Lets Ctrl-C kill the group while it runs; given up before reaping, after which the
    /// group id may belong to someone else.
    pub(super) registered: Option<crate::sandbox::interrupt::Registered>,
}

impl Group {
    pub(super) fn kill(&self) {
        // ESRCH (nobody left) is the usual, happy case.
        let _ = killpg(Pid::from_raw(self.pid), Signal::SIGKILL);
    }

    /// Waits for the main process and returns its wait status and resource usage
    /// (its own and that of the children it waited for).
    pub(super) fn reap(&mut self) -> io::Result<(libc::c_int, libc::rusage)> {
        self.registered = None;
        loop {
            let mut status = 0;
            // SAFETY: rusage is plain data; wait4 fills it.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            // SAFETY: both pointers are valid for the call.
            let got = unsafe { libc::wait4(self.pid, &raw mut status, 0, &raw mut usage) };
            if got == self.pid {
                self.reaped = true;
                return Ok((status, usage));
            }
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if !self.reaped {
            self.kill();
            let _ = self.reap();
        }
    }
}

/// Which of the polled descriptors had something to say.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Ready {
    stdout: bool,
    stderr: bool,
    /// The third descriptor: a pidfd, or the sandbox's control socket.
    pub(crate) pidfd: bool,
}

/// The read ends of the child's stdout and stderr; `None` once at end of file.
pub(crate) struct Streams {
    pub(super) stdout: Option<File>,
    pub(super) stderr: Option<File>,
    pub(super) buf: Vec<u8>,
}

impl Streams {
    /// Non-blocking readers of a program's stdout and stderr pipes: read ends the judge has
    /// just made, whose only status flag is the one set here (no `F_GETFL` first: two calls a
    /// run fewer).
    pub(crate) fn new(stdout: File, stderr: File) -> io::Result<Streams> {
        for pipe in [&stdout, &stderr] {
            fcntl(pipe, FcntlArg::F_SETFL(OFlag::O_NONBLOCK))?;
        }
        Ok(Streams {
            stdout: Some(stdout),
            stderr: Some(stderr),
            buf: Vec::with_capacity(READ_CHUNK),
        })
    }

    pub(crate) fn is_open(&self) -> bool {
        self.stdout.is_some() || self.stderr.is_some()
    }

    /// Reads what is left once the program is gone, for at most [`DRAIN_GRACE`]: only a
    /// process that left the group (setsid) can hold the pipes open that long, and what it
    /// wrote before is kept.
    pub(crate) fn drain(&mut self, capture: &mut Capture) -> io::Result<()> {
        let grace_end = Instant::now() + DRAIN_GRACE;
        while self.is_open() && Instant::now() < grace_end {
            let ready = self.poll(None, Some(grace_end))?;
            self.service(ready, capture)?;
        }
        Ok(())
    }

    /// The run's limit once drained: a program that wrote past the output limit just before
    /// it ended is over it too.
    pub(crate) fn settled(&self, hit: Option<LimitHit>, capture: &Capture) -> Option<LimitHit> {
        hit.or(capture.stdout_truncated().then_some(LimitHit::Output))
    }

    /// Waits until a pipe or the pidfd is ready, or until `wake` (`None`: no timeout).
    pub(crate) fn poll(&self, pidfd: Option<&OwnedFd>, wake: Option<Instant>) -> io::Result<Ready> {
        // The slots that are open, in a fixed order, so each answer is found again below.
        let slots = [
            self.stdout.as_ref().map(AsFd::as_fd),
            self.stderr.as_ref().map(AsFd::as_fd),
            pidfd.map(AsFd::as_fd),
        ];
        let mut fds = [None, None, None];
        let mut polled: Vec<PollFd<'_>> = Vec::with_capacity(3);
        for (slot, fd) in slots.iter().enumerate() {
            if let Some(fd) = fd {
                fds[slot] = Some(polled.len());
                polled.push(PollFd::new(*fd, PollFlags::POLLIN));
            }
        }
        let timeout = match wake {
            None => PollTimeout::NONE,
            Some(wake) => {
                let left = wake.saturating_duration_since(Instant::now());
                // Round up: waking a little early would only spin.
                i32::try_from(left.as_micros().div_ceil(1000))
                    .ok()
                    .and_then(|ms| PollTimeout::try_from(ms).ok())
                    .unwrap_or(PollTimeout::MAX)
            }
        };
        match poll(&mut polled, timeout) {
            Ok(_) => {}
            Err(nix::errno::Errno::EINTR) => return Ok(Ready::default()),
            Err(error) => return Err(error.into()),
        }
        let ready =
            |slot: usize| fds[slot].is_some_and(|index| polled[index].any().unwrap_or(true));
        Ok(Ready {
            stdout: ready(0),
            stderr: ready(1),
            pidfd: ready(2),
        })
    }

    /// Reads one chunk from each ready pipe. Returns true when stdout went past the limit;
    /// stdout is then closed, so the runner never holds more than the limit.
    pub(crate) fn service(&mut self, ready: Ready, capture: &mut Capture) -> io::Result<bool> {
        let mut over = false;
        if ready.stdout {
            if let Some(file) = &self.stdout {
                match read_chunk(file, &mut self.buf)? {
                    Some(0) => self.stdout = None,
                    Some(_) if !capture.push_stdout(&self.buf) => {
                        over = true;
                        self.stdout = None;
                    }
                    Some(_) | None => {}
                }
            }
        }
        if ready.stderr {
            if let Some(file) = &self.stderr {
                match read_chunk(file, &mut self.buf)? {
                    Some(0) => self.stderr = None,
                    Some(_) => capture.push_stderr(&self.buf),
                    None => {}
                }
            }
        }
        Ok(over)
    }
}

/// One non-blocking read into `buf`, whose contents it replaces: `Some(0)` at end of file,
/// `None` when nothing is there after all. It reads into the buffer's spare capacity, which is
/// never zeroed: after the fork every page the judge writes to costs a page fault, so zeroing
/// 64 KiB per run would cost sixteen of them for a program that prints one line.
pub(super) fn read_chunk(file: &File, buf: &mut Vec<u8>) -> io::Result<Option<usize>> {
    buf.clear();
    let room = buf.spare_capacity_mut();
    // SAFETY: read writes at most `room.len()` bytes, into memory the buffer owns.
    let got = unsafe { libc::read(file.as_raw_fd(), room.as_mut_ptr().cast(), room.len()) };
    let Ok(got) = usize::try_from(got) else {
        let error = io::Error::last_os_error();
        return match error.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
            _ => Err(error),
        };
    };
    // SAFETY: the kernel initialized the first `got` bytes.
    unsafe { buf.set_len(got) };
    Ok(Some(got))
}

pub(super) fn set_nonblocking(file: &File) -> io::Result<()> {
    let flags = OFlag::from_bits_retain(fcntl(file, FcntlArg::F_GETFL)?);
    fcntl(file, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// A descriptor that polls readable once the process has ended; `None` where the kernel
/// has no pidfd_open (before Linux 5.3) or the platform is not Linux.
pub(super) fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: pidfd_open takes two integers and returns a new descriptor (close-on-exec).
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        if fd >= 0 {
            // SAFETY: the descriptor is fresh and ours alone.
            return Some(unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = pid;
    None
}

/// Whether the main process has ended, without reaping it (so its pid stays pinned).
pub(super) fn has_exited(pid: libc::pid_t) -> io::Result<bool> {
    // SAFETY: siginfo_t is plain data; waitid fills it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: info is valid for the call; pid is our unreaped child.
    if unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &raw mut info, flags) } != 0 {
        let error = io::Error::last_os_error();
        return match error.kind() {
            io::ErrorKind::Interrupted => Ok(false),
            _ => Err(error),
        };
    }
    // With WNOHANG and nobody to report, waitid leaves si_pid zero.
    // SAFETY: waitid succeeded, so the fields it reports are set.
    Ok(unsafe { info.si_pid() } != 0)
}

pub(crate) fn page_size() -> u64 {
    // SAFETY: sysconf reads a constant.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    u64::try_from(size).unwrap_or(4096)
}

pub(crate) fn termination(status: libc::c_int) -> Termination {
    if libc::WIFSIGNALED(status) {
        Termination::Signaled(libc::WTERMSIG(status))
    } else {
        // wait4 without WUNTRACED reports only exits and signal deaths.
        Termination::Exited(libc::WEXITSTATUS(status))
    }
}

pub(super) fn timeval(time: libc::timeval) -> Duration {
    let seconds = u64::try_from(time.tv_sec).unwrap_or(0);
    let micros = u32::try_from(time.tv_usec).unwrap_or(0);
    Duration::from_secs(seconds) + Duration::from_micros(u64::from(micros))
}

pub(super) fn max_rss_bytes(usage: &libc::rusage) -> u64 {
    let reported = u64::try_from(usage.ru_maxrss).unwrap_or(0);
    // Linux and the BSDs count KiB; macOS counts bytes.
    if cfg!(target_os = "macos") {
        reported
    } else {
        reported.saturating_mul(1024)
    }
}

/// The program path to exec. The child changes folder before exec, so a relative path with a
/// folder in it would be looked up from the run's folder: anchor it to ours instead.
pub(super) fn program_path(program: &Path) -> Cow<'_, Path> {
    if program.is_relative() && program.components().nth(1).is_some() {
        if let Ok(here) = std::env::current_dir() {
            return Cow::Owned(here.join(program));
        }
    }
    Cow::Borrowed(program)
}

/// The executable file a run of `program` starts: a path with a folder in it as it is, a bare
/// name looked up on `PATH` as exec does. For naming a missing tool before anything runs.
pub fn find_program(program: &Path) -> std::io::Result<PathBuf> {
    use std::io::{Error, ErrorKind};
    if program.components().count() > 1 {
        return if program.is_file() {
            Ok(program.to_path_buf())
        } else {
            Err(Error::new(ErrorKind::NotFound, "no such file"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    find_on_path(program, &path).ok_or_else(|| Error::new(ErrorKind::NotFound, "not found on PATH"))
}

/// The first executable file named `program` in the folders of `path` (a `PATH` value), as
/// exec looks a bare name up.
pub(crate) fn find_on_path(program: &Path, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}
