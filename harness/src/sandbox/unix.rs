//! Unix process control for the runner: rlimits, process groups, pidfd, poll, wait4 and /proc.
//!
//! One thread watches one run: `poll()` waits on the stdout pipe, the stderr pipe and a pidfd
//! (or short ticks of `waitid(WNOHANG)` where pidfds are missing), waking early only to sample
//! the program's resident memory and to enforce the wall clock. No thread is spawned per run,
//! so the cost of a tiny case stays close to the cost of a bare spawn.
//!
//! Limits of this design: a process that leaves the group (`setsid`, `setpgid`) escapes the
//! group kill, and with `Scope::Process` the memory watch sees the main process only (wait4
//! still folds in the children it waited for). Containing those takes cgroups or a PID
//! namespace.
//!
//! How a process is started is one function, [`start`]: everything after it (the watch, the
//! kill, the reaping) needs only a pid and the read ends of its pipes, so a start that goes
//! through a helper process inside namespaces can take its place.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::sys::resource::{getrlimit, rlim_t, setrlimit, Resource};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

use super::outcome::{Capture, LimitHit, Termination};
use super::request::{Limits, Scope};
use crate::sandbox::watch::{self, Plan, Probe, Sample, Sampling, Schedstat, Watch};

/// Room above the memory limit for the address space. `RLIMIT_AS` only stops a runaway
/// reservation; below this the verdict comes from peak RSS, since an address-space failure
/// looks like a crash.
const ADDRESS_SPACE_SLACK: u64 = 2 << 30;
/// Largest file the program may write: keeps a runaway writer from filling the disk.
const FILE_SIZE_LIMIT: u64 = 1 << 30;
/// Processes (threads, in fact) per user. Unenforced for root: the group kill is what cleans up.
const PROCESS_LIMIT: u64 = 4096;
/// How often to look for the exit when there is no pidfd to wake us.
pub(super) const EXIT_TICK: Duration = Duration::from_millis(2);
/// How long to wait for the pipes to close once the group is dead. Only a process that left
/// the group (setsid) can keep them open this long; what it wrote before is kept.
pub(crate) const DRAIN_GRACE: Duration = Duration::from_millis(250);
/// One read per wakeup: a default pipe holds 64 KiB, so this empties it.
pub(super) const READ_CHUNK: usize = 64 * 1024;

/// How the runner learns that the main process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExitWatch {
    /// A pidfd in the poll set (Linux ≥ 5.3), falling back to `Polling` when it cannot open one.
    Pidfd,
    /// `waitid(WNOHANG | WNOWAIT)` every few milliseconds.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "chosen by tests; runs pick it when pidfd_open fails"
        )
    )]
    Polling,
}

/// What the runner measured about the main process.
#[derive(Debug)]
pub(crate) struct Supervised {
    pub termination: Termination,
    pub limit_hit: Option<LimitHit>,
    pub cpu_time: Duration,
    pub wall_time: Duration,
    pub peak_memory_bytes: u64,
    /// The largest `ru_maxrss`, or `peak_memory_bytes` when larger.
    pub resident_peak_bytes: u64,
    /// The most its files in the sandbox's folder were seen to take (0 outside the sandbox).
    pub scratch_bytes: u64,
    /// The request's output file as the sandbox passed it back; `None` outside it.
    pub output_file: Option<Result<Vec<u8>, super::outcome::OutputFileError>>,
}

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

/// Starts a child in its own process group, under the rlimits of its limits and scope.
/// The one place a plain process is created: by the `launcher` when there is one, else by a
/// fork of this process.
pub(crate) fn start(start: Start<'_>) -> io::Result<Started> {
    // Through a small helper process where there is one: a fork of the judge costs more.
    #[cfg(target_os = "linux")]
    let start = match super::launcher::start(start) {
        Ok(started) => return started,
        Err(start) => start,
    };
    let mut command = Command::new(start.program);
    command
        .args(start.args)
        .envs(start.env.iter().map(|(name, value)| (name, value)))
        .current_dir(start.workdir)
        .stdin(start.stdin)
        .stdout(start.stdout)
        .stderr(start.stderr);
    confine(
        &mut command,
        start.limits,
        start.scope,
        start.address_space_cap,
    );
    let started = Instant::now();
    let mut child = spawn_retrying_busy_text(&mut command)?;
    let pipe = |pipe: Option<OwnedFd>| pipe.map(File::from);
    Ok(Started {
        // Child::id is the kernel's pid_t widened to u32, so it narrows back losslessly.
        pid: child.id() as libc::pid_t,
        started,
        stdout: pipe(child.stdout.take().map(OwnedFd::from)),
        stderr: pipe(child.stderr.take().map(OwnedFd::from)),
    })
    // Dropping `child` neither waits nor kills: `supervise` owns the process from here.
}

