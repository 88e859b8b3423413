//! The zygote: a small process, started by re-executing the harness, that lives inside the
//! sandbox's user, mount, network, IPC and UTS namespaces, built once per worker, and forks
//! each run's init into a fresh PID (and mount) namespace. Namespaces cost milliseconds to
//! make; forking inside them costs what a plain fork does, and forking this small process
//! instead of the judge keeps the judge's memory out of the program's peak.
//!
//! Protocol (see `wire`): config → `Unshared` → (the judge writes the id maps) → `()` →
//! `Ready`; then per run: `Launch` + descriptors → `Started` + pidfd → `Finished`.

use std::ffi::CString;
use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::sys::{self, Cloned};
use super::view;
use super::wire::{self, Exec, Finished, Launch, Outcome, Reply, ZygoteConfig};

/// The hidden first argument that makes `harness` a zygote (see `main.rs`).
pub const ZYGOTE_ARG: &str = "__harness-sandbox-zygote";

/// Where the new root is assembled before `pivot_root`: a tmpfs over it hides the host's.
const BUILD_AT: &str = "/tmp";
const HOSTNAME: &str = "sandbox";
/// Where the host's scratch root is mounted in the zygote's view; each run binds its own
/// folder from here to /tmp and then unmounts this, so no program sees another's folder.
const SCRATCH_AT: &str = "/.harness-scratch";

/// The cgroup files a zygote touches per run, opened before it leaves the host's view.
struct Cgroup {
    memory_tasks: File,
    memory_limit: File,
    memory_peak: File,
    memory_usage: File,
    memory_oom: File,
    pids_tasks: Option<File>,
}

/// Entry point of `harness __harness-sandbox-zygote FD`. Never returns.
pub fn main(socket_arg: Option<&std::ffi::OsStr>) -> ! {
    let socket = socket_arg
        .and_then(|arg| arg.to_str()?.parse::<RawFd>().ok())
        .filter(|fd| *fd > 2);
    let Some(socket) = socket else {
        // Started by hand: nothing to talk to.
        std::process::exit(2);
    };
    let code = match serve(socket) {
        Ok(()) => 0,
        Err(error) => {
            let _ = wire::send(socket, &Reply::Failed(error.to_string()), &[]);
            1
        }
    };
    std::process::exit(code);
}

fn serve(socket: RawFd) -> io::Result<()> {
    let Some((config, _)) = wire::receive::<ZygoteConfig>(socket)? else {
        return Ok(());
    };
    let cgroup = open_cgroup(&config)?;
    nix::sched::unshare(
        nix::sched::CloneFlags::CLONE_NEWUSER
            | nix::sched::CloneFlags::CLONE_NEWNS
            | nix::sched::CloneFlags::CLONE_NEWNET
            | nix::sched::CloneFlags::CLONE_NEWIPC
            | nix::sched::CloneFlags::CLONE_NEWUTS,
    )
    .map_err(|error| io::Error::other(format!("unshare the namespaces: {error}")))?;
    wire::send(socket, &Reply::Ready, &[])?;
    // The judge, outside, writes our uid and gid maps, then says go.
    if wire::receive::<()>(socket)?.is_none() {
        return Ok(());
    }
    build_root(&config)?;
    wire::send(socket, &Reply::Ready, &[])?;

    while let Some((launch, fds)) = wire::receive::<Launch>(socket)? {
        let finished = match run_one(socket, &launch, fds, cgroup.as_ref(), &config) {
            Ok(Some(finished)) => finished,
            Ok(None) => return Ok(()),
            Err(error) => {
                wire::send(socket, &Reply::Failed(error.to_string()), &[])?;
                continue;
            }
        };
        wire::send(socket, &Reply::Finished(finished), &[])?;
    }
    Ok(())
}

