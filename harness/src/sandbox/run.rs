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
use crate::sandbox::unix::ChildIo;
use std::borrow::Cow;
use std::ffi::OsString;
use std::fs::File;
use std::io::{Seek, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(unix)]
use crate::sandbox::unix;

/// The limits one run is held to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + sys) allowed; the verdict uses this.
    pub cpu_time: Duration,
    /// Wall-clock bound that kills programs that sleep or block (see [`wall_limit`]).
    pub wall_time: Duration,
    /// Peak resident memory allowed, in bytes; `u64::MAX` turns the watch off.
    pub memory_bytes: u64,
    /// Bytes of stdout allowed when it is captured; the runner never holds more than this.
    pub output_bytes: u64,
}

/// The wall-clock bound that goes with a CPU limit: twice it plus a second, loose enough that
/// a loaded machine does not turn an honest run into a time-out, tight enough that a program
/// that sleeps comes back soon.
pub fn wall_limit(cpu_time: Duration) -> Duration {
    cpu_time
        .saturating_mul(2)
        .saturating_add(Duration::from_secs(1))
}

/// Where a run's stdin comes from.
#[derive(Debug, Clone, Copy)]
pub enum Stdin<'a> {
    /// /dev/null.
    Null,
    /// A file, opened for this run.
    File(&'a Path),
    /// These bytes, from a private unlinked file (no pipe to keep fed while it runs).
    Bytes(&'a [u8]),
    /// A descriptor the caller owns (a pipe from another process, for interactive problems);
    /// the child gets a duplicate.
    Fd(BorrowedFd<'a>),
}

/// Where a run's stdout or stderr goes.
#[derive(Debug, Clone, Copy)]
pub enum Output<'a> {
    /// Read by the runner: stdout up to `limits.output_bytes` (a program that writes more is
    /// stopped, [`LimitHit::Output`]), stderr its last few KiB.
    Capture,
    /// /dev/null.
    Null,
    /// The harness's own stderr, for messages the user should see as they come (a build).
    Stderr,
    /// A file or pipe the caller owns; the child gets a duplicate.
    Fd(BorrowedFd<'a>),
}

/// Whose memory the limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// The main process, sampled often; an address-space backstop above the limit. For the
    /// programs under test: cheap enough for the tiniest case.
    #[default]
    Process,
    /// Every process of the group together, sampled less often, and no address-space limit
    /// (multi-threaded compilers and JVMs reserve far more than they touch). For compilers,
    /// builds and checkers, whose real work happens in the children they start.
    Group,
}

/// How far a program is kept from the machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// Its own process group, rlimits and scratch folder: for the project's own tools
    /// (compilers, builds, checkers, generators), which need the project.
    #[default]
    Process,
    /// The sandbox (namespaces; see `sandbox`) where this machine and judge.toml's `sandbox`
    /// allow it, else as `Process`: for programs under test, which must not see the project.
    Sandbox,
}

/// What to run.
#[derive(Debug, Clone)]
pub struct RunRequest<'a> {
    /// The executable. A relative path with a folder in it (`./a.out`, `target/sol`) is taken
    /// from the harness's current folder, not the run's; a bare name is looked up in `PATH`.
    pub program: &'a Path,
    /// Its arguments.
    pub args: &'a [OsString],
    /// Where stdin comes from.
    pub stdin: Stdin<'a>,
    /// Where stdout goes.
    pub stdout: Output<'a>,
    /// Where stderr goes.
    pub stderr: Output<'a>,
    /// Added to (or replacing) the harness's own environment.
    pub env: &'a [(OsString, OsString)],
    /// What it may use.
    pub limits: Limits,
    /// Whose memory the limit counts.
    pub scope: Scope,
    /// Working directory. `None`: a fresh temporary folder, removed after the run.
    pub workdir: Option<&'a Path>,
    /// Plain process or sandbox.
    pub isolation: Isolation,
    /// Files copied into its folder before it starts, each `(name, source)` with a plain file
    /// name (a file-I/O problem's input file).
    pub files: &'a [(&'a str, &'a Path)],
    /// A file it writes in its folder, read back once it has ended without following a link
    /// or blocking ([`RunResult::output_file`]).
    pub output_file: Option<&'a str>,
    /// Sandboxed, whether the seccomp filter refuses it the system calls no contest program
    /// needs (io_uring, mounts, new namespaces, keys, ptrace, bpf, perf): on unless its
    /// language's `sandbox = "no-syscall-filter"` lifts it.
    pub syscall_filter: bool,
    /// Whether its address space is capped (`RLIMIT_AS`, a generous backstop above the memory
    /// limit). Off for a program built with AddressSanitizer, whose shadow memory is a
    /// reservation of terabytes it never touches: its memory is still watched by its peak RSS.
    pub address_space_cap: bool,
}

