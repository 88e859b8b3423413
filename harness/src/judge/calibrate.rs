//! `harness calibrate`: measure how fast the accepted programs of a problem are and suggest a
//! time limit from that, as problem setters do: twice the slowest accepted program, rounded up
//! to a round number, then checked against the submissions that must not pass. A limit
//! already in judge.toml that the runs' spread cannot tell from the suggestion is kept: on a
//! busy machine CPU times vary by a tenth or more, and twice 148 ms or 152 ms would otherwise
//! be 300 ms one run and 400 ms the next.
//!
//! It runs everything and returns numbers; it never prints.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::case::discover::{self, Case, DiscoverError};
use crate::compile::submission::{Compiled, Prepared};
use crate::compile::submit::SubmitError;
use crate::compile::Program;
use crate::config::{Config, Problem};
use crate::event::{Event, Finished};
use crate::judge::submission::{self, Plan, SubmissionError};
use crate::judge::verify::{self, Expected, Stored, VerifyError};
use crate::judge::{self, CaseOutcome, JudgeSettings, Stop};
use crate::sandbox::run::Limits;
use crate::verdict::Verdict;

pub use crate::results::calibrate::{
    LimitWrite, ProblemCalibration, ProgramTiming, Role, SlowCheck,
};

/// While measuring, programs get this many times the problem's time limit: a program slower
/// than the limit still gets a number (and a warning), not just a TLE.
const MEASURE_HEADROOM: u32 = 5;
/// The suggestion is this many times the slowest accepted program (the usual rule of thumb).
const SAFETY_FACTOR: u32 = 2;

#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    #[error("problem `{problem}`: solution `{}` does not exist (hint: build it, or drop --no-build)", path.display())]
    MissingSolution { problem: String, path: PathBuf },
    #[error(transparent)]
    Verify(#[from] VerifyError),
    #[error(transparent)]
    Submit(#[from] SubmitError),
    /// The solution is a source file that could not be compiled.
    #[error(transparent)]
    Solution(#[from] super::suite::SuiteError),
    #[error("problem `{problem}` has no cases in `{}` to measure on (hint: `harness gen` or `harness add` makes some)", path.display())]
    NoCases { problem: String, path: PathBuf },
}

#[derive(Debug, Clone, Copy)]
pub struct CalibrateSettings<'a> {
    /// Runs of each program on each case; the median CPU time of these counts.
    pub repeat: usize,
    /// Cases run at once.
    pub jobs: usize,
    /// The folder of stored submissions (`<problem>/<expected>/FILE` below it).
    pub submissions: &'a Path,
}

/// `max(slowest) × 2`, rounded up to a round step: 100 ms up to 2 s, 500 ms up to 10 s, whole
/// seconds above; never below 100 ms, since process start-up alone varies by milliseconds.
pub fn suggest_limit(slowest: Duration) -> Duration {
    let wanted = slowest * SAFETY_FACTOR;
    let step = if wanted <= Duration::from_secs(2) {
        Duration::from_millis(100)
    } else if wanted <= Duration::from_secs(10) {
        Duration::from_millis(500)
    } else {
        Duration::from_secs(1)
    };
    let steps = wanted.as_nanos().div_ceil(step.as_nanos()).max(1);
    step * u32::try_from(steps).unwrap_or(u32::MAX)
}

/// The least noise a calibration assumes: calibrations minutes apart on a shared 2-core
/// machine found one program's slowest case at 126 ms and at 185 ms, each run's own spread
/// being smaller than that.
const MIN_NOISE: f64 = 0.2;
/// The most: a band wider than this would keep any limit.
const MAX_NOISE: f64 = 0.5;

/// The limits a calibration cannot tell from its suggestion, for the slowest program's time
/// and the spread of its runs (`None`: one run, no spread known), taken as the noise, within
/// [`MIN_NOISE`] and [`MAX_NOISE`]: from twice the slowest less the noise to the suggestion
/// for the slowest plus the noise.
pub fn within_noise(slowest: Duration, spread: Option<f64>) -> (Duration, Duration) {
    let noise = spread.unwrap_or(0.0).clamp(MIN_NOISE, MAX_NOISE);
    let lowest = (slowest * SAFETY_FACTOR).mul_f64(1.0 - noise);
    // In whole milliseconds, as judge.toml writes limits.
    let lowest = Duration::from_millis(u64::try_from(lowest.as_millis()).unwrap_or(u64::MAX));
    (lowest, suggest_limit(slowest.mul_f64(1.0 + noise)))
}

/// The limit to suggest: judge.toml's `current` when it is within the noise of the
/// measurement, else twice the slowest, rounded up.
pub fn choose(
    slowest: Duration,
    within_noise: (Duration, Duration),
    current: Duration,
) -> Duration {
    let (lowest, highest) = within_noise;
    if lowest <= current && current <= highest {
        current
    } else {
        suggest_limit(slowest)
    }
}

/// The stored submissions of `problem`, as `harness verify` finds them (the same layout
/// checks, languages picked the same way). None stored is not an error here: calibrating
/// needs only the problem's own solution.
fn stored<'a>(
    config: &'a Config,
    problem: &Problem,
    folder: &Path,
) -> Result<Vec<Stored<'a>>, CalibrateError> {
    match verify::plan(config, folder, std::slice::from_ref(&problem.name)) {
        Ok(stored) => Ok(stored),
        Err(
            VerifyError::MissingFolder(_)
            | VerifyError::NoneForProblem { .. }
            | VerifyError::Empty(_),
        ) => Ok(Vec::new()),
        Err(error) => Err(error.into()),
    }
}

