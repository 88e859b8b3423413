//! The harness binary started again as one of its own helpers (the `launcher`, a `zygote`):
//! which binary that is, and the one way to start it, talking over a socket.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::wire;

/// The harness binary to re-execute as a zygote or the launcher; unset in unit tests and
/// benchmarks that do not ask for the sandbox.
static HELPER: OnceLock<PathBuf> = OnceLock::new();

pub(crate) fn set_helper(path: PathBuf) {
    let _ = HELPER.set(path);
}

pub(crate) fn helper() -> Option<&'static Path> {
    HELPER.get().map(PathBuf::as_path)
}

/// Starts the harness binary as a helper (`role`: its hidden first argument) in a process group
/// of its own, with no standard streams, talking over the socket whose other end is returned.
pub(super) fn start(role: &str) -> io::Result<(std::process::Child, OwnedFd)> {
    let helper = helper().ok_or_else(|| io::Error::other("no harness binary to start"))?;
    let (ours, theirs) = wire::socket_pair()?;
    let theirs_fd = theirs.as_raw_fd();
    let mut command = Command::new(helper);
    command
        .arg(role)
        .arg(theirs_fd.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    // SAFETY: fcntl is async-signal-safe; it lets this one descriptor survive the exec.
    unsafe {
        command.pre_exec(move || {
            if libc::fcntl(theirs_fd, libc::F_SETFD, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = command.spawn()?;
    drop(theirs);
    Ok((child, ours))
}
