//! The worker's init: PID 1 of the sandbox's PID namespace, made once per worker by the
//! `zygote`. It talks to the judge over the zygote's socket and starts each run's program as
//! its child; every orphan of the run is re-parented to it and reaped by it, so the CPU time
//! of the whole tree is the sum of what it reaps; and when the program ends it kills every
//! other process of the namespace (`kill(-1)`), so nothing of a run outlives it, whatever
//! `setsid` or double forks it tried. Nothing is mounted or made per run unless the run
//! brings its own folder: the worker's folder is /tmp, a tmpfs of the worker's own, sized for
//! each run (remounted when the size changes), filled with the run's files and emptied after
//! it, whose output file the init opens without following it and hands to the judge.
//!
//! The syscall filter ([`super::filter`]) is installed once, on the init's main thread, which
//! serves the runs and starts their programs, so that each program inherits it: installing it
//! in each program before exec cost more than the rest of a short run (the kernel compiles a
//! filter and works out which calls it always allows when it is installed, not when it is
//! inherited). What the filter refuses the init itself needs now and then (mounting a run's
//! own folder, resizing the worker's, starting a program of a language that goes without the
//! filter): a second thread, started before the filter, does that on the main thread's behalf.
//!
//! From inside, the init cannot be signalled (a PID 1 ignores signals it has no handler for)
//! or traced (it is not dumpable); the judge and the zygote are outside the namespace.
//!
//! The memory a program is shown with is its own: exec records the high-water mark of the
//! address space it leaves in the new program's `ru_maxrss`, and a program is cloned sharing
//! the init's (a few MiB: the harness's pages). So the init holds every `exit_group` of its
//! namespace for a moment (a seccomp listener, [`super::filter::exit_listener`]), reads the
//! program's own high-water mark (`VmHWM`) while its address space is still there, and lets
//! it go on. Where the program did not call it (killed by a signal), its `ru_maxrss` stands.

use std::fs::{self, File};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::view::HIDDEN_AT;
use super::wire::{self, Exec, Finished, Launch, Outcome, Reply, ZygoteConfig};
use super::{spawn, sys};

/// The cgroup files the init touches per run, opened before it leaves the host's view.
pub(super) struct Cgroup {
    pub memory_tasks: File,
    pub memory_limit: File,
    pub memory_peak: File,
    pub memory_usage: File,
    pub memory_oom: File,
    /// The `tasks` files of the other groups the program joins.
    pub joined_tasks: Vec<File>,
}

/// Entry point in the zygote's child. Sets up, closes `ready` (or writes why it could not),
/// then serves runs until the judge goes away. Never returns.
pub(super) fn main(
    socket: RawFd,
    ready: OwnedFd,
    cgroup: Option<&Cgroup>,
    config: &ZygoteConfig,
) -> ! {
    let hidden = match set_up(config) {
        Ok(hidden) => hidden,
        Err(error) => {
            let _ = nix::unistd::write(&ready, error.to_string().as_bytes());
            // SAFETY: leaving without running destructors is what a forked child should do.
            unsafe { libc::_exit(1) }
        }
    };
    // The second thread inherits the exit listener (its programs' memory is read as the
    // others'), and not the syscall filter, installed on this thread only after it started.
    let started = Unfiltered::start().and_then(|unfiltered| {
        sys::install_filters(syscall_filters())?;
        Ok(unfiltered)
    });
    let code = match started {
        Ok(unfiltered) => {
            drop(ready);
            let served = serve(socket, &hidden, &unfiltered, cgroup, config);
            drop(unfiltered);
            match served {
                Ok(()) => 0,
                Err(error) => {
                    let _ = wire::send(socket, &Reply::Failed(error.to_string()), &[]);
                    1
                }
            }
        }
        Err(error) => {
            let _ = nix::unistd::write(&ready, error.to_string().as_bytes());
            1
        }
    };
    // Our own `exit_group` would wait on our own exit listener: each thread's own exit
    // instead, and the process ends with the last (the other thread's once its jobs are
    // gone). (A panic unwinding past `hidden` closes the listener, and an `exit_group`
    // nobody listens to fails: the process then dies of glibc's abort.)
    drop(hidden);
    leave_thread(code)
}

