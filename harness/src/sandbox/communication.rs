//! Runs a communication task's case as CMS runs one (`Communication`): a manager, the judge's
//! own program, reads the case's input on stdin and talks with N user processes through a
//! pair of named FIFOs each, whose paths it gets as arguments (`user_to_manager_0
//! manager_to_user_0 user_to_manager_1 …`); each user process has its pair as stdin and
//! stdout and never learns where they are.
//!
//! Unlike the interactive pair ([`super::pair`]) the judge does not relay: the processes talk
//! directly, as on CMS, so a manager may serve its users in any order. Each process is one
//! run on a thread of its own, the users in the sandbox under the problem's limits
//! ([`super::pair::run_connected`]), the manager as a plain process under the judge's own.
//! A user's ends are opened as CMS's sandbox opens a redirected stdin and stdout: each open
//! waits for the manager to open the other end, so no one reads an end of file before its
//! partner is there, and the user starts once both are open. No one else holds an end, so a
//! user that ends is an end of file to the manager at once, and a manager that ends is one
//! to its users (and SIGPIPE to a user still writing). The ends of a user whose pair the
//! manager never opened are opened and closed by the judge once the manager has ended.

use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::Instant;

use std::sync::atomic::{AtomicBool, Ordering};

use nix::fcntl::{open, OFlag};
use nix::sys::stat::Mode;

use super::outcome::{RunError, RunResult};
use super::pair::Party;
use super::request::{RunRequest, Stdin};

/// What to run.
pub struct CommunicationRequest<'a> {
    /// One party per user process, each with its own arguments (its index, as CMS gives it).
    pub users: Vec<Party<'a>>,
    /// The manager: the FIFOs' paths are appended to its arguments.
    pub manager: Party<'a>,
    /// The case's input, the manager's stdin.
    pub input: &'a Path,
}

/// What each process did.
#[derive(Debug)]
pub struct CommunicationResult {
    /// Each user's own numbers, in index order, and whether it ended after the manager had
    /// (its end may then be the manager's doing: end of file, SIGPIPE).
    pub users: Vec<(RunResult, bool)>,
    /// The manager's numbers; its stdout (the score) captured, its stderr's tail the message.
    pub manager: RunResult,
}

/// The paths of user `index`'s FIFO pair in `dir`, made: `user_to_manager`, then
/// `manager_to_user`, CMS's order in the manager's arguments.
fn fifos(dir: &Path, index: usize) -> Result<[PathBuf; 2], RunError> {
    let paths = [
        dir.join(format!("user_to_manager_{index}")),
        dir.join(format!("manager_to_user_{index}")),
    ];
    for path in &paths {
        nix::unistd::mkfifo(path, Mode::S_IRUSR | Mode::S_IWUSR)
            .map_err(|error| RunError::Connect(error.into()))?;
    }
    Ok(paths)
}

/// Opens a FIFO's end, blocking until the other end is opened too (by the manager, or by
/// [`release`]), as a sandbox opens a redirected stdin or stdout on CMS.
fn open_end(path: &Path, flags: OFlag) -> Result<OwnedFd, RunError> {
    loop {
        match open(path, flags | OFlag::O_CLOEXEC, Mode::empty()) {
            Err(nix::Error::EINTR) => continue,
            other => return other.map_err(|error| RunError::Connect(error.into())),
        }
    }
}

/// Opens and closes at once the manager's ends of a user's pair, so that an open of the
/// user's that waits for a manager that has ended returns: its stdin then reads end of file,
/// its stdout has no reader.
fn release([to_manager, to_user]: &[PathBuf; 2]) {
    // A write end opens without blocking only once a reader waits; a read end always does.
    let _ = open(
        to_user,
        OFlag::O_WRONLY | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
        Mode::empty(),
    );
    let _ = open(
        to_manager,
        OFlag::O_RDONLY | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC,
        Mode::empty(),
    );
}

/// Runs the manager and the users to the end of all of them. Errors are the judge's side
/// only (a FIFO that cannot be made, a program that cannot start).
pub(crate) fn run_communication(
    request: &CommunicationRequest<'_>,
) -> Result<CommunicationResult, RunError> {
    if super::interrupt::is_interrupted() {
        return Err(RunError::Interrupted);
    }
    // The FIFOs live in a folder of the judge's, which no sandboxed user sees.
    let dir = tempfile::Builder::new()
        .prefix("harness-fifos-")
        .tempdir()
        .map_err(RunError::Workdir)?;
    let mut pairs = Vec::new();
    for index in 0..request.users.len() {
        pairs.push(fifos(dir.path(), index)?);
    }
    let mut manager_args: Vec<OsString> = request.manager.args.to_vec();
    for pair in &pairs {
        manager_args.extend(pair.iter().map(|p| p.clone().into_os_string()));
    }
    let opened: Vec<AtomicBool> = pairs.iter().map(|_| AtomicBool::new(false)).collect();
    std::thread::scope(|scope| {
        let users: Vec<_> = request
            .users
            .iter()
            .zip(&pairs)
            .zip(&opened)
            .map(|((party, [to_manager, to_user]), opened)| {
                scope.spawn(move || {
                    // Each end on its own thread: the manager may open them in either order.
                    let (stdin, stdout) = std::thread::scope(|ends| {
                        let stdin = ends.spawn(|| open_end(to_user, OFlag::O_RDONLY));
                        let stdout = open_end(to_manager, OFlag::O_WRONLY);
                        (stdin.join().expect("an open does not panic"), stdout)
                    });
                    opened.store(true, Ordering::Release);
                    // Its ends are closed once it has started, so that when it ends the
                    // manager reads end of file from it at once.
                    let result = super::pair::run_connected(party, stdin?, stdout?);
                    Ok::<_, RunError>((result?, Instant::now()))
                })
            })
            .collect();
        let manager = &request.manager;
        let manager = super::run::run(
            &RunRequest::new(manager.program, manager.limits)
                .args(&manager_args)
                .stdin(Stdin::File(request.input))
                .env(manager.env)
                .scope(manager.scope)
                .workdir(manager.workdir)
                .isolation(manager.isolation)
                .syscall_filter(manager.syscall_filter)
                .address_space_cap(manager.address_space_cap),
        );
        let manager_ended = Instant::now();
        // Users whose pair the manager never opened are started now, to end at once.
        while let Some(waiting) = (0..pairs.len()).find(|&i| !opened[i].load(Ordering::Acquire)) {
            release(&pairs[waiting]);
            std::thread::sleep(RELEASE_TICK);
        }
        let mut results = Vec::new();
        let mut error = None;
        for user in users {
            match user.join().expect("a user's thread does not panic") {
                Ok((result, ended)) => results.push((result, ended > manager_ended)),
                Err(e) => error = error.or(Some(e)),
            }
        }
        let manager = manager?;
        if let Some(error) = error {
            return Err(error);
        }
        Ok(CommunicationResult {
            users: results,
            manager,
        })
    })
}

/// How often the FIFOs of users still waiting for an ended manager are opened again.
const RELEASE_TICK: std::time::Duration = std::time::Duration::from_millis(2);