impl<'a> RunRequest<'a> {
    /// `program` with no arguments, stdin from /dev/null, stdout and stderr captured, in a
    /// fresh folder, its memory counted for the main process.
    pub fn new(program: &'a Path, limits: Limits) -> Self {
        RunRequest {
            program,
            args: &[],
            stdin: Stdin::Null,
            stdout: Output::Capture,
            stderr: Output::Capture,
            env: &[],
            limits,
            scope: Scope::Process,
            workdir: None,
            isolation: Isolation::Process,
            files: &[],
            output_file: None,
            syscall_filter: true,
            address_space_cap: true,
        }
    }

    /// With these arguments.
    #[must_use]
    pub fn args(mut self, args: &'a [OsString]) -> Self {
        self.args = args;
        self
    }

    /// With stdin from here.
    #[must_use]
    pub fn stdin(mut self, stdin: Stdin<'a>) -> Self {
        self.stdin = stdin;
        self
    }

    /// With stdout going there.
    #[must_use]
    pub fn stdout(mut self, stdout: Output<'a>) -> Self {
        self.stdout = stdout;
        self
    }

    /// With stderr going there.
    #[must_use]
    pub fn stderr(mut self, stderr: Output<'a>) -> Self {
        self.stderr = stderr;
        self
    }

    /// With these variables added to the environment.
    #[must_use]
    pub fn env(mut self, env: &'a [(OsString, OsString)]) -> Self {
        self.env = env;
        self
    }

    /// Counting memory for the main process or the whole group.
    #[must_use]
    pub fn scope(mut self, scope: Scope) -> Self {
        self.scope = scope;
        self
    }

    /// Runs in `workdir` (`None`: a fresh temporary folder).
    #[must_use]
    pub fn workdir(mut self, workdir: Option<&'a Path>) -> Self {
        self.workdir = workdir;
        self
    }

    /// Kept from the machine this far.
    #[must_use]
    pub fn isolation(mut self, isolation: Isolation) -> Self {
        self.isolation = isolation;
        self
    }

    /// With these files copied into its folder first, each `(name, source)`.
    #[must_use]
    pub fn files(mut self, files: &'a [(&'a str, &'a Path)]) -> Self {
        self.files = files;
        self
    }

    /// Reading back the file `name` it writes in its folder (`None`: none).
    #[must_use]
    pub fn output_file(mut self, name: Option<&'a str>) -> Self {
        self.output_file = name;
        self
    }

    /// Sandboxed, under the seccomp filter or not.
    #[must_use]
    pub fn syscall_filter(mut self, on: bool) -> Self {
        self.syscall_filter = on;
        self
    }

    /// With its address space capped or not.
    #[must_use]
    pub fn address_space_cap(mut self, on: bool) -> Self {
        self.address_space_cap = on;
        self
    }

    /// Whether it needs a folder of its own that outlives the program: files go in or come out.
    fn moves_files(&self) -> bool {
        !self.files.is_empty() || self.output_file.is_some()
    }
}

/// How the main process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// Exited with this code.
    Exited(i32),
    /// Killed by this signal number (shown by name through [`signal_name`]).
    Signaled(i32),
}

impl Termination {
    /// `exit 3`, `SIGSEGV`: how a message says it ended.
    pub fn describe(self) -> String {
        match self {
            Termination::Exited(code) => format!("exit {code}"),
            Termination::Signaled(signal) => signal_name(signal),
        }
    }
}

/// Which limit made the runner kill the program, if any. Output is also reported when the
/// program wrote past the limit and ended before it could be killed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    /// It ran past the wall-clock bound.
    WallTime,
    /// Its processes together used more CPU time than the limit (seen by the judge while it
    /// ran, where a cgroup counts the whole tree's time).
    CpuTime,
    /// Its resident memory went over the limit.
    Memory,
    /// It wrote more than the output limit.
    Output,
}

