//! Verdicts, and the pure function that turns a run's measurements into one.

pub mod communication;
pub mod credit;

use std::fmt;
use std::time::Duration;

use serde::Deserialize;

use crate::sandbox::run::{Limits, RunResult, Termination};
use crate::sandbox::transcript::Speaker;

/// How an interactor is called and what its exit code means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum InteractorProtocol {
    /// `interactor INPUT OUTPUT [ANSWER]`: exit 0 OK, 1 WA, 2 PE, 3 FAIL; the reason on stderr.
    #[value(help = "`interactor INPUT OUTPUT ANSWER`, exit 0 accepts (Codeforces, Polygon)")]
    Testlib,
    /// `interactor INPUT ANSWER FEEDBACK_DIR/`: exit 42 AC, 43 WA; the reason in
    /// `FEEDBACK_DIR/judgemessage.txt`.
    #[value(help = "`interactor INPUT ANSWER FEEDBACK_DIR`, exit 42 accepts (Kattis, ICPC)")]
    Kattis,
}

impl InteractorProtocol {
    /// The name judge.toml uses.
    pub fn as_str(self) -> &'static str {
        match self {
            InteractorProtocol::Testlib => "testlib",
            InteractorProtocol::Kattis => "kattis",
        }
    }

    /// The exit codes the protocol defines, for messages.
    pub fn codes(self) -> &'static str {
        match self {
            InteractorProtocol::Testlib => "0 OK, 1 WA, 2 PE, 3 FAIL, 7 points",
            InteractorProtocol::Kattis => "42 AC, 43 WA",
        }
    }
}

/// What an online judge would answer for one case (or, for the overall verdict, a submission).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// AC: the output is right, within every limit.
    Accepted,
    /// WA: the checker rejected the output.
    WrongAnswer,
    /// TLE: over the CPU time limit, or killed by the wall-clock bound.
    TimeLimitExceeded,
    /// MLE: over the memory limit (or a crash an allocation failure explains).
    MemoryLimitExceeded,
    /// RE: a non-zero exit or a signal.
    RuntimeError,
    /// OLE: more output than the limit.
    OutputLimitExceeded,
    /// CE: the submission does not compile; no case ran.
    CompileError,
    /// The judge itself failed (a checker crashed, a case could not be read): not the
    /// contestant's fault, and never shown as one of theirs.
    JudgeError,
}

impl Verdict {
    /// Every verdict, in the order above.
    pub const ALL: [Verdict; 8] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::TimeLimitExceeded,
        Verdict::MemoryLimitExceeded,
        Verdict::RuntimeError,
        Verdict::OutputLimitExceeded,
        Verdict::CompileError,
        Verdict::JudgeError,
    ];

    /// Each verdict's short code and stored-submission folder name, in the order above.
    const NAMES: [(&'static str, &'static str); 8] = [
        ("AC", "accepted"),
        ("WA", "wrong_answer"),
        ("TLE", "time_limit_exceeded"),
        ("MLE", "memory_limit_exceeded"),
        ("RE", "run_time_error"),
        ("OLE", "output_limit_exceeded"),
        ("CE", "compile_error"),
        ("JE", "judge_error"),
    ];

    /// The short code every judge prints: `AC`, `WA`, …
    pub fn as_str(self) -> &'static str {
        Verdict::NAMES[self as usize].0
    }

    /// The folder name used for stored submissions (`solutions/submissions/<problem>/<dir>/`),
    /// as in the Kattis problem package format.
    pub fn dir_name(self) -> &'static str {
        Verdict::NAMES[self as usize].1
    }

    /// The verdict stored in a folder of that name, as [`Verdict::dir_name`] writes it.
    pub fn from_dir_name(name: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.dir_name() == name)
    }

    /// The verdict of a short code (`AC`, `tle`), in any case.
    pub fn from_code(code: &str) -> Option<Verdict> {
        Verdict::ALL
            .into_iter()
            .find(|v| v.as_str().eq_ignore_ascii_case(code))
    }

    /// Whether it is AC.
    pub fn is_accepted(self) -> bool {
        self == Verdict::Accepted
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A verdict with its one-line reason: what a checker decides about an output, what the
/// measurements decide about a run, and what [`decide`] makes of both.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// What was decided.
    pub verdict: Verdict,
    /// Why, in one line.
    pub reason: String,
    /// The checker's partial credit for an accepted case (testlib's `quitp`, a Kattis
    /// validator's `score.txt`), read by the case's scoring rule.
    pub credit: Option<credit::Credit>,
}

impl Judgement {
    /// A verdict with its reason.
    pub fn new(verdict: Verdict, reason: impl Into<String>) -> Self {
        Judgement {
            verdict,
            reason: reason.into(),
            credit: None,
        }
    }

