//! Runs one program under limits and measures it. The runner never prints: it returns numbers.
//!
//! Every child the harness starts comes through here: the programs under test, compilers,
//! judge.toml's build command, external checkers and the author's tools. Each runs directly
//! (no shell, so rusage counts it), in its own process group registered for Ctrl-C, in a
//! fresh temporary folder unless given one, under rlimits set between clone and exec (by the
//! `launcher`, a small helper process, so that no run forks the judge).
//! One thread watches it (see `unix`): CPU time and peak memory come from `wait4`, the wall
//! clock and resident memory are enforced while it runs by killing the whole group, and the
//! group is killed again once the main process ends, so nothing it left behind (a grandchild
//! holding stdout) can keep the judge waiting.

#[cfg(unix)]
use super::outcome;
#[cfg(unix)]
use super::process::{self, program_path, ChildIo};
use std::fs::File;
use std::io::{Seek, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

#[cfg(unix)]
use super::{scratch, unix};

pub(crate) use super::outcome::Capture;
pub use super::outcome::{
    signal_name, LimitHit, OutputFileError, RunError, RunResult, Termination,
};
#[cfg(unix)]
pub use super::process::find_program;
pub use super::request::{wall_limit, Isolation, Limits, Output, RunRequest, Scope, Stdin};
#[cfg(unix)]
pub use super::scratch::scratch_dir;
#[cfg(unix)]
pub use super::scratch::scratch_folder;

/// Runs `request.program` once under `request.limits` and reports what it did: in the
/// sandbox when the request asks for [`Isolation::Sandbox`] and this machine and judge.toml
/// allow it (see `sandbox`), otherwise as a plain process.
///
/// Errors are for the harness's side only (cannot start, cannot open stdin, cannot make the
/// working folder); anything the program does, crash included, is a `RunResult`.
pub fn run(request: &RunRequest<'_>) -> Result<RunResult, RunError> {
    if crate::sandbox::interrupt::is_interrupted() {
        return Err(RunError::Interrupted);
    }
    #[cfg(target_os = "linux")]
    if request.isolation == Isolation::Sandbox {
        if sandbox_can_connect(request) {
            match crate::sandbox::decide() {
                crate::sandbox::Decision::Sandboxed => {
                    return run_watching(request, How::Sandboxed)
                }
                crate::sandbox::Decision::Refused(why) => {
                    return Err(RunError::SandboxRequired(why))
                }
                crate::sandbox::Decision::Plain => {}
            }
        } else if let Some(folder) = request
            .workdir
            .filter(|folder| !folder.starts_with(scratch::scratch_root()))
            .filter(|_| crate::sandbox::required())
        {
            // Its folder fell back outside the scratch root (full, or gone): never run it
            // unsandboxed when judge.toml says the sandbox is required.
            return Err(RunError::SandboxRequired(format!(
                "the run's folder `{}` is outside the sandbox's scratch root `{}`",
                folder.display(),
                scratch::scratch_root().display()
            )));
        }
    }
    #[cfg(unix)]
    return run_watching(request, How::Plain(unix::ExitWatch::Pidfd));
    #[cfg(not(unix))]
    return Err(RunError::Spawn {
        program: request.program.to_path_buf(),
        source: std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "the runner needs a Unix system",
        ),
    });
}

/// The sandbox gives a program a private copy of its input and captures both outputs; a
/// request wired to the caller's own descriptors (an interactor's pipes, a build's stderr), or
/// with a working folder outside the scratch root, runs as a plain process.
#[cfg(target_os = "linux")]
fn sandbox_can_connect(request: &RunRequest<'_>) -> bool {
    matches!(
        request.stdin,
        Stdin::Null | Stdin::File(_) | Stdin::Bytes(_)
    ) && matches!(request.stdout, Output::Capture)
        && matches!(request.stderr, Output::Capture)
        // The helper sees only the scratch root: a folder elsewhere cannot become the
        // program's /tmp (callers that keep their folder make it with `scratch_dir`).
        && request
            .workdir
            .is_none_or(|folder| folder.starts_with(scratch::scratch_root()))
}

/// Which supervisor runs the program.
#[cfg(unix)]
#[derive(Debug, Clone, Copy)]
enum How {
    Plain(unix::ExitWatch),
    #[cfg(target_os = "linux")]
    Sandboxed,
}