fn open_cgroup(config: &ZygoteConfig) -> io::Result<Option<Cgroup>> {
    let Some(memory) = &config.memory_cgroup else {
        return Ok(None);
    };
    let memory = Path::new(std::ffi::OsStr::from_bytes(memory));
    let write = |path: PathBuf| {
        OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| io::Error::new(e.kind(), format!("open `{}`: {e}", path.display())))
    };
    let read = |path: PathBuf| {
        OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .or_else(|_| File::open(&path))
            .map_err(|e| io::Error::new(e.kind(), format!("open `{}`: {e}", path.display())))
    };
    Ok(Some(Cgroup {
        memory_tasks: write(memory.join("tasks"))?,
        memory_limit: write(memory.join("memory.limit_in_bytes"))?,
        memory_peak: read(memory.join("memory.max_usage_in_bytes"))?,
        memory_usage: read(memory.join("memory.usage_in_bytes"))?,
        memory_oom: read(memory.join("memory.oom_control"))?,
        pids_tasks: match &config.pids_cgroup {
            Some(pids) => Some(write(
                Path::new(std::ffi::OsStr::from_bytes(pids)).join("tasks"),
            )?),
            None => None,
        },
    }))
}

/// Assembles the program's world in a tmpfs and makes it the root: the system read-only, a
/// small /dev, mount points for /proc and the working folder, and nothing else of the host.
fn build_root(config: &ZygoteConfig) -> io::Result<()> {
    sys::mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
    )?;
    let _ = nix::unistd::sethostname(HOSTNAME);
    // Taken before the tmpfs below can hide it (the scratch root may be under /tmp).
    let scratch = sys::clone_tree(Path::new(std::ffi::OsStr::from_bytes(&config.scratch_root)))?;
    let root = Path::new(BUILD_AT);
    sys::mount(
        None,
        root,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some("mode=0755,size=1m"),
    )?;
    for entry in view::SYSTEM_ENTRIES {
        let host = Path::new("/").join(entry);
        let Ok(meta) = fs::symlink_metadata(&host) else {
            continue;
        };
        let target = root.join(entry);
        if meta.file_type().is_symlink() {
            symlink(fs::read_link(&host)?, &target)?;
        } else if meta.is_dir() {
            sys::bind_read_only(&host, &target, false)?;
        }
    }
    for prefix in &config.prefixes {
        let prefix = Path::new(std::ffi::OsStr::from_bytes(prefix));
        let relative = prefix.strip_prefix("/").unwrap_or(prefix);
        // Under a system folder it is already there, read-only.
        if root.join(relative).exists() {
            continue;
        }
        sys::bind_read_only(prefix, &root.join(relative), false)?;
    }

    let dev = root.join("dev");
    fs::create_dir(&dev)?;
    sys::mount(
        None,
        &dev,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NOEXEC,
        Some("mode=0755,size=64k"),
    )?;
    for device in view::DEVICES {
        let host = Path::new("/dev").join(device);
        if host.exists() {
            sys::bind_read_only(&host, &dev.join(device), true).or_else(|_| {
                sys::mount(Some(&host), &dev.join(device), None, libc::MS_BIND, None)
            })?;
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        symlink(target, dev.join(name))?;
    }
    sys::make_read_only(&dev, true)?;

    // The host's /proc stays mounted underneath each run's own: the kernel lets a user
    // namespace mount a fresh proc only where a full one is already visible.
    let proc = root.join("proc");
    fs::create_dir(&proc)?;
    sys::mount(
        Some(Path::new("/proc")),
        &proc,
        None,
        libc::MS_BIND | libc::MS_REC,
        None,
    )?;
    fs::create_dir(root.join("tmp"))?;
    let scratch_at = root.join(SCRATCH_AT.trim_start_matches('/'));
    fs::create_dir(&scratch_at)?;
    sys::move_tree(&scratch, &scratch_at)?;

    std::env::set_current_dir(root)?;
    sys::pivot_here()?;
    sys::mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        None,
    )?;
    Ok(())
}

