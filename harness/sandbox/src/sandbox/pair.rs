//! Runs an interactive pair: the submission and the interactor, each in its own process group
//! under its own limits, talking through the judge. The judge sits between the two pipes: it
//! relays every byte (recording the transcript), so it sees who ended first and closes each
//! pipe at the right moment, and neither side can block for ever on the other:
//!
//! - a side's output is passed on as it comes; when that side has closed its output (or ended)
//!   and everything it said was delivered, the other side's input is closed: it reads EOF;
//! - when a side ends, its input is closed (nobody reads it) and its group is killed;
//! - when the interactor has ended, the submission's output is closed too, as on a judge
//!   where the pipe has no reader any more: a submission still writing gets SIGPIPE;
//! - one wall-clock bound covers both, from the start; once the submission has ended, the
//!   interactor gets [`AFTER_SUBMISSION`] more to give its verdict.
//!
//! The submission runs in the sandbox where a plain run would (the zygote gets the relayed
//! pipes as its stdin and stdout), the interactor as a plain process: it is the judge's own.
//! CPU time and memory are each side's own (the sandbox's whole-tree numbers for the
//! submission, `wait4` on the interactor's group leader and a memory watch on its group): a
//! heavy interactor never shows in the submission's numbers.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use super::outcome::{Capture, LimitHit, RunError, RunResult, Termination};
use super::process::{self, Group};
use super::request::{Isolation, Limits, RunRequest, Scope};
use super::scratch;
use super::transcript::{Recorder, Speaker, Transcript};
use super::unix::{self, GroupProbe};
use super::watch::{Plan, Probe, Sample, Schedstat, Watch};

/// How long the interactor may take to give its verdict once the submission has ended.
pub const AFTER_SUBMISSION: Duration = Duration::from_secs(2);
/// Bytes said by one side and not yet read by the other before the judge stops reading that
/// side: the writer then blocks, as it would on a full pipe, and the judge's memory stays flat.
const PENDING_CAP: usize = 1 << 20;

/// One side of the pair.
#[derive(Debug, Clone)]
pub struct Party<'a> {
    pub program: &'a Path,
    pub args: &'a [OsString],
    pub limits: Limits,
    /// Whose memory the limit counts: the submission's main process, as for any program
    /// under test; the interactor's whole group, as for the judge's other tools.
    pub scope: Scope,
    /// Working directory, which must exist; `None`: a fresh scratch folder, removed after.
    pub workdir: Option<&'a Path>,
    /// The submission's is the sandbox (with the pipes the judge relays as its stdin and
    /// stdout); the interactor is one of the judge's own tools, a plain process.
    pub isolation: Isolation,
    /// Sandboxed, under the seccomp filter ([`super::run::RunRequest::syscall_filter`]).
    pub syscall_filter: bool,
    /// Added to its environment ([`super::run::RunRequest::env`]).
    pub env: &'a [(OsString, OsString)],
    /// Its address space capped ([`super::run::RunRequest::address_space_cap`]).
    pub address_space_cap: bool,
}

/// What to run.
#[derive(Clone)]
pub struct PairRequest<'a> {
    pub submission: Party<'a>,
    pub interactor: Party<'a>,
    /// The wall-clock bound of the pair, from the start.
    pub wall_time: Duration,
    /// Whether the interactor's end (how it ended, and who ended first) decides the run
    /// whatever the submission does next: the judge's rule, not the sandbox's. When it says
    /// so, a submission still running is stopped then, its numbers those of that moment,
    /// rather than left to spin to its limits for a verdict already given.
    pub decided_by_interactor: &'a dyn Fn(Termination, Speaker) -> bool,
}

/// Everything measured about an interactive run.
#[derive(Debug, Clone)]
pub struct PairResult {
    /// The submission's own numbers. `stdout` is empty (it went to the interactor);
    /// `stdout_truncated` is set when it wrote more than its output limit.
    pub submission: RunResult,
    /// The interactor's own numbers; `stdout` is empty (it went to the submission).
    pub interactor: RunResult,
    /// The side whose end (its output closed, or its exit) the judge saw first. The judge
    /// relays everything, so the other side could not have known of it yet.
    pub first: Speaker,
    pub transcript: Transcript,
}