#[cfg(unix)]
fn run_watching(request: &RunRequest<'_>, how: How) -> Result<RunResult, RunError> {
    #[cfg(target_os = "linux")]
    if let How::Sandboxed = how {
        // The sandbox reads stdin itself, into a private copy; a run that brings no folder
        // uses its worker's.
        if request.workdir.is_none() {
            return run_sandboxed(request, None);
        }
        return in_workdir(request, |workdir| {
            with_files(request, workdir, || run_sandboxed(request, Some(workdir)))
        });
    }
    let How::Plain(watch) = how else {
        unreachable!("handled above")
    };
    // Open stdin first: a missing input file should not cost a folder.
    let stdin = stdin_for(request.stdin)?;
    in_workdir(request, |workdir| {
        with_files(request, workdir, || run_in(request, stdin, workdir, watch))
    })
}

/// Runs `body` with the request's files placed in `workdir` first, and its output file read
/// back after, beneath a descriptor of the folder taken before the program started.
#[cfg(unix)]
fn with_files(
    request: &RunRequest<'_>,
    workdir: &Path,
    body: impl FnOnce() -> Result<RunResult, RunError>,
) -> Result<RunResult, RunError> {
    use crate::sandbox::beneath;
    use std::os::fd::AsFd;
    if !request.moves_files() {
        return body();
    }
    let folder = beneath::open_folder(workdir).map_err(RunError::Workdir)?;
    for &(name, source) in request.files {
        beneath::place(folder.as_fd(), name, source).map_err(|error| {
            RunError::Workdir(std::io::Error::new(
                error.kind(),
                format!(
                    "cannot put `{}` in it as `{name}`: {error}",
                    source.display()
                ),
            ))
        })?;
    }
    let mut result = body()?;
    result.output_file = request
        .output_file
        .map(|name| beneath::read_regular(folder.as_fd(), name, request.limits.output_bytes));
    Ok(result)
}

/// Calls `body` with the request's working folder, or a fresh scratch folder removed after.
#[cfg(unix)]
fn in_workdir(
    request: &RunRequest<'_>,
    body: impl FnOnce(&Path) -> Result<RunResult, RunError>,
) -> Result<RunResult, RunError> {
    match request.workdir {
        Some(workdir) => {
            if !workdir.is_dir() {
                return Err(RunError::Workdir(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("`{}` is not a folder", workdir.display()),
                )));
            }
            body(workdir)
        }
        None => {
            let scratch = scratch_dir()?;
            let result = body(scratch.path());
            // The group is dead by now, so nothing can write into the folder any more.
            scratch::remove_scratch(scratch);
            result
        }
    }
}

fn stdin_for(stdin: Stdin<'_>) -> Result<ChildIo, RunError> {
    Ok(match stdin {
        Stdin::Null => ChildIo::Null,
        Stdin::File(path) => ChildIo::Fd(OwnedFd::from(File::open(path).map_err(|source| {
            RunError::Stdin {
                path: path.to_path_buf(),
                source,
            }
        })?)),
        Stdin::Bytes(bytes) => {
            let mut file = tempfile::tempfile().map_err(RunError::Connect)?;
            file.write_all(bytes).map_err(RunError::Connect)?;
            file.rewind().map_err(RunError::Connect)?;
            ChildIo::Fd(OwnedFd::from(file))
        }
        Stdin::Fd(fd) => ChildIo::Fd(duplicate(fd)?),
    })
}

/// The child's end of stdout or stderr; a pipe the runner reads for [`Output::Capture`].
fn output_for(output: Output<'_>) -> Result<ChildIo, RunError> {
    Ok(match output {
        Output::Capture => ChildIo::Pipe,
        Output::Null => ChildIo::Null,
        Output::Stderr => ChildIo::Fd(duplicate(std::io::stderr().as_fd())?),
        Output::Fd(fd) => ChildIo::Fd(duplicate(fd)?),
    })
}

fn duplicate(fd: BorrowedFd<'_>) -> Result<OwnedFd, RunError> {
    fd.try_clone_to_owned().map_err(RunError::Connect)
}