/// Spawns, trying again for a while when exec says "Text file busy": an executable written
/// by this process (a script, a fixture) is busy for as long as any child forked meanwhile
/// by another thread still holds the writing descriptor, until that child execs. The window
/// is short; waiting it out is the usual remedy (Go's os/exec does the same).
fn spawn_retrying_busy_text(command: &mut Command) -> io::Result<std::process::Child> {
    const TRIES: u32 = 50;
    let mut tries = 0;
    loop {
        match command.spawn() {
            Err(error) if error.raw_os_error() == Some(libc::ETXTBSY) && tries < TRIES => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(2));
            }
            result => return result,
        }
    }
}

/// Puts the child in its own process group and under rlimits set between fork and exec.
fn confine(command: &mut Command, limits: &Limits, scope: Scope, address_space_cap: bool) {
    let plan = rlimit_plan(limits, scope, address_space_cap);
    command.process_group(0);
    // SAFETY: between fork and exec only async-signal-safe calls are allowed; the closure
    // only calls setrlimit on values computed beforehand, and builds its error without
    // allocating.
    unsafe {
        command.pre_exec(move || {
            for &(resource, value) in plan.iter().flatten() {
                setrlimit(resource, value, value).map_err(io::Error::from)?;
            }
            Ok(())
        });
    }
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

/// The watch of a plain run: its wall bound pushed back by the time its group waited for a
/// CPU (where /proc says), and its memory sampled per scope, where /proc has it.
pub(super) fn plan(limits: &Limits, scope: Scope) -> Plan {
    let (first, every) = match scope {
        Scope::Process => (watch::FIRST_SAMPLE, watch::SAMPLE_EVERY),
        Scope::Group => (watch::GROUP_SAMPLE_EVERY, watch::GROUP_SAMPLE_EVERY),
    };
    let proc = cfg!(any(target_os = "linux", target_os = "android"));
    Plan {
        wall: Some(limits.wall_time),
        push_back: cfg!(target_os = "linux"),
        cpu_limit: limits.cpu_time,
        cpu_stop: cpu_backstop(limits.cpu_time),
        sampling: (proc && limits.memory_bytes < u64::MAX).then_some(Sampling {
            limit: limits.memory_bytes,
            first,
            every,
        }),
        counter: None,
    }
}

/// Watches the spawned child until it ends, enforcing the wall clock, memory and output
/// limits; then kills its whole group, reaps it with `wait4` and drains its pipes.
pub(crate) fn supervise(
    child: Started,
    limits: &Limits,
    scope: Scope,
    capture: &mut Capture,
    exits: ExitWatch,
) -> io::Result<Supervised> {
    let Started {
        pid,
        started,
        stdout,
        stderr,
    } = child;
    // From here on, any early return kills and reaps the group.
    let mut group = Group {
        pid,
        reaped: false,
        registered: Some(crate::sandbox::interrupt::register(pid)),
    };
    let mut streams = Streams {
        stdout,
        stderr,
        buf: Vec::with_capacity(READ_CHUNK),
    };
    for pipe in [&streams.stdout, &streams.stderr].into_iter().flatten() {
        set_nonblocking(pipe)?;
    }
    let pidfd = match exits {
        ExitWatch::Pidfd => pidfd_open(pid),
        ExitWatch::Polling => None,
    };
    let mut watch = Watch::new(plan(limits, scope), started);
    let mut probe = GroupProbe::new(pid, scope);

    let exited_at = loop {
        let now = Instant::now();
        if watch.look(now, &mut probe).is_some() {
            group.kill();
        }
        if pidfd.is_none() && has_exited(pid)? {
            break now;
        }
        let mut wake = watch.wake(now);
        if pidfd.is_none() {
            wake = Some(wake.map_or(now + EXIT_TICK, |wake| wake.min(now + EXIT_TICK)));
        }
        let ready = streams.poll(pidfd.as_ref(), wake)?;
        if streams.service(ready, capture)? && watch.hit().is_none() {
            group.kill();
            watch.stopped(LimitHit::Output);
        }
        if ready.pidfd {
            break Instant::now();
        }
    };

    // Kill before reaping: the unreaped main process pins its pid, so the group id cannot
    // have been reused by an unrelated process.
    group.kill();
    let (status, usage) = group.reap()?;
    streams.drain(capture)?;
    let peak = max_rss_bytes(&usage).max(watch.peak());
    Ok(Supervised {
        termination: termination(status),
        limit_hit: streams.settled(watch.hit(), capture),
        cpu_time: timeval(usage.ru_utime) + timeval(usage.ru_stime),
        wall_time: exited_at.saturating_duration_since(started),
        peak_memory_bytes: peak,
        resident_peak_bytes: peak,
        scratch_bytes: 0,
        output_file: None,
    })
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
    stdout: Option<File>,
    stderr: Option<File>,
    buf: Vec<u8>,
}

impl Streams {
    /// Non-blocking readers of a program's stdout and stderr pipes.
    pub(crate) fn new(stdout: File, stderr: File) -> io::Result<Streams> {
        set_nonblocking(&stdout)?;
        set_nonblocking(&stderr)?;
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

/// What the watch reads of a plain run: the main process's resident memory (statm), or the
/// whole group's, and the schedstat of the main process and its descendants.
pub(super) struct GroupProbe {
    pid: libc::pid_t,
    scope: Scope,
    /// /proc/<pid>/statm, opened at the first sample and re-read in place.
    statm: Option<File>,
}

impl GroupProbe {
    pub(super) fn new(pid: libc::pid_t, scope: Scope) -> GroupProbe {
        GroupProbe {
            pid,
            scope,
            statm: None,
        }
    }

    fn resident_bytes(&mut self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        if self.statm.is_none() {
            self.statm = File::open(format!("/proc/{}/statm", self.pid)).ok();
        }
        let mut text = [0u8; 128];
        let n = self.statm.as_ref()?.read_at(&mut text, 0).ok()?;
        // statm: size resident shared text lib data dt, in pages.
        let pages: u64 = std::str::from_utf8(&text[..n])
            .ok()?
            .split_ascii_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        Some(pages.saturating_mul(page_size()))
    }
}

impl Probe for GroupProbe {
    fn schedstat(&mut self) -> Schedstat {
        #[cfg(target_os = "linux")]
        return super::tree::schedstat_from(self.pid);
        #[cfg(not(target_os = "linux"))]
        return Schedstat::default();
    }

    fn sample(&mut self) -> Option<Sample> {
        let resident = match self.scope {
            Scope::Process => self.resident_bytes(),
            Scope::Group => group_resident_bytes(self.pid),
        }?;
        Some(Sample {
            resident,
            ..Sample::default()
        })
    }

    fn cpu_used(&mut self) -> Option<Duration> {
        None
    }
}

/// The resident memory of every process in the group `group`, summed: a compiler's driver is
/// small, the compiler proper it starts is where the memory goes. `None` once nobody is left.
fn group_resident_bytes(group: libc::pid_t) -> Option<u64> {
    let mut total: u64 = 0;
    let mut found = false;
    for entry in fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        // Gone in between, or not ours to read: either way not in the group any more.
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some((pgrp, pages)) = parse_stat(&stat) {
            if pgrp == group {
                found = true;
                total = total.saturating_add(pages.saturating_mul(page_size()));
            }
        }
    }
    found.then_some(total)
}

/// The process group and the resident pages from a `/proc/<pid>/stat` line. The command name
/// is in parentheses and may hold spaces and parentheses itself, so fields count from the last
/// `)`: state ppid pgrp … with rss the 22nd field after it.
fn parse_stat(stat: &str) -> Option<(libc::pid_t, u64)> {
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_ascii_whitespace();
    let pgrp = fields.nth(2)?.parse().ok()?;
    let rss = fields.nth(18)?.parse().ok()?;
    Some((pgrp, rss))
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

/// Where runs get their scratch folders: a memory-backed tmpfs when there is one with room,
/// because making and removing a folder there costs microseconds, against a journaled disk
/// write per run (about a tenth of a tiny case's cost) in a disk-backed temp dir. An explicit
/// `TMPDIR` is obeyed; otherwise `$XDG_RUNTIME_DIR`, then `/dev/shm`, then the temp dir.
pub(crate) fn scratch_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        if std::env::var_os("TMPDIR").is_some() {
            return std::env::temp_dir();
        }
        let candidates = [
            std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from),
            Some(PathBuf::from("/dev/shm")),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|dir| is_roomy_tmpfs(dir))
            .unwrap_or_else(std::env::temp_dir)
    })
}