    /// AC, and what was compared (`12 tokens`).
    pub fn accepted(reason: impl Into<String>) -> Self {
        Judgement::new(Verdict::Accepted, reason)
    }

    /// WA, and where the output went wrong.
    pub fn wrong_answer(reason: impl Into<String>) -> Self {
        Judgement::new(Verdict::WrongAnswer, reason)
    }

    /// The judge's side failed (a checker crashed, an answer could not be read): not the
    /// contestant's fault.
    pub fn judge_error(reason: impl Into<String>) -> Self {
        Judgement::new(Verdict::JudgeError, reason)
    }
}

/// The one place a case's verdict is decided: the run's limits and its crash first (see
/// [`classify`]), and only for a clean run the checker's judgement of its output. `check` is
/// called only then, so a crashed run never costs a checker.
pub fn decide(run: &RunResult, limits: &Limits, check: impl FnOnce() -> Judgement) -> Judgement {
    classify(run, limits).unwrap_or_else(check)
}

/// Messages that runtimes print when an allocation fails: a crash that says one of these ran out
/// of memory, even if the failed request never showed up in the peak RSS.
const ALLOCATION_FAILURE_MARKERS: [&str; 5] = [
    "std::bad_alloc",
    "memory allocation of",
    "MemoryError",
    "Cannot allocate memory",
    "out of memory",
];

/// How close to the memory limit a crash's peak must come to be blamed on memory.
const NEAR_MEMORY_LIMIT: f64 = 0.9;

/// Decides the verdict that the run alone determines. `None` means the program exited cleanly
/// within every limit, and its output goes to the checker.
///
/// The order matters: output and memory are checked before time, because a program that floods
/// output or memory is usually also slow, and the first limit it broke is the useful diagnosis.
pub(crate) fn classify(run: &RunResult, limits: &Limits) -> Option<Judgement> {
    let over_cpu = run.cpu_time > limits.cpu_time;
    let crashed = !matches!(run.termination, Termination::Exited(0));

    if run.limit_hit == Some(LimitHit::Output) || run.stdout_truncated {
        return Some(Judgement::new(
            Verdict::OutputLimitExceeded,
            format!(
                "more than {} of output",
                crate::units::format_bytes(limits.output_bytes)
            ),
        ));
    }

    let stderr = String::from_utf8_lossy(&run.stderr_tail);
    let allocation_failed = crashed
        && ALLOCATION_FAILURE_MARKERS
            .iter()
            .any(|marker| stderr.contains(marker));
    let near_memory_limit =
        crashed && run.peak_memory_bytes as f64 >= NEAR_MEMORY_LIMIT * limits.memory_bytes as f64;
    // A sandboxed run's folder is memory, as large as its memory limit: full, it wrote past.
    let filled_folder = run.scratch_bytes > 0 && run.scratch_bytes >= limits.memory_bytes;
    if run.limit_hit == Some(LimitHit::Memory)
        || run.peak_memory_bytes > limits.memory_bytes
        || allocation_failed
        || near_memory_limit
        || filled_folder
    {
        use crate::units::format_bytes;
        let why = if filled_folder {
            format!(
                "the files it wrote filled its folder: {} (a run's folder is memory, bounded \
                 by the memory limit {})",
                format_bytes(run.scratch_bytes),
                format_bytes(limits.memory_bytes)
            )
        } else if allocation_failed && run.peak_memory_bytes <= limits.memory_bytes {
            "an allocation failed".to_string()
        } else if run.scratch_bytes > 0 {
            format!(
                "peak memory {} over the limit {}, with {} of files it wrote in its folder \
                 (a run's folder is memory)",
                format_bytes(run.peak_memory_bytes),
                format_bytes(limits.memory_bytes),
                format_bytes(run.scratch_bytes)
            )
        } else if run.socket_bytes > 0 {
            format!(
                "peak memory {} over the limit {}, with {} counted for the buffers of the \
                 sockets it held (no cgroup here to measure them)",
                format_bytes(run.peak_memory_bytes),
                format_bytes(limits.memory_bytes),
                format_bytes(run.socket_bytes)
            )
        } else {
            format!(
                "peak memory {} over the limit {}",
                format_bytes(run.peak_memory_bytes),
                format_bytes(limits.memory_bytes)
            )
        };
        return Some(Judgement::new(Verdict::MemoryLimitExceeded, why));
    }

    if over_cpu || matches!(run.limit_hit, Some(LimitHit::WallTime | LimitHit::CpuTime)) {
        let reason = if run.limit_hit == Some(LimitHit::WallTime) && !over_cpu {
            // A program that used little CPU in that time was sleeping or blocked; one that
            // used much of it was starved by a busy machine (still TLE: it did not finish).
            let why = if run.cpu_time * 4 < run.wall_time {
                "it sleeps or waits"
            } else {
                "the machine is busy or it is slow; try fewer jobs"
            };
            format!(
                "killed after {} of wall time (CPU {}): {why}",
                crate::units::format_duration(run.wall_time),
                crate::units::format_duration(run.cpu_time)
            )
        } else {
            format!(
                "CPU time {} over the limit {}",
                crate::units::format_duration(run.cpu_time),
                crate::units::format_duration(limits.cpu_time)
            )
        };
        return Some(Judgement::new(Verdict::TimeLimitExceeded, reason));
    }

    let end = match run.termination {
        Termination::Exited(0) => return None,
        Termination::Exited(code) => format!("exit {code}"),
        Termination::Signaled(signal) => crate::sandbox::run::signal_name(signal).clone(),
    };
    Some(Judgement::new(
        Verdict::RuntimeError,
        with_stderr(end, &stderr),
    ))
}

