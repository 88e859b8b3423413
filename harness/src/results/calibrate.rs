//! What calibrating a problem found: how fast each program that sets the time limit was,
//! the limit suggested, and how the stored too-slow submissions fared under it.

use std::path::PathBuf;
use std::time::Duration;

use super::case::CaseOutcome;
use crate::verdict::Verdict;

/// The part a program plays in the calibration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The problem's `solution`: must pass, counts for the limit.
    Solution,
    /// The brute-force `reference`: measured and shown, but a brute force is not expected to
    /// be fast, so it does not set the limit.
    Reference,
    /// A stored submission under `accepted/`: must pass, counts for the limit.
    Accepted,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Solution => "solution",
            Role::Reference => "reference",
            Role::Accepted => "accepted",
        }
    }

    pub fn sets_the_limit(self) -> bool {
        self != Role::Reference
    }
}

/// How fast one program was.
#[derive(Debug, Clone)]
pub struct ProgramTiming {
    /// `solution`, `reference`, or the stored file's path below the problem's folder
    /// (`accepted/greedy.cpp`).
    pub label: String,
    pub role: Role,
    pub path: PathBuf,
    /// The language's time multiplier (1 for the project's own binaries).
    pub time_multiplier: f64,
    /// The slowest case: max over cases of the median over repeats of the CPU time.
    pub slowest: Duration,
    pub slowest_case: String,
    /// Cases on which some run was not AC, with the first such outcome.
    pub failures: Vec<CaseOutcome>,
    /// Set when the submission did not compile (then nothing was measured).
    pub compile_error: Option<String>,
}

impl ProgramTiming {
    /// The time as the problem's limit sees it: a program whose language has a time
    /// multiplier of 3 that takes 300 ms needs a limit of 100 ms.
    pub fn normalized(&self) -> Duration {
        self.slowest.div_f64(self.time_multiplier)
    }

    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.compile_error.is_none()
    }
}

/// A stored `time_limit_exceeded` submission, run under the suggested limit.
#[derive(Debug, Clone)]
pub struct SlowCheck {
    pub label: String,
    pub path: PathBuf,
    /// Its overall verdict under the suggested limit (judging stopped at the first failure).
    pub verdict: Verdict,
    /// The case that failed, if one did.
    pub case: Option<String>,
    /// The slowest CPU time seen, normalized by the language's multiplier.
    pub slowest: Duration,
    pub compile_error: Option<String>,
}

impl SlowCheck {
    /// A submission meant to be too slow that passes: the suggestion is too generous (or the
    /// cases do not catch it).
    pub fn passes(&self) -> bool {
        self.compile_error.is_none() && self.verdict.is_accepted()
    }
}

/// What calibrating one problem found.
#[derive(Debug, Clone)]
pub struct ProblemCalibration {
    pub problem: String,
    pub current_limit: Duration,
    pub case_count: usize,
    pub programs: Vec<ProgramTiming>,
    /// `None` when no program that sets the limit passed.
    pub suggested_limit: Option<Duration>,
    pub slow_checks: Vec<SlowCheck>,
}

impl ProblemCalibration {
    /// The slowest program that sets the limit, and its (normalized) time.
    pub fn slowest(&self) -> Option<&ProgramTiming> {
        self.programs
            .iter()
            .filter(|p| p.role.sets_the_limit() && p.compile_error.is_none())
            .max_by_key(|p| p.normalized())
    }

    /// Problems that make the suggestion untrustworthy: an accepted program that fails, a
    /// too-slow submission that passes.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        for program in &self.programs {
            if let Some(message) = &program.compile_error {
                let first = message.lines().next().unwrap_or_default();
                warnings.push(format!("{} does not compile: {first}", program.label));
                continue;
            }
            if let Some(first) = program.failures.first() {
                let more = match program.failures.len() {
                    1 => String::new(),
                    n => format!(" (and {} more cases)", n - 1),
                };
                warnings.push(format!(
                    "{} gets {} on `{}`{more}: {}",
                    program.label, first.verdict, first.case, first.reason
                ));
            }
        }
        for check in &self.slow_checks {
            if let Some(message) = &check.compile_error {
                let first = message.lines().next().unwrap_or_default();
                warnings.push(format!("{} does not compile: {first}", check.label));
            } else if check.passes() {
                warnings.push(format!(
                    "{} passes within the suggested limit (slowest case {} ms): the limit or the cases do not stop it",
                    check.label,
                    check.slowest.as_millis()
                ));
            }
        }
        if self.suggested_limit.is_none() {
            warnings.push("no accepted program passed: nothing to base a limit on".to_string());
        }
        warnings
    }
}