/// Ends this thread without running destructors (what a forked child should do), and the
/// process with it when it is the last.
fn leave_thread(code: i32) -> ! {
    // SAFETY: the thread's own exit, not `exit_group` (see `main`).
    unsafe { libc::syscall(libc::SYS_exit, code) };
    // SAFETY: as above; not reached.
    unsafe { libc::_exit(code) }
}

/// The init's second thread, which runs without the syscall filter: what the filtered main
/// thread may not do itself, it asks this one to do, and waits.
struct Unfiltered {
    jobs: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
}

impl Unfiltered {
    fn start() -> io::Result<Unfiltered> {
        let (jobs, receiver) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        std::thread::Builder::new()
            .name("init-unfiltered".to_owned())
            .stack_size(256 << 10)
            .spawn(move || {
                for job in receiver {
                    job();
                }
                // Not a return: glibc ends the process with `exit_group` after its last
                // thread returns (see `main`).
                leave_thread(0)
            })?;
        Ok(Unfiltered { jobs })
    }

    /// Runs `job` on the unfiltered thread and returns what it returned.
    fn run<T: Send + 'static>(&self, job: impl FnOnce() -> T + Send + 'static) -> io::Result<T> {
        let gone = || io::Error::other("the init's unfiltered thread is gone");
        let (answer, answered) = std::sync::mpsc::sync_channel(1);
        self.jobs
            .send(Box::new(move || {
                let _ = answer.send(job());
            }))
            .map_err(|_| gone())?;
        answered.recv().map_err(|_| gone())
    }
}

/// What the init holds between runs.
struct Hidden {
    /// The folder under [`HIDDEN_AT`] before it was covered: run folders are reached from it.
    folder: OwnedFd,
    /// SIGCHLD, blocked and read here: wakes the init when a process of the run ends.
    children: nix::sys::signalfd::SignalFd,
    /// Where every `exit_group` of the namespace waits for the init (see the module's doc);
    /// `None` where the kernel cannot do that.
    exits: Option<OwnedFd>,
}

fn set_up(config: &ZygoteConfig) -> io::Result<Hidden> {
    // SAFETY: prctl with integer arguments. Dies with the zygote (and so with the judge);
    // not dumpable, so no program of the namespace can trace it or open its descriptors.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        libc::prctl(libc::PR_SET_DUMPABLE, 0);
    }
    // The harness's handlers (Rust's stack-overflow guard) would let a program of the
    // namespace signal PID 1: with none, the kernel drops such signals.
    for signal in [libc::SIGSEGV, libc::SIGBUS] {
        // SAFETY: restores a default disposition.
        unsafe { libc::signal(signal, libc::SIG_DFL) };
    }
    let mut mask = nix::sys::signal::SigSet::empty();
    mask.add(nix::sys::signal::Signal::SIGCHLD);
    mask.thread_block().map_err(io::Error::from)?;
    let children = nix::sys::signalfd::SignalFd::with_flags(
        &mask,
        nix::sys::signalfd::SfdFlags::SFD_CLOEXEC | nix::sys::signalfd::SfdFlags::SFD_NONBLOCK,
    )
    .map_err(io::Error::from)?;

    sys::mount(
        Some(Path::new("proc")),
        Path::new("/proc"),
        Some("proc"),
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        None,
    )?;
    // /proc/keys and /proc/key-users list the keys a program's user may view, also those of
    // an earlier run not yet collected (a dead session keyring's): empty here, as Docker
    // masks them. A kernel without keys has neither file.
    for listing in ["/proc/keys", "/proc/key-users"] {
        match sys::mount(
            Some(Path::new("/dev/null")),
            Path::new(listing),
            None,
            libc::MS_BIND,
            None,
        ) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            other => other?,
        }
    }
    let folder = nix::fcntl::open(
        HIDDEN_AT,
        nix::fcntl::OFlag::O_PATH | nix::fcntl::OFlag::O_DIRECTORY | nix::fcntl::OFlag::O_CLOEXEC,
        nix::sys::stat::Mode::empty(),
    )
    .map_err(|error| io::Error::other(format!("open `{HIDDEN_AT}`: {error}")))?;
    // Covered by an empty read-only tmpfs: the path leads nowhere; the descriptor still does.
    sys::mount(
        None,
        Path::new(HIDDEN_AT),
        Some("tmpfs"),
        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        Some("mode=0,size=4k"),
    )?;
    // A session keyring of the worker's own, fresh and empty, in place of the judge's, which
    // the programs under the filter inherit and cannot reach (every key call is refused).
    spawn::fresh_keyrings(false).map_err(|errno| {
        io::Error::other(format!(
            "join a fresh session keyring: {}",
            io::Error::from_raw_os_error(errno)
        ))
    })?;
    // Last: from here the init's own exit goes through the listener too. A kernel without
    // seccomp filters leaves the programs' `ru_maxrss` as the figure.
    let exits = super::filter::exit_listener()
        .filter(|_| config.exit_listener)
        .and_then(|program| sys::seccomp_listener(&program).ok());
    Ok(Hidden {
        folder,
        children,
        exits,
    })
}