// ---- interactive problems -----------------------------------------------------------------

/// What an interactor's run says about the dialogue, decoded by its protocol
/// ([`interactor_said`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InteractorSaid {
    /// It accepted the dialogue, with its message.
    Accepted(String),
    /// It said wrong answer (or testlib's presentation error), with its reason.
    WrongAnswer(String),
    /// The interactor itself failed: it crashed, exited with a code its protocol does not
    /// define or with testlib's FAIL, broke its own limits, or gave no verdict in time.
    Failed(String),
    /// Killed by the pair's wall-clock bound while it was waiting for the submission: it
    /// said nothing, and the submission, killed at the same moment, is judged by its limits.
    Silenced,
}

/// Decodes the interactor's run. `message` is its reason: Kattis's `judgemessage.txt`, or for
/// testlib the last line of its stderr. `wall_time` is the pair's wall-clock bound, and
/// `submission_ended` whether the submission had ended before the interactor was stopped.
pub fn interactor_said(
    protocol: InteractorProtocol,
    run: &RunResult,
    limits: &Limits,
    message: &str,
    submission_ended: bool,
) -> InteractorSaid {
    use crate::units::{format_bytes, format_duration};
    let traceback = has_python_traceback(message);
    // Validators often log the whole game (`Guess 3 is 125`); the last line is the verdict's
    // reason (`Guess 4: couldn't read an integer`).
    let message = message
        .lines()
        .rev()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .map(|line| crate::text::one_line(line, 200))
        .unwrap_or_default();
    match run.limit_hit {
        Some(LimitHit::Memory) => {
            return InteractorSaid::Failed(format!(
                "the interactor used more than its {} of memory",
                format_bytes(limits.memory_bytes)
            ))
        }
        Some(LimitHit::WallTime) if submission_ended => {
            return InteractorSaid::Failed(format!(
                "the interactor gave no verdict within {} after the submission ended",
                format_duration(crate::sandbox::pair::AFTER_SUBMISSION)
            ))
        }
        // Busy for half the bound or more: it was computing, not waiting for the submission.
        Some(LimitHit::WallTime) if run.cpu_time * 2 >= run.wall_time => {
            return InteractorSaid::Failed(format!(
                "the interactor was still computing (CPU {}) when the wall-clock bound of {} ended the run",
                format_duration(run.cpu_time),
                format_duration(run.wall_time)
            ))
        }
        Some(LimitHit::WallTime) => return InteractorSaid::Silenced,
        // Over its CPU time: said just below, with the time.
        Some(LimitHit::CpuTime | LimitHit::Output) | None => {}
    }
    if run.cpu_time > limits.cpu_time {
        return InteractorSaid::Failed(format!(
            "the interactor used more than its {} of CPU time",
            format_duration(limits.cpu_time)
        ));
    }
    // Python exits 1 on an uncaught exception, testlib's WA: an interactor that crashed would
    // blame the submission. Its traceback says it crashed.
    if protocol == InteractorProtocol::Testlib
        && run.termination == Termination::Exited(1)
        && traceback
    {
        return InteractorSaid::Failed(format!(
            "the interactor crashed (a Python traceback, exit 1): {message}"
        ));
    }
    said_by_end(protocol, run.termination, &message)
}

/// The line that opens Python's report of an uncaught exception.
pub const PYTHON_TRACEBACK: &str = "Traceback (most recent call last):";

/// Whether `stderr` holds Python's report of an uncaught exception (its opening line whole):
/// a judge's Python program (a checker, an interactor) that exits 1 with it crashed, where
/// testlib's exit codes would read the 1 as the team's wrong answer.
pub fn has_python_traceback(stderr: &str) -> bool {
    stderr
        .lines()
        .any(|line| line.trim_end() == PYTHON_TRACEBACK)
}