/// How one side's process runs and is watched.
enum Process {
    /// Its own process group: `wait4` on the main process, memory sampled per `scope`.
    Plain {
        group: Group,
        pidfd: Option<OwnedFd>,
        probe: GroupProbe,
    },
    /// In the sandbox: the zygote reports the whole tree's numbers when the run ends; the
    /// watch reads the tree as for any sandboxed run.
    #[cfg(target_os = "linux")]
    Sandboxed { run: Option<super::client::Started> },
}

impl Process {
    fn kill(&self) {
        match self {
            Process::Plain { group, .. } => group.kill(),
            #[cfg(target_os = "linux")]
            Process::Sandboxed { run } => {
                if let Some(run) = run {
                    run.kill();
                }
            }
        }
    }

    /// What to poll for its end: its pidfd, or the zygote's socket.
    fn exit_fd(&self) -> Option<i32> {
        match self {
            Process::Plain { pidfd, .. } => pidfd.as_ref().map(AsRawFd::as_raw_fd),
            #[cfg(target_os = "linux")]
            Process::Sandboxed { run } => run.as_ref().map(super::client::Started::socket),
        }
    }
}

/// Each side is read as a run of its kind is.
impl Probe for Process {
    fn schedstat(&mut self) -> Schedstat {
        match self {
            Process::Plain { probe, .. } => probe.schedstat(),
            #[cfg(target_os = "linux")]
            Process::Sandboxed { run } => run
                .as_mut()
                .map_or_else(Schedstat::default, |run| run.launched_mut().schedstat()),
        }
    }

    fn sample(&mut self) -> Option<Sample> {
        match self {
            Process::Plain { probe, .. } => probe.sample(),
            #[cfg(target_os = "linux")]
            Process::Sandboxed { run } => run.as_mut()?.launched_mut().sample(),
        }
    }

    fn cpu_used(&mut self) -> Option<Duration> {
        match self {
            Process::Plain { probe, .. } => probe.cpu_used(),
            #[cfg(target_os = "linux")]
            Process::Sandboxed { run } => run.as_mut()?.launched_mut().cpu_used(),
        }
    }
}

/// The submission as its watch reads it: the pair's wall bound is its, and the time either
/// side, or the judge that relays between them, waited for a CPU is not its own. In a dialogue
/// they take turns, so a wait of the interactor's holds the submission up as much as one of
/// its own: the waits add up.
struct Dialogue<'a> {
    submission: &'a mut Process,
    interactor: &'a mut Side,
    /// The judge's own wait when the pair started.
    relay_before: Duration,
}

impl Probe for Dialogue<'_> {
    fn schedstat(&mut self) -> Schedstat {
        let own = self.submission.schedstat();
        Schedstat {
            cpu_time: own.cpu_time,
            run_delay: own.run_delay + self.interactor.waited() + relay_delay(self.relay_before),
        }
    }

    fn sample(&mut self) -> Option<Sample> {
        self.submission.sample()
    }

    fn cpu_used(&mut self) -> Option<Duration> {
        self.submission.cpu_used()
    }
}

/// How long the judge's thread waited for a CPU since `before`.
fn relay_delay(before: Duration) -> Duration {
    #[cfg(target_os = "linux")]
    return super::tree::own_run_delay().saturating_sub(before);
    #[cfg(not(target_os = "linux"))]
    return before.saturating_sub(before);
}

/// How a side ended, and its own numbers.
struct Ended {
    at: Instant,
    termination: Termination,
    cpu_time: Duration,
    peak_memory_bytes: u64,
    resident_peak_bytes: u64,
}

/// One side while it runs.
struct Side {
    speaker: Speaker,
    program: std::path::PathBuf,
    process: Process,
    /// We write what the other side said into this.
    stdin: Option<File>,
    /// We read what it says from this.
    stdout: Option<File>,
    stderr: Option<File>,
    /// Said by the other side, not yet written to this side's stdin.
    pending: Vec<u8>,
    capture: Capture,
    /// Its limits, and the limit it was stopped for.
    watch: Watch,
    /// The longest time one of its processes was seen to wait for a CPU: read while it runs,
    /// and kept once it is gone (its pid may then be someone else's).
    waited: Duration,
    /// When its main process was reaped, and its numbers.
    reaped: Option<Ended>,
    /// Bytes it wrote to stdout, and the most it may.
    written: u64,
    output_limit: u64,
    stdout_truncated: bool,
}