fn serve(
    socket: RawFd,
    hidden: &Hidden,
    unfiltered: &Unfiltered,
    cgroup: Option<&Cgroup>,
    config: &ZygoteConfig,
) -> io::Result<()> {
    // The worker folder's size as last mounted: changed only when a run needs another.
    let mut scratch_size = String::new();
    while let Some((bytes, fds)) = wire::receive_bytes(socket)? {
        if bytes == wire::STOP {
            // Its run ended before the order came.
            continue;
        }
        let launch: Launch = serde_json::from_slice(&bytes).map_err(io::Error::other)?;
        match run_one(
            socket,
            &launch,
            fds,
            hidden,
            unfiltered,
            cgroup,
            config,
            &mut scratch_size,
        ) {
            Ok(Some((finished, output))) => {
                let fds: Vec<RawFd> = output.iter().map(AsRawFd::as_raw_fd).collect();
                wire::send(socket, &Reply::Finished(finished), &fds)?;
            }
            Ok(None) => return Ok(()),
            Err(error) => {
                // The worker's state is unknown now (a folder not emptied, a mount left):
                // this init ends, and the judge starts a fresh one for the next run.
                wire::send(socket, &Reply::Failed(error.to_string()), &[])?;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Runs one program: returns `None` when the judge went away meanwhile; else what it
/// measured and the output file to pass back, when the launch names one and it is a regular
/// file.
#[expect(
    clippy::too_many_arguments,
    reason = "the init's state, passed down from `serve`"
)]
fn run_one(
    socket: RawFd,
    launch: &Launch,
    mut fds: Vec<OwnedFd>,
    hidden: &Hidden,
    unfiltered: &Unfiltered,
    cgroup: Option<&Cgroup>,
    config: &ZygoteConfig,
    scratch_size: &mut String,
) -> io::Result<Option<(Finished, Option<File>)>> {
    let wanted =
        3 + launch.extra_fds + usize::from(matches!(launch.exec, Exec::Fd)) + launch.files.len();
    if fds.len() != wanted {
        return Err(io::Error::other(format!(
            "expected {wanted} descriptors, got {}",
            fds.len()
        )));
    }
    let placed: Vec<File> = fds
        .split_off(wanted - launch.files.len())
        .into_iter()
        .map(File::from)
        .collect();
    let program = plan(launch, config, cgroup)?;
    let baseline = match cgroup {
        Some(cgroup) => Some(prepare_cgroup(cgroup, launch.memory_cap)?),
        None => None,
    };
    let own_folder = match &launch.workdir {
        Some(relative) => {
            let path = Path::new("scratch").join(std::ffi::OsStr::from_bytes(relative));
            // Alive until the answer: the main thread waits for it.
            let hidden_folder = hidden.folder.as_raw_fd();
            unfiltered.run(move || {
                let tree = sys::clone_tree_at(hidden_folder, &path)?;
                sys::move_tree(&tree, Path::new("/tmp"))
            })??;
            true
        }
        None => {
            size_worker_folder(launch.scratch_room, &placed, scratch_size, unfiltered)?;
            false
        }
    };
    let folder = super::beneath::open_folder(Path::new("/tmp"))?;
    for (name, file) in launch.files.iter().zip(placed) {
        place(&folder, name, file)?;
    }
    let scratch_base = if own_folder { 0 } else { used_bytes(&folder) };
    let lifted = matches!(program, Program::Unfiltered(_));
    let result = run_in_folder(socket, program, fds, hidden, unfiltered, scratch_base);
    // A program without the filter may have planted keys in its user's keyrings, which the
    // worker's programs share (per user namespace), and a filtered one, refused every key
    // call, could still list them in /proc/keys: emptied now, its whole tree gone.
    if lifted && config.user_keyrings_per_namespace {
        let uid = config.program_uid;
        unfiltered
            .run(move || clear_keyrings_of(uid))?
            .map_err(|errno| {
                io::Error::other(format!(
                    "empty the user's keyrings after a run without the filter: {}",
                    io::Error::from_raw_os_error(errno)
                ))
            })?;
    }
    // Everything of the run is gone now: nothing can change its folder any more.
    let (scratch_bytes, left_nothing) = if own_folder {
        (0, false)
    } else {
        let (used, nothing) = usage(&folder);
        (used.saturating_sub(scratch_base), nothing)
    };
    let (output_file, output) = match (&launch.output_file, own_folder) {
        (Some(name), false) => {
            let name = String::from_utf8_lossy(name);
            match super::beneath::open_regular(std::os::fd::AsFd::as_fd(&folder), &name) {
                Ok(file) => (Some(Ok(())), Some(file)),
                Err(why) => (Some(Err(why)), None),
            }
        }
        _ => (None, None),
    };
    drop(folder);
    let tidied = if own_folder {
        unfiltered
            .run(|| {
                // SAFETY: a NUL-terminated path; the worker's folder is underneath again.
                if unsafe { libc::umount2(c"/tmp".as_ptr(), libc::MNT_DETACH) } == 0 {
                    Ok(())
                } else {
                    Err(sys::fail("unmount the run's folder"))
                }
            })
            .and_then(|unmounted| unmounted)
    } else if left_nothing {
        Ok(())
    } else {
        // The output file's descriptor keeps its bytes until the judge has read them.
        empty_folder(Path::new("/tmp"))
    };
    let Some(ended) = result? else {
        return Ok(None);
    };
    tidied?;
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
    let finished = Finished {
        outcome: ended.outcome,
        user_micros: ended.tally.user_micros,
        system_micros: ended.tally.system_micros,
        max_rss_kib: ended.tally.max_rss_kib,
        own_max_rss_kib: ended.own_max_rss_kib(),
        cgroup_peak,
        hit_memory_cap,
        scratch_bytes,
        output_file,
    };
    Ok(Some((finished, output)))
}

/// Empties the user keyrings of the programs' user (`uid`): keyctl finds `@u` and `@us` by the
/// caller's real uid, so this thread takes that uid as its real one for the two calls and
/// gives it back. The raw system call changes this thread's credentials only (glibc's
/// `setresuid` would change every thread's), and the effective uid stays the init's, so
/// nothing of its power is lost. Called on the unfiltered thread (the filter refuses keyctl).
fn clear_keyrings_of(uid: u32) -> Result<(), i32> {
    let errno = || {
        io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO)
    };
    const KEEP: libc::c_long = -1;
    let set_real = |uid: u32| {
        // SAFETY: setresuid with integer arguments, on this thread only.
        unsafe { libc::syscall(libc::SYS_setresuid, libc::c_long::from(uid), KEEP, KEEP) }
    };
    // SAFETY: getuid takes nothing.
    let own = unsafe { libc::getuid() };
    if uid != own && set_real(uid) != 0 {
        return Err(errno());
    }
    let cleared = spawn::clear_user_keyrings();
    if uid != own && set_real(own) != 0 {
        return Err(errno());
    }
    cleared
}

/// Sizes the worker's folder (a tmpfs) for a run: room for what the program may write, and
/// for the files placed in it. Remounted only when that changes.
fn size_worker_folder(
    room: Option<u64>,
    placed: &[File],
    current: &mut String,
    unfiltered: &Unfiltered,
) -> io::Result<()> {
    let page = super::process::page_size();
    let size = match room {
        Some(room) => {
            let mut bytes = room;
            for file in placed {
                let len = file.metadata()?.len();
                // Whole pages, one more for rounding.
                bytes = bytes.saturating_add(len.div_ceil(page).saturating_add(1) * page);
            }
            // The kernel takes a size in whole pages; `u64::MAX` would overflow its count.
            format!("size={}", bytes.min(1 << 50))
        }
        None => "size=50%".to_owned(),
    };
    if *current != size {
        let data = size.clone();
        unfiltered.run(move || {
            sys::mount(
                None,
                Path::new("/tmp"),
                None,
                libc::MS_REMOUNT | libc::MS_NOSUID | libc::MS_NODEV,
                Some(&data),
            )
        })??;
        *current = size;
    }
    Ok(())
}

/// Copies `from` into the run's folder as `name`, readable by all.
fn place(folder: &OwnedFd, name: &[u8], mut from: File) -> io::Result<()> {
    let name_c = std::ffi::CString::new(name.to_vec())
        .map_err(|_| io::Error::other("a file name holds a NUL byte"))?;
    // SAFETY: a valid descriptor, a NUL-terminated name, integer flags and mode.
    let fd = unsafe {
        libc::openat(
            folder.as_raw_fd(),
            name_c.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o644 as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(sys::fail(format_args!(
            "place `{}` in the run's folder",
            String::from_utf8_lossy(name)
        )));
    }
    // SAFETY: the descriptor is fresh and ours alone.
    let mut to = File::from(unsafe { <OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) });
    io::copy(&mut from, &mut to)?;
    Ok(())
}

/// Bytes in use on the file system of `folder`.
pub(super) fn used_bytes(folder: &impl std::os::fd::AsFd) -> u64 {
    usage(folder).0
}

/// Bytes in use on the tmpfs of `folder`, and whether it holds nothing but its root: a tmpfs
/// with an inode limit (the worker's has one) counts every inode and link it holds, so one in
/// use is the root alone, and emptying it needs no walk. Without a limit it cannot tell.
fn usage(folder: &impl std::os::fd::AsFd) -> (u64, bool) {
    match nix::sys::statfs::fstatfs(folder) {
        #[cfg_attr(
            target_pointer_width = "64",
            expect(
                clippy::useless_conversion,
                reason = "the counts are 32-bit on 32-bit targets"
            )
        )]
        Ok(fs) => (
            u64::from(fs.blocks().saturating_sub(fs.blocks_free()))
                .saturating_mul(fs.block_size() as u64),
            fs.filesystem_type() == nix::sys::statfs::TMPFS_MAGIC
                && fs.files() > 0
                && u64::from(fs.files()).saturating_sub(u64::from(fs.files_free())) == 1,
        ),
        Err(_) => (0, false),
    }
}

