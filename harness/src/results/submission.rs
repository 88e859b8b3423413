//! What judging one program on a problem's cases gave: whether it compiled, each case's
//! outcome, the verdict, and in a scored problem its score sheet.

use std::path::PathBuf;
use std::time::Duration;

use super::case::{max_cpu_time, CaseOutcome};
use crate::compile::Language;
use crate::sandbox::run::Limits;
use crate::score::{GroupScore, ScoreSheet};
use crate::verdict::Verdict;

/// Whether and how the submission compiled (as the JSON documents' `compile` says it).
#[derive(Debug, Clone, serde::Serialize)]
pub struct CompileOutcome {
    pub ok: bool,
    /// The compiler's message, cut to a readable length: the errors for CE, the warnings
    /// otherwise (empty for interpreters).
    pub message: String,
}

/// What judging one program on a problem's cases gave: a submission, or a problem's solution
/// (`harness run`).
#[derive(Debug, Clone)]
pub struct SubmissionReport {
    pub problem: String,
    /// The problem's human name.
    pub title: String,
    /// The source file as given, or the solution's executable.
    pub source: PathBuf,
    /// `None` for an executable, which is run as it is.
    pub language: Option<Language>,
    /// The problem's limits, with the language's time multiplier applied.
    pub limits: Limits,
    pub compile: CompileOutcome,
    /// In case order; empty after a compile error, and only up to the first failure when
    /// judging stopped there.
    pub outcomes: Vec<CaseOutcome>,
    /// Cases there were to judge.
    pub planned_cases: usize,
    /// AC when every case is AC; else the first failing case's verdict; CE if it did not
    /// compile.
    pub verdict: Verdict,
    pub elapsed: Duration,
    /// Cases run at once (1 = one after another): above 1, wall times are inflated.
    pub jobs: usize,
    /// In a scored problem, the score per group and in total; `None` for a pass-fail one.
    pub score: Option<SubmissionScore>,
}

impl SubmissionReport {
    /// The case that decided a verdict other than AC.
    pub fn first_failure(&self) -> Option<&CaseOutcome> {
        self.outcomes.iter().find(|o| !o.verdict.is_accepted())
    }

    pub fn max_cpu_time(&self) -> Duration {
        max_cpu_time(&self.outcomes)
    }

    /// How many of the judged cases got `verdict`.
    pub fn count(&self, verdict: Verdict) -> usize {
        self.outcomes
            .iter()
            .filter(|o| o.verdict == verdict)
            .count()
    }

    /// The verdict's code as reports show it: `ran` when it passed but no case was checked.
    pub fn verdict_code(&self) -> &'static str {
        super::case::verdict_code(self.verdict, &self.outcomes)
    }

    /// Cases that ran within their limits with nothing to check their output against.
    pub fn unchecked(&self) -> usize {
        super::case::unchecked(&self.outcomes)
    }

    /// Judging stopped at the first failure before the last case.
    pub fn stopped_early(&self) -> bool {
        self.compile.ok && self.outcomes.len() < self.planned_cases
    }
}

/// A submission's score in a scored problem.
#[derive(Debug, Clone, PartialEq)]
pub enum SubmissionScore {
    /// Every case the score needs was judged: the sheet, per group and in total.
    Sheet(ScoreSheet),
    /// Not every case it needs was judged (a `--case` selection, `--fail-fast`, a slice of
    /// `--partition`, Ctrl-C), so there is no score: why, and what the problem is worth.
    Incomplete {
        /// The most a submission can score.
        max_score: Option<f64>,
        /// Why there is no score.
        reason: String,
    },
}

impl SubmissionScore {
    /// The submission's score, when there is one.
    pub fn score(&self) -> Option<f64> {
        match self {
            SubmissionScore::Sheet(sheet) => sheet.score,
            SubmissionScore::Incomplete { .. } => None,
        }
    }

    /// The most it can score (`None` when unbounded).
    pub fn max_score(&self) -> Option<f64> {
        match self {
            SubmissionScore::Sheet(sheet) => sheet.max_score,
            SubmissionScore::Incomplete { max_score, .. } => *max_score,
        }
    }

    /// Every group's result, parents before their children (none without a score).
    pub fn groups(&self) -> &[GroupScore] {
        match self {
            SubmissionScore::Sheet(sheet) => &sheet.groups,
            SubmissionScore::Incomplete { .. } => &[],
        }
    }

    /// The sheet, when there is one.
    pub fn sheet(&self) -> Option<&ScoreSheet> {
        match self {
            SubmissionScore::Sheet(sheet) => Some(sheet),
            SubmissionScore::Incomplete { .. } => None,
        }
    }
}