impl Side {
    /// Starts `party`: the submission with the pair's wall bound (`pair_bound`), the
    /// interactor without one of its own.
    fn spawn(
        party: &Party<'_>,
        workdir: &Path,
        speaker: Speaker,
        started: Instant,
        pair_bound: Option<Duration>,
    ) -> Result<Side, RunError> {
        Side::spawn_connected(party, workdir, speaker, started, pair_bound, None)
    }

    /// [`Side::spawn`], its stdin and stdout the judge's pipes, or `connected`: descriptors
    /// of the caller's (a communication task's FIFOs), given to the process and closed here.
    fn spawn_connected(
        party: &Party<'_>,
        workdir: &Path,
        speaker: Speaker,
        started: Instant,
        pair_bound: Option<Duration>,
        connected: Option<(OwnedFd, OwnedFd)>,
    ) -> Result<Side, RunError> {
        #[cfg(target_os = "linux")]
        if sandboxed(party)? {
            return Side::spawn_sandboxed(party, speaker, started, pair_bound, connected);
        }
        // Its stdin is a pipe the judge writes: our end stays here, close-on-exec, so neither
        // side inherits it.
        let (child_stdin, child_stdout, stdin_write) = match connected {
            Some((stdin, stdout)) => (stdin, process::ChildIo::Fd(stdout), None),
            None => {
                let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC)
                    .map_err(|e| RunError::Wait(e.into()))?;
                (read, process::ChildIo::Pipe, Some(File::from(write)))
            }
        };
        let program = process::program_path(party.program);
        let child = unix::start(process::Start {
            program: &program,
            args: party.args,
            env: party.env,
            workdir,
            stdin: process::ChildIo::Fd(child_stdin),
            stdout: child_stdout,
            stderr: process::ChildIo::Pipe,
            limits: &party.limits,
            scope: party.scope,
            address_space_cap: party.address_space_cap,
        })
        .map_err(|source| RunError::Spawn {
            program: party.program.to_path_buf(),
            source,
        })?;
        let pid = child.pid;
        let group = Group {
            pid,
            reaped: false,
            registered: Some(super::interrupt::register(pid)),
        };
        let plan = unix::plan(&party.limits, party.scope);
        Side::new(
            party,
            speaker,
            Process::Plain {
                group,
                pidfd: process::pidfd_open(pid),
                probe: GroupProbe::new(pid, party.scope),
            },
            Watch::new(bounded_by(plan, pair_bound), started),
            stdin_write,
            child.stdout,
            child.stderr,
        )
    }

    /// The side in the sandbox, its stdin and stdout the pipes the judge relays.
    #[cfg(target_os = "linux")]
    fn spawn_sandboxed(
        party: &Party<'_>,
        speaker: Speaker,
        started: Instant,
        pair_bound: Option<Duration>,
        connected: Option<(OwnedFd, OwnedFd)>,
    ) -> Result<Side, RunError> {
        let pipe = || {
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(|e| RunError::Wait(e.into()))
        };
        let (stdin_read, stdin_write, stdout_read, stdout_write) = match connected {
            Some((stdin, stdout)) => (stdin, None, None, stdout),
            None => {
                let (stdin_read, stdin_write) = pipe()?;
                let (stdout_read, stdout_write) = pipe()?;
                (
                    stdin_read,
                    Some(File::from(stdin_write)),
                    Some(File::from(stdout_read)),
                    stdout_write,
                )
            }
        };
        let (stderr_read, stderr_write) = pipe()?;
        let request = RunRequest::new(party.program, party.limits)
            .args(party.args)
            .env(party.env)
            .address_space_cap(party.address_space_cap)
            .syscall_filter(party.syscall_filter);
        let run = super::client::start(
            &request,
            party.workdir,
            [stdin_read, stdout_write, stderr_write],
        )
        .map_err(|error| match error {
            super::client::Failure::Start(source) => RunError::Spawn {
                program: party.program.to_path_buf(),
                source,
            },
            super::client::Failure::Lost(error) => RunError::Sandbox(error),
            super::client::Failure::Stdin(path, source) => RunError::Stdin { path, source },
        })?;
        let plan = run.launched().plan(&party.limits);
        Side::new(
            party,
            speaker,
            Process::Sandboxed { run: Some(run) },
            Watch::new(bounded_by(plan, pair_bound), started),
            stdin_write,
            stdout_read,
            Some(File::from(stderr_read)),
        )
    }

    fn new(
        party: &Party<'_>,
        speaker: Speaker,
        process: Process,
        watch: Watch,
        stdin: Option<File>,
        stdout: Option<File>,
        stderr: Option<File>,
    ) -> Result<Side, RunError> {
        let side = Side {
            speaker,
            program: party.program.to_path_buf(),
            process,
            stdin,
            stdout,
            stderr,
            pending: Vec::new(),
            capture: Capture::new(0),
            watch,
            waited: Duration::ZERO,
            reaped: None,
            written: 0,
            output_limit: party.limits.output_bytes,
            stdout_truncated: false,
        };
        for pipe in [&side.stdin, &side.stdout, &side.stderr]
            .into_iter()
            .flatten()
        {
            process::set_nonblocking(pipe).map_err(RunError::Wait)?;
        }
        Ok(side)
    }

    fn running(&self) -> bool {
        self.reaped.is_none()
    }

    /// How long it waited for a CPU: now, while it runs; when it ended, once it has.
    fn waited(&mut self) -> Duration {
        if self.running() {
            self.waited = self.waited.max(self.process.schedstat().run_delay);
        }
        self.waited
    }

    fn kill(&mut self, why: LimitHit) {
        if self.running() {
            self.watch.stopped(why);
        }
        self.process.kill();
    }

    /// Kills what is left of it and reaps it.
    fn reap(&mut self) -> Result<(), RunError> {
        // The interactor's last wait, read while its pid is still its own (a sandboxed tree
        // is gone by now): the submission's bound counts it.
        if self.speaker == Speaker::Interactor && matches!(self.process, Process::Plain { .. }) {
            self.waited();
        }
        let ended = match &mut self.process {
            Process::Plain { group, .. } => {
                group.kill();
                let (status, usage) = group.reap().map_err(RunError::Wait)?;
                let peak = process::max_rss_bytes(&usage).max(self.watch.peak());
                Ended {
                    at: Instant::now(),
                    termination: process::termination(status),
                    cpu_time: process::timeval(usage.ru_utime) + process::timeval(usage.ru_stime),
                    peak_memory_bytes: peak,
                    resident_peak_bytes: peak,
                }
            }
            #[cfg(target_os = "linux")]
            Process::Sandboxed { run } => {
                let at = Instant::now();
                let run = run.take().expect("a sandboxed side is reaped once");
                let finished = run.finish().map_err(RunError::Sandbox)?;
                if finished.hit_memory_cap {
                    self.watch.stopped(LimitHit::Memory);
                }
                let termination = match finished.outcome {
                    super::wire::Outcome::Status(status) => process::termination(status),
                    super::wire::Outcome::ExecFailed(errno) => {
                        return Err(RunError::Spawn {
                            program: self.program.clone(),
                            source: io::Error::from_raw_os_error(errno),
                        })
                    }
                };
                // As for any sandboxed run.
                let (peak_memory_bytes, resident_peak_bytes) =
                    super::client::memory_figures(&finished, self.watch.peak());
                Ended {
                    at,
                    termination,
                    cpu_time: super::client::finished_cpu(&finished).max(self.watch.cpu_seen()),
                    peak_memory_bytes,
                    resident_peak_bytes,
                }
            }
        };
        self.reaped = Some(ended);
        // Nobody reads its input any more.
        self.stdin = None;
        self.pending.clear();
        Ok(())
    }

    fn has_exited(&self, exit_ready: bool) -> io::Result<bool> {
        if !self.running() {
            return Ok(false);
        }
        match (&self.process, self.process.exit_fd()) {
            (_, Some(_)) => Ok(exit_ready),
            (Process::Plain { group, .. }, None) => process::has_exited(group.pid),
            #[cfg(target_os = "linux")]
            (Process::Sandboxed { .. }, None) => Ok(false),
        }
    }

    fn result(self, started: Instant) -> RunResult {
        let ended = self
            .reaped
            .expect("both sides are reaped before the results are read");
        let (_, _, stderr_tail) = self.capture.finish();
        RunResult {
            termination: ended.termination,
            limit_hit: self.watch.hit(),
            cpu_time: ended.cpu_time,
            wall_time: ended.at.saturating_duration_since(started),
            peak_memory_bytes: ended.peak_memory_bytes,
            resident_peak_bytes: ended.resident_peak_bytes,
            stdout: Vec::new(),
            stdout_truncated: self.stdout_truncated,
            stderr_tail,
            output_file: None,
            scratch_bytes: 0,
            socket_bytes: 0,
        }
    }
}

