//! Thin wrappers over the Linux calls the sandbox needs that std and nix do not offer in the
//! shape needed here (mount attributes, clone3 into namespaces, pivot_root, open_tree).
//! Each returns `io::Result` with the failing step named, so a refused setup says what failed.

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Whether `fd` is readable at once (a pidfd: its process has ended), without waiting.
pub(crate) fn readable_now(fd: RawFd) -> bool {
    let mut polled = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, a zero timeout.
    let count = unsafe { libc::poll(&raw mut polled, 1, 0) };
    count > 0 && polled.revents & libc::POLLIN != 0
}

/// `path` as a C string; a NUL inside a path is an invalid argument.
pub(crate) fn cstr(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path holds a NUL byte"))
}

/// The last OS error, prefixed with what was being done.
pub(crate) fn fail(what: impl std::fmt::Display) -> io::Error {
    let error = io::Error::last_os_error();
    io::Error::new(error.kind(), format!("{what}: {error}"))
}

pub(crate) fn mount(
    source: Option<&Path>,
    target: &Path,
    fstype: Option<&str>,
    flags: libc::c_ulong,
    data: Option<&str>,
) -> io::Result<()> {
    let source_c = source.map(cstr).transpose()?;
    let target_c = cstr(target)?;
    let fstype_c = fstype.map(|t| CString::new(t).unwrap_or_default());
    let data_c = data.map(|d| CString::new(d).unwrap_or_default());
    let ptr = |c: &Option<CString>| c.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
    // SAFETY: every pointer is a NUL-terminated string that outlives the call, or null.
    let rc = unsafe {
        libc::mount(
            ptr(&source_c),
            target_c.as_ptr(),
            ptr(&fstype_c),
            flags,
            ptr(&data_c).cast(),
        )
    };
    if rc != 0 {
        return Err(fail(format_args!(
            "mount {} on `{}`",
            source.map_or_else(
                || fstype.unwrap_or("-").to_owned(),
                |s| format!("`{}`", s.display())
            ),
            target.display()
        )));
    }
    Ok(())
}

/// Makes the mount at `target` and every mount under it read-only, no-suid (and no-dev unless
/// `devices`), keeping whatever flags the kernel locked on it.
pub(crate) fn make_read_only(target: &Path, devices: bool) -> io::Result<()> {
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    const MOUNT_ATTR_NOSUID: u64 = 0x2;
    const MOUNT_ATTR_NODEV: u64 = 0x4;
    const AT_RECURSIVE: libc::c_uint = 0x8000;
    let mut set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID;
    if !devices {
        set |= MOUNT_ATTR_NODEV;
    }
    let attr = MountAttr {
        attr_set: set,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    let target_c = cstr(target)?;
    // SAFETY: the attribute struct is the kernel's mount_attr (v0, 32 bytes) and outlives the
    // call; the path is NUL-terminated.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            target_c.as_ptr(),
            AT_RECURSIVE,
            &raw const attr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc == 0 {
        return Ok(());
    }
    // Before Linux 5.12: remount the top mount alone, keeping the flags it has (a user
    // namespace may add flags to a mount from outside but never drop them).
    let current = nix::sys::statvfs::statvfs(target).map_err(io::Error::from)?;
    let mut flags = libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID;
    let had = current.flags();
    use nix::sys::statvfs::FsFlags;
    for (flag, ms) in [
        (FsFlags::ST_NODEV, libc::MS_NODEV),
        (FsFlags::ST_NOEXEC, libc::MS_NOEXEC),
        (FsFlags::ST_NOATIME, libc::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, libc::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if had.contains(flag) {
            flags |= ms;
        }
    }
    if !devices {
        flags |= libc::MS_NODEV;
    }
    mount(None, target, None, flags, None)
}

/// Binds host `source` read-only at `target` (made as a folder or an empty file to match).
pub(crate) fn bind_read_only(source: &Path, target: &Path, devices: bool) -> io::Result<()> {
    if source.is_dir() {
        std::fs::create_dir_all(target)?;
    } else {
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::File::create(target)?;
    }
    mount(
        Some(source),
        target,
        None,
        libc::MS_BIND | libc::MS_REC,
        None,
    )?;
    make_read_only(target, devices)
}

/// Makes the current folder the root, dropping the old one (`pivot_root(".", ".")`).
pub(crate) fn pivot_here() -> io::Result<()> {
    let dot = c".";
    // SAFETY: both arguments are NUL-terminated strings.
    if unsafe { libc::syscall(libc::SYS_pivot_root, dot.as_ptr(), dot.as_ptr()) } != 0 {
        return Err(fail("pivot_root"));
    }
    // SAFETY: as above.
    if unsafe { libc::umount2(dot.as_ptr(), libc::MNT_DETACH) } != 0 {
        return Err(fail("detach the old root"));
    }
    std::env::set_current_dir("/")
}

/// The kernel's clone_args (v0, 64 bytes), the same on every architecture.
#[repr(C)]
#[derive(Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
}

/// What a fork-like `clone3` returned.
pub(crate) enum Cloned {
    /// In the parent: the child's pid.
    Parent {
        pid: libc::pid_t,
    },
    Child,
}

/// Forks into new namespaces (`flags`: CLONE_NEW*). The caller must be single-threaded: the
/// child goes on with a copy of this process.
pub(crate) fn clone_into(flags: u64) -> io::Result<Cloned> {
    let args = CloneArgs {
        flags,
        exit_signal: libc::SIGCHLD as u64,
        ..CloneArgs::default()
    };
    // SAFETY: with no stack given, clone3 behaves as fork; the arguments struct outlives the
    // call.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &raw const args,
            std::mem::size_of::<CloneArgs>(),
        )
    };
    match pid {
        0 => Ok(Cloned::Child),
        pid if pid > 0 => Ok(Cloned::Parent {
            pid: pid as libc::pid_t,
        }),
        _ => Err(fail("clone3 into new namespaces")),
    }
}