/// A writable tmpfs with room for the largest file a program may write: a small one (a
/// container's 64 MiB /dev/shm) would fail writes that the disk would take.
fn is_roomy_tmpfs(dir: &Path) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use nix::sys::{statfs, statvfs};
        use nix::unistd::{access, AccessFlags};
        let is_tmpfs =
            statfs::statfs(dir).is_ok_and(|fs| fs.filesystem_type() == statfs::TMPFS_MAGIC);
        #[cfg_attr(
            target_pointer_width = "64",
            expect(
                clippy::useless_conversion,
                reason = "the counts are 32-bit on 32-bit targets"
            )
        )]
        let room = statvfs::statvfs(dir).map_or(0, |fs| {
            u64::from(fs.blocks_available()).saturating_mul(u64::from(fs.fragment_size()))
        });
        is_tmpfs
            && room >= FILE_SIZE_LIMIT
            && access(dir, AccessFlags::W_OK | AccessFlags::X_OK).is_ok()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = dir;
        false
    }
}

/// Removes a run's scratch folder, even one the program filled or made unwritable.
/// The kinds of folder the harness makes under the scratch root (run.rs's `SCRATCH_PREFIX`,
/// stress's and the sandbox's worker folders).
const SCRATCH_KINDS: [&str; 3] = ["harness-run-", "harness-stress-", "harness-worker-"];
/// A stale folder is older than this: a live judge's folders are at most this young between
/// being made and being named here, and the sweep never races one.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// `kind` (one of [`SCRATCH_KINDS`]) followed by this process's PID namespace and pid, for a
/// folder under the scratch root: a judge killed before it could remove its folders (SIGKILL,
/// the OOM killer, a CI timeout) leaves them on a tmpfs, in memory, and the next judge to start
/// removes them when that pid is gone from its own namespace. The first call sweeps.
pub(crate) fn owned_prefix(kind: &str) -> String {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| sweep_stale(scratch_root(), std::time::SystemTime::now()));
    format!("{kind}{}", owner_tag())
}

