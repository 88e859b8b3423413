//! Stress testing (对拍): random inputs from a generator, one seed each, answered by the
//! reference (when the checker needs an answer) and judged for a submission, on every core,
//! until one fails; then that input is shrunk to a small one that still fails, by the
//! problem's shrink command or the built-in token shrinker.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::author::answers::Answers;
use crate::author::shrink::{self, Failure, Stopped, Tally};
use crate::author::shrink_tokens;
use crate::author::validate::{ValidateError, Validator, Validity};
use crate::case::discover::{self, Case};
use crate::check::Checker;
use crate::compile::Program;
use crate::config::{Config, Problem};
use crate::event::Event;
use crate::judge::{self, JudgeSettings};
use crate::sandbox::run::Limits;
use crate::tool::{self, Role, ToolError};
use crate::verdict::Verdict;

pub use crate::results::author::{Failing, Found, Kept, Rerun, ShrinkStatus, StressReport};

impl Failure for Failing {
    fn input(&self) -> &[u8] {
        &self.input
    }

    fn verdict(&self) -> Verdict {
        self.outcome.verdict
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StressError {
    #[error("problem `{problem}` has no stress generator (hint: pass --gen, or add a [problems.{problem}.stress] table with `generator` to judge.toml)")]
    NoGenerator { problem: String },
    #[error("problem `{problem}` has no reference to answer random inputs (hint: set `reference` in [problems.{problem}], or pass --brute)")]
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
    #[error(transparent)]
    Interactor(#[from] crate::judge::interactive::InteractorError),
}

/// When to stop looking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StressOptions {
    pub first_seed: u64,
    /// At most this many inputs; `None`: no count limit.
    pub iterations: Option<u64>,
    /// At most this long (checked between inputs); `None`: no time limit.
    pub time: Option<Duration>,
    /// Shrink a failing input.
    pub shrink: bool,
    /// Shrinking stops after this long (checked between candidates), keeping the smallest
    /// failing input so far.
    pub shrink_time: Duration,
    /// Shrinking stops after this many candidates run.
    pub shrink_candidates: usize,
    /// Answer an input seen before with the reference's earlier answer ([`Answers`]).
    pub reuse_answers: bool,
    /// Inputs judged at once, each worker on its own seeds (at least 1).
    pub jobs: usize,
}

/// Where a stress run's inputs, answers and smaller inputs come from, and how a submission is
/// judged on them: a problem's judge.toml tables, or the command line's `--gen`/`--brute`.
#[derive(Debug)]
pub struct Setup {
    /// The problem's name, for reports.
    pub problem: String,
    /// The folder commands run in, and relative programs are taken from.
    pub root: PathBuf,
    /// Prints one input; `{seed}` in it is replaced (without one, the seed is the last argument).
    pub generator: Vec<String>,
    /// Answers an input; `None` when the checker needs no answer (it gets an empty one).
    pub reference: Option<Vec<String>>,
    pub shrinker: Shrinker,
    pub validator: Option<Validator>,
    pub limits: Limits,
    pub checker: Checker,
    /// For an interactive problem: its interactor, which judges each dialogue; the generator
    /// then writes the interactor's input, and no reference is needed.
    pub interactor: Option<crate::judge::interactive::Shared>,
}

/// How a failing input is shrunk.
#[derive(Debug, Clone)]
pub enum Shrinker {
    /// Writes candidates of `{input}` into the folder `{dir}`.
    Command(Vec<String>),
    /// [`shrink_tokens`]: whitespace-separated tokens, no knowledge of the statement.
    Tokens,
}

impl Setup {
    /// The stress table of a problem in judge.toml, for a program whose limits are scaled by
    /// `time_multiplier`.
    pub fn for_problem(
        config: &Config,
        problem: &Problem,
        time_multiplier: f64,
    ) -> Result<Setup, StressError> {
        let settings = problem
            .stress
            .as_ref()
            .ok_or_else(|| StressError::NoGenerator {
                problem: problem.name.clone(),
            })?;
        let reference = problem.reference.as_ref().cloned();
        let interactor = crate::judge::interactive::prepare(config, problem)?;
        if reference.is_none() && interactor.is_none() && needs_answer(&problem.checker) {
            return Err(StressError::NoReference {
                problem: problem.name.clone(),
            });
        }
        Ok(Setup {
            problem: problem.name.clone(),
            root: config.root.clone(),
            generator: settings.generator.clone(),
            reference,
            shrinker: settings
                .shrink
                .clone()
                .map_or(Shrinker::Tokens, Shrinker::Command),
            validator: Validator::for_problem(config, problem),
            limits: problem.limits(time_multiplier),
            checker: problem.checker.clone(),
            interactor,
        })
    }

    /// How a submission is judged on one input, one at a time, under `limits`.
    fn judge(&self, limits: Limits) -> JudgeSettings<'_> {
        JudgeSettings {
            limits,
            checker: &self.checker,
            jobs: 1,
            interactor: self.interactor.as_deref(),
            communication: None,
            two_steps: false,
            // A file-I/O problem's reference would need its files too: stress runs stdin/stdout.
            files: &judge::STANDARD_IO,
            scoring: None,
            beside: &[],
        }
    }
}

/// Whether `checker` compares with an answer: only a checker program may judge an output by
/// the input alone (a problem with many right answers).
pub fn needs_answer(checker: &Checker) -> bool {
    !matches!(checker, Checker::Command { .. })
}

/// Runs `program` on random inputs of `setup` until one fails or `options` says stop, on
/// `options.jobs` workers. Worker k takes the next unjudged seed, so seeds are judged in order
/// across workers; after a failure no new seed is started, the seeds already started finish,
/// and the failure with the lowest seed is the one kept: the same as one worker would find.
pub fn stress(
    setup: &Setup,
    program: &Program,
    options: &StressOptions,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<StressReport, StressError> {
    let started = Instant::now();
    let jobs = options.jobs.max(1);
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let judged = AtomicU64::new(0);
    let answers = if options.reuse_answers {
        Answers::default()
    } else {
        Answers::disabled()
    };
    let judge = setup.judge(setup.limits);
    // The lowest-indexed failure (or error) any worker met.
    let mut first: Option<(u64, WorkerResult)> = None;
    std::thread::scope(|scope| -> Result<(), StressError> {
        let (sender, receiver) = mpsc::channel::<Message>();
        for _ in 0..jobs {
            let sender = sender.clone();
            let (next, stop, judged, judge, answers) = (&next, &stop, &judged, &judge, &answers);
            let scratch = scratch_dir()?;
            let task = crate::sandbox::interrupt::current_task();
            scope.spawn(move || {
                crate::sandbox::interrupt::in_task(task, || {
                    let trial = Trial {
                        setup,
                        program,
                        judge: judge.clone(),
                        scratch: scratch.path(),
                        answers,
                    };
                    loop {
                        if stop.load(Ordering::SeqCst)
                            || interrupted()
                            || options.time.is_some_and(|t| started.elapsed() >= t)
                        {
                            break;
                        }
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        if options.iterations.is_some_and(|n| index >= n) {
                            break;
                        }
                        let seed = options.first_seed.wrapping_add(index);
                        let result = trial.generate(seed).and_then(|input| {
                            trial
                                .run(&input)
                                .map(|failing| failing.map(|f| (f, input)))
                                .map_err(|error| with_seed(error, seed))
                        });
                        if interrupted() {
                            // Its programs were killed: what it gave is no verdict.
                            break;
                        }
                        judged.fetch_add(1, Ordering::SeqCst);
                        let failed = result.transpose().map(|result| {
                            stop.store(true, Ordering::SeqCst);
                            result.map(|(failing, input)| (Box::new(failing), input))
                        });
                        if sender.send((index, seed, failed)).is_err() {
                            break;
                        }
                    }
                });
            });
        }
        drop(sender);
        for (done, (index, seed, failed)) in (1..).zip(receiver) {
            let verdict = failed.as_ref().and_then(|result| result.as_ref().ok());
            on_event(Event::Tried {
                iteration: done,
                seed,
                failed: verdict.map(|(f, _)| f.outcome.verdict),
            });
            if let Some(result) = failed {
                if first.as_ref().is_none_or(|(lowest, _)| index < *lowest) {
                    first = Some((index, result));
                }
            }
        }
        Ok(())
    })?;

    // With a failure, the inputs up to it, as one worker would have judged: the few seeds past
    // it that other workers had started do not make the count depend on the number of jobs.
    let iterations = match &first {
        Some((index, _)) => index + 1,
        None => judged.into_inner(),
    };
    let report = |found| StressReport {
        problem: setup.problem.clone(),
        first_seed: options.first_seed,
        iterations,
        jobs,
        answers_reused: answers.reused(),
        elapsed: started.elapsed(),
        found,
    };
    let Some((index, result)) = first else {
        return Ok(report(None));
    };
    let (failing, input) = result?;
    let seed = options.first_seed.wrapping_add(index);
    let scratch = scratch_dir()?;
    let trial = Trial {
        setup,
        program,
        judge,
        scratch: scratch.path(),
        answers: &answers,
    };
    // Blame the submission only for an input the statement allows.
    if let Some(reason) = trial.invalid(&input)? {
        return Err(StressError::InvalidInput {
            seed,
            command: trial.generator(seed).shown,
            reason,
        });
    }
    let found = shrink_failure(&trial, seed, index + 1, &failing, options, on_event)?;
    Ok(report(Some(found)))
}

/// Judges `program` (a sanitized build) once on `failing`'s input under `limits`, its answer
/// the one the reference already gave.
pub fn rerun(
    setup: &Setup,
    program: &Program,
    limits: Limits,
    failing: &Failing,
) -> Result<Rerun, StressError> {
    let scratch = scratch_dir()?;
    let answers = Answers::default();
    answers.keep(&failing.input, &failing.expected);
    let trial = Trial {
        setup,
        program,
        judge: setup.judge(limits),
        scratch: scratch.path(),
        answers: &answers,
    };
    let failed = trial
        .run(&failing.input)
        .map_err(|error| with_seed(error, 0))?;
    Ok(failed.map_or(Rerun::Passed, |failed| {
        Rerun::Failed(Box::new(failed.outcome))
    }))
}

/// A failing input (with its failure), or the error that stopped a worker.
type WorkerResult = Result<(Box<Failing>, Vec<u8>), StressError>;

/// What a worker tells the calling thread of each input: its index, its seed, and whether it
/// failed (or stopped the worker).
type Message = (u64, u64, Option<WorkerResult>);

/// Each iteration rewrites its input and answer here: on a disk, truncating and rewriting a
/// file costs a metadata journal write (ext4 flushes a truncated file's data on close) that a
/// tmpfs does not, for files that never outlive the run.
fn scratch_dir() -> Result<tempfile::TempDir, StressError> {
    crate::sandbox::run::scratch_folder("harness-stress-").map_err(io(&std::env::temp_dir()))
}

/// An I/O error on `path`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StressError {
    let path = path.to_path_buf();
    move |source| StressError::Io { path, source }
}

/// Shrinks `original` within the budget of `options`; Ctrl-C stops it too. Either way the
/// smallest failure so far is what it returns, with a status that says why it stopped.
fn shrink_failure(
    trial: &Trial<'_>,
    seed: u64,
    iteration: u64,
    original: &Failing,
    options: &StressOptions,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Found, StressError> {
    let builtin_shrinker = matches!(trial.setup.shrinker, Shrinker::Tokens);
    let found = |status, minimal: Failing, steps, (tried, remembered)| Found {
        seed,
        iteration,
        original: original.clone(),
        minimal,
        steps,
        tried,
        remembered,
        shrink: status,
        builtin_shrinker,
        sanitized: None,
        kept: None,
    };
    let status = match original.outcome.verdict {
        Verdict::JudgeError => Some(ShrinkStatus::JudgeError),
        _ if !options.shrink => Some(ShrinkStatus::Disabled),
        _ if interrupted() => Some(ShrinkStatus::Interrupted),
        _ => None,
    };
    if let Some(status) = status {
        return Ok(found(status, original.clone(), Vec::new(), (0, 0)));
    }
    let started = Instant::now();
    let target = original.outcome.verdict;
    let mut tokens = shrink_tokens::Tokens;
    let mut command;
    let source: &mut dyn shrink::Candidates<Failing, StressError> = match &trial.setup.shrinker {
        Shrinker::Tokens => &mut tokens,
        Shrinker::Command(words) => {
            let mut round = 0;
            command = move |current: &Failing| {
                round += 1;
                candidates(
                    &trial.setup.root,
                    words,
                    trial.scratch,
                    round,
                    &current.input,
                )
            };
            &mut command
        }
    };
    let shrunk = shrink::shrink(
        original.clone(),
        source,
        |candidate| {
            // Whatever a candidate gave after Ctrl-C (its programs killed, an error of a
            // validator cut off) is no verdict; the watch stops before the next one.
            let result = trial.candidate(candidate);
            if interrupted() {
                return Ok(None);
            }
            // The built-in shrinker does not know the input's format: a candidate that fails
            // otherwise (an RE where the bug was a WA) most likely broke the format, not the
            // program, and is not kept.
            result
                .map(|failing| failing.filter(|f| !builtin_shrinker || f.outcome.verdict == target))
        },
        |tally: &Tally<'_, Failing>| {
            on_event(Event::Shrunk {
                steps: tally.steps,
                tried: tally.tried,
                input: &tally.current.input,
                verdict: tally.current.outcome.verdict,
            });
            if interrupted() {
                Some(Stopped::Interrupted)
            } else if tally.tried >= options.shrink_candidates {
                Some(Stopped::Candidates)
            } else if started.elapsed() >= options.shrink_time {
                Some(Stopped::Time)
            } else {
                None
            }
        },
    )?;
    let status = match shrunk.stopped {
        // Ctrl-C during the last candidate ends the rounds as if it had passed.
        _ if interrupted() => ShrinkStatus::Interrupted,
        None => ShrinkStatus::Shrunk,
        Some(Stopped::Rounds) => ShrinkStatus::GaveUp,
        Some(Stopped::Time) => ShrinkStatus::OutOfTime(options.shrink_time),
        Some(Stopped::Candidates) => ShrinkStatus::OutOfCandidates(options.shrink_candidates),
        Some(Stopped::Interrupted) => ShrinkStatus::Interrupted,
    };
    let counts = (shrunk.tried, shrunk.remembered);
    Ok(found(status, shrunk.minimal, shrunk.steps, counts))
}

fn interrupted() -> bool {
    crate::sandbox::interrupt::is_interrupted()
}

/// Runs the shrink command on `input` and reads its candidates, in name order.
fn candidates(
    root: &Path,
    command: &[String],
    scratch: &Path,
    round: usize,
    input: &[u8],
) -> Result<Vec<Vec<u8>>, StressError> {
    let input_path = scratch.join("shrinking.in");
    fs::write(&input_path, input).map_err(io(&input_path))?;
    // A fresh folder per round: leftovers of the last round are never taken for candidates.
    let dir = scratch.join(format!("candidates-{round}"));
    fs::create_dir_all(&dir).map_err(io(&dir))?;
    let shrinker = tool::Command::new(
        Role::Shrinker,
        command,
        root,
        &[
            ("input", &input_path.to_string_lossy()),
            ("dir", &dir.to_string_lossy()),
        ],
    );
    shrinker
        .output(None, Some(root))
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

/// Everything needed to judge one input, in one worker's scratch folder.
struct Trial<'a> {
    setup: &'a Setup,
    program: &'a Program,
    judge: JudgeSettings<'a>,
    scratch: &'a Path,
    answers: &'a Answers,
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
    /// The generator's command for `seed`: `{seed}` replaced, or the seed added as the last
    /// argument when the command has no `{seed}` (testlib's generators read it so).
    fn generator(&self, seed: u64) -> tool::Command {
        let seed = seed.to_string();
        let mut template = self.setup.generator.clone();
        if !template.iter().any(|part| part.contains("{seed}")) {
            template.push("{seed}".to_string());
        }
        tool::Command::new(
            Role::Generator,
            &template,
            &self.setup.root,
            &[("seed", &seed)],
        )
    }

    fn generate(&self, seed: u64) -> Result<Vec<u8>, StressError> {
        self.generator(seed)
            .output(None, Some(&self.setup.root))
            .map_err(|source| StressError::Generator { seed, source })
    }

    /// Judges the submission on `input`: `None` when it is accepted.
    fn run(&self, input: &[u8]) -> Result<Option<Failing>, TrialError> {
        let case = self.write_case("input", input)?;
        let (expected, outcome) = if self.judge.interactor.is_some() {
            // The interactor judges the dialogue: its answer file is empty, and there is no
            // output to check afterwards.
            fs::write(&case.answer, b"").map_err(io(&case.answer))?;
            (
                Vec::new(),
                judge::judge_case(self.program, &case, &self.judge),
            )
        } else {
            let remembered = || self.answers.get(input);
            let (expected, run) = match &self.setup.reference {
                // The checker needs no answer.
                None => (
                    Vec::new(),
                    judge::run_case(self.program, &case, &self.judge),
                ),
                Some(_) if let Some(answer) = remembered() => (
                    answer.to_vec(),
                    judge::run_case(self.program, &case, &self.judge),
                ),
                // The reference and the submission read the same input and nothing of each
                // other: they run side by side, so an iteration waits for the slower, not both.
                Some(reference) => {
                    let (expected, run) = std::thread::scope(|scope| {
                        let task = crate::sandbox::interrupt::current_task();
                        let answer = scope.spawn(|| {
                            crate::sandbox::interrupt::in_task(task, || {
                                tool::Command::new(
                                    Role::Reference,
                                    reference,
                                    &self.setup.root,
                                    &[],
                                )
                                .output(Some(&case.input), None)
                            })
                        });
                        let run = judge::run_case(self.program, &case, &self.judge);
                        let expected = answer
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                        (expected, run)
                    });
                    let expected = expected.map_err(TrialError::Reference)?;
                    self.answers.keep(input, &expected);
                    (expected, run)
                }
            };
            fs::write(&case.answer, &expected).map_err(io(&case.answer))?;
            let checked = judge::check_run(run, &case, &self.judge);
            (expected, judge::with_input(checked, &case))
        };
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
        let Some(validator) = &self.setup.validator else {
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
            args: Vec::new(),
        };
        fs::write(&case.input, input).map_err(io(&case.input))?;
        Ok(case)
    }
}