/// What the interactor's end says by itself (its exit code read by its protocol, or the
/// signal that killed it), once its limits are out of the question. `message` is its reason.
fn said_by_end(protocol: InteractorProtocol, end: Termination, message: &str) -> InteractorSaid {
    let with_message = |what: String| {
        if message.is_empty() {
            what
        } else {
            format!("{what}: {message}")
        }
    };
    let code = match end {
        Termination::Signaled(signal) => {
            return InteractorSaid::Failed(with_message(format!(
                "the interactor was killed by {}",
                crate::sandbox::run::signal_name(signal)
            )))
        }
        Termination::Exited(code) => code,
    };
    match (protocol, code) {
        // testlib's `quitp` (exit 7): accepted, with points the judge reads from its message,
        // as a checker's.
        (InteractorProtocol::Testlib, 0 | credit::TESTLIB_POINTS_EXIT)
        | (InteractorProtocol::Kattis, 42) => InteractorSaid::Accepted(message.to_string()),
        (InteractorProtocol::Testlib, 1) | (InteractorProtocol::Kattis, 43) => {
            InteractorSaid::WrongAnswer(with_message("the interactor said wrong answer".into()))
        }
        (InteractorProtocol::Testlib, 2) => InteractorSaid::WrongAnswer(with_message(
            "the interactor said presentation error".into(),
        )),
        (InteractorProtocol::Testlib, 3) => {
            InteractorSaid::Failed(with_message("the interactor failed (exit 3, FAIL)".into()))
        }
        (protocol, code) => {
            let hint = match (protocol, code) {
                (InteractorProtocol::Testlib, 42 | 43) => {
                    " (hint: 42 and 43 are Kattis codes: set interactor-protocol = \"kattis\")"
                }
                _ => "",
            };
            InteractorSaid::Failed(with_message(format!(
                "the interactor exited with {code}, which the {} protocol does not define ({}){hint}",
                protocol.as_str(),
                protocol.codes()
            )))
        }
    }
}

/// Whether the interactor's end decides the run's verdict whatever the submission does after
/// it, by [`blame`]'s rules: it failed (a judge error), or it said wrong answer and ended
/// first. The pair then stops a submission still running (one that spins after its last
/// answer would otherwise run to its limit for a verdict already given).
pub fn decided_by_interactor(
    protocol: InteractorProtocol,
    end: Termination,
    first: Speaker,
) -> bool {
    match said_by_end(protocol, end, "") {
        InteractorSaid::Failed(_) => true,
        InteractorSaid::WrongAnswer(_) => first == Speaker::Interactor,
        InteractorSaid::Accepted(_) | InteractorSaid::Silenced => false,
    }
}

/// Who is blamed for an interactive run: the one place its verdict is decided, in the order
/// problemtools and DOMjudge use (the book's table, docs/src/guide/interactive.md):
///
/// 1. the interactor failed (crash, exit code outside its protocol, FAIL, its own limits,
///    no verdict in time): judge error;
/// 2. the interactor said wrong answer and ended first: WA (the submission's end, a SIGPIPE
///    say, may be the consequence); it said accepted and ended first, and the submission
///    then only got SIGPIPE writing more: AC;
/// 3. the submission broke its own limits: OLE, MLE, TLE; one killed by the wall clock while
///    the interactor waited for it gets a reason that suggests the flush;
/// 4. the submission crashed: RE;
/// 5. otherwise the interactor's verdict.
pub fn blame(
    submission: &RunResult,
    limits: &Limits,
    interactor: &InteractorSaid,
    first: Speaker,
) -> Judgement {
    if let InteractorSaid::Failed(why) = interactor {
        return Judgement::judge_error(why.clone());
    }
    if let (InteractorSaid::WrongAnswer(why), Speaker::Interactor) = (interactor, first) {
        return Judgement::wrong_answer(why.clone());
    }
    // The interactor accepted and ended; the judge then closed the pipe, and the submission
    // died writing more (SIGPIPE). Whether that write came before or after the close is a
    // race: what the interactor chose not to read is not judged (BAPCtools' rule, which its
    // `guessnoeofcheck` package checks).
    let wrote_after_the_end = submission.termination == Termination::Signaled(libc::SIGPIPE)
        && submission.limit_hit.is_none();
    if let (InteractorSaid::Accepted(why), Speaker::Interactor, true) =
        (interactor, first, wrote_after_the_end)
    {
        return Judgement::accepted(format!(
            "{why} (the submission wrote on after the interactor had accepted and ended, and got SIGPIPE: the interactor does not read to the end of its input)"
        ));
    }
    if let Some(mut judgement) = classify(submission, limits) {
        let waited = submission.limit_hit == Some(LimitHit::WallTime)
            && submission.cpu_time * 4 < submission.wall_time
            && *interactor == InteractorSaid::Silenced;
        if waited {
            judgement.reason = format!(
                "killed after {} of wall time (CPU {}) while the interactor waited for its next line: did it flush after each line? (`fflush(stdout)`, `cout << endl`, `print(..., flush=True)`)",
                crate::units::format_duration(submission.wall_time),
                crate::units::format_duration(submission.cpu_time)
            );
        }
        return judgement;
    }
    match interactor {
        InteractorSaid::Accepted(why) => Judgement::accepted(why.clone()),
        InteractorSaid::WrongAnswer(why) => Judgement::wrong_answer(why.clone()),
        InteractorSaid::Failed(why) => Judgement::judge_error(why.clone()),
        InteractorSaid::Silenced => {
            Judgement::judge_error("the interactor was stopped before it gave a verdict")
        }
    }
}