/// How a run ended, and what its processes used.
struct Ended {
    outcome: Outcome,
    tally: Tally,
    /// The init's own high-water mark once the program had exec'd, in KiB: what the kernel
    /// may have recorded in the program's `ru_maxrss` then.
    init_kib: u64,
    /// The program's own high-water mark as it called `exit_group`, in KiB.
    exit_kib: Option<u64>,
}

impl Ended {
    /// The largest `ru_maxrss` of the tree, the program's own (see [`Finished`]).
    ///
    /// The program's `ru_maxrss` is the largest of the init's high-water mark at its exec,
    /// its own, and its waited-for children's: above the init's, it is not the init's, and
    /// stands; otherwise its own, read at its exit, is the figure.
    fn own_max_rss_kib(&self) -> u64 {
        let main = self.tally.main_kib;
        let own = match self.exit_kib {
            Some(exit) if main <= self.init_kib => exit,
            _ => main,
        };
        own.max(self.tally.others_kib)
    }
}

/// Resources of the processes reaped so far, each with its own reaped children.
#[derive(Default)]
struct Tally {
    user_micros: u64,
    system_micros: u64,
    max_rss_kib: u64,
    /// The program's `ru_maxrss`, and the largest of the others' (orphans the init reaped,
    /// forked from the program: their address spaces never were the init's).
    main_kib: u64,
    others_kib: u64,
}

