//! What the author's commands gave: a case added (`add`), a problem's cases generated or
//! checked (`gen`), a failure a stress run found and how far it shrank (`stress`). Plain
//! data: the author's commands make it, events carry it, reporters render it.

use std::path::PathBuf;
use std::time::Duration;

use super::case::CaseOutcome;
use crate::verdict::Verdict;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerSource {
    Reference,
    Given,
    /// An interactive problem without a reference: the interactor judges the dialogue, and
    /// the answer file is empty, as in Kattis packages.
    Empty,
}

/// Something worth telling, that did not stop the case from being added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// The given answer and the reference's disagree, by the problem's checker.
    Disagrees { verdict: Verdict, reason: String },
    /// The reference could not answer, so the given answer was not compared.
    ReferenceFailed { reason: String },
}

/// What was written.
#[derive(Debug, Clone)]
pub struct Added {
    pub name: String,
    pub input: PathBuf,
    pub answer: PathBuf,
    pub input_bytes: usize,
    pub answer_bytes: usize,
    pub answer_source: AnswerSource,
    /// An existing case was replaced (`force`).
    pub replaced: bool,
    pub warning: Option<Warning>,
}

/// Write the cases into the case folder, or only compare them with what is there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    Check,
}

/// How a generated case compares with the committed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Unchanged,
    /// No such case was committed.
    Missing,
    Differs {
        input: bool,
        answer: bool,
    },
}

#[derive(Debug, Clone)]
pub struct CaseStatus {
    pub case: String,
    pub status: Status,
}

/// What `gen` did (or, with `Mode::Check`, found) for one problem.
#[derive(Debug, Clone)]
pub struct GenReport {
    pub problem: String,
    pub cases_folder: PathBuf,
    pub mode: Mode,
    pub total: usize,
    /// The cases that were new or different, in generation order (written, with `Write`).
    pub changed: Vec<CaseStatus>,
    pub elapsed: Duration,
}

/// What `gen PKG` made of a package's `data/` from its `generators.yaml`, and how `data/`
/// compares with it (`check`) or what writing it changed.
#[derive(Debug)]
pub struct PackageGenerated {
    pub package: String,
    pub generated: crate::package::generate::Generated,
    pub diff: crate::package::generate::Diff,
    pub check: bool,
    /// Where the files of `data/` the harness had not written went.
    pub trash: Option<PathBuf>,
    pub elapsed: Duration,
}

impl GenReport {
    pub fn unchanged(&self) -> usize {
        self.total - self.changed.len()
    }
}

/// One input the submission failed on.
#[derive(Debug, Clone)]
pub struct Failing {
    pub input: Vec<u8>,
    /// The reference's answer.
    pub expected: Vec<u8>,
    /// The verdict, its reason and (for WA) what the submission printed.
    pub outcome: CaseOutcome,
}

impl Failing {
    /// What the submission printed, when the judge kept it (wrong answers).
    pub fn output(&self) -> Option<&[u8]> {
        self.outcome.mismatch.as_ref().map(|m| m.output.as_slice())
    }
}

/// Whether, and how, the failing input was shrunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShrinkStatus {
    /// The shrinker ran until no smaller candidate failed.
    Shrunk,
    /// Stopped after [`shrink::MAX_ROUNDS`] rounds.
    GaveUp,
    /// Stopped at the time budget (`--shrink-time`), which it had.
    OutOfTime(Duration),
    /// Stopped at the budget of candidates (`--shrink-candidates`), which it had.
    OutOfCandidates(usize),
    /// Stopped by Ctrl-C.
    Interrupted,
    /// Asked not to.
    Disabled,
    /// The verdict was a judge error (the checker failed): nothing to shrink.
    JudgeError,
}

impl ShrinkStatus {
    /// Shrinking stopped before no smaller candidate failed: the input it ended with may not
    /// be minimal, and it is kept in a file ([`Found::kept`]).
    pub fn cut_short(self) -> bool {
        matches!(
            self,
            ShrinkStatus::GaveUp
                | ShrinkStatus::OutOfTime(_)
                | ShrinkStatus::OutOfCandidates(_)
                | ShrinkStatus::Interrupted
        )
    }

    /// Its name in `--format json`.
    pub fn as_str(self) -> &'static str {
        match self {
            ShrinkStatus::Shrunk => "shrunk",
            ShrinkStatus::GaveUp => "gave-up",
            ShrinkStatus::OutOfTime(_) => "time-budget",
            ShrinkStatus::OutOfCandidates(_) => "candidate-budget",
            ShrinkStatus::Interrupted => "interrupted",
            ShrinkStatus::Disabled => "disabled",
            ShrinkStatus::JudgeError => "judge-error",
        }
    }
}

/// The files a shrink cut short leaves, so that its find outlives the terminal.
#[derive(Debug, Clone)]
pub struct Kept {
    /// The failing input as the generator made it.
    pub first: PathBuf,
    /// The smallest failing input the shrinker had reached.
    pub smallest: PathBuf,
}

/// The failure found, before and after shrinking.
#[derive(Debug, Clone)]
pub struct Found {
    pub seed: u64,
    /// 1-based: the how-many-th input failed.
    pub iteration: u64,
    pub original: Failing,
    /// The smallest failing input (the original when nothing was shrunk).
    pub minimal: Failing,
    /// The failures kept while shrinking, the last being `minimal`.
    pub steps: Vec<Failing>,
    /// Shrink candidates run.
    pub tried: usize,
    /// Shrink candidates met again, answered from memory rather than run.
    pub remembered: usize,
    pub shrink: ShrinkStatus,
    /// Shrunk by the built-in token shrinker, which knows nothing of the statement.
    pub builtin_shrinker: bool,
    /// The minimal input run again with a sanitized build (`--sanitize`).
    pub sanitized: Option<Rerun>,
    /// Where the first and the smallest failing inputs were written, when shrinking was cut
    /// short.
    pub kept: Option<Kept>,
}

/// What a sanitized build did on the failing input.
#[derive(Debug, Clone)]
pub enum Rerun {
    /// It failed: a sanitizer's report is its reason.
    Failed(Box<CaseOutcome>),
    /// It passed: the sanitizers saw nothing on this input.
    Passed,
    /// The sanitized build did not compile: the compiler's first words.
    NotBuilt(String),
}

/// What a stress run did.
#[derive(Debug, Clone)]
pub struct StressReport {
    pub problem: String,
    pub first_seed: u64,
    /// Inputs judged before stopping (the failing one included; with several workers, a
    /// few past it may have been judged too).
    pub iterations: u64,
    /// Workers that judged inputs at once.
    pub jobs: usize,
    /// Inputs seen before in this run, answered with the reference's earlier answer.
    pub answers_reused: u64,
    pub elapsed: Duration,
    pub found: Option<Found>,
}
