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

use std::fs::File;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use nix::fcntl::{open, OFlag};
use nix::sys::stat::Mode;

use super::outcome::{RunError, RunResult};
use super::pair::Party;

/// What to run.
pub struct CommunicationRequest<'a> {
    /// One party per user process, each with its own arguments (its index, as CMS gives it).
    pub users: Vec<Party<'a>>,
    /// The manager: the FIFOs' paths are appended to its arguments. It has no wall bound while
    /// a user runs (it waits for them), and `idle_grace` while none does; its other limits are
    /// its own.
    pub manager: Party<'a>,
    /// The case's input, the manager's stdin.
    pub input: &'a Path,
    /// How long the manager may run on while no user process runs: before the first starts,
    /// between two, after the last.
    pub idle_grace: Duration,
    /// The most of the manager's stdout kept: its score is its first token, but a manager
    /// whose output a checker judges (TPS's `has_checker`) writes a whole transcript.
    pub stdout_bytes: u64,
}

/// What each process did.
#[derive(Debug)]
pub struct CommunicationResult {
    /// Each user's own numbers, in index order. Who ended first is not kept: the verdict is
    /// decided once all have ended, as CMS decides it, whatever order their ends came in.
    pub users: Vec<RunResult>,
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
        // Readable and writable by anyone, as CMS makes them: a `fifo_io` user reopens its
        // ends by `/proc/self/fd`, and the sandbox may run it as another user. Only through
        // its descriptors can it reach them: the folder is the judge's own (mode 700).
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o666))
            .map_err(RunError::Connect)?;
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
pub fn run_communication(
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
    // How many users run, and since when none has: the manager is never stopped while one
    // runs (its wait is theirs, however long a busy machine makes it), and is given
    // `idle_grace` while none does.
    let running = AtomicUsize::new(0);
    let idle_since = Mutex::new(Instant::now());
    let input = File::open(request.input).map_err(|source| RunError::Stdin {
        path: request.input.to_path_buf(),
        source,
    })?;
    // Its score, read back once it has ended: a file, so it never blocks on a reader.
    let score = tempfile::tempfile().map_err(RunError::Connect)?;
    let score_fd = score.try_clone().map_err(RunError::Connect)?;
    std::thread::scope(|scope| {
        let users: Vec<_> = request
            .users
            .iter()
            .zip(&pairs)
            .zip(&opened)
            .map(|((party, [to_manager, to_user]), opened)| {
                let (running, idle_since) = (&running, &idle_since);
                scope.spawn(move || {
                    // Each end on its own thread: the manager may open them in either order.
                    let (stdin, stdout) = std::thread::scope(|ends| {
                        let stdin = ends.spawn(|| open_end(to_user, OFlag::O_RDONLY));
                        let stdout = open_end(to_manager, OFlag::O_WRONLY);
                        (stdin.join().expect("an open does not panic"), stdout)
                    });
                    running.fetch_add(1, Ordering::AcqRel);
                    opened.store(true, Ordering::Release);
                    // Its ends are closed once it has started, so that when it ends the
                    // manager reads end of file from it at once.
                    let result = match (stdin, stdout) {
                        (Ok(stdin), Ok(stdout)) => {
                            super::pair::run_connected(party, stdin, stdout, None)
                        }
                        (Err(error), _) | (_, Err(error)) => Err(error),
                    };
                    let mut idle = idle_since.lock().expect("no thread panics holding it");
                    if running.fetch_sub(1, Ordering::AcqRel) == 1 {
                        *idle = Instant::now();
                    }
                    result
                })
            })
            .collect();
        let hold = || {
            let idle = idle_since.lock().expect("no thread panics holding it");
            (running.load(Ordering::Acquire) == 0).then(|| *idle + request.idle_grace)
        };
        let manager = super::pair::run_connected(
            &Party {
                args: &manager_args,
                ..request.manager.clone()
            },
            input.into(),
            score_fd.into(),
            Some(&hold),
        )
        .and_then(|mut result| {
            result.stdout = read_score(score, request.stdout_bytes).map_err(RunError::Connect)?;
            Ok(result)
        });
        // Users whose pair the manager never opened are started now, to end at once.
        while let Some(waiting) = (0..pairs.len()).find(|&i| !opened[i].load(Ordering::Acquire)) {
            release(&pairs[waiting]);
            std::thread::sleep(RELEASE_TICK);
        }
        let mut results = Vec::new();
        let mut error = None;
        for user in users {
            match user.join().expect("a user's thread does not panic") {
                Ok(result) => results.push(result),
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

fn read_score(mut file: File, most: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek};
    file.rewind()?;
    let mut bytes = Vec::new();
    file.take(most).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// How often the FIFOs of users still waiting for an ended manager are opened again.
const RELEASE_TICK: Duration = Duration::from_millis(2);