/// `accepted/greedy.cpp`: the stored name without the problem, which every line is about.
fn label_of(stored: &Stored<'_>) -> String {
    let prefix = format!("{}/", stored.plan.problem.name);
    stored
        .name
        .strip_prefix(&prefix)
        .unwrap_or(&stored.name)
        .to_string()
}

/// A program ready to measure.
struct Candidate {
    label: String,
    role: Role,
    path: PathBuf,
    program: Program,
    time_multiplier: f64,
    /// Keeps the build folder of a compiled submission alive while it runs.
    _prepared: Option<Prepared>,
}

/// Compiles a stored accepted submission once, for all the runs to come; a compile error
/// comes back as a timing that measured nothing.
fn build_accepted(stored: &Stored<'_>) -> Result<Result<Candidate, ProgramTiming>, SubmitError> {
    let label = label_of(stored);
    let path = stored.plan.source.clone();
    Ok(
        match crate::compile::submission::compile(
            stored.plan.language,
            &path,
            stored.plan.problem.memory_limit,
        )? {
            Compiled::Ready(prepared) => Ok(Candidate {
                label,
                role: Role::Accepted,
                path,
                program: prepared.program.clone(),
                time_multiplier: prepared.time_multiplier,
                _prepared: Some(prepared),
            }),
            Compiled::CompileError { message, .. } => Err(ProgramTiming {
                label,
                role: Role::Accepted,
                path,
                time_multiplier: stored.plan.language.time_multiplier,
                slowest: Duration::ZERO,
                slowest_case: String::new(),
                slowest_runs: Vec::new(),
                failures: Vec::new(),
                compile_error: Some(message),
            }),
        },
    )
}

/// A problem ready to calibrate: its cases, its programs compiled, and the too-slow
/// submissions to try once a limit is suggested. Everything is compiled before anything is
/// measured, so the runs to come are known (and a missing file stops the command at once).
pub struct Ready<'a> {
    problem: &'a Problem,
    cases: Vec<Case>,
    candidates: Vec<Candidate>,
    /// Accepted submissions that did not compile: timings that measured nothing.
    compile_errors: Vec<ProgramTiming>,
    slow_ones: Vec<Stored<'a>>,
    interactor: Option<super::interactive::Shared>,
}

