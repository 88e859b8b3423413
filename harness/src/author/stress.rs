//! Stress testing (对拍): random inputs from the problem's stress generator, one seed after
//! another, each answered by the reference and judged for a submission, until one fails; then
//! that input is shrunk to a small one that still fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::author::shrink::{self, Failure};
use crate::author::tool::{self, Role, ToolError};
use crate::author::validate::{ValidateError, Validator, Validity};
use crate::case::discover::{self, Case};
use crate::config::{Config, Problem};
use crate::judge::{self, CaseOutcome, JudgeSettings, Program};
use crate::verdict::Verdict;

#[derive(Debug, thiserror::Error)]
pub enum StressError {
    #[error("problem `{problem}` has no stress generator (hint: add a [problems.{problem}.stress] table with `generator` to judge.toml)")]
    NoGenerator { problem: String },
    #[error("problem `{problem}` has no reference to answer random inputs (hint: set `reference` in [problems.{problem}])")]
    NoReference { problem: String },
    #[error("seed {seed}: {source}")]
    Generator { seed: u64, source: ToolError },
    #[error("seed {seed}: {source} (hint: the reference must answer every valid input)")]
    Reference { seed: u64, source: ToolError },
    #[error("seed {seed}: the stress generator `{command}` made an invalid input: {reason} (hint: fix the generator; the submission was not to blame)")]
    InvalidInput {
        seed: u64,
        command: String,
        reason: String,
    },
    #[error(transparent)]
    Validate(#[from] ValidateError),
    #[error("shrinking: {0}")]
    Shrinker(ToolError),
    #[error("`{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// When to stop looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StressOptions {
    pub first_seed: u64,
    /// At most this many inputs; `None`: no count limit.
    pub iterations: Option<u64>,
    /// At most this long (checked between inputs); `None`: no time limit.
    pub time: Option<Duration>,
    /// Shrink a failing input (when the problem has a shrink command).
    pub shrink: bool,
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

impl Failure for Failing {
    fn input(&self) -> &[u8] {
        &self.input
    }

    fn verdict(&self) -> Verdict {
        self.outcome.verdict
    }
}

/// Whether, and how, the failing input was shrunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShrinkStatus {
    /// The shrink command ran until no smaller candidate failed.
    Shrunk,
    /// Stopped after [`shrink::MAX_ROUNDS`] rounds.
    GaveUp,
    /// judge.toml has no `shrink` for the problem.
    NoShrinkCommand,
    /// Asked not to.
    Disabled,
    /// The verdict was a judge error (the checker failed): nothing to shrink.
    JudgeError,
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
    pub shrink: ShrinkStatus,
}

/// What a stress run did.
#[derive(Debug, Clone)]
pub struct StressReport {
    pub problem: String,
    pub first_seed: u64,
    /// Inputs judged before stopping (the failing one included).
    pub iterations: u64,
    pub elapsed: Duration,
    pub found: Option<Found>,
}

/// Progress, on the calling thread.
#[derive(Debug)]
pub enum StressEvent<'a> {
    Judged { iteration: u64, seed: u64 },
    Failed { seed: u64, verdict: Verdict },
    ShrinkStep { step: usize, failing: &'a Failing },
}

/// Runs `program` (a compiled submission, limits scaled by `time_multiplier`) on random
/// inputs of `problem` until one fails or `options` says stop.
pub fn stress(
    config: &Config,
    problem: &Problem,
    program: &Program,
    time_multiplier: f64,
    options: &StressOptions,
    on_event: &mut dyn FnMut(StressEvent<'_>),
) -> Result<StressReport, StressError> {
    let started = Instant::now();
    let settings = problem
        .stress
        .as_ref()
        .ok_or_else(|| StressError::NoGenerator {
            problem: problem.name.clone(),
        })?;
    let reference = problem
        .reference
        .as_deref()
        .ok_or_else(|| StressError::NoReference {
            problem: problem.name.clone(),
        })?;
    let scratch = tempfile::Builder::new()
        .prefix("harness-stress-")
        .tempdir()
        .map_err(|source| StressError::Io {
            path: std::env::temp_dir(),
            source,
        })?;
    let trial = Trial {
        program,
        reference,
        validator: Validator::for_problem(config, problem),
        judge: JudgeSettings {
            limits: problem.limits(time_multiplier),
            checker: &problem.checker,
            jobs: 1,
        },
        scratch: scratch.path(),
    };

    let mut iteration = 0;
    let found = loop {
        if options.iterations.is_some_and(|n| iteration >= n)
            || options.time.is_some_and(|t| started.elapsed() >= t)
        {
            break None;
        }
        let seed = options.first_seed.wrapping_add(iteration);
        iteration += 1;
        let generator = tool::Command::new(
            Role::Generator,
            &settings.generator,
            &config.root,
            &[("seed", &seed.to_string())],
        );
        let input = generator
            .output(None, Some(&config.root))
            .map_err(|source| StressError::Generator { seed, source })?;
        let failing = trial.run(&input).map_err(|error| with_seed(error, seed))?;
        on_event(StressEvent::Judged { iteration, seed });
        let Some(failing) = failing else { continue };
        on_event(StressEvent::Failed {
            seed,
            verdict: failing.outcome.verdict,
        });
        // Blame the submission only for an input the statement allows.
        if let Some(reason) = trial.invalid(&input)? {
            return Err(StressError::InvalidInput {
                seed,
                command: generator.shown,
                reason,
            });
        }
        break Some(shrink_failure(
            config, settings, &trial, seed, iteration, &failing, options, on_event,
        )?);
    };
    Ok(StressReport {
        problem: problem.name.clone(),
        first_seed: options.first_seed,
        iterations: iteration,
        elapsed: started.elapsed(),
        found,
    })
}

#[expect(
    clippy::too_many_arguments,
    reason = "one call site, each argument distinct"
)]
fn shrink_failure(
    config: &Config,
    settings: &crate::config::Stress,
    trial: &Trial<'_>,
    seed: u64,
    iteration: u64,
    original: &Failing,
    options: &StressOptions,
    on_event: &mut dyn FnMut(StressEvent<'_>),
) -> Result<Found, StressError> {
    let found = |status, minimal: Failing, steps, tried| Found {
        seed,
        iteration,
        original: original.clone(),
        minimal,
        steps,
        tried,
        shrink: status,
    };
    let status = match (&settings.shrink, original.outcome.verdict) {
        (_, Verdict::JudgeError) => Some(ShrinkStatus::JudgeError),
        (None, _) => Some(ShrinkStatus::NoShrinkCommand),
        (Some(_), _) if !options.shrink => Some(ShrinkStatus::Disabled),
        (Some(_), _) => None,
    };
    if let Some(status) = status {
        return Ok(found(status, original.clone(), Vec::new(), 0));
    }
    let shrink_command = settings.shrink.as_deref().unwrap_or_default();
    let mut round = 0;
    let shrunk = shrink::shrink(
        original.clone(),
        |current: &Failing| {
            // Each round after the first starts from the failure the last one kept.
            if round > 0 {
                on_event(StressEvent::ShrinkStep {
                    step: round,
                    failing: current,
                });
            }
            round += 1;
            candidates(config, shrink_command, trial.scratch, round, &current.input)
        },
        |candidate| trial.candidate(candidate),
    )?;
    let status = if shrunk.gave_up {
        ShrinkStatus::GaveUp
    } else {
        ShrinkStatus::Shrunk
    };
    Ok(found(status, shrunk.minimal, shrunk.steps, shrunk.tried))
}

/// Runs the shrink command on `input` and reads its candidates, in name order.
fn candidates(
    config: &Config,
    command: &[String],
    scratch: &Path,
    round: usize,
    input: &[u8],
) -> Result<Vec<Vec<u8>>, StressError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| StressError::Io { path, source }
    };
    let input_path = scratch.join("shrinking.in");
    fs::write(&input_path, input).map_err(io(&input_path))?;
    // A fresh folder per round: leftovers of the last round are never taken for candidates.
    let dir = scratch.join(format!("candidates-{round}"));
    fs::create_dir_all(&dir).map_err(io(&dir))?;
    let shrinker = tool::Command::new(
        Role::Shrinker,
        command,
        &config.root,
        &[
            ("input", &input_path.to_string_lossy()),
            ("dir", &dir.to_string_lossy()),
        ],
    );
    shrinker
        .output(None, Some(&config.root))
        .map_err(StressError::Shrinker)?;
    let mut names: Vec<String> = fs::read_dir(&dir)
        .map_err(io(&dir))?
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".in"))
        .collect();
    names.sort_by(|a, b| discover::natural_cmp(a, b));
    let candidates = names
        .iter()
        .map(|name| fs::read(dir.join(name)).map_err(io(&dir.join(name))))
        .collect::<Result<Vec<_>, _>>()?;
    let _ = fs::remove_dir_all(&dir);
    Ok(candidates)
}