impl Tally {
    fn add(&mut self, usage: &libc::rusage, main: bool) {
        let max_rss = u64::try_from(usage.ru_maxrss).unwrap_or(0);
        self.user_micros += micros(usage.ru_utime);
        self.system_micros += micros(usage.ru_stime);
        self.max_rss_kib = self.max_rss_kib.max(max_rss);
        if main {
            self.main_kib = max_rss;
        } else {
            self.others_kib = self.others_kib.max(max_rss);
        }
    }
}

/// This process's own high-water mark, in KiB: the init never execs, so its `ru_maxrss` is
/// its address space's.
fn own_high_water_kib() -> u64 {
    // SAFETY: rusage is plain data that getrusage fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &raw mut usage) };
    u64::try_from(usage.ru_maxrss).unwrap_or(0)
}

/// Answers the `exit_group` the listener says is waiting, letting it go on; for the process
/// `main`, reads its high-water mark first into `exit_kib`. A caller that was killed
/// meanwhile is simply gone.
fn answer_exit(listener: &OwnedFd, main: libc::pid_t, exit_kib: &mut Option<u64>) {
    // SAFETY: seccomp_notif is plain data that the ioctl fills.
    let mut notice: libc::seccomp_notif = unsafe { std::mem::zeroed() };
    // SAFETY: the listener is ours; the struct is the kernel's, valid for the call.
    if unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_RECV,
            &raw mut notice,
        )
    } != 0
    {
        return;
    }
    let (tgid, high_water) = read_status(notice.pid);
    // The id is still valid: the task read is the one that called, not a new one with its pid.
    // SAFETY: as above, with a u64 the ioctl reads.
    let valid = unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_ID_VALID,
            &raw const notice.id,
        )
    } == 0;
    if valid && tgid == Some(main) {
        *exit_kib = high_water.or(*exit_kib);
    }
    let answer = libc::seccomp_notif_resp {
        id: notice.id,
        val: 0,
        error: 0,
        flags: libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
    };
    // SAFETY: as above; a caller gone meanwhile makes it fail harmlessly (ENOENT).
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_SEND,
            &raw const answer,
        )
    };
}

