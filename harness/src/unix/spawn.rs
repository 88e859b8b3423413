//! Starts a run's program without copying the judge: clone(CLONE_VM | CLONE_VFORK), as
//! posix_spawn does, with the process group, standard streams, working folder and rlimits set
//! in the child between clone and exec.
//!
//! Why not std's `Command`: it uses posix_spawn only when no `pre_exec` hook is set, and the
//! rlimits need one; with a hook it forks, copying the judge's page tables for exec to throw
//! them away (a third of the judge's own cost per run on a tiny program). The ways around a
//! hook are worse: prlimit(2) after posix_spawn races the program, and the stack limit must be
//! in place at exec, when the kernel lays out the stack; limits set on the judge for the child
//! to inherit would hold the judge to them (RLIMIT_CPU would kill it) and race parallel runs.
//!
//! Until it execs, the child shares the judge's memory while the thread that cloned it waits,
//! so it only makes system calls on values prepared beforehand: no allocation, no locks, no
//! panics. Signals are blocked around clone, so no handler of the judge runs in the child; the
//! child resets handled signals (and SIGPIPE, as std does) to their default, then unblocks.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::ptr;
use std::sync::atomic::{AtomicI32, Ordering};

use nix::sys::resource::{rlim_t, setrlimit, Resource};
use nix::unistd::{access, AccessFlags};

/// The child's stack, guard page included: it only makes system calls.
const STACK_BYTES: usize = 64 * 1024;
/// What a failed child exits with before the parent reaps it (as a shell's "cannot execute").
const SETUP_FAILED: libc::c_int = 127;

/// The step of the child's set-up that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(i32)]
enum Step {
    Succeeded = 0,
    Signals,
    Group,
    Streams,
    Folder,
    Limits,
    Exec,
}

impl Step {
    fn from_i32(value: i32) -> Step {
        [
            Step::Signals,
            Step::Group,
            Step::Streams,
            Step::Folder,
            Step::Limits,
            Step::Exec,
        ]
        .into_iter()
        .find(|&step| step as i32 == value)
        .unwrap_or(Step::Succeeded)
    }
}

/// Everything the child needs, prepared by the parent; the child only reads it, except for
/// the two fields through which it reports a failure.
struct ChildSetup<'a> {
    path: &'a CStr,
    /// Null-terminated arrays of pointers into strings the parent keeps alive.
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    workdir: &'a CStr,
    /// The descriptors that become stdin, stdout and stderr; all are 3 or above.
    streams: [RawFd; 3],
    rlimits: &'a [(Resource, rlim_t)],
    failed_step: AtomicI32,
    errno: AtomicI32,
}

/// Starts `program` (looked up in `PATH` when it has no `/`) with `args`, in its own process
/// group, with `streams` as stdin, stdout and stderr, in `workdir`, under `rlimits`. Returns
/// the pid once the program runs; an error means it never started (and has been reaped).
pub(crate) fn clone_vfork(
    program: &Path,
    args: &[OsString],
    streams: [OwnedFd; 3],
    workdir: &Path,
    rlimits: &[(Resource, rlim_t)],
) -> io::Result<libc::pid_t> {
    let path = resolve(program)?;
    let argv_strings = std::iter::once(program.as_os_str())
        .chain(args.iter().map(OsString::as_os_str))
        .map(c_string)
        .collect::<io::Result<Vec<_>>>()?;
    let env_strings = std::env::vars_os()
        .map(|(key, value)| {
            let mut pair = key.into_vec();
            pair.push(b'=');
            pair.extend_from_slice(value.as_bytes());
            c_string(OsStr::from_bytes(&pair))
        })
        .collect::<io::Result<Vec<_>>>()?;
    let argv = null_terminated(&argv_strings);
    let envp = null_terminated(&env_strings);
    let workdir_c = c_string(workdir.as_os_str())?;
    // A stream on descriptor 0–2 could be overwritten by another's dup2 before its own.
    let [stdin, stdout, stderr] = streams;
    let streams = [
        above_stdio(stdin)?,
        above_stdio(stdout)?,
        above_stdio(stderr)?,
    ];

    let setup = ChildSetup {
        path: &path,
        argv: &argv,
        envp: &envp,
        workdir: &workdir_c,
        streams: streams.each_ref().map(AsRawFd::as_raw_fd),
        rlimits,
        failed_step: AtomicI32::new(Step::Succeeded as i32),
        errno: AtomicI32::new(0),
    };
    let stack = Stack::new()?;
    let pid = with_signals_blocked(|| {
        // SAFETY: the stack is ours and unused; `setup` outlives the child's use of it,
        // because CLONE_VFORK suspends this thread until the child has exec'd or exited; the
        // child only runs `child_main`, which is written for a shared address space.
        let pid = unsafe {
            libc::clone(
                child_main,
                stack.top(),
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                ptr::from_ref(&setup).cast_mut().cast(),
            )
        };
        if pid < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(pid)
        }
    })??;

    let step = Step::from_i32(setup.failed_step.load(Ordering::SeqCst));
    if step == Step::Succeeded {
        return Ok(pid);
    }
    reap(pid);
    let cause = io::Error::from_raw_os_error(setup.errno.load(Ordering::SeqCst));
    let context = match step {
        // As std reports it: "No such file or directory", "Permission denied".
        Step::Exec | Step::Succeeded => return Err(cause),
        Step::Signals => "cannot reset the signal handlers".to_string(),
        Step::Group => "cannot make a process group".to_string(),
        Step::Streams => "cannot connect stdin, stdout and stderr".to_string(),
        Step::Folder => format!("cannot enter the working folder `{}`", workdir.display()),
        Step::Limits => "cannot set the rlimits".to_string(),
    };
    Err(io::Error::new(cause.kind(), format!("{context}: {cause}")))
}