/// Whether `party` runs in the sandbox: asked for, in a folder the sandbox can show, and
/// possible here (or an error when judge.toml requires it and it is not).
#[cfg(target_os = "linux")]
fn sandboxed(party: &Party<'_>) -> Result<bool, RunError> {
    // One that brings no folder uses the worker's; another must be one the sandbox can show.
    let shown = party
        .workdir
        .is_none_or(|folder| folder.starts_with(scratch::scratch_root()));
    if party.isolation != Isolation::Sandbox || !shown {
        return Ok(false);
    }
    match super::decide() {
        super::Decision::Sandboxed => Ok(true),
        super::Decision::Refused(why) => Err(RunError::SandboxRequired(why)),
        super::Decision::Plain => Ok(false),
    }
}

/// Slots of the poll set, per side.
const STDIN: usize = 0;
const STDOUT: usize = 1;
const STDERR: usize = 2;
const PIDFD: usize = 3;

/// Runs the pair to the end of both sides. Errors are the judge's side only.
pub fn run_pair(request: &PairRequest<'_>) -> Result<PairResult, RunError> {
    if super::interrupt::is_interrupted() {
        return Err(RunError::Interrupted);
    }
    let scratch = |party: &Party<'_>| match party.workdir {
        Some(_) => Ok(None),
        None => super::run::scratch_dir().map(Some),
    };
    let (submission_scratch, interactor_scratch) =
        (scratch(&request.submission)?, scratch(&request.interactor)?);
    let result = run_in(
        request,
        workdir(&request.submission, submission_scratch.as_ref()),
        workdir(&request.interactor, interactor_scratch.as_ref()),
    );
    // Both groups are dead by now, so nothing can write into the folders any more.
    for dir in [submission_scratch, interactor_scratch]
        .into_iter()
        .flatten()
    {
        scratch::remove_scratch(dir);
    }
    result
}