/// Everything measured about one run.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// How the main process ended.
    pub termination: Termination,
    /// The limit it was killed for, if any.
    pub limit_hit: Option<LimitHit>,
    /// User + system time of the main process and the children it waited for.
    pub cpu_time: Duration,
    /// From spawn to the end of the main process.
    pub wall_time: Duration,
    /// Peak resident size of the main process (`ru_maxrss`, or a higher sample); with
    /// [`Scope::Group`], the highest sum over the group that was sampled; in the sandbox with
    /// a cgroup, the tree's peak charge. What decides MLE.
    pub peak_memory_bytes: u64,
    /// The peak resident size as `/usr/bin/time` and online judges show it: the largest
    /// `ru_maxrss` of its processes (shared pages, such as libc's, included), or the measure
    /// above when larger. What reports show.
    pub resident_peak_bytes: u64,
    /// At most `limits.output_bytes` bytes; empty unless stdout was [`Output::Capture`].
    pub stdout: Vec<u8>,
    /// True when the program wrote more than the output limit.
    pub stdout_truncated: bool,
    /// The last few KiB of stderr; empty unless stderr was [`Output::Capture`].
    pub stderr_tail: Vec<u8>,
    /// The file the request named in [`RunRequest::output_file`], at most `limits.output_bytes`
    /// of it, or why it could not be taken; `None` when the request named none.
    pub output_file: Option<Result<Vec<u8>, OutputFileError>>,
    /// Sandboxed, the most the files it wrote in its folder were seen to take, in bytes: the
    /// folder is memory, bounded by the memory limit and counted in it.
    pub scratch_bytes: u64,
}

/// Why the output file a program was to write in its folder is not taken. Everything but `Io`
/// is the program's doing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OutputFileError {
    /// There is no such file.
    Missing,
    /// The file, or the folder of this name on its way, is a symbolic link: never followed.
    SymbolicLink(String),
    /// A name on its way is not a folder.
    NotAFolder(String),
    /// It is not a regular file: what it is (`a FIFO`, `a folder`, …). Never opened to read.
    NotRegular(String),
    /// The judge may not read it (the program took the permission away), or the name leads
    /// out of the folder; why.
    Unreadable(String),
    /// It is larger than the output limit.
    TooLarge,
    /// Reading it failed on the judge's side; why.
    Io(String),
}

impl RunResult {
    /// Whether it ended by itself with exit code 0, within every limit.
    pub fn succeeded(&self) -> bool {
        self.limit_hit.is_none() && self.termination == Termination::Exited(0)
    }
}