impl Ready<'_> {
    /// The problem's name.
    pub fn problem(&self) -> &str {
        &self.problem.name
    }

    /// The names of its cases.
    pub fn case_names(&self) -> Vec<String> {
        self.cases.iter().map(|c| c.name.clone()).collect()
    }

    /// Case runs measuring takes: each program `repeat` times on every case, and each
    /// too-slow submission once (fewer when it fails early, or when no limit is suggested).
    pub fn runs(&self, repeat: usize) -> usize {
        self.cases.len() * (self.candidates.len() * repeat.max(1) + self.slow_ones.len())
    }
}

/// Finds and compiles what calibrating `problem` runs: its solution (or the build cache's),
/// its reference, and its stored accepted and too-slow submissions.
pub fn prepare<'a>(
    config: &'a Config,
    problem: &'a Problem,
    settings: &CalibrateSettings,
) -> Result<Ready<'a>, CalibrateError> {
    let cases = discover::discover(&problem.cases)?;
    if cases.is_empty() {
        return Err(CalibrateError::NoCases {
            problem: problem.name.clone(),
            path: problem.cases.clone(),
        });
    }
    let mut candidates = Vec::new();
    // Without a `solution`, the stored submissions (and the reference) are what is measured.
    if let Some(solution) = &problem.solution {
        if !solution.is_file() {
            return Err(CalibrateError::MissingSolution {
                problem: problem.name.clone(),
                path: solution.clone(),
            });
        }
        // A source file is compiled (or taken from the cache) as `harness run` does, and gets
        // its language's time multiplier.
        let (program, language) = super::suite::solution_program(config, problem, solution)?;
        candidates.push(Candidate {
            label: Role::Solution.as_str().to_string(),
            role: Role::Solution,
            path: solution.clone(),
            program,
            time_multiplier: language.map_or(1.0, |l| l.time_multiplier),
            _prepared: None,
        });
    }
    let reference = problem.reference.as_deref().and_then(|command| {
        let (program, args) = command.split_first()?;
        let program = crate::tool::resolve_program(program, &config.root);
        program.is_file().then(|| Program {
            executable: program,
            args: args.iter().map(std::ffi::OsString::from).collect(),
            syscall_filter: true,
            sanitized: None,
            shown: Default::default(),
        })
    });
    if let Some(reference) = reference {
        candidates.push(Candidate {
            label: Role::Reference.as_str().to_string(),
            role: Role::Reference,
            path: reference.executable.clone(),
            program: reference,
            time_multiplier: 1.0,
            _prepared: None,
        });
    }
    let stored = stored(config, problem, settings.submissions)?;
    let interactor = super::interactive::prepare(config, problem)
        .map_err(|error| CalibrateError::Verify(VerifyError::from(SubmissionError::from(error))))?;
    let mut compile_errors = Vec::new();
    let mut slow_ones = Vec::new();
    for entry in stored {
        if entry.expected == Expected::One(Verdict::Accepted) {
            match build_accepted(&entry)? {
                Ok(candidate) => candidates.push(candidate),
                Err(compile_error) => compile_errors.push(compile_error),
            }
        } else if entry.expected == Expected::One(Verdict::TimeLimitExceeded) {
            slow_ones.push(entry);
        }
    }
    Ok(Ready {
        problem,
        cases,
        candidates,
        compile_errors,
        slow_ones,
        interactor,
    })
}

