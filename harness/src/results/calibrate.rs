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
    /// The slowest case's CPU times over the repeats, quickest first: how much they
    /// disagreed is the noise of the measurement.
    pub slowest_runs: Vec<Duration>,
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

    /// (max − min) / median of the slowest case's runs: 0.1 when they were within 10 % of
    /// each other. `None` with fewer than two runs, which say nothing of the noise.
    pub fn spread(&self) -> Option<f64> {
        let runs = &self.slowest_runs;
        let (first, last) = (runs.first()?, runs.last()?);
        let median = runs[(runs.len() - 1) / 2];
        if runs.len() < 2 || median.is_zero() {
            return None;
        }
        Some((*last - *first).as_secs_f64() / median.as_secs_f64())
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
    /// `None` when no program that sets the limit passed. judge.toml's own limit when it is
    /// within [`Self::within_noise`], else twice the slowest, rounded up.
    pub suggested_limit: Option<Duration>,
    /// The limits the noise cannot tell from the suggestion (see
    /// `judge::calibrate::within_noise`): judge.toml's limit in this range is kept, so that a
    /// second calibration agrees with the first.
    pub within_noise: Option<(Duration, Duration)>,
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

    /// The suggestion over the slowest program's time: 2.3 for 300 ms over 131 ms.
    pub fn margin(&self) -> Option<f64> {
        let slowest = self.slowest()?.normalized();
        let limit = self.suggested_limit?;
        (!slowest.is_zero()).then(|| limit.as_secs_f64() / slowest.as_secs_f64())
    }

    /// Whether the suggestion is judge.toml's own limit.
    pub fn keeps_the_limit(&self) -> bool {
        self.suggested_limit == Some(self.current_limit)
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

/// What `harness calibrate --write` did with one problem's suggestion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitWrite {
    /// judge.toml's `time-limit` of the problem is now this.
    Written(Duration),
    /// judge.toml's limit is the suggestion already: nothing was written.
    Unchanged(Duration),
    /// Not written: the calibration has warnings (an accepted program fails, a too-slow one
    /// passes), so its suggestion is not to be trusted.
    Untrusted,
    /// Not written: nothing to base a limit on.
    NoSuggestion,
}

impl LimitWrite {
    /// What to do with `calibration`'s suggestion, before anything is written.
    pub fn planned(calibration: &ProblemCalibration) -> LimitWrite {
        match calibration.suggested_limit {
            None => LimitWrite::NoSuggestion,
            Some(_) if !calibration.warnings().is_empty() => LimitWrite::Untrusted,
            Some(limit) if limit == calibration.current_limit => LimitWrite::Unchanged(limit),
            Some(limit) => LimitWrite::Written(limit),
        }
    }
}