/// `<pid namespace>-<pid>-` of this process.
fn owner_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| format!("{}-{}-", pid_namespace().unwrap_or(0), std::process::id()))
}

/// The inode of this process's PID namespace (`pid:[4026531836]`), or `None` without /proc.
fn pid_namespace() -> Option<u64> {
    let link = fs::read_link("/proc/self/ns/pid").ok()?;
    let text = link.to_str()?;
    text.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
}

/// The owner of a scratch folder name: `(namespace, pid)`.
fn scratch_owner(name: &str) -> Option<(u64, u32)> {
    let rest = SCRATCH_KINDS
        .iter()
        .find_map(|kind| name.strip_prefix(kind))?;
    let (namespace, rest) = rest.split_once('-')?;
    let (pid, _random) = rest.split_once('-')?;
    Some((namespace.parse().ok()?, pid.parse().ok()?))
}

/// Removes the folders under `root` whose judge is gone: named for this PID namespace (a pid
/// of another one cannot be checked from here), for a pid no longer running, and older than
/// [`STALE_AFTER`].
pub(crate) fn sweep_stale(root: &Path, now: std::time::SystemTime) {
    let Some(own_namespace) = pid_namespace() else {
        return;
    };
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let Some((namespace, pid)) = entry.file_name().to_str().and_then(scratch_owner) else {
            continue;
        };
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if namespace == own_namespace
            && pid != std::process::id()
            && old
            && !Path::new(&format!("/proc/{pid}")).exists()
        {
            let path = entry.path();
            if fs::remove_dir_all(&path).is_err() {
                open_up(&path);
                let _ = fs::remove_dir_all(&path);
            }
        }
    }
}

