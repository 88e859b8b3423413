//! Verdicts, and the pure function that turns a run's measurements into one.

use std::fmt;
use std::time::Duration;

use crate::sandbox::run::{Limits, RunResult, Termination};

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

    /// The short code every judge prints: `AC`, `WA`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::TimeLimitExceeded => "TLE",
            Verdict::MemoryLimitExceeded => "MLE",
            Verdict::RuntimeError => "RE",
            Verdict::OutputLimitExceeded => "OLE",
            Verdict::CompileError => "CE",
            Verdict::JudgeError => "JE",
        }
    }

    /// The folder name used for stored submissions (`solutions/submissions/<problem>/<dir>/`),
    /// as in the Kattis problem package format.
    pub fn dir_name(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong_answer",
            Verdict::TimeLimitExceeded => "time_limit_exceeded",
            Verdict::MemoryLimitExceeded => "memory_limit_exceeded",
            Verdict::RuntimeError => "run_time_error",
            Verdict::OutputLimitExceeded => "output_limit_exceeded",
            Verdict::CompileError => "compile_error",
            Verdict::JudgeError => "judge_error",
        }
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// What was decided.
    pub verdict: Verdict,
    /// Why, in one line.
    pub reason: String,
}

impl Judgement {
    /// A verdict with its reason.
    pub fn new(verdict: Verdict, reason: impl Into<String>) -> Self {
        Judgement {
            verdict,
            reason: reason.into(),
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
        return Some(Judgement {
            verdict: Verdict::OutputLimitExceeded,
            reason: format!(
                "more than {} of output",
                crate::config::units::format_bytes(limits.output_bytes)
            ),
        });
    }

    let stderr = String::from_utf8_lossy(&run.stderr_tail);
    let allocation_failed = crashed
        && ALLOCATION_FAILURE_MARKERS
            .iter()
            .any(|marker| stderr.contains(marker));
    let near_memory_limit =
        crashed && run.peak_memory_bytes as f64 >= NEAR_MEMORY_LIMIT * limits.memory_bytes as f64;
    if run.limit_hit == Some(LimitHit::Memory)
        || run.peak_memory_bytes > limits.memory_bytes
        || allocation_failed
        || near_memory_limit
    {
        let why = if allocation_failed && run.peak_memory_bytes <= limits.memory_bytes {
            "an allocation failed".to_string()
        } else {
            format!(
                "peak memory {} over the limit {}",
                crate::config::units::format_bytes(run.peak_memory_bytes),
                crate::config::units::format_bytes(limits.memory_bytes)
            )
        };
        return Some(Judgement {
            verdict: Verdict::MemoryLimitExceeded,
            reason: why,
        });
    }

    if over_cpu || run.limit_hit == Some(LimitHit::WallTime) {
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
                crate::config::units::format_duration(run.wall_time),
                crate::config::units::format_duration(run.cpu_time)
            )
        } else {
            format!(
                "CPU time {} over the limit {}",
                crate::config::units::format_duration(run.cpu_time),
                crate::config::units::format_duration(limits.cpu_time)
            )
        };
        return Some(Judgement {
            verdict: Verdict::TimeLimitExceeded,
            reason,
        });
    }

    match run.termination {
        Termination::Exited(0) => None,
        Termination::Exited(code) => Some(Judgement {
            verdict: Verdict::RuntimeError,
            reason: with_stderr(format!("exit {code}"), &stderr),
        }),
        Termination::Signaled(signal) => Some(Judgement {
            verdict: Verdict::RuntimeError,
            reason: with_stderr(crate::sandbox::run::signal_name(signal).clone(), &stderr),
        }),
    }
}

/// Appends the last line the program wrote to stderr, which is usually the panic or assertion.
fn with_stderr(what: String, stderr: &str) -> String {
    match crate::text::last_line(stderr) {
        Some(last) => format!("{what}: {}", crate::text::cut(last, 160)),
        None => what,
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
            stdout: b"3\n".to_vec(),
            stdout_truncated: false,
            stderr_tail: Vec::new(),
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
        assert_eq!(classified.verdict, Verdict::TimeLimitExceeded);
        assert!(classified.reason.contains("busy"), "{}", classified.reason);
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
}