/// What the tests of every module that judges ask of a judgement.
#[cfg(test)]
impl Judgement {
    /// Panics unless it is `verdict`, for a reason that says `part`.
    #[track_caller]
    pub(crate) fn assert_is(&self, verdict: Verdict, part: &str) {
        assert_eq!(self.verdict, verdict, "{}", self.reason);
        assert!(self.reason.contains(part), "{}", self.reason);
    }
}

/// Appends the last line the program wrote to stderr, which is usually the panic or assertion.
fn with_stderr(what: String, stderr: &str) -> String {
    with_line(what, crate::text::last_line(stderr).unwrap_or_default())
}

/// `what`, and the line a program said (cut) when it said one.
fn with_line(what: String, line: &str) -> String {
    if line.is_empty() {
        what
    } else {
        format!("{what}: {}", crate::text::cut(line, 160))
    }
}

/// Whether a CPU time is within 10% of the limit, either side: a verdict that a slower or
/// faster machine could flip (Kattis problemtools warns about the same).
pub fn is_time_sensitive(cpu_time: Duration, limit: Duration) -> bool {
    // Whole nanoseconds, so that exactly 10% is in on both sides.
    let (used, limit) = (cpu_time.as_nanos(), limit.as_nanos());
    limit > 0 && used.abs_diff(limit) * 10 <= limit
}