/// A side's watch: the submission's wall bound is the pair's (`Some`), pushed back as any
/// run's; the interactor is held to the bound the loop gives it (the pair's, later once the
/// submission has ended).
fn bounded_by(plan: Plan, pair_bound: Option<Duration>) -> Plan {
    match pair_bound {
        Some(wall) => Plan {
            wall: Some(wall),
            ..plan
        },
        None => Plan {
            wall: None,
            push_back: false,
            ..plan
        },
    }
}

/// The folder a party runs in: its own, or its scratch folder.
fn workdir<'a>(party: &Party<'a>, scratch: Option<&'a tempfile::TempDir>) -> &'a Path {
    party
        .workdir
        .or(scratch.map(tempfile::TempDir::path))
        .expect("a party without a folder has a scratch folder")
}

fn run_in(
    request: &PairRequest<'_>,
    submission_dir: &Path,
    interactor_dir: &Path,
) -> Result<PairResult, RunError> {
    let started = Instant::now();
    // The interactor first: it usually speaks first, and a submission that cannot start
    // leaves a running interactor that the drop of its group kills.
    let mut interactor = Side::spawn(
        &request.interactor,
        interactor_dir,
        Speaker::Interactor,
        started,
        None,
    )?;
    let mut submission = Side::spawn(
        &request.submission,
        submission_dir,
        Speaker::Submission,
        started,
        Some(request.wall_time),
    )?;
    let relay_before = relay_delay(Duration::ZERO);
    let mut recorder = Recorder::new();
    let mut first: Option<Speaker> = None;
    let mut buf: Vec<u8> = Vec::with_capacity(process::READ_CHUNK);
    // When a reaped side's pipes are given up on: a process that left the group (setsid)
    // could hold them open for ever.
    let mut drain_until: [Option<Instant>; 2] = [None, None];
    // The submission stopped because the interactor's end decided the run.
    let mut stopped = false;

    loop {
        let now = Instant::now();
        watch_limits(&mut submission, &mut interactor, now, relay_before);
        for (index, side) in [&mut submission, &mut interactor].into_iter().enumerate() {
            if let Some(until) = drain_until[index] {
                if now >= until {
                    side.stdout = None;
                    side.stderr = None;
                }
            }
        }
        close_finished(&mut submission, &mut interactor);
        let done = |s: &Side| !s.running() && s.stdout.is_none() && s.stderr.is_none();
        if done(&submission) && done(&interactor) {
            break;
        }

        // Sleep until something happens or something is due.
        let mut wake: Option<Instant> = [
            submission.running().then(|| submission.watch.wake(now)),
            interactor.running().then(|| interactor.watch.wake(now)),
            Some(drain_until[0]),
            Some(drain_until[1]),
        ]
        .into_iter()
        .flatten()
        .flatten()
        .min();
        let polling_exits = [&submission, &interactor]
            .iter()
            .any(|s| s.running() && s.process.exit_fd().is_none());
        if polling_exits {
            wake = Some(wake.map_or(now + process::EXIT_TICK, |w| {
                w.min(now + process::EXIT_TICK)
            }));
        }
        let ready = poll(&submission, &interactor, wake)?;

        // The interactor's events first: on a tie its end counts as first, since the
        // submission's end may be the answer to it but not the other way round before the
        // judge has passed anything on.
        for index in [1, 0] {
            let (side, other) = if index == 0 {
                (&mut submission, &mut interactor)
            } else {
                (&mut interactor, &mut submission)
            };
            let r = ready[index];
            relay(side, other, r, &mut buf, &mut recorder, &mut first)?;
            if side.has_exited(r[PIDFD]).map_err(RunError::Wait)? {
                first.get_or_insert(side.speaker);
                side.reap()?;
                drain_until[index] = Some(Instant::now() + process::DRAIN_GRACE);
            }
        }
        // Deliver at once what can be delivered, without waiting for the next poll.
        write_pending(&mut submission);
        write_pending(&mut interactor);
        if !stopped && submission.running() {
            if let (Some(ended), Some(first)) = (&interactor.reaped, first) {
                if (request.decided_by_interactor)(ended.termination, first) {
                    // Not a limit it broke: the run is over, so no limit is recorded.
                    submission.process.kill();
                    stopped = true;
                }
            }
        }
    }

    Ok(PairResult {
        first: first.unwrap_or(Speaker::Submission),
        transcript: recorder.finish(),
        submission: submission.result(started),
        interactor: interactor.result(started),
    })
}