/// [`parse_status`] of `/proc/<tid>/status`. The program waits in `exit_group` meanwhile:
/// one `read` of a page takes the whole file as the kernel writes it (about 1.4 KiB), where
/// reading it to a string took eight and a `statx`; a longer one (a program in many groups)
/// is read again in full.
fn read_status(tid: u32) -> (Option<libc::pid_t>, Option<u64>) {
    use std::io::Read;
    let path = format!("/proc/{tid}/status");
    let Ok(mut file) = File::open(&path) else {
        return (None, None);
    };
    let mut page = [0u8; 4096];
    let n = file.read(&mut page).unwrap_or(0);
    if n < page.len() {
        return parse_status(&String::from_utf8_lossy(&page[..n]));
    }
    parse_status(&fs::read_to_string(&path).unwrap_or_default())
}

/// The process (`Tgid`) of a /proc/<tid>/status, and its address space's high-water mark
/// (`VmHWM`, in KiB).
fn parse_status(status: &str) -> (Option<libc::pid_t>, Option<u64>) {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|value| value.split_ascii_whitespace().next())
    };
    (
        field("Tgid").and_then(|pid| pid.parse().ok()),
        field("VmHWM").and_then(|kib| kib.parse().ok()),
    )
}

/// Starts the program, waits for it while reaping orphans, then kills and reaps the rest.
/// `None`: the judge went away (everything is killed all the same).
fn run_in_folder(
    socket: RawFd,
    program: Program,
    fds: Vec<OwnedFd>,
    hidden: &Hidden,
    unfiltered: &Unfiltered,
    scratch_base: u64,
) -> io::Result<Option<Ended>> {
    let raw: Vec<RawFd> = fds.iter().map(AsRawFd::as_raw_fd).collect();
    let spawned = match program {
        Program::Filtered(plan) => spawn::spawn(&plan, &raw, spawn::Parent::Caller),
        // The descriptors stay open here until it has started.
        Program::Unfiltered(plan) => {
            let raw = raw.clone();
            unfiltered.run(move || spawn::spawn(&plan, &raw, spawn::Parent::Caller))?
        }
    };
    let spawn::Spawned {
        pid: main,
        pidfd,
        exec_errno: exec_failed,
    } = spawned?;
    let pidfd = pidfd.ok_or_else(|| io::Error::other("clone gave no pidfd"))?;
    let init_kib = own_high_water_kib();
    // Hold nothing of the program's: its pipes must close when it and its children end.
    drop(fds);
    let sent = wire::send(
        socket,
        &Reply::Started { scratch_base },
        &[pidfd.as_raw_fd()],
    );
    drop(pidfd);
    let mut tally = Tally::default();
    let mut exit_kib = None;
    let mut status = None;
    let mut judge_gone = sent.is_err();
    while status.is_none() && !judge_gone {
        let pollfd = |fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let mut polled = [
            pollfd(socket),
            pollfd(hidden.children.as_raw_fd()),
            pollfd(hidden.exits.as_ref().map_or(-1, AsRawFd::as_raw_fd)),
        ];
        // SAFETY: the array is valid for its length.
        let rc = unsafe { libc::poll(polled.as_mut_ptr(), 3, -1) };
        if rc < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(sys::fail("poll"));
        }
        if let (true, Some(listener)) = (polled[2].revents & libc::POLLIN != 0, &hidden.exits) {
            answer_exit(listener, main, &mut exit_kib);
        }
        if polled[1].revents != 0 {
            while let Ok(Some(_)) = hidden.children.read_signal() {}
            while let Some((pid, wait_status, usage)) = reap(libc::WNOHANG) {
                tally.add(&usage, pid == main);
                if pid == main {
                    status = Some(wait_status);
                }
            }
        }
        if polled[0].revents != 0 {
            // The judge went away, or orders the run stopped (having killed the program
            // through its pidfd too).
            match wire::receive_bytes(socket) {
                Ok(Some((bytes, _))) if bytes == wire::STOP => kill_all(),
                _ => judge_gone = true,
            }
        }
    }
    // The program is gone (or the judge is): so is everything it left.
    kill_all();
    while let Some((pid, wait_status, usage)) = reap(0) {
        tally.add(&usage, pid == main);
        if pid == main {
            status = Some(wait_status);
        }
    }
    if judge_gone {
        return Ok(None);
    }
    let outcome = match (exec_failed, status) {
        (Some(errno), _) => Outcome::ExecFailed(errno),
        (None, Some(status)) => Outcome::Status(status),
        (None, None) => return Err(io::Error::other("the program was never reaped")),
    };
    Ok(Some(Ended {
        outcome,
        tally,
        init_kib,
        exit_kib,
    }))
}