#[cfg(unix)]
fn run_in(
    request: &RunRequest<'_>,
    stdin: ChildIo,
    workdir: &Path,
    watch: unix::ExitWatch,
) -> Result<RunResult, RunError> {
    let stdout = output_for(request.stdout)?;
    let stderr = output_for(request.stderr)?;
    let program = program_path(request.program);
    let start = process::Start {
        program: &program,
        args: request.args,
        env: request.env,
        workdir,
        stdin,
        stdout,
        stderr,
        limits: &request.limits,
        scope: request.scope,
        address_space_cap: request.address_space_cap,
    };
    let started = unix::start(start).map_err(|source| RunError::Spawn {
        program: request.program.to_path_buf(),
        source,
    })?;
    let mut capture = Capture::new(request.limits.output_bytes);
    let measured = unix::supervise(started, &request.limits, request.scope, &mut capture, watch)
        .map_err(RunError::Wait)?;
    Ok(finished(&measured, capture))
}

#[cfg(target_os = "linux")]
fn run_sandboxed(request: &RunRequest<'_>, workdir: Option<&Path>) -> Result<RunResult, RunError> {
    let mut capture = Capture::new(request.limits.output_bytes);
    let measured = crate::sandbox::run_sandboxed(request, workdir, &mut capture).map_err(
        |error| match error {
            crate::sandbox::Failure::Start(source) => RunError::Spawn {
                program: request.program.to_path_buf(),
                source,
            },
            crate::sandbox::Failure::Lost(error) => RunError::Sandbox(error),
            // Same error as the plain runner for a missing input.
            crate::sandbox::Failure::Stdin(path, source) => RunError::Stdin { path, source },
        },
    )?;
    Ok(finished(&measured, capture))
}

/// What a supervisor measured and what the capture kept, as the run's result.
#[cfg(unix)]
fn finished(measured: &outcome::Supervised, capture: Capture) -> RunResult {
    let (stdout, stdout_truncated, stderr_tail) = capture.finish();
    RunResult {
        termination: measured.termination,
        limit_hit: measured.limit_hit,
        cpu_time: measured.cpu_time,
        wall_time: measured.wall_time,
        peak_memory_bytes: measured.peak_memory_bytes,
        resident_peak_bytes: measured.resident_peak_bytes,
        stdout,
        stdout_truncated,
        stderr_tail,
        output_file: measured.output_file.clone(),
        scratch_bytes: measured.scratch_bytes,
        socket_bytes: measured.socket_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn relative_programs_are_anchored_here() {
        assert_eq!(program_path(Path::new("cc")), Path::new("cc"));
        assert_eq!(program_path(Path::new("/bin/sh")), Path::new("/bin/sh"));
        let here = std::env::current_dir().unwrap();
        assert_eq!(program_path(Path::new("./a.out")), here.join("./a.out"));
        assert_eq!(
            program_path(Path::new("target/sol")),
            here.join("target/sol")
        );
    }

    #[cfg(unix)]
    fn limits(wall: Duration) -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: wall,
            memory_bytes: 256 << 20,
            output_bytes: 1 << 20,
        }
    }

    /// The path taken on kernels without pidfd_open: exits are found by waitid ticks.
    #[cfg(unix)]
    #[test]
    fn polling_fallback_measures_an_exit() {
        let args = ["-c".into(), "echo 3; echo oops >&2; exit 4".into()];
        let request =
            RunRequest::new(Path::new("/bin/sh"), limits(Duration::from_secs(10))).args(&args);
        let result = run_watching(&request, How::Plain(unix::ExitWatch::Polling)).unwrap();
        assert_eq!(result.termination, Termination::Exited(4));
        assert_eq!(result.limit_hit, None);
        assert_eq!(result.stdout, b"3\n");
        assert_eq!(result.stderr_tail, b"oops\n");
    }

    #[cfg(unix)]
    #[test]
    fn polling_fallback_enforces_the_wall_clock() {
        let args = ["30".into()];
        let request =
            RunRequest::new(Path::new("sleep"), limits(Duration::from_millis(300))).args(&args);
        let started = Instant::now();
        let result = run_watching(&request, How::Plain(unix::ExitWatch::Polling)).unwrap();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!(result.limit_hit, Some(LimitHit::WallTime));
        assert_eq!(result.termination, Termination::Signaled(9));
    }
}