/// Everything needed to judge one input.
struct Trial<'a> {
    program: &'a Program,
    reference: &'a Path,
    validator: Option<Validator>,
    judge: JudgeSettings<'a>,
    scratch: &'a Path,
}

/// An error of a trial, before the seed is known to it.
enum TrialError {
    Reference(ToolError),
    Stress(StressError),
}

fn with_seed(error: TrialError, seed: u64) -> StressError {
    match error {
        TrialError::Reference(source) => StressError::Reference { seed, source },
        TrialError::Stress(error) => error,
    }
}

impl From<StressError> for TrialError {
    fn from(error: StressError) -> Self {
        TrialError::Stress(error)
    }
}

impl Trial<'_> {
    /// Judges the submission on `input`: `None` when it is accepted.
    fn run(&self, input: &[u8]) -> Result<Option<Failing>, TrialError> {
        let case = self.write_case("input", input)?;
        let expected = tool::Command::program(Role::Reference, self.reference)
            .output(Some(&case.input), None)
            .map_err(TrialError::Reference)?;
        fs::write(&case.answer, &expected).map_err(|source| StressError::Io {
            path: case.answer.clone(),
            source,
        })?;
        let outcome = judge::judge_case(self.program, &case, &self.judge);
        Ok((!outcome.verdict.is_accepted()).then(|| Failing {
            input: input.to_vec(),
            expected,
            outcome,
        }))
    }

    /// A shrink candidate: judged like any input, but one the validator rejects, or the
    /// reference cannot answer, is simply not a failure to keep.
    fn candidate(&self, input: &[u8]) -> Result<Option<Failing>, StressError> {
        if self.invalid(input)?.is_some() {
            return Ok(None);
        }
        match self.run(input) {
            Ok(Some(failing)) if failing.outcome.verdict == Verdict::JudgeError => Ok(None),
            Ok(failing) => Ok(failing),
            Err(TrialError::Reference(_)) => Ok(None),
            Err(TrialError::Stress(error)) => Err(error),
        }
    }

    /// The validator's reason when it rejects `input`.
    fn invalid(&self, input: &[u8]) -> Result<Option<String>, StressError> {
        let Some(validator) = &self.validator else {
            return Ok(None);
        };
        let case = self.write_case("validate", input)?;
        Ok(match validator.check(&case.input)? {
            Validity::Valid => None,
            Validity::Invalid { reason } => Some(reason),
        })
    }

    fn write_case(&self, name: &str, input: &[u8]) -> Result<Case, StressError> {
        let case = Case {
            name: name.to_string(),
            input: self.scratch.join(format!("{name}.in")),
            answer: self.scratch.join(format!("{name}.ans")),
        };
        fs::write(&case.input, input).map_err(|source| StressError::Io {
            path: case.input.clone(),
            source,
        })?;
        Ok(case)
    }
}
