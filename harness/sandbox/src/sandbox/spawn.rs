//! Starting a program from a small process without copying that process: the child shares the
//! caller's memory until it execs (`CLONE_VM | CLONE_VFORK`, as posix_spawn does), places its
//! descriptors, enters its folder, takes its limits and a clean signal state, and execs.
//! No page table is copied and nothing is written copy-on-write, which is most of what a
//! fork costs; and, unlike posix_spawn, the limits (the stack's above all, which exec lays out
//! from `RLIMIT_STACK`) are set before exec. The sandbox's `init` starts each program under
//! test so; the `launcher` starts every plain program so.
//!
//! Because exec records the old address space's high-water mark in the new program's
//! `ru_maxrss`, the caller must be small: the init and the launcher are (about 1 MiB), the
//! judge is not.

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::OnceLock;

/// What the program runs.
pub(super) enum Target {
    /// A path, as execve takes it (absolute, or relative to the program's folder).
    Path(CString),
    /// The last descriptor placed (a build product outside the sandbox's view): execveat with
    /// `AT_EMPTY_PATH`.
    LastFd,
}

/// Who the program runs as.
pub(super) enum Identity {
    /// The caller's user, with the caller's privileges (the launcher's plain runs).
    Caller,
    /// A program under test inside the sandbox's user namespace: `uid`/`gid` when they are not
    /// 0; otherwise uid 0 of the namespace with no capability granted by exec. Never gains
    /// privileges (no_new_privs).
    Confined { uid: u32, gid: u32 },
}

/// Whose child the program is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Parent {
    /// The caller's, which gets a pidfd for it (the init).
    Caller,
    /// The caller's parent's (`CLONE_PARENT`): the launcher starts programs that the judge
    /// waits for itself, with `wait4`, as if it had forked them.
    CallersParent,
}

/// Everything the program's exec needs, built before the clone.
pub(super) struct Plan {
    pub argv: Vec<CString>,
    pub env: Vec<CString>,
    pub target: Target,
    pub workdir: CString,
    /// `(resource, value)`, soft = hard.
    pub rlimits: Vec<(i64, u64)>,
    pub identity: Identity,
    /// In a process group of its own (`setpgid(0, 0)`), which the judge kills as a whole.
    pub own_group: bool,
    /// The cgroups' `tasks` files the program joins before exec.
    pub cgroup_tasks: Vec<RawFd>,
    /// A file exec does not recognise (a script without `#!`) runs with /bin/sh, as `execvp`
    /// runs it.
    pub shell_fallback: bool,
    /// For a confined program: what its keyrings are when it starts.
    pub keyrings: Keyrings,
}

/// A confined program's keyrings.
pub(super) enum Keyrings {
    /// The caller's: for a program the init starts from its filtered thread, which inherits
    /// the syscall filter, and the filter refuses every key system call (the worker's
    /// session keyring, which the init made fresh and empty, is out of its reach).
    Inherited,
    /// A new, empty session keyring of its own; with `clear_user`, its user's own keyrings
    /// (`@u`, `@us`) emptied too, which Linux ≥ 5.3 keeps per user namespace (the worker's),
    /// so that nothing one run plants there reaches the next. Never `clear_user` where they
    /// are the user's own, machine-wide.
    Fresh { clear_user: bool },
}

/// `bytes` (an argument, a variable, a path from a message) as exec takes it.
pub(super) fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "an argument holds a NUL byte"))
}

/// A started program: its pid, a pidfd when its parent is the caller, and the errno of a
/// failed exec (the child has then exited and awaits reaping by its parent).
pub(super) struct Spawned {
    pub pid: libc::pid_t,
    pub pidfd: Option<OwnedFd>,
    pub exec_errno: Option<i32>,
}

/// What the child reads between the clone and exec: laid out before the clone, since the
/// child shares this process's memory and must not allocate.
struct Child<'a> {
    plan: &'a Plan,
    /// The descriptors to place at 0, 1, 2, 3…, in that order.
    fds: Vec<RawFd>,
    /// Room for their copies, above the slots, while they are moved.
    high: Vec<RawFd>,
    argv: Vec<*const libc::c_char>,
    env: Vec<*const libc::c_char>,
    /// `/bin/sh PATH ARGS…`, for `shell_fallback`.
    shell_argv: Vec<*const libc::c_char>,
    /// Where the child leaves exec's errno when exec fails (0: it did not fail).
    errno: AtomicI32,
    /// The signals this process ignores, which the program must not inherit ignored.
    ignored: &'static [libc::c_int],
}