/// Installs the seccomp filter `program` on this thread (which must be the process's only
/// one) and returns the listener its `SECCOMP_RET_USER_NOTIF` answers go to (close-on-exec).
/// Needs `no_new_privs` or `CAP_SYS_ADMIN` in the user namespace.
pub(crate) fn seccomp_listener(program: &[seccompiler::sock_filter]) -> io::Result<OwnedFd> {
    let fd = set_mode_filter(program, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER)
        .map_err(|_| fail("install the exit listener's seccomp filter"))?;
    // SAFETY: the descriptor is fresh and ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Installs the seccomp filters `programs` on this thread, and so on every process it
/// starts from now on. Needs `no_new_privs` or `CAP_SYS_ADMIN` in the user namespace.
pub(crate) fn install_filters(programs: &[seccompiler::BpfProgram]) -> io::Result<()> {
    for program in programs {
        set_mode_filter(program, 0).map_err(|_| fail("install the syscall filter"))?;
    }
    Ok(())
}

/// `seccomp(SECCOMP_SET_MODE_FILTER, flags, program)`: what it returns, or -1 with errno set.
fn set_mode_filter(program: &[seccompiler::sock_filter], flags: libc::c_ulong) -> io::Result<i64> {
    #[repr(C)]
    struct SockFprog {
        len: libc::c_ushort,
        filter: *const seccompiler::sock_filter,
    }
    let fprog = SockFprog {
        len: libc::c_ushort::try_from(program.len())
            .map_err(|_| io::Error::other("a seccomp filter too long"))?,
        filter: program.as_ptr(),
    };
    // SAFETY: the program outlives the call, which copies it; the flags are integers.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            flags,
            &raw const fprog,
        )
    };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(rc)
}

/// Sends SIGKILL through a pidfd: never hits a recycled pid.
pub(crate) fn pidfd_kill(pidfd: RawFd) {
    // SAFETY: integers only; a dead process makes this fail harmlessly (ESRCH).
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            pidfd,
            libc::SIGKILL,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        )
    };
}

/// Writes all of `bytes` to an already open file, at offset 0 for cgroup and /proc files.
pub(crate) fn write_at_start(file: &std::fs::File, bytes: &[u8]) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.write_all_at(bytes, 0)
}

/// Reads a small file opened once (cgroup counters) from its start.
pub(crate) fn read_small(file: &std::fs::File, buf: &mut [u8]) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    file.read_at(buf, 0)
}

/// A detached copy of the mount tree at `path` (`open_tree` with `OPEN_TREE_CLONE`), to be
/// attached elsewhere by [`move_tree`] once `path` may be hidden.
pub(crate) fn clone_tree(path: &Path) -> io::Result<OwnedFd> {
    clone_tree_at(libc::AT_FDCWD, path)
}

/// [`clone_tree`] of `path` relative to the folder `dir` (a descriptor).
pub(crate) fn clone_tree_at(dir: RawFd, path: &Path) -> io::Result<OwnedFd> {
    const OPEN_TREE_CLONE: libc::c_uint = 1;
    const AT_RECURSIVE: libc::c_uint = 0x8000;
    let path_c = cstr(path)?;
    // SAFETY: a NUL-terminated path and integer flags; returns a new descriptor.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_open_tree,
            dir,
            path_c.as_ptr(),
            OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(fail(format_args!("open_tree `{}`", path.display())));
    }
    // SAFETY: the descriptor is fresh and ours alone.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Attaches a tree from [`clone_tree`] at `target`.
pub(crate) fn move_tree(tree: &OwnedFd, target: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;
    let target_c = cstr(target)?;
    // SAFETY: a descriptor we own, an empty and a NUL-terminated path, integer flags.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_FDCWD,
            target_c.as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        )
    };
    if rc != 0 {
        return Err(fail(format_args!("move_mount to `{}`", target.display())));
    }
    Ok(())
}