/// The child: set up, then exec. Never returns to the caller of clone.
extern "C" fn child_main(setup: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `clone_vfork` passes a `ChildSetup` that lives until the child execs or exits.
    let setup = unsafe { &*setup.cast_const().cast::<ChildSetup<'_>>() };
    // SAFETY: called once, in the child, on a setup whose pointers are valid.
    let step = unsafe { set_up_and_exec(setup) };
    // SAFETY: errno is this thread's (the parent thread's, which is suspended) to read.
    let errno = unsafe { *libc::__errno_location() };
    setup.errno.store(errno, Ordering::SeqCst);
    setup.failed_step.store(step as i32, Ordering::SeqCst);
    // SAFETY: _exit ends the child at once, without running the judge's exit handlers.
    unsafe { libc::_exit(SETUP_FAILED) }
}

/// Returns only on failure, with the step that failed (errno says why).
///
/// # Safety
/// Only in the child of `clone_vfork`: it changes the process's signal handlers, group,
/// descriptors and folder.
unsafe fn set_up_and_exec(setup: &ChildSetup<'_>) -> Step {
    // SAFETY (whole function): raw system calls on valid, prepared values.
    unsafe {
        // The child has its own copy of the handler table (no CLONE_SIGHAND), so this leaves
        // the judge's handlers alone. Signals 32 and 33 belong to libc and fail the query.
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        for signal in 1..=libc::SIGRTMAX() {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, ptr::null(), &mut current) != 0 {
                continue;
            }
            let handled =
                current.sa_sigaction != libc::SIG_DFL && current.sa_sigaction != libc::SIG_IGN;
            if (handled || signal == libc::SIGPIPE)
                && libc::sigaction(signal, &default, ptr::null_mut()) != 0
            {
                return Step::Signals;
            }
        }
        if libc::setpgid(0, 0) != 0 {
            return Step::Group;
        }
        for (target, &source) in (0..).zip(&setup.streams) {
            if libc::dup2(source, target) < 0 {
                return Step::Streams;
            }
        }
        if libc::chdir(setup.workdir.as_ptr()) != 0 {
            return Step::Folder;
        }
        for &(resource, value) in setup.rlimits {
            if setrlimit(resource, value, value).is_err() {
                return Step::Limits;
            }
        }
        // The program starts with nothing blocked, as std starts children.
        let mut nothing: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut nothing);
        if libc::sigprocmask(libc::SIG_SETMASK, &nothing, ptr::null_mut()) != 0 {
            return Step::Signals;
        }
        libc::execve(
            setup.path.as_ptr(),
            setup.argv.as_ptr(),
            setup.envp.as_ptr(),
        );
        Step::Exec
    }
}