/// Kills every process of the namespace but the init.
fn kill_all() {
    // SAFETY: kill(-1) from PID 1 of a namespace reaches every other process in it.
    unsafe { libc::kill(-1, libc::SIGKILL) };
}

/// Reaps one child (`flags`: 0 to wait, `WNOHANG` not to); `None` when there is none to reap.
fn reap(flags: libc::c_int) -> Option<(libc::pid_t, libc::c_int, libc::rusage)> {
    loop {
        let mut status = 0;
        // SAFETY: rusage is plain data that wait4 fills.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: both pointers are valid for the call.
        let got = unsafe { libc::wait4(-1, &raw mut status, flags | libc::__WALL, &raw mut usage) };
        if got > 0 {
            return Some((got, status, usage));
        }
        if got == 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return None;
        }
    }
}

/// Removes everything a run left in the worker's folder, not following links.
fn empty_folder(folder: &Path) -> io::Result<()> {
    for entry in fs::read_dir(folder)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            fs::remove_dir_all(&path)?;
        } else {
            fs::remove_file(&path)?;
        }
    }
    Ok(())
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

fn micros(time: libc::timeval) -> u64 {
    u64::try_from(time.tv_sec).unwrap_or(0) * 1_000_000 + u64::try_from(time.tv_usec).unwrap_or(0)
}

/// A run's program, and the thread that starts it.
enum Program {
    /// Under the syscall filter (or where there is none to install): started by the main
    /// thread, whose filter it inherits.
    Filtered(spawn::Plan),
    /// A language's that goes without the filter: started by the unfiltered thread.
    Unfiltered(spawn::Plan),
}

