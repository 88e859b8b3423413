//! Runs a communication task's case as CMS runs one (`Communication`): a manager, the judge's
//! own program, reads the case's input on stdin and talks with N user processes through a
//! pair of named FIFOs each, whose paths it gets as arguments (`user_to_manager_0
//! manager_to_user_0 user_to_manager_1 …`); each user process has its pair as stdin and
//! stdout and never learns where they are.
//!
//! Unlike the interactive pair ([`super::pair`]) the judge does not relay: the processes talk
//! directly, as on CMS, so a manager may serve its users in any order. Each process is one
//! run on a thread of its own, the users in the sandbox under
//! the problem's limits, the manager as a plain process under the judge's own (see [`super::pair::run_connected`]). The FIFOs are
//! opened by the judge before anyone starts, both ends, so that no open blocks and no user
//! reads an early end of file: the judge's own ends (a writer of each `manager_to_user`, a
//! reader of each `user_to_manager`) are held until the manager has ended and then closed, so
//! a user still reading gets end of file and one still writing gets SIGPIPE. A user that ends
//! closes its ends, so the manager reads end of file from it at once.

use std::ffi::OsString;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::Instant;

use nix::fcntl::{fcntl, open, FcntlArg, OFlag};
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

/// The judge's ends of one user's FIFO pair, and the user's.
struct Fifos {
    /// The user's stdin (`manager_to_user`'s read end) and stdout (`user_to_manager`'s write
    /// end).
    user: (OwnedFd, OwnedFd),
    /// Held until the manager has ended: a writer of `manager_to_user`, a reader of
    /// `user_to_manager`.
    judge: (OwnedFd, OwnedFd),
    /// The paths the manager opens, in CMS's order: `user_to_manager`, `manager_to_user`.
    paths: [PathBuf; 2],
}

/// Makes user `index`'s pair in `dir` and opens every end of it.
fn fifos(dir: &Path, index: usize) -> Result<Fifos, RunError> {
    let to_manager = dir.join(format!("user_to_manager_{index}"));
    let to_user = dir.join(format!("manager_to_user_{index}"));
    let failed = |error: nix::Error| RunError::Connect(std::io::Error::from(error));
    for path in [&to_manager, &to_user] {
        nix::unistd::mkfifo(path, Mode::S_IRUSR | Mode::S_IWUSR).map_err(failed)?;
    }
    let fd = |path: &Path, flags: OFlag| -> Result<OwnedFd, RunError> {
        open(path, flags | OFlag::O_CLOEXEC, Mode::empty()).map_err(failed)
    };
    // A read end opens at once without blocking; a write end then finds its reader.
    let user_stdin = fd(&to_user, OFlag::O_RDONLY | OFlag::O_NONBLOCK)?;
    let judge_writer = fd(&to_user, OFlag::O_WRONLY)?;
    let judge_reader = fd(&to_manager, OFlag::O_RDONLY | OFlag::O_NONBLOCK)?;
    let user_stdout = fd(&to_manager, OFlag::O_WRONLY)?;
    // The user reads its stdin blocking, as from any pipe.
    fcntl(&user_stdin, FcntlArg::F_SETFL(OFlag::empty())).map_err(failed)?;
    Ok(Fifos {
        user: (user_stdin, user_stdout),
        judge: (judge_writer, judge_reader),
        paths: [to_manager, to_user],
    })
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
        manager_args.extend(pair.paths.iter().map(|p| p.clone().into_os_string()));
    }
    let (user_ends, judge_ends): (Vec<_>, Vec<_>) =
        pairs.into_iter().map(|p| (p.user, p.judge)).unzip();
    std::thread::scope(|scope| {
        let users: Vec<_> = request
            .users
            .iter()
            .zip(user_ends)
            .map(|(party, (stdin, stdout))| {
                scope.spawn(move || {
                    // Its ends are closed once it has started, so that when it ends the
                    // manager reads end of file from it at once.
                    let result = super::pair::run_connected(party, stdin, stdout);
                    (result, Instant::now())
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
        // Users still reading now read end of file; users still writing get SIGPIPE.
        drop(judge_ends);
        let mut results = Vec::new();
        let mut error = None;
        for user in users {
            let (result, ended) = user.join().expect("a user's thread does not panic");
            match result {
                Ok(result) => results.push((result, ended > manager_ended)),
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