pub use crate::sandbox::run::LimitHit;

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    fn limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(1),
            wall_time: Duration::from_secs(3),
            memory_bytes: 64 * MIB,
            output_bytes: 1024,
        }
    }

    fn clean() -> RunResult {
        RunResult {
            termination: Termination::Exited(0),
            limit_hit: None,
            cpu_time: Duration::from_millis(10),
            wall_time: Duration::from_millis(12),
            peak_memory_bytes: 2 * MIB,
            resident_peak_bytes: 2 * MIB,
            stdout: b"3\n".to_vec(),
            stdout_truncated: false,
            stderr_tail: Vec::new(),
            output_file: None,
            scratch_bytes: 0,
            socket_bytes: 0,
        }
    }

    fn verdict_of(run: &RunResult) -> Option<Verdict> {
        classify(run, &limits()).map(|c| c.verdict)
    }

    #[test]
    fn a_clean_run_goes_to_the_checker() {
        assert_eq!(verdict_of(&clean()), None);
    }

    #[test]
    fn classification_table() {
        use Verdict::*;
        let cases: Vec<(&str, RunResult, Verdict)> = vec![
            (
                "cpu over the limit",
                RunResult {
                    cpu_time: Duration::from_millis(1001),
                    ..clean()
                },
                TimeLimitExceeded,
            ),
            (
                "killed by the CPU rlimit",
                RunResult {
                    termination: Termination::Signaled(libc::SIGKILL),
                    cpu_time: Duration::from_secs(2),
                    ..clean()
                },
                TimeLimitExceeded,
            ),
            (
                "sleeps until the wall clock kills it",
                RunResult {
                    termination: Termination::Signaled(libc::SIGKILL),
                    limit_hit: Some(LimitHit::WallTime),
                    wall_time: Duration::from_secs(3),
                    ..clean()
                },
                TimeLimitExceeded,
            ),
            (
                "files in its folder filled it, exited cleanly",
                RunResult {
                    scratch_bytes: 64 * MIB,
                    ..clean()
                },
                MemoryLimitExceeded,
            ),
            (
                "a few files in its folder",
                RunResult {
                    scratch_bytes: 3 * MIB,
                    ..clean()
                },
                Accepted,
            ),
            (
                "sockets counted with its memory, under the limit",
                RunResult {
                    peak_memory_bytes: 40 * MIB,
                    socket_bytes: 38 * MIB,
                    ..clean()
                },
                Accepted,
            ),
            (
                "peak memory over the limit, exited cleanly",
                RunResult {
                    peak_memory_bytes: 65 * MIB,
                    ..clean()
                },
                MemoryLimitExceeded,
            ),
            (
                "killed by the memory watcher",
                RunResult {
                    termination: Termination::Signaled(libc::SIGKILL),
                    limit_hit: Some(LimitHit::Memory),
                    peak_memory_bytes: 64 * MIB,
                    ..clean()
                },
                MemoryLimitExceeded,
            ),
            (
                "crash after a failed allocation (bad_alloc)",
                RunResult {
                    termination: Termination::Signaled(libc::SIGABRT),
                    stderr_tail:
                        b"terminate called after throwing an instance of 'std::bad_alloc'\n"
                            .to_vec(),
                    ..clean()
                },
                MemoryLimitExceeded,
            ),
            (
                "segfault with the peak near the limit",
                RunResult {
                    termination: Termination::Signaled(libc::SIGSEGV),
                    peak_memory_bytes: 63 * MIB,
                    ..clean()
                },
                MemoryLimitExceeded,
            ),
            (
                "plain segfault",
                RunResult {
                    termination: Termination::Signaled(libc::SIGSEGV),
                    ..clean()
                },
                RuntimeError,
            ),
            (
                "exit 3",
                RunResult {
                    termination: Termination::Exited(3),
                    ..clean()
                },
                RuntimeError,
            ),
            (
                "output flood, also slow",
                RunResult {
                    termination: Termination::Signaled(libc::SIGKILL),
                    limit_hit: Some(LimitHit::Output),
                    stdout_truncated: true,
                    cpu_time: Duration::from_secs(2),
                    ..clean()
                },
                OutputLimitExceeded,
            ),
            (
                "a clean exit that mentions memory is not MLE",
                RunResult {
                    stderr_tail: b"out of memory? no\n".to_vec(),
                    ..clean()
                },
                Accepted,
            ),
        ];
        for (what, run, expected) in cases {
            let got = verdict_of(&run).unwrap_or(Accepted);
            assert_eq!(got, expected, "{what}");
        }
    }

    #[test]
    fn sockets_over_the_limit_are_named_in_the_reason() {
        let run = RunResult {
            limit_hit: Some(LimitHit::Memory),
            termination: Termination::Signaled(libc::SIGKILL),
            peak_memory_bytes: 65 * MIB,
            socket_bytes: 63 * MIB,
            ..clean()
        };
        let judgement = classify(&run, &limits()).unwrap();
        judgement.assert_is(
            Verdict::MemoryLimitExceeded,
            "with 63.0 MiB counted for the buffers of the sockets it held",
        );
    }

    #[test]
    fn reasons_name_the_signal_and_stderr() {
        let run = RunResult {
            termination: Termination::Signaled(libc::SIGSEGV),
            stderr_tail: b"starting\nassertion failed: x < n\n\n".to_vec(),
            ..clean()
        };
        let reason = classify(&run, &limits()).unwrap().reason;
        assert_eq!(reason, "SIGSEGV: assertion failed: x < n");
        let run = RunResult {
            termination: Termination::Exited(3),
            ..clean()
        };
        assert_eq!(classify(&run, &limits()).unwrap().reason, "exit 3");
    }

    #[test]
    fn sleeping_is_told_apart_from_spinning() {
        let run = RunResult {
            limit_hit: Some(LimitHit::WallTime),
            wall_time: Duration::from_secs(3),
            cpu_time: Duration::from_millis(1),
            termination: Termination::Signaled(libc::SIGKILL),
            ..clean()
        };
        let reason = classify(&run, &limits()).unwrap().reason;
        assert!(reason.contains("wall time"), "{reason}");
        assert!(reason.contains("sleeps or waits"), "{reason}");

        let starved = RunResult {
            cpu_time: Duration::from_millis(990),
            ..run
        };
        let classified = classify(&starved, &limits()).unwrap();
        classified.assert_is(Verdict::TimeLimitExceeded, "busy");
    }

    #[test]
    fn time_sensitivity_is_ten_percent_either_side() {
        let limit = Duration::from_secs(1);
        assert!(is_time_sensitive(Duration::from_millis(900), limit));
        assert!(is_time_sensitive(Duration::from_millis(1100), limit));
        assert!(!is_time_sensitive(Duration::from_millis(899), limit));
        assert!(!is_time_sensitive(Duration::from_millis(1101), limit));
    }

    #[test]
    fn codes_and_folder_names_round_trip() {
        for verdict in Verdict::ALL {
            assert_eq!(Verdict::from_code(verdict.as_str()), Some(verdict));
            assert_eq!(Verdict::from_dir_name(verdict.dir_name()), Some(verdict));
        }
        assert!(Verdict::Accepted.is_accepted());
        assert!(!Verdict::WrongAnswer.is_accepted());
    }

    fn exited(code: i32) -> RunResult {
        RunResult {
            termination: Termination::Exited(code),
            ..clean()
        }
    }

    fn killed_by_wall(cpu_ms: u64) -> RunResult {
        RunResult {
            termination: Termination::Signaled(libc::SIGKILL),
            limit_hit: Some(LimitHit::WallTime),
            cpu_time: Duration::from_millis(cpu_ms),
            wall_time: Duration::from_secs(3),
            ..clean()
        }
    }

    /// The interactor's limits in these tables: CPU and wall up to 3 s, 2 GiB.
    fn interactor_limits() -> Limits {
        Limits {
            cpu_time: Duration::from_secs(3),
            wall_time: Duration::from_secs(3),
            memory_bytes: 2048 * MIB,
            output_bytes: u64::MAX,
        }
    }

    #[test]
    fn the_interactors_end_decides_the_run_when_blame_would_not_look_further() {
        use InteractorProtocol::{Kattis, Testlib};
        use Speaker::{Interactor, Submission};
        let exit = Termination::Exited;
        let table = [
            // Wrong answer decides only when the interactor ended first.
            (Kattis, exit(43), Interactor, true),
            (Kattis, exit(43), Submission, false),
            (Testlib, exit(1), Interactor, true),
            (Testlib, exit(2), Interactor, true),
            (Testlib, exit(2), Submission, false),
            // Accepted never does: the submission may still break its limits.
            (Kattis, exit(42), Interactor, false),
            (Testlib, exit(0), Interactor, false),
            (
                Testlib,
                exit(credit::TESTLIB_POINTS_EXIT),
                Interactor,
                false,
            ),
            // A failed interactor is a judge error whoever ended first.
            (Testlib, exit(3), Submission, true),
            (Kattis, exit(1), Submission, true),
            (
                Kattis,
                Termination::Signaled(libc::SIGSEGV),
                Interactor,
                true,
            ),
        ];
        for (protocol, end, first, decided) in table {
            assert_eq!(
                decided_by_interactor(protocol, end, first),
                decided,
                "{protocol:?} {end:?} {first:?}"
            );
        }
    }

    #[test]
    fn interactor_exits_are_read_by_their_protocol() {
        use InteractorProtocol::{Kattis, Testlib};
        let said = |protocol, run: RunResult, ended| {
            interactor_said(protocol, &run, &interactor_limits(), "why", ended)
        };
        // A crashed Python interactor exits 1, testlib's WA: its traceback makes it a failure.
        let crashed = interactor_said(
            Testlib,
            &exited(1),
            &interactor_limits(),
            "Traceback (most recent call last):\n  File \"i.py\", line 4\nValueError: bad\n",
            true,
        );
        assert_eq!(
            crashed,
            InteractorSaid::Failed(
                "the interactor crashed (a Python traceback, exit 1): ValueError: bad".into()
            )
        );
        let said_wa = interactor_said(
            Testlib,
            &exited(1),
            &interactor_limits(),
            "wrong: see Traceback (most recent call last): here",
            true,
        );
        assert!(
            matches!(said_wa, InteractorSaid::WrongAnswer(_)),
            "{said_wa:?}"
        );
        let accepted = InteractorSaid::Accepted("why".into());
        assert_eq!(said(Testlib, exited(0), true), accepted);
        assert_eq!(said(Kattis, exited(42), true), accepted);
        for (protocol, code) in [(Testlib, 1), (Testlib, 2), (Kattis, 43)] {
            let got = said(protocol, exited(code), true);
            assert!(
                matches!(got, InteractorSaid::WrongAnswer(_)),
                "{code}: {got:?}"
            );
        }
        let failures = [
            (Testlib, exited(3), true, "FAIL"),
            (
                Testlib,
                exited(42),
                true,
                "set interactor-protocol = \"kattis\"",
            ),
            (
                Kattis,
                exited(0),
                true,
                "exited with 0, which the kattis protocol",
            ),
            (Kattis, exited(1), true, "42 AC, 43 WA"),
            (
                Kattis,
                RunResult {
                    termination: Termination::Signaled(libc::SIGSEGV),
                    ..clean()
                },
                true,
                "killed by SIGSEGV",
            ),
            (
                Kattis,
                RunResult {
                    limit_hit: Some(LimitHit::Memory),
                    ..exited(43)
                },
                true,
                "more than its 2.0 GiB",
            ),
            // Stopped after the submission had ended: it never gave its verdict.
            (Kattis, killed_by_wall(1), true, "gave no verdict within"),
            // Stopped at the pair's bound while it computed, not while it waited.
            (Kattis, killed_by_wall(2900), false, "still computing"),
        ];
        for (protocol, run, ended, reason) in failures {
            match said(protocol, run, ended) {
                InteractorSaid::Failed(why) => assert!(why.contains(reason), "{why}"),
                other => panic!("{reason}: {other:?}"),
            }
        }
        // Stopped at the pair's bound while it waited: the submission is to blame.
        assert_eq!(
            said(Kattis, killed_by_wall(5), false),
            InteractorSaid::Silenced
        );
    }

    /// The book's blame table (docs/src/guide/interactive.md), row by row.
    #[test]
    fn blame_table() {
        use InteractorSaid::Silenced;
        use Speaker::{Interactor, Submission};
        use Verdict::*;
        let ac = || InteractorSaid::Accepted("found".into());
        let wa = || InteractorSaid::WrongAnswer("no".into());
        let failed = || InteractorSaid::Failed("interactor broke".into());
        let crashed = RunResult {
            termination: Termination::Signaled(libc::SIGABRT),
            ..clean()
        };
        let over_cpu = RunResult {
            cpu_time: Duration::from_millis(1500),
            termination: Termination::Signaled(libc::SIGXCPU),
            ..clean()
        };
        let over_memory = RunResult {
            limit_hit: Some(LimitHit::Memory),
            ..crashed.clone()
        };
        let rows: Vec<(&str, RunResult, InteractorSaid, Speaker, Verdict)> = vec![
            (
                "interactor fails, submission fine",
                clean(),
                failed(),
                Interactor,
                JudgeError,
            ),
            (
                "interactor fails, submission crashed",
                crashed.clone(),
                failed(),
                Submission,
                JudgeError,
            ),
            (
                "interactor fails, submission over CPU",
                over_cpu.clone(),
                failed(),
                Submission,
                JudgeError,
            ),
            (
                "interactor WA first, submission then crashed",
                crashed.clone(),
                wa(),
                Interactor,
                WrongAnswer,
            ),
            (
                "interactor WA first, submission then over CPU",
                over_cpu.clone(),
                wa(),
                Interactor,
                WrongAnswer,
            ),
            (
                "submission over CPU first, interactor then WA",
                over_cpu.clone(),
                wa(),
                Submission,
                TimeLimitExceeded,
            ),
            (
                "submission over memory first",
                over_memory,
                wa(),
                Submission,
                MemoryLimitExceeded,
            ),
            (
                "submission crashed first, interactor then WA",
                crashed.clone(),
                wa(),
                Submission,
                RuntimeError,
            ),
            (
                "submission crashed after an accepted dialogue",
                crashed,
                ac(),
                Interactor,
                RuntimeError,
            ),
            (
                "interactor AC first, submission then wrote into the closed pipe",
                RunResult {
                    termination: Termination::Signaled(libc::SIGPIPE),
                    ..clean()
                },
                ac(),
                Interactor,
                Accepted,
            ),
            (
                "submission got SIGPIPE first, interactor then AC",
                RunResult {
                    termination: Termination::Signaled(libc::SIGPIPE),
                    ..clean()
                },
                ac(),
                Submission,
                RuntimeError,
            ),
            (
                "submission over CPU after an accepted dialogue",
                over_cpu,
                ac(),
                Interactor,
                TimeLimitExceeded,
            ),
            (
                "both waited until the wall bound",
                killed_by_wall(5),
                Silenced,
                Submission,
                TimeLimitExceeded,
            ),
            (
                "clean, interactor WA",
                clean(),
                wa(),
                Submission,
                WrongAnswer,
            ),
            ("clean, interactor AC", clean(), ac(), Interactor, Accepted),
            (
                "clean, interactor silenced",
                clean(),
                Silenced,
                Interactor,
                JudgeError,
            ),
        ];
        for (what, submission, said, first, expected) in rows {
            let got = blame(&submission, &limits(), &said, first);
            assert_eq!(got.verdict, expected, "{what}: {}", got.reason);
        }
    }

    #[test]
    fn waiting_for_each_other_suggests_the_flush() {
        let judged = blame(
            &killed_by_wall(5),
            &limits(),
            &InteractorSaid::Silenced,
            Speaker::Submission,
        );
        judged.assert_is(Verdict::TimeLimitExceeded, "did it flush");
        // A submission that used the CPU is slow, not waiting: no hint.
        let busy = blame(
            &killed_by_wall(2900),
            &limits(),
            &InteractorSaid::Silenced,
            Speaker::Submission,
        );
        assert!(!busy.reason.contains("flush"), "{}", busy.reason);
    }
}