/// Looks at both sides' limits. The submission's wall bound is the pair's, pushed back by the
/// time anyone waited for a CPU; the interactor is held to it, since it waits for the
/// submission, and given [`AFTER_SUBMISSION`] more once the submission has ended.
fn watch_limits(
    submission: &mut Side,
    interactor: &mut Side,
    now: Instant,
    relay_before: Duration,
) {
    if submission.running() {
        let mut probe = Dialogue {
            submission: &mut submission.process,
            interactor,
            relay_before,
        };
        if let Some(hit) = submission.watch.look(now, &mut probe) {
            submission.kill(hit);
        }
    }
    if let Some(deadline) = submission.watch.deadline() {
        interactor.watch.hold_to(match &submission.reaped {
            Some(Ended { at, .. }) => deadline.max(*at + AFTER_SUBMISSION),
            None => deadline,
        });
    }
    if interactor.running() {
        if let Some(hit) = interactor.watch.look(now, &mut interactor.process) {
            interactor.kill(hit);
        }
    }
}

/// Serves one side's ready pipes: what it says goes into the transcript and to the other
/// side (up to its output limit), its stderr's tail is kept, its input is written.
fn relay(
    side: &mut Side,
    other: &mut Side,
    ready: [bool; 4],
    buf: &mut Vec<u8>,
    recorder: &mut Recorder,
    first: &mut Option<Speaker>,
) -> Result<(), RunError> {
    if let (true, Some(file)) = (ready[STDOUT], &side.stdout) {
        match process::read_chunk(file, buf).map_err(RunError::Wait)? {
            Some(0) => {
                side.stdout = None;
                first.get_or_insert(side.speaker);
            }
            Some(n) => {
                side.written += n as u64;
                let mut said: &[u8] = buf;
                if side.written > side.output_limit {
                    let over = (side.written - side.output_limit) as usize;
                    said = &buf[..n - over.min(n)];
                    side.stdout_truncated = true;
                    side.stdout = None;
                    side.kill(LimitHit::Output);
                }
                recorder.record(side.speaker, said);
                if other.stdin.is_some() {
                    other.pending.extend_from_slice(said);
                }
            }
            None => {}
        }
    }
    if let (true, Some(file)) = (ready[STDERR], &side.stderr) {
        match process::read_chunk(file, buf).map_err(RunError::Wait)? {
            Some(0) => side.stderr = None,
            Some(_) => side.capture.push_stderr(buf),
            None => {}
        }
    }
    if ready[STDIN] {
        write_pending(side);
    }
    Ok(())
}