/// The program's exec, built from the judge's launch before the clone.
fn plan(launch: &Launch, config: &ZygoteConfig, cgroup: Option<&Cgroup>) -> io::Result<Program> {
    let c = |bytes: &Vec<u8>| spawn::c_string(bytes);
    let inherits_filter = launch.syscall_filter && !syscall_filters().is_empty();
    let plan = spawn::Plan {
        argv: launch.argv.iter().map(c).collect::<io::Result<_>>()?,
        env: launch.env.iter().map(c).collect::<io::Result<_>>()?,
        target: match &launch.exec {
            Exec::Path(path) => spawn::Target::Path(c(path)?),
            Exec::Fd => spawn::Target::LastFd,
        },
        workdir: c"/tmp".to_owned(),
        rlimits: launch.rlimits.clone(),
        identity: spawn::Identity::Confined {
            uid: config.program_uid,
            gid: config.program_gid,
        },
        own_group: false,
        // The program joins the run's cgroups itself; the init stays out of them, so that a
        // tree at its memory cap or task limit never takes the init down with it.
        cgroup_tasks: cgroup
            .map(|cgroup| {
                std::iter::once(&cgroup.memory_tasks)
                    .chain(&cgroup.joined_tasks)
                    .map(AsRawFd::as_raw_fd)
                    .collect()
            })
            .unwrap_or_default(),
        shell_fallback: false,
        keyrings: if inherits_filter {
            spawn::Keyrings::Inherited
        } else {
            spawn::Keyrings::Fresh {
                clear_user: config.user_keyrings_per_namespace,
            }
        },
    };
    Ok(if launch.syscall_filter || syscall_filters().is_empty() {
        Program::Filtered(plan)
    } else {
        Program::Unfiltered(plan)
    })
}

/// The seccomp filters of the runs, built once (and installed once, on the init's main
/// thread); none on an architecture seccompiler does not build for.
fn syscall_filters() -> &'static [seccompiler::BpfProgram] {
    static FILTERS: std::sync::OnceLock<Vec<seccompiler::BpfProgram>> = std::sync::OnceLock::new();
    FILTERS.get_or_init(|| super::filter::programs().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_gives_the_process_and_its_high_water_mark() {
        let status = "Name:\tsum\nUmask:\t0022\nState:\tR (running)\nTgid:\t17\nNgid:\t0\n\
                      Pid:\t18\nPPid:\t1\nVmPeak:\t    2680 kB\nVmHWM:\t    1204 kB\n\
                      VmRSS:\t    1204 kB\n";
        assert_eq!(parse_status(status), (Some(17), Some(1204)));
        // A kernel thread has no address space; a torn read has neither.
        assert_eq!(parse_status("Name:\tkthreadd\nTgid:\t2\n"), (Some(2), None));
        assert_eq!(parse_status(""), (None, None));
        assert_eq!(parse_status("TgidX:\t5\nVmHWM:\tlots kB\n"), (None, None));
    }

    #[test]
    fn the_programs_own_high_water_mark_stands_for_the_inits() {
        let ended = |main_kib, others_kib, init_kib, exit_kib| Ended {
            outcome: Outcome::Status(0),
            tally: Tally {
                main_kib,
                others_kib,
                ..Tally::default()
            },
            init_kib,
            exit_kib,
        };
        // (the program's ru_maxrss, the others', the init's high-water mark, the program's
        // own at exit_group) → the figure
        let table = [
            // A program smaller than the init: its ru_maxrss is the init's; its own counts.
            ((2600, 0, 2600, Some(1100)), 1100),
            // Larger: its ru_maxrss is its own (or its children's), as time shows it.
            ((34_000, 0, 2600, Some(33_900)), 34_000),
            // Killed, so never at exit_group: its ru_maxrss, as before.
            ((2600, 0, 2600, None), 2600),
            // An orphan larger than it: the orphan's.
            ((2600, 5000, 2600, Some(1100)), 5000),
        ];
        for ((main, others, init, exit), expected) in table {
            let figure = ended(main, others, init, exit).own_max_rss_kib();
            assert_eq!(figure, expected, "{main} {others} {init} {exit:?}");
        }
    }

    #[test]
    fn this_process_has_a_high_water_mark() {
        assert!(own_high_water_kib() > 0);
    }
}