/// Calibrates one problem made ready, the `unit`-th of the plan: measure, suggest, then try the
/// too-slow submissions.
pub fn measure(
    ready: &Ready<'_>,
    unit: usize,
    settings: &CalibrateSettings,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<ProblemCalibration, CalibrateError> {
    let (problem, cases) = (ready.problem, &ready.cases);
    let mut programs = Vec::new();
    for candidate in &ready.candidates {
        let label = format!("{}: {}", problem.name, candidate.label);
        on_event(Event::Started {
            unit,
            label: &label,
        });
        programs.push(measure_program(
            problem,
            candidate,
            cases,
            settings,
            ready.interactor.as_ref(),
            &mut |outcome| on_event(Event::CaseFinished { unit, outcome }),
        ));
    }
    // Measured programs first in the order they ran, compile errors after: the table reads
    // solution, reference, accepted/… whatever failed to build.
    programs.extend(ready.compile_errors.iter().cloned());

    let mut calibration = ProblemCalibration {
        problem: problem.name.clone(),
        current_limit: problem.time_limit,
        case_count: cases.len(),
        programs,
        suggested_limit: None,
        within_noise: None,
        slow_checks: Vec::new(),
    };
    let counted: Vec<&ProgramTiming> = calibration
        .programs
        .iter()
        .filter(|p| p.role.sets_the_limit() && p.passed())
        .collect();
    if let Some(slowest) = counted.iter().copied().max_by_key(|p| p.normalized()) {
        let band = within_noise(slowest.normalized(), slowest.spread());
        calibration.within_noise = Some(band);
        calibration.suggested_limit = Some(choose(slowest.normalized(), band, problem.time_limit));
    }

    // Without a suggestion there is nothing to try them under: their runs do not happen.
    if let Some(limit) = calibration.suggested_limit {
        for slow in &ready.slow_ones {
            let label = format!("{}: {}", problem.name, label_of(slow));
            on_event(Event::Started {
                unit,
                label: &label,
            });
            let check = check_slow(slow, limit, cases, settings.jobs, &mut |outcome| {
                on_event(Event::CaseFinished { unit, outcome });
            })?;
            calibration.slow_checks.push(check);
        }
    }
    on_event(Event::UnitFinished {
        unit,
        result: Finished::Calibrated(&calibration),
    });
    Ok(calibration)
}

/// Runs `candidate` `repeat` times over all cases (whole passes, so that a passing disturbance
/// hits one run of many cases rather than every run of one case).
fn measure_program(
    problem: &Problem,
    candidate: &Candidate,
    cases: &[Case],
    settings: &CalibrateSettings,
    interactor: Option<&super::interactive::Shared>,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> ProgramTiming {
    let limits = measuring_limits(problem, candidate.time_multiplier);
    // A scored problem's checker may give points: scored, they are not judge errors. Only the
    // times are wanted here, so rules that do not fit these cases simply score nothing.
    let scoring = super::scoring::rules_for(problem, cases).ok().flatten();
    let judge_settings = JudgeSettings {
        limits,
        checker: &problem.checker,
        jobs: settings.jobs.max(1),
        interactor: interactor.map(|shared| &**shared),
        communication: None,
        two_steps: problem.two_steps,
        files: &problem.files,
        scoring: scoring.as_deref(),
        beside: &[],
    };
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); cases.len()];
    let mut failures: Vec<Option<CaseOutcome>> = vec![None; cases.len()];
    for _ in 0..settings.repeat.max(1) {
        let outcomes = judge::judge_cases(&candidate.program, cases, &judge_settings, on_case);
        for (index, outcome) in outcomes.into_iter().enumerate() {
            times[index].push(outcome.cpu_time);
            if !outcome.verdict.is_accepted() && failures[index].is_none() {
                failures[index] = Some(outcome);
            }
        }
    }
    let (slowest_index, slowest) = times
        .iter_mut()
        .map(|runs| median(runs))
        .enumerate()
        .max_by_key(|&(_, time)| time)
        .unwrap_or_default();
    ProgramTiming {
        label: candidate.label.clone(),
        role: candidate.role,
        path: candidate.path.clone(),
        time_multiplier: candidate.time_multiplier,
        slowest,
        slowest_case: cases
            .get(slowest_index)
            .map(|c| c.name.clone())
            .unwrap_or_default(),
        // `median` sorted them.
        slowest_runs: times.get(slowest_index).cloned().unwrap_or_default(),
        failures: failures.into_iter().flatten().collect(),
        compile_error: None,
    }
}

/// The problem's limits with room to measure programs slower than the limit.
fn measuring_limits(problem: &Problem, time_multiplier: f64) -> Limits {
    let mut limits = problem.limits(time_multiplier);
    limits.cpu_time *= MEASURE_HEADROOM;
    limits.wall_time = crate::sandbox::run::wall_limit(limits.cpu_time);
    limits
}

/// The lower median: with 3 runs the middle one, so one disturbed run changes nothing.
fn median(runs: &mut [Duration]) -> Duration {
    runs.sort();
    runs.get((runs.len().max(1) - 1) / 2)
        .copied()
        .unwrap_or_default()
}