/// Closes each input whose writer has finished and whose words are all delivered, and the
/// submission's output once the interactor is gone.
fn close_finished(submission: &mut Side, interactor: &mut Side) {
    if submission.stdout.is_none() && interactor.pending.is_empty() {
        interactor.stdin = None;
    }
    if interactor.stdout.is_none() && submission.pending.is_empty() {
        submission.stdin = None;
    }
    if !interactor.running() && interactor.stdout.is_none() {
        submission.stdout = None;
    }
}

/// Writes as much of the side's pending input as its pipe takes; a closed reader drops it.
fn write_pending(side: &mut Side) {
    let Some(file) = &side.stdin else {
        side.pending.clear();
        return;
    };
    while !side.pending.is_empty() {
        // SAFETY: writes at most `pending.len()` bytes from memory the vector owns.
        let wrote = unsafe {
            libc::write(
                file.as_raw_fd(),
                side.pending.as_ptr().cast(),
                side.pending.len(),
            )
        };
        match usize::try_from(wrote) {
            Ok(n) => {
                side.pending.drain(..n);
            }
            Err(_) => {
                let error = io::Error::last_os_error();
                match error.kind() {
                    io::ErrorKind::Interrupted => continue,
                    io::ErrorKind::WouldBlock => return,
                    // EPIPE and the like: nobody reads this side's input any more.
                    _ => {
                        side.stdin = None;
                        side.pending.clear();
                        return;
                    }
                }
            }
        }
    }
}