/// Runs one program: returns `None` when the judge went away meanwhile.
fn run_one(
    socket: RawFd,
    launch: &Launch,
    fds: Vec<OwnedFd>,
    cgroup: Option<&Cgroup>,
    config: &ZygoteConfig,
) -> io::Result<Option<Finished>> {
    let wanted = 3 + launch.extra_fds + usize::from(matches!(launch.exec, Exec::Fd));
    if fds.len() != wanted {
        return Err(io::Error::other(format!(
            "expected {wanted} descriptors, got {}",
            fds.len()
        )));
    }
    let program = Program::new(launch, config)?;
    let baseline = match cgroup {
        Some(cgroup) => Some(prepare_cgroup(cgroup, launch.memory_cap)?),
        None => None,
    };
    let (status_read, status_write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;

    let (pid, pidfd) = match sys::clone_into((libc::CLONE_NEWPID | libc::CLONE_NEWNS) as u64)? {
        Cloned::Child => {
            drop(status_read);
            init(&program, &fds, &status_write, cgroup)
        }
        Cloned::Parent { pid, pidfd } => (pid, pidfd),
    };
    drop(status_write);
    drop(fds);
    wire::send(socket, &Reply::Started { pid }, &[pidfd.as_raw_fd()])?;

    // Wait for the init to end, or for the judge to go away (then the init goes too).
    loop {
        let mut polled = [
            libc::pollfd {
                fd: socket,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: the array is valid for its length.
        let rc = unsafe { libc::poll(polled.as_mut_ptr(), 2, -1) };
        if rc < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(sys::fail("poll"));
        }
        if polled[1].revents != 0 {
            break;
        }
        if polled[0].revents != 0 {
            // Only the socket closing is expected here: the judge kills through the pidfd.
            sys::pidfd_kill(pidfd.as_raw_fd());
            reap(pid)?;
            return Ok(None);
        }
    }
    let usage = reap(pid)?;
    let mut report = [0u8; 512];
    let outcome = match nix::unistd::read(&status_read, &mut report) {
        Ok(n) if n >= 8 => {
            let tag = i32::from_ne_bytes(report[..4].try_into().unwrap_or_default());
            let value = i32::from_ne_bytes(report[4..8].try_into().unwrap_or_default());
            match tag {
                0 => Outcome::Status(value),
                1 => Outcome::ExecFailed(value),
                _ => {
                    let mut text = report[8..n].to_vec();
                    if let Ok(more) = nix::unistd::read(&status_read, &mut report) {
                        text.extend_from_slice(&report[..more]);
                    }
                    return Err(io::Error::other(format!(
                        "setting up the run failed: {}",
                        String::from_utf8_lossy(&text)
                    )));
                }
            }
        }
        _ => Outcome::Killed,
    };
    let (cgroup_peak, hit_memory_cap) = match (cgroup, baseline) {
        (Some(cgroup), Some(baseline)) => {
            let peak = read_number(&cgroup.memory_peak).unwrap_or(0);
            let kills = oom_kills(cgroup).unwrap_or(0);
            (
                Some(peak.saturating_sub(baseline.usage)),
                kills > baseline.oom_kills,
            )
        }
        _ => (None, false),
    };
    Ok(Some(Finished {
        outcome,
        user_micros: micros(usage.ru_utime),
        system_micros: micros(usage.ru_stime),
        max_rss_kib: u64::try_from(usage.ru_maxrss).unwrap_or(0),
        cgroup_peak,
        hit_memory_cap,
    }))
}

struct Baseline {
    usage: u64,
    oom_kills: u64,
}

/// Resets the peak, and caps the tree at `cap` above what is charged now (page cache left
/// by earlier runs, reclaimable).
fn prepare_cgroup(cgroup: &Cgroup, cap: u64) -> io::Result<Baseline> {
    sys::write_at_start(&cgroup.memory_peak, b"0")?;
    let usage = read_number(&cgroup.memory_usage)?;
    let limit = usage.saturating_add(cap).min(i64::MAX as u64 / 2);
    sys::write_at_start(&cgroup.memory_limit, limit.to_string().as_bytes())?;
    Ok(Baseline {
        usage,
        oom_kills: oom_kills(cgroup).unwrap_or(0),
    })
}

fn read_number(file: &File) -> io::Result<u64> {
    let mut buf = [0u8; 64];
    let n = sys::read_small(file, &mut buf)?;
    std::str::from_utf8(&buf[..n])
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .ok_or_else(|| io::Error::other("unreadable cgroup counter"))
}

/// The `oom_kill` counter of memory.oom_control (Linux ≥ 4.13).
fn oom_kills(cgroup: &Cgroup) -> Option<u64> {
    let mut buf = [0u8; 256];
    let n = sys::read_small(&cgroup.memory_oom, &mut buf).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    text.lines()
        .find_map(|line| line.strip_prefix("oom_kill "))
        .and_then(|value| value.trim().parse().ok())
}

fn reap(pid: libc::pid_t) -> io::Result<libc::rusage> {
    loop {
        let mut status = 0;
        // SAFETY: rusage is plain data that wait4 fills.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are valid for the call.
        let got = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
        if got == pid {
            return Ok(usage);
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

fn micros(time: libc::timeval) -> u64 {
    u64::try_from(time.tv_sec).unwrap_or(0) * 1_000_000 + u64::try_from(time.tv_usec).unwrap_or(0)
}

/// Everything the program's exec needs, built before forking.
struct Program {
    argv: Vec<CString>,
    env: Vec<CString>,
    path: Option<CString>,
    rlimits: Vec<(i64, u64)>,
    workdir: Vec<u8>,
    uid: u32,
    gid: u32,
}

impl Program {
    fn new(launch: &Launch, config: &ZygoteConfig) -> io::Result<Program> {
        let c = |bytes: &Vec<u8>| {
            CString::new(bytes.clone()).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidInput, "an argument holds a NUL byte")
            })
        };
        Ok(Program {
            argv: launch.argv.iter().map(c).collect::<io::Result<_>>()?,
            env: launch.env.iter().map(c).collect::<io::Result<_>>()?,
            path: match &launch.exec {
                Exec::Path(path) => Some(c(path)?),
                Exec::Fd => None,
            },
            rlimits: launch.rlimits.clone(),
            workdir: launch.workdir.clone(),
            uid: config.program_uid,
            gid: config.program_gid,
        })
    }
}

/// PID 1 of the run's namespace: mounts its /proc and the working folder, starts the program
/// as its child (a program that were PID 1 would ignore its own `raise(SIGABRT)`), reaps
/// every orphan, and reports the program's status. When it exits, the kernel kills whatever
/// is left in the namespace and folds their CPU time into this process's children's.
fn init(program: &Program, fds: &[OwnedFd], status: &OwnedFd, cgroup: Option<&Cgroup>) -> ! {
    // SAFETY: prctl with integer arguments.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    let report = |tag: i32, value: i32| {
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&tag.to_ne_bytes());
        bytes[4..].copy_from_slice(&value.to_ne_bytes());
        let _ = nix::unistd::write(status, &bytes);
    };
    let fail = |error: io::Error| -> ! {
        // Tag 2: the sandbox's own setup failed; the text follows.
        report(2, 0);
        let _ = nix::unistd::write(status, error.to_string().as_bytes());
        // SAFETY: leaving without running destructors is what a forked child should do.
        unsafe { libc::_exit(127) }
    };
    if let Some(cgroup) = cgroup {
        // "0" is the writing task itself; the program, forked below, inherits the groups.
        if let Err(error) = sys::write_at_start(&cgroup.memory_tasks, b"0") {
            fail(error);
        }
        if let Some(pids) = &cgroup.pids_tasks {
            if let Err(error) = sys::write_at_start(pids, b"0") {
                fail(error);
            }
        }
    }
    if let Err(error) = sys::mount(
        Some(Path::new("proc")),
        Path::new("/proc"),
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    ) {
        fail(error);
    }
    let workdir = Path::new(SCRATCH_AT).join(std::ffi::OsStr::from_bytes(&program.workdir));
    if let Err(error) = sys::mount(Some(&workdir), Path::new("/tmp"), None, libc::MS_BIND, None) {
        fail(error);
    }
    // SAFETY: a NUL-terminated path.
    if unsafe { libc::umount2(c"/.harness-scratch".as_ptr(), libc::MNT_DETACH) } != 0 {
        fail(sys::fail("hide the scratch root"));
    }
    let (exec_read, exec_write) = match nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC) {
        Ok(pipe) => pipe,
        Err(error) => fail(error.into()),
    };
    // SAFETY: this process is single-threaded (a clone of the single-threaded zygote).
    let child = unsafe { libc::fork() };
    if child < 0 {
        fail(io::Error::last_os_error());
    }
    if child == 0 {
        drop(exec_read);
        let error = exec_program(program, fds);
        let _ = nix::unistd::write(
            &exec_write,
            &error.raw_os_error().unwrap_or(libc::EIO).to_ne_bytes(),
        );
        // SAFETY: see above.
        unsafe { libc::_exit(127) }
    }
    drop(exec_write);
    let mut errno = [0u8; 4];
    if let Ok(4) = nix::unistd::read(&exec_read, &mut errno) {
        report(1, i32::from_ne_bytes(errno));
        // SAFETY: see above.
        unsafe { libc::_exit(0) }
    }
    // Hold nothing of the program's: its pipes must close when it and its children end.
    let keep = status.as_raw_fd();
    // SAFETY: closing descriptors this process owns; the OwnedFds are never used again.
    unsafe {
        for fd in 3..keep {
            libc::close(fd);
        }
        libc::syscall(libc::SYS_close_range, keep + 1, u32::MAX, 0);
        libc::close(0);
        libc::close(1);
        libc::close(2);
    }
    loop {
        let mut wait_status = 0;
        // SAFETY: waits for any child; the status pointer is valid.
        let got = unsafe { libc::waitpid(-1, &raw mut wait_status, libc::__WALL) };
        if got == child {
            report(0, wait_status);
            // SAFETY: see above.
            unsafe { libc::_exit(0) }
        }
        if got < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD) {
            // SAFETY: see above.
            unsafe { libc::_exit(0) }
        }
    }
}