/// The signals this process ignores, read once: neither the init nor the launcher changes a
/// disposition after it starts serving. One `sigaction` per spawn instead of thirty.
fn ignored_signals() -> &'static [libc::c_int] {
    static IGNORED: OnceLock<Vec<libc::c_int>> = OnceLock::new();
    IGNORED.get_or_init(|| {
        (1..libc::SIGRTMIN())
            .filter(|&signal| signal != libc::SIGKILL && signal != libc::SIGSTOP)
            .filter(|&signal| {
                // SAFETY: sigaction with a null new action only reads the current one.
                let mut old: libc::sigaction = unsafe { std::mem::zeroed() };
                let read = unsafe { libc::sigaction(signal, std::ptr::null(), &raw mut old) };
                read == 0 && old.sa_sigaction == libc::SIG_IGN
            })
            .collect()
    })
}

/// The child's stack: it runs only the few calls between the clone and exec.
const STACK: usize = 64 * 1024;
const SHELL: &std::ffi::CStr = c"/bin/sh";

/// Starts `plan` with `fds` placed at 0, 1, 2, … (the executable last for [`Target::LastFd`]).
pub(super) fn spawn(plan: &Plan, fds: &[RawFd], parent: Parent) -> io::Result<Spawned> {
    let pointers = |strings: &[CString]| -> Vec<*const libc::c_char> {
        strings
            .iter()
            .map(|s| s.as_ptr())
            .chain([std::ptr::null()])
            .collect()
    };
    let shell_argv = match (&plan.target, plan.shell_fallback) {
        (Target::Path(path), true) => [SHELL.as_ptr(), path.as_ptr()]
            .into_iter()
            .chain(plan.argv.iter().skip(1).map(|a| a.as_ptr()))
            .chain([std::ptr::null()])
            .collect(),
        _ => Vec::new(),
    };
    let mut child = Child {
        plan,
        fds: fds.to_vec(),
        high: vec![-1; fds.len()],
        argv: pointers(&plan.argv),
        env: pointers(&plan.env),
        shell_argv,
        errno: AtomicI32::new(0),
        ignored: ignored_signals(),
    };
    let mut stack = vec![0u8; STACK];
    // SAFETY: the top of a buffer that outlives the child's use of it (CLONE_VFORK: this
    // process waits until the child has exec'd or exited), aligned down to 16 bytes.
    let top = unsafe { stack.as_mut_ptr().add(STACK) };
    let top = (top as usize & !15) as *mut libc::c_void;
    let mut pidfd: libc::c_int = -1;
    let flags = libc::CLONE_VM
        | libc::CLONE_VFORK
        | libc::SIGCHLD
        | match parent {
            Parent::Caller => libc::CLONE_PIDFD,
            Parent::CallersParent => libc::CLONE_PARENT,
        };
    // SAFETY: `run_child` runs on its own stack, touches only `child` (alive until clone
    // returns, since CLONE_VFORK suspends this process until the child execs or exits) and
    // makes no allocation; the pidfd slot is valid for the call.
    let pid = unsafe {
        libc::clone(
            run_child,
            top,
            flags,
            (&raw mut child).cast(),
            &raw mut pidfd,
        )
    };
    if pid < 0 {
        return Err(super::sys::fail("clone the program's process"));
    }
    drop(stack);
    let pidfd = (parent == Parent::Caller).then(|| {
        // SAFETY: CLONE_PIDFD filled the slot with a fresh descriptor.
        unsafe { OwnedFd::from_raw_fd(pidfd) }
    });
    let errno = child.errno.load(Ordering::SeqCst);
    Ok(Spawned {
        pid,
        pidfd,
        exec_errno: (errno != 0).then_some(errno),
    })
}

/// The program's process until exec; on failure it leaves the errno in the shared [`Child`]
/// and exits.
extern "C" fn run_child(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the parent's `Child`, alive and not touched by the suspended parent.
    let child = unsafe { &mut *arg.cast::<Child<'_>>() };
    let errno = exec(child);
    child.errno.store(errno.max(1), Ordering::SeqCst);
    // The thread's own exit, not `exit_group`: the init holds every `exit_group` of its
    // namespace for itself to answer, and it waits for this child. Its only thread, so the
    // process ends.
    // SAFETY: leaving without running anything of the parent's.
    unsafe { libc::syscall(libc::SYS_exit, 127) };
    // SAFETY: not reached; `_exit` if it were.
    unsafe { libc::_exit(127) }
}

/// Gives the program a new, empty session keyring of its own, so that the keys of the user's
/// session (which it would otherwise inherit and possess) are out of its reach and nothing it
/// adds outlives it; with `clear_user`, also empties its user and user-session keyrings. A
/// kernel without keys (`ENOSYS`) has nothing to hide. Async-signal-safe: system calls only.
pub(super) fn fresh_keyrings(clear_user: bool) -> Result<(), i32> {
    const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
    let errno = || {
        io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO)
    };
    // SAFETY: keyctl with integer arguments and a null name (an anonymous keyring).
    let joined = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if joined < 0 {
        return match errno() {
            libc::ENOSYS => Ok(()),
            errno => Err(errno),
        };
    }
    if clear_user {
        clear_user_keyrings()?;
    }
    Ok(())
}

