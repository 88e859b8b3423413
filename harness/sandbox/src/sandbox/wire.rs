//! The messages between the judge and a sandbox zygote over a unix socket, with the run's file
//! descriptors passed along (SCM_RIGHTS), so the judge keeps the pipes it polls.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use serde::{Deserialize, Serialize};

/// Most descriptors one message carries: stdin, stdout, stderr, the working folder, the
/// executable and the copies of file arguments.
pub(crate) const MAX_FDS: usize = 32;
/// Largest message: the command line and environment of one run.
pub(crate) const MAX_MESSAGE: usize = 64 * 1024;

/// How the zygote is set up, given once when it starts.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ZygoteConfig {
    /// Host folders (install prefixes of interpreters) shown read-only at the same path.
    pub prefixes: Vec<Vec<u8>>,
    /// Per-zygote cgroup v1 folders, made by the judge (`None` where cgroups are unavailable).
    pub memory_cgroup: Option<Vec<u8>>,
    /// Cgroup folders the program joins besides the memory one (`pids`, `cpu`).
    pub joined_cgroups: Vec<Vec<u8>>,
    /// The user id the program runs as inside the namespace (0 when only the judge's own id is
    /// mapped; an unprivileged id when the judge is root and can map it).
    pub program_uid: u32,
    pub program_gid: u32,
    /// The host folder under which every run's working folder is made.
    pub scratch_root: Vec<u8>,
    /// The kernel keeps user keyrings per user namespace (Linux ≥ 5.3): a program's own may
    /// be emptied before each run without touching the user's.
    pub user_keyrings_per_namespace: bool,
    /// The kernel lets a seccomp listener resume the call it was told of (Linux ≥ 5.5): the
    /// init may hold each `exit_group` to read the exiting program's own memory first.
    pub exit_listener: bool,
}

/// How the program is started.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Exec {
    /// By its path inside the sandbox (the system's and interpreters' programs).
    Path(Vec<u8>),
    /// From the last descriptor passed (a build product outside the sandbox's view).
    Fd,
}

/// One run: the descriptors passed alongside are stdin, stdout, stderr, then `extra_fds`
/// descriptors that become 3, 4, … in the program, then the executable when
/// `exec` is [`Exec::Fd`], then one file per name of `files`, which the init copies into the
/// run's folder and the program does not get.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Launch {
    pub argv: Vec<Vec<u8>>,
    pub env: Vec<Vec<u8>>,
    pub exec: Exec,
    /// `(resource, value)`, soft = hard.
    pub rlimits: Vec<(i64, u64)>,
    /// The cgroup's hard memory limit for the whole tree, in bytes.
    pub memory_cap: u64,
    pub extra_fds: usize,
    /// Refuse it the system calls of `filter` (seccomp).
    pub syscall_filter: bool,
    /// Room in the worker's folder for the files the program writes, in bytes, above the
    /// files placed there (`None`: half the machine's memory, when memory is not limited).
    pub scratch_room: Option<u64>,
    /// The names in the run's folder of the files passed last.
    pub files: Vec<Vec<u8>>,
    /// A file the program writes in its folder, opened by the init once the run has ended
    /// (without following links or blocking) and passed back with [`Finished`].
    pub output_file: Option<Vec<u8>>,
    /// The run's own working folder, relative to the scratch root (a file-I/O problem's, read
    /// after the run); `None`: the worker's folder.
    pub workdir: Option<Vec<u8>>,
}

/// How the program's run ended, as seen by its init.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Outcome {
    /// The program's raw wait status.
    Status(i32),
    /// exec failed with this errno: the program never started.
    ExecFailed(i32),
}

/// What the init measured once every process of the run is gone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Finished {
    pub outcome: Outcome,
    /// CPU time of the whole tree: every process of the run was reaped by the init.
    pub user_micros: u64,
    pub system_micros: u64,
    /// Largest `ru_maxrss` of a process of the tree, in KiB: the program's includes the
    /// high-water mark of the init's address space, which it was exec'd from.
    pub max_rss_kib: u64,
    /// The same, with the program's own instead: its address space's high-water mark, read
    /// as it called `exit_group`, where its `ru_maxrss` may be the init's; else as above.
    pub own_max_rss_kib: u64,
    /// Peak memory charged to the run's cgroup, above what was charged before it started.
    pub cgroup_peak: Option<u64>,
    /// The cgroup's memory limit was hit (the kernel's OOM killer acted).
    pub hit_memory_cap: bool,
    /// Bytes of files in the worker's folder, above those placed there, when the run ended.
    pub scratch_bytes: u64,
    /// The launch's output file: `Ok` when it rides along as a descriptor (a regular file),
    /// or why it was not opened.
    pub output_file: Option<Result<(), super::outcome::OutputFileError>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Reply {
    /// Set up; ready for runs.
    Ready,
    /// Could not set up or start a run; the text says why.
    Failed(String),
    /// The zygote's init, PID 1 of the worker's PID namespace, is `init` in the judge's: the
    /// root of every run's process tree. From now on the init answers. A descriptor of the
    /// worker's folder (its tmpfs) rides along: the judge reads its use while a run goes on.
    Serving {
        init: i32,
    },
    /// The program started; a pidfd for it rides along. `scratch_base`: bytes of the worker's
    /// folder in use before it started (the files placed there).
    Started {
        scratch_base: u64,
    },
    Finished(Finished),
}

/// The judge's order to a run's init to kill every process of the run at once. A killed
/// program dies only once it is scheduled, which among hundreds of runnable processes of
/// its own (a fork bomb) takes a while; `kill(-1)` from the init reaches them all. Not JSON,
/// so never taken for a launch; one that arrives after its run ended is ignored.
pub(crate) const STOP: &[u8] = b"stop";