/// A failure on the harness's side: the program never ran, or could not be followed.
/// Whatever the program itself does, crashes included, is a [`RunResult`].
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program could not be started.
    #[error("cannot start `{}`: {source}", program.display())]
    Spawn {
        /// The program.
        program: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The input file could not be opened.
    #[error("cannot open stdin `{}`: {source}", path.display())]
    Stdin {
        /// The input file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A descriptor for its stdin, stdout or stderr could not be made.
    #[error("cannot connect the program's input or output: {0}")]
    Connect(std::io::Error),
    /// No scratch folder could be made.
    #[error("cannot make a working folder: {0}")]
    Workdir(std::io::Error),
    /// Ctrl-C: nothing more is started.
    #[error("interrupted (Ctrl-C): no more programs are started")]
    Interrupted,
    /// Waiting for the program failed.
    #[error("lost track of the child process: {0}")]
    Wait(std::io::Error),
    /// judge.toml requires the sandbox and this machine cannot make it.
    #[error("judge.toml says `sandbox = \"required\"`, but this machine cannot make the sandbox: {0} (hint: `harness doctor` says what is missing)")]
    SandboxRequired(String),
    /// The sandbox's helper failed (not the program).
    #[error("the sandbox failed: {0}")]
    Sandbox(std::io::Error),
}

/// How much of the end of stderr a result keeps: enough for a panic message or a backtrace.
const STDERR_TAIL_BYTES: usize = 8 * 1024;
/// Scratch folders are named so; a leftover one is easy to tell apart in the temp dir.
const SCRATCH_PREFIX: &str = "harness-run-";

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
            .filter(|folder| !folder.starts_with(unix::scratch_root()))
            .filter(|_| crate::sandbox::required())
        {
            // Its folder fell back outside the scratch root (full, or gone): never run it
            // unsandboxed when judge.toml says the sandbox is required.
            return Err(RunError::SandboxRequired(format!(
                "the run's folder `{}` is outside the sandbox's scratch root `{}`",
                folder.display(),
                unix::scratch_root().display()
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
            .is_none_or(|folder| folder.starts_with(unix::scratch_root()))
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
            unix::remove_scratch(scratch);
            result
        }
    }
}

/// A fresh folder for files that live as long as a command (stress's inputs and answers): on
/// a roomy tmpfs when there is one, as runs' own folders are, else in the temp dir.
pub fn scratch_folder(prefix: &str) -> std::io::Result<tempfile::TempDir> {
    #[cfg(unix)]
    let prefix = unix::owned_prefix(prefix);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    builder
        .tempdir_in(unix::scratch_root())
        .or_else(|_| builder.tempdir())
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
    let start = unix::Start {
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
    if let Stdin::File(path) = request.stdin {
        // Same error as the plain runner for a missing input.
        File::open(path).map_err(|source| RunError::Stdin {
            path: path.to_path_buf(),
            source,
        })?;
    }
    let mut capture = Capture::new(request.limits.output_bytes);
    let measured = crate::sandbox::run_sandboxed(request, workdir, &mut capture).map_err(
        |error| match error {
            crate::sandbox::Failure::Start(source) => RunError::Spawn {
                program: request.program.to_path_buf(),
                source,
            },
            crate::sandbox::Failure::Lost(error) => RunError::Sandbox(error),
        },
    )?;
    Ok(finished(&measured, capture))
}

/// What a supervisor measured and what the capture kept, as the run's result.
#[cfg(unix)]
fn finished(measured: &unix::Supervised, capture: Capture) -> RunResult {
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
    }
}

/// A fresh scratch folder for one run, on the fast root when there is one.
#[cfg(unix)]
/// A fresh folder under the sandbox's scratch root (a caller's `workdir` that a sandboxed run
/// can use: the folder of a file-I/O problem, read after the run), or in the temp dir when
/// that root cannot take it.
pub(crate) fn scratch_dir() -> Result<tempfile::TempDir, RunError> {
    let prefix = unix::owned_prefix(SCRATCH_PREFIX);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    // The fast root may fill up or go away while the judge runs: fall back to the temp dir
    // rather than fail the run.
    builder
        .tempdir_in(unix::scratch_root())
        .or_else(|_| builder.tempdir())
        .map_err(RunError::Workdir)
}

/// The program path to exec. The child changes folder before exec, so a relative path with a
/// folder in it would be looked up from the run's folder: anchor it to ours instead.
pub(super) fn program_path(program: &Path) -> Cow<'_, Path> {
    if program.is_relative() && program.components().nth(1).is_some() {
        if let Ok(here) = std::env::current_dir() {
            return Cow::Owned(here.join(program));
        }
    }
    Cow::Borrowed(program)
}

/// The executable file a run of `program` starts: a path with a folder in it as it is, a bare
/// name looked up on `PATH` as exec does. For naming a missing tool before anything runs.
pub fn find_program(program: &Path) -> std::io::Result<PathBuf> {
    use std::io::{Error, ErrorKind};
    if program.components().count() > 1 {
        return if program.is_file() {
            Ok(program.to_path_buf())
        } else {
            Err(Error::new(ErrorKind::NotFound, "no such file"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    find_on_path(program, &path).ok_or_else(|| Error::new(ErrorKind::NotFound, "not found on PATH"))
}

/// The first executable file named `program` in the folders of `path` (a `PATH` value), as
/// exec looks a bare name up.
pub(crate) fn find_on_path(program: &Path, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// `SIGSEGV` for 11, and so on; `signal 99` for unknown numbers.
pub fn signal_name(signal: i32) -> String {
    #[cfg(unix)]
    if let Some(name) = unix::signal_name(signal) {
        return name.to_owned();
    }
    format!("signal {signal}")
}

/// What the program wrote: stdout up to the limit, and the tail of stderr.
#[derive(Debug)]
pub(crate) struct Capture {
    stdout: Vec<u8>,
    stdout_limit: usize,
    stdout_truncated: bool,
    /// Grows to twice the tail before it is cut, so cutting is rare.
    stderr: Vec<u8>,
}

impl Capture {
    pub(crate) fn new(stdout_limit: u64) -> Self {
        Capture {
            stdout: Vec::new(),
            stdout_limit: usize::try_from(stdout_limit).unwrap_or(usize::MAX),
            stdout_truncated: false,
            stderr: Vec::new(),
        }
    }

    /// Keeps what fits under the limit; false once the program wrote past it.
    pub(crate) fn push_stdout(&mut self, bytes: &[u8]) -> bool {
        let room = self.stdout_limit - self.stdout.len();
        if bytes.len() > room {
            self.stdout.extend_from_slice(&bytes[..room]);
            self.stdout_truncated = true;
            return false;
        }
        self.stdout.extend_from_slice(bytes);
        true
    }

    pub(crate) fn push_stderr(&mut self, bytes: &[u8]) {
        let bytes = &bytes[bytes.len().saturating_sub(STDERR_TAIL_BYTES)..];
        self.stderr.extend_from_slice(bytes);
        if self.stderr.len() > 2 * STDERR_TAIL_BYTES {
            self.stderr.drain(..self.stderr.len() - STDERR_TAIL_BYTES);
        }
    }

    pub(crate) fn stdout_truncated(&self) -> bool {
        self.stdout_truncated
    }

    pub(crate) fn finish(mut self) -> (Vec<u8>, bool, Vec<u8>) {
        let excess = self.stderr.len().saturating_sub(STDERR_TAIL_BYTES);
        self.stderr.drain(..excess);
        (self.stdout, self.stdout_truncated, self.stderr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn signals_are_named() {
        let table = [
            (1, "SIGHUP"),
            (2, "SIGINT"),
            (4, "SIGILL"),
            (6, "SIGABRT"),
            (7, "SIGBUS"),
            (8, "SIGFPE"),
            (9, "SIGKILL"),
            (11, "SIGSEGV"),
            (13, "SIGPIPE"),
            (14, "SIGALRM"),
            (15, "SIGTERM"),
            (24, "SIGXCPU"),
            (25, "SIGXFSZ"),
            (31, "SIGSYS"),
        ];
        for (number, name) in table {
            assert_eq!(signal_name(number), name, "signal {number}");
        }
        assert_eq!(signal_name(99), "signal 99");
        assert_eq!(signal_name(0), "signal 0");
        assert_eq!(signal_name(-3), "signal -3");
    }

    #[test]
    fn stdout_keeps_exactly_the_limit() {
        let mut capture = Capture::new(5);
        assert!(capture.push_stdout(b"abc"));
        assert!(capture.push_stdout(b"de"));
        assert!(!capture.stdout_truncated());
        assert!(!capture.push_stdout(b"f"));
        assert!(capture.stdout_truncated());
        let (stdout, truncated, _) = capture.finish();
        assert_eq!(stdout, b"abcde");
        assert!(truncated);
    }

    #[test]
    fn stdout_cut_inside_a_chunk() {
        let mut capture = Capture::new(4);
        assert!(!capture.push_stdout(b"abcdef"));
        assert_eq!(capture.finish().0, b"abcd");
    }

    #[test]
    fn zero_output_limit_keeps_nothing() {
        let mut capture = Capture::new(0);
        assert!(capture.push_stdout(b""));
        assert!(!capture.push_stdout(b"x"));
        assert_eq!(capture.finish().0, b"");
    }

    #[test]
    fn stderr_keeps_the_tail() {
        let mut capture = Capture::new(0);
        for i in 0..10_000u32 {
            capture.push_stderr(format!("line {i}\n").as_bytes());
        }
        let (_, _, tail) = capture.finish();
        assert_eq!(tail.len(), STDERR_TAIL_BYTES);
        assert!(tail.ends_with(b"line 9999\n"));

        let mut capture = Capture::new(0);
        capture.push_stderr(&vec![b'x'; 3 * STDERR_TAIL_BYTES]);
        capture.push_stderr(b"end");
        let (_, _, tail) = capture.finish();
        assert_eq!(tail.len(), STDERR_TAIL_BYTES);
        assert!(tail.ends_with(b"xend"));
    }

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
