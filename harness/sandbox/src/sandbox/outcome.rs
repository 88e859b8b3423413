//! What a run comes back with: how it ended ([`Termination`]), the limit it was stopped for
//! ([`LimitHit`]), everything measured ([`RunResult`]), what it wrote ([`Capture`]), and the
//! failures on the harness's side ([`RunError`]). Plain data, at the bottom of the sandbox:
//! every way to run fills it in.

use std::path::PathBuf;
use std::time::Duration;

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
    /// [`Scope::Group`](super::request::Scope::Group), the highest sum over the group that was sampled; in the sandbox with
    /// a cgroup, the tree's peak charge. What decides MLE.
    pub peak_memory_bytes: u64,
    /// The peak resident size as `/usr/bin/time` and online judges show it: the largest
    /// `ru_maxrss` of its processes (shared pages, such as libc's, included), or the measure
    /// above when larger. What reports show.
    pub resident_peak_bytes: u64,
    /// At most `limits.output_bytes` bytes; empty unless stdout was [`Output::Capture`](super::request::Output::Capture).
    pub stdout: Vec<u8>,
    /// True when the program wrote more than the output limit.
    pub stdout_truncated: bool,
    /// The last few KiB of stderr; empty unless stderr was [`Output::Capture`](super::request::Output::Capture).
    pub stderr_tail: Vec<u8>,
    /// The file the request named in [`RunRequest::output_file`](super::request::RunRequest::output_file), at most `limits.output_bytes`
    /// of it, or why it could not be taken; `None` when the request named none.
    pub output_file: Option<Result<Vec<u8>, OutputFileError>>,
    /// Sandboxed, the most the files it wrote in its folder were seen to take, in bytes: the
    /// folder is memory, bounded by the memory limit and counted in it.
    pub scratch_bytes: u64,
    /// Sandboxed without a memory cgroup, the most its sockets were counted for, in bytes:
    /// the kernel memory their buffers may hold, counted in its memory since no cgroup
    /// charges it (0 where one does).
    pub socket_bytes: u64,
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

/// `SIGSEGV` for 11, and so on; `signal 99` for unknown numbers.
pub fn signal_name(signal: i32) -> String {
    #[cfg(unix)]
    if let Ok(name) = nix::sys::signal::Signal::try_from(signal) {
        return name.as_str().to_owned();
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
}

/// What the runner measured about the main process.
#[derive(Debug)]
pub(crate) struct Supervised {
    pub termination: Termination,
    pub limit_hit: Option<LimitHit>,
    pub cpu_time: Duration,
    pub wall_time: Duration,
    pub peak_memory_bytes: u64,
    /// The largest `ru_maxrss`, or `peak_memory_bytes` when larger.
    pub resident_peak_bytes: u64,
    /// The most its files in the sandbox's folder were seen to take (0 outside the sandbox).
    pub scratch_bytes: u64,
    /// The most its sockets were counted for, where no cgroup charges them (0 elsewhere).
    pub socket_bytes: u64,
    /// The request's output file as the sandbox passed it back; `None` outside it.
    pub output_file: Option<Result<Vec<u8>, OutputFileError>>,
}