/// Empties the caller's user and user-session keyrings (`@u`, `@us`), which Linux ≥ 5.3 keeps
/// per user namespace. Async-signal-safe: system calls only.
pub(super) fn clear_user_keyrings() -> Result<(), i32> {
    const KEYCTL_CLEAR: libc::c_long = 7;
    const KEY_SPEC_USER_KEYRING: libc::c_long = -4;
    const KEY_SPEC_USER_SESSION_KEYRING: libc::c_long = -5;
    for keyring in [KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING] {
        // SAFETY: keyctl with integer arguments.
        if unsafe { libc::syscall(libc::SYS_keyctl, KEYCTL_CLEAR, keyring) } < 0 {
            return Err(io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO));
        }
    }
    Ok(())
}

/// Returns only on failure, with its errno. Calls only async-signal-safe functions and
/// allocates nothing: the process shares its parent's memory until exec.
fn exec(child: &mut Child<'_>) -> i32 {
    let errno = || {
        io::Error::last_os_error()
            .raw_os_error()
            .unwrap_or(libc::EIO)
    };
    let plan = child.plan;
    // SAFETY (whole function): plain system calls on descriptors and memory this process
    // owns, with valid pointers to NUL-terminated strings and NULL-terminated arrays.
    unsafe {
        // Into the run's cgroups first ("0" is the writing task), while the descriptors
        // opened before the namespaces were made are still open.
        for &tasks in &plan.cgroup_tasks {
            if libc::pwrite(tasks, c"0".as_ptr().cast(), 1, 0) != 1 {
                return errno();
            }
        }
        // Move every descriptor it needs out of the way (above the slots they go to, low
        // enough not to grow the descriptor table), then into place: 0 1 2, then the extra
        // ones from 3, then the executable.
        let slots = child.fds.len() as libc::c_int;
        for (slot, fd) in child.high.iter_mut().zip(&child.fds) {
            *slot = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, slots);
            if *slot < 0 {
                return errno();
            }
        }
        for (target, fd) in child.high.iter().enumerate() {
            // The result is inherited by exec (no CLOEXEC).
            if libc::dup2(*fd, target as RawFd) < 0 {
                return errno();
            }
        }
        let placed = child.high.len() as u32;
        libc::syscall(libc::SYS_close_range, placed, u32::MAX, 0);
        if libc::chdir(plan.workdir.as_ptr()) != 0 {
            return errno();
        }
        if plan.own_group && libc::setpgid(0, 0) != 0 {
            return errno();
        }
        for &(resource, value) in &plan.rlimits {
            let limit = libc::rlimit {
                rlim_cur: value as libc::rlim_t,
                rlim_max: value as libc::rlim_t,
            };
            if libc::setrlimit(resource as _, &raw const limit) != 0 {
                return errno();
            }
        }
        // Signal state back to defaults: exec keeps ignored signals ignored (the harness
        // ignores SIGPIPE) and the mask as it is (the init blocks SIGCHLD); it resets caught
        // ones itself.
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const empty, std::ptr::null_mut());
        for &signal in child.ignored {
            libc::signal(signal, libc::SIG_DFL);
        }
        if let Identity::Confined { uid, gid } = plan.identity {
            if uid != 0 {
                if libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(gid, gid, gid) != 0
                    || libc::setresuid(uid, uid, uid) != 0
                {
                    return errno();
                }
            } else {
                // The judge's own id only is mapped: stay uid 0 of the namespace, but let
                // exec grant no capabilities.
                const SECBIT_NOROOT: libc::c_ulong = 1 << 0;
                const SECBIT_NOROOT_LOCKED: libc::c_ulong = 1 << 1;
                if libc::prctl(
                    libc::PR_SET_SECUREBITS,
                    SECBIT_NOROOT | SECBIT_NOROOT_LOCKED,
                ) != 0
                {
                    return errno();
                }
            }
            if let Keyrings::Fresh { clear_user } = plan.keyrings {
                if let Err(errno) = fresh_keyrings(clear_user) {
                    return errno;
                }
            }
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        }
        match &plan.target {
            Target::Path(path) => {
                libc::execve(path.as_ptr(), child.argv.as_ptr(), child.env.as_ptr());
                let failed = errno();
                if failed == libc::ENOEXEC && !child.shell_argv.is_empty() {
                    libc::execve(
                        SHELL.as_ptr(),
                        child.shell_argv.as_ptr(),
                        child.env.as_ptr(),
                    );
                }
                failed
            }
            Target::LastFd => {
                libc::syscall(
                    libc::SYS_execveat,
                    placed as RawFd - 1,
                    c"".as_ptr(),
                    child.argv.as_ptr(),
                    child.env.as_ptr(),
                    libc::AT_EMPTY_PATH,
                );
                errno()
            }
        }
    }
}
