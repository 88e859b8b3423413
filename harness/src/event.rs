//! The one stream every command that judges speaks (`run`, `judge`, `verify`, `calibrate`,
//! `stress`, `gen`): the run starts with its plan, each unit (a problem's solution, a
//! submission, a stored submission, a problem to calibrate, a stress run, a problem's
//! generators) starts, its cases finish one by one, the unit finishes with its result, and the
//! run finishes with its summary. The judge emits these and never prints; reporters (terminal,
//! progress bar, and the recorder behind JSON, JUnit and HTML) read only these and never run
//! anything, as nextest's runner and reporter talk only through `TestEvent`.
//!
//! An event carries everything a reporter needs — per case the verdict, times, memory, reason
//! and detail; per unit the limits and the result — so that a new reporter is written against
//! this module alone.
//!
//! The results it carries are plain data defined below it (`results`, and `package::expected`
//! for what a stored submission must get), so the judge and the author's commands, which
//! emit events, sit above it.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::case::partition::Partition;
use crate::compile::Language;
use crate::package::expected::{Expected, Skipped};
use crate::results::author::{Added, GenReport, PackageGenerated, StressReport};
use crate::results::calibrate::ProblemCalibration;
use crate::results::case::CaseOutcome;
use crate::results::submission::{CompileOutcome, SubmissionReport};
use crate::results::verify::Verified;
use crate::sandbox::run::Limits;
use crate::verdict::Verdict;

/// Which command runs: reporters lay the same events out as that command's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Each problem's solution on its cases.
    Run,
    /// One submission on a problem's cases.
    Judge,
    /// Each stored submission against the verdict it is stored under.
    Verify,
    /// The accepted programs measured, `repeat` runs each per case, for a time limit.
    Calibrate { repeat: usize },
    /// A submission on random inputs; `reproduce` is the command line that ran, as typed.
    Stress { reproduce: String },
    /// The generated cases made, and written (or, with `check`, only compared).
    Gen { check: bool },
}

impl Command {
    /// `harness run`, as a JUnit file names its command.
    pub fn title(&self) -> &'static str {
        match self {
            Command::Run => "harness run",
            Command::Judge => "harness judge",
            Command::Verify => "harness verify",
            Command::Calibrate { .. } => "harness calibrate",
            Command::Stress { .. } => "harness stress",
            Command::Gen { .. } => "harness gen",
        }
    }
}

/// What a run will do, known before anything runs.
#[derive(Debug, Clone)]
pub struct Plan {
    pub command: Command,
    /// In the order they run.
    pub units: Vec<Unit>,
    /// Case runs to come, for a progress bar; `None` when only the clock ends the run
    /// (`stress --time`).
    pub runs: Option<usize>,
    /// Cases (or stress inputs) run at once; above 1, wall times are inflated.
    pub jobs: usize,
    /// The slice of a split run (`--partition`).
    pub partition: Option<Partition>,
    /// Only the cases that failed last time (`--failed`).
    pub failed_only: bool,
    /// Built with sanitizers (`--sanitize`): what the header says of it.
    pub sanitized: Option<String>,
    /// Sandboxed without a memory cgroup (no root): what the memory figures leave out of the
    /// kernel's, which the header says.
    pub memory_note: Option<String>,
    /// When it started (the HTML report shows it).
    pub started: SystemTime,
    /// The machine's cores.
    pub cores: usize,
    /// judge.toml's `sandbox`: whether programs under test must, may or must not be
    /// sandboxed.
    pub sandbox: crate::sandbox::Mode,
}

impl Plan {
    /// A plan of `units` for `command`, started now, on this machine.
    pub fn new(
        command: Command,
        units: Vec<Unit>,
        jobs: usize,
        sandbox: crate::sandbox::Mode,
    ) -> Plan {
        let runs = units.iter().map(|u| u.runs).sum();
        Plan {
            command,
            units,
            runs: Some(runs),
            jobs,
            partition: None,
            failed_only: false,
            sanitized: None,
            memory_note: None,
            started: SystemTime::now(),
            cores: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            sandbox,
        }
    }
}