/// Waits for any pipe or pidfd of either side, or until `wake`. Returns readiness per side
/// (submission, interactor) per slot.
fn poll(
    submission: &Side,
    interactor: &Side,
    wake: Option<Instant>,
) -> Result<[[bool; 4]; 2], RunError> {
    let mut fds = [libc::pollfd {
        fd: -1,
        events: 0,
        revents: 0,
    }; 8];
    for (index, (side, other)) in [(submission, interactor), (interactor, submission)]
        .into_iter()
        .enumerate()
    {
        let slot = &mut fds[index * 4..index * 4 + 4];
        if let Some(file) = &side.stdin {
            if !side.pending.is_empty() {
                slot[STDIN] = pollfd(file.as_raw_fd(), libc::POLLOUT);
            }
        }
        // Back-pressure: a side whose words pile up unread is not read further.
        if let Some(file) = &side.stdout {
            if other.pending.len() < PENDING_CAP {
                slot[STDOUT] = pollfd(file.as_raw_fd(), libc::POLLIN);
            }
        }
        if let Some(file) = &side.stderr {
            slot[STDERR] = pollfd(file.as_raw_fd(), libc::POLLIN);
        }
        if let (Some(fd), true) = (side.process.exit_fd(), side.running()) {
            slot[PIDFD] = pollfd(fd, libc::POLLIN);
        }
    }
    let timeout = match wake {
        None => -1,
        Some(wake) => {
            let left = wake.saturating_duration_since(Instant::now());
            i32::try_from(left.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
        }
    };
    // SAFETY: fds is a valid array of the length passed.
    let count = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
    let mut ready = [[false; 4]; 2];
    if count < 0 {
        let error = io::Error::last_os_error();
        return match error.kind() {
            io::ErrorKind::Interrupted => Ok(ready),
            _ => Err(RunError::Wait(error)),
        };
    }
    for (i, fd) in fds.iter().enumerate() {
        ready[i / 4][i % 4] = fd.fd >= 0 && fd.revents != 0;
    }
    Ok(ready)
}

fn pollfd(fd: i32, events: libc::c_short) -> libc::pollfd {
    libc::pollfd {
        fd,
        events,
        revents: 0,
    }
}

/// Runs `party` alone to its end with `stdin` and `stdout` the caller's descriptors (a
/// communication task's FIFOs, [`super::communication`]), closed here once it has started, so
/// that its end is the end of its side of them; its stderr's tail is kept. In the sandbox where
/// the party asks for it, watched as one side of a pair is. `hold` says how its wall bound is
/// kept: `None`, by its own limits, as a submission's; `Some`, by the caller, as an
/// interactor's is by its pair: asked often, the closure gives the deadline once there is one.
pub(crate) fn run_connected(
    party: &Party<'_>,
    stdin: OwnedFd,
    stdout: OwnedFd,
    hold: Option<&dyn Fn() -> Option<Instant>>,
) -> Result<RunResult, RunError> {
    if super::interrupt::is_interrupted() {
        return Err(RunError::Interrupted);
    }
    let scratch = match party.workdir {
        Some(_) => None,
        None => Some(super::run::scratch_dir()?),
    };
    let result = run_connected_in(party, workdir(party, scratch.as_ref()), stdin, stdout, hold);
    if let Some(dir) = scratch {
        scratch::remove_scratch(dir);
    }
    result
}

/// How often a side whose bound its caller keeps asks for it.
const HOLD_TICK: Duration = Duration::from_millis(20);

fn run_connected_in(
    party: &Party<'_>,
    dir: &Path,
    stdin: OwnedFd,
    stdout: OwnedFd,
    hold: Option<&dyn Fn() -> Option<Instant>>,
) -> Result<RunResult, RunError> {
    let started = Instant::now();
    let (speaker, own_bound) = match hold {
        None => (Speaker::Submission, Some(party.limits.wall_time)),
        Some(_) => (Speaker::Interactor, None),
    };
    let mut side = Side::spawn_connected(
        party,
        dir,
        speaker,
        started,
        own_bound,
        Some((stdin, stdout)),
    )?;
    let mut buf: Vec<u8> = Vec::with_capacity(process::READ_CHUNK);
    let mut drain_until: Option<Instant> = None;
    loop {
        let now = Instant::now();
        if let Some(hold) = hold {
            // Pushed back by the time it waited for a CPU, as any run's bound is.
            let waited = side.waited();
            side.watch.hold(hold().map(|deadline| deadline + waited));
        }
        if side.running() {
            if let Some(hit) = side.watch.look(now, &mut side.process) {
                side.kill(hit);
            }
        }
        if drain_until.is_some_and(|until| now >= until) {
            side.stderr = None;
        }
        if !side.running() && side.stderr.is_none() {
            break;
        }
        let mut wake = [
            side.running().then(|| side.watch.wake(now)).flatten(),
            drain_until,
        ]
        .into_iter()
        .flatten()
        .min();
        let tick = match hold {
            Some(_) => Some(HOLD_TICK),
            None => side
                .process
                .exit_fd()
                .is_none()
                .then_some(process::EXIT_TICK),
        };
        if let (true, Some(tick)) = (side.running(), tick) {
            wake = Some(wake.map_or(now + tick, |w| w.min(now + tick)));
        }
        let mut fds = [pollfd(-1, 0), pollfd(-1, 0)];
        if let Some(file) = &side.stderr {
            fds[0] = pollfd(file.as_raw_fd(), libc::POLLIN);
        }
        if let (Some(fd), true) = (side.process.exit_fd(), side.running()) {
            fds[1] = pollfd(fd, libc::POLLIN);
        }
        let timeout = wake.map_or(-1, |wake| {
            let left = wake.saturating_duration_since(Instant::now());
            i32::try_from(left.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
        });
        // SAFETY: fds is a valid array of the length passed.
        let count = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if count < 0 {
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(RunError::Wait(error));
            }
            continue;
        }
        if let (true, Some(file)) = (fds[0].fd >= 0 && fds[0].revents != 0, &side.stderr) {
            match process::read_chunk(file, &mut buf).map_err(RunError::Wait)? {
                Some(0) => side.stderr = None,
                Some(_) => side.capture.push_stderr(&buf),
                None => {}
            }
        }
        let exit_ready = fds[1].fd >= 0 && fds[1].revents != 0;
        if side.has_exited(exit_ready).map_err(RunError::Wait)? {
            side.reap()?;
            drain_until = Some(Instant::now() + process::DRAIN_GRACE);
        }
    }
    Ok(side.result(started))
}