/// Sends `message` with `fds`.
pub(crate) fn send<T: Serialize>(socket: RawFd, message: &T, fds: &[RawFd]) -> io::Result<()> {
    let bytes = serde_json::to_vec(message).map_err(io::Error::other)?;
    send_bytes(socket, &bytes, fds)
}

/// Sends one message of raw `bytes` with `fds`.
pub(crate) fn send_bytes(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> io::Result<()> {
    use nix::sys::socket::{sendmsg, ControlMessage, MsgFlags};
    let iov = [io::IoSlice::new(bytes)];
    let rights = [ControlMessage::ScmRights(fds)];
    let cmsgs: &[ControlMessage<'_>] = if fds.is_empty() { &[] } else { &rights };
    loop {
        match sendmsg::<()>(socket, &iov, cmsgs, MsgFlags::MSG_NOSIGNAL, None) {
            Ok(_) => return Ok(()),
            Err(nix::errno::Errno::EINTR) => continue,
            Err(error) => return Err(error.into()),
        }
    }
}

/// Receives one message and its descriptors; `None` when the other side is gone.
pub(crate) fn receive<T: for<'de> Deserialize<'de>>(
    socket: RawFd,
) -> io::Result<Option<(T, Vec<OwnedFd>)>> {
    let Some((bytes, fds)) = receive_bytes(socket)? else {
        return Ok(None);
    };
    let message = serde_json::from_slice(&bytes).map_err(io::Error::other)?;
    Ok(Some((message, fds)))
}

thread_local! {
    /// One receive buffer per thread, reused: a fresh zeroed 64 KiB per message (calloc, its
    /// memset, and the free's consolidation) showed in a profile of a stress iteration, which
    /// receives four messages.
    static BUFFER: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0u8; MAX_MESSAGE]);
}

/// Receives one message of raw bytes and its descriptors; `None` when the other side is gone.
pub(crate) fn receive_bytes(socket: RawFd) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    BUFFER.with_borrow_mut(|bytes| receive_into(socket, bytes))
}

fn receive_into(socket: RawFd, bytes: &mut [u8]) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    use nix::sys::socket::{recvmsg, ControlMessageOwned, MsgFlags};
    let mut space = nix::cmsg_space!([RawFd; MAX_FDS]);
    let (len, fds) = loop {
        let mut iov = [io::IoSliceMut::new(bytes)];
        match recvmsg::<()>(
            socket,
            &mut iov,
            Some(&mut space),
            MsgFlags::MSG_CMSG_CLOEXEC,
        ) {
            Ok(message) => {
                let mut fds = Vec::new();
                for cmsg in message.cmsgs().map_err(io::Error::from)? {
                    if let ControlMessageOwned::ScmRights(received) = cmsg {
                        // SAFETY: the kernel just installed these descriptors for us.
                        fds.extend(
                            received
                                .into_iter()
                                .map(|fd| unsafe { OwnedFd::from_raw_fd(fd) }),
                        );
                    }
                }
                break (message.bytes, fds);
            }
            Err(nix::errno::Errno::EINTR) => continue,
            Err(error) => return Err(error.into()),
        }
    };
    if len == 0 {
        return Ok(None);
    }
    Ok(Some((bytes[..len].to_vec(), fds)))
}

/// The socket a helper (zygote, launcher) was started with: the descriptor number its parent
/// passed as the argument after the role. Exits with 2 when there is none (started by hand:
/// nothing to talk to).
pub(crate) fn socket_or_exit(arg: Option<&std::ffi::OsStr>) -> RawFd {
    let socket = arg
        .and_then(|arg| arg.to_str()?.parse::<RawFd>().ok())
        .filter(|fd| *fd > 2);
    socket.unwrap_or_else(|| std::process::exit(2))
}

/// A connected pair of sequenced-packet sockets (message boundaries kept), close-on-exec.
pub(crate) fn socket_pair() -> io::Result<(OwnedFd, OwnedFd)> {
    use nix::sys::socket::{socketpair, AddressFamily, SockFlag, SockType};
    let (a, b) = socketpair(
        AddressFamily::Unix,
        SockType::SeqPacket,
        None,
        SockFlag::SOCK_CLOEXEC,
    )?;
    Ok((a, b))
}

/// The raw numbers of `fds`, for [`send`].
pub(crate) fn raw(fds: &[&OwnedFd]) -> Vec<RawFd> {
    fds.iter().map(|fd| fd.as_raw_fd()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_descriptors_across() {
        let (a, b) = socket_pair().unwrap();
        let file = std::fs::File::open("/dev/null").unwrap();
        let launch = Launch {
            argv: vec![b"/bin/true".to_vec(), vec![0xff, b'x']],
            env: vec![b"PATH=/usr/bin".to_vec()],
            exec: Exec::Fd,
            rlimits: vec![(1, 2)],
            memory_cap: 7,
            extra_fds: 0,
            syscall_filter: true,
            scratch_room: Some(1 << 20),
            files: vec![b"input.txt".to_vec()],
            output_file: Some(b"out.txt".to_vec()),
            workdir: Some(b"harness-run-x".to_vec()),
        };
        send(a.as_raw_fd(), &launch, &[file.as_raw_fd()]).unwrap();
        let (got, fds): (Launch, _) = receive(b.as_raw_fd()).unwrap().unwrap();
        assert_eq!(got.argv, launch.argv);
        assert_eq!(fds.len(), 1);
        drop(a);
        assert!(receive::<Launch>(b.as_raw_fd()).unwrap().is_none());
    }
}