/// One thing the run judges: a problem's solution (`run`), a submission (`judge`), a stored
/// submission (`verify`), a problem's programs (`calibrate`), a stress run, a problem's
/// generators (`gen`).
#[derive(Debug, Clone, Default)]
pub struct Unit {
    pub problem: String,
    /// What it is called in a report: the problem (`run`, `gen`, `calibrate`), the source as
    /// given (`judge`), `<problem>/<expected>/FILE` (`verify`).
    pub label: String,
    /// The program's source (or executable) file.
    pub source: Option<PathBuf>,
    /// A submission's language.
    pub language: Option<Language>,
    /// The limits it runs under, with the language's time multiplier applied.
    pub limits: Option<Limits>,
    /// The names of its cases, in case order.
    pub cases: Vec<String>,
    /// Case runs planned for it (a calibrated problem runs each case several times).
    pub runs: usize,
    /// The verdict a stored submission must get.
    #[expect(
        dead_code,
        reason = "known before it is judged, for a report that lays out the plan first (issue 24's matrix); the others read it from the result"
    )]
    pub expected: Option<Expected>,
    /// A scored problem's rules (its groups, their points and the total), known before any
    /// case runs; `None` for a pass-fail problem. The HTML report lays out its matrix's
    /// column bands by it.
    pub scoring: Option<std::sync::Arc<crate::score::Scoring>>,
}

/// What a unit gave.
#[derive(Debug, Clone, Copy)]
pub enum Finished<'a> {
    /// A program judged on its cases: a problem's solution, or a submission.
    Judged(&'a SubmissionReport),
    /// A stored submission, judged, with the verdict it was expected to get.
    Verified(&'a Verified),
    /// A problem's programs measured and a time limit suggested.
    Calibrated(&'a ProblemCalibration),
    /// A stress run.
    Stressed(&'a Stressed),
    /// A problem's generated cases.
    Generated(&'a GenReport),
    /// A package's `data/` generated.
    PackageGenerated(&'a PackageGenerated),
}

/// What a stress run ends with.
#[derive(Debug, Clone)]
pub struct Stressed {
    pub problem: String,
    pub submission: PathBuf,
    /// The language's name.
    pub language: String,
    pub result: StressResult,
}

/// The submission did not compile, or the inputs it was tried on.
#[derive(Debug, Clone)]
pub enum StressResult {
    CompileError(String),
    Ran {
        report: Box<StressReport>,
        /// The failing input, stored as a case by `--save`.
        saved: Option<Added>,
    },
}

/// How the run ended.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// From the first unit's start.
    pub elapsed: Duration,
    /// Units that were not judged here, with why (a language this machine lacks).
    pub skipped: Vec<Skipped>,
    /// Why programs under test ran as plain processes, without the sandbox, when they did
    /// (judge.toml's `sandbox = "off"`, or what this machine lacks).
    pub unsandboxed: Option<String>,
}

/// One event of the stream, delivered on one thread in the order things happened.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// Before anything runs.
    RunStarted(&'a Plan),
    /// A program starts on a unit's cases (a calibrated problem runs several in turn).
    Started {
        #[expect(
            dead_code,
            reason = "units run one after another, so the reporters follow the order"
        )]
        unit: usize,
        label: &'a str,
    },
    /// The unit's program was built (or not: a compile error), before its first case.
    Compiled {
        #[expect(dead_code, reason = "as `Started`'s")]
        unit: usize,
        compile: &'a CompileOutcome,
    },
    /// One of the unit's cases was judged.
    CaseFinished {
        #[expect(dead_code, reason = "as `Started`'s")]
        unit: usize,
        outcome: &'a CaseOutcome,
    },
    /// `gen`: one of the unit's cases was made (or compared).
    Generated {
        #[expect(dead_code, reason = "as `Started`'s")]
        unit: usize,
    },
    /// `stress`: one more input was tried; `failed` holds its verdict when it failed.
    Tried {
        iteration: u64,
        seed: u64,
        failed: Option<Verdict>,
    },
    /// `stress`: shrinking goes on (told before each candidate runs): the smallest failing
    /// input so far, the failures kept on the way to it and the candidates run.
    Shrunk {
        steps: usize,
        tried: usize,
        input: &'a [u8],
        verdict: Verdict,
    },
    /// The unit is done.
    UnitFinished { unit: usize, result: Finished<'a> },
    /// The run is done.
    RunFinished(&'a Summary),
}
