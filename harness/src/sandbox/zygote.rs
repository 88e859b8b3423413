//! The zygote: a small process, started by re-executing the harness, that makes the sandbox's
//! user, mount, network, IPC and UTS namespaces and its read-only view of the system once per
//! worker, then forks the worker's `init` as PID 1 of a PID namespace of its own and hands it
//! the socket to the judge. Namespaces and mounts cost milliseconds to make; the init starts
//! each run's program inside them for less than a plain fork costs, and starting it from this
//! small process instead of the judge keeps the judge's memory out of the program's peak.
//!
//! Protocol (see `wire`): config → `Ready` → (the judge writes the id maps) → `()` →
//! `Serving { init }`; then, with the init, per run: `Launch` + descriptors → `Started` +
//! pidfd → `Finished`.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use super::sys::{self, Cloned};
use super::wire::{self, Reply, ZygoteConfig};
use super::{init, view};

/// The hidden first argument that makes `harness` a zygote (see `main.rs`).
pub const ZYGOTE_ARG: &str = "__harness-sandbox-zygote";

/// Where the new root is assembled before `pivot_root`: a tmpfs over it hides the host's.
const BUILD_AT: &str = "/tmp";
const HOSTNAME: &str = "sandbox";
/// Files and folders a run may make in its folder: far above what contest programs make (a
/// JVM makes two), and few enough that their inodes, which the folder's size does not count,
/// hold little memory (about 1 KiB each).
const SCRATCH_INODES: u32 = 4096;
/// The folder in the new root that holds the host's scratch root (at `scratch` inside it):
/// the init binds run folders from there to /tmp, then covers this folder, keeping a handle
/// on what is underneath, so no program sees any folder but its own.
pub(super) const HIDDEN_AT: &str = "/.harness";

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

/// Entry point of `harness __harness-sandbox-zygote FD`. Never returns.
pub fn main(socket_arg: Option<&std::ffi::OsStr>) -> ! {
    let socket = wire::socket_or_exit(socket_arg);
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
    let scratch_folder = build_root(&config)?;

    // The init says it is set up by closing its end of this pipe, or why not by writing.
    let (ready_read, ready_write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)?;
    let init = match sys::clone_into(libc::CLONE_NEWPID as u64)? {
        Cloned::Child => {
            drop(ready_read);
            init::main(socket, ready_write, cgroup.as_ref(), &config)
        }
        Cloned::Parent { pid } => pid,
    };
    drop(ready_write);
    drop(cgroup);
    let mut why = Vec::new();
    let mut buf = [0u8; 512];
    while let Ok(n @ 1..) = nix::unistd::read(&ready_read, &mut buf) {
        why.extend_from_slice(&buf[..n]);
    }
    if !why.is_empty() {
        return Err(io::Error::other(String::from_utf8_lossy(&why).into_owned()));
    }
    wire::send(
        socket,
        &Reply::Serving { init },
        &[std::os::fd::AsRawFd::as_raw_fd(&scratch_folder)],
    )?;
    drop(scratch_folder);
    // From here the init alone talks to the judge; this process only waits for it to end.
    // SAFETY: closing our copy of the socket; the init holds its own.
    unsafe { libc::close(socket) };
    loop {
        let mut status = 0;
        // SAFETY: waits for the one child; the status pointer is valid.
        let got = unsafe { libc::waitpid(init, &raw mut status, 0) };
        if got == init
            || (got < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted)
        {
            return Ok(());
        }
    }
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
        joined_tasks: config
            .joined_cgroups
            .iter()
            .map(|group| write(Path::new(std::ffi::OsStr::from_bytes(group)).join("tasks")))
            .collect::<io::Result<_>>()?,
    }))
}

/// Assembles the program's world in a tmpfs and makes it the root: the system read-only, a
/// small /dev, mount points for /proc and the working folder, and nothing else of the host.
fn build_root(config: &ZygoteConfig) -> io::Result<OwnedFd> {
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

    // The host's /proc stays mounted underneath the init's own: the kernel lets a user
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
    // The worker's folder: a tmpfs of its own, so that what programs write there is bounded
    // (the init sizes it per run) and the judge can see how much it holds.
    let tmp = root.join("tmp");
    fs::create_dir(&tmp)?;
    sys::mount(
        None,
        &tmp,
        Some("tmpfs"),
        libc::MS_NOSUID | libc::MS_NODEV,
        Some(&format!(
            "size=1m,nr_inodes={SCRATCH_INODES},mode=0755,uid={},gid={}",
            config.program_uid, config.program_gid
        )),
    )?;
    let scratch_folder = nix::fcntl::open(
        &tmp,
        nix::fcntl::OFlag::O_PATH | nix::fcntl::OFlag::O_DIRECTORY | nix::fcntl::OFlag::O_CLOEXEC,
        nix::sys::stat::Mode::empty(),
    )
    .map_err(|error| io::Error::other(format!("open the worker's folder: {error}")))?;
    let scratch_at = root.join(HIDDEN_AT.trim_start_matches('/')).join("scratch");
    fs::create_dir_all(&scratch_at)?;
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
    Ok(scratch_folder)
}