/// Judges a too-slow submission under the suggested limit as `harness judge --fail-fast`
/// would, stopping at the first failing case: its job is to fail, and once it has, the rest
/// would only take time.
fn check_slow(
    slow: &Stored<'_>,
    limit: Duration,
    cases: &[Case],
    jobs: usize,
    on_case: &mut dyn FnMut(&CaseOutcome),
) -> Result<SlowCheck, SubmitError> {
    let mut problem = slow.plan.problem.clone();
    problem.time_limit = limit;
    problem.wall_limit = crate::sandbox::run::wall_limit(limit);
    let plan = Plan {
        problem: &problem,
        language: slow.plan.language,
        source: slow.plan.source.clone(),
        cases: cases.to_vec(),
        interactor: slow.plan.interactor.clone(),
        communication: slow.plan.communication.clone(),
        scoring: slow.plan.scoring.clone(),
        unscored: None,
    };
    let options = submission::Options {
        jobs: jobs.max(1),
        stop: Stop::AfterFirstFailure,
    };
    let report = submission::judge(&plan, &options, on_case)?;
    let multiplier = slow.plan.language.time_multiplier;
    let first_failure = report.first_failure();
    Ok(SlowCheck {
        label: label_of(slow),
        path: slow.plan.source.clone(),
        verdict: report.verdict,
        case: first_failure.map(|o| o.case.clone()),
        slowest: report.max_cpu_time().div_f64(multiplier),
        compile_error: (!report.compile.ok).then(|| report.compile.message.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn suggestions_round_up_to_a_step() {
        let table = [
            (0, 100),
            (1, 100),
            (50, 100),
            (51, 200),
            (120, 300),
            (1000, 2000),
            (1001, 2500),
            (2600, 5500),
            (5001, 11000),
        ];
        for (slowest, suggested) in table {
            assert_eq!(suggest_limit(ms(slowest)), ms(suggested), "{slowest} ms");
        }
    }

    /// Twice 148 ms and twice 152 ms round up to different steps; judge.toml's limit,
    /// written by the first calibration, is within the noise of the second and kept.
    #[test]
    fn a_limit_within_the_noise_is_kept() {
        let first = choose(ms(148), within_noise(ms(148), Some(0.1)), ms(1000));
        assert_eq!(first, ms(300));
        let second = choose(ms(152), within_noise(ms(152), Some(0.1)), first);
        assert_eq!(second, ms(300));
        // Fresh, the same second run would have said 400 ms.
        assert_eq!(suggest_limit(ms(152)), ms(400));
        // The noise is at least a fifth, and the spread of the runs when that is more.
        assert_eq!(within_noise(ms(152), None), (ms(243), ms(400)));
        assert_eq!(within_noise(ms(152), Some(0.45)), (ms(167), ms(500)));
        assert_eq!(within_noise(ms(152), Some(3.0)).0, ms(152));
        // Out of the noise either way: the fresh suggestion.
        assert_eq!(
            choose(ms(152), within_noise(ms(152), None), ms(200)),
            ms(400)
        );
        assert_eq!(choose(ms(40), within_noise(ms(40), None), ms(300)), ms(100));
    }

    #[test]
    fn the_median_ignores_one_disturbed_run() {
        assert_eq!(median(&mut [ms(5), ms(90), ms(4)]), ms(5));
        assert_eq!(median(&mut [ms(7)]), ms(7));
        assert_eq!(median(&mut [ms(3), ms(9)]), ms(3));
        assert_eq!(median(&mut []), ms(0));
    }

    #[test]
    fn multipliers_scale_times_down() {
        let python = ProgramTiming {
            label: "accepted/a.py".to_string(),
            role: Role::Accepted,
            path: PathBuf::from("a.py"),
            time_multiplier: 3.0,
            slowest: ms(300),
            slowest_case: "big".to_string(),
            slowest_runs: Vec::new(),
            failures: Vec::new(),
            compile_error: None,
        };
        assert_eq!(python.normalized(), ms(100));
    }
}