/// In the program's process: descriptors, folder, limits, identity, then exec. Returns only
/// on failure.
fn exec_program(program: &Program, fds: &[OwnedFd]) -> io::Error {
    // Move every descriptor it needs out of the way, then into place: 0 1 2, then the extra
    // ones from 3, then the executable.
    let order: Vec<RawFd> = [0, 1, 2]
        .into_iter()
        .chain(3..fds.len())
        .map(|i| fds[i].as_raw_fd())
        .collect();
    let mut high = Vec::with_capacity(order.len());
    for fd in &order {
        // SAFETY: duplicating a descriptor we own.
        let moved = unsafe { libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 1000) };
        if moved < 0 {
            return sys::fail("move a descriptor");
        }
        high.push(moved);
    }
    for (target, fd) in high.iter().enumerate() {
        // SAFETY: dup2 onto small numbers; the result is inherited by exec (no CLOEXEC).
        if unsafe { libc::dup2(*fd, target as RawFd) } < 0 {
            return sys::fail("place a descriptor");
        }
    }
    let exe_fd = (program.path.is_none()).then(|| (high.len() - 1) as RawFd);
    let keep_to = high.len() as u32;
    // SAFETY: closes descriptors above the ones placed.
    unsafe { libc::syscall(libc::SYS_close_range, keep_to, u32::MAX, 0) };

    if let Err(error) = std::env::set_current_dir("/tmp") {
        return error;
    }
    for &(resource, value) in &program.rlimits {
        let limit = libc::rlimit {
            rlim_cur: value as libc::rlim_t,
            rlim_max: value as libc::rlim_t,
        };
        // SAFETY: a plain struct passed by pointer.
        if unsafe { libc::setrlimit(resource as _, &raw const limit) } != 0 {
            return sys::fail("set a limit");
        }
    }
    // SAFETY: plain calls with integer arguments; signal state back to defaults, since exec
    // keeps ignored signals ignored (the harness ignores SIGPIPE).
    unsafe {
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const empty, std::ptr::null_mut());
        for signal in 1..32 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        if program.uid != 0 {
            if libc::setgroups(0, std::ptr::null()) != 0
                || libc::setresgid(program.gid, program.gid, program.gid) != 0
                || libc::setresuid(program.uid, program.uid, program.uid) != 0
            {
                return sys::fail("drop to the program's user");
            }
        } else {
            // The judge's own id only is mapped: stay uid 0 of the namespace, but let exec
            // grant no capabilities.
            const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
            const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
            if libc::prctl(
                libc::PR_SET_SECUREBITS,
                SECBIT_NOROOT | SECBIT_NOROOT_LOCKED,
            ) != 0
            {
                return sys::fail("drop capabilities");
            }
        }
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    }
    let mut argv: Vec<*const libc::c_char> = program.argv.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let mut env: Vec<*const libc::c_char> = program.env.iter().map(|a| a.as_ptr()).collect();
    env.push(std::ptr::null());
    match (&program.path, exe_fd) {
        (Some(path), _) => {
            // SAFETY: NUL-terminated strings in NULL-terminated arrays.
            unsafe { libc::execve(path.as_ptr(), argv.as_ptr(), env.as_ptr()) };
        }
        (None, Some(fd)) => {
            // SAFETY: as above; AT_EMPTY_PATH runs the file the descriptor names.
            unsafe {
                libc::syscall(
                    libc::SYS_execveat,
                    fd,
                    c"".as_ptr(),
                    argv.as_ptr(),
                    env.as_ptr(),
                    libc::AT_EMPTY_PATH,
                )
            };
        }
        (None, None) => return io::Error::other("no executable"),
    }
    io::Error::last_os_error()
}
