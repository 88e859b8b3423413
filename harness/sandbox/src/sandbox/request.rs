//! What to run and under which limits: [`RunRequest`], its [`Limits`], where its streams come
//! from and go, whose memory counts ([`Scope`]) and how far it is kept from the machine
//! ([`Isolation`]). Plain data, at the bottom of the sandbox: every way to run reads it.

use std::ffi::OsString;
use std::os::fd::BorrowedFd;
use std::path::Path;
use std::time::Duration;

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
    /// stopped, [`LimitHit::Output`](super::outcome::LimitHit::Output)), stderr its last few KiB.
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
    /// or blocking ([`RunResult::output_file`](super::outcome::RunResult::output_file)).
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
    pub(super) fn moves_files(&self) -> bool {
        !self.files.is_empty() || self.output_file.is_some()
    }
}