/// Runs `f` with every signal blocked on this thread, then restores the mask.
fn with_signals_blocked<T>(f: impl FnOnce() -> T) -> io::Result<T> {
    // SAFETY: sigset_t is plain data, filled by sigfillset; pthread_sigmask only reads and
    // writes the two sets given.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut previous: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        let error = libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut previous);
        if error != 0 {
            return Err(io::Error::from_raw_os_error(error));
        }
        let result = f();
        libc::pthread_sigmask(libc::SIG_SETMASK, &previous, ptr::null_mut());
        Ok(result)
    }
}

/// The file to exec: `program` itself when it names a folder, else the first executable
/// file of that name in `PATH`, as execvp would find it. Made absolute, since the child
/// changes folder before exec.
fn resolve(program: &Path) -> io::Result<CString> {
    if program.as_os_str().as_bytes().contains(&b'/') {
        return c_string(program.as_os_str());
    }
    if program.as_os_str().is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "empty program name",
        ));
    }
    let search = std::env::var_os("PATH").unwrap_or_else(|| "/bin:/usr/bin".into());
    let mut denied = false;
    for folder in search.as_bytes().split(|&byte| byte == b':') {
        let folder = if folder.is_empty() {
            Path::new(".")
        } else {
            Path::new(OsStr::from_bytes(folder))
        };
        let candidate: PathBuf = std::path::absolute(folder.join(program))?;
        match access(&candidate, AccessFlags::X_OK) {
            Ok(()) if candidate.is_file() => return c_string(candidate.as_os_str()),
            Ok(()) => {}
            Err(nix::errno::Errno::EACCES) => denied = true,
            Err(_) => {}
        }
    }
    Err(io::Error::from(if denied {
        io::ErrorKind::PermissionDenied
    } else {
        io::ErrorKind::NotFound
    }))
}

fn c_string(text: &OsStr) -> io::Result<CString> {
    CString::new(text.as_bytes()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{text:?} contains a NUL byte"),
        )
    })
}

fn null_terminated(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|string| string.as_ptr())
        .chain(std::iter::once(ptr::null()))
        .collect()
}

/// `fd`, moved to a descriptor number of 3 or more if it is one of the standard three.
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() > 2 {
        return Ok(fd);
    }
    // SAFETY: F_DUPFD_CLOEXEC makes a new descriptor from one we own.
    let moved = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 3) };
    if moved < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the descriptor is fresh and ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(moved) })
}

/// Reaps a child that failed before exec.
fn reap(pid: libc::pid_t) {
    loop {
        let mut status = 0;
        // SAFETY: status is valid for the call; pid is our unreaped child.
        let got = unsafe { libc::waitpid(pid, &mut status, 0) };
        if got == pid || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// The child's stack: an anonymous mapping whose lowest page is a guard.
struct Stack {
    base: *mut libc::c_void,
}

impl Stack {
    fn new() -> io::Result<Stack> {
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                STACK_BYTES,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let stack = Stack { base };
        let page = usize::try_from(super::page_size()).unwrap_or(4096);
        // SAFETY: the first page of our own mapping.
        if unsafe { libc::mprotect(base, page, libc::PROT_NONE) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(stack)
    }

    /// Stacks grow down on every Linux target this builds for.
    fn top(&self) -> *mut libc::c_void {
        self.base.wrapping_byte_add(STACK_BYTES)
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        // SAFETY: our own mapping, no longer used: the child has exec'd or exited.
        unsafe { libc::munmap(self.base, STACK_BYTES) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_found_in_path() {
        let sh = resolve(Path::new("sh")).unwrap();
        assert!(sh.to_bytes().starts_with(b"/"), "{sh:?}");
        assert!(sh.to_bytes().ends_with(b"/sh"), "{sh:?}");
        assert_eq!(
            resolve(Path::new("./a.out")).unwrap().as_bytes(),
            b"./a.out"
        );
        let missing = resolve(Path::new("no-such-program-anywhere")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert_eq!(
            resolve(Path::new("")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }

    #[test]
    fn steps_round_trip() {
        for step in [
            Step::Succeeded,
            Step::Signals,
            Step::Group,
            Step::Streams,
            Step::Folder,
            Step::Limits,
            Step::Exec,
        ] {
            assert_eq!(Step::from_i32(step as i32), step);
        }
    }
}