pub(crate) fn remove_scratch(dir: tempfile::TempDir) {
    let path = dir.keep();
    // Most programs leave the folder empty: one rmdir, without listing it first.
    if fs::remove_dir(&path).is_ok() || fs::remove_dir_all(&path).is_ok() {
        return;
    }
    open_up(&path);
    // Nothing more to try: a folder left in the temp dir is not worth failing a run.
    let _ = fs::remove_dir_all(&path);
}

/// Makes every folder under `root` writable by us again, without following symlinks.
fn open_up(root: &Path) {
    let mut pending: Vec<PathBuf> = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(0o700));
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(entry.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_folders_go_to_a_writable_folder() {
        let root = scratch_root();
        assert!(root.is_dir(), "{}", root.display());
        let scratch = tempfile::tempdir_in(root).unwrap();
        assert!(scratch.path().starts_with(root));
    }

    #[test]
    fn stat_lines_give_the_group_and_resident_pages() {
        let line = "4242 (cc1 (x) y) R 4240 4239 4239 0 -1 4194560 1 0 0 0 5 1 0 0 20 0 1 0 \
                    100 123456 789 18446744073709551615";
        assert_eq!(parse_stat(line), Some((4239, 789)));
        assert_eq!(parse_stat("12 (sh) S 1"), None);
        assert_eq!(parse_stat("garbage"), None);
    }

    #[test]
    fn a_group_is_sampled_as_a_whole() {
        let own_group = nix::unistd::getpgrp().as_raw();
        assert!(group_resident_bytes(own_group).is_some_and(|bytes| bytes > 0));
        assert_eq!(group_resident_bytes(i32::MAX - 7), None);
    }

    #[test]
    fn scratch_folder_names_name_their_judge() {
        let table = [
            (
                "harness-run-4026531836-123-AbC9",
                Some((4_026_531_836, 123)),
            ),
            ("harness-worker-7-9-x", Some((7, 9))),
            ("harness-stress-1-2-", Some((1, 2))),
            // The names before pids were in them, and others' folders, are not ours to judge.
            ("harness-run-AbC9xy", None),
            ("harness-build-1-2-x", None),
            ("harness-run-1-x-y", None),
            ("other-1-2-x", None),
        ];
        for (name, expected) in table {
            assert_eq!(scratch_owner(name), expected, "{name}");
        }
    }

    #[test]
    fn only_old_folders_of_gone_judges_of_this_namespace_are_swept() {
        let Some(namespace) = pid_namespace() else {
            return;
        };
        let root = tempfile::tempdir().unwrap();
        // A pid that has just ended: a child reaped here.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let make = |name: String| {
            let path = root.path().join(name);
            fs::create_dir(&path).unwrap();
            fs::write(path.join("input.in"), "1 2\n").unwrap();
            path
        };
        let stale = make(format!("harness-run-{namespace}-{gone}-aaaaaa"));
        let live = make(format!("harness-worker-{namespace}-1-bbbbbb"));
        let own = make(format!(
            "harness-stress-{namespace}-{}-cccccc",
            std::process::id()
        ));
        let elsewhere = make(format!("harness-run-{}-{gone}-dddddd", namespace + 1));
        let unnamed = make("harness-run-eeeeee".to_string());
        // Two minutes on: everything is old enough.
        let later = std::time::SystemTime::now() + Duration::from_secs(120);
        sweep_stale(root.path(), later);
        assert!(!stale.exists(), "the folder of a gone judge was kept");
        for kept in [&live, &own, &elsewhere, &unnamed] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
        // A young folder of a gone judge may be one being made right now: kept.
        let young = make(format!("harness-run-{namespace}-{gone}-ffffff"));
        sweep_stale(root.path(), std::time::SystemTime::now());
        assert!(young.exists());
    }

    #[test]
    fn a_missing_folder_is_no_scratch_root() {
        assert!(!is_roomy_tmpfs(Path::new("/nonexistent/harness-scratch")));
    }
}
