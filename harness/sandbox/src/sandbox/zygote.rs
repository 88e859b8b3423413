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

use super::init::{self, Cgroup};
use super::sys::{self, Cloned};
use super::view;
use super::wire::{self, Reply, ZygoteConfig};

/// The hidden first argument that makes `harness` a zygote (see `main.rs`).
pub const ZYGOTE_ARG: &str = "__harness-sandbox-zygote";

/// Where the new root is assembled before `pivot_root`: a tmpfs over it hides the host's.
const BUILD_AT: &str = "/tmp";
const HOSTNAME: &str = "sandbox";

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

/// Assembles the program's world in a tmpfs and makes it the root: [`view::rules`] for this
/// machine and the worker's prefixes, applied in order, then every tmpfs but the worker's
/// folder made read-only. Returns a descriptor of the worker's folder (/tmp).
fn build_root(config: &ZygoteConfig) -> io::Result<OwnedFd> {
    sys::mount(
        None,
        Path::new("/"),
        None,
        libc::MS_REC | libc::MS_PRIVATE,
        None,
    )?;
    let _ = nix::unistd::sethostname(HOSTNAME);
    // Taken before the root's tmpfs can hide it (the scratch root may be under /tmp).
    let scratch = sys::clone_tree(Path::new(std::ffi::OsStr::from_bytes(&config.scratch_root)))?;
    let prefixes: Vec<PathBuf> = config
        .prefixes
        .iter()
        .map(|prefix| PathBuf::from(std::ffi::OsStr::from_bytes(prefix)))
        .collect();
    let needs = view::Needs {
        prefixes: &prefixes,
        owner: (config.program_uid, config.program_gid),
    };
    let rules = view::rules(&view::Machine::here()?, &needs);
    let root = Path::new(BUILD_AT);
    for rule in &rules {
        apply(rule, root, &scratch)?;
    }
    let worker_folder = nix::fcntl::open(
        &root.join("tmp"),
        nix::fcntl::OFlag::O_PATH | nix::fcntl::OFlag::O_DIRECTORY | nix::fcntl::OFlag::O_CLOEXEC,
        nix::sys::stat::Mode::empty(),
    )
    .map_err(|error| io::Error::other(format!("open the worker's folder: {error}")))?;
    std::env::set_current_dir(root)?;
    sys::pivot_here()?;
    // Deepest first: the root last.
    for rule in rules.iter().rev().filter(|rule| !rule.writable()) {
        if let view::Mount::Tmpfs(tmpfs) = &rule.mount {
            let flags = libc::MS_REMOUNT | libc::MS_RDONLY | tmpfs_flags(tmpfs);
            sys::mount(None, &rule.target, None, flags, None)?;
        }
    }
    Ok(worker_folder)
}

/// Applies one rule of the view to the root being built at `root`.
fn apply(rule: &view::Rule, root: &Path, scratch: &OwnedFd) -> io::Result<()> {
    let at = root.join(rule.target.strip_prefix("/").unwrap_or(&rule.target));
    let gone = |source: &Path| fs::symlink_metadata(source).is_err();
    if rule.optional && rule.source().is_some_and(gone) {
        return Ok(());
    }
    match &rule.mount {
        view::Mount::Tmpfs(tmpfs) => {
            fs::create_dir_all(&at)?;
            let data = tmpfs.data();
            sys::mount(None, &at, Some("tmpfs"), tmpfs_flags(tmpfs), Some(&data))
        }
        view::Mount::ReadOnly { source, devices } => {
            let bound = sys::bind_read_only(source, &at, *devices);
            if *devices {
                // A device the kernel will not let this namespace remount: bound as it is,
                // under the read-only /dev.
                return bound.or_else(|_| sys::mount(Some(source), &at, None, libc::MS_BIND, None));
            }
            bound
        }
        view::Mount::Symlink { to } => symlink(to, &at),
        view::Mount::Proc => {
            fs::create_dir_all(&at)?;
            sys::mount(
                Some(Path::new("/proc")),
                &at,
                None,
                libc::MS_BIND | libc::MS_REC,
                None,
            )
        }
        view::Mount::Scratch => {
            fs::create_dir_all(&at)?;
            sys::move_tree(scratch, &at)
        }
    }
}

fn tmpfs_flags(tmpfs: &view::Tmpfs) -> libc::c_ulong {
    let mut flags = libc::MS_NOSUID;
    if !tmpfs.devices {
        flags |= libc::MS_NODEV;
    }
    if !tmpfs.exec {
        flags |= libc::MS_NOEXEC;
    }
    flags
}
